"""AnimationHook: the hook types of Animation frames and PhysicsScripts (CAnimHook::UnPackHook
0x005271D0).

Every hook is ``u32 hook_type, i32 direction``, the type's payload, then align4 measured
from the record start (CAnimHook::UnPackHook 0x005271D0 always calls PackObj::ALIGN_PTR).
Part indices are read as signed 32-bit so that the root part reads as -1.

UnPackHook's switch builds 26 of the 27 types. Type 4 (AnimationDone) and any number it
does not know fall to its default case: the two header words are read, the cursor is
aligned and NULL is returned (no payload is read). ``read_hook`` gives a ``NullHook`` for
those, keeping the stored type number and direction so the entry can be shown and
re-encoded byte for byte; the runtime treats it as retail treats the NULL.
"""

from __future__ import annotations

import contextlib
import struct
from dataclasses import dataclass, fields
from typing import ClassVar

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.common import AnimationHookDir, AnimationHookType, Frame, Vec3, as_enum
from viewer.errors import DatError

_HEADER = struct.Struct("<Ii")
GFXOBJ_BASE = 0x01000000


@dataclass(frozen=True, slots=True)
class AnimationHook:
    """Base of every hook; ``direction`` is an AnimationHookDir (or the raw int if unknown)."""

    direction: AnimationHookDir | int
    hook_type: ClassVar[AnimationHookType]
    _fmt: ClassVar[str] = ""

    # Generic payload: the fields after ``direction`` map one-to-one onto ``_fmt``.
    @classmethod
    def _read_payload(cls, r: Reader, direction):
        st = _payload_struct(cls)
        if st is None:
            return cls(direction)
        return cls(direction, *r.unpack(st, cls.__name__))

    def _write_payload(self, w: Writer) -> None:
        st = _payload_struct(type(self))
        if st is not None:
            w.pack(st, *[getattr(self, f.name) for f in fields(self)[1:]])


_STRUCT_CACHE: dict[type, struct.Struct | None] = {}


def _payload_struct(cls) -> struct.Struct | None:
    try:
        return _STRUCT_CACHE[cls]
    except KeyError:
        st = struct.Struct("<" + cls._fmt) if cls._fmt else None
        _STRUCT_CACHE[cls] = st
        return st


class _Bool32:
    """Mixin for hooks whose single payload is a bool32 (non-zero = true)."""

    __slots__ = ()

    @classmethod
    def _read_payload(cls, r: Reader, direction):
        return cls(direction, r.u32(cls.__name__) != 0)

    def _write_payload(self, w: Writer) -> None:
        w.u32(1 if getattr(self, fields(self)[1].name) else 0)


@dataclass(frozen=True, slots=True)
class NoOpHook(AnimationHook):
    hook_type: ClassVar = AnimationHookType.NoOp


@dataclass(frozen=True, slots=True)
class SoundHook(AnimationHook):
    wave_id: int
    hook_type: ClassVar = AnimationHookType.Sound
    _fmt: ClassVar = "I"


@dataclass(frozen=True, slots=True)
class SoundTableHook(AnimationHook):
    sound_type: int
    hook_type: ClassVar = AnimationHookType.SoundTable
    _fmt: ClassVar = "I"


@dataclass(frozen=True, slots=True)
class AttackHook(AnimationHook):
    """AttackCone::UnPack 0x00527060."""

    part_index: int
    left_x: float
    left_y: float
    right_x: float
    right_y: float
    radius: float
    height: float
    hook_type: ClassVar = AnimationHookType.Attack
    _fmt: ClassVar = "i6f"


@dataclass(frozen=True, slots=True)
class ReplaceObjectHook(AnimationHook):
    """AnimPartChange::UnPack 0x005ADA10: u8 part_index, PackedDID(GfxObj); then align4."""

    part_index: int
    gfxobj_id: int
    hook_type: ClassVar = AnimationHookType.ReplaceObject

    @classmethod
    def _read_payload(cls, r: Reader, direction):
        part = r.u8("ReplaceObject part_index")
        return cls(direction, part, r.packed_did(GFXOBJ_BASE, "ReplaceObject gfxobj_id"))

    def _write_payload(self, w: Writer) -> None:
        w.u8(self.part_index)
        w.packed_did(self.gfxobj_id, GFXOBJ_BASE)


@dataclass(frozen=True, slots=True)
class EtherealHook(_Bool32, AnimationHook):
    ethereal: bool
    hook_type: ClassVar = AnimationHookType.Ethereal


@dataclass(frozen=True, slots=True)
class TransparentPartHook(AnimationHook):
    part_index: int
    start: float
    end: float
    time: float
    hook_type: ClassVar = AnimationHookType.TransparentPart
    _fmt: ClassVar = "i3f"


@dataclass(frozen=True, slots=True)
class LuminousHook(AnimationHook):
    start: float
    end: float
    time: float
    hook_type: ClassVar = AnimationHookType.Luminous
    _fmt: ClassVar = "3f"


