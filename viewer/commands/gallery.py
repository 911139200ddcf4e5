"""``vfxviewer gallery DAT... --out DIR [--setup DID] [--only FILTER] [--jobs N] [--size WxH]
[--seconds S]`` (docs/cli.md section 12): every PhysicsScript of the DATs (or those FILTER
picks) played on a Setup and rendered headless to a looping GIF and a PNG poster, with
``index.html``, a sortable, filterable table that works from the file system.

- The Setup: ``--setup DID``, else the built-in neutral stand (viewer/synthetic/stand.py,
  an in-memory DAT searched after the user's). A script whose hooks name part k plays on a
  Setup with more than k parts: the stand with k + 1 parts when ``--setup`` has too few.
- FILTER: hex digits (``0x`` optional) keep the DIDs that start with them; otherwise a
  PlayScript name (the scripts a PhysicsScriptTable names under it), a hook type (the
  scripts holding one), ``ps:NAME``, ``hook:NAME`` or ``uses:DID``, read through the
  cross-reference index (viewer/dat/xref.py) as the Assets panel's search reads them.
- Each script is one task of a process pool (``--jobs``, default the CPU count): a worker
  opens the DATs and a headless GL context once and renders with ``vfxviewer render``'s
  own ``render_frames``; it is replaced after ``TASKS_PER_WORKER`` scripts, so what its
  caches hold stays bounded. The simulation runs at 60 fps; every third frame is drawn
  (a 20 fps GIF). The poster is the drawn frame with the most live particles.
- ``DIR/manifest.json`` records each finished script with its figures (written beside and
  renamed, at most once a second and at the end); a rerun with the same options skips
  them. Ctrl-C lets the scripts being drawn finish, records them and writes the index.
- Exit 0 when every script rendered; 1 after naming each that failed (the others are
  written); 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from viewer import bounds
from viewer.bounds import Bound
from viewer.commands.dat_args import DATS_HELP
from viewer.commands.dat_show import parse_did
from viewer.commands.output import check_output, nonempty_path, writing
from viewer.commands.overwrite import refuse_clash
from viewer.commands.render import parse_size
from viewer.commands.selection import bounded, usage_error
from viewer.errors import DatError, ViewerError, format_did

PROG = "vfxviewer gallery"
JOBS = Bound("--jobs", 1, 256, "processes", "one per core; each holds a GL context",
             integer=True)
#: the simulation's frame clock and the GIF's: every SIM_FPS / THUMB_FPS-th frame is drawn
SIM_FPS = 60
THUMB_FPS = 20
#: without --seconds: the script's length plus this, within AUTO_SECONDS
TAIL_SECONDS = 1.0
AUTO_SECONDS = (1.0, 5.0)
#: a worker process is replaced after this many scripts (bounded memory per worker)
TASKS_PER_WORKER = 64
#: the manifest is rewritten at most this often while scripts finish (and at the end)
SAVE_EVERY_S = 1.0
#: at most this many failures are named one per line (the rest counted; all in the manifest)
FAILURES_SHOWN = 50
MANIFEST = "manifest.json"
FORMAT = 1
TYPE_SCRIPT = 0x33
#: framing (``frame_effect``): particles sampled per drawn frame, the margin around the
#: sphere that holds what is drawn, the smallest radius framed (a bare stand, a spark)
FRAME_SAMPLES = 256
FRAME_PERCENTILE = 5
FRAME_MARGIN = 1.0
MIN_FRAMED_RADIUS = 0.5


def _seconds(text: str) -> float:
    v = bounded(bounds.SECONDS)(text)
    if v <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a thumbnail needs more than 0 seconds")
    return v


_seconds.__name__ = "seconds"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dats", metavar="DAT", nargs="+", help=DATS_HELP)
    parser.add_argument("--out", required=True, type=nonempty_path, metavar="DIR",
                        help="the gallery folder (index.html, thumbs/, posters/, "
                             "manifest.json); a rerun continues where a run stopped")
    parser.add_argument("--setup", metavar="DID", type=parse_did,
                        help="the Setup to play every script on (default: a built-in "
                             "neutral stand)")
    parser.add_argument("--only", metavar="FILTER",
                        help="a DID prefix (0x3300), a PlayScript name (Launch), a hook "
                             "type (CallPES), ps:NAME, hook:NAME or uses:DID")
    parser.add_argument("--jobs", type=bounded(JOBS, integer=True), default=None,
                        help=f"worker processes ({JOBS.span()}; default: the CPUs this "
                             "process may use)")
    parser.add_argument("--size", type=parse_size, default=(160, 120),
                        help="thumbnail and poster WxH (160x120)")
    parser.add_argument("--seconds", type=_seconds, default=None, metavar="S",
                        help=f"length of each thumbnail (default: the script's length + "
                             f"{TAIL_SECONDS:g} s, within {AUTO_SECONDS[0]:g}.."
                             f"{AUTO_SECONDS[1]:g} s)")
    parser.add_argument("--distance", type=bounded(bounds.CAMERA_DISTANCE), default=None,
                        help="camera distance in m (default: each script framed: the "
                             "camera fits what it draws)")


# --- what to render ----------------------------------------------------------------------------
def select_scripts(scripts: list[int], only: str | None, index) -> list[int]:
    """The scripts FILTER keeps, ascending (UsageError when it names nothing)."""
    from viewer.errors import UsageError
    from viewer.ui.assets_panel import hex_query_problem, name_search, parse_hex_query
    if only is None:
        return scripts
    if hex_query_problem(only) is None:
        digits = parse_hex_query(only)
        return [d for d in scripts if f"{d:08X}".startswith(digits)]
    found, note = name_search(index, only)
    if not found and note.startswith("'"):
        raise UsageError(f"--only {note}")
    wanted = set(found)
    return [d for d in scripts if d in wanted]


def script_uses(index) -> dict[int, list[dict]]:
    """script DID -> how the DATs use it: each PhysicsScriptTable entry naming it (its
    PlayScript type by name, the table) and each Setup naming it as DefaultScript."""
    import numpy as np

    from viewer.dat.names import play_script_label
    from viewer.dat.records.common import PlayScript
    from viewer.dat.xref import How
    out: dict[int, list[dict]] = {}
    mask = ((index.kind == How.TABLE_ENTRY) | (index.kind == How.DEFAULT_SCRIPT)) & \
        ((index.dst >> np.uint32(24)) == TYPE_SCRIPT)
    for src, dst, kind, a in zip(index.src[mask].tolist(), index.dst[mask].tolist(),
                                 index.kind[mask].tolist(), index.a[mask].tolist()):
        if kind == How.DEFAULT_SCRIPT:
            use = {"type": "DefaultScript", "label": "DefaultScript", "by": format_did(src)}
        else:
            try:
                name = PlayScript(a).name
            except ValueError:
                name = f"PlayScript 0x{a:X}"
            use = {"type": name, "label": play_script_label(a), "by": format_did(src)}
        if use not in out.setdefault(dst, []):
            out[dst].append(use)
    return out


# --- the manifest ------------------------------------------------------------------------------
def dat_identity(files) -> list[dict]:
    """What the gallery's pictures depend on in the DATs: each file's path, size and time."""
    out = []
    for f in files:
        if f.path is None:
            out.append({"path": f.name})
            continue
        st = os.stat(f.path)
        out.append({"path": str(Path(f.path).resolve()), "size": st.st_size,
                    "mtime_ns": st.st_mtime_ns})
    return out


@dataclass
class Manifest:
    """``DIR/manifest.json``: the options of the run and each finished script's figures."""

    path: Path
    options: dict
    scripts: dict[str, dict] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    saved_at: float = 0.0

    @classmethod
    def load(cls, path: Path, options: dict) -> Manifest:
        """The manifest at ``path`` when it was written with the same options (its
        finished scripts are kept when their pictures are there), else a new one."""
        m = cls(path, options)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return m
        if not isinstance(data, dict) or data.get("format") != FORMAT or \
                data.get("options") != options or not isinstance(data.get("scripts"), dict):
            return m
        for did, row in data["scripts"].items():
            if isinstance(row, dict) and all((path.parent / row.get(k, "")).is_file()
                                             for k in ("thumb", "poster")):
                m.scripts[did] = row
        return m

    def save(self) -> None:
        """Write beside and rename: a reader (or a rerun after a kill) never sees half."""
        data = {"format": FORMAT, "options": self.options,
                "scripts": dict(sorted(self.scripts.items())),
                "failed": dict(sorted(self.failed.items()))}
        from viewer.media import replacing
        with replacing(self.path) as tmp:
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        self.saved_at = time.monotonic()

    def record(self, result: dict) -> bool:
        """Note one script's result; whether the manifest was written now (at most once
        every ``SAVE_EVERY_S``)."""
        did = result["did"]
        if result.get("error") is not None:
            self.failed[did] = result["error"]
            self.scripts.pop(did, None)
        else:
            self.failed.pop(did, None)
            self.scripts[did] = result
        if time.monotonic() - self.saved_at < SAVE_EVERY_S:
            return False
        self.save()
        return True


