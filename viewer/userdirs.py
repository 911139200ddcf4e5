"""Where the viewer keeps the user's files on each OS (through platformdirs).

| what | Linux (and other Unix) | Windows | macOS |
|---|---|---|---|
| settings: ``imgui.ini``, ``recent.json``, ``recent_dirs.json``, ``window.json`` (the window's size and place per screen) | ``$XDG_CONFIG_HOME/vfxviewer``, else ``~/.config/vfxviewer`` | ``%APPDATA%\\vfxviewer`` | ``~/Library/Application Support/vfxviewer`` |
| Save As's first folder (a scenario from the shipped library or a read-only place) | ``$XDG_DOCUMENTS_DIR``, else ``~/Documents`` | the Documents folder | ``~/Documents`` |
| cache (numba's compiled kernels: ``numba/``) | ``$XDG_CACHE_HOME/vfxviewer``, else ``~/.cache/vfxviewer`` | ``%LOCALAPPDATA%\\vfxviewer\\Cache`` | ``~/Library/Caches/vfxviewer`` |

Folders are made when something is written there, not here. ``platform`` arguments default
to ``sys.platform``; tests pass another to see that OS's choice.
"""  # noqa: E501 - the table

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping
from pathlib import Path

APP_DIR_NAME = "vfxviewer"
NUMBA_CACHE_ENV = "NUMBA_CACHE_DIR"


def _dirs(platform: str | None):
    platform = sys.platform if platform is None else platform
    if platform.startswith(("win32", "cygwin")):
        from platformdirs.windows import Windows as cls
    elif platform == "darwin":
        from platformdirs.macos import MacOS as cls
    else:
        from platformdirs.unix import Unix as cls
    # roaming: Windows settings follow the user's profile (%APPDATA%, not %LOCALAPPDATA%)
    return cls(appname=APP_DIR_NAME, appauthor=False, roaming=True)


def config_dir(platform: str | None = None) -> Path:
    """The user's settings folder (see the table above)."""
    return Path(_dirs(platform).user_config_dir)


def cache_dir(platform: str | None = None) -> Path:
    """The user's cache folder (see the table above)."""
    return Path(_dirs(platform).user_cache_dir)


def documents_dir(platform: str | None = None) -> Path:
    """The user's documents folder (see the table above): where Save As starts when the
    scenario cannot be saved where it came from."""
    return Path(_dirs(platform).user_documents_dir)


def numba_cache_dir(platform: str | None = None) -> Path:
    return cache_dir(platform) / "numba"


def use_numba_cache_dir(environ: MutableMapping[str, str] | None = None) -> None:
    """Points numba's on-disk cache at ``numba_cache_dir()`` unless ``NUMBA_CACHE_DIR`` is
    set already (the user's choice wins). Called before numba is imported (numba reads the
    variable on import). Where that folder cannot be written numba falls back to a
    ``__pycache__`` beside the module, then its own user folder, then memory."""
    environ = os.environ if environ is None else environ
    if not environ.get(NUMBA_CACHE_ENV):
        environ[NUMBA_CACHE_ENV] = str(numba_cache_dir())
