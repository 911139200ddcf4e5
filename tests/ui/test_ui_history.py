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


def test_history_coalesces_a_drags_pushes_into_one_step():
    now = [0.0]
    h = History(clock=lambda: now[0])
    h.push("s0", 1, "offset", coalesce=True)
    for k in range(5):                       # one drag: a push every frame
        now[0] += 0.05
        h.push(f"s{k + 1}", 1, "offset", coalesce=True)
    assert len(h.undo_stack) == 1 and h.undo_stack[0].scenario == "s0" and h.modified
    now[0] += 2.0                            # a later drag is its own step
    h.push("t0", 1, "offset", coalesce=True)
    h.push("u0", 1, "rate", coalesce=True)   # another setting: another step
    h.push("v0", 1, "rate")                  # not a coalescing push: another step
    assert [s.scenario for s in h.undo_stack] == ["s0", "t0", "u0", "v0"]
    h.undo("w", 1)
    h.push("x0", 1, "rate", coalesce=True)
    h.push("x1", 1, "rate", coalesce=True)   # an undo between: never joins across it
    assert [s.scenario for s in h.undo_stack] == ["s0", "t0", "u0", "x0"]


# --- the reference recording the scenario saves: edits like any other (issue 19) -----------
@pytest.fixture
def rec(tmp_path):
    from test_ui_compare import write_recording
    return write_recording(tmp_path / "rec")


def _entry(s):
    return s.scenario.extra.get("reference")


def test_reference_settings_are_undoable_edits_that_mark_the_scenario_modified(db, rec):
    from viewer.ui.controller import Controller

    s = make(db)
    ctl = Controller(session=s)
    cmp = ctl.view.compare
    assert ctl.apply(c.LoadReference(str(rec), 30.0))
    assert s.modified and s.history.undo_label() == "load reference"
    assert ctl.apply(c.SetReferenceOffset(0.1)) and ctl.apply(c.SetReferenceCrop((2, 2, 4, 30)))
    assert ctl.apply(c.SetReferenceCrop((2, 2, 40, 30)))   # typed on: the same undo step
    assert _entry(s)["offset"] == 0.1 and s.history.undo_label() == "reference crop"
    frames = cmp.track.frames
    assert ctl.apply(c.Undo())                              # the crop goes
    assert cmp.track.crop is None and _entry(s)["crop"] is None
    assert cmp.track.frames is frames                       # the same recording, not reloaded
    assert ctl.apply(c.Undo())                              # the offset goes
    assert cmp.track.offset == 0.0 and _entry(s)["offset"] == 0.0
    assert ctl.apply(c.Undo())                              # the recording goes
    assert cmp.track is None and _entry(s) is None and cmp.mode == "off"
    assert not s.modified
    assert ctl.apply(c.Redo()) and ctl.apply(c.Redo())      # loaded again, offset again
    assert cmp.track.offset == 0.1 and _entry(s)["offset"] == 0.1 and s.modified
    assert ctl.errors.entries == []


def test_reference_view_settings_and_unchanged_values_are_no_edits(db, rec, tmp_path):
    from viewer.ui.controller import Controller

    s = make(db)
    ctl = Controller(session=s)
    ctl.apply(c.LoadReference(str(rec), 30.0))
    ctl.apply(c.SaveScenario(str(tmp_path / "a.json")))
    for cmd in (c.SetCompareMode("side_by_side"), c.SetCompareOpacity(0.2),
                c.SetWipeSplit(0.3), c.SetReferenceOffset(0.0), c.SetReferenceRate(1.0)):
        assert ctl.apply(cmd)
    assert not s.modified and s.history.undo_label() == "load reference"
    # the view mode is saved with the recording (issue 28): a change is an edit
    assert ctl.apply(c.SetCompareMode("off"))
    assert s.modified and _entry(s)["mode"] == "off"
    assert s.history.undo_label() == "comparison view"
    ctl.apply(c.Undo())
    assert ctl.view.compare.mode == "side_by_side" and not s.modified
    assert ctl.apply(c.StepReference(1))                    # a saved setting: modified
    assert s.modified and s.history.undo_label() == "reference offset"
    assert ctl.apply(c.SetReferenceOffset(float("nan"))) is False   # refused: no entry
    assert s.history.undo_label() == "reference offset" and len(s.history.undo_stack) == 2


def test_undoing_a_setup_load_keeps_the_reference(db, rec):
    from viewer.ui.controller import Controller

    s = make(db)
    ctl = Controller(session=s)
    ctl.apply(c.LoadReference(str(rec), 30.0))
    ctl.apply(c.SetReferenceOffset(0.2))
    ctl.apply(c.LoadSetup(F.SETUP, None))
    assert _entry(s)["offset"] == 0.2 and ctl.view.compare.track.offset == 0.2
    ctl.apply(c.Undo())
    assert len(s.scenario.objects) == len(F.scenario_json()["objects"])
    assert _entry(s)["offset"] == 0.2 and ctl.view.compare.track.offset == 0.2


# --- Open DAT / Load scenario over unsaved changes ask first (issue 19) ----------------------
@pytest.fixture
def gl_app(gl_ctx):
    from viewer.app import ViewerApp
    from viewer.render.framebuffer import OffscreenTarget

    app = ViewerApp(gl_ctx, display_size=(640, 400), session=make(F.database()))
    target = OffscreenTarget(gl_ctx, (640, 400))
    app.test_frame = lambda n=1: [app.frame(1 / 60, (640, 400), target.fbo) for _ in range(n)]
    app.test_frame(4)          # the default layout settles (it focuses the Viewport twice)
    yield app
    app.release()
    target.release()


