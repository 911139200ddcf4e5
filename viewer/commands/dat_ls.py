"""``vfxviewer dat ls DAT [--type 0xNN] [--json]`` (docs/cli.md section 1)."""

from __future__ import annotations

import argparse
import json
import sys

from viewer.commands.dat_args import DAT_HELP, open_dats
from viewer.commands.selection import parse_int


def parse_type(text: str) -> int:
    v = parse_int(text)
    if not 0 <= v <= 0xFF:
        raise argparse.ArgumentTypeError(f"type must be a byte 0x00..0xFF: {text!r}")
    return v


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dat", metavar="DAT", help=DAT_HELP)
    parser.add_argument("--type", type=parse_type, default=None, metavar="0xNN",
                        help="keep only DIDs whose top byte is this")
    parser.add_argument("--json", action="store_true", help="print a JSON array")


def run(args: argparse.Namespace) -> int:
    from viewer.errors import format_did

    with open_dats([args.dat])[0] as dat:
        rows = [(e.did, e.size) for e in dat.entries()
                if args.type is None or (e.did >> 24) == args.type]
    out = sys.stdout
    if args.json:
        json.dump([{"did": format_did(d), "size": s} for d, s in rows], out)
        out.write("\n")
    else:
        out.write("".join(f"{format_did(d)} {s}\n" for d, s in rows))
    return 0
