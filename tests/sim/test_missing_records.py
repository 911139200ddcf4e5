"""Absent records at run time, one rule everywhere: a record that a hook, a table or a
Setup names and no open DAT holds gives one ``missing`` event (what, did, by: the record
that named it) when it is needed, and the effect is skipped the way retail skips it
(DBObj::Get returns null and the caller gives up: each test names the retail branch)."""

from __future__ import annotations

import dataclasses

import sim_builders as B

from viewer.dat.records.hooks import (
    CallPESHook,
    SoundHook,
    SoundTableHook,
    SoundTweakedHook,
)
from viewer.dat.records.sound import SoundEntry, SoundTable, SoundTableData
from viewer.sim import hooks as H
from viewer.sim.events import to_line
from viewer.sim.mixer import SoundCapture, SoundMixer

SETUP = 0x02000001
SCRIPT = 0x33000001        # the record whose hooks run in these tests
ABSENT_WAVE, WAVE = 0x0A000271, 0x0A000001
ABSENT_INFO, INFO = 0x32000099, 0x32000001
ABSENT_SCRIPT, TABLE, STABLE = 0x33000099, 0x34000001, 0x20000001
TYPE = 0x75


def _world(records=None, setup=None, seed=1):
    w = B.world({SETUP: setup or B.setup(SETUP), WAVE: B.wave(WAVE), **(records or {})},
                seed=seed)
    return w, w.create_object(1, SETUP)


def _hook(w, o, hook, source=SCRIPT):
    H.execute_hook(w, o, hook, source, 0)


def _missing(w):
    return [(e["what"], e["did"], e["by"]) for e in B.events(w, "missing")]


# -- Waves -----------------------------------------------------------------------------------
def test_SoundTweaked_absent_Wave_PlaySound_0x005507A0_rolls_takes_a_voice_plays_nothing():
    """SoundManager::CreateSound 0x00550BF0 made the SoundBufRef when the hook was loaded,
    whether or not its Wave loaded: PlaySound finds it, PlayProbability rolls, and
    PlaySoundInternal 0x0054FEC0 takes the next voice for a buffer SoundBuf::Create
    0x00552930 left empty (DBWave::Get null): nothing is heard."""
    w, o = _world()
    _hook(w, o, SoundTweakedHook(0, ABSENT_WAVE, 1.0, 0.0, 1.0))
    _hook(w, o, SoundTweakedHook(0, WAVE, 1.0, 0.0, 1.0))
    assert _missing(w) == [("Wave", ABSENT_WAVE, SCRIPT)]
    gone, heard = B.events(w, "sound")
    assert (gone["played"], gone["gain"], gone["voice"]) == (False, 0.0, 0)
    assert (heard["played"], heard["voice"]) == (True, 1)          # the ring turned
    assert w.sound.crt.draws == 2                                  # both rolled
    assert w.events.index(B.events(w, "missing")[0]) < w.events.index(gone)


def test_Sound_hook_absent_Wave_PlaySound_0x00550730_is_traced_and_silent():
    w, o = _world()
    _hook(w, o, SoundHook(0, ABSENT_WAVE))
    assert _missing(w) == [("Wave", ABSENT_WAVE, SCRIPT)]
    (e,) = B.events(w, "sound")
    assert e["played"] is False and e["wave"] == ABSENT_WAVE


def test_SoundTable_entry_absent_Wave_is_named_by_the_table():
    """SoundTable 0x00550B70: GetSound 0x00550680 picks the entry (the table's CreateSound
    made its ref at load); its Wave is named by the SoundTable."""
    table = SoundTable(STABLE, SoundTableData(0, (), (
        SoundTableData(TYPE, (SoundEntry(ABSENT_WAVE, 0.0, 1.0, 1.0),), ()),)))
    setup = dataclasses.replace(B.setup(SETUP), default_sound_table=STABLE)
    w, o = _world({STABLE: table}, setup)
    _hook(w, o, SoundTableHook(0, TYPE))
    assert _missing(w) == [("Wave", ABSENT_WAVE, STABLE)]
    assert B.events(w, "sound")[0]["played"] is False


def test_SoundTable_absent_PlaySound_0x00550B70_no_table_no_draw_named_by_the_Setup():
    """physobj->sound_table null: PlaySound(type) does nothing, GetSound never draws."""
    setup = dataclasses.replace(B.setup(SETUP), default_sound_table=STABLE)
    w, o = _world(setup=setup)
    _hook(w, o, SoundTableHook(0, TYPE))
    assert _missing(w) == [("SoundTable", STABLE, SETUP)]
    assert B.events(w, "sound")[0]["played"] is False
    assert w.rng.draws == 0 and w.sound.crt.draws == 0


def test_absent_Wave_takes_its_voice_from_the_sound_it_stops_in_the_mix():
    """The track: a silent (absent) sound on a voice cuts the sound that voice held
    (PlaySoundInternal 0x0054FEC0 stops it), and adds nothing itself."""
    w, o = _world()
    cap = SoundCapture()
    w.listeners.append(cap)
    w.sound.curr_playing_buffer = 0
    _hook(w, o, SoundTweakedHook(0, WAVE, 1.0, 0.0, 1.0))         # voice 0 at t = 0
    w.sound.curr_playing_buffer = 0                               # the ring came round
    w.timer_now = 0.05
    _hook(w, o, SoundTweakedHook(0, ABSENT_WAVE, 1.0, 0.0, 1.0))  # voice 0 again: silent
    assert [e["played"] for e in cap.events] == [True, False]
    (span,) = SoundMixer(w.db).spans(cap.events)
    assert (span.wave, span.start, span.end) == (WAVE, 0.0, 0.05)   # cut, not 0.1 s long


