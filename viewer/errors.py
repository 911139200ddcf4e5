"""The viewer's error types.

Every failure of the input (a truncated DAT, a corrupt record, a malformed packet, a missing
DID) raises one of these, carrying where it happened so a user can act on it: the file, the
DID and the byte offset. The CLI prints ``str(err)`` on one line and exits 1; the GUI shows it
in the error panel and keeps running.
"""

from __future__ import annotations


def format_did(did: int) -> str:
    """DIDs are written ``0x`` + 8 upper-case hex digits (contract, conventions)."""
    return f"0x{did & 0xFFFFFFFF:08X}"


class ViewerError(Exception):
    """Base of every input failure the viewer reports."""

    def __init__(self, message: str, *, file: str | None = None, did: int | None = None,
                 offset: int | None = None) -> None:
        self.message = message
        self.file = None if file is None else str(file)
        self.did = did
        self.offset = offset
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.file is not None:
            where.append(self.file)
        if self.did is not None:
            where.append(f"DID {format_did(self.did)}")
        if self.offset is not None:  # a sign before the 0x, never "0x-1000"
            sign = "-" if self.offset < 0 else ""
            where.append(f"offset {self.offset} ({sign}0x{abs(self.offset):X})")
        return (": ".join(where) + ": " if where else "") + self.message

    def located(self, *, file: str | None = None, did: int | None = None,
                offset: int | None = None) -> ViewerError:
        """Return a copy with missing location fields filled in (inner errors know the
        offset, outer callers know the file and DID)."""
        return type(self)(self.message,
                          file=self.file if self.file is not None else file,
                          did=self.did if self.did is not None else did,
                          offset=self.offset if self.offset is not None else offset)


class DatError(ViewerError):
    """A DAT container or record could not be read: truncated, corrupt, or missing DID."""


class WireError(ViewerError):
    """A capture, packet or message could not be read."""


class ScenarioError(ViewerError):
    """A scenario file is malformed or names something that does not exist."""


class UsageError(ViewerError):
    """The command line itself is wrong in a way only known once its inputs are open (a
    ``--crop`` outside the recording, a ``--camera`` eye on the default target): the CLI
    prints the message alone, as argparse's usage errors, and exits 2."""


class OutputError(ViewerError):
    """An output file or folder cannot be written (a missing or read-only folder, a path
    under a file, a full device)."""
