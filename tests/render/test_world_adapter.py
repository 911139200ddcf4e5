"""SceneInput from the runtime's objects and pooled particles (read only)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from viewer.dat.samples import sample_emitter, sample_setup
from viewer.render.world_adapter import build_scene_input
from viewer.sim.frame import Frame
from viewer.sim.particles import ParticleEmitter, ParticlePool
from viewer.sim.physobj import LightState, PhysicsObj
from viewer.sim.rng import RetailRandom
from viewer.sim.world import World


def _World(objects, pool):
    """A runtime holding hand-made objects and a hand-filled pool (no database needed)."""
    world = World(None)
    world.objects = {o.id: o for o in objects}
    world.pool = pool
    world.time = Fraction(1)
    return world


def _world(state=0x00400C08, n_emitters=2):
    setup = sample_setup()
    obj = PhysicsObj(1, setup, setup.id)
    obj.state = state
    obj.lights = [LightState(0, li, Frame(li.offset.origin, li.offset.orientation),
                             Frame((0.0, 0.0, 1.0))) for li in setup.lights]
    pool = ParticlePool()
    rng = RetailRandom(0)
    ems = []
    for k in range(n_emitters):
        em = ParticleEmitter(pool, sample_emitter(), 0x320009C4, 1, -1, Frame(), k, k, 0.0,
                             100.0)
        em.set_parent_frame(Frame((float(k), 0.0, 0.0)))
        em.init_end(rng, 0.0, 0.0)
        ems.append(em)
    return _World([obj], pool), obj, ems


def test_parts_become_mesh_instances_with_their_gfxobj():
    world, obj, _ = _world()
    scene = build_scene_input(world)
    assert [m.gfxobj for m in scene.meshes] == [p.gfxobj_id for p in obj.parts]
    assert not any(m.hidden for m in scene.meshes)


def test_set_hidden_0x00514C60_hidden_object_parts_are_marked_hidden():
    world, _, _ = _world(state=0x00400C08 | 0x4000)
    assert all(m.hidden for m in build_scene_input(world).meshes)


def test_nodraw_object_parts_are_marked_hidden():
    world, _, _ = _world(state=0x00400C08 | 0x20)
    assert all(m.hidden for m in build_scene_input(world).meshes)


def test_set_state_0x00514DD0_lights_only_with_LIGHTING_ON():
    world, _, _ = _world()
    lit = build_scene_input(world).lights
    assert len(lit) == 1 and lit[0].falloff == 4.0 and lit[0].cone_angle != 0xCDCDCDCD
    world2, _, _ = _world(state=0x00400408)
    assert build_scene_input(world2).lights == []


def test_particles_come_from_the_pool_in_emitter_slot_order():
    world, _, ems = _world()
    scene = build_scene_input(world)
    p = scene.particles
    assert p.count == sum(e.num_particles for e in ems) == 6
    assert (p.gfxobj == 0x01000002).all()
    assert p.emitter.tolist() == sorted(p.emitter.tolist())
    assert np.allclose(p.emitter_origins[p.emitter[-1]], (1.0, 0.0, 0.0))
    assert len(scene.overlays.emitter_anchors) == 2


def test_culled_emitter_particles_are_not_drawn():
    world, _, ems = _world()
    ems[0].degraded_out = True
    p = build_scene_input(world).particles
    assert p.count == ems[1].num_particles


def test_building_the_scene_does_not_change_the_pool():
    world, _, _ = _world()
    pool = world.pool
    pool.evaluate()  # the runtime's own lazy evaluation of the derived arrays
    before = (pool.version, pool.position.copy(), pool.trans.copy())
    build_scene_input(world)
    assert pool.version == before[0]
    assert np.array_equal(pool.position, before[1]) and np.array_equal(pool.trans, before[2])


def test_CGfxObj_TexVelocity_0x005341D0_mesh_offset_reaches_the_part_uvs():
    world, obj, _ = _world()
    world.gfx_uv_delta = {obj.parts[0].gfxobj_id: (0.25, 0.75)}
    meshes = build_scene_input(world).meshes
    assert meshes[0].uv_offset == (0.25, 0.75)
    assert meshes[1].uv_offset == (0.0, 0.0)


def test_SetTranslucency_ignored_for_CLOAKED_owner():
    world, obj, _ = _world(state=0x00400C08 | 0x100000)
    for p in obj.parts:
        p.set_translucency(0.5)
    assert all(m.translucency == 0.0 for m in build_scene_input(world).meshes)
    world2, obj2, _ = _world()
    obj2.parts[0].set_translucency(1.0)
    meshes = build_scene_input(world2).meshes
    assert meshes[0].hidden and meshes[0].translucency == 1.0


class _NoWalk(list):
    """An emitter-row list that refuses to be walked (len() still works)."""

    def __iter__(self):
        raise AssertionError("particle_arrays walked the emitters in Python")


def test_particle_table_comes_from_pool_row_arrays_without_walking_emitters():
    from viewer.render.world_adapter import particle_arrays
    world, _, ems = _world()
    pool = world.pool
    pool.row_emitter = _NoWalk(pool.row_emitter)
    p = particle_arrays(pool)
    assert p.count == sum(e.num_particles for e in ems)
    assert (p.gfxobj == 0x01000002).all()


def test_pool_row_table_follows_the_emitter_frame_and_culling():
    world, _, ems = _world()
    pool = world.pool
    em = ems[1]
    assert np.allclose(pool.row_origin[em.row], em.frame.origin)
    em.degraded_out = True
    assert not pool.row_drawn[em.row]
    em.degraded_out = False
    assert pool.row_drawn[em.row]


def test_meshes_draw_from_the_same_looks_trace_prints():
    """One source of truth: every MeshInstance's translucency, luminosity, diffuse, UV
    offset and hidden flag are ``inspect.object_looks`` (what ``trace --looks`` prints)
    for that part, whatever the mix (a cloaked owner, a part at exactly 1, a fade)."""
    from viewer.sim import inspect
    for state in (0x00400C08, 0x00400C08 | 0x100000, 0x00400C08 | 0x20):
        world, obj, _ = _world(state=state, n_emitters=0)
        obj.parts[0].set_translucency(1.0)
        obj.parts[1].set_translucency(0.25)
        obj.parts[1].luminosity, obj.parts[1].diffuse = 0.5, 0.75
        world.gfx_uv_delta[obj.parts[1].gfxobj_id] = (0.3, 0.6)
        scene = build_scene_input(world)
        looks = {lk.part: lk for lk in inspect.object_looks(obj, scene.texture_offsets)}
        assert scene.meshes
        for m in scene.meshes:
            lk = looks[m.part]
            assert (m.translucency, m.uv_offset, m.hidden) == (
                lk.translucency, lk.uv_offset, lk.nodraw)
            assert (m.luminosity or 0.0, 1.0 if m.diffuse is None else m.diffuse) == (
                lk.luminosity, lk.diffuse)
