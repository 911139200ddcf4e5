"""Emitters, particles and the ParticleManager (docs/retail-rules.md, Particles and
emitters). Positions are checked against hand-computed values."""

import math
from types import SimpleNamespace

import numpy as np
import pytest
import sim_builders as B
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.sim.frame import Frame, quat_mul
from viewer.sim.particles import FIRST_AUTO_EMITTER_ID, FLT_MAX, max_degrade_distance
from viewer.sim.rng import RetailRandom

INFO = 0x32000001
P0 = (1.0, 2.0, 3.0)
HO = (0.5, 0.0, 0.25)  # hook offset origin (its rotation must be ignored)
HOOK_Q = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))


def R(v):
    """The owner's rotation at heading 90 (local +Y -> east): (x, y, z) -> (y, -x, z)."""
    return (v[1], -v[0], v[2])


def add(*vs):
    return tuple(sum(c) for c in zip(*vs))


def mul(k, v):
    return tuple(k * c for c in v)


def born(ptype, seed=5, **kw):
    kw.setdefault("lifespan", 10.0)
    info = B.emitter_info(INFO, particle_type=ptype, initial_particles=1, birthrate=100.0,
                          **kw)
    w = B.world({0x02000001: B.setup(), INFO: info}, seed=seed)
    o = w.create_object(1, 0x02000001, position=P0, heading_deg=90.0)
    w.physics_time = 0.0
    w.create_particle_emitter(o, INFO, -1, Frame(HO, HOOK_Q), 0)
    em = o.particle_manager.emitters()[0][1]
    return w, o, em


def at(w, em, t):
    w.pool.em_time[em.row] = t
    w.pool.mark_dirty()
    w.pool.evaluate()
    idx = em.live_slots()[0][1]
    return tuple(w.pool.position[idx]), tuple(w.pool.orientation[idx])


A0, B0, C0 = (1.0, 2.0, 3.0), (0.5, -1.0, 2.0), (0.0, 0.0, 1.5)
VEC = {"a": A0, "b": B0, "c": C0}


def approx3(v):
    return pytest.approx(v, abs=1e-9)


@pytest.mark.parametrize("t", [0.0, 0.7])
def test_Particle_Update_0x0051C290_law_1_Still(t):
    w, _o, em = born(1, **VEC)
    pos, q = at(w, em, t)
    assert pos == approx3(add(P0, R(HO)))  # only the hook offset ORIGIN, rotated by R
    assert q == (1.0, 0.0, 0.0, 0.0)


def test_Particle_Update_0x0051C290_law_2_LocalVelocity():
    w, _o, em = born(2, **VEC)
    assert at(w, em, 0.7)[0] == approx3(add(P0, R(HO), mul(0.7, R(A0))))


def test_Particle_Update_0x0051C290_law_12_GlobalVelocity():
    w, _o, em = born(12, **VEC)
    assert at(w, em, 0.7)[0] == approx3(add(P0, R(HO), mul(0.7, A0)))


def test_Particle_Update_0x0051C290_law_3_ParabolicLVGA():
    w, _o, em = born(3, **VEC)
    t = 0.7
    assert at(w, em, t)[0] == approx3(add(P0, R(HO), mul(t, R(A0)), mul(0.5 * t * t, B0)))


def test_Particle_Update_0x0051C290_law_8_ParabolicLVLA():
    w, _o, em = born(8, **VEC)
    t = 0.7
    assert at(w, em, t)[0] == approx3(add(P0, R(HO), mul(t, R(A0)), mul(0.5 * t * t, R(B0))))


def test_Particle_Update_0x0051C290_law_10_ParabolicGVGA():
    w, _o, em = born(10, **VEC)
    t = 0.7
    assert at(w, em, t)[0] == approx3(add(P0, R(HO), mul(t, A0), mul(0.5 * t * t, B0)))


def _zq(theta):
    return (math.cos(theta / 2), 0.0, 0.0, math.sin(theta / 2))


def test_Particle_Update_0x0051C290_law_4_ParabolicLVGAGR_local_spin_keeps_parent_rotation():
    w, _o, em = born(4, **VEC)
    t = 0.7
    pos, q = at(w, em, t)
    assert pos == approx3(add(P0, R(HO), mul(t, R(A0)), mul(0.5 * t * t, B0)))
    # parent rotation rot_z(-90 deg), then a local spin about z by t*|c| = 1.05 rad
    assert q == pytest.approx(_zq(-math.pi / 2 + t * 1.5), abs=1e-9)


