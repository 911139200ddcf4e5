"""Message codecs: hand-written fixtures, presence, PhysicsDesc cursors, test vectors."""

from __future__ import annotations

import math

import pytest

from tests.wire.builders import (
    create_object,
    empty_objdesc,
    stamp_pair,
    u8,
    u16,
    u32,
    weenie_desc,
)
from viewer.errors import WireError
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
from viewer.wire.messages import (
    CreateObject,
    DeleteObject,
    ObjDescEvent,
    PickupEvent,
    PlayScriptId,
    PlayScriptType,
    SetState,
    UpdateMotion,
    UpdatePosition,
    decode_message,
    effective_opcode,
)

ALL_FLAGS = (PD_MOVEMENT | PD_POSITION | PD_MTABLE | PD_STABLE | PD_PETABLE | PD_CSETUP
             | PD_PARENT | PD_CHILDREN | PD_OBJSCALE | PD_FRICTION | PD_ELASTICITY
             | PD_TRANSLUCENCY | PD_VELOCITY | PD_ACCELERATION | PD_OMEGA | PD_DEFAULT_SCRIPT
             | PD_DEFAULT_SCRIPT_INTENSITY)


def test_F754_fixture_HandlePlayScriptID_0x00452020():
    data = bytes.fromhex("54F70000 42000050 99000033".replace(" ", ""))
    msg = decode_message(data)
    assert msg == PlayScriptId(0x50000042, 0x33000099)


def test_F755_fixture_keeps_unknown_raw_type_and_nan_bits():
    data = bytes.fromhex("55F70000 42000050 A5A5A5A5 3412C07F".replace(" ", ""))
    msg = decode_message(data)
    assert isinstance(msg, PlayScriptType)
    assert msg.guid == 0x50000042
    assert msg.script_type == 0xA5A5A5A5          # unknown type preserved raw
    assert msg.intensity_bits == 0x7FC01234       # NaN payload preserved
    assert math.isnan(msg.intensity)


def test_F755_test_vector_3_shield_up_grey():
    msg = decode_message(bytes.fromhex("55f70000162b0050370000" "00cdcc4c3d"))
    assert (msg.guid, msg.script_type, msg.intensity_bits) == (0x50002B16, 0x37, 0x3D4CCCCD)
    assert msg.intensity == pytest.approx(0.05)


def test_F755_trailing_byte_is_an_error_not_ignored():
    data = bytes.fromhex("55F70000 42000050 37000000 0000803F 00".replace(" ", ""))
    with pytest.raises(WireError, match="left after"):
        decode_message(data)


@pytest.mark.parametrize("cut", range(4, 16))
def test_F755_truncated_at_every_byte_raises_WireError(cut):
    data = bytes.fromhex("55F70000 42000050 37000000 0000803F".replace(" ", ""))
    with pytest.raises(WireError) as exc:
        decode_message(data[:cut])
    assert exc.value.offset is not None


def test_F74C_test_vector_4_interpreted_state():
    data = bytes.fromhex("4cf700006fc0887c00002d002d000000" "00003d00030000003d007f00")
    msg = decode_message(data)
    assert isinstance(msg, UpdateMotion)
    assert (msg.guid, msg.instance_ts, msg.movement_ts, msg.server_control_ts,
            msg.autonomous) == (0x7C88C06F, 0, 45, 45, 0)
    b = msg.body
    assert (b.movement_type, b.options, b.style) == (0, 0, 0x3D)
    s = b.state
    assert (s.bits, s.current_style, s.forward_command) == (3, 0x3D, 0x7F)
    assert s.sidestep_command is None and s.forward_speed is None and s.actions == ()


def test_F74A_test_vector_5_pickup():
    assert decode_message(bytes.fromhex("4af7000046340f8000000100")) == \
        PickupEvent(0x800F3446, 0, 1)


