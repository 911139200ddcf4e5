"""Game-message codecs (the kinds of docs/cli.md section 7) as immutable, presence-keeping types.

``decode_message(data, direction)`` reads one reassembled message (it starts with its
opcode), unwraps 0xF7B0 / 0xF7B1, and returns the typed message, or ``None`` for an opcode
outside the viewer's set. A message that runs past its end, or does not end exactly where
its layout does, raises :class:`WireError` with the offset inside the message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from viewer.errors import WireError
from viewer.wire.descs import (
    ObjDesc,
    PhysicsDesc,
    Position,
    WeenieDesc,
    read_objdesc,
    read_physics_desc,
    read_weenie_desc,
)
from viewer.wire.motion import (
    MovementBody,
    RawMotionState,
    read_movement_body,
    read_raw_motion_state,
)
from viewer.wire.reader import Reader, f32_from_bits

GAME_EVENT = 0xF7B0
GAME_ACTION = 0xF7B1


@dataclass(frozen=True, slots=True)
class Message:
    OPCODE: ClassVar[int] = 0
    NAME: ClassVar[str] = ""
    DIR: ClassVar[str] = "s2c"

    def guids(self) -> tuple[int, ...]:
        g = getattr(self, "guid", None)
        return () if g is None else (g,)


@dataclass(frozen=True, slots=True)
class CreateObject(Message):
    """0xF745 (0xF7DB UpdateObject has the same body; ``update`` tells them apart)."""
    OPCODE: ClassVar[int] = 0xF745
    NAME: ClassVar[str] = "CreateObject"
    guid: int
    objdesc: ObjDesc
    physics: PhysicsDesc
    weenie: WeenieDesc
    update: bool = False

    def guids(self) -> tuple[int, ...]:
        extra = (self.physics.parent[0],) if self.physics.parent else ()
        return (self.guid,) + extra


@dataclass(frozen=True, slots=True)
class PlayerCreate(Message):
    OPCODE: ClassVar[int] = 0xF746
    NAME: ClassVar[str] = "PlayerCreate"
    guid: int


@dataclass(frozen=True, slots=True)
class DeleteObject(Message):
    OPCODE: ClassVar[int] = 0xF747
    NAME: ClassVar[str] = "DeleteObject"
    guid: int
    instance_ts: int


# PositionPack flags (PositionPack::UnPack 0x00516740)
PP_HAS_VELOCITY = 0x01
PP_HAS_PLACEMENT = 0x02
PP_IS_GROUNDED = 0x04
PP_NO_QW = 0x08
PP_NO_QX = 0x10
PP_NO_QY = 0x20
PP_NO_QZ = 0x40


@dataclass(frozen=True, slots=True)
class UpdatePosition(Message):
    """0xF748. PositionPack::UnPack 0x00516740 fills absent quaternion components, velocity
    and placement with zero; the wire presence stays readable through ``flags`` and the
    ``*_present`` properties, and ``velocity`` / ``placement_id`` are ``None`` when absent."""
    OPCODE: ClassVar[int] = 0xF748
    NAME: ClassVar[str] = "UpdatePosition"
    guid: int
    flags: int
    position: Position               # absent quaternion components are 0.0
    velocity: tuple[float, float, float] | None
    placement_id: int | None
    instance_ts: int
    position_ts: int
    teleport_ts: int
    force_position_ts: int

    @property
    def has_contact(self) -> bool:
        return bool(self.flags & PP_IS_GROUNDED)

    @property
    def orientation_present(self) -> tuple[bool, bool, bool, bool]:
        f = self.flags
        return (not f & PP_NO_QW, not f & PP_NO_QX, not f & PP_NO_QY, not f & PP_NO_QZ)

    @property
    def velocity_or_zero(self) -> tuple[float, float, float]:
        return self.velocity if self.velocity is not None else (0.0, 0.0, 0.0)

    @property
    def placement_or_zero(self) -> int:
        return self.placement_id if self.placement_id is not None else 0


@dataclass(frozen=True, slots=True)
class ParentEvent(Message):
    OPCODE: ClassVar[int] = 0xF749
    NAME: ClassVar[str] = "ParentEvent"
    parent_guid: int
    child_guid: int
    location: int
    placement_id: int
    parent_instance_ts: int
    child_position_ts: int

    def guids(self) -> tuple[int, ...]:
        return (self.parent_guid, self.child_guid)


@dataclass(frozen=True, slots=True)
class PickupEvent(Message):
    OPCODE: ClassVar[int] = 0xF74A
    NAME: ClassVar[str] = "PickupEvent"
    guid: int
    instance_ts: int
    position_ts: int


@dataclass(frozen=True, slots=True)
class SetState(Message):
    OPCODE: ClassVar[int] = 0xF74B
    NAME: ClassVar[str] = "SetState"
    guid: int
    state: int
    instance_ts: int
    state_ts: int


@dataclass(frozen=True, slots=True)
class UpdateMotion(Message):
    OPCODE: ClassVar[int] = 0xF74C
    NAME: ClassVar[str] = "UpdateMotion"
    guid: int
    instance_ts: int
    movement_ts: int
    server_control_ts: int
    autonomous: int
    body: MovementBody


@dataclass(frozen=True, slots=True)
class VectorUpdate(Message):
    OPCODE: ClassVar[int] = 0xF74E
    NAME: ClassVar[str] = "VectorUpdate"
    guid: int
    velocity: tuple[float, float, float]
    omega: tuple[float, float, float]
    instance_ts: int
    vector_ts: int


@dataclass(frozen=True, slots=True)
class SoundEvent(Message):
    OPCODE: ClassVar[int] = 0xF750
    NAME: ClassVar[str] = "Sound"
    guid: int
    sound_type: int
    volume: float


@dataclass(frozen=True, slots=True)
class PlayerTeleport(Message):
    OPCODE: ClassVar[int] = 0xF751
    NAME: ClassVar[str] = "PlayerTeleport"
    teleport_ts: int


@dataclass(frozen=True, slots=True)
class PlayScriptId(Message):
    OPCODE: ClassVar[int] = 0xF754
    NAME: ClassVar[str] = "PlayScriptId"
    guid: int
    script_did: int


@dataclass(frozen=True, slots=True)
class PlayScriptType(Message):
    """0xF755: the raw u32 type (unknown values kept) and the float's raw bits (NaN payloads
    kept) beside its value (SmartBox::HandlePlayScriptType 0x00452070)."""
    OPCODE: ClassVar[int] = 0xF755
    NAME: ClassVar[str] = "PlayScriptType"
    guid: int
    script_type: int
    intensity: float
    intensity_bits: int


@dataclass(frozen=True, slots=True)
class ObjDescEvent(Message):
    OPCODE: ClassVar[int] = 0xF625
    NAME: ClassVar[str] = "ObjDescEvent"
    guid: int
    objdesc: ObjDesc
    instance_ts: int
    objdesc_ts: int


@dataclass(frozen=True, slots=True)
class GameEvent(Message):
    """0xF7B0 wrapper of an event the viewer does not decode."""
    OPCODE: ClassVar[int] = GAME_EVENT
    NAME: ClassVar[str] = "GameEvent"
    guid: int
    sequence: int
    event_type: int
    payload_size: int


@dataclass(frozen=True, slots=True)
class GameAction(Message):
    """0xF7B1 wrapper of an action the viewer does not decode."""
    OPCODE: ClassVar[int] = GAME_ACTION
    NAME: ClassVar[str] = "GameAction"
    DIR: ClassVar[str] = "c2s"
    sequence: int
    action_type: int
    payload_size: int

    def guids(self) -> tuple[int, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class MoveToState(Message):
    """0xF61C inside 0xF7B1 (MoveToStatePack::UnPack 0x005169B0)."""
    OPCODE: ClassVar[int] = 0xF61C
    NAME: ClassVar[str] = "MoveToState"
    DIR: ClassVar[str] = "c2s"
    sequence: int
    raw_motion_state: RawMotionState
    position: Position
    instance_ts: int
    server_control_ts: int
    teleport_ts: int
    force_position_ts: int
    contact: bool
    standing_longjump: bool


@dataclass(frozen=True, slots=True)
class Jump(Message):
    """0xF61B inside 0xF7B1 (JumpPack::UnPack 0x00516DF0: extent, velocity, Position,
    four stamps, align4).

    Non-retail clients send other tails (ACE's stamps + guid + spell); for those only
    extent and velocity are read, the rest is kept in
    ``other_tail`` and the retail fields are ``None``."""
    OPCODE: ClassVar[int] = 0xF61B
    NAME: ClassVar[str] = "Jump"
    DIR: ClassVar[str] = "c2s"
    sequence: int
    extent: float
    velocity: tuple[float, float, float]
    position: Position | None
    instance_ts: int | None
    server_control_ts: int | None
    teleport_ts: int | None
    force_position_ts: int | None
    other_tail: bytes | None = None


@dataclass(frozen=True, slots=True)
class AutonomousPosition(Message):
    """0xF753 inside 0xF7B1 (AutonomousPositionPack::UnPack 0x00516BA0)."""
    OPCODE: ClassVar[int] = 0xF753
    NAME: ClassVar[str] = "AutonomousPosition"
    DIR: ClassVar[str] = "c2s"
    sequence: int
    position: Position
    instance_ts: int
    server_control_ts: int
    teleport_ts: int
    force_position_ts: int
    contact: bool


# ----------------------------------------------------------------------------------------
# decoding


def _create(r: Reader, update: bool) -> CreateObject:
    guid = r.u32("guid")
    return CreateObject(guid, read_objdesc(r), read_physics_desc(r), read_weenie_desc(r),
                        update)


def _update_position(r: Reader) -> UpdatePosition:
    guid = r.u32("guid")
    # PositionPack::UnPack 0x00516740
    flags = r.u32("PositionPack flags")
    cell = r.u32("PositionPack objcell_id")
    origin = r.vec3("PositionPack origin")
    qw = 0.0 if flags & PP_NO_QW else r.f32("qw")
    qx = 0.0 if flags & PP_NO_QX else r.f32("qx")
    qy = 0.0 if flags & PP_NO_QY else r.f32("qy")
    qz = 0.0 if flags & PP_NO_QZ else r.f32("qz")
    velocity = r.vec3("PositionPack velocity") if flags & PP_HAS_VELOCITY else None
    placement = r.u32("PositionPack placement_id") if flags & PP_HAS_PLACEMENT else None
    stamps = r.stamps4("PositionPack timestamps")
    return UpdatePosition(guid, flags, Position(cell, origin, (qw, qx, qy, qz)), velocity,
                          placement, *stamps)


def _stamp_pair(r: Reader) -> tuple[int, int]:
    # PhysicsTimestampPack::UnPack 0x00516F50: ts1 u16, ts2 u16, align4
    a, b = r.u16("timestamp"), r.u16("timestamp")
    r.align4()
    return a, b


def _update_motion(r: Reader) -> UpdateMotion:
    guid = r.u32("guid")
    instance = r.u16("instance_ts")
    movement = r.u16("movement_ts")
    server = r.u16("server_control_ts")
    autonomous = r.u8("autonomous")
    r.align4()  # CPhysics::SetObjectMovement 0x00509790
    return UpdateMotion(guid, instance, movement, server, autonomous, read_movement_body(r))


def _play_script_type(r: Reader) -> PlayScriptType:
    guid = r.u32("guid")
    script_type = r.u32("script_type")
    bits = r.u32("intensity")
    return PlayScriptType(guid, script_type, f32_from_bits(bits), bits)


def _move_to_state(r: Reader, seq: int) -> MoveToState:
    raw = read_raw_motion_state(r)
    pos = Position.read(r)
    stamps = r.stamps4("MoveToState timestamps")
    byte = r.u8("MoveToState contact byte")
    r.align4()
    return MoveToState(seq, raw, pos, *stamps, bool(byte & 1), bool(byte & 2))


JUMP_RETAIL_TAIL = 40  # Position (32) + four u16 stamps (8), already 4-aligned


def _jump(r: Reader, seq: int) -> Jump:
    extent = r.f32("Jump extent")
    velocity = r.vec3("Jump velocity")
    if r.remaining != JUMP_RETAIL_TAIL:
        return Jump(seq, extent, velocity, None, None, None, None, None,
                    r.raw(r.remaining, "Jump tail"))
    pos = Position.read(r)
    stamps = r.stamps4("Jump timestamps")
    r.align4()
    return Jump(seq, extent, velocity, pos, *stamps)


def _autonomous_position(r: Reader, seq: int) -> AutonomousPosition:
    pos = Position.read(r)
    stamps = r.stamps4("AutonomousPosition timestamps")
    contact = r.u8("AutonomousPosition contact")
    r.align4()
    return AutonomousPosition(seq, pos, *stamps, contact != 0)


_S2C = {
    0xF745: lambda r: _create(r, False),
    0xF7DB: lambda r: _create(r, True),
    0xF746: lambda r: PlayerCreate(r.u32("guid")),
    0xF747: lambda r: DeleteObject(r.u32("guid"), _stamp_pair_first(r)),
    0xF748: _update_position,
    0xF749: lambda r: ParentEvent(r.u32("parent guid"), r.u32("child guid"), r.u32("location"),
                                  r.u32("placement_id"), *_stamp_pair(r)),
    0xF74A: lambda r: PickupEvent(r.u32("guid"), *_stamp_pair(r)),
    0xF74B: lambda r: SetState(r.u32("guid"), r.u32("state"), *_stamp_pair(r)),
    0xF74C: _update_motion,
    0xF74E: lambda r: VectorUpdate(r.u32("guid"), r.vec3("velocity"), r.vec3("omega"),
                                   *_stamp_pair(r)),
    0xF750: lambda r: SoundEvent(r.u32("guid"), r.u32("sound_type"), r.f32("volume")),
    0xF751: lambda r: PlayerTeleport(_stamp_pair_first(r)),
    0xF754: lambda r: PlayScriptId(r.u32("guid"), r.u32("script_did")),
    0xF755: _play_script_type,
    0xF625: lambda r: ObjDescEvent(r.u32("guid"), read_objdesc(r), *_stamp_pair(r)),
}

_C2S_ACTIONS = {
    0xF61C: _move_to_state,
    0xF61B: _jump,
    0xF753: _autonomous_position,
}


def _stamp_pair_first(r: Reader) -> int:
    """A single u16 stamp followed by align4 (DeleteObject, PlayerTeleport)."""
    v = r.u16("timestamp")
    r.align4()
    return v


# Opcodes this module decodes (after unwrapping), for counting and filtering.
DECODED_OPCODES = frozenset(_S2C) | frozenset(_C2S_ACTIONS)


def effective_opcode(data: bytes) -> int | None:
    """Util.readOpcode: the opcode, looking inside 0xF7B0 / 0xF7B1 wrappers."""
    if len(data) < 4:
        return None
    op = int.from_bytes(data[0:4], "little")
    if op == GAME_EVENT and len(data) >= 16:
        return int.from_bytes(data[12:16], "little")
    if op == GAME_ACTION and len(data) >= 12:
        return int.from_bytes(data[8:12], "little")
    return op


def decode_message(data: bytes, direction: str = "s2c", *, strict_end: bool = True
                   ) -> Message | None:
    """Decode one reassembled message; ``None`` when its opcode is outside the viewer's set.

    With ``strict_end`` a message that does not end exactly at its last byte raises
    :class:`WireError` (every message of the listed kinds is consumed exactly)."""
    r = Reader(data)
    op = r.u32("opcode")
    try:
        if op == GAME_EVENT:
            guid, seq, etype = r.u32("event guid"), r.u32("event sequence"), r.u32("event type")
            return GameEvent(guid, seq, etype, r.remaining)
        if op == GAME_ACTION:
            seq, atype = r.u32("action sequence"), r.u32("action type")
            fn = _C2S_ACTIONS.get(atype)
            if fn is None:
                return GameAction(seq, atype, r.remaining)
            msg = fn(r, seq)
        else:
            fn = _S2C.get(op)
            if fn is None:
                return None
            msg = fn(r)
        if strict_end and r.pos != r.end:
            raise WireError(f"0x{op:04X} {type(msg).NAME}: {r.end - r.pos} bytes left after "
                            f"the message end", offset=r.pos)
        return msg
    except WireError as err:
        name = f"0x{effective_opcode(data) or op:04X}"
        if not err.message.startswith("0x"):
            raise WireError(f"{name}: {err.message}", offset=err.offset) from None
        raise

