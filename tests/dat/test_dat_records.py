"""Record fixtures hand-built in retail's record layouts (offsets in the comments), plus
round trips of every encodable record."""

from __future__ import annotations

import math
import struct
from dataclasses import replace

import pytest

from viewer.dat import records as R
from viewer.dat import samples
from viewer.errors import DatError

IDENT = struct.pack("<7f", 0, 0, 0, 1, 0, 0, 0)     # Frame: origin 0, quaternion w=1


def f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


# --- round trips -------------------------------------------------------------------------
@pytest.mark.parametrize("did", sorted(samples.sample_records()),
                         ids=lambda d: f"0x{d:08X}")
def test_every_record_type_round_trips(did):
    rec = samples.sample_records()[did]
    data = R.encode(rec)
    back = R.decode(did, data)
    assert type(back) is type(rec)
    assert R.encode(back) == data                       # bytes are stable
    assert R.decode(did, R.encode(back)) == back        # and so is the decoded record


def test_records_are_immutable():
    s = samples.sample_setup()
    import dataclasses
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.height = 2.0  # type: ignore[misc]


def test_every_record_rejects_trailing_bytes():
    for did, rec in samples.sample_records().items():
        if isinstance(rec, R.Region):
            continue  # Region keeps everything after its SkyDesc as raw ``tail`` bytes
        with pytest.raises(DatError) as ei:
            R.decode(did, R.encode(rec) + b"\0\0\0\0")
        assert "trailing" in str(ei.value) and ei.value.did == did


def test_decode_without_codec_names_the_type():
    with pytest.raises(DatError) as ei:
        R.decode(0x0D000001, b"\0" * 8, file="x.dat")
    assert "0x0D" in str(ei.value) and "x.dat" in str(ei.value)


# --- PhysicsScript (3.10) ------------------------------------------------------------------
def _pes(entries) -> bytes:
    out = struct.pack("<II", 0x33000007, len(entries))              # +0 id, +4 count
    for t, emitter in entries:                                       # 8 + 16 bytes each
        out += struct.pack("<dIiI", t, 14, 0, emitter)               # DestroyParticle hook
    return out


def test_PhysicsScriptData_Sort_0x00521600_orders_hooks_by_start_time_as_retail_qsort():
    data = _pes([(1.0, 1), (0.0, 2), (0.5, 3), (0.0, 4), (1.0, 5)])
    s = R.decode(0x33000007, data)
    # CRT shortsort (worked by hand): the second pass swaps 1 and 4, so the equal 0.0
    # entries come out 4 before 2; a stable sort would give [2, 4, 3, 1, 5]
    assert [d.hook.emitter_id for d in s.script_data] == [4, 2, 3, 1, 5]
    assert [d.hook.emitter_id for d in s.stored_script_data] == [1, 2, 3, 4, 5]
    assert s.length == 1.0
    assert R.encode(s) == data                                       # stored order written


def test_PhysicsScript_start_time_is_an_unaligned_f64():
    s = R.decode(0x33000007, _pes([(0.1, 9)]))
    assert s.script_data[0].start_time == 0.1                        # exact double


def test_empty_PhysicsScript_has_length_zero():
    s = R.decode(0x33000007, struct.pack("<II", 0x33000007, 0))
    assert s.script_data == () and s.length == 0.0


# --- PhysicsScriptTable (3.11) -------------------------------------------------------------
def test_PhysicsScriptTable_keeps_entries_and_thresholds_in_stored_order():
    data = struct.pack("<II", 0x34000005, 2)                         # +0 id, +4 n
    data += struct.pack("<II", 0x05, 2)                              # +8 Explode, 2 scripts
    data += struct.pack("<fIfI", 1.0, 0x33000120, 0.0, 0x3300011E)  # +16 unsorted mods
    data += struct.pack("<II", 0x04, 1) + struct.pack("<fI", 0.5, 0x3300011C)  # Launch
    t = R.decode(0x34000005, data)
    assert [k for k, _ in t.entries] == [R.PlayScript.Explode, R.PlayScript.Launch]
    assert [s.mod for s in t.get(R.PlayScript.Explode).scripts] == [1.0, 0.0]
    assert t.get(R.PlayScript.Hidden) is None
    assert R.encode(t) == data


