"""glTF export (issue 29 item 4): seconds and bytes of ``vfxviewer export`` on the synthetic
library, measured in process (``viewer.commands.export.export_glb``: simulation, meshes,
textures, the GLB in memory; not the interpreter's start-up or the file write).

Cases: the humanoid walking (``--motion WalkForward``) for 5 s at 30 and at 60 fps and for
60 s at 30 fps, the lantern swinging (``--animation``), and the 60-part texture gallery
(every pixel format, no animation). Each case is run ``--repeat`` times on a fresh database
(the first run includes decoding the records); the median and the best are printed, and the
peak resident memory of the whole process at the end. Last, the largest export the bounds
allow (``--fps 240 --seconds 300``: 72,001 keys per channel) of the walking humanoid, as a
child process running the command line: its wall time, peak memory and file size.

Run: ``.venv/bin/python bench/export.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer import synthetic as S
from viewer.commands.export import export_glb
from viewer.dat.database import AssetDatabase

CASES = [
    ("humanoid walk 5 s @30", S.SETUP_HUMANOID, {"motion": S.MOTION_WALK_FORWARD,
                                                  "fps": 30, "seconds": 5}),
    ("humanoid walk 5 s @60", S.SETUP_HUMANOID, {"motion": S.MOTION_WALK_FORWARD,
                                                  "fps": 60, "seconds": 5}),
    ("humanoid walk 60 s @30", S.SETUP_HUMANOID, {"motion": S.MOTION_WALK_FORWARD,
                                                   "fps": 30, "seconds": 60}),
    ("lantern animation 5 s @30", S.SETUP_LANTERN, {"animation": S.ANIM_LANTERN_SWING,
                                                     "fps": 30, "seconds": 5}),
    ("texture gallery, no animation", S.SETUP_TEXTURE_GALLERY, {}),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"{'case':32} {'median s':>9} {'best s':>8} {'GLB bytes':>10}")
    for name, setup, kw in CASES:
        runs = []
        size = 0
        for _ in range(args.repeat):
            with AssetDatabase([S.SYNTHETIC_DAT]) as db:
                t0 = time.perf_counter()
                size = len(export_glb(db, setup, **kw))
                runs.append(time.perf_counter() - t0)
        print(f"{name:32} {statistics.median(runs):9.3f} {min(runs):8.3f} {size:10,d}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the process: {peak:.0f} MiB")
    bound()


def bound() -> None:
    """The bounds' largest export in a child process (its own peak memory)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bound.glb"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "viewer", "export", str(S.SYNTHETIC_DAT),
                        "--setup", f"0x{S.SETUP_HUMANOID:08X}", "--motion", "WalkForward",
                        "--fps", "240", "--seconds", "300", "--out", str(out)], check=True)
        wall = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"bounds' largest (humanoid walk 300 s @240, 72,001 keys x 11 parts): "
              f"{wall:.2f} s, peak {peak:.0f} MiB, {out.stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