def test_F748_test_vector_7_positionpack_absent_components_are_zero_but_flagged():
    data = bytes.fromhex("48f70000020000503400000" "01d0055dab032b0426b80d5423d0aa041"
                         "a6687cbff3ea2abe0d003b0300000000")
    msg = decode_message(data)
    assert isinstance(msg, UpdatePosition)
    assert msg.flags == 0x34 and msg.has_contact
    assert msg.position.cell == 0xDA55001D
    assert msg.position.origin == pytest.approx((88.10, 106.75, 20.005), abs=2e-3)
    qw, qx, qy, qz = msg.position.orientation
    assert (qx, qy) == (0.0, 0.0)
    assert qw == pytest.approx(-0.986, abs=1e-3) and qz == pytest.approx(-0.167, abs=1e-3)
    assert msg.orientation_present == (True, False, False, True)
    # PositionPack::UnPack 0x00516740: absent velocity / placement read as zero, kept absent
    assert msg.velocity is None and msg.velocity_or_zero == (0.0, 0.0, 0.0)
    assert msg.placement_id is None and msg.placement_or_zero == 0
    assert (msg.instance_ts, msg.position_ts, msg.teleport_ts, msg.force_position_ts) == \
        (13, 827, 0, 0)


def test_F748_present_zero_velocity_and_placement_stay_present():
    body = (u32(0xF748) + u32(0x50000001) + u32(0x1 | 0x2) + u32(0x0101) + b"\0" * 12
            + b"\0" * 16 + b"\0" * 12 + u32(0) + u16(1) + u16(2) + u16(3) + u16(4))
    msg = decode_message(body)
    assert msg.velocity == (0.0, 0.0, 0.0) and msg.placement_id == 0


def test_F747_F74B_F625_layouts():
    assert decode_message(u32(0xF747) + u32(7) + u16(3) + b"\0\0") == DeleteObject(7, 3)
    assert decode_message(u32(0xF74B) + u32(7) + u32(0x4000) + stamp_pair(1, 2)) == \
        SetState(7, 0x4000, 1, 2)
    msg = decode_message(u32(0xF625) + u32(7) + empty_objdesc() + stamp_pair(5, 6))
    assert isinstance(msg, ObjDescEvent) and (msg.instance_ts, msg.objdesc_ts) == (5, 6)


def test_CreateObject_all_fields_in_PhysicsDesc_UnPack_0x0051DDD0_order():
    msg = decode_message(create_object(0x80000001, ALL_FLAGS))
    assert isinstance(msg, CreateObject)
    p = msg.physics
    assert p.movement_body.state.current_style == 0x3D and p.autonomous_movement == 1
    assert p.animframe_id is None  # MOVEMENT and ANIMFRAME_ID are exclusive
    assert (p.motion_table, p.sound_table, p.physics_script_table, p.setup) == \
        (0x09000001, 0x20000014, 0x3400002B, 0x02000124)
    assert p.parent == (0x50000001, 1)
    assert p.children == ((0x50000002, 1), (0x50000003, 2))
    assert (p.scale, p.friction, p.elasticity, p.translucency) == (1.5, 0.5, 0.25, 0.75)
    assert p.velocity == (1.0, 2.0, 3.0) and p.omega == (0.0, 0.0, 1.0)
    assert p.default_script == 0x37 and p.default_script_intensity == 0.5
    assert p.timestamps == (1, 2, 3, 4, 5, 6, 7, 8, 9) and p.instance_ts == 9
    assert msg.weenie.name == "Pyreal" and msg.weenie.wcid == 0x111
    assert msg.weenie.icon == 0x0600229F


def test_PhysicsDesc_absent_is_None_present_zero_is_zero():
    flags = PD_OBJSCALE | PD_FRICTION | PD_PETABLE | PD_DEFAULT_SCRIPT_INTENSITY | PD_VELOCITY
    present = decode_message(create_object(1, flags, zero=True)).physics
    absent = decode_message(create_object(1, 0)).physics
    assert present.scale == 0.0 and absent.scale is None
    assert present.friction == 0.0 and absent.friction is None
    assert present.physics_script_table == 0 and absent.physics_script_table is None
    assert present.default_script_intensity == 0.0 and absent.default_script_intensity is None
    assert present.velocity == (0.0, 0.0, 0.0) and absent.velocity is None


