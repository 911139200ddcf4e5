"""Hostile inputs, round 2, class 11: silent nonsense (issue 26).

A value the contract has no spelling for is refused with one line naming the file and the
field path, never read as something else: other scripts' digits ("\\u0663" is not 3), Python's
digit grouping ("1_0") on the command line as in the scenario, the text "false" where a
flag belongs, keys the viewer does not know (``speed`` on a ``play``), a key given twice,
``parent_part`` without ``parent``. A ``create`` event's ``parent`` is honoured as an
``objects`` entry's is (CPhysicsObj::set_parent 0x00515B50).
"""

from __future__ import annotations

import json

import pytest

from viewer import bounds
from viewer import synthetic as S
from viewer.errors import ScenarioError
from viewer.sim.scenario import Scenario, read_json

from .conftest import SYN, assert_input_failure, assert_usage_error, write_scenario

SETUP = f"0x{S.SETUP_HUMANOID:08X}"
TABLE = f"0x{S.PST_HUMANOID:08X}"
ARABIC_3 = "\u0663"          # ARABIC-INDIC DIGIT THREE: int() and float() read it as 3
DEVANAGARI_1 = "\u0967"
FULLWIDTH_7 = "\uff17"
EM_SPACE = "\u2003"


def _scenario(**extra) -> dict:
    obj = {"id": 1, "setup": SETUP, "table": TABLE}
    obj.update(extra.pop("obj", {}))
    return {"dat": [str(SYN)], "seconds": 0.0, "objects": [obj], **extra}


def _refused(data: dict, *must_name: str) -> str:
    with pytest.raises(ScenarioError) as info:
        Scenario.from_json(data, "s.json")
    line = str(info.value)
    assert line.startswith("s.json: "), line
    for text in must_name:
        assert text in line, (text, line)
    return line


# -- numbers are ASCII ------------------------------------------------------------------------
@pytest.mark.parametrize("digit", [ARABIC_3, DEVANAGARI_1, FULLWIDTH_7, f"0x{ARABIC_3}",
                                   "1_0", "0x3300_0101", f"{EM_SPACE}3", "3" + EM_SPACE])
def test_int_text_is_ascii_only(digit):
    with pytest.raises(ValueError):
        bounds.int_text(digit)


@pytest.mark.parametrize("text", [ARABIC_3, f"{ARABIC_3}.5", "1_0.5", "1.5" + EM_SPACE,
                                  "0x10", "1e", ""])
def test_float_text_is_ascii_only(text):
    with pytest.raises(ValueError):
        bounds.float_text(text)


@pytest.mark.parametrize(("text", "value"), [("12", 12), ("007", 7), ("0x1F", 31),
                                             ("-0x10", -16), ("+5", 5), (" 3 ", 3)])
def test_int_text_reads_the_contract_spellings(text, value):
    assert bounds.int_text(text) == value


@pytest.mark.parametrize(("text", "value"), [("1.5", 1.5), (".5", 0.5), ("5.", 5.0),
                                             ("1e3", 1000.0), ("-inf", float("-inf")),
                                             ("Infinity", float("inf"))])
def test_float_text_reads_the_contract_spellings(text, value):
    assert bounds.float_text(text) == value


@pytest.mark.parametrize(("field", "where"), [
    ({"obj": {"state": ARABIC_3}}, "objects[0].state"),
    ({"obj": {"heading_deg": ARABIC_3}}, "objects[0].heading_deg"),
    ({"obj": {"scale": ARABIC_3}}, "objects[0].scale"),
    ({"obj": {"id": ARABIC_3}}, "objects[0].id"),
    ({"obj": {"setup": f"0x0200010{ARABIC_3}"}}, "objects[0].setup"),
    ({"fps": f"6{ARABIC_3}"}, "fps"),
    ({"seconds": ARABIC_3}, "seconds"),
    ({"seed": ARABIC_3}, "seed"),
    ({"seed": "1_0"}, "seed"),
])
def test_scenario_numbers_in_other_scripts_are_refused(field, where):
    """Issue 26: ``"state": "\\u0663"`` was state 3."""
    _refused(_scenario(**field), where, "not a")


def test_scenario_parent_in_other_scripts_is_refused():
    data = _scenario()
    data["objects"].append({"id": 2, "setup": SETUP, "parent": ARABIC_3})
    _refused(data, "objects[1].parent")


