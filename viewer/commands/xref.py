"""``vfxviewer xref DAT... DID [--json]`` (docs/cli.md section 11): what a record uses and
what uses it, across the DATs given (a folder means the retail DAT set in it).

The cross-reference index (``viewer.dat.xref``) is built on the first run over these DATs
(a progress bar on a terminal) and cached in the user's cache folder; later runs load it.
Plain output: a ``uses`` line, one line per record it names, a ``used by`` line, one line
per record naming it, each ``0x%08X TYPE how``. Exit 1 naming the DID when no DAT holds it,
or naming file, DID and offset when its own record cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys

from viewer.commands.dat_args import DATS_HELP, dat_files
from viewer.commands.dat_show import parse_did
from viewer.errors import DatError

#: at most this many unreadable records are named on stderr (then a count)
ERRORS_SHOWN = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dats", metavar="DAT", nargs="+", help=DATS_HELP)
    parser.add_argument("did", metavar="DID", type=parse_did, help="0x... or decimal")
    parser.add_argument("--json", action="store_true",
                        help='print {"did", "type", "uses": [...], "used_by": [...]}')
    parser.add_argument("--no-cache", action="store_true",
                        help="build the index in memory: neither read nor write the cache")


def load_index(collection, cache):
    """``viewer.dat.xref.load_or_build`` over ``collection`` (``cache``: the cache folder,
    or None to build in memory) with a progress bar on a terminal: ``(index, cached)``.
    Shared by ``xref`` and ``gallery``."""
    from viewer.commands.progress import terminal_bar
    from viewer.dat.xref import load_or_build
    bar = terminal_bar("xref index", "rec")
    step = None
    if bar is not None:
        def step(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()
    try:
        return load_or_build(collection, cache, progress=step)
    finally:
        if bar is not None:
            bar.close()


def run(args: argparse.Namespace) -> int:
    from viewer.dat.container import DatCollection
    from viewer.dat.names import type_name
    from viewer.userdirs import cache_dir

    with DatCollection(dat_files(args.dats)) as collection:
        if args.did not in collection:
            raise DatError("DID not found in any open DAT", file=collection.name, did=args.did)
        index, _cached = load_index(collection, None if args.no_cache else cache_dir())
    own = [e for e in index.errors if e.did == args.did]
    if own:
        raise DatError(own[0].message, file=own[0].file, did=own[0].did, offset=own[0].offset)
    for e in index.errors[:ERRORS_SHOWN]:
        print(f"vfxviewer: warning: not indexed: {e.line()}", file=sys.stderr)
    if len(index.errors) > ERRORS_SHOWN:
        print(f"vfxviewer: warning: {len(index.errors) - ERRORS_SHOWN} more records not "
              f"indexed", file=sys.stderr)
    uses, used_by = index.uses(args.did), index.used_by(args.did)
    out = sys.stdout
    if args.json:
        json.dump({"did": f"0x{args.did:08X}", "type": type_name(args.did),
                   "uses": [r.as_json() for r in uses],
                   "used_by": [r.as_json() for r in used_by]}, out)
        out.write("\n")
        return 0
    out.write("uses\n")
    out.writelines(r.line() + "\n" for r in uses)
    out.write("used by\n")
    out.writelines(r.line() + "\n" for r in used_by)
    return 0
