"""In / out loop markers (issue 28, item 6): looping plays between the loop range's in and
out (a view setting of the playback: the scenario and the simulation are untouched), the
Timeline's In / Out buttons ask for it, a bad range is refused in words."""

from __future__ import annotations

import pytest
import ui_fixtures as F

from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.controller import Controller, ViewState
from viewer.ui.error_panel import ErrorLog
from viewer.ui.session import Session
from viewer.ui.timeline import loop_range_at, transport_commands


@pytest.fixture(scope="module")
def db():
    return F.database()


def test_looping_wraps_from_out_to_in_and_survives_an_edit(db):
    s = Session(db, Scenario.from_json(F.scenario_json(seconds=2.0, fps=30)))
    ctl = Controller(ViewState(), s, ErrorLog())
    before = s.scenario.to_json()
    ctl.apply_all([c.SetLoop(True), c.SetLoopRange(0.5, 1.0), c.Seek(0.5), c.Play()])
    seen = []
    for _ in range(40):
        s.tick(1 / 30)
        seen.append(s.playback.frame)
    assert min(seen) >= 15 and max(seen) <= 30 and seen.count(15) >= 2   # wrapped to in
    view = s.timeline_view()
    assert view.loop_in == 0.5 and view.loop_out == 1.0
    assert s.scenario.to_json() == before and not s.modified    # a view setting only
    ctl.apply(c.PlayScript(1, F.SCRIPT_PES))                        # an edit re-simulates
    assert (s.playback.loop_in, s.playback.loop_out) == (15, 30)
    ctl.apply(c.SetLoopRange(None, None))
    ctl.apply(c.Seek(1.9))
    ctl.apply(c.Play())
    for _ in range(4):
        s.tick(1 / 30)
    assert s.playback.frame in (0, 1, 2, 3, 60)   # the whole scenario again


def test_a_range_out_before_in_is_refused_and_the_buttons_ask_for_ranges(db):
    s = Session(db, Scenario.from_json(F.scenario_json()))
    ctl = Controller(ViewState(), s, ErrorLog())
    assert not ctl.apply(c.SetLoopRange(1.0, 0.5))
    assert "must come after its in" in ctl.errors.entries[-1].line()
    assert s.playback.loop_in is None and s.playback.loop_out is None
    ctl.apply(c.Seek(1.0))
    view = s.timeline_view()
    assert loop_range_at(view, "out") == (None, 1.0)
    from dataclasses import replace
    view = replace(view, loop_in=1.5)
    assert loop_range_at(view, "out") == (None, 1.0)     # an out before the in drops it
    assert loop_range_at(view, "in") == (1.0, None)
    assert loop_range_at(view, "clear") == (None, None)
    assert transport_commands(loop_range=(0.2, 0.4)) == [c.SetLoopRange(0.2, 0.4)]
