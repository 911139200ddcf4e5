"""What ``trace``, ``render`` and ``compare`` share: the command-line spellings of the
contract's conventions (integers decimal or 0x hex, DIDs, PlayScript names or numbers,
intensities with nan / inf) and the selection of what to simulate
(``DAT (--scenario FILE | --setup DID [--table DID] [--script DID]... [--play TYPE:INTENSITY]...)
[--seconds S] [--fps F] [--seed N]``, docs/cli.md sections 5 and 6).

``--script`` and ``--play`` are events at t = 0 on object 1, queued in the order they were
typed. Bad usage is an ``argparse`` error (exit 2); a DID the DAT lacks is an input failure
(exit 1) naming the DAT.
"""

from __future__ import annotations

import argparse
import re
import sys

from viewer import bounds
from viewer.bounds import Bound
from viewer.errors import format_did


def parse_int(text: str) -> int:
    """Decimal (leading zeros allowed) or 0x hex (contract conventions), ASCII digits only
    (the scenario reader's spelling: viewer.bounds.int_text)."""
    try:
        return bounds.int_text(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def parse_did(text: str) -> int:
    try:
        v = parse_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"not a DID: {text!r}") from None
    if not 0 <= v <= 0xFFFFFFFF:
        raise argparse.ArgumentTypeError(f"DID out of range: {text!r}")
    return v


