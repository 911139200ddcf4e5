"""Synthetic library (issue 4): the hook scripts, emitters and tables of the synthetic DAT
through the runtime (viewer.sim: ScenarioRunner + viewer.sim.inspect, and the renderer's
read-only world adapter), each checking the retail rule its MANIFEST row names."""

from __future__ import annotations

import pytest

from viewer import synthetic as S
from viewer.dat.database import AssetDatabase
from viewer.dat.records import AnimationHookDir as Dir
from viewer.dat.records import CreateParticleHook, Frame
from viewer.render.world_adapter import build_scene_input
from viewer.sim import inspect
from viewer.sim.scenario import Scenario, ScenarioRunner

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")

FPS = 30
TICK = 1.0 / FPS


def _hex(did: int) -> str:
    return f"0x{did:08X}"


def _did(v) -> int | None:
    """Runtime events carry DIDs as ints (the trace command prints them as hex)."""
    return v if v is None or isinstance(v, int) else int(v, 16)


@pytest.fixture(scope="module")
def db():
    with AssetDatabase([str(S.SYNTHETIC_DAT)]) as d:
        yield d


class Run:
    """A ScenarioRunner stepped frame by frame; ``at(t)`` runs up to frame time t."""

    def __init__(self, db, objects, events=(), seconds=6.0):
        sc = Scenario.from_json({"fps": FPS, "seconds": seconds, "objects": list(objects),
                                 "events": list(events)})
        self.r = ScenarioRunner(sc, db)
        self.r.world.events = []
        self.r.step_frame()

    @property
    def world(self):
        return self.r.world

    def obj(self, oid=1):
        return self.world.objects[oid]

    def at(self, t: float):
        while self.r.time + TICK <= t + 1e-9:
            self.r.step_frame()
        return self

    def events(self, kind=None, **match):
        return [e for e in self.world.events if (kind is None or e["event"] == kind)
                and all(e.get(k) == v for k, v in match.items())]


def script_run(db, setup, script, **obj):
    return Run(db, [{"id": 1, "setup": _hex(setup), **obj}],
               [{"t": 0.0, "object": 1, "play_script": _hex(script)}])


# --- FPHook tweens (CPhysicsObj::process_fp_hook 0x00510F20 family) ------------------------------
def test_SetScale_0x005136A0_PES_SCALE_tweens_from_the_current_scale(db):
    run = script_run(db, S.SETUP_MARKER, S.PES_SCALE, scale=1.5)
    run.at(0.1)
    (tw,) = inspect.tweens(run.obj())
    assert (tw["type"], tw["start"], tw["end"], tw["duration"]) == ("Scale", 1.5, 2.0, 1.0)
    mid = tw["created"] + 0.5
    run.at(mid)
    assert run.obj().scale == pytest.approx(1.75, abs=0.04)       # 1.5 -> 2.0, half way
    run.at(1.45)
    assert run.obj().scale == pytest.approx(2.0)
    run.at(1.6)
    (tw,) = inspect.tweens(run.obj())
    assert (tw["start"], tw["end"], tw["duration"]) == (pytest.approx(2.0), 0.5, 0.5)
    run.at(2.4)
    assert run.obj().scale == pytest.approx(0.5)
    run.at(2.6)                                                    # time 0: at once
    assert run.obj().scale == pytest.approx(1.0) and not inspect.tweens(run.obj())


def test_SetTranslucency_0x0050E670_PES_TRANSPARENT_reaches_exactly_1_and_is_not_drawn(db):
    run = script_run(db, S.SETUP_MARKER, S.PES_TRANSPARENT)
    run.at(0.6)
    assert 0.0 < run.obj().translucency < 1.0
    run.at(1.3)
    assert run.obj().translucency == 1.0                           # exactly 1: hidden part
    meshes = build_scene_input(run.world).meshes
    assert meshes and all(m.translucency == 1.0 for m in meshes)
    run.at(2.2)
    assert run.obj().translucency == pytest.approx(0.0)            # faded back in
    run.at(2.6)
    assert run.obj().translucency == pytest.approx(0.5)            # immediate (time 0)
    assert all(m.translucency == pytest.approx(0.5)
               for m in build_scene_input(run.world).meshes)


