"""AnimationHook fixtures: hand-built bytes for all 27 types (CAnimHook::UnPackHook 0x005271D0).

Every fixture is one PhysicsScript record so the hook sits where retail has it:
  +0  u32 id, +4 u32 num_script_data, +8 f64 start_time, +16 the hook (u32 type, i32 dir,
  payload, align4 measured from the record start).
"""

from __future__ import annotations

import struct

import pytest

from viewer.dat import records as R
from viewer.dat.records import AnimationHookDir as Dir
from viewer.errors import DatError

PES = 0x33000AEA


def pes(*hooks: bytes, times=None) -> bytes:
    """A PhysicsScript holding the given raw hook bytes (each already padded)."""
    times = times or [0.0] * len(hooks)
    out = struct.pack("<II", PES, len(hooks))          # +0 id, +4 count
    for t, h in zip(times, hooks):
        out += struct.pack("<d", t) + h                # f64 start_time, then the hook
    return out


def hook(t: int, d: int, payload: bytes) -> bytes:
    raw = struct.pack("<Ii", t, d) + payload
    return raw + b"\0" * ((-len(raw)) & 3)             # align4 (hooks start 4-aligned)


def one(data: bytes):
    s = R.decode(PES, data)
    assert len(s.script_data) == 1
    return s.script_data[0].hook


FRAME = struct.pack("<7f", 0.5, -1.0, 2.0, 1.0, 0.0, 0.0, 0.0)   # origin, then w, x, y, z


# (type, payload bytes, expected hook) -- payload layouts as each hook's UnPack reads them
CASES = [
    (0, b"", R.NoOpHook(Dir.Both)),
    (1, struct.pack("<I", 0x0A000002), R.SoundHook(Dir.Both, 0x0A000002)),
    (2, struct.pack("<I", 0x0F), R.SoundTableHook(Dir.Both, 0x0F)),
    # Attack: u32 part_index, f32 left_x, left_y, right_x, right_y, radius, height (28)
    (3, struct.pack("<I6f", 3, -0.5, 1.0, 0.5, 1.0, 2.5, 1.75),
     R.AttackHook(Dir.Both, 3, -0.5, 1.0, 0.5, 1.0, 2.5, 1.75)),
    (4, b"", R.NullHook(Dir.Both, 4)),
    # ReplaceObject: u8 part, packed DID short form (offset 0x05E8 <= 0x3FFF), pad 1
    (5, bytes([2]) + struct.pack("<H", 0x05E8), R.ReplaceObjectHook(Dir.Both, 2, 0x010005E8)),
    (6, struct.pack("<I", 1), R.EtherealHook(Dir.Both, True)),
    (7, struct.pack("<I3f", 1, 0.0, 1.0, 0.5), R.TransparentPartHook(Dir.Both, 1, 0.0, 1.0, 0.5)),
    (8, struct.pack("<3f", 0.25, 0.75, 2.0), R.LuminousHook(Dir.Both, 0.25, 0.75, 2.0)),
    (9, struct.pack("<I3f", 4, 1.0, 0.0, 0.25), R.LuminousPartHook(Dir.Both, 4, 1.0, 0.0, 0.25)),
    (10, struct.pack("<3f", 0.5, 1.0, 3.0), R.DiffuseHook(Dir.Both, 0.5, 1.0, 3.0)),
    (11, struct.pack("<I3f", 5, 0.125, 0.875, 1.5),
     R.DiffusePartHook(Dir.Both, 5, 0.125, 0.875, 1.5)),
    (12, struct.pack("<2f", 2.0, 0.5), R.ScaleHook(Dir.Both, 2.0, 0.5)),
    # CreateParticle: u32 emitter_info_id, u32 part_index, Frame (28), u32 emitter_id = 40
    (13, struct.pack("<II", 0x3200071B, 0xFFFFFFFF) + FRAME + struct.pack("<I", 19),
     R.CreateParticleHook(Dir.Both, 0x3200071B, -1,
                          R.Frame((0.5, -1.0, 2.0), (1.0, 0.0, 0.0, 0.0)), 19)),
    (14, struct.pack("<I", 19), R.DestroyParticleHook(Dir.Both, 19)),
    (15, struct.pack("<I", 7), R.StopParticleHook(Dir.Both, 7)),
    (16, struct.pack("<I", 0), R.NoDrawHook(Dir.Both, False)),
    (17, b"", R.DefaultScriptHook(Dir.Both)),
    (18, struct.pack("<I", 2), R.DefaultScriptPartHook(Dir.Both, 2)),
    (19, struct.pack("<If", 0x3300011B, 0.75), R.CallPESHook(Dir.Both, 0x3300011B, 0.75)),
    (20, struct.pack("<3f", 0.0, 1.0, 0.25), R.TransparentHook(Dir.Both, 0.0, 1.0, 0.25)),
    # SoundTweaked: u32 wave_id, f32 probability, f32 priority, f32 volume
    (21, struct.pack("<I3f", 0x0A000262, 0.5, 0.25, 1.0),
     R.SoundTweakedHook(Dir.Both, 0x0A000262, 0.5, 0.25, 1.0)),
    (22, struct.pack("<3f", 0.0, 0.0, 3.0), R.SetOmegaHook(Dir.Both, (0.0, 0.0, 3.0))),
    (23, struct.pack("<2f", 0.5, -0.25), R.TextureVelocityHook(Dir.Both, 0.5, -0.25)),
    (24, struct.pack("<I2f", 1, 0.125, 0.5), R.TextureVelocityPartHook(Dir.Both, 1, 0.125, 0.5)),
    (25, struct.pack("<I", 1), R.SetLightHook(Dir.Both, True)),
    (26, struct.pack("<II", 0x3200078E, 0) + FRAME + struct.pack("<I", 21),
     R.CreateBlockingParticleHook(Dir.Both, 0x3200078E, 0,
                                  R.Frame((0.5, -1.0, 2.0), (1.0, 0.0, 0.0, 0.0)), 21)),
]


