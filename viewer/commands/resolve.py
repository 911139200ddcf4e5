"""``vfxviewer resolve DAT TABLE_DID PLAYSCRIPT INTENSITY`` (contracts/cli.md section 3).

Resolves a typed effect through a PhysicsScriptTable exactly as retail does (seed 001
section 5, PhysicsScriptTableData::GetScript 0x00521A20): prints the script DID or
``none``.
"""

from __future__ import annotations

import argparse
import re

from viewer.commands.dat_ls import parse_int
from viewer.errors import ScenarioError


def _did(text: str) -> int:
    """Decimal or 0x hex (contract conventions)."""
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
    if text[:1].isdigit() or text[:1] in "+-":
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
    parser.add_argument("play_script", metavar="PLAYSCRIPT", type=parse_play_script,
                        help="PlayScript name (Launch, Hidden, ...) or number")
    parser.add_argument("intensity", metavar="INTENSITY", type=_intensity,
                        help="float; nan, inf and -inf accepted")


def run(args: argparse.Namespace) -> int:
    from viewer.dat.database import AssetDatabase
    from viewer.sim.script_table import get_script

    script_type = args.play_script
    with AssetDatabase(args.dat) as db:
        table = db.get(args.table)
        if not hasattr(table, "entries") or not hasattr(table, "get"):
            raise ScenarioError("not a PhysicsScriptTable", file=args.dat, did=args.table)
        did = get_script(table, script_type, args.intensity)
    print("none" if not did else f"0x{did:08X}")
    return 0