def _click_button(app, label, monkeypatch):
    """Press the ImGui button ``label`` with the mouse (its place recorded as drawn)."""
    F.click_button(app, label, monkeypatch, app.test_frame)


def _builtin_scenario():
    from viewer.resources import asset_path
    from viewer.synthetic import DEFAULT_SCENARIO
    return str(asset_path(DEFAULT_SCENARIO.name))


def test_loading_over_unsaved_changes_asks_and_cancel_or_esc_keep_the_scene(gl_app,
                                                                            monkeypatch):
    app, s = gl_app, gl_app.session
    load = c.LoadScenario(_builtin_scenario())
    assert app.controller.apply(load)                 # nothing unsaved: loads at once
    assert app.session is not s and app.open_prompt is None
    app.session = s
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))
    app.controller.apply(load)
    assert app.session is s and app.open_prompt == load   # held back: the prompt asks
    app.test_frame(2)
    from imgui_bundle import imgui
    assert imgui.get_current_context().open_popup_stack.size() == 1
    _click_button(app, "Cancel", monkeypatch)
    assert app.session is s and app.open_prompt is None and s.modified
    app.controller.apply(c.OpenDat(("other.dat",)))   # Open DAT asks the same
    assert app.open_prompt == c.OpenDat(("other.dat",))
    app.escape()                                      # Esc: as Cancel
    assert app.open_prompt is None and app.session is s and app.errors.entries == []


def test_loading_over_unsaved_changes_discard_loads_and_save_saves_first(gl_app, tmp_path,
                                                                        monkeypatch):
    app, s = gl_app, gl_app.session
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))
    load = c.LoadScenario(_builtin_scenario())
    app.controller.apply(load)
    _click_button(app, "Discard", monkeypatch)
    assert app.errors.entries == [], [e.line() for e in app.errors.entries]
    assert app.session is not s and not app.session.modified and app.open_prompt is None
    # Save: the scenario has a file, so it is written, then the load goes on
    s.file = tmp_path / "edited.json"
    app.session = s
    app.controller.apply(load)
    _click_button(app, "Save", monkeypatch)
    assert (tmp_path / "edited.json").is_file() and app.session is not s
    # no file yet: Save opens the Save dialog, and the load goes on once it saved
    s.file = None
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))
    app.session = s
    app.controller.apply(load)
    _click_button(app, "Save", monkeypatch)
    assert app.session is s and app.file_dialog is not None and app.file_dialog[0] == "save"
    app.file_dialog = ("save", str(tmp_path / "named.json"))
    _click_button(app, "OK", monkeypatch)
    assert (tmp_path / "named.json").is_file() and app.session is not s
    assert app.errors.entries == []


def test_a_new_session_keeps_the_recording_shown_unsaved_until_it_is_edited(db, rec):
    from viewer.ui.controller import Controller

    ctl = Controller(session=make(db))
    ctl.apply(c.LoadReference(str(rec), 30.0))
    s2 = make(db)                            # as Open DAT / Load scenario hand over
    ctl.session = s2
    ctl.sync_reference()
    assert ctl.view.compare.track is not None and not s2.modified and _entry(s2) is None
    ctl.apply(c.SetReferenceOffset(0.3))     # now it is the scenario's: an edit
    assert _entry(s2)["offset"] == 0.3 and s2.modified
    ctl.apply(c.Undo())
    assert _entry(s2) is None and ctl.view.compare.track is None and not s2.modified


def test_quit_with_changes_save_names_a_file_then_quits(gl_app, tmp_path, monkeypatch):
    app, s = gl_app, gl_app.session
    s.file = None
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))
    app.request_quit()
    assert app.quit_prompt and not app.should_close
    _click_button(app, "Save", monkeypatch)
    assert app.file_dialog[0] == "save" and not app.should_close
    app.file_dialog = ("save", str(tmp_path / "kept.json"))
    _click_button(app, "OK", monkeypatch)
    assert (tmp_path / "kept.json").is_file() and app.should_close and not s.modified


def test_the_title_names_scenario_dats_and_unsaved_changes(gl_app, tmp_path):
    from pathlib import Path

    app, s = gl_app, gl_app.session
    s.dat_paths = [str(tmp_path / "client_portal.dat"), str(tmp_path / "client_highres.dat")]
    s.file = Path(tmp_path / "scene.json")
    assert app.title() == ("scene.json \u2014 client_portal.dat, client_highres.dat "
                           "\u2014 AC VFX Viewer")
    s.apply(c.PlayScript(1, F.SCRIPT_BIG))
    assert app.title().startswith("scene.json* \u2014 ")
    s.apply(c.Undo())
    assert app.title().startswith("scene.json \u2014 ")
    app.session = None
    assert app.title() == "AC VFX Viewer"


def test_undoing_a_reference_setting_does_not_re_simulate(db, rec):
    from viewer.ui.controller import Controller

    s = make(db)
    ctl = Controller(session=s)
    ctl.apply(c.Seek(0.5))
    ctl.apply(c.LoadReference(str(rec), 30.0))
    ctl.apply(c.SetReferenceOffset(0.25))
    playback, generation = s.playback, s.generation
    ctl.apply(c.Undo())
    ctl.apply(c.Redo())
    assert s.playback is playback and s.generation == generation      # no rebuild
    assert ctl.view.compare.track.offset == 0.25
    ctl.apply(c.PlayScript(1, F.SCRIPT_BIG))
    ctl.apply(c.Undo())                                                # an event: rebuilt
    assert s.playback is not playback and s.generation > generation
