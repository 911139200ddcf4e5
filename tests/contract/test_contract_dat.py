"""Contract sections 1 (``dat ls``) and 2 (``dat show``), and the conventions they carry:
DID strings, NaN / infinities as strings, absent optional fields as null, lists in stored
order, PhysicsScript hooks in runtime order, PhysicsScriptTable entries in stored order."""

from __future__ import annotations

import json
import struct

import pytest

from viewer import synthetic as S
from viewer.dat import records as R
from viewer.dat import samples
from viewer.dat.container import DatFile
from viewer.dat.writer import write_dat

from .conftest import (
    DID_RE,
    SYN,
    assert_input_failure,
    assert_no_raw_nonfinite,
    assert_usage_error,
    walk_json,
)

NAN_SURFACE = 0x08000001


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A DAT written by our own writer: one record of every type, plus a Surface whose
    translucency / luminosity / diffuse are NaN, +inf, -inf (CSurface::Serialize 0x005365F0
    layout: u32 type Base1Solid, u32 ColorARGB, 3 x f32)."""
    recs = {d: R.encode(r) for d, r in samples.sample_records().items()}
    recs[NAN_SURFACE] = struct.pack("<II3f", 0x1, 0xFF00FF00, float("nan"), float("inf"),
                                    float("-inf"))
    path = tmp_path_factory.mktemp("contract_dat") / "client_portal.dat"
    write_dat(path, recs)
    return path, recs


@pytest.fixture(scope="module")
def synthetic_sizes():
    with DatFile(SYN) as dat:
        return {e.did: e.size for e in dat.entries()}


# --- section 1: dat ls ----------------------------------------------------------------------
def test_ls_plain_one_line_per_file_DID_and_size_ascending(cli, synthetic_sizes):
    r = cli("dat", "ls", SYN)
    assert r.rc == 0 and r.err == ""
    rows = [ln.split(" ") for ln in r.lines]
    assert all(len(row) == 2 and DID_RE.match(row[0]) and row[1].isdigit() for row in rows)
    dids = [int(d, 16) for d, _ in rows]
    assert dids == sorted(dids) and len(dids) == len(set(dids))
    assert {int(d, 16): int(s) for d, s in rows} == synthetic_sizes


def test_ls_sizes_are_the_record_byte_counts_of_a_written_DAT(cli, built):
    path, recs = built
    r = cli("dat", "ls", path)
    assert r.rc == 0
    assert r.lines == [f"0x{d:08X} {len(recs[d])}" for d in sorted(recs)]


@pytest.mark.parametrize("spelling", ["0x33", "51", "0X33", "0x033"])
def test_ls_type_keeps_only_that_top_byte_hex_or_decimal(cli, synthetic_sizes, spelling):
    r = cli("dat", "ls", SYN, "--type", spelling)
    assert r.rc == 0
    want = [f"0x{d:08X} {s}" for d, s in sorted(synthetic_sizes.items()) if d >> 24 == 0x33]
    assert r.lines == want and want


def test_ls_type_with_no_match_prints_nothing(cli):
    r = cli("dat", "ls", SYN, "--type", "0x7F")
    assert (r.rc, r.out) == (0, "")
    r = cli("dat", "ls", SYN, "--type", "0x7F", "--json")
    assert r.rc == 0 and json.loads(r.out) == []


def test_ls_json_is_an_array_of_did_and_size(cli, synthetic_sizes):
    r = cli("dat", "ls", SYN, "--json")
    assert r.rc == 0
    rows = json.loads(r.out)
    assert isinstance(rows, list)
    assert all(set(row) >= {"did", "size"} and DID_RE.match(row["did"])
               and type(row["size"]) is int for row in rows)
    assert [(int(x["did"], 16), x["size"]) for x in rows] == sorted(synthetic_sizes.items())


def test_ls_json_with_type_filter(cli, synthetic_sizes):
    r = cli("dat", "ls", SYN, "--type", "0x34", "--json")
    assert json.loads(r.out) == [{"did": f"0x{d:08X}", "size": s}
                                 for d, s in sorted(synthetic_sizes.items()) if d >> 24 == 0x34]


@pytest.mark.parametrize("bad", ["0x100", "-1", "abc", "0x", "256"])
def test_ls_bad_type_is_usage_error(cli, bad):
    assert_usage_error(cli("dat", "ls", SYN, "--type", bad))


# --- section 2: dat show --------------------------------------------------------------------
def _show(cli, path, did):
    r = cli("dat", "show", path, did)
    assert r.rc == 0, r
    assert len(r.lines) == 1, "one JSON object"
    assert_no_raw_nonfinite(r.out)
    return json.loads(r.out)


@pytest.mark.parametrize("spelling", ["0x33000118", "0X33000118", "855638296", "0x033000118"])
def test_show_DID_argument_decimal_or_hex(cli, spelling):
    assert _show(cli, SYN, spelling)["did"] == "0x33000118"


def test_show_every_DID_field_is_a_DID_string(cli, built):
    """Every field retail types as a DID prints as "0x" + 8 upper-case hex digits."""
    path, recs = built
    did_keys = {"id", "parts", "surfaces", "wave_id", "emitter_info_id", "gfxobj_id",
                "hw_gfxobj_id", "pes_id", "script_id", "anim_id", "default_animation",
                "default_script", "default_motion_table", "default_sound_table",
                "default_script_table", "orig_texture_id", "orig_palette_id", "textures",
                "default_palette_id", "did_degrade"}
    seen = set()
    for did in sorted(recs):
        obj = _show(cli, path, f"0x{did:08X}")
        assert obj["did"] == f"0x{did:08X}"
        for where, leaf in walk_json(obj):
            key = where.rsplit(".", 1)[-1].split("[")[0]
            if key in did_keys and leaf is not None:
                assert isinstance(leaf, str) and DID_RE.match(leaf), (did, where, leaf)
                seen.add(key)
    assert {"id", "parts", "emitter_info_id", "script_id", "surfaces"} <= seen


def test_show_NaN_and_infinities_are_strings(cli, built):
    path, _ = built
    obj = _show(cli, path, f"0x{NAN_SURFACE:08X}")
    assert (obj["translucency"], obj["luminosity"], obj["diffuse"]) == ("nan", "inf", "-inf")


def test_show_field_names_are_snake_case_as_in_dat_format(cli, built):
    path, recs = built
    for did in sorted(recs):
        obj = _show(cli, path, f"0x{did:08X}")
        for where, _ in walk_json(obj):
            for part in where.replace("[", ".[").split("."):
                if part and not part.startswith("["):
                    assert part == part.lower() and " " not in part, (did, where)


def test_show_emitter_info_fields_and_enum_names(cli):
    """ParticleEmitterInfo::UnPack 0x005179F0: the 32 fields by their names; EmitterType /
    ParticleType by name."""
    obj = _show(cli, SYN, f"0x{S.EMIT_TRAIL_PER_METER:08X}")
    names = ["id", "unknown", "emitter_type", "particle_type", "gfxobj_id", "hw_gfxobj_id",
             "birthrate", "max_particles", "initial_particles", "total_particles",
             "total_seconds", "lifespan", "lifespan_rand", "offset_dir", "min_offset",
             "max_offset", "a", "min_a", "max_a", "b", "min_b", "max_b", "c", "min_c",
             "max_c", "start_scale", "final_scale", "scale_rand", "start_trans",
             "final_trans", "trans_rand", "is_parent_local"]
    assert set(names) <= set(obj)
    assert obj["emitter_type"] == "BirthratePerMeter" and obj["particle_type"] == "Still"
    assert obj["type"] == "ParticleEmitterInfo"


def test_show_physics_script_hooks_in_runtime_order(cli):
    """PhysicsScript::UnPack 0x005218B0 sorts by start_time (PhysicsScriptData::Sort
    0x00521600): the ``script_data`` list is that order even where the DAT stores them out of
    order."""
    obj = _show(cli, SYN, f"0x{S.PES_UNSORTED:08X}")
    times = [d["start_time"] for d in obj["script_data"]]
    assert times == sorted(times)
    stored = [d["start_time"] for d in obj.get("stored_script_data", obj["script_data"])]
    assert sorted(stored) == times
    assert stored != times, "the fixture stores its hooks out of time order"
    assert all(isinstance(d["hook"]["hook_type"], str) for d in obj["script_data"])


def test_show_every_hook_type_by_name(cli):
    obj = _show(cli, SYN, f"0x{S.PES_ALL_HOOKS:08X}")
    built = [d["hook"] for d in obj["script_data"] if d["hook"] is not None]
    kinds = {h["hook_type"] for h in built}
    assert {"NoOp", "Sound", "SoundTable", "CreateParticle", "CreateBlockingParticle",
            "CallPES", "SetLight", "TextureVelocityPart", "DefaultScriptPart"} <= kinds
    assert all(h["direction"] in ("Both", "Forward", "Backward", "Unknown") for h in built)


def test_UnPackHook_0x005271D0_show_keeps_a_NULL_hook_entry_faithfully(cli):
    """A stored type-4 or unknown-type hook: retail builds nothing ("hook": null), but the
    entry keeps its start time, type number and direction; an Animation frame lists it too."""
    obj = _show(cli, SYN, f"0x{S.PES_NULL_UNKNOWN:08X}")
    assert obj["length"] == 0.5
    null = obj["script_data"][1]
    assert null == {"start_time": 0.2, "hook": None, "hook_type": S.UNKNOWN_HOOK_TYPE,
                    "type_number": S.UNKNOWN_HOOK_TYPE, "direction": "Forward"}
    obj = _show(cli, SYN, f"0x{S.PES_NULL_ANIMATION_DONE:08X}")
    assert obj["script_data"][1] == {"start_time": 0.3, "hook": None,
                                     "hook_type": "AnimationDone", "type_number": 4,
                                     "direction": "Both"}
    anim = _show(cli, SYN, f"0x{S.ANIM_NULL_HOOKS:08X}")
    hooks = anim["part_frames"][1]["hooks"]
    assert [h.get("hook_type") for h in hooks] == [
        "Sound", "AnimationDone", S.UNKNOWN_HOOK_TYPE, "SoundTable"]
    assert [h.get("hook", "built") for h in hooks] == ["built", None, None, "built"]


def test_show_physics_script_table_keeps_stored_order(cli):
    """PhysicsScriptTableData::GetScript 0x00521A20 walks the stored order; dat show keeps it
    (entries and their (mod, script) lists), PlayScript keys by name."""
    obj = _show(cli, SYN, f"0x{S.PST_UNSORTED:08X}")
    table = R.decode(S.PST_UNSORTED, DatFile(SYN).read(S.PST_UNSORTED))
    assert [e["play_script"] for e in obj["entries"]] == [
        R.PlayScript(int(k)).name for k, _ in table.entries]
    for e, (_, data) in zip(obj["entries"], table.entries):
        assert [s["script_id"] for s in e["scripts"]] == [
            f"0x{s.script_id:08X}" for s in data.scripts]
    launch = next(e for e in obj["entries"] if e["play_script"] == "Launch")
    mods = [s["mod"] for s in launch["scripts"]]
    assert mods != sorted(mods), "stored (unsorted) order kept"


def test_show_unknown_enum_value_stays_a_number(cli, built):
    path, _ = built
    obj = _show(cli, path, "0x34000005")
    assert obj["entries"][-1]["play_script"] == 0x1234


def test_show_absent_optional_is_null_not_zero(cli):
    """Setup.default_scale exists only with HasDefaultScale (CSetup::UnPack 0x00520C50): absent is
    null; a present DID of 0 stays a DID string of zero."""
    obj = _show(cli, SYN, f"0x{S.SETUP_ATTACH_POINTS:08X}")
    assert obj["default_scale"] is None
    gfx = _show(cli, SYN, f"0x{S.GFX_QUAD_SPARK:08X}")
    assert gfx["physics_bsp"] is None and gfx["physics_polygons"] is None


def test_show_lists_in_stored_order(cli):
    """Setup parts and holding locations in the stored order."""
    data = DatFile(SYN).read(S.SETUP_ATTACH_POINTS)
    setup = R.decode(S.SETUP_ATTACH_POINTS, data)
    obj = _show(cli, SYN, f"0x{S.SETUP_ATTACH_POINTS:08X}")
    assert obj["parts"] == [f"0x{p:08X}" for p in setup.parts]
    assert [h["key"] for h in obj["holding_locations"]] == [
        R.ParentLocation(int(k)).name if int(k) in R.ParentLocation._value2member_map_
        else int(k) for k, _ in setup.holding_locations]


def test_show_surface_type_field_wins_and_record_type_names_the_record(cli):
    """Surface has a field named ``type`` (CSurface::Serialize 0x005365F0, SurfaceType flags
    by name); the record type is still named, under ``record_type``."""
    obj = _show(cli, SYN, f"0x{S.SURFACE_SPARK_ADDITIVE:08X}")
    assert obj["type"] == "Base1Image|Additive"
    assert obj["record_type"] == "Surface"
    assert _show(cli, SYN, f"0x{S.PES_EMPTY:08X}")["record_type"] == "PhysicsScript"


def test_show_every_synthetic_record_decodes(cli, synthetic_sizes):
    for did in sorted(synthetic_sizes)[::7]:
        obj = _show(cli, SYN, f"0x{did:08X}")
        assert obj["did"] == f"0x{did:08X}"


# --- failures of the input ------------------------------------------------------------------
def test_show_unknown_DID_names_file_and_DID(cli):
    r = cli("dat", "show", SYN, "0x33009999")
    assert_input_failure(r, "synthetic_portal.dat", "0x33009999")


@pytest.mark.parametrize("bad", ["0xZZ", "0x1FFFFFFFF", "-1", "", "3.5"])
def test_show_bad_DID_is_usage_error(cli, bad):
    assert_usage_error(cli("dat", "show", SYN, bad))


@pytest.mark.parametrize("argv", [["dat"], ["dat", "ls"], ["dat", "show", "x.dat"],
                                  ["dat", "frobnicate"], ["no-such-command"]])
def test_missing_or_unknown_arguments_are_usage_errors(cli, argv):
    assert_usage_error(cli(*argv))


@pytest.mark.parametrize("command", [["dat", "ls"], ["dat", "show", "@", "0x33000101"]])
@pytest.mark.parametrize("damage", ["missing", "empty", "short_header", "truncated_body",
                                    "directory"])
def test_bad_DAT_container_is_one_line_naming_the_file(cli, tmp_path, command, damage):
    raw = SYN.read_bytes()
    path = tmp_path / f"{damage}.dat"
    if damage == "empty":
        path.write_bytes(b"")
    elif damage == "short_header":
        path.write_bytes(raw[:100])
    elif damage == "truncated_body":
        path.write_bytes(raw[:len(raw) // 3])
    elif damage == "directory":
        path.mkdir()
    argv = list(command)
    if "@" in argv:
        argv[argv.index("@")] = str(path)
    else:
        argv.append(str(path))
    assert_input_failure(cli(*argv), f"{damage}.dat")


def test_corrupt_btree_names_file_and_offset(cli, tmp_path):
    raw = bytearray(SYN.read_bytes())
    for i in range(2000, len(raw), 97):
        raw[i] ^= 0x5A
    path = tmp_path / "corrupt.dat"
    path.write_bytes(bytes(raw))
    r = cli("dat", "ls", path)
    assert_input_failure(r, "corrupt.dat", "offset")


@pytest.mark.parametrize("did", [S.PES_ALL_HOOKS, S.SETUP_HUMANOID, S.EMIT_TRAIL_PER_METER,
                                 S.PST_FLAME, S.GFX_LANTERN_BODY, S.ANIM_HUMANOID_RECALL,
                                 S.MTABLE_HUMANOID, S.STABLE_HUMANOID])
def test_truncated_record_names_file_DID_and_offset(cli, tmp_path, did):
    """A record cut short anywhere: exit 1, one line with the file, the DID and the byte
    offset inside the record where decoding ran out."""
    data = DatFile(SYN).read(did)
    for cut in sorted({1, len(data) // 2, len(data) - 1}):
        path = tmp_path / f"cut{cut}.dat"
        write_dat(path, {did: data[:cut]})
        r = cli("dat", "show", path, f"0x{did:08X}")
        assert_input_failure(r, f"cut{cut}.dat", f"0x{did:08X}", "offset")


def test_UnPackHook_0x005271D0_unknown_type_reads_the_header_only(cli, tmp_path):
    """An unknown hook type: retail reads the type and direction words, aligns and builds
    nothing, so the record decodes; bytes after the header are the next hook (or, with
    nothing left to read, trailing bytes: an input failure naming file and DID)."""
    # PhysicsScript: u32 id, u32 count=1, f64 start_time, u32 hook_type=99, i32 direction
    data = struct.pack("<IIdIi", 0x33000001, 1, 0.25, 99, 1)
    path = tmp_path / "hook99.dat"
    write_dat(path, {0x33000001: data})
    obj = _show(cli, path, "0x33000001")
    assert obj["script_data"] == [{"start_time": 0.25, "hook": None, "hook_type": 99,
                                   "type_number": 99, "direction": "Forward"}]
    payload = tmp_path / "hook99_payload.dat"
    write_dat(payload, {0x33000001: data + struct.pack("<I", 7)})
    assert_input_failure(cli("dat", "show", payload, "0x33000001"), "hook99_payload.dat",
                         "0x33000001")


def test_show_vertex_type_enum_by_name(cli):
    """VertexType (i32, CVertexArray::UnPack 0x0053C030): 1 CSWVertex; enums print as names."""
    obj = _show(cli, SYN, f"0x{S.GFX_QUAD_SPARK:08X}")
    assert obj["vertex_array"]["vertex_type"] == "CSWVertex"


#: top-level field names of each record type (counts aside)
SPEC_FIELDS = {
    S.SETUP_HUMANOID: ["id", "flags", "parts", "parent_index", "default_scale",
                       "holding_locations", "connection_points", "placement_frames",
                       "cylspheres", "spheres", "height", "radius", "step_up_height",
                       "step_down_height", "sorting_sphere", "selection_sphere", "lights",
                       "default_animation", "default_script", "default_motion_table",
                       "default_sound_table", "default_script_table"],
    S.ANIM_HUMANOID_WALK: ["id", "flags", "pos_frames", "part_frames"],
    S.MTABLE_HUMANOID: ["id", "default_style", "style_defaults", "cycles", "modifiers",
                        "links"],
    S.SURFACE_SPARK_ADDITIVE: ["type", "orig_texture_id", "orig_palette_id", "color_value",
                               "translucency", "luminosity", "diffuse"],
    0x05001000: ["id", "data_category", "texture_type", "textures"],
    0x06001000: ["id", "data_category", "width", "height", "format", "image_size",
                 "source_data", "default_palette_id"],
    S.PES_ALL_HOOKS: ["id", "script_data"],
    S.PST_FLAME: ["id", "entries"],
    S.GFX_LANTERN_BODY: ["id", "flags", "surfaces", "vertex_array", "physics_polygons",
                         "physics_bsp", "sort_center", "polygons", "drawing_bsp",
                         "did_degrade"],
}


@pytest.mark.parametrize("did", sorted(SPEC_FIELDS), ids=lambda d: f"0x{d:08X}")
def test_show_has_every_field_the_spec_names(cli, did):
    obj = _show(cli, SYN, f"0x{did:08X}")
    assert [f for f in SPEC_FIELDS[did] if f not in obj] == []


def test_show_render_surface_image_size_is_the_pixel_byte_count(cli):
    obj = _show(cli, SYN, "0x06001000")
    assert obj["image_size"] == obj["source_data"]["size"] == 32 * 32 * 4


#: CAnimHook::UnPackHook 0x005271D0: each hook type's payload field names
HOOK_FIELDS = {
    "NoOp": [], "Sound": ["wave_id"], "SoundTable": ["sound_type"],
    "Attack": ["part_index", "left_x", "left_y", "right_x", "right_y", "radius", "height"],
    "AnimationDone": [], "ReplaceObject": ["part_index", "gfxobj_id"],
    "Ethereal": ["ethereal"], "TransparentPart": ["part_index", "start", "end", "time"],
    "Luminous": ["start", "end", "time"], "LuminousPart": ["part_index", "start", "end", "time"],
    "Diffuse": ["start", "end", "time"], "DiffusePart": ["part_index", "start", "end", "time"],
    "Scale": ["end", "time"],
    "CreateParticle": ["emitter_info_id", "part_index", "offset", "emitter_id"],
    "DestroyParticle": ["emitter_id"], "StopParticle": ["emitter_id"], "NoDraw": ["no_draw"],
    "DefaultScript": [], "DefaultScriptPart": ["part_index"], "CallPES": ["pes_id", "pause"],
    "Transparent": ["start", "end", "time"],
    "SoundTweaked": ["wave_id", "probability", "priority", "volume"], "SetOmega": ["axis"],
    "TextureVelocity": ["u_speed", "v_speed"],
    "TextureVelocityPart": ["part_index", "u_speed", "v_speed"], "SetLight": ["lights_on"],
    "CreateBlockingParticle": ["emitter_info_id", "part_index", "offset", "emitter_id"],
}


def test_show_hook_payload_field_names_as_in_the_spec(cli):
    obj = _show(cli, SYN, f"0x{S.PES_ALL_HOOKS:08X}")
    seen = set()
    for d in obj["script_data"]:
        hook = d["hook"]
        if hook is None:  # the stored AnimationDone: no payload, retail builds no hook
            assert set(d) == {"start_time", "hook", "hook_type", "type_number", "direction"}
            seen.add(d["hook_type"])
            continue
        assert set(hook) - {"hook_type", "direction"} == set(HOOK_FIELDS[hook["hook_type"]])
        seen.add(hook["hook_type"])
    assert seen == set(HOOK_FIELDS)
