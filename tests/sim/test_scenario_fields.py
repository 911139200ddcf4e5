"""Scenario field validation (contracts/cli.md section 4), Scenario.save path rebasing and
the byte offset World._get keeps.

Every malformed field is a ScenarioError naming the file and the field path; nothing is
truncated (1.5), wrapped (-4, 2**40) or let through as a Python exception."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
import sim_builders as B
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viewer.dat import records as R
from viewer.dat.database import AssetDatabase
from viewer.dat.writer import build_dat
from viewer.errors import ScenarioError
from viewer.sim.clock import as_time
from viewer.sim.scenario import Scenario, ScenarioRunner
from viewer.sim.world import World

SETUP, SCRIPT = 0x02000001, 0x33000001


def _base() -> dict:
    return {"dat": ["test.dat"], "seed": 0, "fps": 60, "seconds": 1.0,
            "objects": [{"id": 1, "setup": "0x02000001"}],
            "events": [{"t": 0.0, "object": 1, "play": "Launch", "intensity": 0.5}]}


def _top(**kw) -> dict:
    d = _base()
    d.update(kw)
    return d


def _obj(**kw) -> dict:
    d = _base()
    d["objects"][0].update(kw)
    return d


def _ev(**kw) -> dict:
    d = _base()
    d["events"][0].update(kw)
    return d


def _only(**kw) -> dict:
    """An event with only ``t``, ``object`` and ``kw`` (one action)."""
    d = _base()
    d["events"] = [{"t": 0.0, "object": 1, **kw}]
    return d


def _fails(data, path: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as err:
        Scenario.from_json(data, "dir/s.json")
    text = str(err.value)
    assert text.startswith("dir/s.json: ") and f"{path}: " in text, text
    return err.value


# -- containers and top-level fields -------------------------------------------------------
@pytest.mark.parametrize("data, path", [
    (_top(dat=5), "dat"), (_top(dat={"a": 1}), "dat"), (_top(dat=[5]), "dat[0]"),
    (_top(dat=[None]), "dat[0]"), (_top(dat=["a.dat", ""]), "dat[1]"),
    (_top(objects=5), "objects"), (_top(objects={"id": 1}), "objects"),
    (_top(events=5), "events"), (_top(events="x"), "events"),
    (_top(world=-1), "world"), (_top(world="x"), "world"), (_top(world={}), "world"),
    (_top(objects=[5]), "objects[0]"), (_top(objects=[{"id": 1}]), "objects[0]"),
    (_top(events=[5]), "events[0]"), (_top(events=[{"object": 1}]), "events[0]"),
    (_top(viewer=[1, 2]), "viewer"), (_top(viewer=[1, 2, "inf"]), "viewer[2]"),
])
def test_containers_that_are_not_lists_are_errors_naming_the_field(data, path):
    _fails(data, path)


def test_dat_string_and_null_containers_are_read():
    sc = Scenario.from_json(_top(dat="one.dat", world=None, events=None))
    assert sc.dat == ["one.dat"] and sc.world == [] and sc.events == []


@pytest.mark.parametrize("value", [1.5, True, "abc", [1], None, "1.5"])
def test_seed_integers_only(value):
    _fails(_top(seed=value), "seed")


@pytest.mark.parametrize("value, expected", [(7, 7), ("0x10", 16), ("012", 12), (-3, -3)])
def test_seed_decimal_or_hex(value, expected):
    assert Scenario.from_json(_top(seed=value)).seed == expected


@pytest.mark.parametrize("field, value", [
    ("fps", 0), ("fps", -30), ("fps", "x"), ("fps", "nan"), ("fps", "inf"), ("fps", None),
    ("seconds", "x"), ("seconds", "nan"), ("seconds", "inf"), ("seconds", -1),
    ("seconds", [1]), ("seconds", True),
])
def test_fps_positive_and_seconds_finite_not_negative(field, value):
    _fails(_top(**{field: value}), field)


# -- objects -----------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["abc", [1], 1.5, True, -1, 2 ** 32, None, "1_0", "",
                                   "0x", "1.0", "1e3"])
def test_object_id_is_a_u32(value):
    _fails(_obj(id=value), "objects[0].id")


@pytest.mark.parametrize("value, expected", [(5, 5), ("0x10", 16), ("010", 10)])
def test_object_id_decimal_or_hex(value, expected):
    assert Scenario.from_json(_obj(id=value)).objects[0].id == expected


@pytest.mark.parametrize("field", ["setup", "table"])
@pytest.mark.parametrize("value", ["zz", [1], 1.5, True, -1, 2 ** 32, "0x100000000"])
def test_DIDs_are_u32_not_wrapped(field, value):
    err = _fails(_obj(**{field: value}), f"objects[0].{field}")
    assert "not a DID" in err.message or "out of range" in err.message


@pytest.mark.parametrize("value", ["x", "inf", "-inf", "nan", [1], None, True, 1e39])
def test_heading_deg_is_a_finite_f32(value):
    _fails(_obj(heading_deg=value), "objects[0].heading_deg")


@pytest.mark.parametrize("field", ["position", "velocity", "omega"])
@pytest.mark.parametrize("value, path", [
    ([0, 0], ""), ("abc", ""), (None, ""), ([0, 0, 0, 0], ""), ({"x": 1}, ""),
    ([1e308, 0, 0], "[0]"), ([0, "inf", 0], "[1]"), ([0, 0, "nan"], "[2]"),
    ([0, 0, None], "[2]"), ([0, True, 0], "[1]"), ([0, 0, -3.5e38], "[2]"),
])
def test_vectors_are_three_finite_f32(field, value, path):
    """1e308 is finite as a double but no position retail could hold (an f32), and the
    distance math (squares) overflows on it."""
    _fails(_obj(**{field: value}), f"objects[0].{field}{path}")


def test_vectors_accept_numbers_and_numeric_strings():
    o = Scenario.from_json(_obj(position=[1, "2.5", -1e6])).objects[0]
    assert o.position == (1.0, 2.5, -1e6)


@pytest.mark.parametrize("field", ["position", "velocity", "omega"])
def test_vectors_stop_at_a_million(field):
    """viewer/bounds.py POSITION / VELOCITY: a thousand kilometres (metres per second);
    3e38 is an f32 but its squares leave the float range (NaN camera, NaN sweep)."""
    Scenario.from_json(_obj(**{field: [1e6, -1e6, 0]}))
    err = _fails(_obj(**{field: [0, 1000000.5, 0]}), f"objects[0].{field}[1]")
    assert "outside -1000000..1000000" in err.message


@pytest.mark.parametrize("field, value", [
    ("scale", "x"), ("scale", "nan"), ("scale", None), ("scale", 0), ("scale", -2),
    ("translucency", "inf"),
    ("translucency", [0.5]), ("state", "zz"), ("state", [1]), ("state", -1),
    ("state", 2 ** 32), ("state", 1.5), ("parent", "x"), ("parent", 1.5), ("parent", -1),
    ("default_script", -4), ("default_script", 2 ** 40), ("default_script", "Bogus"),
    ("default_script", True),
])
def test_object_scalar_fields(field, value):
    _fails(_obj(**{field: value}), f"objects[0].{field}")


def _child(**kw) -> dict:
    """objects[0] is object 2, objects[1] object 1 with ``kw`` (a parent must come first)."""
    d = _base()
    d["objects"] = [{"id": 2, "setup": "0x02000001"}, {"id": 1, "setup": "0x02000001", **kw}]
    return d


def test_parent_part_is_an_int_from_minus_one():
    _fails(_child(parent=2, parent_part=1.5), "objects[1].parent_part")
    _fails(_child(parent=2, parent_part=-2), "objects[1].parent_part")
    assert Scenario.from_json(_child(parent=2, parent_part="3")).objects[1].parent_part == 3


@pytest.mark.parametrize("value", ["Nowhere", 1.5, True, -1, 2 ** 32, None, [1]])
def test_parent_location_is_a_name_or_u32(value):
    _fails(_child(parent=2, parent_location=value), "objects[1].parent_location")


def test_parent_location_names_and_numbers_are_kept_as_written():
    for value in ("RightHand", 1, "0x1"):
        o = Scenario.from_json(_child(parent=2, parent_location=value)).objects[1]
        assert o.extra["parent_location"] == value


def test_missing_parent_names_the_field_and_the_file(tmp_path):
    p = tmp_path / "s.json"
    p.write_text(json.dumps(_obj(parent=7)))
    with pytest.raises(ScenarioError) as err:
        ScenarioRunner(Scenario.load(p), B.MemoryDB({SETUP: B.setup(SETUP)})).run(0.1)
    assert str(err.value).startswith(f"{p}: objects[0].parent: object 7 does not exist")


def test_default_intensity_accepts_nan_but_not_null():
    o = Scenario.from_json(_obj(default_script="Launch", default_intensity="nan")).objects[0]
    assert math.isnan(o.default_intensity)
    _fails(_obj(default_script="Launch", default_intensity=None),
           "objects[0].default_intensity")


def test_error_path_counts_the_object():
    d = _base()
    d["objects"] = [{"id": 1, "setup": "0x02000001"}, {"id": 2, "setup": "0x02000001"},
                    {"id": 3, "setup": "0x02000001", "heading_deg": "x"}]
    _fails(d, "objects[2].heading_deg")


# -- events ------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["x", [1], 1.5, True, -1, 2 ** 32, None])
def test_event_object_is_a_u32(value):
    _fails(_ev(object=value), "events[0].object")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "x", None, [0], True, -0.5])
def test_event_t_is_finite_and_not_negative(value):
    _fails(_ev(t=value), "events[0].t")


@pytest.mark.parametrize("value", [None, [1], True, {"v": 1}, "x", "1_0", ""])
def test_intensity_null_or_list_is_an_error(value):
    _fails(_ev(intensity=value), "events[0].intensity")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", 0.5, "0.5", 2, -1e300])
def test_intensity_accepts_numbers_and_nan_inf_strings(value):
    """Contract conventions: NaN and infinities are the strings "nan", "inf", "-inf";
    the intensity reaches PhysicsScriptTableData::GetScript 0x00521A20 as given."""
    got = Scenario.from_json(_ev(intensity=value)).events[0].intensity
    want = float(value)
    assert (math.isnan(got) and math.isnan(want)) or got == want


@pytest.mark.parametrize("value", [-4, 2 ** 40, 2 ** 32, "0x100000000", "-1", True, 1.5,
                                   [4], None, "Bogus"])
def test_play_is_a_u32_or_a_name_never_wrapped(value):
    _fails(_ev(play=value), "events[0].play")


@pytest.mark.parametrize("value, expected", [("Launch", 4), (4, 4), ("0x4", 4), ("004", 4),
                                             (0xFFFFFFFF, 0xFFFFFFFF)])
def test_play_names_and_numbers(value, expected):
    assert Scenario.from_json(_ev(play=value)).events[0].value == expected


@pytest.mark.parametrize("kw, path", [
    ({"play_script": "zz"}, "events[0].play_script"),
    ({"play_script": -1}, "events[0].play_script"),
    ({"play_script": 2 ** 32}, "events[0].play_script"),
    ({"set_state": "zz"}, "events[0].set_state"),
    ({"set_state": 2 ** 32}, "events[0].set_state"),
    ({"set_state": None}, "events[0].set_state"),
    ({"set_velocity": [1, 2]}, "events[0].set_velocity"),
    ({"set_velocity": [1, 2, "inf"]}, "events[0].set_velocity[2]"),
    ({"set_hidden": "yes"}, "events[0].set_hidden"),
    ({"set_hidden": 2}, "events[0].set_hidden"),
    ({"destroy": False}, "events[0].destroy"),
    ({"create": 5}, "events[0].create"),
    ({"create": {"setup": "0x02000001", "id": "x"}}, "events[0].create.id"),
    ({"create": {"setup": "0x02000001", "position": [0, 0]}}, "events[0].create.position"),
    ({"create": {"id": 4}}, "events[0].create"),
    ({"motion": "0x10000003", "catalog": []}, "events[0].catalog"),
    ({"motion": "0x10000003", "catalog": "nope"}, "events[0].catalog"),
    ({"motion": "0x10000003", "speed": None}, "events[0].speed"),
    ({"motion": "0x10000003", "speed": "nan"}, "events[0].speed"),
    ({"motion": "0x10000003", "speed": "-inf"}, "events[0].speed"),
    ({"motion": -1}, "events[0]"),
    ({"launch": {"velocity": [1, 0, 0]}, "intensity": None}, "events[0].intensity"),
    ({"launch": {"velocity": [1, 0, 0], "intensity": None}}, "events[0].launch.intensity"),
    ({"launch": {"velocity": [1, 0, 0], "explode_intensity": [1]}},
     "events[0].launch.explode_intensity"),
    ({"launch": 5}, "events[0]"),
])
def test_event_action_values(kw, path):
    _fails(_only(**kw), path)


def test_an_event_with_two_actions_is_an_error_not_a_pick():
    err = _fails(_only(play="Launch", play_script="0x33000001"), "events[0]")
    assert "more than one action" in err.message


def test_create_event_takes_the_event_object_as_its_id():
    ev = Scenario.from_json(_only(create={"setup": "0x02000001"}, object=9)).events[0]
    assert ev.kind == "create" and ev.value == {"setup": "0x02000001"}


def test_set_hidden_and_destroy_values():
    assert Scenario.from_json(_only(set_hidden=1)).events[0].value is True
    assert Scenario.from_json(_only(set_hidden=False)).events[0].value is False
    assert Scenario.from_json(_only(destroy=True)).events[0].kind == "destroy"


def test_load_names_the_file_and_field(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(_obj(scale="x")))
    with pytest.raises(ScenarioError) as err:
        Scenario.load(p)
    assert str(err.value).startswith(f"{p}: objects[0].scale: ")


def test_well_formed_scenario_round_trips_through_to_json():
    d = _base()
    d["objects"][0].update(position=[1, 2, 3], heading_deg=30, state="0x00400C08",
                           scale=2, default_script="Launch", default_intensity="nan")
    sc = Scenario.from_json(d)
    again = Scenario.from_json(json.loads(json.dumps(sc.to_json())))
    assert json.dumps(again.to_json()) == json.dumps(sc.to_json())


# -- Scenario.save: dat paths stay relative to the scenario file (contract 4) ---------------
def _saved(tmp_path, sc: Scenario, where: str) -> dict:
    out = tmp_path / where
    out.parent.mkdir(parents=True, exist_ok=True)
    sc.save(out)
    return json.loads(out.read_text())


def test_save_elsewhere_rewrites_relative_dat_paths(tmp_path):
    (tmp_path / "a").mkdir()
    src = tmp_path / "a" / "s.json"
    src.write_text(json.dumps(_top(dat=["test.dat", "sub/high.dat"])))
    sc = Scenario.load(src)
    for where, want in [("b/s.json", ["../a/test.dat", "../a/sub/high.dat"]),
                        ("a/sub/s.json", ["../test.dat", "high.dat"]),
                        ("a/copy.json", ["test.dat", "sub/high.dat"]),
                        ("s.json", ["a/test.dat", "a/sub/high.dat"])]:
        data = _saved(tmp_path, sc, where)
        assert data["dat"] == want, where
        again = Scenario.load(tmp_path / where)
        assert [p.resolve() for p in again.dat_paths()] == \
            [p.resolve() for p in sc.dat_paths()], where


def test_save_keeps_absolute_dat_paths_absolute(tmp_path):
    absolute = str((tmp_path / "x" / "client_portal.dat").resolve())
    src = tmp_path / "s.json"
    src.write_text(json.dumps(_top(dat=[absolute])))
    assert _saved(tmp_path, Scenario.load(src), "far/away/s.json")["dat"] == [absolute]


def test_save_leaves_the_scenario_in_memory_unchanged(tmp_path):
    src = tmp_path / "s.json"
    src.write_text(json.dumps(_base()))
    sc = Scenario.load(src)
    _saved(tmp_path, sc, "b/s.json")
    assert sc.dat == ["test.dat"] and sc.path == src


def test_save_of_a_scenario_without_a_file_is_relative_to_the_working_folder(tmp_path,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    sc = Scenario.from_json(_top(dat=["test.dat"]))
    assert _saved(tmp_path, sc, "b/s.json")["dat"] == ["../test.dat"]


def test_save_rebases_a_relative_reference_path(tmp_path):
    src = tmp_path / "s.json"
    src.write_text(json.dumps(_top(reference={"path": "rec.mp4", "offset": 0.5})))
    data = _saved(tmp_path, Scenario.load(src), "b/s.json")
    assert data["reference"] == {"path": "../rec.mp4", "offset": 0.5}


# -- World._get keeps the DAT file, DID and byte offset of a record that failed --------------
@pytest.fixture
def cut_dat(tmp_path):
    """A DAT whose Setup and PhysicsScript are cut short (our own writer, no retail bytes)."""
    setup = R.encode(B.setup(SETUP, parts=2))
    script = R.encode(B.script(SCRIPT, (0.0, B.create(0x32000001)), (0.5, B.stop(0))))
    good = 0x02000002
    path = tmp_path / "cut.dat"
    path.write_bytes(build_dat({SETUP: setup[:40], SCRIPT: script[:10],
                                good: R.encode(B.setup(good))}))
    return path, good


def test_World_get_keeps_file_DID_and_offset_of_a_truncated_Setup(cut_dat):
    path, _ = cut_dat
    with AssetDatabase(str(path)) as db, pytest.raises(ScenarioError) as err:
        World(db).create_object(1, SETUP)
    e = err.value
    assert e.file is not None and Path(e.file).name == "cut.dat"
    assert e.did == SETUP and e.offset is not None and "Setup" in e.message


def test_World_get_keeps_the_offset_of_a_truncated_script(cut_dat):
    path, good = cut_dat
    with AssetDatabase(str(path)) as db:
        w = World(db)
        obj = w.create_object(1, good)
        with pytest.raises(ScenarioError) as err:
            w.play_script(obj, SCRIPT, user=True)
    assert err.value.did == SCRIPT and err.value.offset is not None
    assert f"offset {err.value.offset}" in str(err.value)


def test_World_get_absent_DID_names_no_DAT_file_so_the_scenario_is_named(tmp_path):
    """An absent DID is the scenario's mistake: the runner names the scenario file."""
    db = B.MemoryDB({SETUP: B.setup(SETUP)})
    sc_path = tmp_path / "s.json"
    sc_path.write_text(json.dumps(_only(play_script="0x33009999")))
    with pytest.raises(ScenarioError) as err:
        ScenarioRunner(Scenario.load(sc_path), db).run(0.1)
    assert err.value.file == str(sc_path) and err.value.did == 0x33009999
    assert "events[0]" in err.value.message and err.value.offset is None


