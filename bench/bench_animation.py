"""Animation throughput: MotionController.advance + part-pose composition per object tick.

Prints figures only (no assertions). Run: .venv/bin/python bench/bench_animation.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "sim" / "animation"))

from anim_builders import HUMANOID, PARTS, humanoid_records

from viewer.sim.animation.controller import MotionController
from viewer.sim.frame import Frame
from viewer.sim.poses import compose

TICK = 1.0 / 30.0


def bench(n_objects: int, ticks: int, motion: str) -> None:
    db = humanoid_records()
    objs = [MotionController(db[HUMANOID], db) for _ in range(n_objects)]
    for mc in objs:
        mc.do_motion(motion)
    roots = [Frame() for _ in objs]
    poses = [None] * n_objects
    t0 = time.perf_counter()
    hooks = 0
    for _ in range(ticks):
        for i, mc in enumerate(objs):
            off, fired = mc.advance(TICK)
            hooks += len(fired)
            roots[i] = roots[i].combine(off)
            poses[i] = compose(roots[i], mc.part_frames(), PARTS, 1.0, poses[i])
    dt = time.perf_counter() - t0
    n = n_objects * ticks
    print(f"{motion:16s} objects={n_objects:4d} ticks={ticks:4d} parts={PARTS}: "
          f"{n / dt:10.0f} object-ticks/s  {dt / n * 1e6:7.1f} us/object-tick  "
          f"hooks={hooks}")


if __name__ == "__main__":
    bench(1, 3000, "WalkForward")
    bench(100, 300, "WalkForward")
    bench(100, 300, "LifestoneRecall")