def test_SetOmega_PES_SET_OMEGA_spins_about_Z_for_2_s_then_stops(db):
    run = script_run(db, S.SETUP_MARKER, S.PES_SET_OMEGA)
    run.at(0.5)
    assert run.obj().omega[2] == pytest.approx(3.14, abs=1e-5)
    q0 = tuple(run.obj().frame.orientation)
    run.at(1.0)
    q1 = tuple(run.obj().frame.orientation)
    assert q0 != pytest.approx(q1)                                 # turning
    run.at(2.2)
    assert tuple(run.obj().omega) == pytest.approx((0.0, 0.0, 0.0))
    q2 = tuple(run.obj().frame.orientation)
    run.at(2.8)
    assert tuple(run.obj().frame.orientation) == pytest.approx(q2)  # stopped


def test_UpdateTexVelocity_0x00509820_PES_TEXTURE_VELOCITY_on_SETUP_SCROLL_PLANE(db):
    """u 0.5 (wraps by stepping back 1 once >= 1), then v -0.25 (negative: never wrapped),
    then (0, 0) unregisters the GfxObj (AddGfxVelocity 0x00509B60): the mesh keeps the
    offset last written (CGfxObj::TexVelocity 0x005341D0), so the texture stays put."""
    run = script_run(db, S.SETUP_SCROLL_PLANE, S.PES_TEXTURE_VELOCITY)
    assert db.get(S.SETUP_SCROLL_PLANE).parts == (S.GFX_SCROLL_PLANE,)
    run.at(1.0)
    tv = inspect.texture_velocities(run.world)[_hex(S.GFX_SCROLL_PLANE)]
    assert (tv["du"], tv["dv"]) == (0.5, 0.0) and 0.3 < tv["u"] < 0.55
    (m,) = build_scene_input(run.world).meshes
    assert m.uv_offset[0] == pytest.approx(tv["u"])
    run.at(3.9)
    tv = inspect.texture_velocities(run.world)[_hex(S.GFX_SCROLL_PLANE)]
    assert tv["dv"] == -0.25
    assert -0.5 < tv["v"] < -0.4                                   # below 0, not wrapped
    assert 0.0 <= tv["u"] < 1.1                                    # wrapped back once
    run.at(4.2)
    assert _hex(S.GFX_SCROLL_PLANE) not in inspect.texture_velocities(run.world)
    (m,) = build_scene_input(run.world).meshes
    stopped = m.uv_offset
    assert stopped[1] < -0.4 and stopped[0] > 0.0
    run.at(4.6)
    assert build_scene_input(run.world).meshes[0].uv_offset == stopped


def test_NoDraw_PES_NODRAW_hides_the_mesh_not_its_emitters(db):
    """NoDraw on, off after 1 s; an emitter attached to the object (the lantern's
    DefaultScript flame) keeps emitting."""
    run = script_run(db, S.SETUP_LANTERN, S.PES_NODRAW)
    run.at(0.5)
    assert run.obj().nodraw
    scene = build_scene_input(run.world)
    assert all(m.hidden for m in scene.meshes)
    assert scene.particles.count > 0                               # attached emitter unaffected
    run.at(1.3)
    assert not run.obj().nodraw
    assert not any(m.hidden for m in build_scene_input(run.world).meshes)
    states = [int(e["state"], 16) & 0x20 for e in run.events("state", owner=1)]
    assert states[:2] == [0x20, 0]


def test_PES_SOUND_plays_wave_tweaked_and_table_sounds(db):
    run = script_run(db, S.SETUP_HUMANOID, S.PES_SOUND)
    run.at(1.0)
    snd = run.events("sound", owner=1)
    assert [s["type"] for s in snd] == ["Sound", "SoundTweaked", "SoundTable"]
    assert _did(snd[0]["wave"]) == S.WAVE_CHIME and _did(snd[1]["wave"]) == S.WAVE_WHOOSH
    assert snd[1]["probability"] == 0.5 and snd[1]["priority"] == pytest.approx(0.9)
    assert snd[2]["sound_type"] == S.SOUND_TYPE_RECALL
    assert snd[1]["t"] == pytest.approx(0.3, abs=TICK) and snd[2]["t"] == pytest.approx(
        0.6, abs=TICK)


