"""Ground grid and world axes: geometry, and where they land on screen (EGL)."""

from __future__ import annotations

import numpy as np

from viewer.render.camera import Camera
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.grid import AXIS_X, AXIS_Y, AXIS_Z, GridPass, grid_vertices


def test_grid_vertices_are_line_pairs_with_three_axes():
    v = grid_vertices(half_extent=4, axis_length=1.0)
    assert v.dtype == np.float32 and v.shape[1] == 7 and len(v) % 2 == 0
    for axis in (AXIS_X, AXIS_Y, AXIS_Z):
        assert np.isclose(v[:, 3:], np.float32(axis)).all(axis=1).sum() == 2
    assert (v[:, 2] != 0).sum() == 1   # only the Z axis leaves the ground plane


def _project(cam, target, p):
    clip = cam.view_projection(target.aspect) @ np.array([*p, 1.0])
    ndc = clip[:3] / clip[3]
    x = round((ndc[0] + 1) / 2 * target.width)
    y = round((1 - ndc[1]) / 2 * target.height)
    return x, y


def test_axes_render_in_their_colours(gl_ctx):
    target = OffscreenTarget(gl_ctx, (96, 72))
    grid = GridPass(gl_ctx, half_extent=4)
    cam = Camera(target=(0, 0, 0), distance=3.0)
    target.use()
    target.clear((0, 0, 0, 1))
    grid.draw(cam.view_projection(target.aspect), cam.eye())
    img = target.read_rgba()
    for end, colour in (((0.6, 0, 0), AXIS_X), ((0, 0.6, 0), AXIS_Y), ((0, 0, 0.6), AXIS_Z)):
        x, y = _project(cam, target, end)
        patch = img[y - 1:y + 2, x - 1:x + 2, :3].reshape(-1, 3).astype(int)
        want = np.array(colour[:3]) * 255
        assert np.abs(patch - want).sum(axis=1).min() < 60, (end, patch)
    assert (img[..., 3] == 255).all()   # the viewport texture stays opaque
    grid.release()
    target.release()


def test_offscreen_target_resize_and_readback_orientation(gl_ctx):
    target = OffscreenTarget(gl_ctx, (8, 4))
    assert not target.resize((8, 4))
    assert target.resize((6, 5)) and target.size == (6, 5)
    target.use()
    target.clear((0, 0, 0, 1))
    gl_ctx.scissor = (0, 0, 6, 1)       # GL's bottom row
    target.fbo.clear(1.0, 0.0, 0.0, 1.0)
    gl_ctx.scissor = None
    img = target.read_rgba()
    assert img.shape == (5, 6, 4)
    assert (img[-1, :, 0] == 255).all() and (img[0, :, 0] == 0).all()
    target.release()