def test_every_hook_type_has_a_fixture():
    assert sorted(c[0] for c in CASES) == list(range(27))
    # CAnimHook::UnPackHook 0x005271D0 builds every type but 4 (AnimationDone)
    assert sorted(R.HOOK_CLASSES) == [t for t in range(27) if t != 4]


@pytest.mark.parametrize("hook_type,payload,expected", CASES,
                         ids=[R.AnimationHookType(c[0]).name for c in CASES])
def test_hook_fixture_decodes_and_reencodes(hook_type, payload, expected):
    data = pes(hook(hook_type, 0, payload))
    got = one(data)
    assert got == expected
    assert (got.type_number if isinstance(got, R.NullHook) else type(got).hook_type) == hook_type
    assert R.encode(R.decode(PES, data)) == data


@pytest.mark.parametrize("hook_type,payload,expected", CASES,
                         ids=[R.AnimationHookType(c[0]).name for c in CASES])
def test_hook_followed_by_another_decodes_at_the_aligned_offset(hook_type, payload, expected):
    tail = hook(19, 1, struct.pack("<If", 0x33000001, 0.5))        # CallPES, Forward
    s = R.decode(PES, pes(hook(hook_type, 0, payload), tail, times=[0.0, 1.0]))
    assert s.script_data[1].hook == R.CallPESHook(Dir.Forward, 0x33000001, 0.5)


def test_CreateBlockingParticle_carries_the_full_40_byte_CreateParticle_payload():
    # CreateParticleHook::UnPack 0x005278A0: a blocking hook followed by AnimationDone at the
    # exact cursor
    blocking = hook(26, 0, struct.pack("<II", 0x3200078E, 3) + FRAME + struct.pack("<I", 9))
    assert len(blocking) == 8 + 40                     # +16 .. +64 of the record
    done = hook(4, 0, b"")                             # +72 (after its f64 start time)
    data = pes(blocking, done, times=[0.0, 0.5])
    assert len(data) == 8 + 8 + 48 + 8 + 8             # 80 bytes, nothing left over
    s = R.decode(PES, data)
    b = s.script_data[0].hook
    assert isinstance(b, R.CreateBlockingParticleHook)
    assert not isinstance(b, R.CreateParticleHook)     # the runtime must tell them apart
    assert (b.emitter_info_id, b.part_index, b.emitter_id) == (0x3200078E, 3, 9)
    assert b.offset == R.Frame((0.5, -1.0, 2.0), (1.0, 0.0, 0.0, 0.0))
    assert s.script_data[1] == R.PhysicsScriptData(0.5, R.NullHook(Dir.Both, 4))


