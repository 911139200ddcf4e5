"""PhysicsScript hook order: the CRT qsort port against qsort_order (issue 26 class 1).

PhysicsScript::UnPack 0x005218B0 sorts its hooks with the C runtime's qsort and
PhysicsScriptData::Sort 0x00521600, which never returns 0; the port of that qsort is
quadratic on runs of equal start times. ``crt_qsort.qsort_order`` gives the same permutation
in O(n log n). Prints seconds for each (the port only where it ends in reasonable time) and
whether the two orders agree. Figures only, no assertions.

Run: .venv/bin/python bench/hook_order.py [N ...]   (default 1000 4000 16384 65536)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viewer.dat.records.crt_qsort import msvc70_qsort, qsort_order  # noqa: E402

PORT_MAX = 4000          # the port takes ~n^2 / 2 comparisons on equal keys


def port(keys) -> list[int]:
    items = list(range(len(keys)))
    msvc70_qsort(items, lambda a, b: 1 if keys[a] >= keys[b] else -1)
    return items


def main(sizes) -> None:
    rng = random.Random(26)
    print(f"{'keys':<14} {'n':>7} {'qsort_order s':>14} {'port s':>10}  same")
    for n in sizes:
        cases = {"all equal": [0.0] * n,
                 "two values": [float(rng.randrange(2)) for _ in range(n)],
                 "n/8 values": [float(rng.randrange(max(1, n // 8))) for _ in range(n)],
                 "distinct": [rng.random() for _ in range(n)]}
        for name, keys in cases.items():
            t0 = time.perf_counter()
            fast = qsort_order(keys)
            t1 = time.perf_counter()
            if n <= PORT_MAX or name == "distinct":
                slow = port(keys)
                t2 = time.perf_counter()
                ported, same = f"{t2 - t1:10.3f}", "yes" if slow == fast else "NO"
            else:
                ported, same = f"{'-':>10}", "-"
            print(f"{name:<14} {n:>7} {t1 - t0:14.3f} {ported}  {same}", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1000, 4000, 16384, 65536])
