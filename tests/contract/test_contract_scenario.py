"""Contract section 4: scenario files, as ``vfxviewer trace --scenario`` reads them.

``dat`` paths are relative to the scenario file and the command-line DAT overrides them;
objects without a position stand at the origin; ``world`` lists collision shapes and its
absence means empty space (no ground); ``seed`` seeds every random draw. Malformed files
are input failures: exit 1, one line naming the scenario file, never a traceback.

"""

from __future__ import annotations

import json
import shutil

import pytest

from viewer import synthetic as S

from .conftest import SYN, assert_input_failure, run_process, write_scenario

HUMANOID = f"0x{S.SETUP_HUMANOID:08X}"


def contract_example() -> dict:
    """The example of contract section 4 with synthetic DIDs in place of retail ones."""
    return {
        "dat": [str(SYN)], "seed": 0, "fps": 60, "seconds": 3.0,
        "objects": [{"id": 1, "setup": HUMANOID, "table": f"0x{S.PST_HUMANOID:08X}",
                     "position": [0, 0, 1], "heading_deg": 0, "velocity": [0, 0, 0],
                     "state": "0x00400C08"}],
        "events": [
            {"t": 0.0, "object": 1, "play_script": f"0x{S.PES_COLLISION_FLASH:08X}"},
            {"t": 0.5, "object": 1, "play": "Hidden", "intensity": 0.5},
            {"t": 0.2, "object": 1, "motion": "0x10000153"},
            {"t": 2.5, "object": 1, "set_state": "0x00404C08"},
        ],
    }


def _trace(cli, *argv) -> list[dict]:
    r = cli("trace", *argv)
    assert r.rc == 0, r
    return [json.loads(ln) for ln in r.lines]


def test_contract_example_plays_every_event_kind(cli, tmp_path):
    evs = _trace(cli, "--scenario", write_scenario(tmp_path / "ex.json", contract_example()))
    assert any(e["event"] == "script" and e["action"] == "queued" and e["t"] == 0.0
               and e["script"] == f"0x{S.PES_COLLISION_FLASH:08X}" for e in evs)
    res = [e for e in evs if e["event"] == "resolve" and e["t"] == 0.5]
    assert res and res[0]["type"] == 0x76 and res[0]["intensity"] == 0.5
    assert res[0]["script"] == f"0x{S.PES_HIDDEN:08X}"
    hidden = [e for e in evs if e["event"] == "state" and e["t"] == 2.5]
    assert hidden and hidden[-1]["hidden"] is True
    assert int(hidden[-1]["state"], 16) & 0x4000
    assert any(e["event"] == "hook" and e["source"] == f"0x{S.ANIM_HUMANOID_RECALL:08X}"
               for e in evs if 0.2 < e["t"] < 2.5)


def test_dat_paths_are_relative_to_the_scenario_file(tmp_path):
    (tmp_path / "sc" / "d").mkdir(parents=True)
    shutil.copy(SYN, tmp_path / "sc" / "d" / "p.dat")
    data = contract_example()
    data["dat"] = ["d/p.dat"]
    write_scenario(tmp_path / "sc" / "s.json", data)
    (tmp_path / "elsewhere").mkdir()
    r = run_process("trace", "--scenario", tmp_path / "sc" / "s.json", "--seconds", "0.1",
                    cwd=tmp_path / "elsewhere")
    assert r.rc == 0, r
    r2 = run_process("trace", "--scenario", "s.json", "--seconds", "0.1", cwd=tmp_path / "sc")
    assert r2.out == r.out


def test_a_dat_path_that_does_not_exist_names_it(cli, tmp_path):
    data = contract_example()
    data["dat"] = ["no_such.dat"]
    r = cli("trace", "--scenario", write_scenario(tmp_path / "s.json", data))
    assert_input_failure(r, "no_such.dat")


def test_command_line_DAT_overrides_the_scenario_dat(cli, tmp_path):
    data = contract_example()
    data["dat"] = ["no_such.dat"]
    path = write_scenario(tmp_path / "s.json", data)
    r = cli("trace", SYN, "--scenario", path, "--seconds", "0.1")
    assert r.rc == 0, r
    data["dat"] = [str(SYN)]
    good = cli("trace", "--scenario", write_scenario(tmp_path / "g.json", data), "--seconds",
               "0.1")
    assert r.out == good.out


