"""Outbound client movement packers, byte for byte as retail writes them.

* ``pack_position``           Position::Pack 0x005A9640 (cell, then Frame::Pack 0x00535130:
                              origin x y z, qw qx qy qz)
* ``pack_move_to_state``      MoveToStatePack::Pack 0x005168F0
* ``pack_jump``               JumpPack::Pack 0x00516D10
* ``pack_autonomous_position`` AutonomousPositionPack::Pack 0x00516AF0
* ``game_action``             the 0xF7B1 wrapper: opcode, action sequence, action type, payload

Each ``pack_*`` returns the action payload (what follows ``0xF7B1, seq, type``); that payload
starts 4-aligned inside the message, so align4 from either origin is the same.
"""

from __future__ import annotations

from viewer.wire.descs import Position
from viewer.wire.messages import GAME_ACTION
from viewer.wire.motion import RawMotionState, pack_raw_motion_state
from viewer.wire.reader import Writer

MOVE_TO_STATE = 0xF61C
JUMP = 0xF61B
AUTONOMOUS_POSITION = 0xF753


def pack_position(w: Writer, position: Position) -> None:
    w.u32(position.cell)
    for v in position.origin:
        w.f32(v)
    for v in position.orientation:  # w, x, y, z
        w.f32(v)


def _stamps(w: Writer, instance: int, server_control: int, teleport: int,
            force_position: int) -> None:
    for v in (instance, server_control, teleport, force_position):
        w.u16(v)


def pack_move_to_state(raw: RawMotionState, position: Position, *, instance_ts: int,
                       server_control_ts: int, teleport_ts: int, force_position_ts: int,
                       contact: bool, standing_longjump: bool) -> bytes:
    # MoveToStatePack::Pack 0x005168F0: RawMotionState, Position, four stamps, then one byte
    # (contact ? 1 : 0) | (longjump_mode ? 2 : 0), then ALIGN_PTR
    w = Writer()
    pack_raw_motion_state(w, raw)
    pack_position(w, position)
    _stamps(w, instance_ts, server_control_ts, teleport_ts, force_position_ts)
    w.u8((1 if contact else 0) | (2 if standing_longjump else 0))
    w.align4()
    return w.bytes()


def pack_jump(extent: float, velocity: tuple[float, float, float], position: Position, *,
              instance_ts: int, server_control_ts: int, teleport_ts: int,
              force_position_ts: int) -> bytes:
    # JumpPack::Pack 0x00516D10: extent, velocity, Position, four stamps, ALIGN_PTR
    w = Writer()
    w.f32(extent)
    for v in velocity:
        w.f32(v)
    pack_position(w, position)
    _stamps(w, instance_ts, server_control_ts, teleport_ts, force_position_ts)
    w.align4()
    return w.bytes()


def pack_autonomous_position(position: Position, *, instance_ts: int, server_control_ts: int,
                             teleport_ts: int, force_position_ts: int, contact: bool) -> bytes:
    # AutonomousPositionPack::Pack 0x00516AF0: Position, four stamps, contact-only byte
    w = Writer()
    pack_position(w, position)
    _stamps(w, instance_ts, server_control_ts, teleport_ts, force_position_ts)
    w.u8(1 if contact else 0)
    w.align4()
    return w.bytes()


def game_action(sequence: int, action_type: int, payload: bytes) -> bytes:
    w = Writer()
    w.u32(GAME_ACTION)
    w.u32(sequence)
    w.u32(action_type)
    w.raw(payload)
    return w.bytes()
