"""Motion states on the wire: InterpretedMotionState, RawMotionState, MovementBody.

Parsed types keep presence: a field the sender left out is ``None`` (the receiver then uses
retail's default), distinct from a present value equal to the default. The packers follow
the retail ``Pack`` functions byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.wire.reader import Reader, Writer, f32_bits

# Retail defaults (RawMotionState::UnPack 0x0051EFC0, InterpretedMotionState::UnPack 0x0051F400)
HOLDKEY_INVALID = 0
HOLDKEY_NONE = 1
HOLDKEY_RUN = 2
DEFAULT_STYLE = 0x8000003D      # NonCombat
DEFAULT_FORWARD = 0x41000003    # Ready
ONE_BITS = 0x3F800000           # 1.0f: speeds are compared by their bits in retail

# MovementType
MOVE_INTERPRETED = 0
MOVE_TO_OBJECT = 6
MOVE_TO_POSITION = 7
TURN_TO_OBJECT = 8
TURN_TO_HEADING = 9


@dataclass(frozen=True, slots=True)
class ActionNode:
    command: int       # low 16 bits of the MotionCommand as sent
    stamp: int         # packed & 0x7FFF
    autonomous: bool   # packed >> 15
    speed: float


@dataclass(frozen=True, slots=True)
class InterpretedMotionState:
    """bits u32; u16 commands (style, forward, sidestep, turn) then f32 speeds; actions; align4.

    Commands are the low 16 bits as sent; ``None`` = absent (receiver default)."""
    bits: int
    current_style: int | None
    forward_command: int | None
    sidestep_command: int | None
    turn_command: int | None
    forward_speed: float | None
    sidestep_speed: float | None
    turn_speed: float | None
    actions: tuple[ActionNode, ...]


def read_action(r: Reader) -> ActionNode:
    command = r.u16("ActionNode command")
    packed = r.u16("ActionNode stamp")
    speed = r.f32("ActionNode speed")
    return ActionNode(command, packed & 0x7FFF, bool(packed >> 15), speed)


def read_interpreted_state(r: Reader) -> InterpretedMotionState:
    # InterpretedMotionState::UnPack 0x0051F400: u16 commands before all floats
    bits = r.u32("InterpretedMotionState bits")
    style = r.u16("current_style") if bits & 0x01 else None
    fwd = r.u16("forward_command") if bits & 0x02 else None
    side = r.u16("sidestep_command") if bits & 0x08 else None
    turn = r.u16("turn_command") if bits & 0x20 else None
    fspeed = r.f32("forward_speed") if bits & 0x04 else None
    sspeed = r.f32("sidestep_speed") if bits & 0x10 else None
    tspeed = r.f32("turn_speed") if bits & 0x40 else None
    n = (bits >> 7) & 0x1F  # 0x0051F400: (bits >> 7) & 0x1F
    actions = tuple(read_action(r) for _ in range(n))
    r.align4("InterpretedMotionState align4")
    return InterpretedMotionState(bits, style, fwd, side, turn, fspeed, sspeed, tspeed, actions)


@dataclass(frozen=True, slots=True)
class RawMotionState:
    """Client raw motion state (RawMotionState::UnPack 0x0051EFC0): full u32 commands.

    As parsed, ``None`` = the bit was clear. For packing, ``None`` and a value equal to
    retail's default are the same: ``pack_raw_motion_state`` sets a bit only when the value
    differs from the default (RawMotionState::Pack 0x0051ED10)."""
    current_holdkey: int | None = None
    current_style: int | None = None
    forward_command: int | None = None
    forward_holdkey: int | None = None
    forward_speed: float | None = None
    sidestep_command: int | None = None
    sidestep_holdkey: int | None = None
    sidestep_speed: float | None = None
    turn_command: int | None = None
    turn_holdkey: int | None = None
    turn_speed: float | None = None
    actions: tuple[ActionNode, ...] = ()
    bits: int | None = None  # the flags dword as received (None when built locally)


_RAW_FIELDS = (
    # (bit, name, kind, retail default) in bit order 0..10 (the read/write order)
    (0x001, "current_holdkey", "u32", HOLDKEY_NONE),
    (0x002, "current_style", "u32", DEFAULT_STYLE),
    (0x004, "forward_command", "u32", DEFAULT_FORWARD),
    (0x008, "forward_holdkey", "u32", HOLDKEY_INVALID),
    (0x010, "forward_speed", "f32", ONE_BITS),
    (0x020, "sidestep_command", "u32", 0),
    (0x040, "sidestep_holdkey", "u32", HOLDKEY_INVALID),
    (0x080, "sidestep_speed", "f32", ONE_BITS),
    (0x100, "turn_command", "u32", 0),
    (0x200, "turn_holdkey", "u32", HOLDKEY_INVALID),
    (0x400, "turn_speed", "f32", ONE_BITS),
)


def read_raw_motion_state(r: Reader) -> RawMotionState:
    bits = r.u32("RawMotionState flags")
    values = {}
    for bit, name, kind, _default in _RAW_FIELDS:
        if bits & bit:
            values[name] = r.f32(name) if kind == "f32" else r.u32(name)
    n = (bits & 0xFFFF) >> 11  # RawMotionState::UnPack 0x0051EFC0: (u16)bits >> 11
    actions = tuple(read_action(r) for _ in range(n))
    return RawMotionState(**values, actions=actions, bits=bits)


def raw_motion_state_flags(state: RawMotionState) -> int:
    """The default-difference flags dword (RawMotionState::Pack 0x0051ED10)."""
    flags = 0
    for bit, name, kind, default in _RAW_FIELDS:
        value = getattr(state, name)
        if value is None:
            continue
        if kind == "f32":
            if f32_bits(value) != default:  # compared as bits, like LODWORD(x) != 0x3F800000
                flags |= bit
        elif value & 0xFFFFFFFF != default:
            flags |= bit
    return flags | ((len(state.actions) << 11) & 0xF800)  # 5-bit action count, bits 11..15


def pack_raw_motion_state(w: Writer, state: RawMotionState) -> None:
    # RawMotionState::Pack 0x0051ED10: flags dword, set fields in bit order, then actions
    flags = raw_motion_state_flags(state)
    w.u32(flags)
    for bit, name, kind, _default in _RAW_FIELDS:
        if flags & bit:
            value = getattr(state, name)
            if kind == "f32":
                w.f32(value)
            else:
                w.u32(value)
    for a in state.actions[:31]:
        w.u16(a.command)
        w.u16((a.stamp & 0x7FFF) | (0x8000 if a.autonomous else 0))
        w.f32(a.speed)


@dataclass(frozen=True, slots=True)
class MoveToParameters:
    bitmember: int
    distance_to_object: float
    min_distance: float
    fail_distance: float
    speed: float
    walk_run_threshold: float
    desired_heading: float


@dataclass(frozen=True, slots=True)
class TurnToParameters:
    bitmember: int
    speed: float
    desired_heading: float


@dataclass(frozen=True, slots=True)
class MovementBody:
    """MovementManager::unpack_movement 0x00524440: u16 (type low byte, options high byte),
    u16 style, then the type's payload. Unknown types keep ``unparsed`` bytes."""
    movement_type: int
    options: int
    style: int
    state: InterpretedMotionState | None = None
    sticky_object: int | None = None
    target_guid: int | None = None
    target_origin: tuple | None = None   # (cell, x, y, z)
    moveto_params: MoveToParameters | None = None
    turnto_params: TurnToParameters | None = None
    run_rate: float | None = None
    desired_heading: float | None = None
    unparsed: bytes | None = None

    @property
    def standing_longjump(self) -> bool:
        return bool(self.options & 0x2)