def test_Particle_Update_0x0051C290_law_11_ParabolicGVGAGR():
    w, _o, em = born(11, **VEC)
    t = 0.4
    pos, q = at(w, em, t)
    assert pos == approx3(add(P0, R(HO), mul(t, A0), mul(0.5 * t * t, B0)))
    assert q == pytest.approx(_zq(-math.pi / 2 + t * 1.5), abs=1e-9)


def test_Particle_Update_0x0051C290_law_9_ParabolicLVLALR_rotates_c_twice():
    w, _o, em = born(9, a=A0, b=B0, c=(2.0, 0.0, 0.0))
    t = 0.5
    pos, q = at(w, em, t)
    assert pos == approx3(add(P0, R(HO), mul(t, R(A0)), mul(0.5 * t * t, R(B0))))
    # c = R.c0 = (0, -2, 0) at birth; Frame::rotate spins about R.c (local axis): 1 rad
    # about local -Y, i.e. q = R * (cos .5, 0, -sin .5, 0)
    expected = quat_mul(_zq(-math.pi / 2), (math.cos(0.5), 0.0, -math.sin(0.5), 0.0))
    assert q == pytest.approx(expected, abs=1e-9)


def test_Particle_Update_0x0051C290_law_5_Swarm():
    w, _o, em = born(5, **VEC)
    t = 0.7
    O = add(P0, R(HO))
    a = R(A0)
    expected = (O[0] + t * a[0] + C0[0] * math.cos(B0[0] * t),
                O[1] + t * a[1] + C0[1] * math.sin(B0[1] * t),
                O[2] + t * a[2] + C0[2] * math.cos(B0[2] * t))
    assert at(w, em, t)[0] == approx3(expected)


def test_Particle_Init_0x0051C930_law_6_Explode_direction_and_a_x_quirk():
    seed = 11
    w, _o, em = born(6, seed=seed, a=(2.0, 7.0, 0.5), b=B0, c=(1.0, 2.0, 3.0))
    rng = RetailRandom(seed)
    for _ in range(12):  # lifespan, trans x2, scale x2, C, B, A, offset z, y, x, magnitude
        rng.rand()
    ra = rng.rand() * (2 * 3.1415927) - 3.1415927
    po = rng.rand() * (2 * 3.1415927) - 3.1415927
    c = (math.cos(ra) * 1.0 * math.cos(po), math.sin(ra) * 2.0 * math.cos(po), math.sin(po) * 3.0)
    n = math.sqrt(sum(x * x for x in c))
    c = tuple(x / n for x in c)
    t = 0.6
    O = add(P0, R(HO))
    expected = (O[0] + (t * B0[0] + c[0] * 2.0) * t,
                O[1] + (t * B0[1] + c[1] * 2.0) * t,          # a.x, not a.y
                O[2] + (t * B0[2] + c[2] * 2.0 + 0.5) * t)    # extra a.z on z only
    assert at(w, em, t)[0] == approx3(expected)


def test_Particle_Init_0x0051C930_law_7_Implode_t0_is_P_plus_twice_offset():
    c0 = (2.0, 1.0, 0.5)
    w, _o, em = born(7, a=(3.0, 9.0, 9.0), b=B0, c=c0)
    O = tuple(x * k for x, k in zip(R(HO), c0))
    assert at(w, em, 0.0)[0] == approx3(add(P0, O, O))
    t = 0.8
    k = math.cos(3.0 * t)  # a.x on every axis
    assert at(w, em, t)[0] == approx3(add(P0, O, mul(k, O), mul(t * t, B0)))  # t^2 b, no 1/2


def test_Particle_Update_0x0051C290_unknown_type_keeps_position():
    w, _o, em = born(0, **VEC)
    assert at(w, em, 0.5)[0] == (0.0, 0.0, 0.0)


def test_Particle_Update_0x0051C290_scale_and_trans_lerp_then_hold_at_final():
    w, _o, em = born(1, lifespan=2.0, start_scale=1.0, final_scale=3.0, start_trans=0.0,
                    final_trans=1.0)
    at(w, em, 0.5)
    idx = em.live_slots()[0][1]
    assert (w.pool.scale[idx], w.pool.trans[idx]) == pytest.approx((1.5, 0.25))


def test_GetRandomStartScale_0x005170D0_clamped_to_0_1_and_10():
    w, _o, em = born(1, start_scale=0.01, final_scale=50.0)
    at(w, em, 0.0)
    idx = em.live_slots()[0][1]
    assert (w.pool.start_scale[idx], w.pool.final_scale[idx]) == (0.1, 10.0)


