"""CPhysicsObj integrator rules (docs/retail-rules.md, Physics)."""

from __future__ import annotations

import math

import pytest

from viewer.sim import physics as ph
from viewer.sim.frame import EPS, Frame, axis_angle_quat, quat_mul

APPROX = {"rel": 1e-12, "abs": 1e-12}


def body(**kw) -> ph.PhysicsBody:
    kw.setdefault("state", 0)
    return ph.PhysicsBody(**kw)


def vec_approx(v):
    return pytest.approx(v, **APPROX)


# -- constants --------------------------------------------------------------------------------
def test_constants_match_retail_globals():
    assert pytest.approx(-9.8000002, abs=1e-6) == ph.GRAVITY
    assert pytest.approx(0.66417414, abs=1e-7) == ph.FLOOR_Z
    assert ph.DEFAULT_STATE == 0x00400C08
    assert ph.MAX_VELOCITY_SQUARED == 2500.0


# -- calc_acceleration 0x00510950 ------------------------------------------------------------
def test_calc_acceleration_0x00510950_contact_and_walkable_zero_accel_and_omega():
    b = body(state=ph.GRAVITY_PS, transient_state=ph.CONTACT | ph.ON_WALKABLE,
             omega=(1.0, 2.0, 3.0))
    ph.calc_acceleration(b)
    assert b.acceleration == (0.0, 0.0, 0.0) and b.omega == (0.0, 0.0, 0.0)


def test_calc_acceleration_0x00510950_sledding_keeps_gravity_on_walkable():
    b = body(state=ph.GRAVITY_PS | ph.SLEDDING, transient_state=ph.CONTACT | ph.ON_WALKABLE,
             omega=(0.0, 0.0, 1.0))
    ph.calc_acceleration(b)
    assert b.acceleration == (0.0, 0.0, ph.GRAVITY) and b.omega == (0.0, 0.0, 1.0)


def test_calc_acceleration_0x00510950_contact_without_walkable_falls():
    b = body(state=ph.GRAVITY_PS, transient_state=ph.CONTACT)
    ph.calc_acceleration(b)
    assert b.acceleration == (0.0, 0.0, ph.GRAVITY)


def test_calc_acceleration_0x00510950_no_gravity_zero_accel_keeps_omega():
    b = body(state=0, acceleration=(1.0, 1.0, 1.0), omega=(0.5, 0.0, 0.0))
    ph.calc_acceleration(b)
    assert b.acceleration == (0.0, 0.0, 0.0) and b.omega == (0.5, 0.0, 0.0)


# -- UpdatePhysicsInternal 0x00510700 ---------------------------------------------------------
def test_UpdatePhysicsInternal_0x00510700_clamps_to_50_before_friction():
    # 100 m/s on a walkable floor: clamp to 50 first, then friction (1-0.95)^dt on the clamp
    b = body(velocity=(60.0, 80.0, 0.0), transient_state=ph.ON_WALKABLE | ph.CONTACT,
             contact_plane=((0.0, 0.0, 1.0), 0.0))
    f = ph.update_physics_internal(b, 0.1, Frame())
    k = 0.05 ** 0.1
    assert b.velocity == vec_approx((30.0 * k, 40.0 * k, 0.0))
    assert f.origin == vec_approx((3.0 * k, 4.0 * k, 0.0))


def test_UpdatePhysicsInternal_0x00510700_clamp_in_flight_exact():
    b = body(velocity=(0.0, 300.0, 400.0))
    f = ph.update_physics_internal(b, 0.2, Frame())
    assert b.velocity == vec_approx((0.0, 30.0, 40.0))
    assert f.origin == vec_approx((0.0, 6.0, 8.0))


def test_UpdatePhysicsInternal_0x00510700_near_stop_uses_pre_friction_speed():
    # 0.3 m/s: friction takes it far below 0.25 m/s, but the test reads the speed measured
    # before friction (0.09 - 0.0625 >= EPS), so it keeps moving.
    b = body(velocity=(0.3, 0.0, 0.0), transient_state=ph.ON_WALKABLE | ph.CONTACT,
             contact_plane=((0.0, 0.0, 1.0), 0.0))
    f = ph.update_physics_internal(b, 1.0, Frame())
    assert b.velocity == vec_approx((0.3 * 0.05, 0.0, 0.0))
    assert f.origin == vec_approx((0.015, 0.0, 0.0))


def test_UpdatePhysicsInternal_0x00510700_near_stop_threshold_within_eps():
    # speed^2 = 0.0625 + 0.0001: below 0.0625 + EPS, zeroed before the position step
    v = math.sqrt(0.0626)
    b = body(velocity=(v, 0.0, 0.0))
    f = ph.update_physics_internal(b, 0.1, Frame())
    assert b.velocity == (0.0, 0.0, 0.0) and f.origin == (0.0, 0.0, 0.0)


