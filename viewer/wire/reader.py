"""Bounded little-endian cursor for wire messages.

Every read checks the remaining length first and raises :class:`viewer.errors.WireError`
carrying the byte offset inside the message, so no ``struct.error`` or ``IndexError`` escapes a
decoder. ``Writer`` is the mirror image used by the client-movement packers.
Offsets and align4 are measured from the first byte of the reassembled message (the opcode),
which is where a ``Reader`` built on that message starts.
"""

from __future__ import annotations

import struct

from viewer.errors import WireError

_U8 = struct.Struct("<B")
_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_F32 = struct.Struct("<f")
_F64 = struct.Struct("<d")
_VEC3 = struct.Struct("<3f")
_POSITION = struct.Struct("<I7f")
_STAMPS4 = struct.Struct("<4H")


def f32_bits(value: float) -> int:
    """The IEEE single bit pattern of ``value`` (NaN payloads survive only if given as bits)."""
    return _U32.unpack(_F32.pack(value))[0]


def f32_from_bits(bits: int) -> float:
    return _F32.unpack(_U32.pack(bits & 0xFFFFFFFF))[0]


class Reader:
    """Cursor over one message (or one sub-buffer, when ``base`` says where it starts)."""

    __slots__ = ("base", "data", "end", "pos", "what")

    def __init__(self, data: bytes, pos: int = 0, end: int | None = None, *, base: int = 0,
                 what: str = "message") -> None:
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else min(end, len(data))
        self.base = base  # offset of data[0] inside the enclosing message, for error offsets
        self.what = what

    @property
    def remaining(self) -> int:
        return self.end - self.pos

    def error(self, message: str, offset: int | None = None) -> WireError:
        return WireError(message, offset=self.base + (self.pos if offset is None else offset))

    def need(self, n: int, what: str) -> None:
        if n < 0 or self.pos + n > self.end:
            raise self.error(f"{self.what} truncated: {what} needs {n} bytes, "
                             f"{self.end - self.pos} left")

    def u8(self, what: str = "u8") -> int:
        self.need(1, what)
        v = self.data[self.pos]
        self.pos += 1
        return v

    def u16(self, what: str = "u16") -> int:
        self.need(2, what)
        v = _U16.unpack_from(self.data, self.pos)[0]
        self.pos += 2
        return v

    def u32(self, what: str = "u32") -> int:
        self.need(4, what)
        v = _U32.unpack_from(self.data, self.pos)[0]
        self.pos += 4
        return v

    def f32(self, what: str = "f32") -> float:
        self.need(4, what)
        v = _F32.unpack_from(self.data, self.pos)[0]
        self.pos += 4
        return v

    def f64(self, what: str = "f64") -> float:
        self.need(8, what)
        v = _F64.unpack_from(self.data, self.pos)[0]
        self.pos += 8
        return v

    def vec3(self, what: str = "Vector3") -> tuple[float, float, float]:
        self.need(12, what)
        v = _VEC3.unpack_from(self.data, self.pos)
        self.pos += 12
        return v

    def position(self, what: str = "Position") -> tuple:
        """objcell_id u32, origin x y z, quaternion w x y z (Position::UnPack 0x005A9690)."""
        self.need(32, what)
        v = _POSITION.unpack_from(self.data, self.pos)
        self.pos += 32
        return v

    def stamps4(self, what: str = "timestamps") -> tuple[int, int, int, int]:
        self.need(8, what)
        v = _STAMPS4.unpack_from(self.data, self.pos)
        self.pos += 8
        return v

    def raw(self, n: int, what: str = "bytes") -> bytes:
        self.need(n, what)
        v = self.data[self.pos:self.pos + n]
        self.pos += n
        return v

    def skip(self, n: int, what: str = "bytes") -> None:
        self.need(n, what)
        self.pos += n

    def align4(self, what: str = "align4 padding") -> None:
        """Skip to the next multiple of 4 measured from the message start (PackObj::ALIGN_PTR)."""
        pad = (-(self.base + self.pos)) & 3
        if pad:
            self.skip(pad, what)

    def string16l(self, what: str = "String16L") -> str:
        """``len u16`` + bytes (Windows-1252), padded so (2 + len) is a multiple of 4."""
        n = self.u16(what + " length")
        text = self.raw(n, what).decode("cp1252", errors="replace")
        pad = (-(2 + n)) & 3
        if pad:
            self.skip(pad, what + " padding")
        return text

    def packed_dword(self, base: int = 0, what: str = "PackedDword") -> int:
        """u16; if its high bit is set, a second u16 follows: ((a & 0x7FFF) << 16) | b."""
        a = self.u16(what)
        if a & 0x8000:
            b = self.u16(what + " low word")
            a = ((a & 0x7FFF) << 16) | b
        return (a + base) & 0xFFFFFFFF if base else a


class Writer:
    """Little-endian builder; ``align4`` pads with zero bytes from the message start."""

    __slots__ = ("base", "buf")

    def __init__(self, base: int = 0) -> None:
        self.buf = bytearray()
        self.base = base

    def u8(self, v: int) -> None:
        self.buf += _U8.pack(v & 0xFF)

    def u16(self, v: int) -> None:
        self.buf += _U16.pack(v & 0xFFFF)

    def u32(self, v: int) -> None:
        self.buf += _U32.pack(v & 0xFFFFFFFF)

    def f32(self, v: float) -> None:
        self.buf += _F32.pack(v)

    def f32_bits(self, bits: int) -> None:
        self.buf += _U32.pack(bits & 0xFFFFFFFF)

    def raw(self, b: bytes) -> None:
        self.buf += b

    def align4(self) -> None:
        pad = (-(self.base + len(self.buf))) & 3
        self.buf += b"\0" * pad

    def bytes(self) -> bytes:
        return bytes(self.buf)