def _origin(r: Reader) -> tuple:
    return (r.u32("Origin cell"),) + r.vec3("Origin")


def _moveto_params(r: Reader) -> MoveToParameters:
    return MoveToParameters(r.u32("MoveToParameters bitmember"), r.f32(), r.f32(), r.f32(),
                            r.f32(), r.f32(), r.f32("MoveToParameters desired_heading"))


def _turnto_params(r: Reader) -> TurnToParameters:
    return TurnToParameters(r.u32("TurnToParameters bitmember"), r.f32(),
                            r.f32("TurnToParameters desired_heading"))


def read_movement_body(r: Reader) -> MovementBody:
    mtype = r.u8("movement_type")
    options = r.u8("movement options")
    style = r.u16("movement style")
    if mtype == MOVE_INTERPRETED:
        state = read_interpreted_state(r)
        sticky = r.u32("sticky_object") if options & 0x1 else None
        return MovementBody(mtype, options, style, state=state, sticky_object=sticky)
    if mtype == MOVE_TO_OBJECT:
        guid = r.u32("MoveToObject target")
        origin = _origin(r)
        params = _moveto_params(r)
        return MovementBody(mtype, options, style, target_guid=guid, target_origin=origin,
                            moveto_params=params, run_rate=r.f32("my_run_rate"))
    if mtype == MOVE_TO_POSITION:
        origin = _origin(r)
        params = _moveto_params(r)
        return MovementBody(mtype, options, style, target_origin=origin, moveto_params=params,
                            run_rate=r.f32("my_run_rate"))
    if mtype == TURN_TO_OBJECT:
        guid = r.u32("TurnToObject target")
        heading = r.f32("TurnToObject desired_heading")
        return MovementBody(mtype, options, style, target_guid=guid, desired_heading=heading,
                            turnto_params=_turnto_params(r))
    if mtype == TURN_TO_HEADING:
        return MovementBody(mtype, options, style, turnto_params=_turnto_params(r))
    # Types 1..5 and others are not sent; retail's unpack_movement ignores the rest.
    return MovementBody(mtype, options, style, unparsed=r.raw(r.remaining, "movement body"))
