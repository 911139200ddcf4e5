"""``vfxviewer audit`` time (issue 17): on the retail-shaped synthetic DAT (every check
runs to the end) and on a generated 100,000-record DAT (the raw CreateBlocking scan reads
every PhysicsScript and Animation, the Hidden / UnHide inventory decodes every table).

Run: ``.venv/bin/python bench/audit.py [--records N]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer.sim.audit import audit
from viewer.synthetic.retail_shaped import write_retail_shaped_dat


def _run(label: str, path: Path) -> None:
    t0 = time.perf_counter()
    checks = audit([path])
    dt = time.perf_counter() - t0
    n = {s: sum(1 for c in checks if c.status == s) for s in ("PASS", "FAIL", "MISSING")}
    print(f"{label:<28} {len(checks)} checks in {dt:6.2f} s  ({n['PASS']} pass, "
          f"{n['FAIL']} fail, {n['MISSING']} missing)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        shaped = Path(tmp) / "retail_shaped.dat"
        write_retail_shaped_dat(shaped)
        _run("retail-shaped DAT", shaped)
        big = Path(tmp) / "bench_portal.dat"
        subprocess.run([sys.executable, str(Path(__file__).parent / "dat_verify.py"),
                        "--records", str(args.records), "--write", str(big)], check=True)
        _run(f"generated {args.records:,}", big)
    return 0


if __name__ == "__main__":
    sys.exit(main())
