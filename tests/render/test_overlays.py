"""Overlays: each kind toggled by the settings, drawn in world space."""

from __future__ import annotations

import numpy as np

from tests.render import scenes as S
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.overlays import overlay_vertices
from viewer.render.renderer import RenderSettings, SceneRenderer
from viewer.render.scene_input import Overlays, SphereOverlay, frame_matrix


def _ov():
    return Overlays([SphereOverlay((0, 0, 0), 1.0, "sorting"), SphereOverlay((0, 0, 0), 0.5,
                                                                             "shell")],
                    [frame_matrix((0, 0, 0), (1, 0, 0, 0))], [(0.0, 0.0, 1.0)])


def test_overlay_toggles():
    off = RenderSettings()
    lines, points = overlay_vertices(_ov(), off)
    assert len(lines) == 0 and len(points) == 0
    on = RenderSettings(show_spheres=True, show_part_axes=True, show_emitter_anchors=True)
    lines, points = overlay_vertices(_ov(), on)
    assert len(lines) == 2 * 3 * 32 * 2 + 6 and len(points) == 1
    spheres_only = RenderSettings(show_spheres=True)
    lines, _ = overlay_vertices(_ov(), spheres_only)
    assert len(lines) == 3 * 32 * 2  # the emitter shell belongs to the anchor toggle


def test_sphere_circle_points_lie_on_the_sphere():
    lines, _ = overlay_vertices(Overlays([SphereOverlay((1, 2, 3), 2.0)]),
                                RenderSettings(show_spheres=True))
    r = np.linalg.norm(lines[:, :3] - [1, 2, 3], axis=1)
    assert np.allclose(r, 2.0, atol=1e-5)


def test_overlays_draw(gl_ctx):
    settings = RenderSettings(background=(0, 0, 0, 1), show_grid=False, show_spheres=True,
                              show_part_axes=True, show_emitter_anchors=True)
    r = SceneRenderer(gl_ctx, S.build_db(), settings)
    t = OffscreenTarget(gl_ctx, (48, 36))
    try:
        sc = S.scene()
        sc.overlays = _ov()
        r.render(sc, S.oblique_camera(), t)
        assert (t.read_rgba()[..., :3].max(axis=-1) > 8).sum() > 20
    finally:
        r.release()
        t.release()