def parse_play_script(text: str) -> int:
    """A PlayScript name (``Launch``, ``Hidden``, case-insensitive) or a u32 number in
    decimal or 0x hex; anything else is bad usage (never a silent wrap to 32 bits)."""
    from viewer.sim.script_table import play_script_number
    text = str(text).strip()
    if text[:1] in "0123456789+-":
        try:
            v = parse_int(text)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(f"not a PlayScript: {text!r}") from None
        if not 0 <= v <= 0xFFFFFFFF:
            raise argparse.ArgumentTypeError(f"PlayScript out of range: {text!r}")
        return v
    try:
        return play_script_number(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def parse_intensity(text: str) -> float:
    """A float; ``nan``, ``inf`` and ``-inf`` included (the contract's intensities)."""
    try:
        return bounds.float_text(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a float: {text!r}") from None


def bounded(bound: Bound, *, integer: bool = False):
    """An argparse type for a number inside ``bound``, its documented range
    (viewer/bounds.py): anything else, NaN and infinities included, is bad usage (exit 2)
    before any work starts."""
    def parse(text: str):
        try:
            v = parse_int(text) if integer else bounds.float_text(text)
        except (ValueError, argparse.ArgumentTypeError):
            raise argparse.ArgumentTypeError(
                f"expected {'an integer' if integer else 'a number'} in {bound.span()}, "
                f"not {text!r}") from None
        problem = bound.problem(v)
        if problem is not None:
            raise argparse.ArgumentTypeError(problem)
        return v
    parse.__name__ = bound.name
    return parse


def parse_vec3(text: str, bound: Bound = bounds.CAMERA_COORDINATE) -> tuple[float, float, float]:
    """``x,y,z``: three numbers inside ``bound``."""
    try:
        v = tuple(bounds.float_text(c) for c in str(text).split(","))
    except ValueError:
        v = ()
    if len(v) != 3 or not all(bound.contains(c) for c in v):
        raise argparse.ArgumentTypeError(f"expected x,y,z each in {bound.span()}, not "
                                         f"{text!r}")
    return v


def parse_size_in(bound: Bound):
    """An argparse type for ``WxH`` with both sides inside ``bound``."""
    def parse(text: str) -> tuple[int, int]:
        try:
            w, h = (bounds.int_text(v, hex_ok=False) for v in str(text).lower().split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"size must be WxH, not {text!r}") from None
        if not (bound.contains(w) and bound.contains(h)):
            raise argparse.ArgumentTypeError(f"size {text!r}: each side must be in "
                                             f"{bound.span()}")
        return w, h
    parse.__name__ = "WxH"
    return parse


parse_seconds = bounded(bounds.SECONDS)
parse_fps = bounded(bounds.FPS)


def _script_effect(text: str) -> tuple[str, int]:
    return ("script", parse_did(text))


def _play_effect(text: str) -> tuple[str, tuple[int, str]]:
    """TYPE:INTENSITY; the intensity's text is kept so nan / inf reach the scenario as the
    contract spells them."""
    kind, sep, intensity = str(text).rpartition(":")
    if not sep or not kind:
        raise argparse.ArgumentTypeError(f"expected TYPE:INTENSITY, got {text!r}")
    number = parse_play_script(kind)
    parse_intensity(intensity)
    return ("play", (number, intensity))


_script_effect.__name__ = "DID"
_play_effect.__name__ = "TYPE:INTENSITY"


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dat", metavar="DAT", nargs="?", default=None,
                        help="a DAT file or a folder of them, the retail DAT set "
                             "(overrides the scenario's \"dat\")")
    sel = parser.add_mutually_exclusive_group(required=True)
    sel.add_argument("--scenario", metavar="FILE", help="a scenario JSON file")
    sel.add_argument("--setup", metavar="DID", type=parse_did, help="object 1's Setup")
    parser.add_argument("--table", metavar="DID", type=parse_did,
                        help="object 1's PhysicsScriptTable (with --setup)")
    parser.add_argument("--script", metavar="DID", dest="effects", type=_script_effect,
                        action="append", default=[],
                        help="play a PhysicsScript on object 1 at t = 0 (repeatable)")
    parser.add_argument("--play", metavar="TYPE:INTENSITY", dest="effects",
                        type=_play_effect, action="append", default=[],
                        help="play a typed effect on object 1 at t = 0 (repeatable)")
    parser.add_argument("--seconds", type=parse_seconds, default=None)
    parser.add_argument("--fps", type=parse_fps, default=None)
    parser.add_argument("--seed", type=parse_int, default=None, help="decimal or 0x hex")


def cli_events(args) -> list[dict]:
    """``--script`` / ``--play`` as scenario events at t = 0 on object 1, in typed order."""
    out = []
    for kind, value in args.effects:
        if kind == "script":
            out.append({"t": 0.0, "object": 1, "play_script": format_did(value)})
        else:
            out.append({"t": 0.0, "object": 1, "play": value[0], "intensity": value[1]})
    return out


def allow_negative_values(parser: argparse.ArgumentParser) -> None:
    """A value that starts with a minus and a digit (``--crop -1,0,5,5``, ``--target
    -2.5,0,1``) is an option's value, not an option: argparse takes anything starting with
    "-" but a plain negative number for an option ("expected one argument")."""
    parser._negative_number_matcher = re.compile(r"^-\.?[0-9][0-9.,eE+-]*$")


def usage_error(prog: str, message: str) -> int:
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def check_selection(args, prog: str) -> int | None:
    """Bad combinations argparse cannot express; returns 2 (after saying why) or None."""
    if args.scenario and args.table is not None:
        return usage_error(prog, "--table applies to --setup; the scenario names its tables")
    return None


def build_scenario(args):
    """The Scenario the selection options describe (docs/cli.md section 4 semantics)."""
    from viewer.sim.scenario import Scenario
    events = cli_events(args)
    if args.scenario:
        sc = Scenario.load(args.scenario)
        sc.events = Scenario.from_json({"events": events}).events + sc.events
    else:
        obj = {"id": 1, "setup": format_did(args.setup)}
        if args.table is not None:
            obj["table"] = format_did(args.table)
        sc = Scenario.from_json({"objects": [obj], "events": events})
    if args.seconds is not None:
        sc.seconds = args.seconds
    if args.fps is not None:
        sc.fps = args.fps
    if args.seed is not None:
        sc.seed = args.seed
    return sc


def dat_paths(args, scenario) -> list[str]:
    """The command-line DAT, else the scenario's (relative to the scenario file)."""
    return [args.dat] if args.dat else [str(p) for p in scenario.dat_paths()]