def test_relpath_helper_uses_posix_separators_here():
    if os.sep != "/":
        pytest.skip("POSIX only")
    sc = Scenario.from_json(_top(dat=["x/y.dat"]), "/a/b/s.json")
    assert sc._rebase("x/y.dat", Path("/a/c/d/t.json")) == "../../b/x/y.dat"


# -- any value in any field: a ScenarioError or a scenario that runs, never a traceback -------

_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-2 ** 70, max_value=2 ** 70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "x", "nan", "inf", "-inf", "0x10", "010", "-4", "1.5", "1e308",
                     "Launch", "0x100000000", "0x33000001", "0x02000001"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["x", "id", "t"]), inner,
                                                 max_size=2)), max_leaves=6)
_FIELDS = [("top", k) for k in ("dat", "seed", "fps", "seconds", "objects", "events",
                                "world", "viewer")] + \
          [("obj", k) for k in ("id", "setup", "table", "position", "heading_deg", "velocity",
                                "omega", "state", "scale", "translucency", "default_script",
                                "default_intensity", "parent", "parent_part")] + \
          [("ev", k) for k in ("t", "object", "play", "intensity")] + \
          [("only", k) for k in ("play_script", "set_state", "motion", "create", "destroy",
                                 "set_velocity", "set_hidden", "launch")]


