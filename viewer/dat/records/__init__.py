"""Typed, immutable DAT records: ``decode(did, data, file=None)`` and ``encode(record)``.

The codec is chosen from the DID's top byte (retail's DID ranges):

=======================  ================================  ===================================
DID range                record class                      module
=======================  ================================  ===================================
0x01000000-0x01FFFFFF    GfxObj                            records/gfxobj.py
0x02000000-0x02FFFFFF    Setup                             records/setup.py
0x03000000-0x03FFFFFF    Animation (AnimationFrame)        records/animation.py
0x04000000-0x04FFFFFF    Palette                           records/surface.py
0x05000000-0x05FFFFFF    SurfaceTexture                    records/surface.py
0x06000000-0x07FFFFFF    RenderSurface                     records/surface.py
0x08000000-0x08FFFFFF    Surface (no id on disk)           records/surface.py
0x09000000-0x09FFFFFF    MotionTable (MotionData, AnimData) records/motion_table.py
0x0A000000-0x0AFFFFFF    Wave                              records/sound.py
0x11000000-0x11FFFFFF    GfxObjDegradeInfo                 records/gfxobj.py
0x13000000-0x13FFFFFF    Region (sky objects; rest raw)    records/region.py
0x20000000-0x20FFFFFF    SoundTable (SoundTableData)       records/sound.py
0x32000000-0x32FFFFFF    ParticleEmitterInfo               records/particle_emitter.py
0x33000000-0x33FFFFFF    PhysicsScript (PhysicsScriptData) records/physics_script.py
0x34000000-0x34FFFFFF    PhysicsScriptTable                records/physics_script.py
0xFFFF0001               Iteration                         records/iteration.py
=======================  ================================  ===================================

Hooks (records/hooks.py): ``AnimationHook`` and one class per AnimationHookType, named
``<Type>Hook`` (``CreateParticleHook``, ``CreateBlockingParticleHook``, ``SoundTweakedHook``
...); ``HOOK_CLASSES[type]`` (the 26 types retail builds); ``NullHook`` (type 4 and unknown
numbers: stored, but retail builds no hook for them). Shared values (records/common.py):
``Frame(origin=(x,y,z), orientation=(w,x,y,z))``, ``Sphere``, ``CylSphere`` and every enum
(``PlayScript``, ``PixelFormat``, ``SurfaceType``, ...). Enum fields hold the member when
known and the plain int when not. Absent optional parts are ``None``; lists are tuples in
stored order.
Every decoder must consume exactly the record's bytes, else ``DatError``.
"""

from __future__ import annotations

import struct

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.animation import Animation, AnimationFrame  # noqa: F401
from viewer.dat.records.common import *
from viewer.dat.records.common import CylSphere, Frame, Sphere  # noqa: F401
from viewer.dat.records.gfxobj import (  # noqa
    GfxObj,
    GfxObjDegradeInfo,
    GfxObjInfo,
    Polygon,
    SWVertex,
    VertexArray,
    drawing_leaf_bsp,
    physics_leaf_bsp,
)
from viewer.dat.records.hooks import *
from viewer.dat.records.hooks import HOOK_CLASSES, AnimationHook, NullHook, is_null_hook  # noqa: F401
from viewer.dat.records.iteration import ITERATION_DID, Iteration
from viewer.dat.records.motion_table import AnimData, MotionData, MotionTable  # noqa: F401
from viewer.dat.records.particle_emitter import ParticleEmitterInfo
from viewer.dat.records.physics_script import (  # noqa: F401
    PhysicsScript,
    PhysicsScriptData,
    PhysicsScriptTable,
    PhysicsScriptTableData,
    ScriptAndModData,
)
from viewer.dat.records.region import (  # noqa: F401
    DayGroup,
    Region,
    SkyDesc,
    SkyObject,
    SkyObjectReplace,
    SkyTimeOfDay,
)
from viewer.dat.records.setup import LightInfo, LocationType, Setup  # noqa: F401
from viewer.dat.records.sound import SoundEntry, SoundTable, SoundTableData, Wave  # noqa: F401
from viewer.dat.records.surface import Palette, RenderSurface, Surface, SurfaceTexture
from viewer.errors import DatError, format_did