def test_PhysicsScriptTable_unknown_PlayScript_key_is_kept_as_number():
    data = struct.pack("<IIII", 0x34000001, 1, 0x999, 0)
    t = R.decode(0x34000001, data)
    assert t.entries[0][0] == 0x999 and not isinstance(t.entries[0][0], R.PlayScript)


# --- ParticleEmitterInfo (3.12) -------------------------------------------------------------
def _emitter_bytes(emitter_type=1, particle_type=6) -> bytes:
    b = struct.pack("<II", 0x320009C4, 0xDEAD)                       # +0 id, +4 unknown
    b += struct.pack("<ii", emitter_type, particle_type)             # +8, +12
    b += struct.pack("<II", 0x01000001, 0x01000002)                  # +16 gfxobj, +20 hw
    b += struct.pack("<d", 0.2)                                      # +24 birthrate f64
    b += struct.pack("<iii", 50, 3, 0)                               # +32 max, initial, total
    b += struct.pack("<ddd", 0.0, 1.5, 0.25)                         # +44 secs, +52 life, +60 rand
    for v in ((0, 0, 1, 0.0, 0.5), (0, 0, 1, 0.5, 1.0), (0, 0, -9.5, 1, 1), (1, 0, 0, 0, 0)):
        b += struct.pack("<5f", *v)                                  # +68 offset_dir, a, b, c
    b += struct.pack("<6f", 0.5, 1.5, 0.25, 0.0, 1.0, 0.0)           # +148 scale/trans triplets
    b += struct.pack("<I", 1)                                        # +172 is_parent_local
    assert len(b) == 176
    return b


def test_ParticleEmitterInfo_is_176_bytes_with_unaligned_f64_fields():
    e = R.decode(0x320009C4, _emitter_bytes())
    assert e.unknown == 0xDEAD
    assert e.emitter_type is R.EmitterType.BirthratePerSec
    assert e.particle_type is R.ParticleType.Explode
    assert (e.gfxobj_id, e.hw_gfxobj_id) == (0x01000001, 0x01000002)
    assert e.birthrate == 0.2 and e.total_seconds == 0.0
    assert (e.lifespan, e.lifespan_rand) == (1.5, 0.25)               # lifespan first
    assert (e.max_particles, e.initial_particles, e.total_particles) == (50, 3, 0)
    assert e.offset_dir == (0, 0, 1) and (e.min_offset, e.max_offset) == (0.0, 0.5)
    assert e.b == (0, 0, -9.5) and e.c == (1, 0, 0)
    assert (e.start_scale, e.final_scale, e.scale_rand) == (0.5, 1.5, 0.25)
    assert (e.start_trans, e.final_trans, e.trans_rand) == (0.0, 1.0, 0.0)
    assert e.is_parent_local is True
    assert R.encode(e) == _emitter_bytes()


def test_ParticleEmitterInfo_unknown_enum_values_are_kept():
    e = R.decode(0x320009C4, _emitter_bytes(emitter_type=3, particle_type=42))
    assert e.emitter_type == 3 and e.particle_type == 42
    assert R.encode(e) == _emitter_bytes(emitter_type=3, particle_type=42)


def test_ParticleEmitterInfo_short_record_raises_with_offset():
    with pytest.raises(DatError) as ei:
        R.decode(0x320009C4, _emitter_bytes()[:100])
    assert ei.value.offset == 0 and ei.value.did == 0x320009C4