# -- emitters ------------------------------------------------------------------------------
def test_CreateParticleHook_absent_info_SetInfo_0x0051D3C0_makes_no_emitter():
    w, o = _world()
    _hook(w, o, B.create(ABSENT_INFO, logical=3))
    assert _missing(w) == [("ParticleEmitterInfo", ABSENT_INFO, SCRIPT)]
    (failed,) = B.events(w, "emitter_failed")
    assert failed["reason"] == "missing ParticleEmitterInfo"
    assert not B.events(w, "emitter", action="created")


def test_emitter_absent_GfxObj_SetInfo_0x0051CE90_makePhysicsPart_fails_no_emitter():
    """The particles' GfxObj is loaded per particle by CPhysicsPart::makePhysicsPart
    0x0050E760; it fails, so SetInfo and CreateParticleEmitter 0x0051B6C0 return 0."""
    info = B.emitter_info(INFO, hw_gfxobj_id=0x01000099)
    w, o = _world({INFO: info})
    _hook(w, o, B.create(INFO))
    assert _missing(w) == [("GfxObj", 0x01000099, INFO)]
    assert B.events(w, "emitter_failed")[0]["reason"] == "missing GfxObj"
    assert w.pool.emitter_count == 0


# -- scripts and tables --------------------------------------------------------------------
def test_CallPES_absent_script_AddScript_0x0051B3A0_queues_nothing_named_by_the_hook():
    """Now (pause below EPS) and after its tween (CallPESInternal 0x00511AC0): the script
    the CallPES hook names is named by the hook's record both times."""
    w, o = _world()
    _hook(w, o, CallPESHook(0, ABSENT_SCRIPT, 0.0))
    _hook(w, o, CallPESHook(0, ABSENT_SCRIPT, 0.5), source=0x33000002)
    w.physics_time = 1.0
    H.process_hooks(w, o)                        # the delayed one reaches 1
    assert _missing(w) == [("PhysicsScript", ABSENT_SCRIPT, SCRIPT),
                           ("PhysicsScript", ABSENT_SCRIPT, 0x33000002)]
    assert o.script_manager is None or not len(o.script_manager)


def test_Setup_defaults_absent_InitDefaults_0x005139D0_named_by_the_Setup():
    """The Setup's DefaultScript and PhysicsScriptTable: traced, nothing played, no
    table (CPhysicsObj::InitDefaults 0x005139D0 gets null from DBObj::Get)."""
    setup = B.setup(SETUP, default_script=ABSENT_SCRIPT, default_script_table=TABLE)
    w = B.world({SETUP: setup})
    o = w.create_object(1, SETUP, from_desc=False)
    assert _missing(w) == [("PhysicsScript", ABSENT_SCRIPT, SETUP),
                           ("PhysicsScriptTable", TABLE, SETUP)]
    assert o.table is None


def test_typed_play_absent_script_is_named_by_the_table():
    """play_script(type, mod) 0x00513260: the table resolves a DID no DAT holds."""
    w = B.world({SETUP: B.setup(SETUP), TABLE: B.table(TABLE, {4: [(1.0, ABSENT_SCRIPT)]})})
    o = w.create_object(1, SETUP, table=TABLE)
    w.play_typed(o, 4, 1.0)
    assert _missing(w) == [("PhysicsScript", ABSENT_SCRIPT, TABLE)]


def test_Setup_part_absent_GfxObj_SetPart_0x0050E700_named_by_the_Setup_once():
    setup = dataclasses.replace(B.setup(SETUP, parts=3),
                                parts=(0x01000099, B.GFX, 0x01000099))
    w = B.world({SETUP: setup})
    w.create_object(1, SETUP)
    assert _missing(w) == [("GfxObj", 0x01000099, SETUP)]


def test_missing_line_names_both_DIDs_in_hex():
    w, o = _world()
    _hook(w, o, SoundHook(0, ABSENT_WAVE))
    line = to_line(B.events(w, "missing")[0])
    assert '"what": "Wave", "did": "0x0A000271", "by": "0x33000001"' in line


# -- Animations and motion tables ----------------------------------------------------------
def test_Setup_default_animation_and_motion_table_absent_named_by_the_Setup():
    """CPartArray::InitDefaults 0x00518980 / SetMotionTableID 0x00517DD0: DBObj::Get null,
    the node is dropped / the object has no motion table."""
    setup = dataclasses.replace(B.setup(SETUP), default_animation=0x03000099,
                                default_motion_table=0x09000099)
    w = B.world({SETUP: setup})
    o = w.create_object(1, SETUP)
    B.run_frames(w, 2)
    assert ("MotionTable", 0x09000099, SETUP) in _missing(w)
    assert ("Animation", 0x03000099, SETUP) in _missing(w)
    assert o.motion is not None and o.motion.manager is None


def test_motion_table_Animation_absent_named_by_the_motion_table():
    from viewer.dat.records.common import MotionDataFlags
    from viewer.dat.records.motion_table import AnimData, MotionData, MotionTable
    table = MotionTable(0x09000050, 0x8000003D, ((0x8000003D, 0x41000003),),
                        ((0x003D0003, MotionData(0, MotionDataFlags(0), (
                            AnimData(0x03000098, 0, -1, 10.0),), None, None)),), (), ())
    setup = dataclasses.replace(B.setup(SETUP), default_motion_table=table.id)
    w = B.world({SETUP: setup, table.id: table})
    w.create_object(1, SETUP)
    B.run_frames(w, 2)
    assert ("Animation", 0x03000098, table.id) in _missing(w)
