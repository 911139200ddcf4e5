"""Little-endian byte cursor and builder shared by every record codec.

``Reader`` raises :class:`viewer.errors.DatError` carrying the byte offset whenever a read
would run past the end of the record, so no ``struct.error`` or ``IndexError`` escapes a
decoder. ``Writer`` is its mirror image. Offsets are measured from the first byte of the
record payload, which is also what align4 is measured from.
"""

from __future__ import annotations

import struct

from viewer.errors import DatError

_U8 = struct.Struct("<B")
_U16 = struct.Struct("<H")
_I16 = struct.Struct("<h")
_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_F32 = struct.Struct("<f")
_F64 = struct.Struct("<d")
_VEC3 = struct.Struct("<3f")
_FRAME = struct.Struct("<7f")
_SPHERE = struct.Struct("<4f")

_STRUCTS: dict[str, struct.Struct] = {}

#: The most list entries (frames, hooks, vertices, uvs, polygons, parts ...) one record may
#: claim in all (ours, not retail's: its largest records hold thousands). Each decoded entry
#: is a Python object of 50-400 bytes however few bytes it takes on disk (an empty
#: AnimationFrame is 4), so this, with the 64 MiB a record may inflate to, bounds the memory
#: one decode takes (a few hundred MB at the very worst, whatever the DAT).
MAX_RECORD_ITEMS = 1 << 19


def _st(fmt: str) -> struct.Struct:
    s = _STRUCTS.get(fmt)
    if s is None:
        if len(_STRUCTS) > 1024:  # variable-count formats ("37I") must not grow it forever
            _STRUCTS.clear()
        s = _STRUCTS[fmt] = struct.Struct("<" + fmt)
    return s


class Reader:
    """Cursor over one record's bytes."""

    __slots__ = ("data", "did", "end", "file", "items", "pos")

    def __init__(self, data: bytes | bytearray | memoryview, *, file: str | None = None,
                 did: int | None = None) -> None:
        self.data = bytes(data)
        self.pos = 0
        self.end = len(self.data)
        self.file = file
        self.did = did
        self.items = 0            # list entries claimed so far (MAX_RECORD_ITEMS)

    # -- errors ----------------------------------------------------------------------
    def error(self, message: str, offset: int | None = None) -> DatError:
        return DatError(message, file=self.file, did=self.did,
                        offset=self.pos if offset is None else offset)

    def need(self, n: int, what: str = "data") -> None:
        if n < 0 or self.pos + n > self.end:
            raise self.error(f"record truncated: {what} needs {n} bytes, "
                             f"{self.end - self.pos} left")

    def count(self, n: int, item_size: int, what: str, *, kept: bool = True) -> int:
        """Validate an item count against the bytes left (each item >= item_size bytes) and,
        for items the decoder keeps (``kept``), against what the record may hold in all
        (``MAX_RECORD_ITEMS``), before any is read."""
        if n < 0 or n * max(item_size, 1) > self.end - self.pos:
            raise self.error(f"{what} count {n} does not fit in the {self.end - self.pos} "
                             f"bytes left")
        if kept:
            self.items += n
            if self.items > MAX_RECORD_ITEMS:
                raise self.error(f"{what} count {n} takes the record past the "
                                 f"{MAX_RECORD_ITEMS} entries a record may hold")
        return n

    # -- primitives ------------------------------------------------------------------
    def unpack(self, st: struct.Struct, what: str = "data") -> tuple:
        p = self.pos
        if p + st.size > self.end:
            self.need(st.size, what)
        self.pos = p + st.size
        return st.unpack_from(self.data, p)

    def fmt(self, fmt: str, what: str = "data") -> tuple:
        return self.unpack(_st(fmt), what)

    def u8(self, what: str = "u8") -> int:
        return self.unpack(_U8, what)[0]

    def u16(self, what: str = "u16") -> int:
        return self.unpack(_U16, what)[0]

    def i16(self, what: str = "i16") -> int:
        return self.unpack(_I16, what)[0]

    def u32(self, what: str = "u32") -> int:
        return self.unpack(_U32, what)[0]

    def i32(self, what: str = "i32") -> int:
        return self.unpack(_I32, what)[0]

    def f32(self, what: str = "f32") -> float:
        return self.unpack(_F32, what)[0]

    def f64(self, what: str = "f64") -> float:
        return self.unpack(_F64, what)[0]

    def vec3(self, what: str = "Vec3") -> tuple[float, float, float]:
        return self.unpack(_VEC3, what)

    def sphere(self, what: str = "Sphere") -> tuple[float, float, float, float]:
        return self.unpack(_SPHERE, what)

    def frame7(self, what: str = "Frame") -> tuple:
        return self.unpack(_FRAME, what)

    def bytes(self, n: int, what: str = "bytes") -> bytes:
        self.need(n, what)
        p = self.pos
        self.pos = p + n
        return self.data[p:p + n]

    def skip(self, n: int, what: str = "data") -> None:
        self.need(n, what)
        self.pos += n

    def align4(self) -> None:
        pad = (-self.pos) & 3
        if pad:
            self.need(pad, "align4 padding")
            self.pos += pad

    def cuint(self, what: str = "CUInt") -> int:
        """Compressed u32 (SB_As32Bit_Compressed::Serialize 0x005BE430)."""
        b0 = self.u8(what)
        if b0 & 0x80 == 0:
            return b0
        b1 = self.u8(what)
        if b0 & 0x40 == 0:
            return ((b0 & 0x7F) << 8) | b1
        lo = self.u16(what)
        return ((((b0 & 0x3F) << 8) | b1) << 16) | lo

    def packed_did(self, base: int, what: str = "PackedDID") -> int:
        """Unpack_AsDataIDOfKnownType 0x006844F0."""
        w = self.u16(what)
        if w & 0x8000 == 0:
            return (base + w) & 0xFFFFFFFF
        lo = self.u16(what)
        return (base + (((w & 0x3FFF) << 16) | lo)) & 0xFFFFFFFF

    def pstring16(self, what: str = "PString16") -> str:
        n = self.u16(what)
        if n == 0xFFFF:
            n = self.u32(what)
        raw = self.bytes(n, what)
        self.align4()
        return raw.decode("cp1252", errors="replace")

    def remaining(self) -> int:
        return self.end - self.pos

    def finish(self, what: str) -> None:
        """Every decoder must consume exactly the record's bytes."""
        if self.pos != self.end:
            raise self.error(f"{what}: {self.end - self.pos} trailing bytes after the record "
                             f"(decoded {self.pos} of {self.end})")


