"""The new buttons clicked with the mouse in the headless viewer (issue 28 items 2-3):
Assets' "Load as static object" loads the selected Setup keeping its table; the Save
dialog over an existing file that is not the scenario's own says Replace (Enter does not
write over it) and the click writes it with a "Saved" notice; the quit prompt names the
file."""

from __future__ import annotations

import pytest
from imgui_bundle import imgui

from viewer import synthetic as S
from viewer.app import ViewerApp
from viewer.render.framebuffer import OffscreenTarget
from viewer.sim import inspect
from viewer.ui import layout
from viewer.ui.session import open_session

SIZE = (960, 600)


@pytest.fixture
def app(gl_ctx):
    viewer = ViewerApp(gl_ctx, display_size=SIZE, session=open_session(prepass=False))
    target = OffscreenTarget(gl_ctx, SIZE)
    viewer.frames = lambda n=1: [viewer.frame(1 / 60, SIZE, target.fbo) for _ in range(n)]
    viewer.frames(4)
    yield viewer
    viewer.release()
    target.release()


def _press(app, label, monkeypatch) -> list[str]:
    """Move onto the button ``label`` as drawn and click it; returns the buttons seen."""
    seen: dict = {}
    drawn = imgui.button

    def noted(text, *args, **kwargs):
        pressed = drawn(text, *args, **kwargs)
        seen[text] = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        return pressed
    monkeypatch.setattr(imgui, "button", noted)
    app.frames(2)
    lo, hi = seen[label]
    app.input.mouse_pos((lo.x + hi.x) / 2, (lo.y + hi.y) / 2)
    app.frames()
    for down in (True, False):
        app.input.mouse_button(0, down)
        app.frames()
    app.frames()
    monkeypatch.setattr(imgui, "button", drawn)
    return list(seen)


def test_assets_load_as_static_object_keeps_the_setups_table(app, monkeypatch):
    app.assets_state.selected = S.SETUP_BOLT
    layout.bring_to_front(["Assets"])
    buttons = _press(app, "Load as static object", monkeypatch)
    assert "Load" in buttons
    s = app.session
    assert [o.id for o in s.scenario.objects] == [1]
    obj = inspect.object_summaries(s.world)[0]
    assert obj.setup_did == S.SETUP_BOLT and obj.table_did == S.PST_FLAME
    assert s.scenario.objects[0].state & 0x1 and s.history.undo_label().endswith("(static)")


def test_save_dialog_replaces_another_file_only_by_its_button(app, monkeypatch, tmp_path):
    other = tmp_path / "other.json"
    other.write_text("{}")
    assert app.prompts.save_name()[0] == "default.scenario.json (as a new file)"
    app.file_dialog = ("save", str(other))
    buttons = _press(app, "Replace", monkeypatch)
    assert "OK" not in buttons
    assert other.read_text() != "{}" and app.session.file == other
    assert app.toasts.items[-1][0].line() == f"Saved {other}"
    assert app.file_dialog is None and app.prompts.save_name() == ("other.json", None)


def _click_at(app, rect) -> None:
    lo, hi = rect
    app.input.mouse_pos((lo.x + hi.x) / 2, (lo.y + hi.y) / 2)
    app.frames()
    for down in (True, False):
        app.input.mouse_button(0, down)
        app.frames()


def test_object_panel_set_table_picks_the_setups_table(app, monkeypatch):
    from viewer.ui import commands as c

    app.controller.apply(c.LoadSetup(S.SETUP_BOLT))
    layout.bring_to_front(["Object"])
    seen: dict = {}
    combo, selectable = imgui.begin_combo, imgui.selectable

    def noted_combo(label, preview, *args, **kwargs):
        shown = combo(label, preview, *args, **kwargs)
        seen[preview] = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        return shown

    def noted_selectable(label, *args, **kwargs):
        out = selectable(label, *args, **kwargs)
        seen[label] = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        return out
    monkeypatch.setattr(imgui, "begin_combo", noted_combo)
    monkeypatch.setattr(imgui, "selectable", noted_selectable)
    app.frames(2)
    _click_at(app, seen["Set table: none"])
    app.frames()
    wanted = f"Setup's (0x{S.PST_FLAME:08X})"
    assert f"0x{S.PST_UNSORTED:08X}" in seen and "none" in seen   # the list is open
    _click_at(app, seen[wanted])
    app.frames()
    s = app.session
    assert inspect.object_summaries(s.world)[0].table_did == S.PST_FLAME
    assert s.scenario.objects[0].extra["desc"] is False and s.modified
    assert s.history.undo_label() == "table of object 1"


def test_the_quit_prompt_names_the_file_and_why_save_writes_a_new_one(app, monkeypatch):
    from viewer.ui import commands as c

    app.session.apply(c.PlayScript(1, S.PES_EXPLODE))
    app.prompts.request_quit()
    said = []
    for name in ("text", "text_disabled"):
        drawn = getattr(imgui, name)
        monkeypatch.setattr(imgui, name, lambda t, *a, _d=drawn, **k: (said.append(t),
                                                                      _d(t, *a, **k))[1])
    app.frames(3)
    assert "Save the changes to default.scenario.json (as a new file) before quitting?" in said
    assert any(t.startswith("Save writes a new file: default.scenario.json ships with")
               for t in said)
