"""The launch harness (issue 11): launch, flight, impact, the server's answer, deletion."""

from __future__ import annotations

import math
from fractions import Fraction

import phys_builders as pb
import pytest

from viewer.dat.records.common import PlayScript
from viewer.errors import ScenarioError
from viewer.sim import physics as ph
from viewer.sim import projectile as pj
from viewer.sim.scenario import Scenario, ScenarioRunner

GROUND = {"plane": {"normal": [0, 0, 1], "d": 0}}
WALL = {"box": {"min": [6, -2, 0], "max": [6.1, 2, 3]}}


def run(objects, events, world=(GROUND, WALL), seconds=2.0, fps=30):
    sc = Scenario.from_json({"fps": fps, "seconds": seconds, "objects": objects,
                             "world": list(world), "events": events})
    r = ScenarioRunner(sc, pb.database())
    r.world.events = []
    r.run()
    return r


def bolt(oid=1, pos=(0, 0, 1), state="0x00000800"):
    return {"id": oid, "setup": f"0x{pb.SETUP_BOLT:08X}", "table": f"0x{pb.TABLE_FLAME:08X}",
            "position": list(pos), "state": state}


def arrow(oid=1, pos=(0, 0, 1), state="0x00400C08"):
    return {"id": oid, "setup": f"0x{pb.SETUP_ARROW:08X}", "table": f"0x{pb.TABLE_FLAME:08X}",
            "position": list(pos), "state": state}


def evs(r, kind, **match):
    return [e for e in r.world.events if e["event"] == kind
            and all(e.get(k) == v for k, v in match.items())]


def test_launch_sets_flight_state_velocity_heading_and_plays_launch():
    r = run([bolt()], [{"t": 0.1, "object": 1, "launch": {"velocity": [0, 20, 0]},
                        "intensity": 0.5}], world=(), seconds=0.1)
    obj = r.world.objects[1]
    assert obj.state & pj.FLIGHT_BITS == pj.FLIGHT_BITS
    assert obj.velocity == (0.0, 20.0, 0.0)
    assert obj.frame.get_heading() == pytest.approx(0.0, abs=1e-9)
    res = evs(r, "resolve", type=int(PlayScript.Launch))
    assert len(res) == 1 and res[0]["intensity"] == 0.5 and res[0]["script"] == pb.PES_LAUNCH


def test_launch_at_target_without_gravity_flies_straight_at_speed():
    r = run([bolt()], [{"t": 0, "object": 1, "launch": {"target": [3, 4, 1], "speed": 10}}],
            world=(), seconds=0.0)
    assert r.world.objects[1].velocity == pytest.approx((6.0, 8.0, 0.0), abs=1e-12)


def test_launch_at_target_with_gravity_lobs_onto_it():
    v = pj.aim_velocity((0.0, 0.0, 1.0), (20.0, 0.0, 1.0), 20.0, gravity=True)
    assert math.hypot(*v) == pytest.approx(20.0)
    # the arc crosses x = 20 at the launch height
    t = 20.0 / v[0]
    assert 1.0 + v[2] * t + 0.5 * ph.GRAVITY * t * t == pytest.approx(1.0, abs=1e-9)


def test_aim_out_of_range_uses_45_degrees():
    v = pj.aim_velocity((0.0, 0.0, 0.0), (1000.0, 0.0, 0.0), 10.0, gravity=True)
    assert v[0] == pytest.approx(v[2]) and v[0] > 0


def test_impact_then_server_answer_after_delay_then_delete():
    r = run([bolt()], [{"t": 0.1, "object": 1,
                        "launch": {"velocity": [20, 0, 0], "delay": 0.1,
                                   "delete_after": 0.5}}])
    imp = evs(r, "impact", owner=1)
    assert len(imp) == 1 and imp[0]["other"] == "world:1"
    assert imp[0]["normal"] == [-1.0, 0.0, 0.0]
    answer = evs(r, "projectile", action="server_impact")[0]
    assert answer["t"] == pytest.approx(imp[0]["t"] + 0.1, abs=1e-9)
    after = [e for e in r.world.events if e["t"] == answer["t"]
             and e["event"] in ("state", "resolve")]
    assert [e["event"] for e in after] == ["state", "resolve", "resolve"]
    assert int(after[0]["state"], 16) & pj.IMPACT_SET == pj.IMPACT_SET
    assert [e["type"] for e in after[1:]] == [int(PlayScript.ProjectileCollision),
                                            int(PlayScript.Explode)]
    deleted = evs(r, "object", action="destroyed", owner=1)
    assert deleted and deleted[0]["t"] == pytest.approx(answer["t"] + 0.5, abs=1e-9)
    assert 1 not in r.world.objects


def test_server_answer_zeroes_velocity():
    r = run([bolt()], [{"t": 0.1, "object": 1,
                        "launch": {"velocity": [20, 0, 0], "delay": 0.0,
                                   "delete_after": None}}], seconds=1.0)
    assert r.world.objects[1].velocity == (0.0, 0.0, 0.0)