def test_PhysicsDesc_movement_length_zero_has_no_autonomous_word():
    # PhysicsDesc::UnPack 0x0051DDD0: autonomous only when n > 0
    body = u32(PD_MOVEMENT) + u32(0) + u32(0) + b"".join(u16(i) for i in range(9)) + b"\0\0"
    data = u32(0xF745) + u32(1) + empty_objdesc() + body + weenie_desc()
    p = decode_message(data).physics
    assert p.movement is None and p.autonomous_movement is None


def test_PhysicsDesc_animframe_when_no_movement():
    p = decode_message(create_object(1, PD_ANIMFRAME_ID)).physics
    assert p.animframe_id == 0x65


def _gated_cursors(flags: int) -> list[int]:
    """Every prefix length of a CreateObject with ``flags``, stopping inside each field."""
    full = create_object(0x80000001, flags)
    return list(range(len(full)))


@pytest.mark.parametrize("flags", [ALL_FLAGS, ALL_FLAGS & ~PD_MOVEMENT | PD_ANIMFRAME_ID,
                                   PD_CSETUP | PD_PETABLE, 0])
def test_PhysicsDesc_truncation_at_every_cursor_raises_WireError(flags):
    full = create_object(0x80000001, flags)
    assert isinstance(decode_message(full), CreateObject)
    for cut in range(len(full)):
        with pytest.raises(WireError) as exc:
            decode_message(full[:cut])
        assert exc.value.offset is not None and exc.value.offset <= cut


def test_wrappers_F7B0_F7B1_effective_opcode():
    ev = u32(0xF7B0) + u32(0x50000001) + u32(9) + u32(0x02DA) + b"abcd"
    assert effective_opcode(ev) == 0x02DA
    msg = decode_message(ev)
    assert (msg.guid, msg.sequence, msg.event_type, msg.payload_size) == \
        (0x50000001, 9, 0x02DA, 4)
    act = u32(0xF7B1) + u32(0x118) + u32(0xC8) + u32(0x80414B6A)
    assert effective_opcode(act) == 0xC8
    assert decode_message(act).action_type == 0xC8


def test_unknown_opcode_is_skipped_as_None():
    assert decode_message(u32(0xF7E0) + b"xyz") is None


def test_ObjDesc_counts_and_packed_dwords():
    # 1 subpalette (base 0x04000BEF as 0x0BEF; palette 0x04000BF3), 1 texture, 1 anim part
    od = (bytes([0x11, 1, 1, 1]) + u16(0x0BEF) + u16(0x0BF3) + u8(0) + u8(0)
          + u8(0) + u16(0x0F90) + u16(0x1F89) + u8(0) + u16(0x029A))
    od += b"\0" * ((-len(od)) & 3)
    msg = decode_message(u32(0xF625) + u32(1) + od + stamp_pair(0, 1))
    d = msg.objdesc
    assert d.base_palette == 0x04000BEF and d.subpalettes[0].palette == 0x04000BF3
    assert d.texture_changes[0].new_texture == 0x05001F89
    assert d.anim_part_changes[0].gfxobj == 0x0100029A


def test_PackedDword_four_byte_form():
    # high bit set: ((a & 0x7FFF) << 16) | b, plus the known-type base
    od = bytes([0x11, 0, 0, 1]) + u8(2) + u16(0x8001) + u16(0x0002) + b"\0\0\0"
    msg = decode_message(u32(0xF625) + u32(1) + od + stamp_pair(0, 1))
    assert msg.objdesc.anim_part_changes[0].gfxobj == 0x01000000 + 0x00010002