# --- a worker ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    """One script to render and how (picklable: sent to a worker)."""

    did: int
    out: str
    size: tuple[int, int]
    seconds: float | None
    distance: float | None     # None: framed per script (``frame_effect``)
    setup: int | None          # --setup, or None: the stand
    setup_parts: int           # --setup's part count


_worker: dict = {}


def init_worker(paths: list[str], stand_base: tuple[int, int, int, int]) -> None:
    """Per worker process: the DATs (with the stand after them) and a GL context, once.
    Ctrl-C reaches the main process, which lets the running scripts finish."""
    import signal

    from viewer.dat.container import DatCollection
    from viewer.dat.dat_set import open_collection
    from viewer.dat.database import AssetDatabase
    from viewer.render.context import headless_context
    from viewer.synthetic.stand import StandDids, stand_dat
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    collection, _ = open_collection(paths)
    stand = StandDids(*stand_base)
    _worker["db"] = AssetDatabase(DatCollection([*collection.files, stand_dat(stand)]))
    _worker["stand"] = stand
    _worker["ctx"] = headless_context()


def parts_named(script) -> int:
    """The parts a script's hooks need: the highest part index a hook names, plus one
    (-1, the object itself, needs none)."""
    need = 0
    for d in script.script_data:
        index = getattr(d.hook, "part_index", None)
        if index is not None and 0 <= index < (1 << 31):
            need = max(need, int(index) + 1)
    return need


