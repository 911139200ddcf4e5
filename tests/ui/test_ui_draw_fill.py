"""How ImGui's draw data reaches the rasteriser: layers that only repaint a constant colour
are folded into the frame's clear, with pixel-identical results (on llvmpipe each blended
full-screen layer costs ~3 ms of a 1280x720 frame; bench/viewer_frame.py)."""

from __future__ import annotations

import ctypes

import numpy as np
from imgui_bundle import imgui
from ui_fixtures import headless_app

from viewer.app import BACKGROUND
from viewer.ui.session import open_session

SIZE = (480, 300)


def drawn_area(draw_data) -> float:
    """Pixels covered by every triangle of the draw data (overlaps counted each time)."""
    vtx_t = np.dtype([("pos", "<f4", 2), ("uv", "<f4", 2), ("col", "<u4")])
    idx_t = np.uint16 if imgui.INDEX_SIZE == 2 else np.uint32
    total = 0.0
    for cl in draw_data.cmd_lists:
        nv, ni = cl.vtx_buffer.size(), cl.idx_buffer.size()
        vtx = np.frombuffer((ctypes.c_byte * (nv * imgui.VERTEX_SIZE)).from_address(
            cl.vtx_buffer.data_address()), vtx_t)
        idx = np.frombuffer((ctypes.c_byte * (ni * imgui.INDEX_SIZE)).from_address(
            cl.idx_buffer.data_address()), idx_t)
        for cmd in cl.cmd_buffer:
            tri = idx[cmd.idx_offset:cmd.idx_offset + cmd.elem_count].reshape(-1, 3)
            p = vtx["pos"][tri.astype(np.int64) + cmd.vtx_offset].astype(np.float64)
            total += 0.5 * np.abs((p[:, 1, 0] - p[:, 0, 0]) * (p[:, 2, 1] - p[:, 0, 1])
                                  - (p[:, 2, 0] - p[:, 0, 0]) * (p[:, 1, 1] - p[:, 0, 1])).sum()
    return total


def frames(app, target, n=4):
    for _ in range(n):
        app.frame(1 / 30, SIZE, target.fbo)
    return target.read_rgba(), drawn_area(imgui.get_draw_data())


def test_dockspace_background_folded_into_the_clear_gives_the_same_pixels(gl_ctx):
    session = open_session(None, None)
    with headless_app(gl_ctx, session, SIZE) as (app, target):
        app.fold_backgrounds = False
        drawn, area_drawn = frames(app, target)
        app.fold_backgrounds = True
        folded, area_folded = frames(app, target)
    assert np.array_equal(folded, drawn)
    # the host window's background (the display below the menu bar) is no longer drawn
    assert area_drawn - area_folded >= 0.9 * SIZE[0] * SIZE[1]


def test_docked_backgrounds_and_the_view_drawn_without_blending_give_the_same_pixels(
        gl_ctx, monkeypatch):
    from viewer.synthetic import DEFAULT_SCENARIO
    from viewer.ui import commands as c
    from viewer.ui import imgui_backend
    session = open_session(None, str(DEFAULT_SCENARIO))
    with headless_app(gl_ctx, session, SIZE) as (app, target):
        app.controller.apply(c.Seek(1.0))
        with monkeypatch.context() as m:
            m.setattr(imgui_backend, "OPAQUE_MIN_AREA", float("inf"))
            app.fold_backgrounds = False
            blended, _ = frames(app, target)
            assert app.renderer.opaque_draws == app.renderer.nearest_draws == 0
        app.fold_backgrounds = True
        opaque, _ = frames(app, target)
        # the docked windows' backgrounds (adjacent ones share a draw) and the 3D view
        assert app.renderer.opaque_draws >= 2
        assert app.renderer.nearest_draws == 1   # the 3D view, texel for pixel
    assert np.array_equal(opaque, blended)


def test_blended_is_the_colour_the_renderer_draws(gl_ctx):
    with headless_app(gl_ctx, None, SIZE) as (app, target):
        frames(app, target, 1)
        for col in (imgui.get_color_u32(imgui.Col_.window_bg), 0x80336699, 0x01FFFFFF):
            rgba = app.renderer.blended(col, BACKGROUND)
            imgui.new_frame()
            imgui.get_background_draw_list().add_rect_filled((0, 0), SIZE, col)
            imgui.render()
            target.use()
            target.fbo.clear(*BACKGROUND)
            app.renderer.render(imgui.get_draw_data())
            drawn = target.read_rgba()
            levels = [round(v * 255) for v in rgba]
            assert all(abs(v * 255 - lv) < 1e-9 for v, lv in zip(rgba, levels))
            assert (drawn == np.array(levels, np.uint8)).all(), (hex(col), levels)


def test_an_image_is_sampled_nearest_only_texel_for_pixel():
    from types import SimpleNamespace

    from viewer.ui.imgui_backend import _VERTEX, _texel_aligned
    tex = SimpleNamespace(size=(4, 2))

    def quad(x0, y0, x1, y1):
        v = np.zeros(4, _VERTEX)
        v["pos"] = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        v["uv"] = [(0, 1), (1, 1), (1, 0), (0, 0)]   # flipped rows, as the view is shown
        return v

    assert _texel_aligned(quad(10, 20, 14, 22), tex)
    assert not _texel_aligned(quad(10.5, 20, 14.5, 22), tex)   # between pixel centres
    assert not _texel_aligned(quad(10, 20, 18, 24), tex)       # magnified
