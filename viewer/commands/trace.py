"""``vfxviewer trace`` (contracts/cli.md section 5): run the simulation headless and print
JSON Lines, one event per line, in the order things happened."""

from __future__ import annotations

import argparse
import math
import sys

from viewer.commands.dat_ls import parse_int
from viewer.errors import ViewerError


def _did(text: str) -> int:
    """A DID on the command line: decimal or 0x hex (contract conventions)."""
    try:
        v = parse_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"not a DID: {text!r}") from None
    if not 0 <= v <= 0xFFFFFFFF:
        raise argparse.ArgumentTypeError(f"DID out of range: {text!r}")
    return v


def _play(text: str) -> tuple[int, str]:
    """TYPE:INTENSITY, TYPE a PlayScript name or number, INTENSITY a float (nan, inf, -inf
    accepted); a TYPE that names no PlayScript is bad usage, like ``resolve``'s."""
    from viewer.commands.resolve import parse_play_script
    kind, sep, intensity = text.rpartition(":")
    if not sep or not kind:
        raise argparse.ArgumentTypeError(f"expected TYPE:INTENSITY, got {text!r}")
    number = parse_play_script(kind)
    try:
        float(intensity)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a float intensity: {intensity!r}") from None
    return number, intensity


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not (math.isfinite(v) and v >= 0.0):
        raise argparse.ArgumentTypeError(f"expected finite seconds >= 0, not {text!r}")
    return v


def _fps(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not (math.isfinite(v) and v > 0.0):
        raise argparse.ArgumentTypeError(f"expected a finite frame rate > 0, not {text!r}")
    return v


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dat", metavar="DAT", nargs="?", default=None,
                        help="a DAT file (overrides the scenario's dat)")
    sel = parser.add_mutually_exclusive_group(required=True)
    sel.add_argument("--scenario", metavar="FILE", help="a scenario JSON file")
    sel.add_argument("--setup", metavar="DID", type=_did, help="object 1's Setup")
    parser.add_argument("--table", metavar="DID", type=_did, help="object 1's PhysicsScriptTable")
    parser.add_argument("--script", metavar="DID", type=_did, action="append", default=[],
                        help="play a PhysicsScript on object 1 at t = 0 (repeatable)")
    parser.add_argument("--play", metavar="TYPE:INTENSITY", type=_play, action="append",
                        default=[], help="play a typed effect on object 1 at t = 0")
    parser.add_argument("--seconds", type=_seconds, default=None)
    parser.add_argument("--fps", type=_fps, default=None)
    parser.add_argument("--seed", type=parse_int, default=None, help="decimal or 0x hex")
    parser.add_argument("--particles", action="store_true", help="per-emitter particle lines")
    parser.add_argument("--poses", action="store_true", help="per-part pose lines")


def _cli_events(args) -> list[dict]:
    events = [{"t": 0.0, "object": 1, "play_script": f"0x{d:08X}"} for d in args.script]
    events += [{"t": 0.0, "object": 1, "play": kind, "intensity": inten}
               for kind, inten in args.play]
    return events


def build_scenario(args):
    from viewer.sim.scenario import Scenario
    if args.scenario:
        sc = Scenario.load(args.scenario)
        extra = Scenario.from_json({"events": _cli_events(args)}).events
        sc.events = extra + sc.events  # command-line effects: t = 0 on object 1
    else:
        obj = {"id": 1, "setup": f"0x{args.setup:08X}"}
        if args.table is not None:
            obj["table"] = f"0x{args.table:08X}"
        sc = Scenario.from_json({"objects": [obj], "events": _cli_events(args)})
    if args.seconds is not None:
        sc.seconds = args.seconds
    if args.fps is not None:
        sc.fps = args.fps
    if args.seed is not None:
        sc.seed = args.seed
    return sc


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

    if args.scenario and args.table is not None:  # bad usage (exit 2)
        print("vfxviewer trace: error: --table applies to --setup; the scenario names its "
              "tables", file=sys.stderr)
        return 2
    sc = build_scenario(args)
    paths = [args.dat] if args.dat else [str(p) for p in sc.dat_paths()]
    if not paths:  # bad usage (exit 2), not bad input
        print("vfxviewer trace: error: no DAT: give DAT on the command line or \"dat\" in "
              "the scenario", file=sys.stderr)
        return 2
    try:
        with AssetDatabase(paths) as db:
            trace_lines(sc, db, particles=args.particles, poses=args.poses)
    except ViewerError as err:  # a DID from --setup/--table/--script: name the DAT
        raise err.located(file=", ".join(paths)) from err
    sys.stdout.flush()
    return 0
