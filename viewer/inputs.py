"""Reading an input file whole, with a byte cap.

Scenario files, ``--actions`` files and packet captures are read into memory before they are
parsed; each kind has a documented ceiling, so a hostile input (``/dev/zero``, a named pipe
that never ends, a sparse file of terabytes) is refused with the contract's one-line error
instead of reading until memory runs out. A regular file is measured before it is read; any
other file (a pipe, a device) is read up to the cap plus one byte.
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


def read_capped(path, limit: int, error: type, what: str) -> bytes:
    """The bytes of ``path``; ``error`` (a ViewerError type) naming the file when it cannot
    be read or holds more than ``limit`` bytes."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if stat.S_ISREG(st.st_mode) and st.st_size > limit:
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
