"""Scenario parenting (``parent`` / ``parent_part``) and the child walk of
CPhysicsObj::set_frame 0x00514090 / UpdateChild 0x00512D50, done with loops so a chain of
any depth is placed; a self-parent, a missing or later parent and any cycle are one-line
errors naming the field."""

from __future__ import annotations

import sys

import pytest
import sim_builders as B

from viewer.dat.records.common import Sphere
from viewer.errors import ScenarioError
from viewer.sim.scenario import Scenario, ScenarioRunner

SETUP = 0x02000001
MOVER = 0x02000002  # with a sphere, so its integrated frame is committed


def _db():
    # two parts: part 0 at the origin, part 1 one metre along x (sim_builders.setup)
    return B.MemoryDB({SETUP: B.setup(SETUP, parts=2),
                       MOVER: B.setup(MOVER, parts=2, spheres=[Sphere((0, 0, 0), 0.1)])})


def _scenario(objects, seconds=0.1):
    return {"fps": 30, "seconds": seconds, "objects": objects, "events": []}


def _obj(i, **kw):
    return {"id": i, "setup": f"0x{SETUP:08X}", **kw}


def _error(objects) -> str:
    with pytest.raises(ScenarioError) as ei:
        Scenario.from_json(_scenario(objects), "p.json")
    msg = str(ei.value)
    assert "\n" not in msg and "p.json" in msg
    return msg


def test_a_self_parent_is_an_error_naming_the_field():
    assert "objects[0].parent" in _error([_obj(1, parent=1)])


def test_a_two_object_cycle_is_an_error_naming_the_field():
    msg = _error([_obj(1, parent=2), _obj(2, parent=1)])
    assert "objects[0].parent" in msg and "cycle 1 -> 2 -> 1" in msg


def test_a_three_object_cycle_is_an_error_naming_the_field():
    msg = _error([_obj(1), _obj(2, parent=4), _obj(3, parent=2), _obj(4, parent=3)])
    assert "objects[1].parent" in msg and "cycle 2 -> 4 -> 3 -> 2" in msg


def test_a_missing_parent_is_an_error_naming_the_field():
    msg = _error([_obj(1), _obj(2, parent=9)])
    assert "objects[1].parent" in msg and "9 does not exist" in msg


def test_a_parent_defined_later_is_an_error_naming_the_field():
    msg = _error([_obj(1), _obj(2, parent=3), _obj(3)])
    assert "objects[1].parent" in msg and "later (objects[2])" in msg


def test_add_child_0x0050F8F0_a_part_the_parent_lacks_is_an_error_naming_parent_part():
    sc = Scenario.from_json(_scenario([_obj(1), _obj(2, parent=1, parent_part=2)]), "p.json")
    with pytest.raises(ScenarioError) as ei:
        ScenarioRunner(sc, _db()).run()
    assert "objects[1].parent_part" in str(ei.value) and "p.json" in str(ei.value)


def test_UpdateChild_0x00512D50_children_follow_the_parents_part_pose():
    """parent_part 1 puts the child on the parent's part 1 (1 m along x of the parent);
    -1 on the root. The parent flies and turns: the children go with it, tick by tick."""
    sc = Scenario.from_json(_scenario(
        [_obj(1, setup=f"0x{MOVER:08X}", position=[0, 0, 5], heading_deg=90,
              velocity=[2, 0, 1], omega=[0, 0, 1]),
         _obj(2, parent=1, parent_part=1),
         _obj(3, parent=1)], seconds=0.5))
    runner = ScenarioRunner(sc, _db())
    w = runner.world
    zs = set()
    for _ in runner.frames():
        p, c, r = (w.objects[i] for i in (1, 2, 3))
        assert c.parent is p and [link.child.id for link in p.children] == [2, 3]
        assert c.frame.origin == pytest.approx(p.parts[1].frame.origin, abs=1e-6)
        assert c.frame.orientation == pytest.approx(p.parts[1].frame.orientation, abs=1e-6)
        assert r.frame.origin == pytest.approx(p.frame.origin, abs=1e-6)
        zs.add((round(p.frame.origin[0], 6), round(p.frame.orientation[0], 6)))
    assert len(zs) > 3, "the parent moved and turned"


def test_set_frame_0x00514090_a_chain_of_600_parents_is_placed_without_recursion():
    """600 objects each on the previous one's part 1: object k stands k metres along x.
    The recursion limit is lowered so that a recursive walk could not pass."""
    n = 600
    objects = [_obj(1, position=[0, 0, 10])]
    objects += [_obj(k, parent=k - 1, parent_part=1) for k in range(2, n + 2)]
    sc = Scenario.from_json(_scenario(objects, seconds=0.1))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)
    try:
        runner = ScenarioRunner(sc, _db())
        runner.run()
    finally:
        sys.setrecursionlimit(limit)
    w = runner.world
    root = w.objects[1].frame.origin
    for k in (2, 300, n + 1):
        o = w.objects[k].frame.origin
        assert o == pytest.approx((root[0] + (k - 1), root[1], root[2]), abs=1e-3)


def test_set_parent_0x00515B50_attach_refuses_self_and_cycles_and_moves_an_old_child():
    w = B.world({SETUP: B.setup(SETUP, parts=2)})
    a, b, c = (w.create_object(i, SETUP) for i in (1, 2, 3))
    assert w.attach_child(a, a, -1) is False and a.parent is None   # add_child: obj == this
    assert w.attach_child(b, a, 5) is False and b.parent is None    # part out of range
    assert w.attach_child(b, a, 1) is True
    assert w.attach_child(c, b, -1) is True
    with pytest.raises(ScenarioError, match="cycle"):
        w.attach_child(a, c, -1)
    assert a.parent is None
    assert w.attach_child(c, a, 0) is True                          # unset_parent first
    assert [link.child for link in b.children] == []
    assert [link.child for link in a.children] == [b, c]


def test_a_snapshot_of_a_600_deep_chain_copies_the_links_and_continues_alike():
    """World.snapshot (scrubbing, the window's playback) copies a 600-deep chain without
    recursing through it; the copy is linked like the original and runs the same."""
    n = 600
    objects = [_obj(1, setup=f"0x{MOVER:08X}", position=[0, 0, 10], velocity=[1, 0, 0])]
    objects += [_obj(k, parent=k - 1, parent_part=1) for k in range(2, n + 2)]
    runner = ScenarioRunner(Scenario.from_json(_scenario(objects, seconds=0.3)), _db())
    runner.run(0.1)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)
    try:
        copy = runner.snapshot()
    finally:
        sys.setrecursionlimit(limit)
    w, c = runner.world, copy.world
    assert c.objects[300].parent is c.objects[299] and c.objects[300] is not w.objects[300]
    assert [link.child for link in c.objects[299].children] == [c.objects[300]]
    runner.run()
    copy.run()
    assert [o.frame.origin for o in c.objects.values()] == [
        o.frame.origin for o in w.objects.values()]
    assert w.objects[n + 1].frame.origin[0] > 600.0   # the root moved; the chain followed
