"""The Object panel's table chooser (issue 28 item 3): a Setup loaded from Assets is created
as the server creates objects (CPhysicsObj::set_description 0x00514F40: its Setup's table
dropped, "Table none"); the chooser gives it the Setup's table ("desc": false,
InitDefaults 0x005139D0), none, or any 0x34 DID; each choice changes what a typed effect
resolves to, is undoable and saved, and `trace` of the saved scenario resolves the same.
Assets' "Load as static object" keeps the Setup's table and the object does not fall. Loop
stays as the user left it through a load and its Undo."""

from __future__ import annotations

import json

import pytest

from viewer import synthetic as S
from viewer.cli import main
from viewer.sim import inspect
from viewer.ui import commands as c
from viewer.ui import table_chooser as T
from viewer.ui.session import open_session

LAUNCH = 0x04


def _resolves(events) -> list[tuple]:
    return [(e["table"], e["script"]) for e in events if e.get("event") == "resolve"]


def _hex(v):
    return None if v is None else f"0x{v:08X}"


@pytest.fixture
def loaded():
    s = open_session(prepass=False)
    s.apply(c.LoadSetup(S.SETUP_BOLT))
    return s


def test_a_loaded_setup_has_no_table_as_retail_and_the_chooser_says_why(loaded):
    s = loaded
    assert inspect.object_summaries(s.world)[0].table_did == 0          # "Table none"
    choice = s.table_choice(1)
    assert (choice.kind, choice.setup_table, choice.editable) == (T.NONE, S.PST_FLAME, True)
    assert "set_description 0x00514F40" in choice.rule
    assert S.PST_FLAME in choice.tables and all(d >> 24 == 0x34 for d in choice.tables)
    assert T.matching(choice.tables, "0X3400010") == [d for d in choice.tables
                                                      if f"{d:08X}".startswith("3400010")]
    assert T.matching(choice.tables, "104") == [S.PST_UNSORTED]


@pytest.mark.parametrize("table, setup_default, want", [
    (None, False, None), (None, True, S.PST_FLAME), (S.PST_UNSORTED, False, S.PST_UNSORTED)])
def test_the_chooser_changes_what_a_typed_effect_resolves_to_and_trace_agrees(
        loaded, table, setup_default, want, tmp_path, capsys):
    s = loaded
    s.apply(c.PlayTyped(1, LAUNCH, 0.5))
    s.apply(c.SetObjectTable(1, table, setup_default=setup_default))
    assert s.history.undo_label() == "table of object 1" and s.modified
    s.playback.seek_frame(3)
    got = _resolves(s.events())
    assert got[0][0] == want
    table_obj = None if want is None else s.db.physics_script_table(want)
    assert (got[0][1] is None) == (table_obj is None)
    kind = T.DID if table else T.SETUP if setup_default else T.NONE
    assert s.table_choice(1).kind == kind
    out = tmp_path / "s.json"
    s.apply(c.SaveScenario(str(out)))
    saved = json.loads(out.read_text())["objects"][0]
    assert saved.get("desc", True) is (not setup_default)
    assert saved.get("table") == _hex(table)
    capsys.readouterr()
    assert main(["trace", "--scenario", str(out), "--seconds", "0.1"]) == 0
    traced = [json.loads(line) for line in capsys.readouterr().out.splitlines()
              if line.startswith("{")]
    assert _resolves(traced) == [(_hex(t), _hex(sc)) for t, sc in got]


def test_three_choices_resolve_three_ways_and_undo_goes_back(loaded):
    s = loaded
    s.apply(c.PlayTyped(1, LAUNCH, 0.5))
    seen = []
    for cmd in (c.SetObjectTable(1, None, setup_default=True),
                c.SetObjectTable(1, S.PST_UNSORTED)):
        s.apply(cmd)
        s.playback.seek_frame(3)
        seen.append(_resolves(s.events())[0])
    assert seen == [(S.PST_FLAME, 0x33000102), (S.PST_UNSORTED, 0x33000103)]
    s.apply(c.Undo())
    assert s.table_choice(1).kind == T.SETUP
    s.apply(c.Undo())
    assert s.table_choice(1).kind == T.NONE
    assert "desc" not in s.scenario.objects[0].extra


def test_a_table_that_is_no_table_and_an_event_made_object_are_refused(loaded):
    s = loaded
    with pytest.raises(Exception, match="is not a PhysicsScriptTable"):
        s.apply(c.SetObjectTable(1, S.PES_EXPLODE))
    with pytest.raises(Exception, match="no object 7"):
        s.apply(c.SetObjectTable(7, S.PST_FLAME))
    s.apply(c.LaunchProjectile(object=2, setup=S.SETUP_ARROW, velocity=(0.0, 1.0, 0.0)))
    s.playback.seek_frame(1)
    assert not s.table_choice(2).editable
    with pytest.raises(Exception, match="made by a create event"):
        s.apply(c.SetObjectTable(2, S.PST_FLAME))
    assert len(s.history.undo_stack) == 2   # the load and the launch: nothing refused


def test_load_as_static_keeps_the_setup_table_and_does_not_fall():
    s = open_session(prepass=False)
    s.apply(c.LoadSetup(S.SETUP_BOLT, static=True))
    assert inspect.object_summaries(s.world)[0].table_did == S.PST_FLAME
    choice = s.table_choice(1)
    assert choice.static and choice.kind == T.SETUP and "Static" in choice.rule
    z0 = inspect.object_origin(s.world, 1)[2]
    s.playback.seek_frame(20)
    assert inspect.object_origin(s.world, 1)[2] == pytest.approx(z0)


def test_loop_stays_on_through_a_load_and_its_undo():
    s = open_session(prepass=False)
    s.apply(c.SetLoop(True))
    s.apply(c.LoadSetup(S.SETUP_BOLT))
    assert s.playback.loop
    s.apply(c.SetLoop(True))
    s.apply(c.Undo())
    assert s.playback.loop
    s.apply(c.SetLoop(False))
    s.apply(c.Redo())
    assert not s.playback.loop          # the user's Loop, not the scenario's