#: top byte of the DID -> record class
RECORD_CLASSES: dict[int, type] = {
    0x01: GfxObj, 0x02: Setup, 0x03: Animation, 0x04: Palette, 0x05: SurfaceTexture,
    0x06: RenderSurface, 0x07: RenderSurface, 0x08: Surface, 0x09: MotionTable, 0x0A: Wave,
    0x11: GfxObjDegradeInfo, 0x13: Region, 0x20: SoundTable, 0x32: ParticleEmitterInfo,
    0x33: PhysicsScript, 0x34: PhysicsScriptTable,
}

#: record class -> the DID top byte it lives under (RenderSurface: 0x06)
TYPE_PREFIX: dict[type, int] = {cls: p for p, cls in sorted(RECORD_CLASSES.items(),
                                                             reverse=True)}
TYPE_PREFIX[Iteration] = 0xFF


def record_class(did: int) -> type | None:
    """The record class for a DID, or None if the viewer has no decoder for it."""
    if did == ITERATION_DID:
        return Iteration
    return RECORD_CLASSES.get((did >> 24) & 0xFF)


def type_name(did: int) -> str:
    """The record type a DID names, as ``dat show`` writes it (``"PhysicsScript"``), from its
    top byte; ``"type 0xNN record"`` for a type the viewer has no decoder for."""
    cls = record_class(did)
    return cls.__name__ if cls is not None else f"type 0x{(did >> 24) & 0xFF:02X} record"


def _a(name: str) -> str:
    return f"an {name}" if name[:1] in "AEIOU" else f"a {name}"


def wrong_type(did: int, found: type | str, expected: type | str, *, by: int | None = None,
               file: str | None = None) -> DatError:
    """The input failure for a DID followed to a record of another type:
    ``DID 0x33000101 is a PhysicsScript, not a Wave (named by SoundTable 0x20000101)``;
    ``by``: the record whose data named the DID, where known."""
    def name(t):
        return t if isinstance(t, str) else t.__name__
    tail = f" (named by {type_name(by)} {format_did(by)})" if by else ""
    return DatError(f"DID {format_did(did)} is {_a(name(found))}, not {_a(name(expected))}"
                    f"{tail}", file=file)


def expect_record(record, did: int, cls: type, *, by: int | None = None,
                  file: str | None = None):
    """``record`` (what DID ``did`` decoded to) when it is a ``cls``, else ``wrong_type``."""
    if not isinstance(record, cls):
        raise wrong_type(did, type(record), cls, by=by, file=file)
    return record


def decode(did: int, data: bytes, file: str | None = None):
    """Decode one record's bytes into its immutable typed record.

    Raises DatError (with file, DID and byte offset) when the bytes are truncated, corrupt,
    leave trailing bytes, or the DID's type has no decoder.
    """
    cls = record_class(did)
    if cls is None:
        raise DatError(f"no decoder for DID type 0x{(did >> 24) & 0xFF:02X}", file=file,
                       did=did)
    r = Reader(data, file=file, did=did)
    try:
        record = cls.read(r)
    except DatError:
        raise
    except (struct.error, ValueError, OverflowError, IndexError, UnicodeError,
            RecursionError, MemoryError) as exc:  # defensive: never let these escape
        raise DatError(f"corrupt {cls.__name__}: {exc}", file=file, did=did,
                       offset=r.pos) from exc
    r.finish(cls.__name__)
    return record


def encode(record) -> bytes:
    """The record's bytes exactly as retail stores them (inverse of ``decode``)."""
    w = Writer()
    try:
        record.write(w)
    except (struct.error, ValueError, OverflowError, TypeError, AttributeError) as exc:
        raise DatError(f"cannot encode {type(record).__name__}: {exc}",
                       did=getattr(record, "id", None)) from exc
    return w.getvalue()
