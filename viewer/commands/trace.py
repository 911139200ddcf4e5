"""``vfxviewer trace`` (docs/cli.md section 5): run the simulation headless and print
JSON Lines, one event per line, in the order things happened."""

from __future__ import annotations

import argparse
import sys

from viewer.commands.selection import (
    add_selection_arguments,
    build_scenario,
    check_selection,
    dat_paths,
    usage_error,
)
from viewer.errors import ViewerError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_selection_arguments(parser)
    parser.add_argument("--particles", action="store_true", help="per-emitter particle lines")
    parser.add_argument("--poses", action="store_true", help="per-part pose lines")
    parser.add_argument("--looks", action="store_true",
                        help="looks lines: translucency, luminosity, diffuse, scale, UV "
                             "offset, nodraw, and a part's GfxObj and textures, per object "
                             "and part, at creation and on "
                             "every change (the values the renderer draws from)")


def _look_line(t: float, owner: int, look) -> dict:
    ev = {"t": t, "event": "looks", "owner": owner, "part": look.part,
          "translucency": look.translucency, "luminosity": look.luminosity,
          "diffuse": look.diffuse}
    if look.scale is not None:
        ev["scale"] = look.scale
    ev["uv_offset"] = list(look.uv_offset)
    ev["nodraw"] = look.nodraw
    if look.gfxobj is not None:  # part lines: the GfxObj drawn and its surfaces' textures
        ev["gfxobj"] = f"0x{look.gfxobj:08X}"
        ev["textures"] = [f"0x{d:08X}" if d else None for d in look.textures]
    return ev


class LooksTracker:
    """After each frame (so after that tick's timed hooks): one ``looks`` line per object
    and part that is new or whose look changed since the previous frame."""

    def __init__(self) -> None:
        self.last: dict[int, list] = {}

    def lines(self, world) -> list[dict]:
        from viewer.sim import inspect
        offsets = inspect.texture_offsets(world)
        t = float(world.timer_now)
        out, seen = [], {}
        for obj in inspect.drawn_objects(world):
            looks = inspect.object_looks(obj, offsets, world)
            before = self.last.get(obj.id)
            for k, look in enumerate(looks):
                if before is None or k >= len(before) or before[k] != look:
                    out.append(_look_line(t, obj.id, look))
            seen[obj.id] = looks
        self.last = seen
        return out


def trace_lines(scenario, db, *, particles: bool = False, poses: bool = False,
                looks: bool = False, out=None):
    """Run ``scenario`` on ``db`` writing JSON Lines to ``out`` (a callable taking a str)."""
    from viewer.sim.events import to_line
    from viewer.sim.scenario import ScenarioRunner

    runner = ScenarioRunner(scenario, db)
    world = runner.world
    write = out or (lambda s: sys.stdout.write(s + "\n"))

    def on_event(ev: dict) -> None:
        write(to_line(ev))
        if ev.get("event") != "tick":
            return
        t = ev["t"]
        if poses:
            for obj in world.objects.values():
                f = obj.frame
                write(to_line({"t": t, "event": "pose", "owner": obj.id, "part": -1,
                               "origin": f.origin, "orientation": f.orientation}))
                for p in obj.parts:
                    write(to_line({"t": t, "event": "pose", "owner": obj.id, "part": p.index,
                                   "origin": p.frame.origin,
                                   "orientation": p.frame.orientation}))
        if particles:
            pool = world.pool
            pool.evaluate()
            for obj in world.objects.values():
                pm = obj.particle_manager
                if pm is None:
                    continue
                for _, em in pm.emitters():
                    idx = [i for _, i in em.live_slots()]
                    write(to_line({"t": t, "event": "particles", "handle": em.handle,
                                   "positions": pool.position[idx],
                                   "scales": pool.scale[idx], "trans": pool.trans[idx],
                                   "nodraw": em.nodraw}))

    world.observers.append(on_event)
    tracker = LooksTracker() if looks else None
    for _ in runner.frames():
        if tracker is not None:
            for ev in tracker.lines(world):
                write(to_line(ev))
    return runner


def run(args: argparse.Namespace) -> int:
    from viewer.dat.database import AssetDatabase

    bad = check_selection(args, "vfxviewer trace")
    if bad is not None:
        return bad
    sc = build_scenario(args)
    paths = dat_paths(args, sc)
    if not paths:  # bad usage (exit 2), not bad input
        return usage_error("vfxviewer trace", "no DAT: give DAT on the command line or "
                           "\"dat\" in the scenario")
    try:
        with AssetDatabase(paths) as db:
            trace_lines(sc, db, particles=args.particles, poses=args.poses,
                        looks=args.looks)
    except ViewerError as err:  # a DID from --setup/--table/--script: name the DAT
        raise err.located(file=", ".join(paths)) from err
    sys.stdout.flush()
    return 0