class Writer:
    """Byte builder; the mirror of :class:`Reader`."""

    __slots__ = ("buf",)

    def __init__(self) -> None:
        self.buf = bytearray()

    def pack(self, st: struct.Struct, *values) -> None:
        self.buf += st.pack(*values)

    def fmt(self, fmt: str, *values) -> None:
        self.buf += _st(fmt).pack(*values)

    def u8(self, v: int) -> None:
        self.buf += _U8.pack(v)        # out of range raises (struct.error -> DatError)

    def u16(self, v: int) -> None:
        self.buf += _U16.pack(v)

    def i16(self, v: int) -> None:
        self.buf += _I16.pack(v)

    def u32(self, v: int) -> None:
        self.buf += _U32.pack(int(v) & 0xFFFFFFFF)

    def i32(self, v: int) -> None:
        self.buf += _I32.pack(int(v))

    def f32(self, v: float) -> None:
        self.buf += _F32.pack(v)

    def f64(self, v: float) -> None:
        self.buf += _F64.pack(v)

    def vec3(self, v) -> None:
        self.buf += _VEC3.pack(*v)

    def sphere(self, center, radius: float) -> None:
        self.buf += _SPHERE.pack(*center, radius)

    def bytes(self, b: bytes) -> None:
        self.buf += b

    def align4(self) -> None:
        self.buf += b"\0" * ((-len(self.buf)) & 3)

    def cuint(self, v: int) -> None:
        if v < 0 or v > 0x3FFFFFFF:
            raise DatError(f"CUInt value {v} out of range (0..0x3FFFFFFF)")
        if v < 0x80:
            self.buf.append(v)
        elif v < 0x4000:
            self.buf += bytes((0x80 | (v >> 8), v & 0xFF))
        else:
            self.buf += bytes((0xC0 | (v >> 24), (v >> 16) & 0xFF)) + _U16.pack(v & 0xFFFF)

    def packed_did(self, did: int, base: int) -> None:
        """Pack_AsDataIDOfKnownType: off = (did or base) - base."""
        off = ((did or base) - base) & 0xFFFFFFFF
        if off <= 0x3FFF:
            self.u16(off)
        elif off <= 0x3FFFFFFF:
            self.u16(0x8000 | (off >> 16))
            self.u16(off & 0xFFFF)
        else:
            raise DatError(f"DID 0x{did:08X} cannot be packed against base 0x{base:08X}")

    def pstring16(self, s: str) -> None:
        raw = s.encode("cp1252", errors="replace")
        if len(raw) >= 0xFFFF:
            self.u16(0xFFFF)
            self.u32(len(raw))
        else:
            self.u16(len(raw))
        self.buf += raw
        self.align4()

    def getvalue(self) -> bytes:
        return bytes(self.buf)