# --- Setup (3.2) ----------------------------------------------------------------------------
def _setup_bytes(flags: int) -> bytes:
    b = struct.pack("<III", 0x02000124, flags, 2)                   # +0 id, +4 flags, +8 parts
    b += struct.pack("<II", 0x01000001, 0x01000002)                 # +12 part DIDs
    if flags & 1:
        b += struct.pack("<II", 0xFFFFFFFF, 0)                      # parent_index
    if flags & 2:
        b += struct.pack("<6f", 1, 1, 1, 0.5, 0.5, 0.5)             # default_scale
    b += struct.pack("<I", 1) + struct.pack("<iI", 1, 0) + IDENT    # 1 holding location
    b += struct.pack("<I", 0)                                       # 0 connection points
    b += struct.pack("<II", 1, 0x34) + IDENT + IDENT + struct.pack("<I", 0)  # MissileFlight
    b += struct.pack("<I", 1) + struct.pack("<5f", 0, 0, 0, 0.3, 1.2)  # cylsphere: r, h
    b += struct.pack("<I", 1) + struct.pack("<4f", 0, -0.165, 0.1045, 0.102)  # sphere
    b += struct.pack("<4f", 0.878, 0.5, 0.375, 0.25)               # height radius up down
    b += struct.pack("<4f", 0, 0, 0.5, 1.0) + struct.pack("<4f", 0, 0, 0.5, 2.0)
    b += struct.pack("<I", 1) + struct.pack("<i", 0) + IDENT        # 1 light: type, offset
    b += struct.pack("<I3f", 0xFFFFCC88, 1.5, 4.0, 0.0) + b"\xCD" * 0  # color, ...
    b = b[:-4] + b"\xCD\xCD\xCD\xCD"                                # cone_angle garbage
    b += struct.pack("<5I", 0, 0x33000D77, 0x09000001, 0x20000001, 0x3400002B)
    return b


def test_Setup_all_optional_parts_present():
    s = R.decode(0x02000124, _setup_bytes(0x7))
    assert s.flags == R.SetupFlags(0x7)
    assert s.parts == (0x01000001, 0x01000002)
    assert s.parent_index == (0xFFFFFFFF, 0)
    assert s.default_scale == ((1, 1, 1), (0.5, 0.5, 0.5))
    assert s.holding_locations[0][0] is R.ParentLocation.RightHand
    assert s.placement_frames[0][0] is R.Placement.MissileFlight
    assert s.cylspheres == (R.CylSphere((0, 0, 0), f32(0.3), f32(1.2)),)
    assert s.spheres[0].center == (0, f32(-0.165), f32(0.1045))    # local origin kept
    assert (s.step_up_height, s.step_down_height) == (0.375, 0.25)  # up before down
    assert s.sorting_sphere.radius == 1.0 and s.selection_sphere.radius == 2.0
    assert s.lights[0].color == 0xFFFFCC88
    assert s.lights[0].cone_angle == -431602080.0                  # 0xCDCDCDCD kept as is
    assert (s.default_script, s.default_motion_table, s.default_sound_table,
            s.default_script_table) == (0x33000D77, 0x09000001, 0x20000001, 0x3400002B)
    assert s.default_animation == 0                                # present zero, not None
    assert R.encode(s) == _setup_bytes(0x7)


def test_Setup_absent_parent_and_scale_are_None_not_zero():
    s = R.decode(0x02000124, _setup_bytes(0x8))
    assert s.parent_index is None and s.default_scale is None
    assert R.encode(s) == _setup_bytes(0x8)


def test_Setup_encode_refuses_flags_that_disagree_with_parts():
    s = replace(samples.sample_setup(), parent_index=None)
    with pytest.raises(DatError):
        R.encode(s)


# --- GfxObj (3.1) ---------------------------------------------------------------------------
def _gfx_bytes(flags=0x2, degrade=False, surfaces=1) -> bytes:
    b = struct.pack("<II", 0x010005E8, flags | (8 if degrade else 0))   # +0 id, +4 flags
    b += bytes([surfaces])                                         # +8 CUInt (1 byte)
    b += struct.pack(f"<{surfaces}I", *([0x080001B8] * surfaces))  # +9 unaligned DIDs
    b += struct.pack("<iI", 1, 3)                                  # vertex_type 1, 3 verts
    for i in range(3):                                             # SWVertex: id, 1 uv
        b += struct.pack("<HH6f2f", i, 1, i, 0, 0, 0, 0, 1, i * 0.5, 0)
    if flags & 1:
        b += bytes([1])                                            # 1 physics polygon
        b += struct.pack("<HBBihh3H", 0, 3, 0x4, 0, 0, 0, 0, 1, 2)  # NoPos: no uvs
        b += struct.pack("<Iii4fI2H", 0x4C454146, 0, 1, 0, 0, 0, 1.0, 2, 0, 1)  # LEAF
    b += struct.pack("<3f", 0.5, 0.5, 0)                           # sort_center
    if flags & 2:
        b += bytes([1])                                            # 1 polygon
        b += struct.pack("<HBBihh3H", 0, 3, 0, 2, 0, 0, 0, 1, 2)   # sides 2: pos+neg uvs
        b += bytes([0, 0, 0]) + bytes([0, 0, 0])
        # drawing BSP: BPIN (pos+neg) -> two LEAFs, then sphere + 1 poly index (u16)
        b += struct.pack("<I4f", 0x4250494E, 0, 0, 1, 0)
        b += struct.pack("<Ii", 0x4C454146, 0) + struct.pack("<Ii", 0x4C454146, 1)
        b += struct.pack("<4fIH", 0, 0, 0, 1, 1, 0)                # ends 2-aligned
    if degrade:
        b += struct.pack("<I", 0x11000001)                         # not re-aligned
    return b


