"""Undo / redo of scenario edits and the modified mark (viewer/ui/history.py, the session's
history): GL-free, on the tiny synthetic library."""

from __future__ import annotations

import numpy as np
import pytest
import ui_fixtures as F

from viewer.errors import ScenarioError
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.history import History
from viewer.ui.session import Session


@pytest.fixture(scope="module")
def db():
    return F.database()


def make(db):
    return Session(db, Scenario.from_json(F.scenario_json()))


def positions(session):
    pool = session.world.pool
    return pool.position[pool.evaluate()].copy()


def test_history_model_push_undo_redo_and_saved_revision():
    h = History(limit=3)
    assert not h.modified and not h.can_undo()
    h.push("s0", 1, "a")
    h.push("s1", 1, "b")
    assert h.modified and h.undo_label() == "b"
    back = h.undo("s2", 1)
    assert back.scenario == "s1" and h.redo_label() == "b"
    ahead = h.redo("s1", 1)
    assert ahead.scenario == "s2" and not h.can_redo()
    h.mark_saved()
    assert not h.modified
    h.undo("s2", 1)
    assert h.modified                       # back past the save: modified again
    h.redo("s1", 1)
    assert not h.modified
    for k in range(5):
        h.push(f"x{k}", 1, "x")
    assert len(h.undo_stack) == 3           # the oldest states go first
    h.undo("x", 1)
    h.push("y", 1, "y")
    assert not h.can_redo()                 # a new edit drops the redo stack


def test_edit_undo_redo_restores_events_and_simulation(db):
    s = make(db)
    s.apply(c.Seek(0.5))
    before_events = [e.to_json() for e in s.scenario.events]
    before = positions(s)
    assert not s.modified
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))
    assert s.modified and len(s.scenario.events) == len(before_events) + 1
    s.apply(c.Undo())
    assert [e.to_json() for e in s.scenario.events] == before_events
    assert s.playback.frame == 15 and np.array_equal(positions(s), before)
    assert not s.modified
    s.apply(c.Redo())
    assert len(s.scenario.events) == len(before_events) + 1 and s.modified


def test_load_setup_over_a_modified_scene_is_undoable(db):
    s = make(db)
    s.apply(c.Seek(0.2))
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))
    edited = [e.to_json() for e in s.scenario.events]
    s.apply(c.LoadSetup(F.SETUP, None))
    assert s.scenario.events == [] and s.history.undo_label().startswith("load Setup")
    s.apply(c.Undo())
    assert [e.to_json() for e in s.scenario.events] == edited
    assert s.scenario.objects[0].table == F.TABLE
    s.apply(c.Undo())
    s.apply(c.Undo())                      # nothing more to undo: no error, no change
    assert len(s.scenario.events) == len(edited) - 1


def test_failed_edit_leaves_no_history(db):
    s = make(db)
    with pytest.raises(ScenarioError):
        s.apply(c.PlayScript(9, F.SCRIPT))
    with pytest.raises(ScenarioError):
        s.apply(c.LoadSetup(0x0200FFFF, None))
    assert not s.history.can_undo() and not s.modified


def test_save_clears_the_modified_mark(db, tmp_path):
    s = make(db)
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))
    s.apply(c.SaveScenario(str(tmp_path / "a.json")))
    assert not s.modified and s.file == tmp_path / "a.json"
    s.apply(c.Undo())
    assert s.modified
