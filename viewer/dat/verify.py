"""Decode every record of a DAT and account for every byte (``vfxviewer dat verify``).

A record passes when its block chain reads back whole and its codec consumes exactly the
record's length (``records.decode`` ends with ``Reader.finish``, which raises on trailing
bytes; a read past the end raises too). Records are visited one at a time in DID order and
dropped as soon as they are checked, and the directory walk keeps only the B-tree nodes on
its current path, so memory stays bounded whatever the DAT size. A failing record is noted
(file, DID, file offset of the failing byte) and the walk goes on; only a broken directory
ends the walk of that file.

Types the viewer has no codec for are counted as ``skipped``: their bytes are read (the
block chain is checked) but not interpreted.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from viewer.dat import records as R
from viewer.dat.container import DatEntry, DatFile
from viewer.errors import DatError, format_did


@dataclass
class TypeCount:
    """Per DID top byte: records seen, decoded exactly, failed, not decodable (no codec)."""

    type: int
    name: str
    count: int = 0
    ok: int = 0
    failed: int = 0
    skipped: int = 0

    def as_json(self) -> dict:
        return {"type": f"0x{self.type:02X}", "name": self.name, "count": self.count,
                "ok": self.ok, "failed": self.failed, "skipped": self.skipped}


@dataclass(frozen=True)
class Failure:
    file: str
    did: int | None
    offset: int | None        # file offset of the failing byte, where known
    message: str

    def as_json(self) -> dict:
        return {"file": self.file, "did": None if self.did is None else format_did(self.did),
                "offset": self.offset, "message": self.message}

    def line(self) -> str:
        return str(DatError(self.message, file=self.file, did=self.did, offset=self.offset))


@dataclass
class VerifyReport:
    types: dict[int, TypeCount] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    records: int = 0
    bytes: int = 0            # record bytes read (decompressed)

    @property
    def ok(self) -> bool:
        return not self.failures

    def count(self, top: int) -> TypeCount:
        tc = self.types.get(top)
        if tc is None:
            cls = R.Iteration if top == 0xFF else R.RECORD_CLASSES.get(top)
            tc = self.types[top] = TypeCount(top, cls.__name__ if cls else "(no codec)")
        return tc

    def as_json(self) -> dict:
        return {"types": [self.types[k].as_json() for k in sorted(self.types)],
                "failures": [f.as_json() for f in self.failures],
                "records": self.records, "bytes": self.bytes}


def decode_failure(dat: DatFile, e: DatEntry, err: DatError) -> Failure:
    """A codec error points at a position inside the record: name the file offset of that
    byte (followed through the block chain) and keep the record position in the message."""
    if err.offset is None:
        return Failure(dat.name, e.did, None, err.message)
    return Failure(dat.name, e.did, dat.file_offset(e, err.offset),
                   f"{err.message} (record byte {err.offset})")


def verify_entry(dat: DatFile, e: DatEntry) -> tuple[int, Failure | None, bool]:
    """Check one record: (bytes read, failure or None, has a codec)."""
    try:
        data = dat.read_entry(e)
    except DatError as err:                  # block chain / inflate: offsets are in the file
        return 0, Failure(dat.name, e.did, err.offset, err.message), True
    if R.record_class(e.did) is None:
        return len(data), None, False
    try:
        R.decode(e.did, data, file=dat.name)
    except DatError as err:
        return len(data), decode_failure(dat, e, err), True
    return len(data), None, True


def verify_file(dat: DatFile, report: VerifyReport, *, type_filter: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> None:
    """Walk one DAT's directory and check every record (filtered by DID top byte)."""
    try:
        for e in dat.entries(cache=False):
            top = e.did >> 24
            if type_filter is not None and top != type_filter:
                continue
            n, failure, has_codec = verify_entry(dat, e)
            tc = report.count(top)
            tc.count += 1
            report.records += 1
            report.bytes += n
            if failure is not None:
                tc.failed += 1
                report.failures.append(failure)
            elif has_codec:
                tc.ok += 1
            else:
                tc.skipped += 1
            if progress is not None:
                progress(1, n)
    except DatError as err:
        report.failures.append(directory_failure(dat, err))


def directory_failure(dat: DatFile, err: DatError) -> Failure:
    """A broken directory: it ends the walk of that file (what was walked is kept)."""
    return Failure(dat.name, err.did, err.offset,
                   f"directory: {err.message} (walk of this file stopped)")


def count_entries(path: str | os.PathLike, type_filter: int | None = None) -> int:
    """How many records ``verify`` will visit in one file (0 if it cannot be opened)."""
    try:
        with DatFile(path) as dat:
            return sum(1 for e in dat.entries(cache=False)
                       if type_filter is None or e.did >> 24 == type_filter)
    except DatError:
        return 0


def verify(paths: Iterable[str | os.PathLike], *, type_filter: int | None = None,
           progress: Callable[[int, int], None] | None = None) -> VerifyReport:
    """Verify every record of every DAT; a file that cannot be opened is one failure."""
    report = VerifyReport()
    for path in paths:
        try:
            dat = DatFile(path)
        except DatError as err:
            report.failures.append(Failure(err.file or str(path), err.did, err.offset,
                                           err.message))
            continue
        with dat:
            verify_file(dat, report, type_filter=type_filter, progress=progress)
    return report