class Figures:
    """A World listener counting what the gallery lists (render_frames' ``capture``: it
    calls ``drawn(t)`` after each frame it draws)."""

    def __init__(self) -> None:
        self.emitters = 0
        self.peak = 0
        self.sounds = 0
        self.waves: list[str] = []
        self.missing: list[str] = []
        self.particles = 0          # live at the last tick
        self.frames = 0

    def __call__(self, ev: dict) -> None:
        kind = ev.get("event")
        if kind == "tick":
            self.particles = int(ev.get("particles", 0))
            self.peak = max(self.peak, self.particles)
        elif kind == "emitter" and ev.get("action") == "created":
            self.emitters += 1
        elif kind == "sound":
            self.sounds += 1
            wave = ev.get("wave")
            if wave and format_did(wave) not in self.waves:
                self.waves.append(format_did(wave))
        elif kind == "missing":
            self.missing.append(f"{ev.get('what')} {format_did(ev.get('did', 0))}")

    def drawn(self, t) -> None:
        self.frames += 1


def frame_effect(sc, db, step: int, fov_deg: float) -> tuple[tuple[float, float, float],
                                                               float]:
    """(target, distance) of a camera that fits what a script draws: the run simulated
    once without drawing, the object's parts and the live particles of every ``step``-th
    frame (at most ``FRAME_SAMPLES`` per frame, evenly picked) gathered, the box between
    their 5th and 95th percentiles on each axis (a stray particle far out does not shrink
    the rest), and the distance at which its bounding sphere fills the field of view."""
    import numpy as np

    from viewer.sim import inspect
    from viewer.sim.scenario import ScenarioRunner
    runner = ScenarioRunner(sc, db)
    points: list = []
    for k, (_, world) in enumerate(runner.frames()):
        if k % step:
            continue
        for obj in inspect.drawn_objects(world):
            points.append(np.asarray([obj.frame.origin] + [p.frame.origin for p in obj.parts],
                                     np.float64))
        pool = inspect.particle_pool(world)
        live = np.flatnonzero(pool.alive)
        if live.size:
            pool.evaluate()
            pick = live[np.linspace(0, live.size - 1, min(live.size, FRAME_SAMPLES)).astype(int)]
            points.append(np.asarray(pool.position[pick], np.float64))
    pts = np.concatenate(points) if points else np.zeros((1, 3))
    pts = pts[np.isfinite(pts).all(axis=1)]
    if not len(pts):
        pts = np.zeros((1, 3))
    lo, hi = np.percentile(pts, [FRAME_PERCENTILE, 100 - FRAME_PERCENTILE], axis=0)
    center = (lo + hi) / 2.0
    radius = max(float(np.linalg.norm(hi - lo)) / 2.0, MIN_FRAMED_RADIUS)
    distance = FRAME_MARGIN * radius / math.sin(math.radians(fov_deg) / 2.0)
    distance = min(max(distance, bounds.CAMERA_DISTANCE.lo), bounds.CAMERA_DISTANCE.hi)
    return tuple(round(float(c), 4) for c in center), round(distance, 4)