def test_dat_may_be_a_single_string(cli, tmp_path):
    data = contract_example()
    data["dat"] = str(SYN)
    assert cli("trace", "--scenario", write_scenario(tmp_path / "s.json", data),
               "--seconds", "0").rc == 0


def test_no_dat_anywhere_is_usage_error(cli, tmp_path):
    data = contract_example()
    del data["dat"]
    r = cli("trace", "--scenario", write_scenario(tmp_path / "s.json", data))
    assert r.rc == 2 and "Traceback" not in r.err


def test_objects_without_position_stand_at_the_origin(cli, tmp_path):
    data = {"dat": [str(SYN)], "seconds": 0.1,
            "objects": [{"id": 7, "setup": f"0x{S.SETUP_MARKER:08X}"}]}
    evs = _trace(cli, "--scenario", write_scenario(tmp_path / "s.json", data), "--poses")
    roots = [e for e in evs if e["event"] == "pose" and e["owner"] == 7 and e["part"] == -1]
    assert roots and all(e["origin"] == [0.0, 0.0, 0.0] for e in roots)


def _falling(world=None) -> dict:
    d = {"dat": [str(SYN)], "seconds": 2.0,
         "objects": [{"id": 1, "setup": f"0x{S.SETUP_ARROW:08X}", "position": [0, 0, 1],
                      "velocity": [0, 0, -3], "state": "0x00000408"}]}  # Gravity|ReportCollisions
    if world is not None:
        d["world"] = world
    return d


@pytest.mark.parametrize("world", [None, []], ids=["absent", "empty"])
def test_absent_or_empty_world_is_empty_space_no_ground(cli, tmp_path, world):
    evs = _trace(cli, "--scenario", write_scenario(tmp_path / "s.json", _falling(world)),
                 "--poses")
    assert not [e for e in evs if e["event"] == "impact"]
    roots = [e for e in evs if e["event"] == "pose" and e["part"] == -1]
    assert roots[-1]["origin"][2] < -1.0, "fell through where no ground is listed"


def test_world_plane_is_ground(cli, tmp_path):
    data = _falling([{"plane": {"normal": [0, 0, 1], "d": 0}}])
    evs = _trace(cli, "--scenario", write_scenario(tmp_path / "s.json", data))
    hits = [e for e in evs if e["event"] == "impact"]
    assert hits and hits[0]["other"] == "world:0" and hits[0]["owner"] == 1
    assert hits[0]["normal"] == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("shape", [
    {"box": {"min": [-1, -1, -0.5], "max": [1, 1, 0]}},
    {"sphere": {"center": [0, 0, -0.5], "radius": 0.5}},
], ids=["box", "sphere"])
def test_world_box_and_sphere_are_hit_by_index(cli, tmp_path, shape):
    data = _falling([{"plane": {"normal": [0, 0, 1], "d": 5}}, shape])  # plane 5 m below
    evs = _trace(cli, "--scenario", write_scenario(tmp_path / "s.json", data))
    hits = [e for e in evs if e["event"] == "impact"]
    assert hits and hits[0]["other"] == "world:1"


def test_seed_in_the_scenario_seeds_every_random_draw(cli, tmp_path):
    def run(seed):
        data = {"dat": [str(SYN)], "seed": seed, "seconds": 1.0,
                "objects": [{"id": 1, "setup": f"0x{S.SETUP_MARKER:08X}"}],
                "events": [{"t": 0, "object": 1,
                            "play_script": f"0x{S.PES_EMITTER_LIMITS:08X}"}]}
        return cli("trace", "--scenario", write_scenario(tmp_path / f"s{seed}.json", data),
                   "--particles").out
    assert run(3) == run(3) != run(4)
    assert cli("trace", "--scenario", tmp_path / "s3.json", "--particles", "--seed",
               "4").out == run(4)


def test_extra_fields_are_welcome(cli, tmp_path):
    data = contract_example()
    data["comment"] = "hello"
    data["objects"][0]["note"] = {"any": [1, 2]}
    assert cli("trace", "--scenario", write_scenario(tmp_path / "s.json", data),
               "--seconds", "0").rc == 0


def test_intensity_strings_nan_inf_accepted(cli, tmp_path):
    data = contract_example()
    data["events"] = [{"t": 0, "object": 1, "play": "Hidden", "intensity": v}
                      for v in ("nan", "inf", "-inf")]
    evs = _trace(cli, "--scenario", write_scenario(tmp_path / "s.json", data), "--seconds",
                 "0")
    assert [e["intensity"] for e in evs if e["event"] == "resolve"] == ["nan", "inf", "-inf"]


