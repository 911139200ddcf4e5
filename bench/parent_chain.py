"""Setting up a deep parent chain against as many unparented objects (issue 26).

Prints, for each size, the seconds to read the scenario (the parent checks) and to run its
first frame (objects created, then attached top down: CPhysicsObj::set_parent 0x00515B50),
for a chain (object k's parent is object k - 1) and for the same objects unparented. Both
should grow linearly with the count. Figures only, no assertions.

Run: .venv/bin/python bench/parent_chain.py [N ...]   (default 2500 5000 10000)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viewer.dat.database import AssetDatabase  # noqa: E402
from viewer.sim.scenario import Scenario, ScenarioRunner  # noqa: E402
from viewer.synthetic import SETUP_HUMANOID, SYNTHETIC_DAT  # noqa: E402


def setup_seconds(n: int, chain: bool) -> tuple[float, float]:
    objects = [{"id": k + 1, "setup": f"0x{SETUP_HUMANOID:08X}",
                **({"parent": k} if chain and k else {})} for k in range(n)]
    t0 = time.perf_counter()
    sc = Scenario.from_json({"dat": [str(SYNTHETIC_DAT)], "seconds": 0.0, "objects": objects})
    t1 = time.perf_counter()
    with AssetDatabase([str(SYNTHETIC_DAT)]) as db:
        ScenarioRunner(sc, db).step_frame()
    return t1 - t0, time.perf_counter() - t1


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [2500, 5000, 10000]
    setup_seconds(100, True)  # warm up: imports, the particle kernels
    for n in sizes:
        for chain in (False, True):
            read, first = setup_seconds(n, chain)
            print(f"{'chain' if chain else 'flat '} {n:6d} objects: read {read:6.2f} s, "
                  f"first frame {first:6.2f} s ({first / n * 1e3:.2f} ms per object)")


if __name__ == "__main__":
    main()
