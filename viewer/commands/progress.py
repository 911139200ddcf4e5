"""The progress bar of a long command (``dat verify``, ``xref``'s index, ``gallery``): a tqdm
bar on stderr when stderr is a terminal, else nothing at all (a pipe or a log file gets no
progress output)."""

from __future__ import annotations

import sys


def terminal_bar(desc: str, unit: str, total: int = 0):
    """A tqdm bar on stderr when it is a terminal (``leave=False``: it is gone when the
    command ends), else None."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=total, unit=unit, file=sys.stderr, desc=desc, leave=False,
                dynamic_ncols=True)