def test_CreateBlockingParticle_in_an_Animation_frame_then_next_hook():
    # Animation: id, flags 0, num_parts 1, num_frames 1; frame: 1 Frame, u32 hooks, hooks
    blocking = hook(26, 0, struct.pack("<II", 0x3200078E, 0) + FRAME + struct.pack("<I", 1))
    data = (struct.pack("<IIII", 0x03000001, 0, 1, 1) + FRAME + struct.pack("<I", 2)
            + blocking + hook(2, 1, struct.pack("<I", 0x0F)))
    a = R.decode(0x03000001, data)
    hooks = a.part_frames[0].hooks
    assert isinstance(hooks[0], R.CreateBlockingParticleHook)
    assert hooks[1] == R.SoundTableHook(Dir.Forward, 0x0F)


def test_ReplaceObject_is_u8_part_then_packed_DID_short_form_then_align():
    # +16 type 5, +20 dir, +24 u8 part 7, +25 u16 0x1234, +27 pad -> 4 payload bytes
    h = hook(5, 0, bytes([7]) + struct.pack("<H", 0x1234))
    assert len(h) == 12
    assert one(pes(h)) == R.ReplaceObjectHook(Dir.Both, 7, 0x01001234)


def test_ReplaceObject_long_packed_DID_is_8_payload_bytes_with_padding():
    # offset 0x12345 > 0x3FFF: u16 0x8001, u16 0x2345; u8 part + 4 bytes + 3 pad
    h = hook(5, 0, bytes([1]) + struct.pack("<HH", 0x8001, 0x2345))
    assert len(h) == 16
    data = pes(h, hook(14, 0, struct.pack("<I", 5)), times=[0.0, 0.0])
    s = R.decode(PES, data)
    assert s.script_data[0].hook == R.ReplaceObjectHook(Dir.Both, 1, 0x01012345)
    assert s.script_data[1].hook == R.DestroyParticleHook(Dir.Both, 5)
    assert R.encode(s) == data


def test_SoundTweaked_reads_probability_before_priority():
    h = one(pes(hook(21, 0, struct.pack("<I3f", 0x0A000001, 0.25, 0.75, 0.5))))
    assert (h.probability, h.priority, h.volume) == (0.25, 0.75, 0.5)


def test_unknown_direction_is_kept_as_a_number():
    h = one(pes(hook(0, 7, b"")))
    assert h.direction == 7 and not isinstance(h.direction, Dir)
    assert one(pes(hook(0, -2, b""))).direction is Dir.Unknown




def test_hook_padding_is_required_not_guessed():
    # ReplaceObject short form without its pad byte: the record is one byte short
    data = pes(hook(5, 0, bytes([1]) + struct.pack("<H", 1)))[:-1]
    with pytest.raises(DatError):
        R.decode(PES, data)


def test_ReplaceObject_part_index_wider_than_a_byte_is_refused_not_truncated():
    s = R.PhysicsScript.from_hooks(PES, [R.PhysicsScriptData(
        0.0, R.ReplaceObjectHook(Dir.Both, 256, 0x01000001))])
    with pytest.raises(DatError):
        R.encode(s)