def test_GfxObj_drawing_only_with_split_bsp_and_unaligned_degrade():
    data = _gfx_bytes(0x2, degrade=True)
    g = R.decode(0x010005E8, data)
    assert g.surfaces == (0x080001B8,)
    assert g.vertex_array.vertex_type == 1 and len(g.vertex_array.vertices) == 3
    assert g.vertex_array.vertices[2].uvs == ((1.0, 0.0),)
    p = g.polygons[0]
    assert p.sides_type is R.CullMode(2) and p.vertex_ids == (0, 1, 2)
    assert p.pos_uv_indices == (0, 0, 0) and p.neg_uv_indices == (0, 0, 0)
    assert g.physics_polygons is None and g.physics_bsp is None
    assert g.did_degrade == 0x11000001
    assert R.encode(g) == data


def test_GfxObj_physics_and_drawing():
    data = _gfx_bytes(0x3)
    g = R.decode(0x010005E8, data)
    assert g.physics_polygons[0].pos_uv_indices is None            # NoPos stippling
    assert g.physics_polygons[0].neg_uv_indices is None
    assert g.did_degrade is None
    assert R.encode(g) == data


def test_GfxObj_two_byte_CUInt_surface_count():
    data = _gfx_bytes(0x2, surfaces=1)
    # rewrite the count as the 2-byte CUInt form 0x80 0x01 (= 1)
    data2 = data[:8] + bytes([0x80, 0x01]) + data[9:]
    g = R.decode(0x010005E8, data2)
    assert g.surfaces == (0x080001B8,)
    many = _gfx_bytes(0x2, surfaces=130)
    many = many[:8] + bytes([0x80, 130]) + many[9:]                 # 130 needs 2 bytes
    g = R.decode(0x010005E8, many)
    assert len(g.surfaces) == 130 and R.encode(g) == many


def test_GfxObj_PORT_node_and_unknown_split_tag_walk_exactly():
    # drawing BSP: PORT (plane, pos LEAF, neg BPOL(no children: plane + tail), portal tail)
    bsp = struct.pack("<I4f", 0x504F5254, 0, 0, 1, 0)
    bsp += struct.pack("<Ii", 0x4C454146, 0)
    bsp += struct.pack("<I4f", 0x42504F4C, 1, 0, 0, 0) + struct.pack("<4fI", 0, 0, 0, 1, 0)
    bsp += struct.pack("<4fII", 0, 0, 0, 2, 1, 1) + struct.pack("<H", 0) + struct.pack("<HH", 0, 5)
    base = _gfx_bytes(0x2)
    cut = base.index(struct.pack("<I", 0x4250494E))
    data = base[:cut] + bsp
    g = R.decode(0x010005E8, data)
    assert g.drawing_bsp == bsp and R.encode(g) == data


def test_GfxObj_vertex_type_other_than_CSWVertex_is_an_error():
    data = bytearray(_gfx_bytes(0x2))
    struct.pack_into("<i", data, 13, 2)
    with pytest.raises(DatError) as ei:
        R.decode(0x010005E8, bytes(data))
    assert "vertex_type" in str(ei.value)


def test_GfxObjDegradeInfo():
    data = struct.pack("<II", 0x11000001, 2) + struct.pack("<II3f", 0x010005E8, 1, 0, 0, 25) \
        + struct.pack("<II3f", 0x010005E9, 1, 25, 50, 100)
    d = R.decode(0x11000001, data)
    assert d.degrades[1] == R.GfxObjInfo(0x010005E9, 1, 25.0, 50.0, 100.0)
    assert R.encode(d) == data


