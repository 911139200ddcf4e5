"""The whole viewer frame (``ViewerApp.frame``: tick, 3D view, comparison, panels, ImGui
draw), headless on EGL, at 1280x720: main-thread CPU (``time.thread_time``: what the UI
waits on) and wall time per frame (llvmpipe's rasteriser threads and the MAD / SSIM
worker add to the wall only). Prints figures only.

1. The default scenario playing, comparison off and each comparison view (a 30-frame
   1280x720 recording), with each view's ratio to "off".
2. The default scenario paused with a particle selected (and with an emitter selected, its
   velocity lines and bounds on) against playing.
3. Where the wall time goes: the same frame with the 3D view drawn at 1x1 (no scene
   rasterisation; the panels unchanged), with the panels built but ImGui's draw data not
   rasterised, and the scene renderer alone at 1280x720 and 1x1.
4. ``--stress``: ``assets_synthetic/stress.scenario.json`` (500 emitters, 100k+ live):
   time to open, frames playing and paused, and the 3D view at 1x1; then the particle
   draw alone: one stress frame redrawn by the scene renderer (the prepared rows reused,
   so what is left is the draw: llvmpipe's vertex shading runs on the main thread), median
   and fastest of the repeats, at 1x1 and 1280x720; then one whole loop played from a fresh
   open: the first frame, the restart frame, the snapshot frames and the rest's spread.

Run: ``.venv/bin/python bench/viewer_frame.py [--frames N] [--stress]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from gui_compare import recording  # noqa: E402 - the bench folder's own helper

SIZE = (1280, 720)


def per_frame(app, target, n: int, dt: float = 1 / 30) -> tuple[float, float, float]:
    """(main-thread CPU ms, wall ms, other threads' CPU ms) per frame over ``n`` frames;
    the other threads are llvmpipe's rasteriser and the viewer's workers."""
    ctx = app.ctx
    ctx.finish()
    c0, w0, p0 = time.thread_time(), time.perf_counter(), time.process_time()
    for _ in range(n):
        app.frame(dt, SIZE, target.fbo)
    ctx.finish()
    main = time.thread_time() - c0
    return (1000 * main / n, 1000 * (time.perf_counter() - w0) / n,
            1000 * (time.process_time() - p0 - main) / n)


@contextmanager
def tiny_view(app):
    """The 3D view drawn at 1x1 (no scene rasterisation), the panels as they are."""
    view = app.scene_view
    real = view.resize

    def resize():
        view.want_viewport = (1, 1)
        real()
    view.resize = resize
    try:
        yield
    finally:
        view.resize = real


@contextmanager
def no_ui_draw(app):
    """The panels built as usual but ImGui's draw data not rasterised."""
    real = app.renderer.render
    app.renderer.render = lambda *args, **kwargs: None
    try:
        yield
    finally:
        app.renderer.render = real


def line(label: str, cpu: float, wall: float, other: float | None = None,
         base: tuple | None = None) -> None:
    ratio = "" if base is None else f"  ({cpu / base[0]:4.2f}x CPU, {wall / base[1]:4.2f}x wall)"
    others = "" if other is None else f" {other:7.1f} ms other threads' CPU"
    print(f"  {label:48s} {cpu:6.1f} ms main-thread CPU {wall:7.1f} ms wall{others}{ratio}",
          flush=True)


def open_app(ctx, scenario: str):
    from viewer.app import ViewerApp
    from viewer.render.framebuffer import OffscreenTarget
    from viewer.ui.session import open_session
    t0 = time.perf_counter()
    s = open_session(None, scenario)
    opened = time.perf_counter() - t0
    s.playback.play()
    app = ViewerApp(ctx, display_size=SIZE, session=s)
    target = OffscreenTarget(ctx, SIZE)
    return app, target, opened


def bench_default(ctx, frames: int, rec: Path) -> None:
    from viewer.sim.inspect import live_emitters
    from viewer.synthetic import DEFAULT_SCENARIO
    from viewer.ui import commands as c
    from viewer.ui.compare_panel import MODES
    app, target, _ = open_app(ctx, str(DEFAULT_SCENARIO))
    s = app.session
    print(f"viewer frame {SIZE[0]}x{SIZE[1]}, default scenario ({ctx.info['GL_RENDERER']}), "
          f"{frames} frames each:")
    try:
        s.playback.loop = True
        per_frame(app, target, 6)   # layout, shaders, the first frames' births
        s.playback.explore(10**6)
        app.controller.apply(c.LoadReference(str(rec), 30.0))
        base = None
        for mode in MODES:
            app.controller.apply(c.SetCompareMode(mode))
            per_frame(app, target, 3)
            cpu, wall, other = per_frame(app, target, frames)
            line(f"playing, comparison {mode}", cpu, wall, other, base)
            base = base or (cpu, wall)
        app.controller.apply(c.SetCompareMode("off"))
        with tiny_view(app):
            per_frame(app, target, 2)
            line("playing, comparison off, 3D view 1x1", *per_frame(app, target, frames),
                 base=base)
        with no_ui_draw(app):
            line("playing, comparison off, panels not drawn", *per_frame(app, target, frames),
                 base=base)
        app.controller.apply(c.Pause())
        ems = live_emitters(s.world, with_particles=True)
        em = max(ems, key=lambda e: e.alive)
        app.controller.apply(c.Select("particle", (em.handle, em.particles[0].slot)))
        per_frame(app, target, 2)
        line("paused, a particle selected", *per_frame(app, target, frames), base=base)
        app.controller.apply(c.Select("emitter", em.handle))
        app.overlays["show_velocities"] = app.overlays["show_particle_bounds"] = True
        per_frame(app, target, 2)
        line("paused, an emitter selected, velocities, bounds",
             *per_frame(app, target, frames), base=base)
    finally:
        app.release()
        target.release()


def bench_renderer(ctx, frames: int) -> None:
    """The scene renderer alone on the default scenario's frames: 1280x720 against 1x1."""
    from viewer.commands.render import default_scenario_frames
    from viewer.render.framebuffer import OffscreenTarget
    _, renderer, scenes, cam = default_scenario_frames(ctx, frames)
    print(f"scene renderer alone, default scenario, {len(scenes)} frames:")
    for size in (SIZE, (1, 1)):
        target = OffscreenTarget(ctx, size)
        renderer.render(scenes[0], cam, target)
        ctx.finish()
        c0, w0, p0 = time.thread_time(), time.perf_counter(), time.process_time()
        for sc in scenes:
            renderer.render(sc, cam, target)
        ctx.finish()
        n = len(scenes)
        main = time.thread_time() - c0
        line(f"render {size[0]}x{size[1]}", 1000 * main / n,
             1000 * (time.perf_counter() - w0) / n,
             1000 * (time.process_time() - p0 - main) / n)
        target.release()
    renderer.release()


def bench_stress(ctx, frames: int) -> None:
    from viewer.sim.inspect import live_emitters
    from viewer.synthetic import STRESS_SCENARIO
    from viewer.ui import commands as c
    app, target, opened = open_app(ctx, str(STRESS_SCENARIO))
    s = app.session
    print(f"stress scenario {SIZE[0]}x{SIZE[1]}: opened in {opened:.1f} s", flush=True)
    try:
        per_frame(app, target, 3)   # the 100k births
        cpu, wall, other = per_frame(app, target, frames)
        pool = s.world.pool
        line(f"playing ({pool.live_count} live, {pool.emitter_count} emitters)", cpu, wall,
             other)
        base = (cpu, wall)
        with tiny_view(app):
            per_frame(app, target, 1)
            line("playing, 3D view 1x1", *per_frame(app, target, frames), base=base)
        app.controller.apply(c.Pause())
        bench_stress_draw(app, ctx, max(5, frames))
        em = max(live_emitters(s.world, with_particles=True), key=lambda e: e.alive)
        app.controller.apply(c.Select("particle", (em.handle, em.particles[0].slot)))
        per_frame(app, target, 2)
        line("paused, a particle selected (exploring)", *per_frame(app, target, frames),
             base=base)
    finally:
        app.release()
        target.release()


def bench_stress_loop(ctx) -> None:
    """A fresh stress viewer playing one whole loop and into the next at 30 fps steps: the
    first frame (the 100k births), the loop's restart frame, the frames that take a
    snapshot, and the spread of the rest (stalls are what makes playing feel stuck)."""
    import numpy as np

    from viewer.synthetic import STRESS_SCENARIO
    app, target, opened = open_app(ctx, str(STRESS_SCENARIO))
    pb = app.session.playback
    pb.loop = True
    walls, frames = [], []
    try:
        for _ in range(pb.total_frames + 20):
            w0 = time.perf_counter()
            app.frame(1 / 30, SIZE, target.fbo)
            ctx.finish()
            walls.append(1000 * (time.perf_counter() - w0))
            frames.append(pb.frame)
    finally:
        app.release()
        target.release()
    walls = np.array(walls)
    restart = next(i for i in range(1, len(frames)) if frames[i] < frames[i - 1])
    snaps = [i for i in range(1, restart) if frames[i] % pb.snapshot_every == 0]
    rest = np.delete(walls, [0, restart, restart + 1, *snaps])
    print(f"one loop played ({pb.total_frames} frames, snapshots every {pb.snapshot_every}): "
          f"first frame {walls[0]:.0f} ms, loop restart {walls[restart]:.0f} ms (frame 0 "
          f"restored) + {walls[restart + 1]:.0f} ms (its births), "
          f"snapshot frames {', '.join(f'{walls[i]:.0f}' for i in snaps)} ms; the other "
          f"frames median {np.median(rest):.1f} ms, p90 {np.percentile(rest, 90):.1f}, "
          f"slowest {rest.max():.0f}, {int((rest > 150).sum())} over 150 ms", flush=True)


def bench_stress_draw(app, ctx, reps: int) -> None:
    """The paused stress frame drawn again and again by the scene renderer (its prepared
    instance rows reused): the particle draw's own main-thread cost."""
    import statistics

    from viewer.render.framebuffer import OffscreenTarget
    from viewer.render.world_adapter import build_scene_input
    s = app.session
    renderer = app.scene_view.scene_renderer_for(s)
    camera = app.controller.view.camera
    scene = build_scene_input(s.world, gpu_particles=renderer.gpu_particles)
    for size in ((1, 1), SIZE):
        target = OffscreenTarget(ctx, size)
        info = renderer.render(scene, camera, target)
        ctx.finish()
        cpu, wall = [], []
        for _ in range(reps):
            c0, w0 = time.thread_time(), time.perf_counter()
            renderer.render(scene, camera, target)
            ctx.finish()
            cpu.append(1000 * (time.thread_time() - c0))
            wall.append(1000 * (time.perf_counter() - w0))
        print(f"  the frame redrawn, {size[0]}x{size[1]} ({info['particles_drawn']} particles, "
              f"{info['particle_draws']} particle draws): main-thread CPU median "
              f"{statistics.median(cpu):.1f} ms (fastest {min(cpu):.1f}), wall median "
              f"{statistics.median(wall):.1f} ms", flush=True)
        target.release()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=10, help="frames per figure")
    ap.add_argument("--stress", action="store_true", help="the stress scenario only")
    args = ap.parse_args(argv)
    import os

    from viewer.app import create_headless_context
    ctx = create_headless_context()
    print("load average (2 cores shared with other work): "
          + ", ".join(f"{v:.1f}" for v in os.getloadavg()))
    if args.stress:
        bench_stress(ctx, max(2, args.frames // 2))
        bench_stress_loop(ctx)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        rec = recording(Path(tmp))
        bench_default(ctx, args.frames, rec)
    bench_renderer(ctx, 30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
