"""SoundTable (0x20) and Wave (0x0A) (DBWave::UnPack 0x00551B90).

CSoundTable::UnPack is recursive: SoundTableData = u32 key, u32 n, n x SoundEntry,
u32 m, m x SoundTableData (child); the table ends with align4.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer


@dataclass(frozen=True, slots=True)
class SoundEntry:
    wave_id: int
    priority: float
    probability: float
    volume: float


@dataclass(frozen=True, slots=True)
class SoundTableData:
    key: int          # a Sound enum value for children; 0 for the EoR root
    entries: tuple[SoundEntry, ...]
    children: tuple[SoundTableData, ...]

    def wave_ids(self) -> list[int]:
        """Every wave_id != 0, depth first in stored order."""
        out = [e.wave_id for e in self.entries if e.wave_id]
        for c in self.children:
            out.extend(c.wave_ids())
        return out


_MAX_DEPTH = 64


def _read_std(r: Reader, depth: int) -> SoundTableData:
    if depth > _MAX_DEPTH:
        raise r.error("SoundTableData nested deeper than 64 levels: corrupt")
    key = r.u32("SoundTableData key")
    n = r.count(r.u32("num entries"), 16, "sound entries")
    entries = tuple(SoundEntry(*r.fmt("I3f", "SoundEntry")) for _ in range(n))
    m = r.count(r.u32("num children"), 12, "sound children")
    return SoundTableData(key, entries, tuple(_read_std(r, depth + 1) for _ in range(m)))


def _write_std(w: Writer, d: SoundTableData) -> None:
    w.u32(d.key)
    w.u32(len(d.entries))
    for e in d.entries:
        w.fmt("I3f", e.wave_id, e.priority, e.probability, e.volume)
    w.u32(len(d.children))
    for c in d.children:
        _write_std(w, c)


@dataclass(frozen=True, slots=True)
class SoundTable:
    id: int
    root: SoundTableData

    def get(self, sound: int) -> SoundTableData | None:
        for c in self.root.children:
            if c.key == sound:
                return c
        return None

    @classmethod
    def read(cls, r: Reader) -> SoundTable:
        id_ = r.u32("id")
        root = _read_std(r, 0)
        r.align4()
        return cls(id_, root)

    def write(self, w: Writer) -> None:
        w.u32(self.id)
        _write_std(w, self.root)
        w.align4()


@dataclass(frozen=True, slots=True)
class Wave:
    """``header`` is a WAVEFORMATEX (18 bytes usually), ``data`` the audio; not a RIFF."""

    id: int
    header: bytes
    data: bytes

    @property
    def format_tag(self) -> int | None:
        return struct.unpack_from("<H", self.header)[0] if len(self.header) >= 2 else None

    def to_riff(self) -> bytes:
        """Wrap as a playable RIFF/WAVE file."""
        fmt = self.header
        body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + (b"\0" if len(fmt) & 1
                                                                          else b"")
                + b"data" + struct.pack("<I", len(self.data)) + self.data
                + (b"\0" if len(self.data) & 1 else b""))
        return b"RIFF" + struct.pack("<I", len(body)) + body

    @classmethod
    def read(cls, r: Reader) -> Wave:
        id_, hs, ds = r.fmt("Iii", "Wave header")
        if hs < 0 or ds < 0:
            raise r.error(f"Wave sizes {hs}/{ds} are negative", 4)
        return cls(id_, r.bytes(hs, "WAVEFORMATEX"), r.bytes(ds, "Wave data"))

    def write(self, w: Writer) -> None:
        w.fmt("Iii", self.id, len(self.header), len(self.data))
        w.bytes(self.header)
        w.bytes(self.data)