def test_DefaultScript_hooks_PES_DEFAULT_SCRIPT_play_through_the_table(db):
    """DefaultScript plays GetScript(default type, intensity) on the owner's table;
    DefaultScriptPart(0) plays the default of the child attached at part 0 (play_default_script
    0x005132B0 / 0x00513300)."""
    run = Run(db, [
        {"id": 1, "setup": _hex(S.SETUP_ATTACH_POINTS), "table": _hex(S.PST_FLAME),
         "default_script": "Launch", "default_intensity": 0.5},
        {"id": 2, "setup": _hex(S.SETUP_BOLT), "table": _hex(S.PST_FLAME),
         "default_script": "Explode", "default_intensity": 0.0, "parent": 1,
         "parent_part": 0}],
        [{"t": 0.0, "object": 1, "play_script": _hex(S.PES_DEFAULT_SCRIPT)}])
    run.at(1.0)
    queued = [(e["owner"], _did(e["script"])) for e in run.events("script", action="queued")]
    assert (1, S.PES_LAUNCH_TRAIL) in queued
    assert (2, S.PES_EXPLODE_SMALL) in queued
    t_child = [e["t"] for e in run.events("script", action="queued", owner=2)
               if _did(e["script"]) == S.PES_EXPLODE_SMALL]
    assert t_child and t_child[0] >= 0.5 - 1e-9


def test_PES_PART_HOOKS_reach_their_parts_and_out_of_range_parts_are_no_ops(db):
    run = script_run(db, S.SETUP_HUMANOID, S.PES_PART_HOOKS)
    run.at(0.7)
    parts = run.obj().parts
    assert parts[2].luminosity == pytest.approx(1.0)               # LuminousPart(2) 0 -> 1
    assert parts[1].diffuse == pytest.approx(0.3, abs=1e-6)        # DiffusePart(1) 1 -> 0.3
    run.at(1.3)
    assert parts[3].translucency == pytest.approx(0.8, abs=1e-6)   # TransparentPart(3)
    tv = inspect.texture_velocities(run.world)
    assert _hex(db.get(S.SETUP_HUMANOID).parts[0]) in tv           # TextureVelocityPart(0)
    before = [(p.luminosity, p.translucency) for p in parts]
    run.at(2.0)                                                    # part 99 and part -1
    assert [(p.luminosity, p.translucency) for p in parts] == before
    assert run.obj().translucency == 0.0 and not run.events("error")


def test_CreateParticleEmitter_PES_REPLACE_LOGICAL_second_create_replaces_at_once(db):
    run = script_run(db, S.SETUP_MARKER, S.PES_REPLACE_LOGICAL)
    run.at(0.4)
    (em,) = inspect.emitters(run.obj())
    assert (em["logical_id"], em["info"]) == (5, _hex(S.EMIT_BLOCKING))
    run.at(0.6)
    (em,) = inspect.emitters(run.obj())                             # old one gone at once
    assert (em["logical_id"], em["info"]) == (5, _hex(S.EMIT_LANTERN_FLAME))
    acts = [(e["action"], _did(e["info"])) for e in run.events("emitter", logical_id=5)]
    assert acts[:3] == [("created", S.EMIT_BLOCKING), ("replaced", S.EMIT_BLOCKING),
                        ("created", S.EMIT_LANTERN_FLAME)]
    run.at(1.7)
    assert not inspect.emitters(run.obj())


# --- emitters ------------------------------------------------------------------------------------
def test_PES_EXPLODE_emitters_smoke_ring_sparks(db):
    """EMIT_EXPLODE_SMOKE (TotalSeconds 0.8, 4 initial), EMIT_EXPLODE_RING (one ring growing
    0.2 -> 3.0, destroyed at 0.4 mid-life), EMIT_EXPLODE_SPARKS."""
    smoke = db.get(S.EMIT_EXPLODE_SMOKE)
    assert smoke.total_seconds == pytest.approx(0.8) and smoke.initial_particles == 4
    ring = db.get(S.EMIT_EXPLODE_RING)
    assert ring.hw_gfxobj_id == S.GFX_QUAD_RING
    assert (ring.start_scale, ring.final_scale) == (pytest.approx(0.2), pytest.approx(3.0))
    run = script_run(db, S.SETUP_MARKER, S.PES_EXPLODE)
    run.at(0.2)
    ems = {_did(e["info"]): e for e in inspect.emitters(run.obj())}
    assert ems[S.EMIT_EXPLODE_RING]["particles"] == 1
    assert ems[S.EMIT_EXPLODE_SMOKE]["particles"] >= 4
    h = ems[S.EMIT_EXPLODE_RING]["handle"]
    s0 = float(inspect.emitter_particles(run.world, h)["scales"][0])
    run.at(0.35)
    s1 = float(inspect.emitter_particles(run.world, h)["scales"][0])
    assert 0.2 <= s0 < s1 < 3.0                                     # growing
    run.at(0.5)
    assert S.EMIT_EXPLODE_RING not in {_did(e["info"]) for e in inspect.emitters(run.obj())}
    run.at(3.0)
    infos = {_did(e["info"]) for e in run.events("emitter", action="finished")}
    assert S.EMIT_EXPLODE_SMOKE in infos


