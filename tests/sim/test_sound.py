"""Retail's choice of sound (viewer.sim.sound): SoundManager.obj and the CAnimHook.c sound
hooks. The draws are worked by hand below from the two generators' first values."""

import dataclasses

import pytest
import sim_builders as B

from viewer.dat.records.hooks import SoundHook, SoundTableHook, SoundTweakedHook
from viewer.dat.records.sound import SoundEntry, SoundTable, SoundTableData
from viewer.sim import mixer as M
from viewer.sim import sound as S
from viewer.sim.rng import CrtRand, RetailRandom

STABLE = 0x20000001
A, B_, C = 0x0A000001, 0x0A000002, 0x0A000003
TYPE = 0x75


def _world(seed=7, origin=(0.0, 0.0, 0.0)):
    table = SoundTable(STABLE, SoundTableData(0, (SoundEntry(0, 0.0, 1.0, 1.0),), (
        SoundTableData(TYPE, (SoundEntry(A, 0.2, 1.0, 0.5), SoundEntry(B_, 0.3, 0.5, 1.0),
                              SoundEntry(C, 0.4, 1.0, 1.0)), ()),)))
    setup = dataclasses.replace(B.setup(), default_sound_table=STABLE)
    w = B.world({0x02000001: setup, STABLE: table, **{d: B.wave(d) for d in (A, B_, C)}},
                seed=seed)
    return w, w.create_object(1, 0x02000001, position=origin)


def _run(w, o, hook):
    from viewer.sim.hooks import execute_hook
    execute_hook(w, o, hook, 0, 0)


def test_PlayProbability_0x005500E0_draws_the_msvc_crt_rand():
    # srand(1): the C runtime's documented first values
    c = CrtRand(1)
    assert [c.rand() for _ in range(5)] == [41, 18467, 6334, 26500, 19169]


def test_GetSound_0x00550680_and_PlayProbability_follow_the_seeded_draws_by_hand():
    # seed 7. Random::rand: 0.45206, 0.88851, 0.31787, 0.59643; CRT rand: 61, 17422,
    # 15215, 7040. Entries A(p 1.0), B(p 0.5), C(p 1.0); index = trunc(2 * roll):
    #  1: 2*0.45206 -> 0 = A; 61*3.05e-5 = 0.0019 < 1.0   -> A plays (volume 0.5)
    #  2: 2*0.88851 -> 1 = B; 17422*3.05e-5 = 0.5317 >= 0.5 -> B does not play
    #  3: 2*0.31787 -> 0 = A; 15215*3.05e-5 = 0.4643 < 1.0 -> A plays
    #  4: 2*0.59643 -> 1 = B; 7040*3.05e-5 = 0.2148 < 0.5  -> B plays
    # C (the last entry) can never be chosen: (n - 1) * roll < n - 1.
    assert [round(RetailRandom(7).rand(), 5)] == [0.45206]
    assert CrtRand(7).rand() == 61
    w, o = _world()
    for _ in range(4):
        _run(w, o, SoundTableHook(0, TYPE))
    ev = B.events(w, "sound")
    assert [(e["entry"], e["wave"], e["played"]) for e in ev] == [
        (0, A, True), (1, B_, False), (0, A, True), (1, B_, True)]
    assert ev[0]["volume"] == 0.5 and ev[0]["sound_type"] == TYPE
    assert w.rng.draws == 4 and w.sound.crt.draws == 4


def test_SoundHook_0x00526A20_draws_nothing_and_plays_at_the_effects_volume():
    w, o = _world()
    _run(w, o, SoundHook(0, A))
    (e,) = B.events(w, "sound")
    assert (e["wave"], e["played"], e["volume"], e["gain"], e["voice"]) == (A, True, 1.0,
                                                                           1.0, 0)
    assert w.rng.draws == 0 and w.sound.crt.draws == 0
    assert e["start"] == e["t"]


def test_SoundTweaked_0x005507A0_rolls_its_probability_on_the_crt_and_ignores_priority():
    w, o = _world(seed=1)          # CRT: 41 (0.00125), 18467 (0.5636)
    _run(w, o, SoundTweakedHook(0, A, 0.5, 0.0, 0.25))
    _run(w, o, SoundTweakedHook(0, A, 0.5, 9.0, 0.25))
    ev = B.events(w, "sound")
    assert [e["played"] for e in ev] == [True, False]
    assert ev[0]["volume"] == 0.25 and ev[0]["attenuation_db"] == -12  # ceil(-2 * 6.0206)
    assert w.rng.draws == 0


def test_SoundTable_without_a_table_or_type_plays_nothing_and_draws_nothing():
    w, o = _world()
    _run(w, o, SoundTableHook(0, 0x33))
    (e,) = B.events(w, "sound")
    assert e["played"] is False and e["wave"] == 0
    assert w.rng.draws == 0 and w.sound.crt.draws == 0


@pytest.mark.parametrize("distance,volume,ok,db", [
    (0.0, 1.0, True, 0), (4.9, 0.5, True, -6),           # inside 5 m: the volume itself
    (10.0, 1.0, True, -12),                                 # 25/100 = 2^-2 -> -12.04 -> -12
    (100.0, 1.0, False, -50),                               # 0.0025 -> -52.03 < VOL_MIN
    (0.0, 0.0, False, -50), (2.0, 4.0, True, 0)])           # silent; clamped to 1
