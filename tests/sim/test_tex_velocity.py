"""TextureVelocity after it stops: CPhysics::AddGfxVelocity 0x00509B60 keeps one entry per
GfxObj, CPhysics::UpdateTexVelocity 0x00509820 advances it and writes the offset to the
GfxObj's constructed mesh through CGfxObj::TexVelocity 0x005341D0 (m_vUVDelta). The mesh is
the GfxObj's own, shared by every part and particle drawing it, and keeps the last offset
written when the entry goes."""

from __future__ import annotations

import pytest
import sim_builders as B

from viewer.dat.records.hooks import TextureVelocityHook, TextureVelocityPartHook
from viewer.sim import hooks as H
from viewer.sim import inspect

SETUP = 0x02000001
OTHER_GFX = 0x01000002


def _world(parts=1):
    w = B.world({SETUP: B.setup(SETUP, parts=parts)})
    return w, w.create_object(1, SETUP)


def _hook(w, o, hook):
    H.execute_hook(w, o, hook, 0x33000001, 0)


def _offset(w, gid=B.GFX):
    return inspect.texture_offsets(w).get(gid, (0.0, 0.0))


def test_AddGfxVelocity_0x00509B60_stop_removes_the_entry_the_mesh_keeps_its_offset():
    w, o = _world()
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.25))
    w.update_tex_velocity(0.5)                 # CGfxObj::TexVelocity writes (0.25, 0.125)
    assert _offset(w) == (0.25, 0.125)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))   # found + (0, 0): the entry goes
    assert B.GFX not in w.texture_velocity
    for _ in range(3):                         # nothing writes the mesh any more
        w.update_tex_velocity(0.5)
    assert _offset(w) == (0.25, 0.125)         # the texture stays where it was
    looks = inspect.object_looks(o, inspect.texture_offsets(w))
    assert looks[1].uv_offset == (0.25, 0.125)


def test_AddGfxVelocity_0x00509B60_zero_without_an_entry_makes_a_still_one():
    """The lookup falls through to the "new" branch whatever the speeds: (0, 0) with no
    entry makes one at offset (0, 0), which the next UpdateTexVelocity 0x00509820 writes
    to the mesh (resetting the offset a stopped velocity left)."""
    w, o = _world()
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.0))
    w.update_tex_velocity(1.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))  # removed; the mesh keeps (0.5, 0)
    assert _offset(w) == (0.5, 0.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))  # no entry: a still one is made
    assert w.texture_velocity[B.GFX] == [0.0, 0.0, 0.0, 0.0]
    assert _offset(w) == (0.5, 0.0)            # not before the next UpdateTexVelocity
    w.update_tex_velocity(1.0)
    assert _offset(w) == (0.0, 0.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))  # that entry found: removed again
    assert B.GFX not in w.texture_velocity


def test_AddGfxVelocity_0x00509B60_new_speeds_keep_the_accumulated_offset():
    w, o = _world()
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.0))
    w.update_tex_velocity(1.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, -0.25))  # found, not (0, 0): speeds only
    w.update_tex_velocity(1.0)
    assert w.texture_velocity[B.GFX] == [0.0, -0.25, 0.5, -0.25]
    assert _offset(w) == (0.5, -0.25)


def test_CGfxObj_TexVelocity_0x005341D0_one_mesh_per_GfxObj_shared_by_every_user():
    """A TextureVelocityPart on object 1's part 0 moves every part and every object
    drawing that GfxObj, and the offset they all keep after the stop is the same."""
    w, o = _world(parts=2)
    other = w.create_object(2, SETUP)
    _hook(w, o, TextureVelocityPartHook(0, 0, 0.25, 0.0))
    w.update_tex_velocity(1.0)
    _hook(w, o, TextureVelocityPartHook(0, 1, 0.0, 0.0))   # part 1: the same GfxObj
    w.update_tex_velocity(1.0)
    offs = inspect.texture_offsets(w)
    for obj in (o, other):
        assert [lk.uv_offset for lk in inspect.object_looks(obj, offs)[1:]] == [
            (0.25, 0.0), (0.25, 0.0)]


def test_CGfxObj_TexVelocity_0x005341D0_particles_of_that_GfxObj_share_the_mesh():
    """An emitter's particles draw its hw GfxObj: the mesh offset the object's hook
    wrote is theirs too (the renderer reads one offset per GfxObj for both)."""
    w = B.world({SETUP: B.setup(SETUP, parts=1), 0x32000001: B.emitter_info()})
    o = w.create_object(1, SETUP)
    _hook(w, o, B.create(0x32000001))
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.0))
    w.update_tex_velocity(0.5)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))
    gids = {int(w.pool.row_gfx[em.row]) for em in w.pool.row_emitter if em is not None}
    assert gids == {B.GFX}
    assert inspect.texture_offsets(w)[B.GFX] == (0.25, 0.0)


def test_DBOCache_Release_0x00416D50_a_freed_GfxObj_comes_back_with_a_fresh_mesh():
    """The last user gone, the GfxObj is freed (FreeObject 0x00416700) with its mesh; an
    object made with it later draws it at (0, 0)."""
    w, o = _world()
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.0))
    w.update_tex_velocity(1.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))
    assert _offset(w) == (0.5, 0.0)
    w.remove_object(1)
    again = w.create_object(3, SETUP)
    assert inspect.object_looks(again, inspect.texture_offsets(w))[1].uv_offset == (0.0, 0.0)