def test_EmitParticle_0x0051D010_draw_order_and_count():
    w, _o, _em = born(1, max_offset=1.0, min_offset=1.0)
    assert w.rng.draws == 12  # nine helpers + offset z, y, x + magnitude
    w2, _o2, _em2 = born(1, offset_dir=(1.0, 1.0, 1.0))
    # with offset_dir (1,1,1) the projection is not small: magnitude drawn too
    assert w2.rng.draws == 12


def test_GetRandomOffset_0x005174A0_small_projection_gives_zero_without_fourth_draw():
    info = B.emitter_info(offset_dir=(0.0, 0.0, 0.0), min_offset=1.0, max_offset=1.0)

    class Zero:
        draws = 0

        def roll_dice(self, lo, hi):
            self.draws += 1
            return 0.0

    from viewer.sim.particles import ParticleEmitter, ParticlePool
    em = ParticleEmitter(ParticlePool(), info, INFO, 1, -1, Frame(), 0, 1, 0.0, 100.0)
    z = Zero()
    assert em._random_offset(z) == (0.0, 0.0, 0.0) and z.draws == 3


# -- KillParticle and lifetimes ------------------------------------------------------------
def test_KillParticle_0x0051C1E0_dies_when_lifetime_reaches_lifespan():
    w, _o, em = born(1, lifespan=0.1)
    em.cypt = 0.0
    em.update(w.rng, 0.0999, 0.0999)
    assert em.num_particles == 1
    em.update(w.rng, 0.1, 0.1)
    assert em.num_particles == 0 and w.pool.live_count == 0


def test_KillParticle_lifespan_zero_dies_at_next_update():
    w, _o, em = born(1, lifespan=0.0)
    em.cypt = 0.0
    assert em.num_particles == 1
    em.update(w.rng, 0.0, 0.0)
    assert em.num_particles == 0


# -- emitter rules --------------------------------------------------------------------------
def _emitter_world(seed=0, parts=1, **kw):
    info = B.emitter_info(INFO, **kw)
    w = B.world({0x02000001: B.setup(parts=parts), INFO: info}, seed=seed)
    o = w.create_object(1, 0x02000001)
    return w, o


def _em(o, logical=None):
    ems = o.particle_manager.emitters()
    if logical is None:
        return ems[0][1]
    return dict(ems)[logical]


def test_UpdateParticles_0x0051D180_at_most_one_birth_per_update():
    w, o = _emitter_world(birthrate=0.0001, max_particles=50, lifespan=100.0)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    B.run_frames(w, 10)
    assert _em(o).num_particles == 9  # first update after creation is the render-pass one


def test_ShouldEmitParticle_0x00517420_per_sec_is_strict_on_timer():
    w, o = _emitter_world(birthrate=0.5)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    em.last_emit_time = 1.0
    assert not em.should_emit(1.5)
    assert em.should_emit(1.5000001)


def test_InitEnd_0x0051D400_initial_particles_bypass_should_emit_and_total():
    w, o = _emitter_world(initial_particles=5, total_particles=2, max_particles=8,
                          birthrate=100.0)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    assert em.num_particles == 5 and em.total_emitted == 5


def test_InitEnd_0x0051D400_excess_initial_particles_dropped_uncounted():
    w, o = _emitter_world(initial_particles=9, max_particles=4)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    assert em.num_particles == 4 and em.total_emitted == 4
    assert w.rng.draws == 4 * 12


def test_MaxParticles_caps_live_particles():
    w, o = _emitter_world(birthrate=0.0001, max_particles=3, lifespan=100.0)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    B.run_frames(w, 10)
    assert _em(o).num_particles == 3


def test_StopEmitter_0x0051C230_total_particles_then_drain_then_finished():
    w, o = _emitter_world(birthrate=0.0001, total_particles=3, max_particles=10, lifespan=0.2)
    w.create_particle_emitter(o, INFO, -1, Frame(), 7)
    w.render_pass()  # a drawn frame: the first update is not the culled one
    B.run_frames(w, 4)
    em = _em(o)
    assert em.stopped and em.total_emitted == 3
    B.run_frames(w, 10, start=5)
    assert len(o.particle_manager) == 0
    fin = B.events(w, "emitter", action="finished")
    assert len(fin) == 1 and fin[0]["logical_id"] == 7