@dataclass(frozen=True, slots=True)
class LuminousPartHook(AnimationHook):
    part_index: int
    start: float
    end: float
    time: float
    hook_type: ClassVar = AnimationHookType.LuminousPart
    _fmt: ClassVar = "i3f"


@dataclass(frozen=True, slots=True)
class DiffuseHook(AnimationHook):
    start: float
    end: float
    time: float
    hook_type: ClassVar = AnimationHookType.Diffuse
    _fmt: ClassVar = "3f"


@dataclass(frozen=True, slots=True)
class DiffusePartHook(AnimationHook):
    part_index: int
    start: float
    end: float
    time: float
    hook_type: ClassVar = AnimationHookType.DiffusePart
    _fmt: ClassVar = "i3f"


@dataclass(frozen=True, slots=True)
class ScaleHook(AnimationHook):
    end: float
    time: float
    hook_type: ClassVar = AnimationHookType.Scale
    _fmt: ClassVar = "2f"


_CREATE_PARTICLE = struct.Struct("<Ii7fI")


@dataclass(frozen=True, slots=True)
class CreateParticleHook(AnimationHook):
    """CreateParticleHook::UnPack 0x005278A0: emitter_info_id, part_index, offset, emitter_id."""

    emitter_info_id: int
    part_index: int
    offset: Frame
    emitter_id: int
    hook_type: ClassVar = AnimationHookType.CreateParticle

    @classmethod
    def _read_payload(cls, r: Reader, direction):
        v = r.unpack(_CREATE_PARTICLE, cls.__name__)
        return cls(direction, v[0], v[1], Frame((v[2], v[3], v[4]), (v[5], v[6], v[7], v[8])),
                   v[9])

    def _write_payload(self, w: Writer) -> None:
        w.pack(_CREATE_PARTICLE, self.emitter_info_id, self.part_index, *self.offset.origin,
               *self.offset.orientation, self.emitter_id)


@dataclass(frozen=True, slots=True)
class DestroyParticleHook(AnimationHook):
    emitter_id: int
    hook_type: ClassVar = AnimationHookType.DestroyParticle
    _fmt: ClassVar = "I"


@dataclass(frozen=True, slots=True)
class StopParticleHook(AnimationHook):
    emitter_id: int
    hook_type: ClassVar = AnimationHookType.StopParticle
    _fmt: ClassVar = "I"


@dataclass(frozen=True, slots=True)
class NoDrawHook(_Bool32, AnimationHook):
    no_draw: bool
    hook_type: ClassVar = AnimationHookType.NoDraw


@dataclass(frozen=True, slots=True)
class DefaultScriptHook(AnimationHook):
    hook_type: ClassVar = AnimationHookType.DefaultScript


@dataclass(frozen=True, slots=True)
class DefaultScriptPartHook(AnimationHook):
    part_index: int
    hook_type: ClassVar = AnimationHookType.DefaultScriptPart
    _fmt: ClassVar = "i"


@dataclass(frozen=True, slots=True)
class CallPESHook(AnimationHook):
    pes_id: int
    pause: float
    hook_type: ClassVar = AnimationHookType.CallPES
    _fmt: ClassVar = "If"


@dataclass(frozen=True, slots=True)
class TransparentHook(AnimationHook):
    start: float
    end: float
    time: float
    hook_type: ClassVar = AnimationHookType.Transparent
    _fmt: ClassVar = "3f"


@dataclass(frozen=True, slots=True)
class SoundTweakedHook(AnimationHook):
    """SoundTweakedHook::UnPack 0x00527780: wave_id, probability, priority, volume."""

    wave_id: int
    probability: float
    priority: float
    volume: float
    hook_type: ClassVar = AnimationHookType.SoundTweaked
    _fmt: ClassVar = "I3f"


@dataclass(frozen=True, slots=True)
class SetOmegaHook(AnimationHook):
    axis: Vec3
    hook_type: ClassVar = AnimationHookType.SetOmega

    @classmethod
    def _read_payload(cls, r: Reader, direction):
        return cls(direction, r.vec3("SetOmega axis"))

    def _write_payload(self, w: Writer) -> None:
        w.vec3(self.axis)


@dataclass(frozen=True, slots=True)
class TextureVelocityHook(AnimationHook):
    u_speed: float
    v_speed: float
    hook_type: ClassVar = AnimationHookType.TextureVelocity
    _fmt: ClassVar = "2f"


@dataclass(frozen=True, slots=True)
class TextureVelocityPartHook(AnimationHook):
    part_index: int
    u_speed: float
    v_speed: float
    hook_type: ClassVar = AnimationHookType.TextureVelocityPart
    _fmt: ClassVar = "i2f"


@dataclass(frozen=True, slots=True)
class SetLightHook(_Bool32, AnimationHook):
    lights_on: bool
    hook_type: ClassVar = AnimationHookType.SetLight