# --- Animation (3.3) ------------------------------------------------------------------------
def test_Animation_pos_frames_present_only_with_the_flag():
    two = IDENT + IDENT                                                # 2 parts
    data = struct.pack("<IIII", 0x03000514, 0x1, 2, 2)                 # flags PosFrames
    data += struct.pack("<7f", 0, 0.5, 0, 1, 0, 0, 0) + IDENT          # 2 pos frames
    data += two + struct.pack("<I", 1) + struct.pack("<IiI", 2, 1, 0x0F)  # frame 0: 1 hook
    data += two + struct.pack("<I", 0)                                 # frame 1: no hooks
    a = R.decode(0x03000514, data)
    assert a.num_parts == 2 and a.num_frames == 2
    assert a.pos_frames[0].origin == (0, 0.5, 0)
    assert a.part_frames[0].hooks == (R.SoundTableHook(R.AnimationHookDir.Forward, 0x0F),)
    assert R.encode(a) == data
    no_pos = struct.pack("<IIII", 0x03000514, 0x2, 2, 1) + two + struct.pack("<I", 0)
    a = R.decode(0x03000514, no_pos)
    assert a.pos_frames is None and a.flags == R.AnimationFlags.HasHooks
    assert R.encode(a) == no_pos


# --- MotionTable (3.5) ----------------------------------------------------------------------
def test_MotionTable_MotionData_has_one_pad_byte_after_three_leading_bytes():
    md = bytes([1, 0, 0x1]) + b"\0"                         # num_anims, bitfield, flags, pad
    md += struct.pack("<Iiif", 0x03000001, 0, -1, 30.0) + struct.pack("<3f", 0, 1, 0)
    data = struct.pack("<II", 0x09000202, 0x8000003D)                  # +0 id, +4 default_style
    data += struct.pack("<III", 1, 0x8000003D, 0x4000000C)             # 1 style default
    data += struct.pack("<II", 1, 0x003D0003) + md                     # 1 cycle
    data += struct.pack("<I", 0)                                       # 0 modifiers
    data += struct.pack("<III", 1, 0x003D0003, 1) + struct.pack("<I", 0x10000153) + md
    m = R.decode(0x09000202, data)
    assert m.style_defaults == ((0x8000003D, 0x4000000C),)
    cyc = m.cycles[0][1]
    assert cyc.anims == (R.AnimData(0x03000001, 0, -1, 30.0),)
    assert cyc.velocity == (0, 1, 0) and cyc.omega is None
    assert m.links[0][1][0][0] == 0x10000153
    assert R.encode(m) == data


# --- Surface family (3.6 - 3.9) -------------------------------------------------------------
def test_Surface_has_no_id_and_image_or_colour_branch():
    img = struct.pack("<III3f", 0x2, 0x05001A9A, 0, 0, 0, 0.80078125)
    s = R.decode(0x08000DCB, img)
    assert s.orig_texture_id == 0x05001A9A and s.orig_palette_id == 0
    assert s.color_value is None                                       # absent, not 0
    solid = struct.pack("<II3f", 0x1, 0xFF6F3916, 0, 0, 1.0)
    s = R.decode(0x08000219, solid)
    assert s.color_value == 0xFF6F3916 and s.orig_texture_id is None
    assert R.encode(s) == solid
    clip = struct.pack("<III3f", 0x4, 0x05000001, 0x04000001, 0.5, 0, 1)  # ClipMap is image
    assert R.decode(0x08000001, clip).orig_palette_id == 0x04000001


def test_SurfaceTexture_count_is_unaligned_at_offset_9():
    data = struct.pack("<IIB", 0x050023BF, 0, 2) + struct.pack("<I2I", 2, 0x06005731, 0x06005731)
    t = R.decode(0x050023BF, data)
    assert t.texture_type is R.TextureType.Texture2D
    assert t.textures == (0x06005731, 0x06005731)
    assert R.encode(t) == data


def test_RenderSurface_palette_DID_only_for_P8_and_INDEX16():
    rgb = struct.pack("<IIiiIi", 0x06000164, 6, 2, 1, 0x14, 6) + bytes(6)
    r = R.decode(0x06000164, rgb)
    assert r.format is R.PixelFormat.R8G8B8 and r.default_palette_id is None
    p8 = (struct.pack("<IIiiIi", 0x06007364, 4, 2, 2, 0x29, 4) + bytes(4)
          + struct.pack("<I", 0x0400007E))
    r = R.decode(0x06007364, p8)
    assert r.default_palette_id == 0x0400007E and R.encode(r) == p8
    i16 = (struct.pack("<IIiiIi", 0x06007365, 4, 1, 1, 0x65, 2) + bytes(2)
           + struct.pack("<I", 0x04000001))
    assert R.decode(0x06007365, i16).default_palette_id == 0x04000001