def test_client_impact_clears_missile_bits_before_the_server_answers():
    r = run([bolt()], [{"t": 0.1, "object": 1, "launch": {"velocity": [20, 0, 0],
                                                          "delay": 1.0}}], seconds=0.6)
    obj = r.world.objects[1]
    assert not obj.state & (ph.MISSILE | ph.ALIGNPATH | ph.PATHCLIPPED)
    assert not evs(r, "projectile", action="server_impact")


def test_arrow_with_gravity_hits_the_target_sphere():
    target = {"sphere": {"center": [10, 0, 1], "radius": 0.5, "id": 77}}
    r = run([arrow()], [{"t": 0, "object": 1,
                         "launch": {"target": [10, 0, 1], "speed": 30}}],
            world=(GROUND, target), seconds=1.0)
    imp = evs(r, "impact", owner=1)
    assert imp and imp[0]["other"] == 77


def test_bolt_hits_a_scenario_object_with_spheres():
    r = run([bolt(1), bolt(2, pos=(5, 0, 1))],
            [{"t": 0, "object": 1, "launch": {"velocity": [20, 0, 0]}}], world=(),
            seconds=0.6)
    imp = evs(r, "impact", owner=1)
    assert imp and imp[0]["other"] == 2


def test_trail_per_metre_emission_is_driven_by_the_flight():
    r = run([bolt()], [{"t": 0, "object": 1, "launch": {"velocity": [20, 0, 0]}}],
            world=(), seconds=0.5)
    em = r.world.objects[1].particle_manager
    assert em is not None
    births = em_births(r)
    # 10 m flown at one particle per 0.5 m, at most one per update (15 updates)
    assert 10 <= births <= 16
    still = run([bolt()], [{"t": 0, "object": 1, "play": "Launch"}], world=(), seconds=0.5)
    assert em_births(still) <= 1   # the same trail on a body at rest hardly emits


def em_births(r):
    return sum(e.total_emitted for _, e in r.world.objects[1].particle_manager.emitters())


@pytest.mark.parametrize("launch,msg", [
    ({"velocity": [1, 0, 0], "target": [1, 0, 0]}, "exactly one"),
    ({}, "exactly one"),
    ({"velocity": [1, 0]}, "velocity"),
    ({"target": [1, 0, 0], "speed": -1}, "speed"),
    ({"velocity": [1, 0, 0], "bogus": 1}, "unknown"),
    ({"velocity": [1, 0, 0], "delay": -1}, "delay"),
    ("fast", "object"),
])
def test_launch_event_errors_name_the_event_and_file(tmp_path, launch, msg):
    path = tmp_path / "bad.scenario.json"
    with pytest.raises(ScenarioError) as err:
        Scenario.from_json({"events": [{"t": 0, "object": 1, "launch": launch}]}, path)
    assert "events[0]" in str(err.value) and msg in str(err.value)
    assert str(path) in str(err.value)


def test_scenario_world_shapes_reach_the_collision_world():
    sc = Scenario.from_json({"objects": [], "world": [GROUND, WALL]})
    r = ScenarioRunner(sc, pb.database())
    assert [s.name for s in r.world.collision.shapes] == ["world:0", "world:1"]


# -- update_object 0x00515D10 time stepping against clock.py ----------------------
def _world_with_bolt(v=(10.0, 0.0, 0.0)):
    from viewer.sim.world import World
    w = World(pb.database())
    w.events = []
    obj = w.create_object(1, pb.SETUP_BOLT, position=(0.0, 0.0, 1.0), state=0x800)
    w.set_velocity(obj, v)
    return w, obj


def test_update_object_0x00515D10_catch_up_in_max_quantum_steps():
    from viewer.sim.clock import update_object_steps
    steps, t = update_object_steps(Fraction(1, 2), Fraction(0))
    assert [dt for _, dt in steps] == [Fraction(1, 5), Fraction(1, 5), Fraction(1, 10)]
    assert t == Fraction(1, 2)


def test_update_object_0x00515D10_small_remainder_carries():
    from viewer.sim.clock import update_object_steps
    steps, t = update_object_steps(Fraction(42, 100), Fraction(0))
    assert [dt for _, dt in steps] == [Fraction(1, 5), Fraction(1, 5)]
    assert t == Fraction(2, 5)   # the 0.02 s remainder stays for the next update


def test_update_object_0x00515D10_gap_over_2s_is_dropped():
    from viewer.sim.clock import update_object_steps
    assert update_object_steps(Fraction(25, 10), Fraction(0)) == ([], Fraction(25, 10))
    steps, _ = update_object_steps(Fraction(2), Fraction(0))
    assert len(steps) == 10   # exactly 2 s is still replayed


def test_update_object_0x00515D10_projectile_catch_up_covers_the_gap():
    w, obj = _world_with_bolt()
    w.tick(Fraction(0))
    w.tick(Fraction(1, 2))   # one late frame: 0.2 + 0.2 + 0.1
    assert obj.frame.origin[0] == pytest.approx(5.0, abs=1e-9)


def test_update_object_0x00515D10_projectile_does_not_jump_over_2s_gap():
    w, obj = _world_with_bolt()
    w.tick(Fraction(0))
    w.tick(Fraction(5, 2))
    assert obj.frame.origin == (0.0, 0.0, 1.0)
    w.tick(Fraction(5, 2) + Fraction(1, 10))
    assert obj.frame.origin[0] == pytest.approx(1.0, abs=1e-9)
