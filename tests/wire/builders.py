"""Hand-built wire bytes for tests, laid out by the retail UnPack functions (offsets in comments).

Nothing here is copied from a capture; every helper lays the fields out as the retail
UnPack reads them, so a decoder test compares our reader against the written layout.
"""

from __future__ import annotations

import struct

from viewer.wire.descs import (
    PD_ACCELERATION,
    PD_ANIMFRAME_ID,
    PD_CHILDREN,
    PD_CSETUP,
    PD_DEFAULT_SCRIPT,
    PD_DEFAULT_SCRIPT_INTENSITY,
    PD_ELASTICITY,
    PD_FRICTION,
    PD_MOVEMENT,
    PD_MTABLE,
    PD_OBJSCALE,
    PD_OMEGA,
    PD_PARENT,
    PD_PETABLE,
    PD_POSITION,
    PD_STABLE,
    PD_TRANSLUCENCY,
    PD_VELOCITY,
)


def u8(v): return struct.pack("<B", v)
def u16(v): return struct.pack("<H", v)
def u32(v): return struct.pack("<I", v & 0xFFFFFFFF)
def f32(v): return struct.pack("<f", v)
def vec3(x, y, z): return struct.pack("<3f", x, y, z)


def pad4(b: bytes, origin: int = 0) -> bytes:
    return b + b"\0" * ((-(origin + len(b))) & 3)


def position(cell=0xA9B40019, origin=(1.0, 2.0, 3.0), q=(1.0, 0.0, 0.0, 0.0)) -> bytes:
    return u32(cell) + struct.pack("<3f", *origin) + struct.pack("<4f", *q)


def empty_objdesc() -> bytes:
    # version 0x11, three zero counts, no base palette, already 4-aligned
    return bytes([0x11, 0, 0, 0])


def interpreted_state_bytes() -> bytes:
    # bits 0x3: style (u16 0x3D), forward (u16 0x07); then align4 (already 8 bytes)
    return u32(0x3) + u16(0x3D) + u16(0x07)


def movement_body_bytes() -> bytes:
    # movement_type 0 (interpreted), options 0, style u16, InterpretedMotionState
    return u8(0) + u8(0) + u16(0x3D) + interpreted_state_bytes()


def physics_desc(flags: int, *, state=0x00400C08, stamps=(1, 2, 3, 4, 5, 6, 7, 8, 9),
                 zero=False, setup=0x02000124) -> bytes:
    """All fields for ``flags`` in PhysicsDesc::UnPack order; ``zero`` writes present zeros."""
    z = 0 if zero else None
    out = u32(flags) + u32(state)
    if flags & PD_MOVEMENT:
        body = movement_body_bytes()
        out += u32(len(body)) + body + u32(1)          # length, buffer, autonomous
    elif flags & PD_ANIMFRAME_ID:
        out += u32(z if zero else 0x65)
    if flags & PD_POSITION:
        out += position()
    if flags & PD_MTABLE:
        out += u32(z if zero else 0x09000001)
    if flags & PD_STABLE:
        out += u32(z if zero else 0x20000014)
    if flags & PD_PETABLE:
        out += u32(z if zero else 0x3400002B)
    if flags & PD_CSETUP:
        out += u32(z if zero else setup)
    if flags & PD_PARENT:
        out += u32(0x50000001) + u32(1)
    if flags & PD_CHILDREN:
        out += u32(2) + u32(0x50000002) + u32(1) + u32(0x50000003) + u32(2)
    for flag, value in ((PD_OBJSCALE, 1.5), (PD_FRICTION, 0.5), (PD_ELASTICITY, 0.25),
                        (PD_TRANSLUCENCY, 0.75)):
        if flags & flag:
            out += f32(0.0 if zero else value)
    for flag, value in ((PD_VELOCITY, (1.0, 2.0, 3.0)), (PD_ACCELERATION, (0.0, 0.0, -9.8)),
                        (PD_OMEGA, (0.0, 0.0, 1.0))):
        if flags & flag:
            out += vec3(*((0.0, 0.0, 0.0) if zero else value))
    if flags & PD_DEFAULT_SCRIPT:
        out += u32(0 if zero else 0x37)
    if flags & PD_DEFAULT_SCRIPT_INTENSITY:
        out += f32(0.0 if zero else 0.5)
    out += b"".join(u16(s) for s in stamps)       # 18 bytes
    return out + b"\0\0"                           # align4: always 2 pad bytes


def weenie_desc(name: str = "Pyreal") -> bytes:
    # header 0, String16L name padded so (2+len)%4==0, wcid PackedDword, icon PackedDword,
    # item_type u32, obj_desc_bits u32, align4
    raw = name.encode("cp1252")
    s = u16(len(raw)) + raw
    s += b"\0" * ((-len(s)) & 3)
    body = u32(0) + s + u16(0x0111) + u16(0x229F) + u32(0x40) + u32(0x10)
    return pad4(body)


def create_object(guid: int, flags: int, **kw) -> bytes:
    return u32(0xF745) + u32(guid) + empty_objdesc() + physics_desc(flags, **kw) + weenie_desc()


def stamp_pair(a: int, b: int) -> bytes:
    return u16(a) + u16(b)