def render_job(job: Job) -> dict:
    """Render one script (in a worker); its figures, or ``{"did", "error"}``."""
    did = format_did(job.did)
    start = time.perf_counter()
    try:
        return _render(job, did, start)
    except ViewerError as err:
        return {"did": did, "error": str(err)}
    except Exception as err:   # one script's bug must not end the gallery: named, not raised
        return {"did": did, "error": f"{type(err).__name__}: {err} (an internal error)"}


def _render(job: Job, did: str, start: float) -> dict:
    import numpy as np

    from viewer.commands.render import build_parser_args, load_scenario, render_frames
    from viewer.media import FrameWriter, save_image
    db, stand = _worker["db"], _worker["stand"]
    script = db.physics_script(job.did)
    need = parts_named(script)
    if job.setup is not None and job.setup_parts >= need:
        setup, on_stand = job.setup, False
    else:
        setup, on_stand = stand.setup_with(need), True
    seconds = job.seconds
    if seconds is None:
        seconds = min(max(float(script.length) + TAIL_SECONDS, AUTO_SECONDS[0]),
                      AUTO_SECONDS[1])
    out = Path(job.out)
    thumb, poster = f"thumbs/{did}.gif", f"posters/{did}.png"
    step = SIM_FPS // THUMB_FPS
    # ``vfxviewer render --setup S --script P``: its scenario and camera options
    argv = ["--setup", format_did(setup), "--script", did, "--fps", str(SIM_FPS),
            "--seconds", repr(float(seconds)), "--seed", "0", "--out", str(out / thumb),
            "--size", f"{job.size[0]}x{job.size[1]}"]
    args = build_parser_args(argv)
    sc = load_scenario(args)
    if job.distance is None:
        target, distance = frame_effect(sc, db, step, args.fov)
        argv += ["--target", ",".join(repr(c) for c in target)]
    else:
        target, distance = None, job.distance
    args = build_parser_args([*argv, "--distance", repr(distance)])
    figures = Figures()
    best: list = [-1, None]
    count = [0]

    def wants(last: bool) -> bool:
        count[0] += 1
        return (count[0] - 1) % step == 0

    def on_frame(rgba) -> None:
        writer.write(rgba)
        if figures.particles > best[0]:
            best[0], best[1] = figures.particles, np.array(rgba)

    with FrameWriter(out / thumb, fps=THUMB_FPS) as writer:
        render_frames(sc, args, _worker["ctx"], on_frame, db=db, wants=wants,
                      capture=figures)
    from PIL import Image
    save_image(Image.fromarray(best[1][..., :3].copy(), "RGB"), out / poster)
    return {"did": did, "thumb": thumb, "poster": poster, "setup": format_did(setup),
            "stand": on_stand, "parts_needed": need, "duration": float(script.length),
            "hooks": len(script.script_data), "seconds": float(seconds),
            "frames": figures.frames, "emitters": figures.emitters,
            "peak_particles": figures.peak, "sounds": figures.sounds,
            "waves": figures.waves, "missing": figures.missing,
            "camera": {"target": None if target is None else list(target),
                       "distance": distance},
            "render_s": round(time.perf_counter() - start, 3)}