def test_StopEmitter_0x0051C230_total_seconds_uses_creation_time():
    w, o = _emitter_world(birthrate=0.0001, total_seconds=0.1, lifespan=5.0)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    B.run_frames(w, 3)
    assert not em.stopped
    B.run_frames(w, 1, start=4)  # 0.1333 > 0 + 0.1
    assert em.stopped


def test_StopEmitter_negative_total_particles_stops_at_once_but_emits_unlimited_gate():
    w, o = _emitter_world(birthrate=0.0001, total_particles=-1, lifespan=5.0)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    assert not em.persistent
    B.run_frames(w, 2)
    assert em.stopped and em.total_emitted == 1


def test_ShouldEmitParticle_per_meter_uses_emitter_displacement():
    w, o = _emitter_world(emitter_type=2, birthrate=1.0, lifespan=50.0, max_particles=20)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    em.cypt = 0.0
    em.update(w.rng, 0.0, 0.0)
    assert em.num_particles == 0  # at the origin: |delta| = 0 from (0,0,0)
    w._set_frame(o, Frame((0.0, 0.9, 0.0)))
    em.update(w.rng, 0.1, 0.1)
    assert em.num_particles == 0
    w._set_frame(o, Frame((0.0, 1.01, 0.0)))
    em.update(w.rng, 0.2, 0.2)
    assert em.num_particles == 1 and em.last_emit_offset == (0.0, 1.01, 0.0)


# -- distance culling ------------------------------------------------------------------------
def test_ShouldDrawParticles_0x0050FE60_boundary_is_inclusive():
    w, o = _emitter_world()
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    em.cypt = em.degrade_distance
    assert em.should_draw()
    em.cypt = np.nextafter(em.degrade_distance, 1e9)
    assert not em.should_draw()


def test_GetMaxDegradeDistance_0x0050D510_default_and_table_rules():
    E = SimpleNamespace
    db = B.MemoryDB({1: E(did_degrade=None), 2: E(did_degrade=0x11000001),
                     0x11000001: E(degrades=(E(max_dist=7.0), E(max_dist=9.0))),
                     3: E(did_degrade=0x11000002),
                     0x11000002: E(degrades=(E(max_dist=1.0), E(max_dist=2.0), E(max_dist=3.0)))})
    assert max_degrade_distance(db, 1) == 100.0
    assert max_degrade_distance(db, 2) == 7.0
    assert max_degrade_distance(db, 3) == 2.0


def test_distance_cull_far_emitter_hides_and_keeps_aging():
    w, o = _emitter_world(birthrate=0.0001, lifespan=0.2, initial_particles=2,
                          total_seconds=100.0)
    w.viewer_position = (500.0, 0.0, 0.0)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    B.run_frames(w, 2)
    assert em.degraded_out and em.nodraw
    B.run_frames(w, 6, start=3)
    assert w.pool.live_count == 0  # ages kept running while culled
    assert em.num_particles > 0  # phantom births never come back down


def test_CYpt_is_FLT_MAX_until_a_render_pass_so_hook_created_emitters_first_update_is_culled():
    w, o = _emitter_world(birthrate=0.0001, initial_particles=1, lifespan=5.0,
                          total_seconds=100.0)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)  # as process_hooks would
    em = _em(o)
    assert em.cypt == FLT_MAX
    em.update(w.rng, 0.0, 1.0)  # UpdateParticles in the same object update
    assert em.degraded_out and em.num_particles == 2  # 1 real + 1 phantom
    assert w.pool.live_count == 1
    w.render_pass()
    em.update(w.rng, 0.0333, 2.0)
    assert not em.degraded_out


def test_persistent_culled_emitter_freezes_ages():
    w, o = _emitter_world(birthrate=100.0, initial_particles=1, lifespan=1.0)
    w.physics_time = 0.0
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    em.cypt = 0.0
    em.update(w.rng, 0.5, 0.5)
    em.cypt = FLT_MAX
    em.update(w.rng, 5.0, 5.0)  # culled: ages frozen at 0.5
    em.cypt = 0.0
    em.update(w.rng, 5.3, 5.3)
    assert em.num_particles == 1
    w.pool.evaluate()
    assert w.pool.lifetime[em.live_slots()[0][1]] == pytest.approx(0.8)
    em.update(w.rng, 5.5, 5.5)
    assert em.num_particles == 0


