"""Errors are noticed: a toast per new error (a repeat folds into its line, no new toast)
with the Errors tab one click away; "Play effect" with a type the table lacks says so."""

from __future__ import annotations

import pytest
import ui_fixtures as F
from imgui_bundle import imgui

from viewer.app import ViewerApp
from viewer.errors import ScenarioError
from viewer.render.framebuffer import OffscreenTarget
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui import layout
from viewer.ui.controller import Controller
from viewer.ui.error_panel import TOAST_SECONDS, ErrorLog, Toasts
from viewer.ui.session import Session

SIZE = (960, 600)


def test_toasts_one_per_new_error_and_they_expire():
    log, toasts = ErrorLog(), Toasts()
    log.report(ScenarioError("a"), "x")
    log.report(ScenarioError("a"), "x")          # a repeat: same line, no second toast
    log.report(ScenarioError("b"), "x")
    toasts.update(log, 0.1)
    assert [t[0].message for t in toasts.items] == ["a", "b"]
    toasts.update(log, TOAST_SECONDS)
    assert toasts.items == []
    for k in range(5):
        log.report(ScenarioError(f"n{k}"))
    toasts.update(log, 0.0)
    assert [t[0].message for t in toasts.items] == ["n2", "n3", "n4"]   # the newest three


def test_play_effect_with_a_type_the_table_lacks_says_so():
    s = Session(F.database(), Scenario.from_json(F.scenario_json()))
    ctl = Controller(session=s)
    assert ctl.apply(c.PlayTyped(1, "Launch", 1.0))            # in the table: no notice
    assert len(ctl.errors) == 0
    ctl.apply(c.PlayTyped(1, "Explode", 1.0))
    (entry,) = ctl.errors.entries
    assert "no Explode entry" in entry.message and "plays nothing" in entry.message
    assert len(s.scenario.events) == 3 and s.history.can_undo()   # the event is kept


@pytest.fixture
def app(gl_ctx):
    a = ViewerApp(gl_ctx, display_size=SIZE)
    target = OffscreenTarget(gl_ctx, SIZE)
    a.test_target = target
    yield a
    a.release()
    target.release()


def _frames(app, n=1):
    for _ in range(n):
        app.frame(1 / 60, display_size=SIZE, target=app.test_target.fbo)


def test_a_new_error_shows_a_toast_and_show_errors_brings_the_tab_front(app):
    _frames(app, 4)
    app.errors.report(ScenarioError("bad thing", file="x.json"), "test")
    _frames(app, 2)
    assert len(app.toasts.items) == 1
    errors = imgui.internal.find_window_by_name("###Errors")
    assert errors is not None and errors.hidden      # the Timeline is in front
    layout.bring_to_front(["###Errors"])             # what the toast's button does
    _frames(app, 2)
    assert not imgui.internal.find_window_by_name("###Errors").hidden