# --- the run -----------------------------------------------------------------------------------
def cpu_count() -> int:
    """The CPUs this process may run on (its affinity where the OS tells it, else all)."""
    counted = getattr(os, "process_cpu_count", None)      # Python 3.13
    if counted is not None:
        return counted() or 1
    affinity = getattr(os, "sched_getaffinity", None)       # Linux
    if affinity is not None:
        return len(affinity(0)) or 1
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Pool:
    """How scripts are rendered: ``workers`` processes, each set up by
    ``initializer(*initargs)``, running ``task(job) -> result`` (picklable: module-level)."""

    workers: int
    initializer: object
    initargs: tuple
    task: object = render_job


def run_pool(jobs: list[Job], pool: Pool, on_result) -> None:
    """Render ``jobs``; ``on_result(result)`` in the main process as each finishes. An
    interrupt cancels what has not started, waits for what has (each is recorded) and is
    raised again. A worker that dies (a crash in a driver, the OOM killer) breaks its pool:
    the scripts it took down go to a new pool, and when a round finished none of them the
    first is tried alone, so a script that ends every worker it runs in is one failure and
    the others still render."""
    from collections import deque
    batches = deque([list(jobs)] if jobs else [])
    while batches:
        batch = batches.popleft()
        broken, finished = _pool_round(batch, pool, on_result)
        if not broken:
            continue
        if finished:
            batches.appendleft(broken)
        elif len(broken) == 1:
            on_result({"did": format_did(broken[0].did), "error": "the worker process "
                       "ended while rendering it (crashed or was killed)"})
        else:
            batches.extendleft([broken[1:], broken[:1]])


