"""``vfxviewer dat show DAT DID`` (docs/cli.md section 2): one record as JSON."""

from __future__ import annotations

import argparse
import sys

from viewer import bounds
from viewer.commands.dat_args import DAT_HELP, open_dats
from viewer.commands.selection import bounded, parse_int


def parse_did(text: str) -> int:
    v = parse_int(text)
    if not 0 <= v <= 0xFFFFFFFF:
        raise argparse.ArgumentTypeError(f"DID out of range: {text!r}")
    return v


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dat", metavar="DAT", help=DAT_HELP)
    parser.add_argument("did", metavar="DID", type=parse_did, help="0x... or decimal")
    parser.add_argument("--indent", type=bounded(bounds.INDENT, integer=True), default=None,
                        help=f"pretty-print ({bounds.INDENT.span()})")


def run(args: argparse.Namespace) -> int:
    from viewer.dat import records as R
    from viewer.dat.jsonable import dumps, record_json

    with open_dats([args.dat])[0] as dat:
        data = dat.read(args.did)
        record = R.decode(args.did, data, file=dat.file_of(args.did).name)
    sys.stdout.write(dumps(record_json(args.did, record), indent=args.indent) + "\n")
    return 0
