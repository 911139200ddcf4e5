"""The Events panel (issue 28, item 6): the scenario's events listed in play order, a
``nan`` play flagged, an event edited and deleted through the controller, each an undo
step of the session's history; the panel drawn headless edits and deletes too."""

from __future__ import annotations

import math

import pytest
import ui_fixtures as F

from viewer.errors import ScenarioError
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.controller import Controller, ViewState
from viewer.ui.error_panel import ErrorLog
from viewer.ui.events_panel import edited_event, event_rows, timeline_marks
from viewer.ui.session import Session


@pytest.fixture(scope="module")
def db():
    return F.database()


def make(db) -> Session:
    """A session on the tiny library's scenario (one play_script event at t = 0)."""
    scenario = Scenario.from_json(F.scenario_json())
    return Session(db, scenario)


def test_rows_in_play_order_and_a_nan_play_flagged(db):
    s = make(db)
    s.apply(c.Seek(0.5))
    s.apply(c.PlayTyped(1, 4, math.nan))
    s.apply(c.Seek(0.2))
    s.apply(c.PlayScript(1, F.SCRIPT_PES))
    rows = event_rows(s.scenario)
    assert [r.index for r in rows] == [0, 2, 1]          # by time, not as stored
    nan_row = rows[2]
    assert nan_row.kind == "play" and "Launch (0x04) at intensity nan" in nan_row.summary
    assert "nan" in nan_row.flag and not rows[0].flag
    marks = timeline_marks(s.scenario)
    assert marks.flagged.tolist() == [False, True, False]   # the nan play's mark flagged
    assert marks.near(0.5, 0.01) == [1] and "intensity nan" in marks.label(1)
    assert marks.near(0.3, 0.21) == [2, 1]              # nearest first


def test_edit_and_delete_an_event_with_undo_and_redo(db):
    s = make(db)
    ctl = Controller(ViewState(), s, ErrorLog())
    s.apply(c.Seek(0.5))
    ctl.apply(c.PlayTyped(1, 4, 0.2))
    assert [e.kind for e in s.scenario.events] == ["play_script", "play"]
    raw = edited_event(s.scenario.events[1].raw, 0.25, "nan")
    assert ctl.apply(c.EditEvent(1, raw))
    ev = s.scenario.events[1]
    assert ev.t == 0.25 and math.isnan(ev.intensity)
    assert s.history.undo_label() == "edit event" and s.modified
    assert ctl.apply(c.DeleteEvent(0))
    assert [e.kind for e in s.scenario.events] == ["play"]
    assert s.history.undo_label() == "delete event"
    # the simulation follows: no script plays, so no emitter is ever made
    s.apply(c.Seek(1.0))
    assert not s.tracks.bars
    ctl.apply(c.Undo())
    assert [e.kind for e in s.scenario.events] == ["play_script", "play"]
    s.apply(c.Seek(1.0))
    assert s.tracks.bars                                   # the script plays again
    ctl.apply(c.Undo())
    assert s.scenario.events[1].t == 0.5 and s.scenario.events[1].intensity == 0.2
    ctl.apply(c.Redo())
    assert s.scenario.events[1].t == 0.25


def test_a_bad_edit_changes_nothing_and_names_the_field(db):
    s = make(db)
    ctl = Controller(ViewState(), s, ErrorLog())
    before = [e.to_json() for e in s.scenario.events]
    assert not ctl.apply(c.EditEvent(0, {"t": 0.0, "object": 1, "play_script": "0xZZ"}))
    assert "events[0].play_script" in ctl.errors.entries[-1].line()
    assert not ctl.apply(c.DeleteEvent(7))
    assert [e.to_json() for e in s.scenario.events] == before and not s.history.can_undo()
    with pytest.raises(ValueError, match="not a number"):
        edited_event({"t": 0, "play": 4}, 0.0, "loud")
    with pytest.raises(ScenarioError):
        s.edit_event(3, None)


def _click(app, target, label, monkeypatch):
    F.click_button(app, label, monkeypatch, lambda n: [
        app.frame(1 / 60, display_size=target.size, target=target.fbo) for _ in range(n)])


