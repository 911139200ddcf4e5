"""Reading an input file whole, with a byte cap.

Scenario files, ``--actions`` files and packet captures are read into memory before they are
parsed; each kind has a documented ceiling, so a hostile input (a sparse file of terabytes,
a file that keeps growing) is refused with the contract's one-line error instead of reading
until memory runs out. A regular file is measured before it is read, and read up to the cap
plus one byte (it may grow while being read).

Only regular files are inputs: ``open_input`` opens without blocking and refuses a named
pipe (which would wait for a writer forever), a device (``/dev/zero``), a folder or a socket
with the one-line input failure, before a byte is read. Every file the viewer reads (DATs,
scenarios, actions, captures) is opened through it.
"""

from __future__ import annotations

import os
import stat

#: Scenario JSON (docs/cli.md section 4): a scenario of thousands of objects and events is a
#: few hundred KiB.
SCENARIO_MAX_BYTES = 16 << 20
#: ``--actions`` JSON (``vfxviewer open`` / ``screenshot``).
ACTIONS_MAX_BYTES = 16 << 20
#: A pcap / pcapng capture (``vfxviewer replay``): about seven hours of an Asheron's Call
#: session.
CAPTURE_MAX_BYTES = 256 << 20


_NOT_FILES = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
              (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
              (stat.S_ISSOCK, "a socket"))


#: ``os.open`` flags of an input: read-only, never waiting for a writer (POSIX O_NONBLOCK:
#: a named pipe; Windows has no such flag and no such files at ordinary paths), binary
#: (Windows' O_BINARY: without it the C runtime reads text mode and turns CR LF into LF),
#: not inherited by child processes. Flags a platform lacks are 0.
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
               | getattr(os, "O_CLOEXEC", 0))


def not_a_file(mode: int) -> str | None:
    """What a file of this ``st_mode`` is when it is not a regular file (``"a named pipe"``),
    else None."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in _NOT_FILES:
        if test(mode):
            return kind
    return "not a regular file"


def open_input(path, error: type, what: str, name: str | None = None):
    """``path`` opened for reading (binary), or ``error`` (a ViewerError type) naming it (as
    ``name``, default the path): it cannot be opened, or it is not a regular file. Opening
    never blocks: a named pipe without a writer is refused at once instead of waiting."""
    name = str(path) if name is None else name
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError) as exc:
        raise error(f"cannot read {what}: {getattr(exc, 'strerror', None) or exc}",
                    file=name) from None
    try:
        kind = not_a_file(os.fstat(fd).st_mode)
    except OSError as exc:
        os.close(fd)
        raise error(f"cannot read {what}: {exc.strerror or exc}", file=name) from None
    if kind is not None:
        os.close(fd)
        raise error(f"{what} is {kind}, not a file", file=name)
    return os.fdopen(fd, "rb")


def refuse_non_file(path, error: type, what: str) -> None:
    """For inputs another library opens by path (a recording, a picture): a named pipe, a
    device or a socket at ``path`` is ``error`` naming it, as ``open_input`` says it, before
    it is opened; a folder passes (a folder of images), an absent path is left to the
    opener."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    kind = None if stat.S_ISDIR(mode) else not_a_file(mode)
    if kind is not None:
        raise error(f"{what} is {kind}, not a file", file=str(path))


def read_capped(path, limit: int, error: type, what: str) -> bytes:
    """The bytes of ``path``; ``error`` (a ViewerError type) naming the file when it cannot
    be read, is not a regular file (``open_input``) or holds more than ``limit`` bytes."""
    name = str(path)
    fh = open_input(path, error, what)
    try:
        with fh:
            st = os.fstat(fh.fileno())
            if st.st_size > limit:
                raise error(f"{what} is {st.st_size} bytes, more than the {limit} accepted",
                            file=name)
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read {what}: {exc.strerror or exc}", file=name) from None
    if len(data) > limit:
        raise error(f"{what} holds more than the {limit} bytes accepted", file=name,
                    offset=limit)
    return data


def read_text_capped(path, limit: int, error: type, what: str) -> str:
    """``read_capped`` decoded as UTF-8; bytes that are not UTF-8 are ``error`` with the
    offset of the first bad byte."""
    data = read_capped(path, limit, error, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{what} is not UTF-8 text", file=str(path), offset=exc.start) from None