def test_UpdateParticles_0x0051D180_culled_persistent_freeze_keeps_each_particles_own_age():
    # two particles of different ages: the freeze keeps each age, so they die in age order
    w, o = _emitter_world(birthrate=0.05, max_particles=10, lifespan=1.0)
    w.physics_time = 0.0
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    em = _em(o)
    em.cypt = 0.0
    em.update(w.rng, 0.1, 0.1)   # slot 0 born at 0.1
    em.update(w.rng, 0.3, 0.3)   # slot 1 born at 0.3
    assert [s for s, _ in em.live_slots()] == [0, 1]
    em.cypt = FLT_MAX
    em.update(w.rng, 5.0, 5.0)   # culled: ages frozen at 0.2 and 0.0
    em.cypt = 0.0
    em.update(w.rng, 5.9, 5.9)   # slot 0 (age 1.1) dies, slot 1 (0.9) lives; a birth in 0
    live = dict(em.live_slots())
    assert sorted(live) == [0, 1]
    w.pool.evaluate()
    assert w.pool.lifetime[live[1]] == pytest.approx(0.9)
    assert w.pool.lifetime[live[0]] == pytest.approx(0.0)
    em.update(w.rng, 6.05, 6.05)  # the frozen slot 1 reaches 1.05 and goes
    w.pool.evaluate()
    assert w.pool.lifetime[dict(em.live_slots())[0]] == pytest.approx(0.15)
    assert all(w.pool.lifetime[i] < 1.0 for _, i in em.live_slots())


# -- attachment -------------------------------------------------------------------------------
def test_Particle_Init_0x0051C930_part_emitter_born_in_part_pose_times_root():
    w, o = _emitter_world(parts=2, initial_particles=1, particle_type=1)
    w._set_frame(o, Frame((10.0, 0.0, 0.0)))
    w.create_particle_emitter(o, INFO, 1, Frame((0.0, 0.0, 1.0)), 0)
    em = _em(o)
    w.pool.evaluate()
    # placement frame of part 1 is (1, 0, 0): world (11, 0, 0), then the offset origin
    assert tuple(w.pool.position[em.live_slots()[0][1]]) == approx3((11.0, 0.0, 1.0))
    assert em.frame.origin == approx3((11.0, 0.0, 1.0))


def test_UpdateParticles_parent_local_particles_follow_world_particles_stay():
    for local, expected in ((True, (5.0, 0.0, 0.0)), (False, (0.0, 0.0, 0.0))):
        w, o = _emitter_world(initial_particles=1, particle_type=1, is_parent_local=local,
                              birthrate=100.0, lifespan=50.0)
        w.create_particle_emitter(o, INFO, -1, Frame(), 0)
        em = _em(o)
        w._set_frame(o, Frame((5.0, 0.0, 0.0)))
        em.cypt = 0.0
        em.update(w.rng, 0.1, 0.1)
        w.pool.evaluate()
        assert tuple(w.pool.position[em.live_slots()[0][1]]) == approx3(expected)


def test_SetParenting_fails_for_part_index_out_of_range():
    w, o = _emitter_world(parts=1)
    assert w.create_particle_emitter(o, INFO, 3, Frame(), 5) == 0
    assert B.events(w, "emitter_failed")[0]["reason"] == "part index out of range"


def test_SetInfo_0x0051CE90_zero_hw_gfxobj_fails():
    w, o = _emitter_world(hw_gfxobj_id=0)
    assert w.create_particle_emitter(o, INFO, -1, Frame(), 5) == 0


def test_missing_emitter_info_creates_nothing_and_is_traced():
    w, o = _emitter_world()
    assert w.create_particle_emitter(o, 0x32000099, -1, Frame(), 0) == 0
    assert B.events(w, "missing")[0]["did"] == 0x32000099


# -- ParticleManager ids ---------------------------------------------------------------------
def test_CreateParticleEmitter_0x0051B6C0_nonzero_id_replaces_live_emitter():
    w, o = _emitter_world(initial_particles=3, max_particles=5)
    w.create_particle_emitter(o, INFO, -1, Frame(), 19)
    first = _em(o, 19)
    w.create_particle_emitter(o, INFO, -1, Frame(), 19)
    second = _em(o, 19)
    assert first is not second and len(o.particle_manager) == 1
    assert w.pool.live_count == 3  # the replaced emitter's particles vanished
    acts = [e["action"] for e in B.events(w, "emitter")]
    assert acts == ["created", "replaced", "created"]


def test_CreateBlockingParticleEmitter_0x0051B8A0_live_id_does_nothing():
    w, o = _emitter_world(initial_particles=1)
    w.create_particle_emitter(o, INFO, -1, Frame(), 19)
    first = _em(o, 19)
    assert w.create_particle_emitter(o, INFO, -1, Frame(), 19, blocking=True) == 0
    assert _em(o, 19) is first
    blocked = B.events(w, "emitter", action="blocked")
    assert blocked and blocked[0]["handle"] == first.handle