def test_UpdatePhysicsInternal_0x00510700_just_above_near_stop_moves():
    v = math.sqrt(0.0625 + 0.0003)
    b = body(velocity=(v, 0.0, 0.0))
    f = ph.update_physics_internal(b, 0.1, Frame())
    assert f.origin == vec_approx((v * 0.1, 0.0, 0.0))


def test_UpdatePhysicsInternal_0x00510700_half_a_dt2_only_when_moving():
    # at rest, gravity adds velocity but no position this quantum
    b = body(acceleration=(0.0, 0.0, ph.GRAVITY))
    f = ph.update_physics_internal(b, 0.1, Frame((0.0, 0.0, 5.0)))
    assert f.origin == (0.0, 0.0, 5.0)
    assert b.velocity == vec_approx((0.0, 0.0, ph.GRAVITY * 0.1))
    # moving: x += v dt + a dt^2 / 2
    f = ph.update_physics_internal(b, 0.1, f)
    vz = ph.GRAVITY * 0.1
    assert f.origin[2] == pytest.approx(5.0 + vz * 0.1 + 0.5 * ph.GRAVITY * 0.01, abs=1e-12)
    assert b.velocity[2] == pytest.approx(2 * vz, abs=1e-12)


def test_UpdatePhysicsInternal_0x00510700_rest_on_walkable_clears_active():
    b = body(transient_state=ph.ON_WALKABLE | ph.ACTIVE)
    ph.update_physics_internal(b, 0.1, Frame())
    assert not b.transient_state & ph.ACTIVE
    b = body(transient_state=ph.ON_WALKABLE | ph.ACTIVE, has_movement_manager=True)
    ph.update_physics_internal(b, 0.1, Frame())
    assert b.transient_state & ph.ACTIVE


def test_Frame_grotate_order_omega_is_global_left_multiplied():
    q0 = axis_angle_quat((math.pi / 2, 0.0, 0.0))
    b = body(omega=(0.0, 0.0, math.pi))   # rad/s about global Z
    f = ph.update_physics_internal(b, 0.5, Frame(orientation=q0))
    want = quat_mul(axis_angle_quat((0.0, 0.0, math.pi / 2)), q0)
    wrong = quat_mul(q0, axis_angle_quat((0.0, 0.0, math.pi / 2)))
    assert f.orientation == pytest.approx(want, abs=1e-12)
    assert f.orientation != pytest.approx(wrong, abs=1e-6)


def test_grotate_below_eps_squared_does_nothing():
    b = body(omega=(EPS * 0.5, 0.0, 0.0))
    f = ph.update_physics_internal(b, 1.0, Frame())
    assert f.orientation == (1.0, 0.0, 0.0, 0.0)


# -- calc_friction 0x0050EE70 ------------------------------------------------------------------
def _sled(v, n, friction=0.5):
    b = body(state=ph.SLEDDING, velocity=v, friction=friction,
             transient_state=ph.ON_WALKABLE, contact_plane=(n, 0.0))
    ph.calc_friction(b, 0.5, v[0] ** 2 + v[1] ** 2 + v[2] ** 2)
    return b.velocity


def test_calc_friction_0x0050EE70_sledding_slow_stops():
    assert _sled((1.2, 0.0, 0.0), (0.0, 0.0, 1.0)) == (0.0, 0.0, 0.0)


def test_calc_friction_0x0050EE70_sledding_medium_uses_friction():
    assert _sled((2.0, 0.0, 0.0), (0.0, 0.0, 1.0)) == vec_approx((2.0 * 0.5 ** 0.5, 0.0, 0.0))


def test_calc_friction_0x0050EE70_sledding_fast_steep_uses_0_2():
    n = (math.sin(0.3), 0.0, math.cos(0.3))   # 17 degrees: steeper than cos(10 deg)
    v = (0.0, 3.0, 0.0)
    assert _sled(v, n) == vec_approx((0.0, 3.0 * 0.8 ** 0.5, 0.0))


def test_calc_friction_0x0050EE70_sledding_fast_flat_uses_friction():
    assert _sled((0.0, 3.0, 0.0), (0.0, 0.0, 1.0)) == vec_approx((0.0, 3.0 * 0.5 ** 0.5, 0.0))


def test_calc_friction_0x0050EE70_removes_normal_component_first():
    b = body(velocity=(2.0, 0.0, -1.0), friction=0.5, transient_state=ph.ON_WALKABLE,
             contact_plane=((0.0, 0.0, 1.0), 0.0))
    ph.calc_friction(b, 1.0, 5.0)
    assert b.velocity == vec_approx((1.0, 0.0, 0.0))


