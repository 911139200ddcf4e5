"""The DAT arguments of every command: a DAT file, or a folder standing for the retail DAT
set in it (``viewer.dat.dat_set``: client_portal.dat, client_cell_1.dat, client_highres.dat,
client_local_English.dat and any other ``*.dat``). The members of the retail set a folder
lacks are named once on stderr (``say_dat_set_notes``, set up by ``viewer.cli.main``); no
DAT at all is one line, exit 1."""

from __future__ import annotations

import sys

DAT_HELP = ("a DAT file, or a folder: the retail DAT files in it (client_portal.dat, "
            "client_cell_1.dat, client_highres.dat, client_local_English.dat, any other .dat)")
DATS_HELP = "DAT files, or folders: the retail DAT files in each"


def say_dat_set_notes(on: bool = True) -> None:
    """From now on (until called with ``False``), each folder opened as a DAT set that lacks
    members of the retail set is named once on stderr (``vfxviewer: FOLDER: found ...;
    missing ...``)."""
    from viewer.dat import dat_set
    dat_set.set_announcer(_to_stderr if on else None)


def _to_stderr(line: str) -> None:
    print(f"vfxviewer: {line}", file=sys.stderr)


def open_dats(paths):
    """``viewer.dat.dat_set.open_collection(paths)``: the collection and what was found."""
    from viewer.dat.dat_set import open_collection
    return open_collection(paths)


def dat_files(paths) -> list:
    """The files ``paths`` stand for (folders expanded), the incomplete sets named on
    stderr; a DatError when none is left."""
    from viewer.dat import dat_set
    found = dat_set.expand(paths)
    if not found.files:
        raise dat_set.no_dat_error(found, list(paths))
    dat_set.announce(found)
    return found.files