def test_event_numbers_in_other_scripts_are_refused():
    _refused(_scenario(events=[{"t": ARABIC_3, "play_script": "0x33000101"}]), "events[0].t")
    _refused(_scenario(events=[{"t": 0, "play": ARABIC_3, "intensity": 1}]), "events[0].play")
    _refused(_scenario(events=[{"t": 0, "set_state": f"0x{ARABIC_3}"}]),
             "events[0].set_state")
    _refused(_scenario(events=[{"t": 0, "motion": ARABIC_3}]), "events[0]", "motion")
    _refused(_scenario(events=[{"t": 0, "launch": {"velocity": [1, 0, 0],
                                                   "state": ARABIC_3}}]), "launch", "state")
    _refused(_scenario(world=[{"sphere": {"center": [0, 0, 0], "radius": 1,
                                          "state": ARABIC_3}}]), "world[0]", "state")


def test_resolve_with_a_playscript_in_other_scripts_is_usage(cli):
    """Issue 26: ``resolve DAT 0x34000103 \\u0663 1`` exited 0."""
    assert_usage_error(cli("resolve", SYN, TABLE, ARABIC_3, "1"))
    assert_usage_error(cli("resolve", SYN, TABLE, "Launch", ARABIC_3))


@pytest.mark.parametrize("argv", [
    ["dat", "show", str(SYN), "0x3300_0101"],
    ["dat", "show", str(SYN), f"0x3300010{ARABIC_3}"],
    ["dat", "ls", str(SYN), "--type", "0x3_3"],
    ["trace", str(SYN), "--setup", SETUP, "--seconds", "1_0"],
    ["trace", str(SYN), "--setup", SETUP, "--fps", f"6{ARABIC_3}"],
    ["trace", str(SYN), "--setup", SETUP, "--seed", "1_0"],
    ["trace", str(SYN), "--setup", SETUP, "--seed", ARABIC_3],
    ["trace", str(SYN), "--setup", "0x0200_0103"],
    ["trace", str(SYN), "--setup", SETUP, "--play", f"Launch:{ARABIC_3}"],
    ["render", str(SYN), "--setup", SETUP, "--out", "x.png", "--size", f"6{ARABIC_3}x40"],
    ["render", str(SYN), "--setup", SETUP, "--out", "x.png", "--target", f"0,0,{ARABIC_3}"],
])
def test_command_line_reads_numbers_as_the_scenario_does(cli, argv, tmp_path, monkeypatch):
    """Issue 26: the command line took ``0x3300_0101`` and ``1_0`` where the scenario
    reader refused them; both now share viewer.bounds.int_text / float_text."""
    monkeypatch.chdir(tmp_path)
    assert_usage_error(cli(*argv))
    assert not (tmp_path / "x.png").exists()


def test_compare_crop_in_other_scripts_is_usage(cli):
    r = cli("compare", str(SYN), "--setup", SETUP, "--reference", "r.mp4",
            "--crop", f"0,0,{ARABIC_3},5")
    assert_usage_error(r)
    assert "--crop" in r.err


# -- flags are true / false -----------------------------------------------------------------------
@pytest.mark.parametrize("value", ["false", "true", "no", 2, None, [False]])
def test_desc_must_be_a_flag(value):
    """Issue 26: ``"desc": "false"`` was true."""
    _refused(_scenario(obj={"desc": value}), "objects[0].desc", "true or false")


@pytest.mark.parametrize(("value", "from_desc"), [(False, False), (0, False), (True, True),
                                                  (1, True)])
def test_desc_flag_reaches_the_runtime(value, from_desc, monkeypatch):
    from viewer.dat.database import AssetDatabase
    from viewer.sim.scenario import ScenarioRunner
    from viewer.sim.world import World
    seen = []
    real = World.create_object

    def spy(self, *a, **kw):
        seen.append(kw["from_desc"])
        return real(self, *a, **kw)

    monkeypatch.setattr(World, "create_object", spy)
    data = _scenario(obj={"desc": value})
    data["events"] = [{"t": 0, "object": 2, "create": {"setup": SETUP, "desc": value}}]
    with AssetDatabase([str(SYN)]) as db:
        ScenarioRunner(Scenario.from_json(data), db).run()
    assert seen == [from_desc, from_desc]


def test_world_shape_flags_must_be_flags():
    _refused(_scenario(world=[{"sphere": {"center": [0, 0, 0], "radius": 1,
                                          "creature": "false"}}]), "world[0].creature")