def test_PES_COLLISION_FLASH_EMIT_COLLISION_FLASH_one_short_flash(db):
    info = db.get(S.EMIT_COLLISION_FLASH)
    assert (info.initial_particles, info.total_particles) == (1, 1) and info.lifespan <= 0.3
    run = script_run(db, S.SETUP_BOLT, S.PES_COLLISION_FLASH)
    run.at(0.1)
    (em,) = [e for e in inspect.emitters(run.obj()) if e["info"] == _hex(S.EMIT_COLLISION_FLASH)]
    assert em["particles"] == 1
    run.at(1.0)
    assert not [e for e in inspect.emitters(run.obj())
                if e["info"] == _hex(S.EMIT_COLLISION_FLASH)]


def test_PES_BLOCKING_EMIT_BLOCKING_persistent(db):
    info = db.get(S.EMIT_BLOCKING)
    assert info.total_particles == 0 and info.total_seconds == 0
    run = script_run(db, S.SETUP_MARKER, S.PES_BLOCKING)
    run.at(0.9)
    (em,) = inspect.emitters(run.obj())
    assert em["info"] == _hex(S.EMIT_BLOCKING) and em["persistent"] and not em["stopped"]


@pytest.mark.parametrize("emitter,parent_local", [
    (S.EMIT_TRAIL_PER_METER, False), (S.EMIT_TRAIL_PARENT_LOCAL, True),
    (S.EMIT_TRAIL_SMALL, False), (S.EMIT_TRAIL_LARGE, False)])
def test_BirthratePerMeter_trails_emit_by_distance_moved(db, emitter, parent_local):
    """EmitterType BirthratePerMeter: nothing while still, particles once the host moves;
    parent-local particles follow the host (EMIT_TRAIL_PARENT_LOCAL)."""
    info = db.get(emitter)
    assert int(info.emitter_type) == 2
    assert bool(info.is_parent_local) == parent_local
    still = Run(db, [{"id": 1, "setup": _hex(S.SETUP_MARKER)}])
    moving = Run(db, [{"id": 1, "setup": _hex(S.SETUP_ARROW), "velocity": [0.0, 10.0, 0.0],
                       "state": "0x00000000"}])
    hook = CreateParticleHook(Dir.Both, emitter, -1, Frame((0.0, 0.0, 0.0)), 1)
    for r in (still, moving):
        r.world.run_script_hook(r.obj(), hook, 0, 0)
    still.at(1.0)
    moving.at(1.0)
    (e_still,) = inspect.emitters(still.obj())
    (e_move,) = inspect.emitters(moving.obj())
    assert e_still["total_emitted"] <= info.initial_particles
    assert e_move["total_emitted"] > info.initial_particles
    # parent-local particles are placed relative to the host each frame (they follow it);
    # world-space ones stay where they were born, strung out behind it
    p = inspect.emitter_particles(moving.world, e_move["handle"])["positions"]
    y = moving.obj().frame.origin[1]
    assert y > 5.0
    spread = float(abs(p[:, 1] - y).max())
    assert (spread < 0.5) if parent_local else (spread > 3.0)


@pytest.mark.parametrize("intensity,emitters", [
    ("0", [S.EMIT_TRAIL_SMALL]),
    ("1", [S.EMIT_TRAIL_LARGE, S.EMIT_TRAIL_SMALL])])
