"""A deep parent chain is set up in linear work (issue 26: a 10,000-deep chain took 11 s
against 2.7 s for 10,000 unparented objects).

Two walks were quadratic: the scenario's parent check walked every object's chain to its
root, and ``World.attach_child`` (CPhysicsObj::set_parent 0x00515B50) walked up from the
parent looking for the child on every attach. Parents come before their children, so the
check is one pass; a child without children cannot be above its parent, so the attach walk
is needed only for an object that already has children. Counted in ``parent`` reads, not
timed (bench/parent_chain.py prints the seconds).
"""

from __future__ import annotations

import pytest

from viewer.errors import ScenarioError
from viewer.sim.scenario import ScenarioObject, _check_parents
from viewer.sim.world import World

READS = [0]


class CountsParent:
    """``parent`` with its reads counted in READS."""

    @property
    def parent(self):
        READS[0] += 1
        return self._parent

    @parent.setter
    def parent(self, value):
        self._parent = value


class CountedObject(CountsParent, ScenarioObject):
    """A scenario object that counts reads of ``parent``."""


def _check_reads(n: int) -> int:
    objects = [CountedObject(k + 1, 0x02000103) for k in range(n)]
    for k, o in enumerate(objects[1:], start=1):
        o.parent = k
    READS[0] = 0
    _check_parents(objects, "s.json")
    return READS[0]


def test_parent_check_is_linear_in_a_chain():
    small, large = _check_reads(500), _check_reads(4000)
    assert large <= 8 * small * 1.1, (small, large)   # 8x the objects: 8x the reads


def test_parent_check_still_words_a_cycle():
    objects = [ScenarioObject(1, 0x02000103, parent=2), ScenarioObject(2, 0x02000103, parent=1)]
    with pytest.raises(ScenarioError, match=r"objects\[0\]\.parent: parent cycle 1 -> 2 -> 1"):
        _check_parents(objects, "s.json")


class Node(CountsParent):
    """What attach_child reads of an object, ``parent`` reads counted."""

    def __init__(self, oid: int) -> None:
        self.id, self.children, self.parts, self.state = oid, [], [], 0
        self.num_parts = 1
        self._parent = None


class Stub:
    """A World without its runtime: attach_child's own walk only."""

    def _update_child(self, obj, link) -> None:
        pass


def _attach_reads(n: int) -> int:
    nodes = [Node(k) for k in range(n)]
    READS[0] = 0
    for parent, child in zip(nodes, nodes[1:]):  # top down, as a scenario attaches
        assert World.attach_child(Stub(), child, parent, -1)
    return READS[0]


def test_attach_child_top_down_is_linear_in_a_chain():
    """set_parent 0x00515B50: the cycle walk only runs for a child that has children."""
    small, large = _attach_reads(500), _attach_reads(4000)
    assert large <= 8 * small * 1.1, (small, large)


def test_attach_child_still_refuses_a_descendant_as_parent():
    a, b, c = Node(1), Node(2), Node(3)
    assert World.attach_child(Stub(), b, a, -1) and World.attach_child(Stub(), c, b, -1)
    with pytest.raises(ScenarioError, match="its own descendant"):
        World.attach_child(Stub(), a, c, -1)
