"""``vfxviewer resolve DAT TABLE_DID PLAYSCRIPT INTENSITY`` (docs/cli.md section 3).

Resolves a typed effect through a PhysicsScriptTable exactly as retail does
(PhysicsScriptTable::GetScript 0x00521E40, PhysicsScriptTableData::GetScript 0x00521A20):
prints the script DID or ``none``.
"""

from __future__ import annotations

import argparse
import re

from viewer.commands.dat_args import DAT_HELP
from viewer.commands.selection import parse_did as _did
from viewer.commands.selection import parse_intensity as _intensity
from viewer.commands.selection import parse_play_script
from viewer.errors import format_did


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # "-inf" (and "-nan") are intensities here, not options
    parser._negative_number_matcher = re.compile(r"^-(\d+|\d*\.\d+|inf(inity)?|nan)$",
                                                 re.IGNORECASE)
    parser.add_argument("dat", metavar="DAT", help=DAT_HELP)
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
        table = db.physics_script_table(args.table)   # "DID X is a Y, not a ..." otherwise
        did = get_script(table, script_type, args.intensity)
    print("none" if not did else format_did(did))
    return 0
