"""The one shader loader (programs.py): includes expanded, sources and programs cached, and
every pass (the grid included) compiled through it; per-call render settings."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.render import scenes as S
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.grid import GridPass
from viewer.render.programs import load_program, shader_source
from viewer.render.renderer import RenderSettings, SceneRenderer


def test_shader_source_expands_include_lines_once_per_process():
    text = shader_source("mesh.vert.glsl")
    assert "#include" not in text
    assert shader_source("lighting.glsl").strip() in text
    assert shader_source("mesh.vert.glsl") is text      # read once


def test_grid_pass_compiles_through_the_shared_program_cache(gl_ctx):
    grid = GridPass(gl_ctx, half_extent=2)
    assert grid.program is load_program(gl_ctx, "grid")
    grid.release()                                       # the cached program stays usable
    again = GridPass(gl_ctx, half_extent=2)
    assert again.program is load_program(gl_ctx, "grid")
    again.release()


def test_renderer_draws_with_a_shared_grid_and_leaves_it_to_its_owner(gl_ctx):
    grid = GridPass(gl_ctx, half_extent=2)
    r = SceneRenderer(gl_ctx, S.build_db(), grid=grid)
    t = OffscreenTarget(gl_ctx, (32, 24))
    try:
        r.render(S.scene(), S.oblique_camera(), t)
        assert r.grid is grid
        r.release()
        grid.draw(np.eye(4), (0.0, 0.0, 1.0))           # not released by the renderer
    finally:
        grid.release()
        t.release()


def test_render_settings_argument_applies_to_that_frame_only(gl_ctx):
    settings = RenderSettings(background=(0.0, 0.0, 1.0, 1.0), show_grid=False)
    r = SceneRenderer(gl_ctx, S.build_db(), settings)
    t = OffscreenTarget(gl_ctx, (16, 12))
    try:
        clear = replace(settings, background=(0.0, 0.0, 0.0, 0.0))
        r.render(S.scene(), S.oblique_camera(), t, settings=clear)
        assert (t.read_rgba()[0, 0] == 0).all()          # transparent corner
        assert r.settings is settings
        r.render(S.scene(), S.oblique_camera(), t)
        assert tuple(t.read_rgba()[0, 0]) == (0, 0, 255, 255)
    finally:
        r.release()
        t.release()
