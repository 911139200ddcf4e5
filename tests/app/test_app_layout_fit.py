"""The default layout at 1280x720 and 1920x1080 (headless, the whole viewer): every docked
panel, brought to the front in turn, has no item cut by its window's edge out of reach
(layout.overflowing_windows: wider content must scroll sideways), the panels the issue
named fit without scrolling, the Timeline is in front, and View > Reset layout comes back
to the default."""

from __future__ import annotations

from pathlib import Path

import pytest
from imagecheck import save_png
from imgui_bundle import imgui

from viewer.app import ViewerApp
from viewer.render.framebuffer import OffscreenTarget
from viewer.ui import layout
from viewer.ui.session import open_session

ROOT = Path(__file__).resolve().parents[2]


def _fits(name: str) -> bool:
    w = imgui.internal.find_window_by_name(name)
    return w.content_size_ideal.x <= w.content_region_rect.get_width() + 1.0


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_default_layout_fits_with_nothing_cut(gl_ctx, size):
    app = ViewerApp(gl_ctx, display_size=size, session=open_session())
    target = OffscreenTarget(gl_ctx, size)
    try:
        def frames(n):
            for _ in range(n):
                app.frame(1 / 60, display_size=size, target=target.fbo)

        frames(4)
        save_png(target.read_rgba(), ROOT / "tests" / "_artifacts" / "layout"
                 / f"default_{size[0]}x{size[1]}.png")
        assert not imgui.internal.find_window_by_name("Timeline").hidden   # in front
        assert imgui.internal.find_window_by_name("###Errors").hidden
        for name in layout.LEFT + layout.RIGHT + layout.BOTTOM:
            layout.bring_to_front([name])
            frames(3)
            assert not imgui.internal.find_window_by_name(name).hidden, name
            assert layout.overflowing_windows() == [], name
            if name in ("Object", "Script Table", "Camera", "Stats", "Timeline"):
                assert _fits(name), name
        # View > Reset layout: the default again, Timeline in front
        app._layout_done, app._reset_layout = False, True
        frames(4)
        assert not imgui.internal.find_window_by_name("Timeline").hidden
        assert imgui.internal.find_window_by_name("###Errors").hidden
    finally:
        app.release()
        target.release()


def test_side_docks_keep_their_minimum_widths():
    assert layout.side_widths(1280) == (layout.LEFT_MIN, layout.RIGHT_MIN)
    left, right = layout.side_widths(1920)
    assert left == pytest.approx(0.22 * 1920) and right == pytest.approx(0.27 * 1920)
    left, right = layout.side_widths(800)                 # tiny window: 60% at most
    assert left + right == pytest.approx(480)


def test_a_saved_layout_with_errors_in_front_still_shows_the_timeline(gl_ctx, tmp_path):
    ini = tmp_path / "imgui.ini"
    size = (1280, 720)

    def run(prepare=None):
        app = ViewerApp(gl_ctx, display_size=size, ini_path=ini, session=open_session())
        target = OffscreenTarget(gl_ctx, size)
        try:
            for _ in range(4):
                app.frame(1 / 60, display_size=size, target=target.fbo)
            if prepare is not None:
                prepare()
                for _ in range(3):
                    app.frame(1 / 60, display_size=size, target=target.fbo)
            return (imgui.internal.find_window_by_name("Timeline").hidden,
                    imgui.internal.find_window_by_name("###Errors").hidden)
        finally:
            app.release()            # saves the layout
            target.release()

    assert run(lambda: layout.bring_to_front(["###Errors"])) == (True, False)
    assert "Errors" in ini.read_text()
    assert run() == (False, True)    # the saved layout opens with the Timeline in front