def test_the_panel_edits_and_deletes_with_its_buttons_and_undo(db, gl_ctx, monkeypatch):
    s = make(db)
    s.apply(c.Seek(0.5))
    s.apply(c.PlayTyped(1, 4, 0.2))
    with F.headless_app(gl_ctx, s, (700, 500)) as (app, target):
        app.only_panel = "Events"
        state = app.wiring.events_state
        state.selected = 1
        app.frame(1 / 60, display_size=target.size, target=target.fbo)
        assert state.shown is s.scenario.events[1].raw and state.intensity == "0.2"
        state.t, state.intensity = 0.75, "inf"           # as typed into the fields
        _click(app, target, "Apply##evapply", monkeypatch)
        ev = s.scenario.events[1]
        assert ev.t == 0.75 and ev.intensity == math.inf
        assert s.history.undo_label() == "edit event"
        state.selected = 0
        _click(app, target, "Delete", monkeypatch)
        assert [e.kind for e in s.scenario.events] == ["play"]
        assert s.history.undo_label() == "delete event" and app.modified
        app.controller.apply(c.Undo())
        app.controller.apply(c.Undo())
        assert [e.kind for e in s.scenario.events] == ["play_script", "play"]
        assert s.scenario.events[1].t == 0.5 and s.scenario.events[1].intensity == 0.2
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]


def test_an_actions_entry_editing_an_event_is_checked_first():
    from viewer.ui.action_args import parse_action
    with pytest.raises(ScenarioError, match=r"actions\[0\]\.raw: 'x' is not a JSON object"):
        parse_action({"frame": 1, "command": "EditEvent", "index": 0, "raw": "x"},
                     "actions[0]", 10)
    assert parse_action({"frame": 1, "command": "DeleteEvent", "index": 0},
                        "actions[0]", 10) == (1, c.DeleteEvent(0))


def test_many_events_are_listed_once_per_edit_and_drawn_per_pixel(db, gl_ctx, monkeypatch):
    """Thousands of events: the rows are built once (not every frame), the list submits
    only the rows on screen, the Timeline's lane a diamond per pixel column at most."""
    import viewer.ui.events_panel as ep

    sc = F.scenario_json()
    sc["events"] += [{"t": round(k / 2000, 6), "object": 1, "play": 0x77, "intensity": 0.5}
                     for k in range(2000)]
    s = Session(db, Scenario.from_json(sc))
    built = F.count_calls(monkeypatch, ep, "event_rows")
    with F.headless_app(gl_ctx, s, (600, 400)) as (app, target):
        for panel in ("Events", "Timeline"):
            app.only_panel = panel
            for _ in range(3):
                app.frame(1 / 60, display_size=target.size, target=target.fbo)
        assert len(built) == 1
        marks = s.timeline_view().events
        assert len(marks) == 2001 and len(marks.near(0.5, 0.001)) == 3
        app.controller.apply(c.DeleteEvent(5))
        app.only_panel = "Events"
        app.frame(1 / 60, display_size=target.size, target=target.fbo)
        assert len(built) == 2 and len(app.wiring.events_state.rows_memo[1]) == 2000


def test_the_lane_columns_are_one_per_pixel_and_kind_and_kept_until_a_resize(db):
    """EventMarks.columns: what the old per-frame np.unique over (column, flagged) rows
    gave, worked out once per width and duration."""
    import numpy as np

    sc = F.scenario_json()
    sc["events"] += [{"t": k / 7, "object": 1, "play": 0x77,
                      "intensity": "nan" if k % 3 == 0 else 0.5} for k in range(50)]
    marks = timeline_marks(Scenario.from_json(sc))
    cols = np.round(np.clip(marks.t / 8.0, 0.0, 1.0) * 40).astype(np.int64)
    want = np.unique(np.stack([cols, marks.flagged.astype(np.int64)], 1), axis=0).tolist()
    got = marks.columns(40, 8.0)
    assert [[col, int(flag)] for col, flag in got] == want
    assert marks.columns(40, 8.0) is got                  # the same frame after frame
    assert marks.columns(80, 8.0) is not got              # a wider lane: again


def test_event_flag_says_what_retail_picks_at_each_non_finite_intensity(db):
    """PhysicsScriptTableData::GetScript 0x00521A20: nan and +inf play nothing, -inf
    plays the first entry; a finite intensity and a plain script are not flagged."""
    from viewer.ui.events_panel import event_flag

    sc = F.scenario_json()
    sc["events"] += [{"t": 0.0, "object": 1, "play": 4, "intensity": x}
                     for x in ("nan", "inf", "-inf", 0.5)]
    events = Scenario.from_json(sc).events
    flags = [event_flag(ev) for ev in events]
    assert flags[0] == "" and flags[-1] == ""
    assert "nan" in flags[1] and "plays nothing" in flags[1]
    assert "inf" in flags[2] and "plays nothing" in flags[2]
    assert "-inf" in flags[3] and "the first entry plays" in flags[3]
