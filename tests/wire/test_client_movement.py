"""Outbound movement packing: golden bytes written by hand from the retail Pack rules.

RawMotionState::Pack 0x0051ED10 (default-difference flags, bit order, 5-bit action count),
MoveToStatePack::Pack 0x005168F0 (trailing contact | longjump byte, align4), JumpPack::Pack
0x00516D10 (extent, velocity, Position, four stamps), AutonomousPositionPack::Pack 0x00516AF0
(contact-only byte), Position::Pack 0x005A9640 (cell, origin, qw qx qy qz).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.wire.client import (
    AUTONOMOUS_POSITION,
    JUMP,
    MOVE_TO_STATE,
    game_action,
    pack_autonomous_position,
    pack_jump,
    pack_move_to_state,
    pack_position,
)
from viewer.wire.descs import Position
from viewer.wire.messages import AutonomousPosition, Jump, MoveToState, decode_message
from viewer.wire.motion import (
    ActionNode,
    RawMotionState,
    pack_raw_motion_state,
    raw_motion_state_flags,
)
from viewer.wire.reader import Writer

H = bytes.fromhex
POS = Position(0xA9B4001F, (1.0, 2.0, -0.5), (1.0, 0.0, 0.0, 0.0))
# Position block: cell 1F00B4A9, x 1.0 (0000803F), y 2.0 (00000040), z -0.5 (000000BF),
# qw 1.0, qx 0, qy 0, qz 0
POS_BYTES = H("1F00B4A9" "0000803F" "00000040" "000000BF" "0000803F" "00000000" "00000000"
              "00000000")


def raw_bytes(state: RawMotionState) -> bytes:
    w = Writer()
    pack_raw_motion_state(w, state)
    return w.bytes()


def test_Position_Pack_0x005A9640_field_order():
    w = Writer()
    pack_position(w, POS)
    assert w.bytes() == POS_BYTES


def test_RawMotionState_default_is_only_a_zero_flags_dword():
    assert raw_bytes(RawMotionState()) == H("00000000")


def test_RawMotionState_explicit_defaults_are_omitted():
    # values equal to retail's defaults set no bit (default-difference, not presence)
    s = RawMotionState(current_holdkey=1, current_style=0x8000003D, forward_command=0x41000003,
                       forward_holdkey=0, forward_speed=1.0, sidestep_command=0,
                       sidestep_holdkey=0, sidestep_speed=1.0, turn_command=0, turn_holdkey=0,
                       turn_speed=1.0)
    assert raw_bytes(s) == H("00000000")


def test_RawMotionState_walk_forward_speed_one_omits_forward_speed():
    s = RawMotionState(forward_command=0x45000005, forward_holdkey=1, forward_speed=1.0)
    # flags 0x0C: forward_command (0x4) + forward_holdkey (0x8)
    assert raw_bytes(s) == H("0C000000" "05000045" "01000000")


def test_RawMotionState_run_forward():
    s = RawMotionState(current_holdkey=2, forward_command=0x44000007, forward_holdkey=2,
                       forward_speed=2.5)
    # flags 0x1D: holdkey, forward_command, forward_holdkey, forward_speed (2.5 = 0x40200000)
    assert raw_bytes(s) == H("1D000000" "02000000" "07000044" "02000000" "00002040")


def test_RawMotionState_walk_backwards_negative_speed():
    s = RawMotionState(forward_command=0x45000005, forward_holdkey=1, forward_speed=-0.65)
    assert raw_bytes(s) == H("1C000000" "05000045" "01000000") + H("6666 26BF".replace(" ", ""))


def test_RawMotionState_sidestep_right_and_left():
    right = RawMotionState(sidestep_command=0x6500000F, sidestep_holdkey=1)
    assert raw_bytes(right) == H("60000000" "0F000065" "01000000")
    left = RawMotionState(sidestep_command=0x6500000F, sidestep_holdkey=1, sidestep_speed=-1.0)
    assert raw_bytes(left) == H("E0000000" "0F000065" "01000000" "000080BF")


def test_RawMotionState_turn_right_and_left():
    right = RawMotionState(turn_command=0x6500000D, turn_holdkey=1)
    assert raw_bytes(right) == H("00030000" "0D000065" "01000000")
    left = RawMotionState(turn_command=0x6500000D, turn_holdkey=1, turn_speed=-1.0)
    assert raw_bytes(left) == H("00070000" "0D000065" "01000000" "000080BF")


def test_RawMotionState_non_default_style():
    assert raw_bytes(RawMotionState(current_style=0x8000003C)) == H("02000000" "3C000080")


def test_RawMotionState_actions_count_in_bits_11_to_15_each_8_bytes():
    s = RawMotionState(actions=(ActionNode(0x003B, 5, True, 1.0), ActionNode(0x0087, 6, False,
                                                                             1.5)))
    # flags 2 << 11 = 0x1000; action: u16 command, u16 stamp | autonomous << 15, f32 speed
    assert raw_bytes(s) == H("00100000" "3B00" "0580" "0000803F" "8700" "0600" "0000C03F")


def test_RawMotionState_speed_compared_by_bits_negative_zero_is_sent():
    assert raw_motion_state_flags(RawMotionState(forward_speed=-0.0)) == 0x10


def test_RawMotionState_flags_use_only_bits_0_to_15():
    s = RawMotionState(actions=tuple(ActionNode(3, i, False, 1.0) for i in range(31)))
    assert raw_motion_state_flags(s) == 31 << 11


@pytest.mark.parametrize("contact,longjump,byte", [(False, False, 0), (True, False, 1),
                                                   (False, True, 2), (True, True, 3)])
def test_MoveToState_trailing_byte_contact_or_longjump(contact, longjump, byte):
    payload = pack_move_to_state(RawMotionState(), POS, instance_ts=1, server_control_ts=2,
                                 teleport_ts=3, force_position_ts=4, contact=contact,
                                 standing_longjump=longjump)
    # raw state (4) + Position (32) + stamps (8) + byte (1) + align4 pad (3) = 48
    assert payload == (H("00000000") + POS_BYTES + H("0100" "0200" "0300" "0400")
                       + bytes([byte]) + b"\0\0\0")


def test_MoveToState_golden_walk_message_and_round_trip():
    raw = RawMotionState(forward_command=0x45000005, forward_holdkey=1)
    payload = pack_move_to_state(raw, POS, instance_ts=0x10, server_control_ts=0x20,
                                 teleport_ts=0x30, force_position_ts=0x40, contact=True,
                                 standing_longjump=False)
    msg = game_action(0x118, MOVE_TO_STATE, payload)
    assert msg == (H("B1F70000" "18010000" "1CF60000") + H("0C000000" "05000045" "01000000")
                   + POS_BYTES + H("1000" "2000" "3000" "4000") + H("01" "000000"))
    dec = decode_message(msg)
    assert isinstance(dec, MoveToState)
    assert dec.raw_motion_state.forward_command == 0x45000005
    assert dec.raw_motion_state.forward_speed is None  # omitted on the wire
    assert dec.position == POS and dec.contact and not dec.standing_longjump
    assert (dec.instance_ts, dec.server_control_ts, dec.teleport_ts,
            dec.force_position_ts) == (0x10, 0x20, 0x30, 0x40)


def test_Jump_retail_layout_has_position_and_no_guid_or_spell():
    payload = pack_jump(0.5, (0.0, 0.0, 4.0), POS, instance_ts=1, server_control_ts=2,
                        teleport_ts=3, force_position_ts=4)
    assert payload == (H("0000003F" "00000000" "00000000" "00008040") + POS_BYTES
                       + H("0100" "0200" "0300" "0400"))
    assert len(payload) == 56
    dec = decode_message(game_action(7, JUMP, payload))
    assert isinstance(dec, Jump) and dec.extent == 0.5 and dec.velocity == (0.0, 0.0, 4.0)
    assert dec.position == POS and dec.force_position_ts == 4


@pytest.mark.parametrize("contact,byte", [(False, 0), (True, 1)])
def test_AutonomousPosition_timestamp_order_and_contact_only_byte(contact, byte):
    payload = pack_autonomous_position(POS, instance_ts=0x0A, server_control_ts=0x0B,
                                       teleport_ts=0x0C, force_position_ts=0x0D,
                                       contact=contact)
    assert payload == POS_BYTES + H("0A00" "0B00" "0C00" "0D00") + bytes([byte]) + b"\0\0\0"
    dec = decode_message(game_action(9, AUTONOMOUS_POSITION, payload))
    assert isinstance(dec, AutonomousPosition) and dec.contact == contact
    assert (dec.instance_ts, dec.server_control_ts, dec.teleport_ts,
            dec.force_position_ts) == (0x0A, 0x0B, 0x0C, 0x0D)


_f32 = st.floats(width=32, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(fwd=st.integers(0, 0xFFFFFFFF), fs=_f32, ts=_f32, hold=st.integers(0, 2),
       n=st.integers(0, 5))
def test_RawMotionState_pack_unpack_round_trip(fwd, fs, ts, hold, n):
    s = RawMotionState(current_holdkey=hold, forward_command=fwd, forward_speed=fs,
                       turn_speed=ts,
                       actions=tuple(ActionNode(i, i + 1, bool(i & 1), 1.0) for i in range(n)))
    payload = pack_move_to_state(s, POS, instance_ts=1, server_control_ts=2, teleport_ts=3,
                                 force_position_ts=4, contact=False, standing_longjump=True)
    dec = decode_message(game_action(1, MOVE_TO_STATE, payload)).raw_motion_state
    assert (dec.current_holdkey if dec.current_holdkey is not None else 1) == hold
    assert (dec.forward_command if dec.forward_command is not None else 0x41000003) == fwd
    assert (dec.forward_speed if dec.forward_speed is not None else 1.0) == fs
    assert dec.actions == s.actions


def test_Jump_with_a_non_retail_tail_keeps_extent_and_velocity_only():
    # ACE layout: extent, velocity, four stamps, guid, spell
    payload = (pack_jump(0.5, (0.0, 0.0, 4.0), POS, instance_ts=1, server_control_ts=2,
                         teleport_ts=3, force_position_ts=4)[:16]
               + H("0100020003000400" "01000050" "00000000"))
    dec = decode_message(game_action(7, JUMP, payload))
    assert dec.extent == 0.5 and dec.velocity == (0.0, 0.0, 4.0)
    assert dec.position is None and dec.instance_ts is None and len(dec.other_tail) == 16