# -- unknown and repeated keys --------------------------------------------------------------------
@pytest.mark.parametrize(("event", "key"), [
    ({"t": 0, "play": "Launch", "intensity": 1, "speed": 2}, "speed"),
    ({"t": 0, "play": "Launch", "catalog": "retail-2013"}, "catalog"),
    ({"t": 0, "play_script": "0x33000101", "intensity": 0.5}, "intensity"),
    ({"t": 0, "set_state": 0, "spede": 1}, "spede"),
    ({"t": 0, "motion": "0x10000153", "sped": 2}, "sped"),
    ({"t": 0, "destroy": True, "at": 1}, "at"),
    ({"t": 0, "obect": 1, "play": "Launch"}, "obect"),
])
def test_unknown_event_keys_are_errors(event, key):
    """Issue 26: ``speed`` and ``catalog`` on a ``play`` were ignored."""
    _refused(_scenario(events=[event]), f"events[0].{key}", "unknown key")


@pytest.mark.parametrize("key", ["positon", "heading", "tabel", "speed", "parent_prat"])
def test_unknown_object_keys_are_errors(key):
    _refused(_scenario(obj={key: 1}), f"objects[0].{key}", "unknown key")


def test_unknown_create_keys_are_errors():
    _refused(_scenario(events=[{"t": 0, "object": 2, "create": {"setup": SETUP,
                                                                "heding_deg": 3}}]),
             "events[0].create.heding_deg", "unknown key")


@pytest.mark.parametrize(("shape", "key"), [
    ({"plane": {"normal": [0, 0, 1], "d": 0, "radius": 1}}, "world[0].plane.radius"),
    ({"box": {"min": [0, 0, 0], "max": [1, 1, 1], "center": [0, 0, 0]}}, "world[0].box.center"),
    ({"sphere": {"center": [0, 0, 0], "radius": 1, "raduis": 2}}, "world[0].sphere.raduis"),
])
def test_unknown_world_shape_keys_are_errors(shape, key):
    _refused(_scenario(world=[shape]), key, "unknown key")


def test_documented_and_written_keys_are_accepted():
    """What docs/cli.md documents and what the viewer itself writes (replay's notes, the
    user's ``note``; unknown top-level fields, kept on save) still load."""
    data = _scenario(obj={"desc": False, "note": {"any": 1}, "guid": "0x50000001",
                          "name": "x", "stand_in": True, "omega": [0, 0, 1], "scale": 1.5,
                          "translucency": 0.2, "default_script": "Launch",
                          "default_intensity": 0.5})
    data["objects"].append({"id": 2, "setup": SETUP, "parent": 1, "parent_part": -1})
    data["events"] = [
        {"t": 0, "object": 1, "play": "Launch", "intensity": 0.5, "intensity_bits": "0x0",
         "received": 0.1, "note": "hi"},
        {"t": 0, "object": 1, "motion": "0x10000153", "catalog": "ace-modern", "speed": 1.5},
        {"t": 0, "object": 1, "set_velocity": [0, 0, 0]},
        {"t": 0, "object": 1, "set_hidden": False},
        {"t": 0, "object": 9, "launch": {"velocity": [1, 0, 0], "from": [0, 0, 1]},
         "intensity": 1},
        {"t": 0, "object": 3, "create": {"setup": SETUP, "position": [1, 0, 0],
                                         "parent": 1, "parent_location": "RightHand"}},
    ]
    data["world"] = [{"cylinder": {"radius": 1, "height": 2, "low_point": [0, 0, 0],
                                   "weenie": True, "id": 5}}]
    data["comment"] = "top-level fields are kept"
    data["reference"] = {"path": "r.mp4", "offset": 0.5}
    sc = Scenario.from_json(data)
    assert sc.extra["comment"] == "top-level fields are kept"


def test_replay_scenarios_load(tmp_path, cli):
    """``replay --scenario-out`` writes guid / name / stand_in / received / intensity_bits:
    the scenario it writes still loads."""
    from .conftest import CAPTURES
    capture = sorted(CAPTURES.glob("*.pcap*"))[0]
    out = tmp_path / "r.json"
    r = cli("replay", capture, "--dat", SYN, "--stand-in", SETUP, "--scenario-out", out)
    assert r.rc == 0, r
    Scenario.load(out)


