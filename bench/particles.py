"""Particle runtime speed: ticks per second and CPU time per tick.

Live particle counts 1k, 10k, 100k and 1M, spread over 10 and 1,000 emitters. Each
emitter keeps emitting (one birth per update, as retail) and its particles outlive the run,
so the live count stays at the target. Two figures per case:

* ``sim``: one object update tick (World.tick: per-emitter update, births, deaths);
* ``sim+eval``: the tick plus ``ParticlePool.evaluate()`` (every live particle's position,
  rotation, scale and translucency: what the renderer reads each frame).

The figure that matters is how the per-tick cost scales with the live count: the sim tick
should not grow with live particles (its work scales with emitters and births), only the
vectorised evaluate does. With 1,000 emitters the pool runs the compiled emitter update
(``viewer.sim.particle_kernel``; compiled or loaded from numba's cache before the figures);
``VIEWER_PARTICLE_KERNEL=0`` measures the Python reference path instead. The 1,000-emitter
cases have 100 owner objects, whose own update (frames, physics, hooks) is part of the tick.

``--pass``: the particle render pass instead, main-thread CPU (``time.thread_time``) and wall
time per frame at 10 emitters with 10k / 100k / 1M live, CPU path (``ParticlePool.evaluate``
+ arrays + ``particles.prepare`` + one upload) against the GPU path (``particle_snapshot``:
the changed slots only, + ``GpuParticlePass.prepare``: evaluate, sort, gather on the GPU).

``--stress``: ``assets_synthetic/stress.scenario.json`` (500 emitters, 100k+ live) at 1280x720,
sim tick and scene + render per frame, CPU path against GPU path.

``--snapshot``: CPU time of one ``ScenarioRunner.snapshot()`` (what Playback stores every
15 frames) on the default scenario and on the stress scenario, 20 frames in.

``--cpu-frame``: the CPU particle frame on the stress pool (100k live), numpy reference
against the compiled kernels (``particle_eval_kernel``, ``particle_prepare_kernel``):
``ParticlePool.evaluate``, the renderer's ParticleArrays, ``particles.prepare``.

Run: ``.venv/bin/python bench/particles.py [--quick] [--pass | --stress | --snapshot |
--cpu-frame]``
"""

from __future__ import annotations

import argparse
import gc
import heapq
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer.dat.records.animation import AnimationFrame
from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.common import SetupFlags, Sphere
from viewer.dat.records.particle_emitter import ParticleEmitterInfo
from viewer.dat.records.setup import Setup
from viewer.sim.frame import Frame
from viewer.sim.particles import KERNEL_MIN_EMITTERS
from viewer.sim.world import World

GFX = 0x01000001


class DB:
    def __init__(self, records):
        self.records = records

    def get(self, did):
        if did == GFX:
            return type("G", (), {"did_degrade": None})()
        return self.records[did]


def _info(did, ptype, max_particles):
    return ParticleEmitterInfo(did, 0, 1, ptype, GFX, GFX, 0.0001, max_particles, 0, 0, 0.0,
                               1e6, 0.0, (0.0, 0.0, 1.0), 0.1, 0.5, (0.0, 1.0, 0.2), 1.0, 2.0,
                               (0.0, 0.0, -1.0), 1.0, 1.0, (0.0, 0.0, 1.0), 1.0, 1.0, 1.0,
                               0.5, 0.1, 0.0, 1.0, 0.1, False)


def _setup():
    return Setup(0x02000001, SetupFlags(0), (GFX,), None, None, (), (),
                 ((0x65, AnimationFrame((RFrame(),))),), (), (), 1.0, 1.0, 0.0, 0.0,
                 Sphere((0, 0, 0), 1.0), Sphere((0, 0, 0), 1.0), (), 0, 0, 0, 0, 0)