def test_RenderSurface_negative_size_is_an_error():
    with pytest.raises(DatError):
        R.decode(0x06000001, struct.pack("<IIiiIi", 0x06000001, 0, 1, 1, 0x14, -3))


def test_Palette():
    data = struct.pack("<Ii3I", 0x0400007E, 3, 0xFF000000, 0xFFFF0000, 0x80102030)
    p = R.decode(0x0400007E, data)
    assert p.colors == (0xFF000000, 0xFFFF0000, 0x80102030) and R.encode(p) == data


# --- SoundTable / Wave (3.13, 3.14) ---------------------------------------------------------
def test_SoundTable_is_recursive():
    data = struct.pack("<I", 0x20000001)
    data += struct.pack("<II", 0, 1) + struct.pack("<I3f", 0, 0, 1, 1)   # root: key 0, 1 entry
    data += struct.pack("<I", 1)                                          # 1 child
    data += struct.pack("<II", 0x75, 1) + struct.pack("<I3f", 0x0A000262, 0.7, 1, 1)
    data += struct.pack("<I", 0)
    t = R.decode(0x20000001, data)
    assert t.get(0x75).entries[0].wave_id == 0x0A000262
    assert t.root.wave_ids() == [0x0A000262]
    assert R.encode(t) == data


def test_Wave_and_its_RIFF_wrapper():
    fmt = struct.pack("<HHIIHHH", 1, 1, 22050, 44100, 2, 16, 0)
    data = struct.pack("<Iii", 0x0A000002, len(fmt), 4) + fmt + b"\x01\x02\x03\x04"
    w = R.decode(0x0A000002, data)
    assert w.format_tag == 1 and w.data == b"\x01\x02\x03\x04"
    riff = w.to_riff()
    assert riff[:4] == b"RIFF" and riff[8:12] == b"WAVE" and R.encode(w) == data


# --- Region sky objects (3.16) --------------------------------------------------------------
def test_Region_sky_objects_and_raw_tail():
    rec = samples.sample_region()
    data = R.encode(rec)
    back = R.decode(0x13000000, data)
    g = back.sky_desc.day_groups[0]
    assert g.sky_objects[0].default_pes_object_id == 0x33000001
    assert g.sky_time[0].sky_obj_replace[0].gfx_obj_id == 0x01000F02
    assert back.name == "Dereth" and back.tail == rec.tail
    # name "Dereth" is 6 bytes: u16 len at +12, text at +14, align4 -> LandDefs at +20
    assert data[12:14] == struct.pack("<H", 6) and data[14:20] == b"Dereth"
    assert struct.unpack_from("<i", data, 20)[0] == 255


# --- Iteration (1.8) ------------------------------------------------------------------------
def test_iteration_record_accepts_runs_and_single_values():
    data = struct.pack("<5i", 4, -3, 1, 7, 0)[:16]                  # N=4: run 1..3, then 7
    it = R.decode(0xFFFF0001, data)
    assert it.iterations() == [1, 2, 3, 7]
    assert R.encode(it) == data
    assert R.decode(0xFFFF0001, struct.pack("<ii", 1, 1)).iterations() == [1]


def test_nan_and_inf_floats_survive_decoding():
    data = struct.pack("<II3f", 0x1, 0, float("nan"), float("inf"), float("-inf"))
    s = R.decode(0x08000001, data)
    assert math.isnan(s.translucency) and s.luminosity == math.inf


def _ps(s: bytes) -> bytes:
    raw = struct.pack("<H", len(s)) + s
    return raw + b"\0" * ((-len(raw)) & 3)          # PString16 then align4


