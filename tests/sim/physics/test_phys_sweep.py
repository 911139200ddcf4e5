"""The transition sweep and collision response (docs/retail-rules.md, Physics)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.errors import ScenarioError
from viewer.sim import collision as co
from viewer.sim import physics as ph
from viewer.sim.frame import Frame

MISSILE_STATE = ph.MISSILE | ph.ALIGNPATH | ph.PATHCLIPPED | ph.REPORT_COLLISIONS
ARROW = (((0.0, 0.0, 0.0), 0.10),)
FORCE_BOLT = (((0.0, -0.165, 0.1045), 0.102),)


def world(*shapes):
    return co.world_from_scenario(list(shapes))


GROUND = {"plane": {"normal": [0, 0, 1], "d": 0}}
THIN_WALL = {"box": {"min": [4, -2, 0], "max": [4.02, 2, 3]}}


def missile(pos=(0.0, 0.0, 1.0), v=(50.0, 0.0, 0.0), spheres=ARROW, state=MISSILE_STATE,
            **kw):
    b = ph.PhysicsBody(frame=Frame(pos), spheres=spheres, state=state, **kw)
    ph.calc_acceleration(b)
    ph.set_velocity(b, v)
    return b


# -- calc_num_steps 0x0050A0B0 ---------------------------------------------------------------------
def _steps(dx, r=0.1):
    b = ph.PhysicsBody(spheres=(((0.0, 0.0, 0.0), r),))
    return co.CTransition(b, Frame(), Frame((dx, 0.0, 0.0))).calc_num_steps()


def test_calc_num_steps_0x0050A0B0_one_radius_per_step_no_cap():
    _offset, per, n = _steps(10.0)
    assert n == 100 and per == pytest.approx((0.1, 0.0, 0.0), abs=1e-12)


def test_calc_num_steps_0x0050A0B0_short_move_is_one_step():
    assert _steps(0.05)[1:] == ((0.05, 0.0, 0.0), 1)


def test_calc_num_steps_0x0050A0B0_zero_move_is_no_step():
    assert _steps(0.0)[2] == 0


def test_transition_50ms_arrow_runs_all_100_steps_in_one_max_quantum():
    b = missile()
    tr = co.EMPTY_WORLD.transition(b, b.frame, Frame((10.0, 0.0, 1.0)))
    assert tr is not None and tr.steps_taken == 100
    assert tr.sphere_path.curr_pos.origin == pytest.approx((10.0, 0.0, 1.0), abs=1e-9)


# -- no tunnelling ---------------------------------------------------------------------------------
def test_sweep_50ms_arrow_01_sphere_does_not_tunnel_thin_wall():
    w = world(GROUND, THIN_WALL)
    b = missile(v=(60.0, 0.0, 0.0))      # clamped to 50 on set_velocity
    r = ph.update_object_internal(b, 0.2, w)
    assert b.frame.origin == pytest.approx((3.9, 0.0, 1.0), abs=1e-9)   # last clear step
    assert len(r.impacts) == 1
    imp = r.impacts[0]
    assert imp.other == "world:1" and imp.environment
    assert imp.normal == (-1.0, 0.0, 0.0)
    assert imp.point == pytest.approx((4.0, 0.0, 1.0), abs=1e-9)
    for _ in range(5):
        ph.update_object_internal(b, 0.2, w)
        assert b.frame.origin[0] < 4.0


def test_sweep_stops_on_first_collision_because_missile_is_path_clipped():
    b = missile()
    tr = world(THIN_WALL).transition(b, b.frame, Frame((10.0, 0.0, 1.0)))
    assert tr.steps_taken == 40 and tr.collision_info.collision_normal_valid


def test_get_object_info_0x00511CC0_missile_is_path_clipped_not_perfect_clip():
    b = missile()
    tr = co.CTransition(b, b.frame, b.frame)
    assert tr.object_info.state & co.OI_PATH_CLIPPED
    assert not tr.object_info.state & co.OI_PERFECT_CLIP
    assert not tr.object_info.step_down   # OBJECTINFO::init: missiles do not step down


# -- collision response (handle_all_collisions 0x00514780) -----------------------------------------
def test_handle_all_collisions_0x00514780_elastic_reflection_exact():
    b = missile(pos=(0.0, -4.0, 1.0), v=(30.0, 40.0, 0.0), state=MISSILE_STATE)
    ph.update_object_internal(b, 0.2, world(THIN_WALL))
    # v + -(v.n)(1 + 0.05) n with n = (-1, 0, 0)
    assert b.velocity == pytest.approx((-1.5, 40.0, 0.0), abs=1e-9)


def test_handle_all_collisions_0x00514780_inelastic_stops():
    b = missile(pos=(0.0, -4.0, 1.0), v=(30.0, 40.0, 0.0), state=MISSILE_STATE | ph.INELASTIC)
    ph.update_object_internal(b, 0.2, world(THIN_WALL))
    assert b.velocity == (0.0, 0.0, 0.0)


def test_report_environment_collision_0x00512FC0_clears_missile_bits_once():
    w = world(THIN_WALL)
    b = missile(state=MISSILE_STATE | ph.GRAVITY_PS)
    r = ph.update_object_internal(b, 0.2, w)
    assert len(r.impacts) == 1
    assert not b.state & (ph.MISSILE | ph.ALIGNPATH | ph.PATHCLIPPED)
    assert b.state & ph.GRAVITY_PS and b.state & ph.REPORT_COLLISIONS


def test_SetPositionInternal_flat_floor_is_contact_and_walkable():
    b = missile(pos=(0.0, 0.0, 1.0), v=(0.0, 0.0, -10.0), state=MISSILE_STATE | ph.GRAVITY_PS)
    r = ph.update_object_internal(b, 0.2, world(GROUND))
    assert r.impacts and r.impacts[0].normal == (0.0, 0.0, 1.0)
    assert b.frame.origin[2] == pytest.approx(0.1, abs=1e-9)
    assert b.transient_state & ph.CONTACT and b.transient_state & ph.ON_WALKABLE
    assert b.acceleration == (0.0, 0.0, 0.0)


def test_SetPositionInternal_steep_plane_is_contact_not_walkable():
    n = (0.8, 0.0, 0.6)   # N.z below floor_z 0.664
    b = missile(pos=(0.0, 0.0, 1.0), v=(0.0, 0.0, -10.0), state=MISSILE_STATE | ph.GRAVITY_PS)
    ph.update_object_internal(b, 0.2, world({"plane": {"normal": list(n), "d": 0}}))
    assert b.transient_state & ph.CONTACT
    assert not b.transient_state & ph.ON_WALKABLE
    assert b.acceleration == (0.0, 0.0, ph.GRAVITY)   # contact alone does not stop gravity


def test_landing_settles_on_following_ticks():
    w = world(GROUND)
    b = missile(pos=(0.0, 0.0, 1.0), v=(5.0, 0.0, -5.0), state=MISSILE_STATE | ph.GRAVITY_PS)
    for _ in range(60):
        ph.update_object_internal(b, 1 / 30, w)
    assert b.frame.origin[2] == pytest.approx(0.1, abs=1e-6)
    assert b.transient_state & ph.ON_WALKABLE
    assert math.hypot(*b.velocity) < 0.3


# -- Setup spheres: scaled, offset, never a dummy --------------------------------------------------
def test_force_bolt_offset_sphere_rests_by_its_local_origin_and_radius():
    b = missile(pos=(0.0, 0.0, 1.0), v=(0.0, 0.0, -10.0), spheres=FORCE_BOLT,
                state=ph.MISSILE | ph.PATHCLIPPED)
    ph.update_object_internal(b, 0.2, world(GROUND))
    # sphere centre z = body z + 0.1045 rests at its radius 0.102
    assert b.frame.origin[2] == pytest.approx(0.102 - 0.1045, abs=1e-9)


def test_force_bolt_sphere_origin_and_radius_both_scaled():
    b = missile(pos=(0.0, 0.0, 1.0), v=(0.0, 0.0, -10.0), spheres=FORCE_BOLT,
                state=ph.MISSILE | ph.PATHCLIPPED, scale=2.0)
    ph.update_object_internal(b, 0.2, world(GROUND))
    assert b.frame.origin[2] == pytest.approx(0.204 - 0.209, abs=1e-9)


def test_force_bolt_sphere_origin_follows_the_frame_rotation():
    upside_down = (0.0, 0.0, 1.0, 0.0)   # 180 degrees about Y: local +Z is world -Z
    b = missile(pos=(0.0, 0.0, 1.0), v=(0.0, 0.0, -10.0), spheres=FORCE_BOLT,
                state=ph.MISSILE | ph.PATHCLIPPED)
    b.frame = Frame((0.0, 0.0, 1.0), upside_down)
    ph.update_object_internal(b, 0.2, world(GROUND))
    assert b.frame.origin[2] == pytest.approx(0.102 + 0.1045, abs=1e-9)


# -- missile_ignore 0x0050CEB0 ---------------------------------------------------------------------
D = co.ObjectDesc


@pytest.mark.parametrize("mover,target,other,ignored", [
    (0, 0, D(5, ph.MISSILE), True),                                   # other is a missile
    (ph.MISSILE, 0, D(5, ph.MISSILE), True),
    (0, 0, D(5, ph.ETHEREAL, has_weenie=True), False),                # mover not a missile
    (ph.MISSILE, 5, D(5, ph.ETHEREAL, has_weenie=True), False),       # designated target
    (ph.MISSILE, 0, D(5, ph.ETHEREAL, has_weenie=True), True),        # ethereal weenie
    (ph.MISSILE, 0, D(5, ph.ETHEREAL, has_weenie=False), False),      # ethereal, no weenie
    (ph.MISSILE, 7, D(5, 0, has_weenie=True, is_creature=True), True),   # other creature
    (ph.MISSILE, 0, D(5, 0, has_weenie=True, is_creature=True), False),  # no target named
    (ph.MISSILE, 7, D(5, 0, has_weenie=True, is_creature=False), False),
    (ph.MISSILE, 7, D(5, 0, has_weenie=False, is_creature=True), False),
])
def test_missile_ignore_0x0050CEB0_branch_tree(mover, target, other, ignored):
    assert co.missile_ignore(mover, target, other) is ignored


def _creature(x, oid):
    return {"sphere": {"center": [x, 0, 1], "radius": 0.5, "id": oid, "weenie": True,
                       "creature": True}}


def test_missile_passes_other_creatures_and_hits_designated_target():
    w = world(_creature(3.0, 11), _creature(6.0, 12))
    b = missile(target_id=12)
    r = ph.update_object_internal(b, 0.2, w)
    assert [i.other for i in r.impacts] == [12]
    assert 5.3 < b.frame.origin[0] < 5.5


def test_missile_without_target_hits_first_creature():
    w = world(_creature(3.0, 11), _creature(6.0, 12))
    b = missile()
    r = ph.update_object_internal(b, 0.2, w)
    assert [i.other for i in r.impacts] == [11] and not r.impacts[0].environment


def test_object_sphere_normal_points_from_target_centre():
    w = world({"sphere": {"center": [5, 0, 1], "radius": 0.5}})
    b = missile()
    r = ph.update_object_internal(b, 0.2, w)
    assert r.impacts[0].other == "world:0"
    assert r.impacts[0].normal == pytest.approx((-1.0, 0.0, 0.0), abs=1e-12)


def test_static_object_reports_as_environment():
    w = world({"sphere": {"center": [5, 0, 1], "radius": 0.5, "state": "0x1"}})
    r = ph.update_object_internal(missile(), 0.2, w)
    assert r.impacts[0].environment and r.impacts[0].other == "world:0"


def test_ethereal_object_is_passed_through_but_reported():
    w = world({"sphere": {"center": [5, 0, 1], "radius": 0.5, "state": "0x4"}})
    b = missile()
    r = ph.update_object_internal(b, 0.2, w)
    assert b.frame.origin == pytest.approx((10.0, 0.0, 1.0), abs=1e-9)
    assert [i.other for i in r.impacts] == ["world:0"]


def test_cylinder_side_hit_normal_is_horizontal():
    w = world({"cylinder": {"low_point": [5, 0, 0], "radius": 0.5, "height": 2}})
    b = missile()
    r = ph.update_object_internal(b, 0.2, w)
    assert r.impacts[0].normal == pytest.approx((-1.0, 0.0, 0.0), abs=1e-12)
    assert b.frame.origin[0] < 4.5


def test_cylinder_top_hit_normal_is_up():
    w = world({"cylinder": {"low_point": [0, 0, 0], "radius": 0.5, "height": 2}})
    b = missile(pos=(0.0, 0.0, 4.0), v=(0.0, 0.0, -10.0))
    r = ph.update_object_internal(b, 0.2, w)
    assert r.impacts[0].normal == (0.0, 0.0, 1.0)
    assert b.frame.origin[2] > 2.0


# -- transition failure ----------------------------------------------------------------------------
class _FailingWorld:
    def transition(self, body, old, new):
        return None


def test_UpdateObjectInternal_0x005156B0_failed_transition_keeps_old_origin_new_rotation():
    b = missile(v=(5.0, 5.0, 0.0))
    ph.update_object_internal(b, 0.2, _FailingWorld())
    assert b.frame.origin == (0.0, 0.0, 1.0)
    assert b.frame.get_heading() == pytest.approx(45.0, abs=1e-9)   # AlignPath applied
    assert b.cached_velocity == (0.0, 0.0, 0.0)


def test_find_transitional_position_0x0050BDF0_vanishing_first_offset_fails():
    b = ph.PhysicsBody(spheres=ARROW, state=0)
    tr = co.CTransition(b, Frame(), Frame((1.0, 0.0, 0.0)))
    tr.collision_info.contact_plane_valid = True
    tr.collision_info.contact_plane = ((1.0, 0.0, 0.0), 5.0)
    tr.collision_info.sliding_normal_valid = True
    tr.collision_info.sliding_normal = (-1.0, 0.0, 0.0)
    assert tr.find_transitional_position() is False


# -- scenario world --------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [
    {"cone": {}},
    {"plane": {"normal": [0, 0], "d": 0}},
    {"box": {"min": [1, 0, 0], "max": [0, 1, 1]}},
    {"sphere": {"center": [0, 0, 0], "radius": -1}},
    {"cylinder": {"low_point": [0, 0, 0], "radius": 1}},
    "plane",
])
def test_world_from_scenario_rejects_bad_shapes_naming_file(bad):
    with pytest.raises(ScenarioError) as err:
        co.world_from_scenario([bad], file="x.scenario.json")
    assert "x.scenario.json" in str(err.value)


def test_world_from_scenario_absent_is_empty_space():
    assert co.world_from_scenario(None).shapes == []
    b = missile(v=(0.0, 0.0, -50.0), state=ph.MISSILE | ph.GRAVITY_PS)
    ph.update_object_internal(b, 0.2, co.world_from_scenario([]))
    assert b.frame.origin[2] < -9.0   # no ground unless listed


# -- track_object_collision 0x00513DD0 / report_collision_end 0x00513FD0 ---------------------------
def test_track_object_collision_reports_an_object_once_while_touched():
    w = world({"sphere": {"center": [0, 0, 0], "radius": 2.0}})
    b = missile(pos=(0.0, 0.0, 3.0), v=(0.0, 0.0, -5.0), state=ph.REPORT_COLLISIONS)
    reports = 0
    for _ in range(20):   # resting against the target: touched every quantum
        reports += len(ph.update_object_internal(b, 1 / 30, w).impacts)
        ph.set_velocity(b, (0.0, 0.0, -5.0))
    assert reports == 1
    assert "world:0" in b.collision_table


def test_report_collision_end_forgets_after_one_second():
    w = world({"sphere": {"center": [0, 0, 0], "radius": 2.0}})
    b = missile(pos=(0.0, 0.0, 2.2), v=(0.0, 0.0, -5.0), state=ph.REPORT_COLLISIONS)
    assert len(ph.update_object_internal(b, 1 / 30, w).impacts) == 1
    b.frame = Frame((0.0, 0.0, 10.0))
    for _ in range(40):   # 1.33 s away from it, moving slowly sideways
        ph.set_velocity(b, (1.0, 0.0, 0.0))
        ph.update_object_internal(b, 1 / 30, w)
    assert "world:0" not in b.collision_table
    b.frame = Frame((0.0, 0.0, 2.2))
    ph.set_velocity(b, (0.0, 0.0, -5.0))
    assert len(ph.update_object_internal(b, 1 / 30, w).impacts) == 1


def test_hidden_objects_are_not_collision_targets():
    class Obj:
        def __init__(self, oid, state):
            self.id, self.state, self.parent, self.scale = oid, state, None, 1.0
            self.spheres, self.frame = ARROW, Frame((5.0, 0.0, 1.0))
    shapes = co.object_shapes([Obj(2, 0), Obj(3, ph.HIDDEN)], mover=None)
    assert [s.desc.id for s in shapes] == [2]


def test_UpdateObjectInternal_0x005156B0_sledding_heads_along_velocity():
    b = ph.PhysicsBody(state=ph.SLEDDING, spheres=ARROW)
    ph.set_velocity(b, (3.0, 3.0, 0.0))
    ph.update_object_internal(b, 0.1, None)
    assert b.frame.get_heading() == pytest.approx(45.0, abs=1e-9)


# -- no tunnelling, any speed / quantum / thin wall (hypothesis) -----------------------------------
@settings(max_examples=40, deadline=None)
@given(speed=st.floats(1.0, 200.0), quantum=st.floats(1 / 30, 0.2),
       thickness=st.floats(0.005, 0.05), start=st.floats(0.0, 3.0),
       y=st.floats(-1.5, 1.5))
def test_sweep_never_tunnels_a_thin_wall(speed, quantum, thickness, start, y):
    w = world({"box": {"min": [4.0, -2.0, 0.0], "max": [4.0 + thickness, 2.0, 3.0]}})
    b = missile(pos=(start, y, 1.0), v=(speed, 0.0, 0.0))
    for _ in range(3):
        ph.update_object_internal(b, quantum, w)
        assert b.frame.origin[0] < 4.0


def test_FindObjCollisions_0x0050F050_cylspheres_take_precedence_and_scale():
    class Cyl:
        low_point, radius, height = (0.0, 0.0, 0.0), 0.5, 2.0

    class Setup:
        cylspheres = (Cyl(),)

    class Obj:
        id, state, parent, scale, setup = 7, 0, None, 2.0, Setup()
        spheres, frame = ARROW, Frame((5.0, 0.0, 0.0))
    (shape,) = co.object_shapes([Obj()], mover=None)
    assert isinstance(shape, co.CylinderShape)
    assert (shape.low_pt, shape.radius, shape.height) == ((5.0, 0.0, 0.0), 1.0, 4.0)


def test_collision_world_describe_for_overlays():
    w = world(GROUND, THIN_WALL, {"sphere": {"center": [1, 2, 3], "radius": 0.5, "id": 9}},
              {"cylinder": {"low_point": [0, 0, 0], "radius": 1, "height": 2}})
    assert w.describe() == [
        {"kind": "plane", "normal": [0.0, 0.0, 1.0], "d": 0.0, "name": "world:0"},
        {"kind": "box", "min": [4.0, -2.0, 0.0], "max": [4.02, 2.0, 3.0], "name": "world:1"},
        {"kind": "sphere", "center": [1.0, 2.0, 3.0], "radius": 0.5, "name": "9"},
        {"kind": "cylinder", "low_point": [0.0, 0.0, 0.0], "radius": 1.0, "height": 2.0,
         "name": "world:3"}]