def _fill(world, em, n, t):
    """Give ``em`` n live particles at once (vectorised; bench setup only)."""
    from viewer.sim.particles import F_NEXT_DEATH, I_BASE, I_HINT
    pool = world.pool
    pool.reserve(n)
    idx = pool.free_stack[pool.free_n - n:pool.free_n][::-1].copy()
    pool.free_n -= n
    rng = np.random.default_rng(em.handle)
    pool.alive[idx] = True
    pool.emitter[idx] = em.row
    pool.slot[idx] = np.arange(n)
    pool.ptype[idx] = em.ptype
    pool.birth[idx] = t - rng.uniform(0, 1, n)
    pool.acc[idx] = 0.0
    pool.lifespan[idx] = 1e6
    pool.start_origin[idx] = em.parent_frame.origin
    pool.start_quat[idx] = em.parent_frame.orientation
    pool.offset[idx] = rng.normal(size=(n, 3))
    pool.a[idx] = rng.normal(size=(n, 3))
    pool.b[idx] = rng.normal(size=(n, 3))
    pool.c[idx] = rng.normal(size=(n, 3))
    pool.start_scale[idx] = 1.0
    pool.final_scale[idx] = 0.5
    pool.start_trans[idx] = 0.0
    pool.final_trans[idx] = 1.0
    pool.live_count += n
    pool.version += 1
    pool.dirty.mark_many(idx)
    em.slots[:n] = idx
    deaths = pool.birth[idx] + 1e6
    base = int(pool.ei[em.row, I_BASE])
    pool.slot_death[base:base + n] = deaths
    if pool.kernel:
        pool.ef[em.row, F_NEXT_DEATH] = deaths.min()
        pool.ei[em.row, I_HINT] = n
    else:
        em._free_slots = list(range(n, em.max_particles))
        em._deaths = list(zip(deaths.tolist(), range(n), idx.tolist()))
        heapq.heapify(em._deaths)
    em.num_particles = n
    em.total_emitted = n


