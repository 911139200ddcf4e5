"""The real viewer window playing a scenario (the stress scene by default): frame times as
the user sees them, with the window's own loop (real-time steps: a slow frame advances the
simulation by several frames), presenting and input handling. Needs a display: on a machine
without one run it under Xvfb. Prints figures only.

Run: ``xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python bench/viewer_window.py
[--scenario FILE] [--frames N] [--size WxH]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WARMUP = 60   # frames left out: opening, the numba kernels' load, the first births


def main(argv=None) -> int:
    from viewer.synthetic import STRESS_SCENARIO
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default=str(STRESS_SCENARIO))
    ap.add_argument("--frames", type=int, default=200, help="frames timed after the warm-up")
    ap.add_argument("--size", default="1280x720")
    args = ap.parse_args(argv)

    import viewer.app as app_module
    from viewer.cli import main as cli_main
    stamps: list[float] = []
    real = app_module.ViewerApp.frame

    def frame(self, *a, **k):
        stamps.append(time.perf_counter())
        return real(self, *a, **k)

    app_module.ViewerApp.frame = frame
    total = WARMUP + args.frames
    with tempfile.TemporaryDirectory() as tmp:
        rc = cli_main(["open", "--scenario", args.scenario, "--size", args.size,
                       "--screenshot", str(Path(tmp) / "last.png"),
                       "--screenshot-after", str(total)])
    if rc or len(stamps) <= WARMUP + 1:
        print(f"the window did not run ({rc})")
        return 1
    ms = np.diff(np.array(stamps[WARMUP:])) * 1000
    print(f"window {args.size}, {Path(args.scenario).name}, frames {WARMUP}..{len(stamps)}: "
          f"median {np.median(ms):.1f} ms ({1000 / np.median(ms):.1f} fps), "
          f"p90 {np.percentile(ms, 90):.1f} ms, slowest {ms.max():.0f} ms, "
          f"{int((ms > 150).sum())} frames over 150 ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