def test_state_and_DIDs_as_decimal_numbers_too(cli, tmp_path):
    data = contract_example()
    data["objects"][0]["setup"] = S.SETUP_HUMANOID
    data["objects"][0]["state"] = 0x00400C08
    data["events"] = [{"t": 0, "object": 1, "play": 0x76, "intensity": 1}]
    evs = _trace(cli, "--scenario", write_scenario(tmp_path / "s.json", data), "--seconds",
                 "0")
    assert [e["script"] for e in evs if e["event"] == "resolve"] == [f"0x{S.PES_HIDDEN:08X}"]


# --- malformed scenarios: exit 1, one line naming the file ----------------------------------
def _obj(**kw):
    d = contract_example()
    d["objects"][0].update(kw)
    return d


def _ev(**kw):
    d = contract_example()
    d["events"] = [{"t": 0.0, "object": 1, "play": "Hidden", "intensity": 0.5, **kw}]
    return d


def _top(**kw):
    d = contract_example()
    d.update(kw)
    return d


MALFORMED = {
    "not_json": "{ this is not json",
    "top_list": [1, 2],
    "top_null": None,
    "seed_str": _top(seed="abc"),
    "fps_zero": _top(fps=0),
    "fps_str": _top(fps="x"),
    "fps_nan": _top(fps="nan"),
    "fps_inf": _top(fps="inf"),
    "seconds_str": _top(seconds="x"),
    "object_without_setup": _top(objects=[{"id": 1}]),
    "objects_dict": _top(objects={"id": 1}),
    "duplicate_ids": _top(objects=[{"id": 1, "setup": HUMANOID}, {"id": 1, "setup": HUMANOID}]),
    "setup_not_DID": _obj(setup="zz"),
    "setup_list": _obj(setup=[1]),
    "setup_unknown": _obj(setup="0x02009999"),
    "setup_wrong_type": _obj(setup=f"0x{S.PES_EMPTY:08X}"),
    "table_not_DID": _obj(table="zz"),
    "table_unknown": _obj(table="0x34009999"),
    "position_2": _obj(position=[0, 0]),
    "position_str": _obj(position="abc"),
    "position_null": _obj(position=None),
    "velocity_1": _obj(velocity=[1]),
    "state_str": _obj(state="zz"),
    "state_list": _obj(state=[1]),
    "parent_missing": _obj(parent=7),
    "event_without_t": _top(events=[{"object": 1, "play": "Hidden"}]),
    "event_not_object": _top(events=[5]),
    "events_dict": _top(events={"t": 0}),
    "t_str": _ev(t="x"),
    "event_object_missing": _ev(object=9),
    "play_unknown_name": _ev(play="Bogus"),
    "play_list": _ev(play=[4]),
    "intensity_str": _ev(intensity="x"),
    "play_script_not_DID": _top(events=[{"t": 0, "object": 1, "play_script": "zz"}]),
    "play_script_unknown": _top(events=[{"t": 0, "object": 1, "play_script": "0x33009999"}]),
    "play_script_wrong_type": _top(events=[{"t": 0, "object": 1,
                                            "play_script": f"0x{S.PST_FLAME:08X}"}]),
    "set_state_str": _top(events=[{"t": 0, "object": 1, "set_state": "zz"}]),
    "motion_unknown": _top(events=[{"t": 0, "object": 1, "motion": "zz"}]),
    "event_without_action": _top(events=[{"t": 0, "object": 1}]),
    "world_unknown_shape": _top(world=[{"cube": {}}]),
    "world_plane_normal_2": _top(world=[{"plane": {"normal": [0, 0], "d": 0}}]),
    "world_str": _top(world="x"),
    "world_sphere_no_radius": _top(world=[{"sphere": {"center": [0, 0, 0]}}]),
    "world_box_str": _top(world=[{"box": {"min": "a", "max": [1, 1, 1]}}]),
}

