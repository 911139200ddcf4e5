"""Interrupts and termination of a command: Ctrl-C (SIGINT) and SIGTERM end a command with
one line on stderr and the shell's status for the signal (130, 143), after every output
half written has been removed.

Both signals become exceptions in the main thread (SIGINT Python's own
``KeyboardInterrupt``, SIGTERM ``Terminated``), so the ``with`` blocks and ``finally``
clauses that write outputs run their cleanup as for any failure; both derive from
``BaseException`` so an ``except Exception`` on the way does not swallow them. Once one has
arrived, further SIGINT / SIGTERM are ignored until the command has cleaned up (a second
Ctrl-C cannot cut the removal of a partial file short).

Portable: a signal the platform lacks is skipped (Windows delivers no SIGTERM from another
process; its Ctrl-C and Ctrl-Break arrive as SIGINT and SIGBREAK), and handlers are only
installed from the main thread. Standard library only.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

#: the exit status of a command stopped by a signal: 128 + the signal's number, as shells
#: report it (fixed numbers: Windows' values of SIGINT and SIGTERM are the POSIX ones)
EXIT_INTERRUPTED = 130      # 128 + SIGINT
EXIT_TERMINATED = 143       # 128 + SIGTERM


class Terminated(BaseException):
    """SIGTERM (or Windows' SIGBREAK) arrived: stop, clean up, exit 143."""

    def __init__(self, name: str = "SIGTERM") -> None:
        super().__init__(name)
        self.name = name


def _names() -> list[str]:
    return [n for n in ("SIGINT", "SIGTERM", "SIGBREAK") if hasattr(signal, n)]


def _ignore_further(previous: dict) -> None:
    for sig in previous:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(sig, signal.SIG_IGN)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Inside: SIGINT raises KeyboardInterrupt, SIGTERM / SIGBREAK raise Terminated, each
    once (the rest ignored until the block exits); the previous handlers come back after.
    Outside the main thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict = {}

    def on_signal(signum, _frame) -> None:
        _ignore_further(previous)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated(signal.Signals(signum).name)

    for name in _names():
        sig = getattr(signal, name)
        try:
            previous[sig] = signal.signal(sig, on_signal)
        except (ValueError, OSError):   # not settable here
            continue
    try:
        yield
    finally:
        for sig, handler in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


def stopped_message(exc: BaseException) -> tuple[str, int]:
    """The one line and the exit status for a KeyboardInterrupt or a Terminated."""
    if isinstance(exc, Terminated):
        return f"terminated ({exc.name})", EXIT_TERMINATED
    return "interrupted", EXIT_INTERRUPTED
