"""Named projectile presets (the WCID list of docs/cli.md section 9) in scenarios: an object's
``"preset"`` and a launch's ``"preset"``; unknown names and DIDs missing from the open DATs
are one-line errors naming the field (and the DID). Without retail files the presets play
the synthetic library's STANDIN records (viewer/synthetic/retail_shaped.py)."""

from __future__ import annotations

import json

import pytest

from viewer import synthetic as S
from viewer.cli import main
from viewer.dat import retail_facts as F
from viewer.dat.database import AssetDatabase
from viewer.errors import ScenarioError
from viewer.sim import presets
from viewer.sim.scenario import Scenario, ScenarioRunner
from viewer.synthetic.retail_shaped import write_retail_shaped_dat


def _trace(capsys, *argv):
    rc = main(["trace", *argv])
    out, err = capsys.readouterr()
    return rc, [json.loads(x) for x in out.splitlines()], err


def test_preset_names_are_the_ten_wcids_in_order():
    assert presets.PRESET_NAMES == ("Arrow", "Quarrel", "Acid Stream", "Flame Bolt",
                                    "Force Bolt", "Frost Bolt", "Lightning Bolt", "Shockwave",
                                    "Whirling Blade", "Tusker Fist")


def test_object_preset_supplies_setup_and_table_and_round_trips():
    sc = Scenario.from_json({"objects": [{"id": 1, "preset": "Flame Bolt"},
                                         {"id": 2, "preset": "Shockwave"},
                                         {"id": 3, "preset": "Arrow", "table": "0x34000005"}]})
    a, b, c = sc.objects
    assert (a.setup, a.table, a.table_given) == (0x0200040D, 0x34000005, True)
    assert (b.setup, b.table, b.table_given) == (0x020003FA, None, True)   # no table: none
    assert (c.setup, c.table) == (0x02000124, 0x34000005)                  # explicit wins
    again = Scenario.from_json(sc.to_json())
    assert [(o.preset, o.setup, o.table) for o in again.objects] == \
        [(o.preset, o.setup, o.table) for o in sc.objects]


@pytest.mark.parametrize("doc, field", [
    ({"objects": [{"id": 1, "preset": "Flame Boltt"}]}, "objects[0].preset"),
    ({"events": [{"t": 0, "object": 7, "launch": {"preset": 3, "velocity": [1, 0, 0]}}]},
     "events[0].launch.preset"),
    ({"events": [{"t": 0, "create": {"preset": "Nope"}}]}, "events[0].create.preset"),
])
def test_unknown_preset_is_an_error_naming_the_field(doc, field):
    with pytest.raises(ScenarioError) as exc:
        Scenario.from_json(doc, "s.json")
    msg = str(exc.value)
    assert msg.startswith("s.json: ") and f"{field}: unknown projectile preset" in msg
    assert "Flame Bolt" in msg and "\n" not in msg


def test_preset_whose_did_is_missing_names_field_and_did(tmp_path):
    dat = tmp_path / "v.dat"
    write_retail_shaped_dat(dat, "missing_setup")           # no Whirling Blade Setup
    sc = Scenario.from_json({"events": [
        {"t": 0, "object": 5, "launch": {"preset": "Flame Bolt", "velocity": [1, 0, 0]}},
        {"t": 0, "object": 6, "launch": {"preset": "Whirling Blade", "velocity": [1, 0, 0]}}]},
        tmp_path / "s.json")
    with AssetDatabase(dat) as db, pytest.raises(ScenarioError) as exc:
        ScenarioRunner(sc, db)
    assert exc.value.did == 0x020003FC
    assert "events[1].launch.preset: Whirling Blade needs Setup 0x020003FC" in str(exc.value)


def test_missing_table_is_named_too():
    p = F.PROJECTILES_BY_NAME["Frost Bolt"]
    assert presets.missing({p.setup}, p) == [("PhysicsScriptTable", 0x34000080)]


def test_launch_preset_needs_a_fresh_object_id():
    sc = Scenario.from_json({"objects": [{"id": 1, "setup": f"0x{S.SETUP_ARROW:08X}"}],
                             "events": [{"t": 0, "object": 1, "launch": {
                                 "preset": "Arrow", "velocity": [1, 0, 0]}}]})
    with AssetDatabase(S.SYNTHETIC_DAT) as db, pytest.raises(ScenarioError) as exc:
        ScenarioRunner(sc, db)
    assert "events[0].launch.preset: object 1 already exists" in str(exc.value)


def test_named_scenario_launches_every_preset_through_its_table(capsys):
    rc, events, err = _trace(capsys, "--scenario", str(S.NAMED_PROJECTILES_SCENARIO))
    assert rc == 0, err
    launched = {e["owner"] for e in events if e.get("action") == "launched"}
    assert launched == set(range(101, 111))
    tables = {e["owner"]: e["table"] for e in events
              if e["event"] == "resolve" and e["type"] == 4}
    for k, p in enumerate(F.PROJECTILES):
        assert tables[101 + k] == (None if p.table is None else f"0x{p.table:08X}")
    # Flame Bolt Launch at intensity 0.5 picks the Mod 0.5 entry (0x3300011C)
    flame = 101 + presets.PRESET_NAMES.index("Flame Bolt")
    assert any(e["event"] == "resolve" and e["owner"] == flame and e["type"] == 4
               and e["script"] == "0x3300011C" for e in events)
    # Tusker Fist: no table, its Setup's DefaultScript runs at creation
    tusker = 101 + presets.PRESET_NAMES.index("Tusker Fist")
    assert any(e["event"] == "script" and e["owner"] == tusker and e["script"] == "0x33000D77"
               for e in events)
    # each projectile reaches the wall (world shape 1) first
    first = {}
    for e in events:
        if e["event"] == "impact":
            first.setdefault(e["owner"], e["other"])
    assert first == {o: "world:1" for o in range(101, 111)}


def test_trace_with_a_missing_preset_did_exits_1_with_one_line(tmp_path, capsys):
    dat = tmp_path / "v.dat"
    write_retail_shaped_dat(dat, "missing_setup")
    rc, _, err = _trace(capsys, str(dat), "--scenario", str(S.NAMED_PROJECTILES_SCENARIO))
    assert rc == 1
    assert err.count("\n") == 1 and "DID 0x020003FC" in err and ".launch.preset" in err
