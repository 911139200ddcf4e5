"""Our ImGui renderer honours ImGui 1.92's texture protocol (RendererHasTextures) on a
headless EGL context: it creates, updates and destroys the GPU copies of ImGui's own
textures when ImGui asks (the font atlas, baked on demand at any text size, grown into new
textures), draws the app's own textures, and skips a texture gone before the draw."""

from __future__ import annotations

import numpy as np
import pytest
from imgui_bundle import imgui

from viewer.ui.imgui_backend import ImGuiRenderer

SIZE = (320, 200)
S = imgui.ImTextureStatus


@pytest.fixture
def gui(gl_ctx):
    ctx = imgui.create_context()
    imgui.get_io().set_ini_filename("")
    renderer = ImGuiRenderer(gl_ctx, display_size=SIZE)
    fbo = gl_ctx.simple_framebuffer(SIZE)
    try:
        yield renderer, fbo
    finally:
        renderer.shutdown()
        imgui.destroy_context(ctx)
        fbo.release()


def frame(gui, body=lambda: None, before_render=lambda: None):
    """One ImGui frame: a window with one line of text, ``body`` drawn in it; returns what
    ImGui asked of each texture (unique id -> status before the renderer ran) and the
    drawn pixels (rows top-down)."""
    renderer, fbo = gui
    io = imgui.get_io()
    io.delta_time = 1 / 60
    imgui.new_frame()
    imgui.set_next_window_pos((0, 0))
    imgui.set_next_window_size(SIZE)
    imgui.begin("w")
    imgui.text("Hello")
    body()
    imgui.end()
    imgui.render()
    draw_data = imgui.get_draw_data()
    asked = {t.unique_id: t.status for t in draw_data.textures}
    before_render()
    fbo.use()
    fbo.clear(0.0, 0.0, 0.0, 1.0)
    renderer.render(draw_data)
    pixels = np.frombuffer(fbo.read(components=4), np.uint8).reshape(SIZE[1], SIZE[0], 4)
    return asked, pixels[::-1]


def atlas_matches_gpu(renderer) -> bool:
    tex = imgui.get_io().fonts.tex_data
    gpu = renderer.texture(tex.tex_id)
    return (tex.status == S.ok and gpu is not None and gpu.size == (tex.width, tex.height)
            and np.array_equal(np.frombuffer(gpu.read(), np.uint8), tex.get_pixels_array()))


def big_text():
    imgui.push_font(None, 48.0)
    imgui.text("Big")
    imgui.pop_font()


def test_font_atlas_created_updated_grown_and_destroyed_on_request(gui):
    renderer, _ = gui
    asked, _ = frame(gui)
    assert list(asked.values()) == [S.want_create]
    assert atlas_matches_gpu(renderer)
    first = imgui.get_io().fonts.tex_data
    first_id = first.tex_id
    assert first_id != 0 and renderer.texture(first_id).glo == first_id

    _, small = frame(gui)
    asked, big = frame(gui, big_text)   # new glyphs at a new size: baked into the atlas
    assert asked[first.unique_id] == S.want_updates
    assert atlas_matches_gpu(renderer)
    below = (slice(45, 120), slice(0, 200))   # under the first line: the big one
    assert (big[below][..., :3] > 200).any() and not (small[below][..., :3] > 200).any()

    def many_sizes():
        for size in range(10, 130, 6):
            imgui.push_font(None, float(size))
            imgui.text("The quick brown fox")
            imgui.pop_font()
    asked, _ = frame(gui, many_sizes)   # the atlas outgrows its texture: new ones made
    grown = [uid for uid, status in asked.items() if status == S.want_create]
    assert grown and atlas_matches_gpu(renderer)
    old = renderer.texture(first_id)
    asked, _ = frame(gui)   # the outgrown textures are no longer used: destroyed
    assert asked[first.unique_id] == S.want_destroy
    assert renderer.texture(first_id) is None and type(old.mglo).__name__ == "InvalidObject"
    statuses = {t.unique_id: (t.status, t.tex_id) for t in imgui.get_platform_io().textures}
    assert statuses.get(first.unique_id, (S.destroyed, 0)) == (S.destroyed, 0)
    assert atlas_matches_gpu(renderer)


def test_user_texture_drawn_and_one_released_before_the_draw_skipped(gui, gl_ctx):
    renderer, _ = gui
    red = gl_ctx.texture((8, 8), 4, bytes([255, 0, 0, 255]) * 64)
    renderer.register_texture(red)

    def image():
        imgui.get_foreground_draw_list().add_image(
            imgui.ImTextureRef(red.glo), imgui.ImVec2(200, 100), imgui.ImVec2(240, 140))
        imgui.get_foreground_draw_list().add_image(   # a texture nobody has (any more)
            imgui.ImTextureRef(red.glo + 1000), imgui.ImVec2(250, 100), imgui.ImVec2(290, 140))

    def is_red(p):
        return (p[..., 0] == 255) & (p[..., 1] == 0) & (p[..., 2] == 0)

    try:
        _, pixels = frame(gui, image)
        assert is_red(pixels[100:140, 200:240]).all()
        assert not is_red(pixels[:, 241:]).any()
        assert (pixels[:40, :100, :3] > 100).any()   # the rest drawn: the window's text

        _, pixels = frame(gui, image, before_render=lambda: renderer.unregister_texture(red))
        assert not is_red(pixels).any() and (pixels[:40, :100, :3] > 100).any()
    finally:
        red.release()

