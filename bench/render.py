"""Render benchmarks: prints figures, asserts nothing.

1. Particle pass CPU time per frame (instance preparation + one buffer upload) at 1k, 10k
   and 100k live particles spread over 100 emitters and 4 particle GfxObjs.
2. Headless frames per second at 640x360 for the default scenario (when the simulation and
   the default scenario are available), else for a synthetic scene of the same shape
   (a textured Setup plus 2k particles).

Run: .venv/bin/python bench/render.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.render import scenes as S
from viewer.render.scene_input import ParticleArrays


def particle_scene(n: int, rng, emitters: int = 100) -> ParticleArrays:
    gfx = np.array([S.QUAD, S.QUAD_BB, S.BLEND_QUADS["additive"], S.BLEND_QUADS["alpha"]],
                   np.uint32)
    em = rng.integers(0, emitters, n).astype(np.int32)
    origins = rng.uniform(-30, 30, (emitters, 3))
    pos = origins[em] + rng.normal(0, 1.0, (n, 3))
    return ParticleArrays(pos, np.tile([1.0, 0, 0, 0], (n, 1)), rng.uniform(0.2, 1.5, n),
                          rng.uniform(0, 0.95, n), gfx[em % 4], em, origins)


def bench_particles(ctx) -> None:
    from viewer.render.particles import prepare
    from viewer.render.renderer import SceneRenderer
    r = SceneRenderer(ctx, S.build_db())
    rng = np.random.default_rng(0)
    eye = np.array([0.0, -40.0, 10.0])
    print("particle pass CPU per frame (prepare + upload):")
    for n in (1_000, 10_000, 100_000):
        arrays = particle_scene(n, rng)
        prepare(arrays, eye, r.meshes)  # warm the mesh cache
        reps = 20 if n < 100_000 else 8
        t0 = time.perf_counter()
        for _ in range(reps):
            prep = prepare(arrays, eye, r.meshes)
            r.particles.upload(prep)
        ctx.finish()
        dt = (time.perf_counter() - t0) / reps
        print(f"  {n:>7} particles: {dt * 1000:8.2f} ms/frame  "
              f"({len(prep.batches)} batches, {dt / n * 1e9:6.1f} ns/particle)")
    r.release()


def bench_fps(ctx) -> None:
    from viewer.render.camera import Camera
    from viewer.render.framebuffer import OffscreenTarget
    from viewer.render.renderer import SceneRenderer
    target = OffscreenTarget(ctx, (640, 360))
    frames = 30
    label, renderer, scenes, cam = None, None, None, None
    try:
        from viewer.commands.render import default_scenario_frames
        label, renderer, scenes, cam = default_scenario_frames(ctx, frames)
    except Exception as exc:  # noqa: BLE001 - any failure: fall back to the synthetic scene
        label = f"synthetic scene (default scenario unavailable: {type(exc).__name__}: {exc})"
        renderer = SceneRenderer(ctx, S.build_db())
        rng = np.random.default_rng(1)
        parts = particle_scene(2000, rng, emitters=10)
        scenes = [S.scene([S.mesh(S.CUBE)], particles=parts)] * frames
        cam = Camera(target=(0, 0, 0), distance=60.0)
    renderer.render(scenes[0], cam, target)
    ctx.finish()
    t0 = time.perf_counter()
    for sc in scenes:
        renderer.render(sc, cam, target)
        target.read_rgba()
    ctx.finish()
    dt = time.perf_counter() - t0
    print(f"headless 640x360, {label}: {len(scenes) / dt:.1f} frames/s "
          f"({dt / len(scenes) * 1000:.1f} ms/frame incl. readback)")
    renderer.release()
    target.release()
    try:
        from viewer.commands.render import build_parser_args, load_scenario, render_frames
        from viewer.synthetic import DEFAULT_SCENARIO
        args = build_parser_args(["--scenario", str(DEFAULT_SCENARIO), "--out", "x.png",
                                  "--size", "640x360", "--seconds", "5"])
        t0 = time.perf_counter()
        n = render_frames(load_scenario(args), args, ctx, lambda rgba: None)
        dt = time.perf_counter() - t0
        print(f"headless 640x360, default scenario end to end (simulate + snapshot + render + "
              f"readback, {n} frames): {n / dt:.1f} frames/s")
    except Exception as exc:  # noqa: BLE001 - report and carry on
        print(f"end-to-end default scenario unavailable: {type(exc).__name__}: {exc}")


def main() -> int:
    from viewer.render.context import headless_context
    ctx = headless_context()
    print(f"GL: {ctx.info['GL_RENDERER']}")
    bench_particles(ctx)
    bench_fps(ctx)
    ctx.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
