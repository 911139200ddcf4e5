"""Folders as DAT sets: wherever a DAT is taken, a folder means the retail DAT files in it.

A retail install keeps its records in four files (``RETAIL_DATS``): client_portal.dat
(Setups, scripts, textures...), client_cell_1.dat (landblocks), client_highres.dat (the
high-resolution textures, read first for the DIDs it holds: ``DatCollection``,
CLCache::GetDiskController) and client_local_English.dat (strings, UI). ``expand`` turns
the paths given into the files to open: a folder gives the members of the retail set it
holds (names matched without regard to case, as on Windows), in that order, then any other
``*.dat`` in it (sorted by name); a path that is not a folder is taken as it is (opening
it says what is wrong with it). Sub-folders are not searched.

``open_collection`` opens them as one ``DatCollection``. The members of the retail set a
folder lacks are not an error: the set's ``notes()`` name them, and the command line prints
each folder's note once per run (``set_announcer``); no DAT at all is one ``DatError``
naming the folder.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from viewer.dat.container import DatCollection, DatFile
from viewer.errors import DatError

#: the retail client's DAT files, in the order a folder's are opened
RETAIL_DATS = ("client_portal.dat", "client_cell_1.dat", "client_highres.dat",
               "client_local_English.dat")


class IncompleteDatSet(DatError):
    """A folder opened as a DAT set lacks members of the retail set (a notice: what was
    found still opens)."""


@dataclass(frozen=True)
class FolderSet:
    """What one folder given as a DAT held."""
    folder: Path
    found: tuple[str, ...]      # members of the retail set present (RETAIL_DATS spelling)
    missing: tuple[str, ...]    # members of the retail set absent
    others: tuple[str, ...]     # any other *.dat files (their own names)
    files: tuple[Path, ...]     # every file opened from it, in order

    def note(self) -> str:
        """One line: which members were found and which were not."""
        found = ", ".join(self.found + self.others) or "no DAT file"
        return (f"found {found}; missing {', '.join(self.missing)}" if self.missing
                else f"found {found}")

    def notice(self) -> IncompleteDatSet:
        return IncompleteDatSet(self.note(), file=str(self.folder))


@dataclass
class DatSet:
    """The files the paths given stand for, and what each folder among them held."""
    files: list = field(default_factory=list)          # Path or DatFile, in order
    folders: list[FolderSet] = field(default_factory=list)

    def incomplete(self) -> list[FolderSet]:
        """The folders that lack members of the retail set."""
        return [f for f in self.folders if f.missing]

    def notes(self) -> list[str]:
        """One line per folder lacking members of the retail set, naming the folder."""
        return [str(f.notice()) for f in self.incomplete()]


def read_folder(folder: Path) -> FolderSet:
    """The DAT files of one folder: the retail members present, then the other ``*.dat``
    (regular files only: a named pipe or a device called ``x.dat`` is not opened)."""
    try:
        names = {p.name.lower(): p for p in folder.iterdir()
                 if p.suffix.lower() == ".dat" and p.is_file()}
    except OSError as exc:
        raise DatError(f"cannot read folder: {exc.strerror or exc}", file=str(folder)) from exc
    found = tuple(m for m in RETAIL_DATS if m.lower() in names)
    missing = tuple(m for m in RETAIL_DATS if m.lower() not in names)
    retail = {m.lower() for m in RETAIL_DATS}
    other_keys = sorted(k for k in names if k not in retail)
    files = tuple(names[m.lower()] for m in found) + tuple(names[k] for k in other_keys)
    return FolderSet(folder, found, missing, tuple(names[k].name for k in other_keys), files)


def expand(paths: Iterable[str | os.PathLike | DatFile]) -> DatSet:
    """The files ``paths`` stand for (a folder: its DAT set; a ``DatFile`` or any other
    path: itself)."""
    out = DatSet()
    for p in paths:
        if isinstance(p, DatFile):
            out.files.append(p)
            continue
        path = Path(p)
        if path.is_dir():
            folder = read_folder(path)
            out.folders.append(folder)
            out.files.extend(folder.files)
        else:
            out.files.append(path)
    return out


def no_dat_error(dat_set: DatSet, paths: list) -> DatError:
    """The one line for paths that hold no DAT file at all."""
    where = ", ".join(str(f.folder) for f in dat_set.folders) or ", ".join(map(str, paths))
    return DatError(f"no DAT file in folder (looked for {', '.join(RETAIL_DATS)} and any "
                    f"other *.dat)", file=where)


# The command line prints each incomplete folder's note once per run on stderr; the GUI
# shows the set's notes itself. Library use says nothing.
_announce: Callable[[str], None] | None = None
_announced: set[str] = set()


def set_announcer(sink: Callable[[str], None] | None) -> None:
    """Where ``open_collection`` says which members of the retail set a folder lacks
    (``None``: nowhere); each folder is named once per process."""
    global _announce
    _announce = sink
    _announced.clear()


def announce(dat_set: DatSet) -> None:
    """Name each incomplete folder of ``dat_set`` where ``set_announcer`` says (once)."""
    if _announce is None:
        return
    for folder in dat_set.incomplete():
        key = os.path.normcase(os.path.abspath(folder.folder))
        if key not in _announced:
            _announced.add(key)
            _announce(str(folder.notice()))


def open_collection(paths: Iterable[str | os.PathLike | DatFile], *,
                    highres_first: bool = True) -> tuple[DatCollection, DatSet]:
    """The DATs ``paths`` stand for, opened as one collection with retail's lookup order,
    and what was found. A DatError when nothing is left to open (a folder without a DAT)
    or a file cannot be opened; no paths at all give an empty collection."""
    paths = list(paths)
    dat_set = expand(paths)
    if not dat_set.files and dat_set.folders:
        raise no_dat_error(dat_set, paths)
    collection = DatCollection(dat_set.files, highres_first=highres_first)
    announce(dat_set)
    return collection, dat_set


# --------------------------------------------------------------------------------------------
# Where retail installs usually are (offered by the GUI's Open DAT dialog when they exist)
# --------------------------------------------------------------------------------------------
INSTALL_TAIL = ("Turbine", "Asheron's Call")
_PROGRAM_FILES = ("Program Files (x86)", "Program Files")


def install_candidates(platform: str, environ: Mapping[str, str], home: Path) -> list[Path]:
    """The usual places of a retail install on this platform, whether they exist or not:
    on Windows ``C:\\Turbine\\Asheron's Call`` (the installer's default) and the same under
    ``Program Files (x86)`` / ``Program Files``; elsewhere the same inside a Wine prefix
    (``$WINEPREFIX``, ``~/.wine``) and, on macOS, CrossOver's bottles."""
    if platform.startswith(("win32", "cygwin")):
        drive = environ.get("SystemDrive", "C:") + "\\"
        roots = [PureWindowsPath(drive)]
        roots += [PureWindowsPath(environ.get(var) or PureWindowsPath(drive, name))
                  for var, name in (("ProgramFiles(x86)", _PROGRAM_FILES[0]),
                                    ("ProgramFiles", _PROGRAM_FILES[1]))]
        return [Path(str(r.joinpath(*INSTALL_TAIL))) for r in dict.fromkeys(roots)]
    prefixes = [Path(environ["WINEPREFIX"])] if environ.get("WINEPREFIX") else []
    prefixes.append(home / ".wine")
    if platform == "darwin":
        bottles = home / "Library" / "Application Support" / "CrossOver" / "Bottles"
        with contextlib.suppress(OSError):
            prefixes += sorted(p for p in bottles.iterdir() if p.is_dir())
    out: list[Path] = []
    for prefix in dict.fromkeys(prefixes):
        drive_c = prefix / "drive_c"
        out.append(drive_c.joinpath(*INSTALL_TAIL))
        out += [drive_c.joinpath(name, *INSTALL_TAIL) for name in _PROGRAM_FILES]
    return out


def install_folders(platform: str | None = None, environ: Mapping[str, str] | None = None,
                    home: Path | None = None) -> list[Path]:
    """The usual install places (``install_candidates``) that exist as folders here."""
    import sys
    found = install_candidates(sys.platform if platform is None else platform,
                               os.environ if environ is None else environ,
                               Path.home() if home is None else home)
    return [p for p in found if p.is_dir()]