def _pool_round(jobs: list[Job], pool: Pool, on_result) -> tuple[list[Job], int]:
    """One process pool over ``jobs``: (the jobs a dead worker took down, how many
    finished)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool
    executor = ProcessPoolExecutor(max_workers=max(1, min(pool.workers, len(jobs))),
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=pool.initializer, initargs=pool.initargs,
                                   max_tasks_per_child=TASKS_PER_WORKER)
    futures = {executor.submit(pool.task, job): job for job in jobs}
    pending, broken, finished = set(futures), [], 0

    def take(fut) -> None:
        nonlocal finished
        try:
            result = fut.result()
        except BrokenProcessPool:
            broken.append(futures[fut])
            return
        except Exception as err:   # the pool could not run it (pickling, start-up)
            result = {"did": format_did(futures[fut].did),
                      "error": f"{type(err).__name__}: {err}"}
        finished += 1
        on_result(result)
    try:
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: futures[f].did):
                take(fut)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        for fut in sorted(pending, key=lambda f: futures[f].did):
            if fut.done() and not fut.cancelled():
                take(fut)
    return sorted(broken, key=lambda j: j.did), finished


def _clean_partials(out: Path) -> None:
    """Remove the hidden partial files a killed run left (``viewer.media.partial_path``:
    the pictures, the manifest and the index)."""
    for folder in (out, out / "thumbs", out / "posters"):
        for p in folder.glob(".*.partial.*"):
            p.unlink(missing_ok=True)


def _setup_parts(collection, did: int) -> int:
    from viewer.dat.database import AssetDatabase
    if did not in collection:
        raise DatError("Setup not found in any open DAT", file=collection.name, did=did)
    return AssetDatabase(collection).setup(did).num_parts


def run(args: argparse.Namespace) -> int:
    from viewer.commands.dat_args import dat_files
    from viewer.commands.gallery_page import write_index
    from viewer.commands.progress import terminal_bar
    from viewer.commands.xref import load_index
    from viewer.dat.container import DatCollection
    from viewer.synthetic.stand import free_base
    from viewer.userdirs import cache_dir
    out = check_output(args.out, "--out", folder=True)
    if refuse_clash(PROG, [("--out", out)], [("DAT", p) for p in args.dats]) is not None:
        return 2
    files = dat_files(args.dats)
    with DatCollection(files) as collection:
        scripts = [d for d in collection.dids() if (d >> 24) == TYPE_SCRIPT]
        index, _ = load_index(collection, cache_dir())
        selected = select_scripts(scripts, args.only, index)
        setup_parts = 0 if args.setup is None else _setup_parts(collection, args.setup)
        stand = free_base(collection)
        identity = dat_identity(collection.files)
    if args.only is not None and not selected:
        return usage_error(PROG, f"--only {args.only!r} selects no PhysicsScript of "
                           f"{len(scripts)}")
    uses = script_uses(index)
    options = {"dats": identity, "setup": None if args.setup is None else
               format_did(args.setup), "size": list(args.size), "seconds": args.seconds,
               "distance": args.distance, "fps": [SIM_FPS, THUMB_FPS]}
    with writing(out, "--out"):
        for sub in ("thumbs", "posters"):
            (out / sub).mkdir(parents=True, exist_ok=True)
        _clean_partials(out)
        manifest = Manifest.load(out / MANIFEST, options)
        todo = [Job(d, str(out), tuple(args.size), args.seconds, args.distance,
                    args.setup, setup_parts)
                for d in selected if format_did(d) not in manifest.scripts]
        skipped = len(selected) - len(todo)
        if skipped:
            print(f"vfxviewer: gallery: {skipped} of {len(selected)} scripts already in "
                  f"{out / MANIFEST}; rendering the other {len(todo)}", file=sys.stderr)
        if todo:   # no GL here (EGL missing, a bad VIEWER_GL_BACKEND): one line, not N
            from viewer.render.context import headless_context
            headless_context().release()
        bar = terminal_bar("gallery", "script", len(todo)) if todo else None
        wanted = {format_did(d) for d in selected}

        def index() -> None:   # what is done so far: a long run can be looked at meanwhile
            write_index(out, [manifest.scripts[d] for d in sorted(manifest.scripts)
                              if d in wanted],
                        {d: m for d, m in manifest.failed.items() if d in wanted}, uses,
                        tuple(args.size))

        def on_result(result: dict) -> None:
            if manifest.record(result):
                index()
            if bar is not None:
                bar.update(1)
        try:
            run_pool(todo, Pool(args.jobs or cpu_count(), init_worker,
                                ([str(f) for f in files], (stand.setup, stand.plinth,
                                                           stand.marker, stand.surface))),
                     on_result)
        finally:
            if bar is not None:
                bar.close()
            manifest.save()
            index()
    failed = sorted(d for d in manifest.failed if d in wanted)
    for did in failed[:FAILURES_SHOWN]:
        print(f"vfxviewer: gallery: {did} failed: {manifest.failed[did]}", file=sys.stderr)
    if len(failed) > FAILURES_SHOWN:
        print(f"vfxviewer: gallery: {len(failed) - FAILURES_SHOWN} more failed (listed in "
              f"{out / MANIFEST})", file=sys.stderr)
    if failed:
        print(f"vfxviewer: gallery: {len(failed)} of {len(selected)} scripts failed; "
              f"the other {len(selected) - len(failed)} are in {out / 'index.html'}",
              file=sys.stderr)
        return 1
    return 0
