"""Hostile media (issue 26, classes 4 and 7): peak memory and seconds of each reproduction,
run as a child process (``tests/bounded.py``, no memory limit) so the figure is the
command's own.

* Waves whose header lies about their rate (1 Hz): ``render --out v.mp4`` of the default
  scenario with its first played Wave replaced (8-bit PCM of 2,400 bytes, 16-bit PCM,
  MS ADPCM, MP3), and a 16 MiB 8-bit Wave at 100 Hz (46 hours, inside the bounds).
* Reference media: ``compare --align audio`` against one 16x16 frame with two hours of
  silent 8 kHz AAC; ``compare`` against three 8192x8192 frames and six 8000x8000 PNGs; the
  viewer's Compare panel loading the 8192x8192 video and showing its frames.

Run: ``.venv/bin/python bench/hostile_media.py [--only NAME]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import hostile_media as H  # noqa: E402
from tests.bounded import MiB, run_bounded  # noqa: E402
from viewer import synthetic as S  # noqa: E402

SCENE = ["--scenario", str(S.DEFAULT_SCENARIO), "--seconds", "1", "--size", "64x64"]


def cases(tmp: Path):
    for form in ("pcm8", "pcm16", "adpcm", "mp3"):
        yield (f"wave-{form}-1Hz", lambda f=form: [
            "render", H.lying_wave_dat(tmp / f"{f}.dat", f), *SCENE, "--out", tmp / "v.mp4"])
    yield ("wave-pcm8-100Hz-16MB", lambda: [
        "render", H.lying_wave_dat(tmp / "long.dat", "pcm8", 100, size=1 << 24), *SCENE,
        "--out", tmp / "v.mp4"])
    yield ("ref-2h-silent-aac", lambda: [
        "compare", S.SYNTHETIC_DAT, *SCENE, "--align", "audio", "--reference",
        H.silent_aac_video(tmp / "aac.mp4", 7200.0)])
    yield ("ref-3x8192-video", lambda: [
        "compare", S.SYNTHETIC_DAT, *SCENE, "--reference", H.huge_frame_video(tmp / "big.mp4")])
    yield ("ref-6x8000-png", lambda: [
        "compare", S.SYNTHETIC_DAT, *SCENE, "--reference", H.huge_png_folder(tmp / "pngs")])
    yield ("gui-load-3x8192", lambda: (GUI_LOAD, H.huge_frame_video(tmp / "big.mp4")))


#: the viewer's Compare panel loading a recording and showing its frames (a child process)
GUI_LOAD = ("import sys\n"
            "from viewer.ui.compare_panel import CompareModel\n"
            "m = CompareModel()\n"
            "m.load(sys.argv[1])\n"
            "for t in (0, 1, 2, 0, 1, 2):\n"
            "    m.reference_at(float(t), (64, 64))\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="run the cases whose name contains this")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for name, argv in cases(tmp):
            if args.only and args.only not in name:
                continue
            a = argv()
            code = None
            if isinstance(a, tuple):        # (code, argument): a snippet, not the CLI
                code, a = a[0], list(a[1:])
            t0 = time.perf_counter()
            r = run_bounded(a, timeout=600, code=code)
            dt = time.perf_counter() - t0
            last = (r.err_lines or [""])[-1][:110]
            print(f"{name:<20} rc {r.rc:>3}  {dt:7.2f} s  peak {r.maxrss / MiB:7.0f} MiB  "
                  f"{last}", flush=True)


if __name__ == "__main__":
    main()
