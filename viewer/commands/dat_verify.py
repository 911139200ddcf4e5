"""``vfxviewer dat verify DAT... [--type 0xNN] [--json]`` (docs/cli.md section 10).

Decodes every record and accounts for every byte (``viewer.dat.verify``). While it runs, a
progress bar goes to stderr when stderr is a terminal. Then, per record type: count, ok,
failed (and skipped: types the viewer has no codec for); then one line per failure naming
file, DID and byte offset. Exit 0 when nothing failed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys

from viewer.commands.dat_args import DATS_HELP, dat_files
from viewer.commands.dat_ls import parse_type


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dats", metavar="DAT", nargs="+", help=DATS_HELP)
    parser.add_argument("--type", type=parse_type, default=None, metavar="0xNN",
                        help="verify only DIDs whose top byte is this")
    parser.add_argument("--json", action="store_true",
                        help='print {"types": [...], "failures": [...]}')


def _progress_bar(args: argparse.Namespace):
    """A tqdm bar on a terminal, else None (no progress output at all)."""
    if not sys.stderr.isatty():
        return None
    from viewer.commands.progress import terminal_bar
    from viewer.dat.verify import count_entries
    return terminal_bar("dat verify", "rec",
                        sum(count_entries(p, args.type) for p in args.dats))


def run(args: argparse.Namespace) -> int:
    from viewer.dat.verify import verify

    args.dats = [str(f) for f in dat_files(args.dats)]   # folders: their DAT sets
    bar = _progress_bar(args)
    try:
        report = verify(args.dats, type_filter=args.type,
                        progress=None if bar is None else (lambda n, _b: bar.update(n)))
    finally:
        if bar is not None:
            bar.close()
    out = sys.stdout
    if args.json:
        json.dump(report.as_json(), out)
        out.write("\n")
    else:
        for top in sorted(report.types):
            t = report.types[top]
            extra = f"  skipped {t.skipped} (no codec)" if t.skipped else ""
            out.write(f"0x{top:02X} {t.name:<20} count {t.count}  decoded {t.ok}  "
                      f"failed {t.failed}{extra}\n")
        for f in report.failures:
            out.write(f"FAIL {f.line()}\n")
        out.write(f"{report.records} records, {report.bytes} bytes, "
                  f"{len(report.failures)} failed\n")
    return 0 if report.ok else 1