_CLOCK = st.one_of(  # the clock fields the adversarial pass hung on (fps 2**31, 1e308, ...)
    st.integers(min_value=-2 ** 70, max_value=2 ** 70), st.floats(),
    st.sampled_from([2 ** 31, 1e6, 1e308, "1e308", 1000, 1000.0001, 3600, 3600.5, 1, 0.999]))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(where=st.sampled_from(_FIELDS + [("top", "fps"), ("top", "seconds")] * 4),
       value=st.one_of(_VALUES, _CLOCK))
def test_any_field_value_is_a_ScenarioError_or_runs(where, value):
    """Either one line naming the file and the field, or the scenario runs to its end: the
    frame clock reaches the last frame at or before its end and the world time follows it.
    Every accepted clock is inside viewer/bounds.py (fps 1..1000, seconds 0..3600), so no
    draw can hang the suite."""
    level, key = where
    data = {"top": _top, "obj": _obj, "ev": _ev, "only": _only}[level](**{key: value})
    if not (level == "top" and key == "seconds"):
        data["seconds"] = 0.1
    try:
        sc = Scenario.from_json(data, "s.json")
    except ScenarioError as err:
        assert str(err).startswith("s.json: ") and "\n" not in str(err)
        assert str(err).split(": ")[1].startswith(key if level == "top" else
                                                  ("objects[0]", "events[0]")), str(err)
        return
    assert 1 <= sc.fps <= 1000 and 0 <= sc.seconds <= 3600
    sc.seconds = min(sc.seconds, 0.1)  # the run's length is not what this test is about
    end, fps = as_time(sc.seconds), as_time(sc.fps)
    db = B.MemoryDB({SETUP: B.setup(SETUP), 0x02000002: B.setup(0x02000002)})
    try:
        runner = ScenarioRunner(sc, db)
        runner.run()
    except ScenarioError as err:
        assert str(err).startswith("s.json: ") and "\n" not in str(err)
        return
    assert runner.clock.frame == math.floor(end * fps)      # frame k is at k / fps
    assert runner.clock.now <= end < runner.clock.now + 1 / fps
    assert runner.world.time == runner.clock.now


# -- vfxviewer open: a malformed scenario is one line naming the file (contract 8) ---------
@pytest.mark.parametrize("data, path", [
    (_obj(heading_deg="x"), "objects[0].heading_deg"), (_top(dat=5), "dat"),
    (_ev(t="nan"), "events[0].t"), (_obj(position=[1e308, 0, 0]), "objects[0].position[0]"),
])
def test_open_with_a_malformed_scenario_is_one_line_naming_file_and_field(
        tmp_path, monkeypatch, capsys, data, path):
    """The scenario is read before any window opens, so a DISPLAY that leads nowhere is
    enough: the error comes first, as one line, exit 1."""
    from viewer import synthetic as S
    from viewer.cli import main
    monkeypatch.setenv("DISPLAY", ":nowhere")
    sc = tmp_path / "bad.json"
    sc.write_text(json.dumps(data))
    capsys.readouterr()
    rc = main(["open", str(S.SYNTHETIC_DAT), "--scenario", str(sc)])
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert rc == 1 and len(err) == 1 and "Traceback" not in err[0]
    assert f"{sc}: {path}: " in err[0]
