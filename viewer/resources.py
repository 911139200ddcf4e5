"""Where the viewer's own files are: the GLSL shaders and the synthetic asset library.

The repository keeps them in its top-level ``shaders/`` and ``assets_synthetic/`` folders;
a wheel carries the same files as the package data of ``viewer.shaders`` and
``viewer.assets_synthetic`` (setup.py maps the folders at build time). This module is the
one place that finds them: through ``importlib.resources`` first (a wheel or an editable
install: both expose the folders as those packages), then, when the package runs straight
from a checkout (``PYTHONPATH=.``, where ``viewer.shaders`` is not importable), from the
checkout's folders beside ``viewer/``.

A file that is in neither place is a :class:`ResourceError`: one line naming the file and
what is wrong, exit status 1 from the command line -- never a traceback or a silent None.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from viewer.errors import ViewerError

#: package name -> the repository folder it is built from
_FOLDERS = {"viewer.shaders": "shaders", "viewer.assets_synthetic": "assets_synthetic"}
#: the folder above the package: the repository root when running from a checkout
CHECKOUT = Path(__file__).resolve().parent.parent


class ResourceError(ViewerError):
    """A file that ships with the viewer is missing (a broken install or checkout)."""


def _folder(package: str) -> Path:
    try:
        root = importlib.resources.files(package)
    except ModuleNotFoundError:
        root = None
    if root is not None:
        if isinstance(root, Path) and root.is_dir():
            return root
        # a zipped install: the DAT reader memory-maps files, so the data must be on disk
        raise ResourceError(f"{package} is not installed as files on disk ({root})")
    checkout = CHECKOUT / _FOLDERS[package]
    if checkout.is_dir():
        return checkout
    raise ResourceError(f"the viewer's {_FOLDERS[package]} are missing: no package "
                        f"{package} and no folder {checkout} (reinstall the viewer)")


def shaders_dir() -> Path:
    """The folder of the GLSL sources."""
    return _folder("viewer.shaders")


def assets_dir() -> Path:
    """The folder of the synthetic library: the DAT, MANIFEST.md and the scenarios."""
    return _folder("viewer.assets_synthetic")


def asset_path(name: str) -> Path:
    """A file of the synthetic library; ResourceError when it is not there."""
    return _existing(assets_dir() / name)


def shader_path(name: str) -> Path:
    """A GLSL file; ResourceError when it is not there."""
    return _existing(shaders_dir() / name)


def _existing(path: Path) -> Path:
    if not path.is_file():
        raise ResourceError("missing from the viewer's installed files (reinstall the "
                            "viewer)", file=str(path))
    return path