def test_GetAttenuation_0x00550020(distance, volume, ok, db):
    assert S.get_attenuation(distance, volume) == (ok, db)


def test_PlaySoundInternal_0x00550170_attenuates_by_distance_from_the_viewer():
    w, o = _world(origin=(0.0, 10.0, 0.0))
    _run(w, o, SoundHook(0, A))
    (e,) = B.events(w, "sound")
    assert e["distance"] == 10.0 and e["attenuation_db"] == -12
    assert e["gain"] == pytest.approx(10 ** (-12 / 20))
    # the source straight ahead of a viewer looking along +Y (heading 0): the heading
    # source->listener is 180, the angle 180, sin() ~ 0: no pan
    assert e["pan"] == 0
    w, o = _world(origin=(0.0, 100.0, 0.0))
    _run(w, o, SoundHook(0, A))
    assert B.events(w, "sound")[0]["played"] is False


def test_PlaySoundInternal_0x0054FEC0_16_voice_ring_reuses_the_oldest_voice():
    # every voice stores priority 0 (SoundData::SoundData 0x00551CB0), so each new sound
    # takes the next slot of the ring and stops what that slot still held
    w, o = _world()
    for _ in range(17):
        _run(w, o, SoundHook(0, A))
    assert [e["voice"] for e in B.events(w, "sound")] == list(range(16)) + [0]


def test_pan_is_zero_closer_than_5m():
    assert S.pan_of((0.0, 4.9, 0.0), (0.0, 0.0, 0.0), 0.0, 4.9) == 0


def test_Frame_get_heading_0x00535760_of_the_viewer_is_a_compass_heading():
    """Frame::get_heading and Position::heading 0x005A9520 share one formula, the one
    Frame::set_heading 0x00535E40 inverts (heading 90 = +X): 0 looking along +Y."""
    assert S.frame_heading((0.0, 1.0, 0.0)) == pytest.approx(0.0)
    assert S.frame_heading((1.0, 0.0, 0.0)) == pytest.approx(90.0)
    assert S.frame_heading((0.0, -1.0, -0.5)) == pytest.approx(180.0)   # pitch ignored
    assert S.heading_deg((0.0, 0.0, 0.0), (-3.0, 0.0, 9.0)) == pytest.approx(270.0)
    from viewer.sim.frame import Frame
    for deg in (0.0, 30.0, 90.0, 200.0, 315.0):
        fwd = Frame.from_heading((0.0, 0.0, 0.0), deg).get_vector_heading()
        assert S.frame_heading(fwd) == pytest.approx(deg)


@pytest.mark.parametrize("source, forward, pan", [
    ((10.0, 0.0, 0.0), (0.0, 1.0, 0.0), 14),      # looking along +Y: +X is on the right
    ((-10.0, 0.0, 0.0), (0.0, 1.0, 0.0), -14),    # ... -X on the left
    ((0.0, 10.0, 0.0), (0.0, 1.0, 0.0), 0),       # ahead
    ((0.0, -10.0, 0.0), (0.0, 1.0, 0.0), 0),      # behind
    ((0.0, -10.0, 0.0), (1.0, 0.0, 0.0), 14),     # looking along +X: -Y is on the right
    ((0.0, 10.0, 0.0), (1.0, 0.0, 0.0), -14),
    ((7.0, 7.0, 0.0), (0.0, 1.0, -0.3), 10),      # 45 deg right: trunc(15 sin 45)
])
def test_PlaySoundInternal_0x00550170_a_sound_on_the_listeners_right_pans_right(
        source, forward, pan):
    """Pan = trunc(sin(heading source->listener - listener heading) * -15): positive on the
    listener's right, where DirectSound attenuates the left channel (mixer.pan_gains); the
    truncated 0.017453292 keeps |sin| just under 1, so a sound at 90 deg gives 14."""
    w, o = _world(origin=source)
    w.set_viewer((0.0, 0.0, 0.0), forward)
    _run(w, o, SoundHook(0, A))
    e = B.events(w, "sound")[0]
    assert e["pan"] == pan
    left, right = M.pan_gains(e["pan"])
    assert (right > left) == (pan > 0) and (left > right) == (pan < 0)


def test_GetAttenuation_0x00550020_audible_distance_is_where_played_flips():
    for volume in (1.0, 0.5, 0.1, 2.0):
        d = S.audible_distance(volume)
        assert S.get_attenuation(d * 0.9999, volume)[0] is True
        assert S.get_attenuation(d * 1.0001, volume)[0] is False
    assert S.audible_distance(0.0) == 0.0
    assert S.audible_distance(float("inf")) == float("inf")


def test_a_sounds_distance_from_its_flip_bounds_the_worlds_viewer_margin():
    """A played sound 10 m away at volume 1 (audible to ~94.2 m): the voice ring turned, and
    it would not have for a viewer ~84 m farther, so the world's viewer_margin is that."""
    w, o = _world(origin=(0.0, 10.0, 0.0))
    assert w.viewer_margin == float("inf")
    _run(w, o, SoundHook(0, A))
    assert w.viewer_margin == pytest.approx(S.audible_distance(1.0) - 10.0)
