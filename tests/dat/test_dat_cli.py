"""``vfxviewer dat ls`` / ``dat show`` exactly per contracts/cli.md sections 1-2."""

from __future__ import annotations

import json
import struct

import pytest

from viewer.cli import main
from viewer.dat import records as R
from viewer.dat import samples
from viewer.dat.writer import write_dat


@pytest.fixture(scope="module")
def dat(tmp_path_factory):
    recs = {d: R.encode(r) for d, r in samples.sample_records().items()}
    # a Surface with NaN / inf floats for the JSON rule
    recs[0x08000001] = struct.pack("<II3f", 0x1, 0xFF00FF00, float("nan"), float("inf"),
                                   float("-inf"))
    path = tmp_path_factory.mktemp("dat") / "client_portal.dat"
    write_dat(path, recs)
    return path, recs


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_ls_plain_lists_did_and_size_ascending(dat, capsys):
    path, recs = dat
    rc, out, _ = run(capsys, "dat", "ls", str(path))
    assert rc == 0
    lines = out.splitlines()
    assert lines == [f"0x{d:08X} {len(recs[d])}" for d in sorted(recs)]


def test_ls_type_filter_and_json(dat, capsys):
    path, recs = dat
    rc, out, _ = run(capsys, "dat", "ls", str(path), "--type", "0x33", "--json")
    assert rc == 0
    assert json.loads(out) == [{"did": "0x33000719", "size": len(recs[0x33000719])}]
    rc, out, _ = run(capsys, "dat", "ls", str(path), "--type", "51")     # decimal too
    assert out.splitlines() == [f"0x33000719 {len(recs[0x33000719])}"]


def test_show_physics_script_hooks_in_runtime_order(dat, capsys):
    path, _ = dat
    rc, out, _ = run(capsys, "dat", "show", str(path), "0x33000719")
    assert rc == 0
    obj = json.loads(out)
    assert obj["type"] == "PhysicsScript" and obj["did"] == "0x33000719"
    times = [d["start_time"] for d in obj["script_data"]]
    assert times == sorted(times)
    kinds = [d["hook"]["hook_type"] for d in obj["script_data"] if d["hook"] is not None]
    assert "CreateBlockingParticle" in kinds
    # the stored AnimationDone: retail's UnPackHook 0x005271D0 builds nothing for it
    (null,) = [d for d in obj["script_data"] if d["hook"] is None]
    assert (null["hook_type"], null["type_number"], null["direction"]) == (
        "AnimationDone", 4, "Both")
    cb = next(d["hook"] for d in obj["script_data"]
              if d["hook"] and d["hook"]["hook_type"] == "CreateBlockingParticle")
    assert cb["emitter_info_id"] == "0x3200078E" and cb["direction"] == "Both"
    assert set(cb["offset"]) == {"origin", "orientation"}


def test_show_table_keeps_stored_order_with_enum_names(dat, capsys):
    path, _ = dat
    _, out, _ = run(capsys, "dat", "show", str(path), "0x34000005")
    obj = json.loads(out)
    assert [e["play_script"] for e in obj["entries"]] == ["ProjectileCollision", "Launch",
                                                          "Explode", 0x1234]
    assert obj["entries"][1]["scripts"][1] == {"mod": 0.5, "script_id": "0x3300011C"}


def test_show_absent_is_null_and_present_zero_is_zero(dat, capsys):
    path, _ = dat
    obj = json.loads(run(capsys, "dat", "show", str(path), "0x02000108")[1])
    assert obj["parent_index"] is None and obj["default_scale"] is None
    assert obj["default_animation"] == "0x00000000"
    assert obj["flags"] == "0"
    obj = json.loads(run(capsys, "dat", "show", str(path), "0x02000124")[1])
    assert obj["flags"] == "HasParent|HasDefaultScale|AllowFreeHeading"
    assert obj["parts"] == ["0x01000001", "0x01000002"]
    assert obj["placement_frames"][1]["key"] == "MissileFlight"
    surf = json.loads(run(capsys, "dat", "show", str(path), "0x080001B8")[1])
    assert surf["color_value"] is None and surf["orig_palette_id"] == "0x00000000"


def test_show_nan_and_infinities_as_strings(dat, capsys):
    path, _ = dat
    _, out, _ = run(capsys, "dat", "show", str(path), str(0x08000001))
    obj = json.loads(out)
    assert (obj["translucency"], obj["luminosity"], obj["diffuse"]) == ("nan", "inf", "-inf")
    assert "NaN" not in out and "Infinity" not in out


def test_show_every_record_type_is_valid_json(dat, capsys):
    path, recs = dat
    for did in recs:
        rc, out, _ = run(capsys, "dat", "show", str(path), f"0x{did:08X}")
        assert rc == 0
        obj = json.loads(out)
        assert obj["did"] == f"0x{did:08X}"
    obj = json.loads(run(capsys, "dat", "show", str(path), "0x06000164")[1])
    assert obj["format"] == "A8R8G8B8" and obj["source_data"]["size"] == 64
    assert obj["default_palette_id"] is None


def test_unknown_did_exits_1_with_one_line_naming_file_and_did(dat, capsys):
    path, _ = dat
    rc, out, err = run(capsys, "dat", "show", str(path), "0x33000001")
    assert rc == 1 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "0x33000001" in err and str(path) in err


def test_malformed_record_exits_1_naming_the_offset(tmp_path, capsys):
    path = tmp_path / "bad.dat"
    write_dat(path, {0x33000001: struct.pack("<II", 0x33000001, 3)})
    rc, _, err = run(capsys, "dat", "show", str(path), "0x33000001")
    assert rc == 1 and "offset 8" in err


def test_not_a_dat_exits_1(tmp_path, capsys):
    p = tmp_path / "junk.dat"
    p.write_bytes(b"\0" * 1024)
    rc, _, err = run(capsys, "dat", "ls", str(p))
    assert rc == 1 and "magic" in err


def test_bad_usage_exits_2(dat, capsys):
    path, _ = dat
    with pytest.raises(SystemExit) as ei:
        main(["dat", "show", str(path), "notanumber"])
    assert ei.value.code == 2
    with pytest.raises(SystemExit) as ei:
        main(["dat", "ls", str(path), "--type", "0x1FF"])
    assert ei.value.code == 2
    capsys.readouterr()


def test_show_f32_fields_in_shortest_f32_spelling_and_f64_fields_exact(tmp_path, capsys):
    pes = struct.pack("<II", 0x33000001, 1) + struct.pack("<d", 0.1)       # f64 start_time
    pes += struct.pack("<IiIf", 19, 0, 0x33000002, 0.7)                      # CallPES pause f32
    path = tmp_path / "f.dat"
    write_dat(path, {0x33000001: pes})
    obj = json.loads(run(capsys, "dat", "show", str(path), "0x33000001")[1])
    entry = obj["script_data"][0]
    assert entry["start_time"] == 0.1 and entry["hook"]["pause"] == 0.7
    assert struct.pack("<f", entry["hook"]["pause"]) == struct.pack("<f", 0.7)