def test_CreateBlockingParticleEmitter_unknown_id_creates_like_normal():
    w, o = _emitter_world()
    assert w.create_particle_emitter(o, INFO, -1, Frame(), 19, blocking=True) == 19


def test_ParticleManager_0x0051B5D0_id_zero_is_anonymous_from_0xFFFF0000():
    w, o = _emitter_world()
    a = w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    b = w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    assert (a, b) == (FIRST_AUTO_EMITTER_ID, FIRST_AUTO_EMITTER_ID + 1)
    assert len(o.particle_manager) == 2


def test_StopParticleEmitter_0x0051B7B0_particles_live_out_id_kept_until_empty():
    w, o = _emitter_world(initial_particles=2, birthrate=0.0001, lifespan=0.15)
    w.create_particle_emitter(o, INFO, -1, Frame(), 4)
    em = _em(o, 4)
    assert o.particle_manager.stop(4)
    B.run_frames(w, 2)
    assert em.stopped and em.total_emitted == 2 and em.num_particles == 2
    assert w.create_particle_emitter(o, INFO, -1, Frame(), 4, blocking=True) == 0
    B.run_frames(w, 5, start=3)
    assert len(o.particle_manager) == 0  # natural end retires the id
    assert w.create_particle_emitter(o, INFO, -1, Frame(), 4, blocking=True) == 4


def test_DestroyParticleEmitter_0x0051B770_removes_at_once():
    w, o = _emitter_world(initial_particles=2)
    w.create_particle_emitter(o, INFO, -1, Frame(), 4)
    assert o.particle_manager.destroy(4)
    assert len(o.particle_manager) == 0 and w.pool.live_count == 0
    assert not o.particle_manager.destroy(0) and not o.particle_manager.stop(0)


def test_UpdateParticles_0x0051B800_bucket_order_bucket0_then_1_newest_first():
    w, o = _emitter_world()
    for i in (1, 2, 3, 4):
        w.create_particle_emitter(o, INFO, -1, Frame(), i)
    assert [i for i, _ in o.particle_manager.emitters()] == [4, 2, 3, 1]


def test_owner_teardown_destroys_its_emitters_and_particles():
    w, o = _emitter_world(initial_particles=2)
    w.create_particle_emitter(o, INFO, -1, Frame(), 4)
    w.create_particle_emitter(o, INFO, -1, Frame(), 0)
    w.remove_object(1)
    gone = B.events(w, "emitter", action="destroyed")
    assert len(gone) == 2 and all(e["reason"] == "owner" for e in gone)
    assert w.pool.live_count == 0 and w.pool.emitter_count == 0


_ops = st.lists(st.tuples(st.sampled_from(["create", "block", "stop", "destroy", "tick"]),
                          st.integers(min_value=0, max_value=3)), min_size=1, max_size=40)


@settings(max_examples=40, deadline=None)
@given(_ops, st.integers(min_value=0, max_value=1000))
def test_ParticlePool_bookkeeping_stays_consistent_under_any_manager_sequence(ops, seed):
    w, o = _emitter_world(seed=seed, birthrate=0.01, max_particles=4, lifespan=0.1,
                          lifespan_rand=0.1, initial_particles=2, total_seconds=0.3)
    frame = 1
    for op, eid in ops:
        if op == "create":
            w.create_particle_emitter(o, INFO, -1, Frame(), eid)
        elif op == "block":
            w.create_particle_emitter(o, INFO, -1, Frame(), eid, blocking=True)
        elif op == "stop":
            w.particle_manager(o).stop(eid)
        elif op == "destroy":
            w.particle_manager(o).destroy(eid)
        else:
            frame = B.run_frames(w, 1 + eid, start=frame)
        ems = [em for _, em in w.particle_manager(o).emitters()]
        live = sorted(i for em in ems for _, i in em.live_slots())
        assert live == sorted(np.flatnonzero(w.pool.alive).tolist())
        assert w.pool.live_count == len(live)
        assert w.pool.emitter_count == len(ems)
        ids = [i for i, _ in w.particle_manager(o).emitters()]
        assert len(ids) == len(set(ids))  # one live emitter per logical id
        assert all(em.num_particles >= len(em.live_slots()) for em in ems)
    w.remove_object(1)
    assert w.pool.live_count == 0 and w.pool.emitter_count == 0 and not w.pool.alive.any()
