"""``vfxviewer audit DAT_OR_FOLDER... [--json]`` (docs/cli.md section 9).

Checks the given DAT files (a folder means the DAT files in it) against what the retail
End-of-Retail client's DATs are known to hold (``viewer.dat.retail_facts``): record
identities, the projectile Setups and tables, the recall chain, the Hidden / UnHide pairs
and the CreateBlocking inventory. One line per check: ``PASS``, ``FAIL`` or ``MISSING``,
its name and, for FAIL / MISSING, what was found instead. Exit 0 when every check passes,
1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", metavar="DAT_OR_FOLDER", nargs="+",
                        help="DAT files, or folders whose DAT files are checked")
    parser.add_argument("--json", action="store_true",
                        help='print an array of {"check", "status", "detail"}')


def run(args: argparse.Namespace) -> int:
    from viewer.sim.audit import all_passed, audit

    checks = audit(args.paths)
    out = sys.stdout
    if args.json:
        json.dump([c.as_json() for c in checks], out, indent=1)
        out.write("\n")
    else:
        out.write("".join(c.line() + "\n" for c in checks))
    return 0 if all_passed(checks) else 1
