"""The default layout at 1280x720 and 1920x1080 (headless, the whole viewer) fits with
nothing cut: layout.FitCheck finds no item cut by its window's visible edge (a panel must
fit sideways; a table or list may scroll inside itself with its own scrollbar), no table
with squeezed columns and no dock tab with a cut title. Every docked panel is brought to
the front in turn (one tab of each dock at a time), with every tree node open, both in the
default scenario and with every panel full (a recording loaded, an emitter selected, an
asset with its references, long paths and messages, the Audit window and the file dialog
open). The check
itself is tested on a cut button, a squeezed table and a cut tab title. The Timeline is in
front, and View > Reset layout comes back to the default."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from imagecheck import save_png
from imgui_bundle import imgui
from PIL import Image

from viewer.app import ViewerApp
from viewer.render.framebuffer import OffscreenTarget
from viewer.sim.inspect import live_emitters
from viewer.ui import commands as c
from viewer.ui import layout
from viewer.ui.assets_panel import describe
from viewer.ui.session import open_session

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1280, 720), (1920, 1080)]


@contextmanager
def _viewer(gl_ctx, size, ini=None):
    """The whole viewer on the default scenario, headless at ``size`` (``ini``: the layout
    file it reads and saves on release): (app, frames(n))."""
    app = ViewerApp(gl_ctx, display_size=size, ini_path=ini, session=open_session())
    target = OffscreenTarget(gl_ctx, size)

    def frames(n):
        for _ in range(n):
            app.frame(1 / 60, display_size=size, target=target.fbo)
    try:
        yield app, frames
    finally:
        app.release()
        target.release()


def _fill_every_panel(app: ViewerApp, tmp_path: Path) -> None:
    """Show every panel's conditional controls: a recording loaded (the whole Reference
    panel, Capture's comparison option), an emitter selected (its detail, Solo / Mute,
    particles, plot), an asset with details and references, a bookmark, long paths and
    messages, an error, the Audit window, the file dialog listing a folder."""
    ref = tmp_path / "ref"
    ref.mkdir()
    for i in range(3):
        Image.fromarray(np.full((48, 64, 3), 40 * i, np.uint8)).save(ref / f"f{i:03d}.png")
    ctl, s = app.controller, app.session
    assert ctl.apply(c.LoadReference(str(ref), 30.0))
    s.playback.seek_frame(20)
    ctl.apply(c.Select("emitter", live_emitters(s.world)[0].handle))
    ctl.apply(c.CameraBookmark("a bookmark with a long name", save=True))
    ctl.apply(c.RunAudit())
    long_path = "/home/someone/a/long/folder/name/out/capture_of_the_whole_effect"
    app.capture_state.last = f"wrote 61 frame(s) to {long_path}.mp4"
    app.camera_state.last_screenshot = f"{long_path}.png"
    app.launch_state.message = "a preset launch creates its projectile: object 1 exists"
    app.errors.report(ValueError("a long error message " * 6), "panel Test")
    script = s.db.dids(0x33)[0]
    app.assets_state.selected = script
    app.assets_state.details = describe(s.db, script)
    app.assets_state.refs = [("tables using it", s.db.dids(0x34)[:3])]
    for name in ("a_scenario_file_with_a_rather_long_name.json", "effects.json"):
        (tmp_path / name).write_text("{}")
    app.recent_dirs.add(str(tmp_path))
    app.file_dialog = ("load", str(tmp_path) + "/")   # File > Load scenario, listing


def _front_rounds():
    """Each round brings one tab of every dock to the front."""
    docks = (layout.LEFT, layout.RIGHT, layout.BOTTOM)
    for k in range(max(len(d) for d in docks)):
        yield [d[k] for d in docks if k < len(d)]


@pytest.mark.parametrize("size", SIZES)
def test_default_layout_fits_with_nothing_cut(gl_ctx, size, tmp_path):
    with _viewer(gl_ctx, size) as (app, frames):
        frames(4)
        assert not imgui.internal.find_window_by_name("Timeline").hidden   # in front
        assert imgui.internal.find_window_by_name("###Errors").hidden
        for state in ("default", "full"):
            if state == "full":
                _fill_every_panel(app, tmp_path)
            with layout.FitCheck() as fit:
                for names in _front_rounds():
                    layout.bring_to_front(names)
                    frames(3)
                    for name in names:
                        assert not imgui.internal.find_window_by_name(name).hidden, name
                    assert fit.problems() == [], (state, names)
                    for name in names:   # and scrolled to the end: what shows there
                        window = imgui.internal.find_window_by_name(name)
                        imgui.internal.set_scroll_y(window, 1e6)
                    frames(3)
                    assert fit.problems() == [], (state, names, "scrolled down")
            seen = {name.split("/")[0] + "/" + name.rsplit("/", 1)[1]
                    for name in fit.tables.values()}
            assert seen >= ({"Script Table/entries", "Emitters/emitters", "Stats/stats"}
                            | ({"Emitters/particles", "Emitters/info", "Audit/audit"}
                               if state == "full" else set())), seen
            save_png(app.capture(size, frames=1), ROOT / "tests" / "_artifacts" / "layout"
                     / f"{state}_{size[0]}x{size[1]}.png")
        # View > Reset layout: the default again, Timeline in front
        app.wiring.layout_done, app.wiring.reset_layout = False, True
        frames(4)
        assert not imgui.internal.find_window_by_name("Timeline").hidden
        assert imgui.internal.find_window_by_name("###Errors").hidden


def test_the_fit_check_finds_a_cut_item_a_squeezed_table_and_a_cut_tab_title():
    ctx = imgui.create_context()
    try:
        io = imgui.get_io()
        io.display_size = (400, 300)
        io.config_flags |= imgui.ConfigFlags_.docking_enable
        io.set_ini_filename("")
        io.backend_flags |= imgui.BackendFlags_.renderer_has_textures   # bakes on demand

        def frame(body):
            io.delta_time = 1 / 60
            imgui.new_frame()
            body()
            imgui.render()

        def panel(name, wide_button=False, wide_table=False, scrolling_table=False):
            imgui.set_next_window_pos((0, 0), imgui.Cond_.always)
            imgui.set_next_window_size((200, 150), imgui.Cond_.always)
            imgui.begin(name, None, imgui.WindowFlags_.horizontal_scrollbar)
            imgui.text("fits")
            if wide_button:
                imgui.button("a button far wider than its two hundred px window")
            if wide_table or scrolling_table:
                flags = imgui.TableFlags_.sizing_fixed_fit | (
                    imgui.TableFlags_.scroll_x if scrolling_table else 0)
                if imgui.begin_table("t", 3, flags, (0, 60) if scrolling_table else (0, 0)):
                    for _ in range(3):
                        imgui.table_next_column()
                        imgui.text("a wide cell of text")
                    imgui.end_table()
            imgui.end()

        def problems(**kw):
            with layout.FitCheck() as fit:
                for _ in range(3):
                    frame(lambda: panel("P", **kw))
                return fit.problems()

        assert problems() == []
        assert [p.split(":")[0] for p in problems(wide_button=True)] == ["P"]
        assert problems(wide_table=True)[0].startswith("table P/t: columns need")
        assert problems(scrolling_table=True) == []   # it scrolls with its own scrollbar

        built = []

        def docked():
            dock = imgui.dock_space_over_viewport()
            if not built:
                built.append(dock)
                internal = imgui.internal
                internal.dock_builder_remove_node(dock)
                internal.dock_builder_add_node(dock, internal.DockNodeFlagsPrivate_.dock_space)
                internal.dock_builder_set_node_size(dock, imgui.ImVec2(400, 300))
                _, left, _ = internal.dock_builder_split_node_py(dock, imgui.Dir.left, 0.25)
                for name in ("A long tab title", "Another long title"):
                    internal.dock_builder_dock_window(name, left)
                internal.dock_builder_finish(dock)
            for name in ("A long tab title", "Another long title"):
                imgui.begin(name)
                imgui.end()

        for _ in range(3):
            frame(docked)
        cut = layout.cut_tab_titles()
        assert len(cut) == 2 and cut[0].startswith("tab A long tab title:")
    finally:
        imgui.destroy_context(ctx)


def test_side_docks_keep_their_minimum_widths():
    assert layout.side_widths(1280) == (layout.LEFT_MIN, layout.RIGHT_MIN)
    left, right = layout.side_widths(1920)
    assert left == pytest.approx(0.22 * 1920) and right == pytest.approx(0.27 * 1920)
    left, right = layout.side_widths(800)                 # tiny window: 60% at most
    assert left + right == pytest.approx(480)


def save_layout_with_errors_in_front(gl_ctx, ini, size=(1280, 720)) -> None:
    """Leave a saved layout (``ini``) with the Errors tab in front of the Timeline."""
    with _viewer(gl_ctx, size, ini) as (_, frames):
        frames(4)
        layout.bring_to_front(["###Errors"])
        frames(3)
        assert imgui.internal.find_window_by_name("Timeline").hidden
    assert "Errors" in ini.read_text()


def _timeline_errors_hidden():
    return (imgui.internal.find_window_by_name("Timeline").hidden,
            imgui.internal.find_window_by_name("###Errors").hidden)


def test_a_saved_layout_with_errors_in_front_still_shows_the_timeline(gl_ctx, tmp_path):
    ini = tmp_path / "imgui.ini"
    save_layout_with_errors_in_front(gl_ctx, ini)
    with _viewer(gl_ctx, (1280, 720), ini) as (app, frames):
        frames(4)
        assert _timeline_errors_hidden() == (False, True)  # the Timeline in front
        layout.bring_to_front(["###Errors"])
        frames(3)
        assert _timeline_errors_hidden() == (True, False)
        app.wiring.layout_done, app.wiring.reset_layout = False, True   # View > Reset layout
        frames(4)
        assert _timeline_errors_hidden() == (False, True)


def _reference_tab_centre(gl_ctx, size):
    """The default layout at ``size`` (narrow: the right dock's tab titles are cut): the
    centre of the cut "Reference" tab, in window pixels."""
    with _viewer(gl_ctx, size) as (_, frames):
        frames(4)
        assert "Reference" not in layout.front_tabs()
        assert any(t.startswith("tab Reference:") for t in layout.cut_tab_titles())
        x0, y0, x1, y1 = layout.tab_rect("Reference")
        return (x0 + x1) / 2, (y0 + y1) / 2


def test_a_cut_dock_tab_clicked_with_the_move_onto_it_is_selected(gl_ctx):
    # At a slow frame rate the move onto the tab, the press and the release reach the
    # viewer within one frame; a dock tab ignores a click that comes with the move onto
    # it, so ImGuiInput holds the press back a frame (it was highlighted, not selected)
    size = (900, 600)
    with _viewer(gl_ctx, size) as (app, frames):
        frames(4)
        assert "Reference" not in layout.front_tabs()
        assert any(t.startswith("tab Reference:") for t in layout.cut_tab_titles())
        x0, y0, x1, y1 = layout.tab_rect("Reference")
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        app.input.mouse_pos(x, y)
        app.input.mouse_button(0, True)
        app.input.mouse_pos(x, y)
        app.input.mouse_button(0, False)
        frames(4)
        assert "Reference" in layout.front_tabs()
        assert not imgui.internal.find_window_by_name("Reference").hidden