def build_world(live, emitters, ticks):
    per = live // emitters
    records = {0x02000001: _setup()}
    for k, ptype in enumerate((2, 4)):  # half LocalVelocity, half ParabolicLVGAGR
        records[0x32000001 + k] = _info(0x32000001 + k, ptype, per + ticks + 4)
    world = World(DB(records), seed=1)
    owners = max(1, emitters // 10)
    objs = [world.create_object(i + 1, 0x02000001, position=(float(i), 0.0, 0.0))
            for i in range(owners)]
    for e in range(emitters):
        o = objs[e % owners]
        world.create_particle_emitter(o, 0x32000001 + (e % 2), -1, Frame(), 0)
    # a scene switches its pool to the compiled update (KERNEL "auto") at the first update
    # with that many emitters, long before they hold particles; the bench fills them
    # directly, so it switches before filling (else the first tick would pay for dropping
    # the Python path's per-particle heaps)
    if world.pool.auto_kernel and emitters >= KERNEL_MIN_EMITTERS:
        world.pool.use_kernel(True)
    for o in objs:
        for _, em in o.particle_manager.emitters():
            _fill(world, em, per, 0.0)
    # room for the run's births (one per emitter per tick): the pool doubling on the first
    # birth (a copy of every live row, on either update path) is setup, not a tick's cost
    world.pool.reserve(emitters * (ticks + 2))
    world.tick(Fraction(0))  # render pass: emitters visible from the first update
    return world


def run_case(live, emitters, ticks):
    world = build_world(live, emitters, ticks)
    # the earlier cases' worlds are garbage in reference cycles: collected here, not by a
    # full collection inside one of this case's timed ticks
    gc.collect()
    sim_cpu = sim_wall = eval_cpu = eval_wall = 0.0
    for frame in range(1, ticks + 1):
        c0, w0 = time.process_time(), time.perf_counter()
        world.tick(Fraction(frame, 30))
        c1, w1 = time.process_time(), time.perf_counter()
        world.pool.evaluate()
        c2, w2 = time.process_time(), time.perf_counter()
        sim_cpu += c1 - c0
        sim_wall += w1 - w0
        eval_cpu += c2 - c1
        eval_wall += w2 - w1
    n_live = world.pool.live_count
    return {"live": n_live, "emitters": world.pool.emitter_count, "ticks": ticks,
            "sim_ms": 1000 * sim_cpu / ticks, "sim_tps": ticks / sim_wall,
            "total_ms": 1000 * (sim_cpu + eval_cpu) / ticks,
            "total_tps": ticks / (sim_wall + eval_wall)}


def pass_case(ctx, live, frames, gpu):
    """Per-frame (main-thread CPU ms, wall ms) of the particle pass after each tick."""
    from tests.render import scenes as S
    from viewer.render.particles import prepare
    from viewer.render.particles_gpu import particle_snapshot
    from viewer.render.renderer import SceneRenderer
    from viewer.render.world_adapter import particle_arrays
    renderer = SceneRenderer(ctx, S.build_db())
    world = build_world(live, 10, frames)
    pool = world.pool
    pool.row_gfx[:] = S.QUAD_BB  # a billboarded quad with a degrade table
    eye = np.array([0.0, -40.0, 10.0])
    gpu_pass = renderer._gpu_pass() if gpu else None
    cpu = wall = 0.0
    for frame in range(frames + 1):
        world.tick(Fraction(frame + 1, 30))
        ctx.finish()
        c0, w0 = time.thread_time(), time.perf_counter()
        if gpu:
            gpu_pass.prepare(particle_snapshot(pool), eye)
            ctx.finish()
        else:
            prep = prepare(particle_arrays(pool), eye, renderer.meshes)
            renderer.particles.upload(prep)
            ctx.finish()
        if frame:  # the first frame uploads every live slot (and compiles): not counted
            cpu += time.thread_time() - c0
            wall += time.perf_counter() - w0
    renderer.release()
    return pool.live_count, 1000 * cpu / frames, 1000 * wall / frames


def main_pass(quick: bool) -> int:
    from viewer.render.context import headless_context
    ctx = headless_context()
    print(f"particle pass per frame, 10 emitters ({ctx.info['GL_RENDERER']}):")
    print(f"{'live':>9} | {'CPU path: main-thread ms':>24} {'wall ms':>9} |"
          f" {'GPU path: main-thread ms':>24} {'wall ms':>9}")
    for live in (10_000, 100_000) if quick else (10_000, 100_000, 1_000_000):
        frames = 3 if live >= 1_000_000 else 8
        n, c_cpu, c_wall = pass_case(ctx, live, frames, gpu=False)
        _, g_cpu, g_wall = pass_case(ctx, live, frames, gpu=True)
        print(f"{n:>9} | {c_cpu:>24.2f} {c_wall:>9.1f} | {g_cpu:>24.2f} {g_wall:>9.1f}",
              flush=True)
    return 0


def main_stress(frames: int) -> int:
    """assets_synthetic/stress.scenario.json at 1280x720: sim tick, and scene + render per
    frame (main-thread CPU and wall), CPU path against GPU path."""
    from viewer.commands.render import build_parser_args, make_camera
    from viewer.dat.database import AssetDatabase
    from viewer.render.context import headless_context
    from viewer.render.framebuffer import OffscreenTarget
    from viewer.render.renderer import RenderSettings, SceneRenderer
    from viewer.render.scene_input import scene_input_from_world
    from viewer.sim.scenario import Scenario, ScenarioRunner
    from viewer.synthetic import STRESS_SCENARIO
    ctx = headless_context()
    sc = Scenario.load(STRESS_SCENARIO)
    db = AssetDatabase([str(p) for p in sc.dat_paths()])
    args = build_parser_args(["--scenario", str(STRESS_SCENARIO), "--out", "unused.png"])
    print(f"stress scenario 1280x720, {frames} frames after the 100k births "
          f"({ctx.info['GL_RENDERER']}):")
    for gpu in (False, True):
        renderer = SceneRenderer(ctx, db, RenderSettings(gpu_particles=gpu))
        target = OffscreenTarget(ctx, (1280, 720))
        frames_iter = ScenarioRunner(sc, db).frames()
        camera = None
        sim_c = sim_w = ren_c = ren_w = 0.0
        for k in range(frames + 2):
            c0, w0 = time.thread_time(), time.perf_counter()
            _, world = next(frames_iter)
            c1, w1 = time.thread_time(), time.perf_counter()
            if camera is None:
                camera = make_camera(args, world)
                world.viewer_position = tuple(float(c) for c in camera.eye())
            c2, w2 = time.thread_time(), time.perf_counter()
            renderer.render(scene_input_from_world(world, gpu_particles=gpu), camera, target)
            ctx.finish()
            c3, w3 = time.thread_time(), time.perf_counter()
            if k > 1:  # the second frame births 100,000 particles (and compiles shaders)
                sim_c, sim_w = sim_c + c1 - c0, sim_w + w1 - w0
                ren_c, ren_w = ren_c + c3 - c2, ren_w + w3 - w2
        path = "GPU path" if gpu else "CPU path"
        print(f"  {path}: {world.pool.live_count} live, {world.pool.emitter_count} emitters | "
              f"sim tick {1000 * sim_c / frames:.1f} ms CPU ({1000 * sim_w / frames:.1f} ms wall)"
              f" | scene + render {1000 * ren_c / frames:.1f} ms main-thread CPU "
              f"({1000 * ren_w / frames:.1f} ms wall)", flush=True)
        renderer.release()
        target.release()
    return 0


def main_snapshot(repeats: int) -> int:
    """CPU ms of one ScenarioRunner.snapshot() (the world copy Playback keeps), best of
    ``repeats``, on the default and the stress scenario 20 frames in."""
    from viewer.dat.database import AssetDatabase
    from viewer.sim.scenario import Scenario, ScenarioRunner
    from viewer.synthetic import DEFAULT_SCENARIO, STRESS_SCENARIO
    for path in (DEFAULT_SCENARIO, STRESS_SCENARIO):
        sc = Scenario.load(path)
        runner = ScenarioRunner(sc, AssetDatabase([str(p) for p in sc.dat_paths()]))
        frames = runner.frames()
        for _ in range(20):
            next(frames)
        best = float("inf")
        for _ in range(repeats):
            c0 = time.process_time()
            runner.snapshot()
            best = min(best, time.process_time() - c0)
        pool = runner.world.pool
        print(f"{path.name}: {pool.live_count} live, {pool.emitter_count} emitters | "
              f"snapshot {1000 * best:.1f} ms CPU", flush=True)
    return 0


def main_cpu_frame(repeats: int) -> int:
    """The CPU particle frame on the stress scenario's pool (100k live), numpy reference
    against compiled: ParticlePool.evaluate, the renderer's ParticleArrays and
    particles.prepare, thread CPU ms, median of ``repeats`` (the same pool, the same eye)."""
    import statistics

    from viewer.dat.database import AssetDatabase
    from viewer.render.context import headless_context
    from viewer.render.particles import prepare
    from viewer.render.renderer import SceneRenderer
    from viewer.render.world_adapter import _particle_arrays
    from viewer.sim import particles as SP
    from viewer.sim.scenario import Scenario, ScenarioRunner
    from viewer.synthetic import STRESS_SCENARIO
    ctx = headless_context()
    sc = Scenario.load(STRESS_SCENARIO)
    db = AssetDatabase([str(p) for p in sc.dat_paths()])
    renderer = SceneRenderer(ctx, db)
    frames = ScenarioRunner(sc, db).frames()
    for _ in range(4):
        _, world = next(frames)
    pool = world.pool
    eye = np.array([0.0, -60.0, 20.0])

    def median_ms(fn):
        fn()  # compile or load from numba's cache
        times = []
        for _ in range(repeats):
            c0 = time.thread_time()
            fn()
            times.append(time.thread_time() - c0)
        return 1000 * statistics.median(times)
    print(f"CPU particle frame, stress pool ({pool.live_count} live, "
          f"{pool.emitter_count} emitters), thread CPU ms, median of {repeats}:")
    saved = SP.KERNEL
    try:
        for label, mode in (("numpy", "0"), ("compiled", "1")):
            SP.KERNEL = pool.eval_mode = mode
            ev = median_ms(lambda: pool.evaluate(force=True))
            arrays = _particle_arrays(pool, "none")
            ar = median_ms(lambda: _particle_arrays(pool, "none"))  # evaluate cached
            pr = median_ms(lambda a=arrays: prepare(a, eye, renderer.meshes))
            print(f"  {label:8s} evaluate {ev:6.2f} | arrays {ar:6.2f} | prepare {pr:6.2f} |"
                  f" total {ev + ar + pr:6.2f}", flush=True)
    finally:
        SP.KERNEL = saved
        pool.eval_mode = SP.kernel_mode()
    renderer.release()
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer ticks, skip 1M")
    ap.add_argument("--pass", dest="render_pass", action="store_true",
                    help="the particle render pass, CPU path against GPU path")
    ap.add_argument("--stress", action="store_true",
                    help="the stress scenario (500 emitters, 100k+ live) at 1280x720")
    ap.add_argument("--snapshot", action="store_true",
                    help="one world snapshot (Playback's), default and stress scenario")
    ap.add_argument("--cpu-frame", action="store_true",
                    help="the CPU particle frame on the stress pool, numpy against compiled")
    args = ap.parse_args(argv)
    if args.cpu_frame:
        return main_cpu_frame(7)
    if args.snapshot:
        return main_snapshot(3 if args.quick else 5)
    if args.stress:
        return main_stress(4 if args.quick else 10)
    if args.render_pass:
        return main_pass(args.quick)
    lives = (1_000, 10_000, 100_000) if args.quick else (1_000, 10_000, 100_000, 1_000_000)
    # numba compiles the emitter kernel (or loads it from its cache) once per process, on
    # the first busy tick: done here, not counted
    warm = build_world(1_000, 1_000, 2)
    for frame in (1, 2):
        warm.tick(Fraction(frame, 30))
    print(f"{'live':>9} {'emitters':>8} {'ticks':>5} | {'sim ms/tick':>11} {'sim ticks/s':>11}"
          f" | {'sim+eval ms/tick':>16} {'sim+eval ticks/s':>16}")
    for emitters in (10, 1_000):
        for live in lives:
            ticks = 10 if live >= 1_000_000 else (20 if args.quick else 30)
            r = run_case(live, emitters, ticks)
            print(f"{r['live']:>9} {r['emitters']:>8} {r['ticks']:>5} | {r['sim_ms']:>11.3f}"
                  f" {r['sim_tps']:>11.1f} | {r['total_ms']:>16.3f} {r['total_tps']:>16.1f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