# -- hooks retail does not build (CAnimHook::UnPackHook 0x005271D0 default case) ------------
@pytest.mark.parametrize("hook_type", [4, 27, 0x63, 0xFFFFFFFF])
def test_UnPackHook_0x005271D0_type4_and_unknown_types_are_null_header_only(hook_type):
    """Type 4 and numbers outside the switch: the two header words are read, the cursor is
    aligned, NULL is returned. No payload is read, so the next hook starts at +8."""
    tail = hook(19, 1, struct.pack("<If", 0x33000001, 0.5))
    data = pes(struct.pack("<Ii", hook_type, -1), tail, times=[0.25, 0.5])
    s = R.decode(PES, data)
    null = s.stored_script_data[0]
    assert null == R.PhysicsScriptData(0.25, R.NullHook(Dir.Backward, hook_type))
    assert s.stored_script_data[1].hook == R.CallPESHook(Dir.Forward, 0x33000001, 0.5)
    assert R.encode(s) == data                      # every byte accounted, re-encoded as is


def test_AnimFrame_UnPack_0x0051F8E0_keeps_null_hooks_stored_but_builds_none():
    """An Animation frame lists the NULL hooks (for show / re-encode); the frame's runtime
    list (add_to_list of NULL adds nothing) holds only the built ones, in file order."""
    data = (struct.pack("<IIII", 0x03000001, 0, 1, 1) + FRAME + struct.pack("<I", 4)
            + hook(1, 0, struct.pack("<I", 0x0A000001)) + hook(4, 0, b"")
            + struct.pack("<Ii", 200, 1) + hook(2, 1, struct.pack("<I", 0x0F)))
    a = R.decode(0x03000001, data)
    frame = a.part_frames[0]
    assert frame.hooks[1:3] == (R.NullHook(Dir.Both, 4), R.NullHook(Dir.Forward, 200))
    assert frame.built_hooks == (R.SoundHook(Dir.Both, 0x0A000001),
                                 R.SoundTableHook(Dir.Forward, 0x0F))
    assert R.encode(a) == data


def test_PhysicsScript_UnPack_0x005218B0_keeps_the_null_entry_in_sorted_order():
    """The entry stays with its start time (sorted with the others); length is the last
    sorted start time whatever the hook."""
    data = pes(hook(1, 0, struct.pack("<I", 0x0A000001)), hook(4, 0, b""),
               times=[0.5, 0.75])
    s = R.decode(PES, data)
    assert [d.start_time for d in s.script_data] == [0.5, 0.75]
    assert R.is_null_hook(s.script_data[1].hook) and s.length == 0.75


def test_unknown_hook_type_with_a_payload_names_the_hook_index_and_offset():
    """An unknown type 99 carrying a 40-byte payload (a CreateParticle's size): retail's
    UnPackHook 0x005271D0 reads none of it, so the rest of the record cannot decode. The
    error names that hook (its index and the byte offset of its header), not "N trailing
    bytes" or a later misread."""
    created = hook(13, 1, struct.pack("<Ii7fI", 0x32000001, 0, *([0.0] * 7), 1))
    unknown = struct.pack("<Ii", 99, 1) + created[8:]           # the same 40 payload bytes
    data = pes(hook(1, 0, struct.pack("<I", 0x0A000001)), unknown, times=[0.0, 0.5])
    with pytest.raises(DatError) as exc:
        R.decode(PES, data)
    err = exc.value
    at = 8 + 20 + 8                      # id and count, entry 0 (f64, 8 + 4), f64
    assert err.offset == at and err.did == PES
    assert f"hook 1: unknown hook type 99 (its header at offset {at}" in err.message
    assert "trailing bytes" not in str(err).split("(its header")[0]


def test_unknown_hook_type_in_an_Animation_frame_names_frame_and_hook():
    data = (struct.pack("<IIII", 0x03000001, 0, 1, 1) + FRAME + struct.pack("<I", 2)
            + struct.pack("<Ii", 77, 1) + struct.pack("<4I", 1, 2, 3, 4)
            + hook(2, 1, struct.pack("<I", 0x0F)))
    with pytest.raises(DatError, match=r"frame 0 hook 0: unknown hook type 77 \(its header "
                                       r"at offset 48"):
        R.decode(0x03000001, data)