def test_calc_friction_0x0050EE70_moving_away_quarter_untouched():
    b = body(velocity=(2.0, 0.0, 0.25), friction=0.5, transient_state=ph.ON_WALKABLE,
             contact_plane=((0.0, 0.0, 1.0), 0.0))
    ph.calc_friction(b, 1.0, 4.0625)
    assert b.velocity == (2.0, 0.0, 0.25)


def test_calc_friction_0x0050EE70_needs_on_walkable():
    b = body(velocity=(2.0, 0.0, 0.0), friction=0.5, transient_state=ph.CONTACT,
             contact_plane=((0.0, 0.0, 1.0), 0.0))
    ph.calc_friction(b, 1.0, 4.0)
    assert b.velocity == (2.0, 0.0, 0.0)


# -- set_velocity 0x005113F0 / set_omega 0x0050F6D0 --------------------------------------------
def test_set_velocity_0x005113F0_clamps_immediately_and_activates():
    b = body(update_time=1.0)
    ph.set_velocity(b, (0.0, 0.0, -100.0), now=7.5)
    assert b.velocity == (0.0, 0.0, -50.0)
    assert b.transient_state & ph.ACTIVE and b.update_time == 7.5
    ph.set_velocity(b, (1.0, 0.0, 0.0), now=9.0)   # already active: clock kept
    assert b.update_time == 7.5


def test_set_velocity_0x005113F0_static_never_activates():
    b = body(state=ph.STATIC)
    ph.set_velocity(b, (1.0, 0.0, 0.0), now=1.0)
    assert not b.transient_state & ph.ACTIVE and b.velocity == (1.0, 0.0, 0.0)


def test_set_omega_0x0050F6D0_stores_without_clamp():
    b = body()
    ph.set_omega(b, (100.0, 0.0, 0.0))
    assert b.omega == (100.0, 0.0, 0.0)


# -- UpdateObjectInternal 0x005156B0 -------------------------------------------------------------
def test_UpdateObjectInternal_0x005156B0_alignpath_heading_from_full_3d_velocity():
    b = body(state=ph.ALIGNPATH, spheres=(((0.0, 0.0, 0.0), 0.1),),
             transient_state=ph.ACTIVE)
    ph.set_velocity(b, (3.0, 4.0, 5.0))
    ph.update_object_internal(b, 0.1, None)
    n = 1.0 / math.sqrt(50.0)
    fwd = b.frame.local_to_global_vec((0.0, 1.0, 0.0))
    right = b.frame.local_to_global_vec((1.0, 0.0, 0.0))
    assert fwd == pytest.approx((3 * n, 4 * n, 5 * n), abs=1e-9)   # pitch included
    assert right[2] == pytest.approx(0.0, abs=1e-12)                  # no roll
    assert b.frame.origin == pytest.approx((0.3, 0.4, 0.5), abs=1e-12)


def test_UpdateObjectInternal_0x005156B0_no_spheres_no_translation():
    # no dummy-sphere sweep without Setup spheres; the frame keeps its old origin
    b = body(transient_state=ph.ACTIVE, omega=(0.0, 0.0, 1.0))
    ph.set_velocity(b, (10.0, 0.0, 0.0))
    ph.update_object_internal(b, 0.1, None)
    assert b.frame.origin == (0.0, 0.0, 0.0)
    assert b.frame.orientation != (1.0, 0.0, 0.0, 0.0)   # rotation still applies
    assert b.cached_velocity == (0.0, 0.0, 0.0)


def test_UpdateObjectInternal_0x005156B0_inactive_does_nothing():
    b = body(spheres=(((0.0, 0.0, 0.0), 0.1),), velocity=(1.0, 0.0, 0.0))
    ph.update_object_internal(b, 0.1, None)
    assert b.frame.origin == (0.0, 0.0, 0.0)


def test_UpdateObjectInternal_0x005156B0_cached_velocity_is_displacement_over_quantum():
    b = body(spheres=(((0.0, 0.0, 0.0), 0.1),))
    ph.set_velocity(b, (2.0, 0.0, 0.0))
    ph.update_object_internal(b, 0.25, None)
    assert b.cached_velocity == pytest.approx((2.0, 0.0, 0.0), abs=1e-12)


def test_UpdateObjectInternal_0x005156B0_hidden_skips_integration():
    b = body(state=ph.HIDDEN, spheres=(((0.0, 0.0, 0.0), 0.1),))
    ph.set_velocity(b, (2.0, 0.0, 0.0))
    ph.update_object_internal(b, 0.25, None)
    assert b.frame.origin == (0.0, 0.0, 0.0) and b.velocity == (2.0, 0.0, 0.0)
