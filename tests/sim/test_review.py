"""Rules found missing or wrong in the runtime conformance review (issues 5, 6, 11), each
against the retail function it ports."""

from __future__ import annotations

import dataclasses

import sim_builders as B

from viewer.dat.records.animation import Animation, AnimationFrame
from viewer.dat.records.common import AnimationFlags
from viewer.dat.records.common import Frame as RFrame
from viewer.sim.physics import GRAVITY
from viewer.sim.state import DEFAULT_STATE
from viewer.sim.state import PhysicsState as PS
from viewer.sim.state import TransientState as TS

ANIM = 0x03000001


def _anim_setup_records():
    s = dataclasses.replace(B.setup(), default_animation=ANIM)
    pfs = tuple(AnimationFrame((RFrame((0.0, 0.0, 0.0)),), ()) for _ in range(4))
    return {0x02000001: s, ANIM: Animation(ANIM, AnimationFlags(0), 1, None, pfs)}


def test_set_state_0x00514DD0_does_not_recalculate_acceleration():
    # calc_acceleration 0x00510950 runs from SetPositionInternal 0x00515330, set_on_walkable
    # and leave_world, never from set_state: a cleared Gravity bit leaves the acceleration
    w = B.world({0x02000001: B.setup()})
    o = w.create_object(1, 0x02000001, state=DEFAULT_STATE)
    assert o.acceleration == (0.0, 0.0, GRAVITY)
    w.set_state(o, DEFAULT_STATE & ~PS.Gravity)
    assert o.acceleration == (0.0, 0.0, GRAVITY)


def test_UpdateObjectInternal_0x005156B0_default_animation_alone_is_no_movement_manager():
    # no spheres, on walkable ground, no MovementManager (SetMotionTableID 0x00512780 makes
    # one only for a motion table): the object goes inactive; a DefaultAnimation does not
    # make a MovementManager
    w = B.world(_anim_setup_records())
    o = w.create_object(1, 0x02000001)
    assert o.motion is not None and not o.has_movement_manager
    o.transient_state |= TS.OnWalkable
    B.run_frames(w, 1)
    assert not o.active


def test_calc_acceleration_0x00510950_one_gravity_constant_at_creation_and_in_flight():
    from viewer.sim import physics, world
    assert world.GRAVITY == physics.GRAVITY  # the f32 -9.8 everywhere


def test_set_state_0x00514DD0_set_hidden_event_on_an_already_hidden_object_plays_nothing():
    from viewer.sim.scenario import Scenario, ScenarioRunner
    recs = {0x02000001: B.setup(), 0x33000001: B.script(0x33000001, (0.0, B.stop(1))),
            0x34000001: B.table(0x34000001, {0x76: [(1.0, 0x33000001)],
                                             0x75: [(1.0, 0x33000001)]})}
    sc = Scenario.from_json({"fps": 30, "seconds": 0.2, "objects": [
        {"id": 1, "setup": "0x02000001", "table": "0x34000001"}], "events": [
        {"t": 0.0, "object": 1, "set_hidden": True},
        {"t": 0.1, "object": 1, "set_hidden": True}]})
    runner = ScenarioRunner(sc, B.MemoryDB(recs))
    runner.world.events = []
    runner.run()
    assert len(B.events(runner.world, "resolve")) == 1  # only the real transition
    assert runner.world.objects[1].hidden
