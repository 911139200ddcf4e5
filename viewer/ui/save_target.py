"""Where Save may write a scenario, and where Save As starts (GL-free).

Save never writes into what ships with the viewer (the synthetic library, the package's
own folder: inside site-packages when installed) nor over a read-only file: such a
scenario is saved as a new file, in the folder the user saved in last, else the user's
documents folder (``viewer.userdirs.documents_dir``). A missing folder is made when the
user saves there; one that cannot be made is one line saying why.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from viewer import userdirs
from viewer.errors import OutputError

DEFAULT_NAME = "scenario.json"


def shipped_folders() -> list[Path]:
    """The folders that ship with the viewer: the package, the synthetic library as the
    resources find it now, where the default scenario was found at start-up, and a
    checkout's ``assets_synthetic/`` (each one counts, should they ever differ)."""
    from viewer import resources, synthetic

    out = [Path(__file__).resolve().parent.parent,   # the viewer package
           Path(synthetic.ASSETS_DIR).resolve(),
           (resources.CHECKOUT / "assets_synthetic").resolve()]
    with contextlib.suppress(resources.ResourceError):   # a broken install: nothing there
        out.append(resources.assets_dir().resolve())
    return out


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def shipped(path) -> bool:
    """``path`` is (or would be) inside a folder that ships with the viewer."""
    p = Path(os.path.abspath(Path(path).expanduser())).resolve()
    return any(_inside(p, folder) for folder in shipped_folders())


def refusal(path) -> str | None:
    """Why Save must not write ``path`` (None: it may): it ships with the viewer, it is
    read-only, or its nearest existing folder is a file or cannot be written."""
    p = Path(os.path.abspath(Path(path).expanduser()))
    if shipped(p):
        return f"{p.name} ships with the viewer (its library is read-only)"
    if p.exists():
        if p.is_dir():
            return f"{p} is a folder"
        return None if os.access(p, os.W_OK) else f"{p.name} is read-only"
    folder = p.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} cannot be written"
    return None


def save_as_start(scenario_path, folders=()) -> Path:
    """Where Save As starts for a scenario read from ``scenario_path`` (None: untitled):
    its name in the first of ``folders`` (the folders used last, newest first) Save may
    write, else in the user's documents folder; a name already taken there gets a number
    (``default.scenario (2).json``), so nothing is replaced without asking."""
    name = Path(scenario_path).name if scenario_path else DEFAULT_NAME
    folder = next((Path(f) for f in folders if refusal(Path(f) / name) is None),
                  userdirs.documents_dir())
    return free_name(folder / name)


def free_name(path: Path) -> Path:
    """``path``, or the first ``stem (N).suffix`` beside it that does not exist."""
    if not path.exists():
        return path
    stem, suffix = (path.name[:-5], ".json") if path.name.endswith(".json") else \
        (path.stem, path.suffix)
    for n in range(2, 1000):
        candidate = path.with_name(f"{stem} ({n}){suffix}")
        if not candidate.exists():
            return candidate
    return path


def make_folder(path) -> Path | None:
    """Make the missing folders above ``path`` (the folder made, or None when it was
    there); one OutputError in plain words when they cannot be made."""
    folder = Path(path).expanduser().parent
    if folder.is_dir():
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"cannot make the folder {folder}: {err.strerror or err}",
                          file=str(path)) from None
    return folder
