"""The transition's broad phase (viewer/sim/collision.py _BroadPhase, ObjectShapeIndex):
skipping object shapes whose box the mover's sphere misses changes nothing, so a trace with
it is byte-identical to one that tests every shape (CLandCell::find_collisions 0x00532D60
order), impacts included, and a copied world (snapshot) continues the same way."""

from __future__ import annotations

import json

import pytest

from viewer import synthetic as S
from viewer.commands.trace import trace_lines
from viewer.dat.database import AssetDatabase
from viewer.sim import collision as co
from viewer.sim.scenario import Scenario, ScenarioRunner


def crowd() -> dict:
    """Twelve standing humanoids and posts (cylinder spheres) and twelve arrows shot at them
    and between them from all sides, over a ground plane, a box and a world sphere."""
    objects, events = [], []
    for k in range(12):
        x, y = 1.2 * (k % 4), 1.2 * (k // 4)
        setup = S.SETUP_HUMANOID if k % 2 else 0x02000104
        objects.append({"id": k + 1, "setup": f"0x{setup:08X}", "position": [x, y, 0.0],
                        "state": "0x00000408"})
    for k in range(12):
        oid = 100 + k
        side = k % 4
        start = ([-3.0, 0.6 * k, 1.0], [7.0, 0.4 * k, 1.2], [0.5 * k, -3.0, 0.8],
                 [0.4 * k, 6.0, 1.5])[side]
        target = [1.2 * (k % 4) + 0.05 * k, 1.2 * ((k // 4) % 3), 1.0]
        events.append({"t": 0.05 * k, "object": oid,
                       "create": {"setup": f"0x{S.SETUP_ARROW:08X}", "position": start,
                                  "state": "0x00400C08"}})
        events.append({"t": 0.05 * k, "object": oid,
                       "launch": {"target": target, "speed": 12.0 + k}})
    return {"dat": [str(S.SYNTHETIC_DAT)], "seed": 3, "fps": 30, "seconds": 2.0,
            "objects": objects, "events": events,
            "world": [{"plane": {"normal": [0, 0, 1], "d": 0}},
                      {"box": {"min": [5.5, -1, 0], "max": [5.7, 3, 2]}},
                      {"sphere": {"center": [2.0, 4.5, 1.0], "radius": 0.4}}]}


def _trace(monkeypatch, min_objects: int) -> list[str]:
    monkeypatch.setattr(co._BroadPhase, "MIN_OBJECTS", min_objects)
    lines: list[str] = []
    with AssetDatabase(str(S.SYNTHETIC_DAT)) as db:
        trace_lines(Scenario.from_json(crowd()), db, poses=True, out=lines.append)
    return lines


def test_the_broad_phase_gives_the_byte_identical_trace_and_impact_order(monkeypatch):
    every = _trace(monkeypatch, 10**9)       # no broad phase: every shape tested
    broad = _trace(monkeypatch, 1)           # broad phase from the first object shape
    assert broad == every
    impacts = [json.loads(ln) for ln in broad if '"impact"' in ln]
    assert any(isinstance(i["other"], int) for i in impacts), "no object was hit"
    assert any(isinstance(i["other"], str) for i in impacts), "no world shape was hit"


def test_a_snapshot_taken_midway_continues_as_the_original(monkeypatch):
    monkeypatch.setattr(co._BroadPhase, "MIN_OBJECTS", 1)
    with AssetDatabase(str(S.SYNTHETIC_DAT)) as db:
        runner = ScenarioRunner(Scenario.from_json(crowd()), db)
        runner.run(0.6)
        copy = runner.snapshot()       # a deep copy: the shape index starts afresh
        seen: dict[str, list] = {}
        for name, r in (("original", runner), ("copy", copy)):
            r.world.listeners[:] = []
            seen[name] = []
            r.world.listeners.append(seen[name].append)
            r.run()
    assert seen["original"] == seen["copy"]
    assert any(e["event"] == "impact" for e in seen["copy"])


@pytest.mark.parametrize("nan_at", ["mover", "target"])
def test_a_nan_position_is_skipped_by_both_phases_alike(nan_at):
    """A NaN box never overlaps, and the narrow test of a NaN distance never collides."""
    import numpy as np

    from viewer.sim import physics as ph
    from viewer.sim.frame import Frame
    desc = co.ObjectDesc(7)
    shapes = [co.SphereShape((float(k), 0.0, 1.0), 0.5, desc, -1) for k in range(10)]
    if nan_at == "target":
        shapes[3] = co.SphereShape((float("nan"), 0.0, 1.0), 0.5, desc, -1)
    x = float("nan") if nan_at == "mover" else 3.0
    body = ph.PhysicsBody(frame=Frame((x, 0.0, 1.0)), spheres=(((0.0, 0.0, 0.0), 0.1),))
    results = []
    for boxes in (None, np.array([s.aabb for s in shapes])):
        tr = co.CTransition(body, body.frame, body.frame, shapes, object_boxes=boxes)
        results.append((tr.find_collisions(), tr._broad is not None))
    assert results[0][0] == results[1][0] and results[1][1]
