"""GUI comparison cost per viewer frame: the viewport composite (viewer.compare.views) and
the per-frame MAD / SSIM measure, at common viewport sizes; and the whole-viewer frame with a
comparison view on (EGL, llvmpipe here). Prints figures only.

Run: .venv/bin/python bench/gui_compare.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "ui"))

import ui_fixtures as F

from viewer.ui.compare_panel import MEASURE_WIDTH, MODES, CompareModel


def recording(folder: Path, size=(1280, 720), n=30) -> Path:
    rng = np.random.default_rng(0)
    for k in range(n):
        img = rng.integers(0, 255, (size[1], size[0], 3), np.uint8)
        Image.fromarray(img).save(folder / f"f{k:03d}.png")
    return folder


def per_call(fn, n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1000.0


def per_call_cpu(fn, n: int) -> tuple[float, float]:
    """(wall ms, main-thread CPU ms) per call: the UI waits on the second; helper threads
    (the figures worker, llvmpipe's) and other processes on this machine add to the first."""
    t0, c0 = time.perf_counter(), time.thread_time()
    for _ in range(n):
        fn()
    return ((time.perf_counter() - t0) / n * 1000.0, (time.thread_time() - c0) / n * 1000.0)


def bench_model(rec: Path) -> None:
    m = CompareModel()
    m.load(str(rec), 30.0)
    for w, h in ((640, 360), (1280, 720)):
        view = np.random.default_rng(1).integers(0, 255, (h, w, 4), np.uint8)
        for mode in MODES[1:]:
            m.set_mode(mode)
            ms = per_call(lambda view=view: m.compose(view, 0.1, 3), 10)
            print(f"composite {mode:13s} {w}x{h}: {ms:7.2f} ms")
        k = [w * 1000]     # fresh frame numbers: nothing cached

        def measure(k=k, view=view):
            k[0] += 1
            m.measure(k[0], 0.1, view)
        print(f"measure MAD+SSIM      {w}x{h}: {per_call(measure, 10):7.2f} ms "
              f"(at {min(w, MEASURE_WIDTH)} px wide)")


def bench_app(rec: Path) -> None:
    from viewer.app import ViewerApp, create_headless_context
    from viewer.render.framebuffer import OffscreenTarget
    from viewer.sim.scenario import Scenario
    from viewer.ui import commands as c
    from viewer.ui.session import Session
    ctx = create_headless_context()
    size = (1280, 720)
    s = Session(F.database(), Scenario.from_json(F.scenario_json(seconds=4.0)))
    app = ViewerApp(ctx, display_size=size, session=s)
    target = OffscreenTarget(ctx, size)
    try:
        for mode in ("off", "side_by_side", "difference"):
            app.controller.apply_all([c.LoadReference(str(rec), 30.0), c.SetCompareMode(mode)])
            for _ in range(3):
                app.frame(1 / 60, size, target.fbo)
            app.controller.apply(c.Play())
            ms, cpu = per_call_cpu(lambda: app.frame(1 / 30, size, target.fbo), 20)
            app.controller.apply(c.Restart())
            print(f"viewer frame {size[0]}x{size[1]} playing, comparison {mode:12s}: {ms:7.1f} ms"
                  f" ({cpu:6.1f} ms main-thread CPU)")
        n = 31
        t0 = time.perf_counter()
        app.controller.apply(c.ExportCapture(str(Path(tempfile.mkdtemp()) / "a.mp4"), 0.0, 1.0))
        app.frame(1 / 60, size, target.fbo)
        print(f"export MP4 of {n} frames at the viewport size: "
              f"{(time.perf_counter() - t0) * 1000 / n:7.1f} ms/frame")
    finally:
        app.release()
        target.release()
        ctx.release()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        rec = recording(Path(tmp))
        bench_model(rec)
        bench_app(rec)