#: wrong field types (each once escaped as a traceback): one line naming the file
WRONG_TYPES = {
    "dat_int": _top(dat=5),
    "dat_list_of_int": _top(dat=[5]),
    "objects_int": _top(objects=5),
    "events_int": _top(events=5),
    "object_id_str": _obj(id="abc"),
    "object_id_list": _obj(id=[1]),
    "heading_str": _obj(heading_deg="x"),
    "heading_list": _obj(heading_deg=[1]),
    "scale_str": _obj(scale="x"),
    "parent_str": _obj(parent="x"),
    "event_object_str": _ev(object="x"),
    "event_object_list": _ev(object=[1]),
    "t_nan": _ev(t="nan"),
    "t_inf": _ev(t="inf"),
    "seconds_inf": _top(seconds="inf"),
    "intensity_null": _ev(intensity=None),
    "intensity_list": _ev(intensity=[1]),
    "seconds_nan": _top(seconds="nan"),
    "world_int": _top(world=-1),
    "heading_inf": _obj(heading_deg="inf"),
    "position_1e308": _obj(position=[1e308, 0, 0]),
    "dat_null_entry": _top(dat=[None]),
}

#: integers that would need a guess (truncation or a 32-bit wrap): errors, not guesses
NOT_U32 = {
    "seed_fraction": _top(seed=1.5),
    "seed_bool": _top(seed=True),
    "object_id_fraction": _obj(id=1.5),
    "play_negative": _ev(play=-4),
    "play_above_u32": _ev(play=2 ** 40),
}


def _write(tmp_path, name, data):
    path = tmp_path / f"{name}.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_scenario_is_one_line_naming_the_file(cli, tmp_path, name):
    path = _write(tmp_path, name, MALFORMED[name])
    assert_input_failure(cli("trace", "--scenario", path), f"{name}.json")


def test_malformed_json_names_the_byte_offset(cli, tmp_path):
    path = _write(tmp_path, "broken", '{"seed": 0,\n "fps": }')
    assert_input_failure(cli("trace", "--scenario", path), "broken.json", "offset 20")


def test_missing_scenario_file_names_it(cli, tmp_path):
    assert_input_failure(cli("trace", "--scenario", tmp_path / "gone.json"), "gone.json")


@pytest.mark.parametrize("name", sorted(WRONG_TYPES))
def test_wrong_field_types_are_one_line_naming_the_file(cli, tmp_path, name):
    path = _write(tmp_path, name, WRONG_TYPES[name])
    assert_input_failure(cli("trace", "--scenario", path), f"{name}.json")


@pytest.mark.parametrize("name", sorted(NOT_U32))
def test_integers_that_are_not_u32_are_rejected_not_guessed(cli, tmp_path, name):
    path = _write(tmp_path, name, NOT_U32[name])
    assert_input_failure(cli("trace", "--scenario", path), f"{name}.json")


def test_object_position_velocity_and_state_are_read(cli, tmp_path):
    """position places the root; velocity moves it (state 0: no Gravity, nothing listed to
    hit); heading_deg turns it about +Z (a unit [w, x, y, z] quaternion)."""
    data = {"dat": [str(SYN)], "seconds": 1.0, "objects": [
        {"id": 1, "setup": f"0x{S.SETUP_ARROW:08X}", "position": [2, 3, 4],
         "velocity": [1, 0, 0], "state": "0x00000000", "heading_deg": 90}]}
    evs = _trace(cli, "--scenario", write_scenario(tmp_path / "s.json", data), "--poses")
    roots = [e for e in evs if e["event"] == "pose" and e["part"] == -1]
    first, last = roots[0], roots[-1]
    assert abs(first["origin"][1] - 3) < 1e-9 and abs(first["origin"][2] - 4) < 1e-9
    assert last["t"] == 1.0 and abs(last["origin"][0] - 3.0) < 1e-6
    w, x, y, _z = last["orientation"]
    assert abs(x) < 1e-9 and abs(y) < 1e-9 and abs(abs(w) - 0.5 ** 0.5) < 1e-6


def test_dat_list_of_several_files(cli, tmp_path):
    """``dat`` is a list: records split over two DATs play as from one."""
    from viewer.dat.container import DatFile
    from viewer.dat.writer import write_dat
    dat = DatFile(SYN)
    recs = {e.did: dat.read(e.did) for e in dat.entries() if e.did != 0xFFFF0001}
    write_dat(tmp_path / "a.dat", {d: b for d, b in recs.items() if d >> 24 in (0x33, 0x34)})
    write_dat(tmp_path / "b.dat", {d: b for d, b in recs.items() if d >> 24 not in (0x33, 0x34)})
    one = contract_example()
    two = dict(one, dat=["a.dat", "b.dat"])
    a = cli("trace", "--scenario", write_scenario(tmp_path / "one.json", one))
    b = cli("trace", "--scenario", write_scenario(tmp_path / "two.json", two))
    assert a.rc == b.rc == 0 and a.out == b.out