@dataclass(frozen=True, slots=True)
class CreateBlockingParticleHook(AnimationHook):
    """Inherits CreateParticleHook::UnPack 0x005278A0: the full 40-byte payload.

    Not a subclass of CreateParticleHook on purpose: the runtime must tell them apart.
    """

    emitter_info_id: int
    part_index: int
    offset: Frame
    emitter_id: int
    hook_type: ClassVar = AnimationHookType.CreateBlockingParticle
    _read_payload = CreateParticleHook.__dict__["_read_payload"]
    _write_payload = CreateParticleHook._write_payload


HOOK_CLASSES: dict[int, type[AnimationHook]] = {
    cls.hook_type.value: cls for cls in (
        NoOpHook, SoundHook, SoundTableHook, AttackHook, ReplaceObjectHook,
        EtherealHook, TransparentPartHook, LuminousHook, LuminousPartHook, DiffuseHook,
        DiffusePartHook, ScaleHook, CreateParticleHook, DestroyParticleHook, StopParticleHook,
        NoDrawHook, DefaultScriptHook, DefaultScriptPartHook, CallPESHook, TransparentHook,
        SoundTweakedHook, SetOmegaHook, TextureVelocityHook, TextureVelocityPartHook,
        SetLightHook, CreateBlockingParticleHook)
}
assert len(HOOK_CLASSES) == 26 and AnimationHookType.AnimationDone not in HOOK_CLASSES


@dataclass(frozen=True, slots=True)
class NullHook:
    """A stored hook retail builds nothing for (CAnimHook::UnPackHook 0x005271D0 default
    case: type 4 AnimationDone or an unknown number). Header only, no payload.

    Not an ``AnimationHook``: in an Animation frame AnimFrame::UnPack 0x0051F8E0 adds
    nothing for it; in a PhysicsScript the entry keeps its start time with a NULL hook,
    which ScriptManager::UpdateScripts 0x0051B480 takes as the end of that script."""

    direction: AnimationHookDir | int
    type_number: int

    @property
    def hook_type(self) -> AnimationHookType | int:
        """The stored type: the enum member where known (AnimationDone), else the number."""
        return as_enum(AnimationHookType, self.type_number)

    @property
    def type_name(self) -> str | int:
        """The type's name where the enum knows it, else the number."""
        t = self.hook_type
        return t.name if isinstance(t, AnimationHookType) else t


def is_null_hook(hook) -> bool:
    """Whether retail's UnPackHook returned NULL for this stored hook."""
    return isinstance(hook, NullHook)


def read_hook(r: Reader) -> AnimationHook | NullHook:
    """CAnimHook::UnPackHook 0x005271D0: header, payload, align4; a type outside the
    switch (4, unknown) reads no payload and gives a NullHook."""
    hook_type, direction = r.unpack(_HEADER, "AnimationHook header")
    cls = HOOK_CLASSES.get(hook_type)
    if cls is None:
        hook = NullHook(as_enum(AnimationHookDir, direction), hook_type)
    else:
        hook = cls._read_payload(r, as_enum(AnimationHookDir, direction))
    r.align4()
    return hook


class UnknownHooks:
    """Where a record's hooks of an unknown type were read (a label such as ``hook 3`` or
    ``frame 2 hook 0``, the byte offset of the header, the type number). Retail's
    UnPackHook 0x005271D0 reads no payload for such a hook, so if it had one, what follows
    is read from inside it and the record fails further on: ``failure`` names the unknown
    hook instead of that later symptom."""

    __slots__ = ("first",)

    def __init__(self) -> None:
        self.first: tuple[str, int, int] | None = None

    def read(self, r: Reader, label: str) -> AnimationHook | NullHook:
        """``read_hook``, noting the first hook of an unknown type."""
        at = r.pos
        hook = read_hook(r)
        if (self.first is None and isinstance(hook, NullHook)
                and hook.type_number != AnimationHookType.AnimationDone):
            self.first = (label, at, hook.type_number)
        return hook

    def failure(self, r: Reader, why: str) -> DatError:
        label, at, number = self.first
        return r.error(f"{label}: unknown hook type {number} (its header at offset {at}; "
                       f"retail reads no payload for it, and the bytes after it do not "
                       f"decode: {why})", at)

    def check_end(self, r: Reader) -> None:
        """After the last hook: bytes left over mean the unknown hook had a payload."""
        if self.first is not None and r.remaining():
            raise self.failure(r, f"{r.remaining()} bytes left over")

    @contextlib.contextmanager
    def naming(self, r: Reader):
        """Around reading a record's hooks (through ``read``): a DatError after an unknown
        hook becomes ``failure``, and so do bytes left over at the end (``check_end``)."""
        try:
            yield self
        except DatError as err:
            if self.first is None:
                raise
            raise self.failure(r, err.message) from err
        self.check_end(r)


def write_hook(w: Writer, hook: AnimationHook | NullHook) -> None:
    if isinstance(hook, NullHook):
        w.pack(_HEADER, hook.type_number & 0xFFFFFFFF, int(hook.direction))
    else:
        w.pack(_HEADER, hook.hook_type.value, int(hook.direction))
        hook._write_payload(w)
    w.align4()
