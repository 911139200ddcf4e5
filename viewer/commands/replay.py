"""``vfxviewer replay CAPTURE [--guid 0x...] [--dat DAT] [--json]`` (docs/cli.md section 7).

Prints one line per decoded message of the kinds docs/cli.md section 7 lists, in capture time:
JSON Lines with ``--json``, a readable line otherwise. The printed lines are the same with or
without ``--dat``. With ``--dat`` the captured objects and effects also drive the simulation:
``--gui`` plays them in the viewer, ``--trace`` runs them headless and prints the simulation's
trace lines instead of the messages, and ``--scenario-out FILE`` saves them as a scenario
(docs/cli.md section 4) that ``vfxviewer open DAT --scenario FILE`` plays.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from viewer.commands.output import nonempty_path, written
from viewer.commands.overwrite import check_outputs
from viewer.errors import ViewerError, WireError
from viewer.wire.capture import AC_PORTS
from viewer.wire.pipeline import ReplayStats, iter_messages
from viewer.wire.replay import capture_scenario, message_json, message_text, wants


def _int(text: str) -> int:
    """Decimal (leading zeros too) or 0x hex (contract conventions)."""
    from viewer.commands.selection import parse_int
    return parse_int(text)


def _guid(text: str) -> int:
    v = _int(text)
    if not 0 <= v <= 0xFFFFFFFF:
        raise argparse.ArgumentTypeError(f"a GUID is a u32, not {text!r}")
    return v


def _ports(text: str) -> range:
    try:
        lo, _, hi = text.partition("-")
        lo_i = _int(lo)
        hi_i = _int(hi) if hi else lo_i
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"not a port range: {text!r}") from None
    if not 0 <= lo_i <= hi_i <= 0xFFFF:
        raise argparse.ArgumentTypeError(f"not a port range: {text!r}")
    return range(lo_i, hi_i + 1)


def _stand_in(text: str) -> tuple[int, int | None]:
    """SETUP[:TABLE]: two DIDs (u32, never wrapped)."""
    from viewer.commands.selection import parse_did
    setup, _, table = text.partition(":")
    return parse_did(setup), (parse_did(table) if table else None)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("capture", help="pcap or pcapng capture of an Asheron's Call session")
    parser.add_argument("--guid", type=_guid, default=None,
                        help="only messages naming this object (decimal or 0x hex)")
    parser.add_argument("--dat", default=None,
                        help="client DAT: play the captured objects and effects")
    parser.add_argument("--json", action="store_true", help="JSON Lines output")
    parser.add_argument("--all", action="store_true",
                        help="also list messages outside the decoded set")
    parser.add_argument("--ports", type=_ports, default=AC_PORTS, metavar="LO-HI",
                        help="server port range that marks AC traffic (default 9000-10013)")
    parser.add_argument("--stats", action="store_true",
                        help="print transport and decode counters on stderr at the end")
    parser.add_argument("--scenario-out", default=None, metavar="FILE", type=nonempty_path,
                        help="save the captured objects and effects as a scenario")
    parser.add_argument("--trace", action="store_true",
                        help="with --dat: run the scenario headless, print its trace lines")
    parser.add_argument("--stand-in", type=_stand_in, default=None, metavar="SETUP[:TABLE]",
                        help="for objects the capture never creates (mid-session captures): "
                             "play their effects on this Setup / PhysicsScriptTable")
    parser.add_argument("--gui", action="store_true",
                        help="with --dat: play the capture in the interactive viewer")


def run(args: argparse.Namespace) -> int:
    for flag in ("trace", "gui"):
        if getattr(args, flag) and args.dat is None:
            print(f"vfxviewer replay: error: --{flag} plays the capture on a DAT: give --dat "
                  "DAT", file=sys.stderr)
            return 2
    if check_outputs("vfxviewer replay", [("--scenario-out", args.scenario_out)],
                     [("capture", args.capture), ("DAT", args.dat)]) is None:
        return 2  # before any work: the capture must not be written over while read
    if args.scenario_out or (args.dat is not None and (args.trace or args.gui)):
        # "dat" in a scenario is relative to the scenario file (docs/cli.md section 4): the
        # DAT named here (relative to the working folder) is written absolute, and relative
        # to the --scenario-out file's folder when saved
        dat = os.path.abspath(args.dat) if args.dat else None
        scenario = capture_scenario(args.capture, args.guid,
                                    dat=[dat] if dat else None, stand_in=args.stand_in)
        if args.scenario_out:
            saved = dict(scenario)
            if dat:
                out_dir = os.path.dirname(os.path.abspath(args.scenario_out))
                saved["dat"] = [Path(os.path.relpath(dat, out_dir)).as_posix()]
            with written(args.scenario_out, "--scenario-out", encoding="utf-8") as fh:
                fh.write(json.dumps(saved, indent=1) + "\n")   # whole or not at all
        if args.dat is not None and args.gui:
            return _gui(args, scenario)
        if args.dat is not None and args.trace:
            return _trace(args, scenario)
    return _print_messages(args)


def _print_messages(args: argparse.Namespace) -> int:
    stats = ReplayStats()
    out = sys.stdout
    for item in iter_messages(args.capture, stats, ports=args.ports):
        if item.message is None and not args.all:
            continue
        if not wants(item.message, args.guid):
            continue
        if args.json:
            out.write(json.dumps(message_json(item), allow_nan=False) + "\n")
        else:
            out.write(message_text(item) + "\n")
    if stats.capture.records == 0:
        raise WireError("capture holds no packets", file=args.capture)
    if args.stats:
        print(json.dumps(stats.as_dict()), file=sys.stderr)
        for line in stats.first_errors:
            print(line, file=sys.stderr)
    if stats.capture.truncated_records:
        # a capture cut short is a failure of the input (contract: exit 1, one line); the
        # messages before the cut are printed above, nothing after it is guessed
        out.flush()
        raise WireError(f"capture truncated: {stats.capture.truncated_records} record(s) cut "
                        f"short or with a lying length after {stats.capture.records} "
                        f"record(s); the messages before it are printed", file=args.capture)
    return 0


def _trace(args: argparse.Namespace, scenario: dict) -> int:
    from viewer.commands.trace import trace_lines
    from viewer.dat.database import AssetDatabase
    from viewer.sim.scenario import Scenario

    try:  # a value the capture holds outside its range (a position of 3e38): the capture
        sc = Scenario.from_json(scenario)
    except ViewerError as err:
        raise err.located(file=args.capture) from err
    try:
        with AssetDatabase([args.dat]) as db:
            trace_lines(sc, db)
    except ViewerError as err:  # a DID the capture names that the DAT lacks: name the DAT
        raise err.located(file=args.dat) from err
    sys.stdout.flush()
    return 0


def _gui(args: argparse.Namespace, scenario: dict) -> int:
    from viewer.commands import open_viewer

    path = args.scenario_out
    if path is None:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False,
                                         encoding="utf-8") as handle:
            json.dump(scenario, handle)
        path = handle.name
    parser = argparse.ArgumentParser()
    open_viewer.add_arguments(parser)
    return open_viewer.run(parser.parse_args([args.dat, "--scenario", path]))