@pytest.mark.parametrize(("text", "where"), [
    ('{"seed": 1, "seed": 2}', "seed"),
    ('{"objects": [{"id": 1, "setup": "0x02000103", "state": 1, "state": 2}]}',
     "objects[0].state"),
    ('{"events": [{"t": 0, "t": 1, "play": "Launch"}]}', "events[0].t"),
    ('{"world": [{"sphere": {"center": [0,0,0], "radius": 1, "radius": 2}}]}',
     "world[0].sphere.radius"),
])
def test_duplicate_keys_are_errors(text, where):
    """Issue 26: a repeated key was last-wins, silently."""
    with pytest.raises(ScenarioError) as info:
        read_json(text, "s.json", "scenario")
    assert str(info.value).startswith(f"s.json: {where}: given twice"), str(info.value)


def test_duplicate_keys_through_the_command_line(cli, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(f'{{"dat": ["{SYN}"], "seconds": 0, "seconds": 1,'
                    f' "objects": [{{"id": 1, "setup": "{SETUP}"}}]}}')
    assert_input_failure(cli("trace", "--scenario", path), str(path), "seconds: given twice")


def test_duplicate_action_keys_name_the_action(tmp_path):
    from viewer.sim.scenario import read_json as rj
    with pytest.raises(ScenarioError) as info:
        rj('[{"frame": 1, "command": "Play", "command": "Pause"}]', "a.json", "actions")
    assert "a.json: actions[0].command: given twice" in str(info.value)


# -- parents --------------------------------------------------------------------------------------
@pytest.mark.parametrize("part", [0, -1, "garbage", 2.5, None])
def test_parent_part_without_parent_is_an_error(part):
    """Issue 26: ``parent_part`` without ``parent`` was ignored, even "garbage"."""
    _refused(_scenario(obj={"parent_part": part}), "objects[0].parent_part",
             "without 'parent'")


def test_parent_location_without_parent_is_an_error():
    _refused(_scenario(obj={"parent_location": "RightHand"}), "objects[0].parent_location",
             "without 'parent'")


def test_default_intensity_without_default_script_is_an_error():
    _refused(_scenario(obj={"default_intensity": 0.5}), "objects[0].default_intensity")


def test_create_event_self_parent_is_an_error():
    """Issue 26: a ``create`` event's parent, even its own id, was dropped silently."""
    _refused(_scenario(events=[{"t": 0, "object": 2, "create": {"setup": SETUP,
                                                                "parent": 2}}]),
             "events[0].create.parent", "cannot be its own parent")


def _run(data, seconds=0.0):
    from viewer.dat.database import AssetDatabase
    from viewer.sim.scenario import ScenarioRunner
    db = AssetDatabase([str(SYN)])
    runner = ScenarioRunner(Scenario.from_json(data, "s.json"), db)
    runner.run(seconds)
    return runner.world


def test_create_event_parent_is_honoured():
    """set_parent 0x00515B50 as for an ``objects`` entry: the created object rides on its
    parent (its world position follows the parent's), on the parent's root by default."""
    data = _scenario(obj={"position": [5, 0, 0], "velocity": [1, 0, 0]})
    data["seconds"] = 1.0
    data["events"] = [{"t": 0.5, "object": 2, "create": {"setup": SETUP, "parent": 1}}]
    world = _run(data, 1.0)
    child, parent = world.objects[2], world.objects[1]
    assert child.parent is parent
    assert [link.child for link in parent.children] == [child]
    assert child.frame.origin == pytest.approx(parent.frame.origin)


def test_create_event_parent_matches_objects_entry_parent():
    """The same parent given in ``objects`` or by a ``create`` at t = 0: the same poses."""
    base = _scenario(obj={"position": [1, 2, 3], "heading_deg": 30})
    as_object = json.loads(json.dumps(base))
    as_object["objects"].append({"id": 2, "setup": SETUP, "parent": 1, "parent_part": 0})
    as_event = json.loads(json.dumps(base))
    as_event["events"] = [{"t": 0, "object": 2, "create": {"setup": SETUP, "parent": 1,
                                                           "parent_part": 0}}]
    a, b = _run(as_object), _run(as_event)
    assert a.objects[2].frame.origin == pytest.approx(b.objects[2].frame.origin)
    assert a.objects[2].frame.orientation == pytest.approx(b.objects[2].frame.orientation)
    assert b.objects[2].parent is b.objects[1]


@pytest.mark.parametrize(("create", "message"), [
    ({"setup": SETUP, "parent": 7}, "events[0]: create.parent: object 7 does not exist"),
    ({"setup": SETUP, "parent": 1, "parent_part": 999}, "create.parent_part: object 1 has"),
])
def test_create_event_bad_parent_is_an_error_naming_the_event(create, message):
    data = _scenario(events=[{"t": 0, "object": 2, "create": create}])
    with pytest.raises(ScenarioError) as info:
        _run(data)
    assert message in str(info.value)
    assert str(info.value).startswith("s.json: ")


def test_create_event_parent_through_trace(cli, tmp_path):
    data = _scenario(obj={"position": [3, 0, 0]})
    data["seconds"] = 0.05
    data["events"] = [{"t": 0, "object": 2, "create": {"setup": SETUP, "parent": 1}}]
    r = cli("trace", "--scenario", write_scenario(tmp_path / "s.json", data), "--poses")
    assert r.rc == 0, r
    poses = [json.loads(line) for line in r.lines if '"pose"' in line]
    roots = {p["owner"]: p["origin"] for p in poses if p["part"] == -1}
    assert roots[2] == pytest.approx(roots[1])


# -- more of the same, found probing ----------------------------------------------------------
def test_table_false_is_not_no_table():
    """null, 0 and "0" mean no table (docs/cli.md); false is no DID, not a quiet none."""
    _refused(_scenario(obj={"table": False}), "objects[0].table", "not a DID")
    for none in (None, 0, "0"):
        assert Scenario.from_json(_scenario(obj={"table": none})).objects[0].table is None


def test_cylinder_with_both_names_of_its_low_point_is_an_error():
    _refused(_scenario(world=[{"cylinder": {"radius": 1, "height": 1, "low_point": [0, 0, 0],
                                            "base": [1, 1, 1]}}]), "world[0]", "not both")


@pytest.mark.parametrize("oid", [[1], {"a": 1}, True, 1.5])
def test_world_shape_id_is_an_integer_or_a_name(oid):
    _refused(_scenario(world=[{"sphere": {"center": [0, 0, 0], "radius": 1, "id": oid}}]),
             "world[0].id")


def test_unknown_holding_location_names_the_field():
    data = _scenario()
    data["objects"].append({"id": 2, "setup": SETUP, "parent": 1, "parent_location": 99})
    with pytest.raises(ScenarioError) as info:
        _run(data)
    assert "objects[1].parent_location: " in str(info.value)


@pytest.mark.parametrize("crop", [[0, 0, ARABIC_3, 5], ["1", 0, 5, 5], [1.0, 0, 5, 5],
                                  [True, 0, 5, 5], [0, 0, 5]])
def test_a_saved_crop_is_four_json_integers(crop):
    """The GUI's reference entry: int() read "\\u0663" and "1" as numbers."""
    from viewer.compare.reference import Crop
    from viewer.media import MediaError
    with pytest.raises(MediaError, match="four integers"):
        Crop.from_json(crop)


# -- the viewer's own text boxes read numbers the same way ----------------------------------
def test_panel_text_boxes_read_ascii_numbers_only():
    from viewer.ui import commands as c
    from viewer.ui.launch_panel import LaunchPanelState, LaunchView, launch_command
    from viewer.ui.object_panel import ObjectPanelState, motion_commands, play_commands
    from viewer.ui.script_table_panel import parse_intensity
    assert parse_intensity(ARABIC_3) is None and parse_intensity(" -inf ") == float("-inf")
    [cmd] = motion_commands(1, ObjectPanelState(motion_text=f"0x1000015{ARABIC_3}"))
    assert isinstance(cmd, c.ReportProblem)
    [cmd] = play_commands(1, ObjectPanelState(intensity_text=f"0.{ARABIC_3}"))
    assert isinstance(cmd, c.ReportProblem)
    view = LaunchView(objects=(1,), next_id=2)
    with pytest.raises(ValueError):
        launch_command(LaunchPanelState(setup=f"0x0200010{ARABIC_3}"), view)
    with pytest.raises(ValueError):
        launch_command(LaunchPanelState(setup=SETUP, intensity=ARABIC_3), view)
    assert launch_command(LaunchPanelState(setup=SETUP, intensity="0.5"), view).intensity == 0.5
