"""Where a command writes (``--out``, ``--csv``, ``--json``, ``--scenario-out``, ...): checked
before any work starts, so a run that cannot save its result fails at once with one line
and leaves nothing behind.

An empty path is bad usage (exit 2: it would write into the working folder); a path under a
file, into a folder that cannot be written, or onto an existing folder where a file is meant
is an ``OutputError`` (exit 1) naming the path. What only the write itself can tell (a full
device such as ``/dev/full``) is caught where it happens and reported the same way.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from viewer.errors import OutputError


def check_output(path: str, option: str, *, folder: bool = False) -> Path:
    """``path`` as a Path after checking it can be written: a file (``folder`` False) or a
    folder that will be created (``folder`` True). Nothing is left behind: an existing file
    is opened for appending and closed unchanged, a new one is probed with an anonymous
    temporary file in the nearest existing folder. Raises OutputError."""
    if not str(path).strip():
        raise OutputError(f"{option} is empty: give a file or folder to write")
    p = Path(path)
    try:
        if p.exists():
            if folder:
                if not p.is_dir():
                    raise OutputError(f"{option}: exists and is not a folder", file=str(p))
                _probe(p)
            elif p.is_dir():
                raise OutputError(f"{option}: is a folder, not a file", file=str(p))
            elif p.is_fifo():  # opening it would wait for a reader forever
                raise OutputError(f"{option}: is a named pipe, not a file", file=str(p))
            else:
                with open(p, "ab"):
                    pass
            return p
        parent = p.absolute().parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            raise OutputError(f"{option}: {parent} is not a folder", file=str(p))
        _probe(parent)
    except OSError as err:
        raise OutputError(f"{option}: cannot write there: {err.strerror or err}",
                          file=str(p)) from None
    return p


@contextmanager
def writing(path, option: str):
    """Around a write: an OSError (a full device, a folder removed meanwhile) becomes the
    one-line OutputError naming ``path``."""
    try:
        yield
    except OSError as err:
        raise OutputError(f"{option}: cannot write: {err.strerror or err}",
                          file=str(path)) from None


@contextmanager
def written(path, option: str, mode: str = "w", **options):
    """``open(path, mode)`` for a whole output written at once (``--csv``, ``--json``):
    under its hidden partial twin (viewer.media.partial_path), renamed to ``path`` when the
    block ends, removed when it fails or is interrupted; an OSError is the one-line
    OutputError naming ``path``."""
    from viewer.media import replacing
    with writing(path, option), replacing(Path(path)) as tmp, open(tmp, mode, **options) as fh:
        yield fh


def _probe(folder: Path) -> None:
    import tempfile
    with tempfile.TemporaryFile(dir=folder):
        pass


def nonempty_path(text: str) -> str:
    """An argparse type for an output path: empty text is bad usage (it would name the
    working folder)."""
    import argparse
    if not str(text).strip():
        raise argparse.ArgumentTypeError("an output path cannot be empty")
    return text


nonempty_path.__name__ = "path"