def test_Region_hand_built_sky_desc():
    b = struct.pack("<III", 0x13000000, 1, 3)                       # +0 id, number, version
    b += _ps(b"Test")                                               # +12: 2 + 4 + pad 2
    assert len(b) == 20
    b += struct.pack("<iifiifff", 255, 255, 24.0, 192, 8, 200.0, 1000.0, 5.0)
    b += struct.pack("<256f", *range(256))                          # +20 LandDefs (1056)
    assert len(b) == 1076
    b += struct.pack("<dIfI", 0.5, 10, 7620.0, 360) + _ps(b"PY")    # +1076 GameTime head (20)
    b += struct.pack("<I", 1) + struct.pack("<fI", 0.25, 1) + _ps(b"Dawn")   # TimeOfDay
    b += struct.pack("<I", 1) + _ps(b"Mo")                          # days of week
    b += struct.pack("<I", 1) + struct.pack("<I", 0) + _ps(b"W")    # seasons
    assert len(b) == 1140
    b += struct.pack("<I", 0x10 | 0x2)                              # +1140 parts_mask
    b += struct.pack("<dd", 0.1, 0.01) + struct.pack("<I", 1)       # +1144 SkyDesc
    b += struct.pack("<f", 1.0) + _ps(b"Sun")                       # +1164 DayGroup
    b += struct.pack("<I", 1) + struct.pack("<6fIII", 0, 1, 0, 360, 0, 0.5,
                                            0x01000F00, 0x33000001, 7)   # +1180 SkyObject (36)
    b += struct.pack("<I", 1)                                       # +1216 1 SkyTimeOfDay (44)
    b += struct.pack("<4fIfIffII", 0, 0.5, 90, 45, 0xFFFFFFFF, 0.3, 0xFF808080, 50, 300,
                     0xFF404040, 1)
    b += struct.pack("<I", 1) + struct.pack("<II4f", 0, 0x01000F02, 0, 0.5, 1, 1)
    assert len(b) == 1292
    b += b"SCENE..."                                                # undecoded remainder
    r = R.decode(0x13000000, b)
    assert (r.version, r.name, r.parts_mask) == (3, "Test", 0x12)
    assert r.land_defs.land_height_table[255] == 255.0
    assert r.game_time.times_of_day[0] == R.region.TimeOfDay(0.25, True, "Dawn")
    assert r.game_time.seasons[0].name == "W"
    obj = r.sky_desc.day_groups[0].sky_objects[0]
    assert (obj.default_gfx_object_id, obj.default_pes_object_id, obj.properties) == (
        0x01000F00, 0x33000001, 7)
    assert r.sky_desc.day_groups[0].sky_time[0].sky_obj_replace[0].transparent == 0.5
    assert r.tail == b"SCENE..."
    assert R.encode(r) == b


def test_CSurface_InitEnd_0x00536400_sets_Translucent_above_0_0002():
    s = R.Surface(R.SurfaceType.Base1Solid, None, None, 0xFF000000, 0.0003, 0.0, 1.0)
    assert s.as_loaded().type == R.SurfaceType.Base1Solid | R.SurfaceType.Translucent
    assert s.type == R.SurfaceType.Base1Solid                  # the record keeps the raw value
    # exactly the threshold (as an f32, as stored) is not above it
    assert replace(s, translucency=f32(0.0002)).as_loaded().type == R.SurfaceType.Base1Solid
    assert replace(s, translucency=0.0).as_loaded().type == R.SurfaceType.Base1Solid


def test_CPolygon_UnPack_0x00538650_sides_type_1_mirrors_the_front_face():
    p = R.Polygon(0, R.StipplingType(0), R.CullMode(1), 3, 0, (0, 1, 2), (1, 1, 1), None)
    loaded = p.as_loaded()
    assert (loaded.neg_surface, loaded.neg_uv_indices) == (3, (1, 1, 1))
    assert p.neg_uv_indices is None                            # raw record unchanged
    two = replace(p, sides_type=R.CullMode(2), neg_uv_indices=(0, 0, 0))
    assert two.as_loaded() is two


def test_Setup_holding_location_part_id_is_signed():
    data = bytearray(_setup_bytes(0x8))
    # holding location part_id sits after id, flags, count, 2 parts, holding count and key
    off = 12 + 8 + 4 + 4
    assert struct.unpack_from("<I", data, off)[0] == 0
    struct.pack_into("<i", data, off, -1)
    s = R.decode(0x02000124, bytes(data))
    assert s.holding_locations[0][1].part_id == -1
    assert R.encode(s) == bytes(data)
