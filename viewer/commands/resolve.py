"""``vfxviewer resolve DAT TABLE_DID PLAYSCRIPT INTENSITY`` (contracts/cli.md section 3).

Resolves a typed effect through a PhysicsScriptTable exactly as retail does (seed 001
section 5, PhysicsScriptTableData::GetScript 0x00521A20): prints the script DID or
``none``.
"""

from __future__ import annotations

import argparse
import re
import sys

from viewer.errors import ScenarioError


def _did(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a DID: {text!r}") from None
    if not 0 <= v <= 0xFFFFFFFF:
        raise argparse.ArgumentTypeError(f"DID out of range: {text!r}")
    return v


def _intensity(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a float: {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # "-inf" (and "-nan") are intensities here, not options
    parser._negative_number_matcher = re.compile(r"^-(\d+|\d*\.\d+|inf(inity)?|nan)$",
                                                 re.IGNORECASE)
    parser.add_argument("dat", metavar="DAT", help="a DAT file")
    parser.add_argument("table", metavar="TABLE_DID", type=_did, help="PhysicsScriptTable DID")
    parser.add_argument("play_script", metavar="PLAYSCRIPT",
                        help="PlayScript name (Launch, Hidden, ...) or number")
    parser.add_argument("intensity", metavar="INTENSITY", type=_intensity,
                        help="float; nan, inf and -inf accepted")


def run(args: argparse.Namespace) -> int:
    from viewer.dat.database import AssetDatabase
    from viewer.sim.script_table import get_script, play_script_number

    try:
        script_type = play_script_number(args.play_script)
    except ValueError as err:
        print(f"vfxviewer resolve: error: {err}", file=sys.stderr)
        return 2
    with AssetDatabase(args.dat) as db:
        table = db.get(args.table)
        if not hasattr(table, "entries") or not hasattr(table, "get"):
            raise ScenarioError("not a PhysicsScriptTable", file=args.dat, did=args.table)
        did = get_script(table, script_type, args.intensity)
    print("none" if not did else f"0x{did:08X}")
    return 0
