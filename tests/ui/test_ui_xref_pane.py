"""The Uses / Used by pane (viewer/ui/xref_panel.py) in a bare ImGui context (no GL): the
progress bar while the index is built, then one clickable row per related record; a click
opens that record, a double click plays a script, a script's Play button plays it."""

from __future__ import annotations

import pytest
import ui_fixtures as F
from imgui_bundle import imgui

from viewer.ui import commands as c
from viewer.ui.assets_panel import AssetIndex
from viewer.ui.xref_panel import XrefBuild, draw_xref_pane


class Recorder:
    """imgui, recording where each selectable and small button was drawn."""

    def __init__(self) -> None:
        self.rects: dict[str, tuple[float, float]] = {}
        self.bars = 0
        self.texts: list[str] = []

    def __getattr__(self, name):
        return getattr(imgui, name)

    def _note(self, label: str) -> None:
        lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        self.rects[label] = ((lo.x + hi.x) / 2, (lo.y + hi.y) / 2)

    def selectable(self, label, *args):
        out = imgui.selectable(label, *args)
        self._note(label)
        return out

    def small_button(self, label):
        out = imgui.small_button(label)
        self._note(label)
        return out

    def text(self, text):
        self.texts.append(text)
        return imgui.text(text)

    def progress_bar(self, *args):
        self.bars += 1
        return imgui.progress_bar(*args)


@pytest.fixture
def ctx():
    context = imgui.create_context()
    io = imgui.get_io()
    io.display_size = imgui.ImVec2(900, 600)
    io.backend_flags |= imgui.BackendFlags_.renderer_has_textures   # bakes on demand
    yield io
    imgui.destroy_context(context)


def frame(rec, build, did, object_id=1, mouse=None, down=False):
    io = imgui.get_io()
    io.delta_time = 1 / 60
    if mouse is not None:
        io.add_mouse_pos_event(*mouse)
    io.add_mouse_button_event(0, down)
    imgui.new_frame()
    imgui.set_next_window_pos(imgui.ImVec2(0, 0))
    imgui.set_next_window_size(imgui.ImVec2(900, 600))
    imgui.begin("Assets")
    out = draw_xref_pane(rec, build, did, object_id)
    imgui.end()
    imgui.render()
    return out


def click(rec, build, did, label, times=1):
    """Press and release over ``label``; the results of every frame."""
    at = rec.rects[label]
    results = [frame(rec, build, did, mouse=at)]
    for _ in range(times):
        results.append(frame(rec, build, did, mouse=at, down=True))
        results.append(frame(rec, build, did, mouse=at, down=False))
    return results


class _Pending:
    """A build that never ends (the pane while the index is built)."""

    class job:
        fraction, status, finished, cancelled = 0.25, "1 / 4 records", False, False

    error = None

    def poll(self):
        return None


def test_progress_while_built_then_rows_that_open_and_play(ctx):
    rec = Recorder()
    assert frame(rec, _Pending(), F.SCRIPT) == ([], None) and rec.bars == 1
    db = F.database()
    build = AssetIndex(db).build()
    assert isinstance(build, XrefBuild) and build.wait(30) is not None
    frame(rec, build, F.SCRIPT)
    assert build.refs(F.SCRIPT)[1] is build.refs(F.SCRIPT)[1]   # kept while shown
    used_by = f"0x{F.TABLE:08X}##used by{F.TABLE}"
    row = f"0x{F.SCRIPT_PES:08X}##uses{F.SCRIPT_PES}"
    assert used_by in rec.rects and row in rec.rects
    assert "PhysicsScriptTable" in rec.texts and "Launch (0x04) #0 mod 0.3" in rec.texts
    assert any("CallPES (19)" in t for t in rec.texts)
    # a click opens the table
    assert any(opened == F.TABLE for _, opened in click(rec, build, F.SCRIPT, used_by))
    # a double click on a script plays it on the object; so does its Play button
    cmds = [cmd for out, _ in click(rec, build, F.SCRIPT, row, times=2) for cmd in out]
    assert c.PlayScript(1, F.SCRIPT_PES) in cmds
    cmds = [cmd for out, _ in click(rec, build, F.SCRIPT, f"Play##uses{F.SCRIPT_PES}")
            for cmd in out]
    assert cmds == [c.PlayScript(1, F.SCRIPT_PES)]
    # no object: no Play button, nothing to play on
    rec.rects.clear()
    frame(rec, build, F.SCRIPT, object_id=None)
    assert not any(k.startswith("Play##") for k in rec.rects)


def test_nothing_selected_draws_nothing(ctx):
    rec = Recorder()
    assert frame(rec, None, F.SCRIPT) == ([], None)
    assert frame(rec, _Pending(), None) == ([], None) and rec.bars == 0