def test_stopped_texture_velocity_stays_through_a_scenario_run():
    """The same through the runner, as ``trace --looks`` reads it: after the (0, 0) hook
    the part's uv_offset keeps its last value frame after frame."""
    from viewer.sim.scenario import Scenario, ScenarioRunner
    db = B.MemoryDB({SETUP: B.setup(SETUP, parts=1)})
    db.add(0x33000001, B.script(0x33000001, (0.0, TextureVelocityHook(0, 0.5, 0.0)),
                                (0.5, TextureVelocityHook(0, 0.0, 0.0))))
    sc = Scenario.from_json({"fps": 30, "seconds": 1.0,
                             "objects": [{"id": 1, "setup": f"0x{SETUP:08X}"}],
                             "events": [{"t": 0.0, "object": 1,
                                         "play_script": "0x33000001"}]})
    runner = ScenarioRunner(sc, db)
    seen = []
    for t, _ in runner.frames():
        obj = next(iter(inspect.drawn_objects(runner.world)))
        seen.append((float(t), inspect.object_looks(
            obj, inspect.texture_offsets(runner.world))[1].uv_offset))
    late = [uv for t, uv in seen if t > 0.6]
    assert late and late[0][0] == pytest.approx(0.25, abs=0.05)
    assert all(uv == late[0] for uv in late)


def test_DBOCache_Release_0x00416D50_a_part_swap_takes_a_freed_GfxObj_up_fresh():
    """ReplaceObject onto a GfxObj whose last user went away: its old mesh (and offset)
    was freed with it; the part draws it at (0, 0)."""
    from viewer.dat.records.hooks import ReplaceObjectHook
    w = B.world({SETUP: B.setup(SETUP, parts=1), 0x02000002: B.setup(0x02000002, parts=1),
                 OTHER_GFX: B.gfxobj(OTHER_GFX)})
    o = w.create_object(1, SETUP)
    o.parts[0].gfxobj_id = OTHER_GFX
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.0))
    w.update_tex_velocity(1.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))
    assert _offset(w, OTHER_GFX) == (0.5, 0.0)
    _hook(w, o, ReplaceObjectHook(0, 0, B.GFX))       # OTHER_GFX: no user left
    other = w.create_object(2, 0x02000002)
    _hook(w, other, ReplaceObjectHook(0, 0, OTHER_GFX))
    assert _offset(w, OTHER_GFX) == (0.0, 0.0)


def test_AddGfxVelocity_0x00509B60_a_restart_after_a_stop_counts_from_0_again():
    """The stop removed the entry; a new speed makes a new one at offset (0, 0), so the
    next UpdateTexVelocity writes speed x dt: the texture jumps back from where it
    stopped."""
    w, o = _world()
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.0))
    w.update_tex_velocity(1.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))
    w.update_tex_velocity(1.0)
    assert _offset(w) == (0.5, 0.0)
    _hook(w, o, TextureVelocityHook(0, 0.25, 0.0))
    assert _offset(w) == (0.5, 0.0)            # until the next UpdateTexVelocity
    w.update_tex_velocity(0.5)
    assert _offset(w) == (0.125, 0.0)


def test_DBOCache_Release_0x00416D50_an_ObjDesc_part_swap_takes_a_freed_GfxObj_up_fresh():
    """CPhysicsPart::SetPart 0x0050E700 from an ObjDesc onto a GfxObj whose last user went
    away draws it at (0, 0), in the same frame as the release (no UpdateTexVelocity
    between)."""
    from viewer.dat.records.hooks import ReplaceObjectHook
    from viewer.sim import objdesc as O
    w = B.world({SETUP: B.setup(SETUP, parts=1), 0x02000002: B.setup(0x02000002, parts=1),
                 OTHER_GFX: B.gfxobj(OTHER_GFX)})
    o = w.create_object(1, SETUP)
    other = w.create_object(2, 0x02000002)
    o.parts[0].gfxobj_id = OTHER_GFX
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.0))
    w.update_tex_velocity(1.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))
    _hook(w, o, ReplaceObjectHook(0, 0, B.GFX))       # OTHER_GFX: no user left
    assert O.set_part(w, other, [O.AnimPartChange(0, OTHER_GFX)])
    assert _offset(w, OTHER_GFX) == (0.0, 0.0)


def test_UpdateTexVelocity_0x00509820_walks_no_user_once_every_velocity_stopped(monkeypatch):
    """With no entry left nothing is advanced, so no frame looks for the GfxObjs in use
    (a stopped velocity's kept offset costs nothing per frame); the offset stays."""
    w, o = _world()
    _hook(w, o, TextureVelocityHook(0, 0.5, 0.0))
    w.update_tex_velocity(1.0)
    _hook(w, o, TextureVelocityHook(0, 0.0, 0.0))
    walks = []
    monkeypatch.setattr(w, "gfxobjs_in_use", lambda: walks.append(1) or set())
    for _ in range(5):
        w.update_tex_velocity(1.0)
    assert walks == [] and _offset(w) == (0.5, 0.0)
