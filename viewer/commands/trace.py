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


def trace_lines(scenario, db, *, particles: bool = False, poses: bool = False, out=None):
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

    world.listeners.append(on_event)
    runner.run()
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
            trace_lines(sc, db, particles=args.particles, poses=args.poses)
    except ViewerError as err:  # a DID from --setup/--table/--script: name the DAT
        raise err.located(file=", ".join(paths)) from err
    sys.stdout.flush()
    return 0