def test_PST_FLAME_Launch_intensity_picks_the_small_or_large_trail(db, intensity, emitters):
    run = Run(db, [{"id": 1, "setup": _hex(S.SETUP_BOLT), "table": _hex(S.PST_FLAME)}],
              [{"t": 0.0, "object": 1, "play": "Launch", "intensity": float(intensity)}])
    run.at(0.2)
    created = [_did(e["info"]) for e in run.events("emitter", action="created")
               if _did(e["info"]) != S.EMIT_BOLT_CORE]
    assert created == emitters


@pytest.mark.parametrize("script,emitter,part", [
    (S.PES_BOLT_DEFAULT, S.EMIT_BOLT_CORE, 0),
    (S.PES_ARROW_CREATE, S.EMIT_ARROW_GLINT, 0),
    (S.PES_ARROW_DESTROY, S.EMIT_ARROW_PUFF, -1)])
def test_projectile_emitters(db, script, emitter, part):
    info = db.get(emitter)
    run = script_run(db, S.SETUP_MARKER, script)
    run.at(0.2)
    created = run.events("emitter", action="created")
    assert [(_did(e["info"]), e["part"]) for e in created] == [(emitter, part)]
    if emitter == S.EMIT_BOLT_CORE:      # persistent (TotalParticles 0, TotalSeconds 0)
        assert info.total_particles == 0 and info.total_seconds == 0 and info.is_parent_local
        run.at(3.0)
        assert not run.events("emitter", action="finished")
    else:   # one glint / six-particle puff: TotalParticles stops it after that many
        n = 1 if emitter == S.EMIT_ARROW_GLINT else 6
        assert (info.initial_particles, info.total_particles) == (n, n)
        (em,) = inspect.emitters(run.obj())
        assert em["total_emitted"] == n
        run.at(1.5)
        assert [e["total_emitted"] for e in inspect.emitters(run.obj())] in ([], [n])


# --- the arrow table: Create / Destroy / DisappearDestroy @1 ------------------------------------
def test_PST_ARROW_Create_Destroy_DisappearDestroy_scripts(db):
    # the table is given explicitly: set_description 0x00514F40 replaces the Setup's table
    # with the PhysicsDesc's, even when that is absent
    run = Run(db, [{"id": 1, "setup": _hex(S.SETUP_ARROW), "table": _hex(S.PST_ARROW)}],
              [{"t": 0.0, "object": 1, "play": "Create"},
               {"t": 0.5, "object": 1, "play": "Destroy"},
               {"t": 1.0, "object": 1, "play": "DisappearDestroy"}])
    run.at(2.0)
    resolved = [_did(e["script"]) for e in run.events("resolve")]
    assert resolved == [S.PES_ARROW_CREATE, S.PES_ARROW_DESTROY, S.PES_ARROW_DISAPPEAR]
    assert run.obj().nodraw                                       # Destroy: NoDraw
    assert run.obj().translucency == 1.0                          # DisappearDestroy fade


def test_PES_ARROW_DISAPPEAR_fades_over_0_3_s(db):
    run = script_run(db, S.SETUP_ARROW, S.PES_ARROW_DISAPPEAR)
    run.at(0.2)
    assert 0.0 < run.obj().translucency < 1.0
    run.at(0.5)
    assert run.obj().translucency == 1.0


# --- waves -------------------------------------------------------------------------------------
@pytest.mark.parametrize("wave,seconds", [(S.WAVE_CHIME, 0.2), (S.WAVE_WHOOSH, 0.15),
                                          (S.WAVE_BOOM, 0.3)])
def test_Wave_WAVEFORMATEX_PCM_8kHz_8bit_mono(db, wave, seconds):
    import io
    import struct
    import wave as wavmod
    w = db.get(wave)
    assert len(w.header) == 18
    tag, ch, rate, avg, align, bits, cb = struct.unpack("<HHIIHHH", w.header)
    assert (tag, ch, rate, avg, align, bits, cb) == (1, 1, 8000, 8000, 1, 8, 0)
    assert len(w.data) == round(seconds * 8000)
    with wavmod.open(io.BytesIO(w.to_riff())) as f:
        assert (f.getnchannels(), f.getframerate(), f.getsampwidth()) == (1, 8000, 1)
        assert f.getnframes() == len(w.data)
