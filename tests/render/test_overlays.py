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


def test_overlay_vertex_arrays_are_kept_across_frames_and_rebuilt_when_buffers_grow(gl_ctx):
    import moderngl
    settings = RenderSettings(background=(0, 0, 0, 1), show_grid=False, show_spheres=True)
    r = SceneRenderer(gl_ctx, S.build_db(), settings)
    t = OffscreenTarget(gl_ctx, (48, 36))
    try:
        sc = S.scene()
        sc.overlays = Overlays([SphereOverlay((0, 0, 0), 1.0, "sorting")])
        r.render(sc, S.oblique_camera(), t)
        vao = r._overlays.vaos[moderngl.LINES]
        r.render(sc, S.oblique_camera(), t)
        assert r._overlays.vaos[moderngl.LINES] is vao  # no vertex array per frame
        sc.overlays = Overlays([SphereOverlay((0, 0, 0), 0.1 * (i + 1), "sorting")
                                for i in range(40)])
        r.render(sc, S.oblique_camera(), t)  # more lines than the buffer holds
        assert r._overlays.vaos[moderngl.LINES] is not vao
        assert (t.read_rgba()[..., :3].max(axis=-1) > 8).sum() > 20
    finally:
        r.release()
        t.release()


# --- world collision shapes (CollisionWorld.describe(), viewer/sim/collision.py) -------------
SHAPES = [{"kind": "plane", "normal": [0.0, 0.0, 1.0], "d": 0.0, "name": "ground"},
          {"kind": "box", "min": [0.5, -0.5, 0.0], "max": [1.0, 0.5, 1.0], "name": "wall"},
          {"kind": "sphere", "center": [-0.8, 0.0, 0.5], "radius": 0.4, "name": "target"},
          {"kind": "cylinder", "low_point": [0.0, 0.8, 0.0], "radius": 0.25, "height": 1.0,
           "name": "post"}]


def _coll_ov():
    ov = Overlays()
    ov.collision = [dict(s) for s in SHAPES]
    return ov


def test_collision_overlay_is_toggled_by_show_collision():
    lines, _ = overlay_vertices(_coll_ov(), RenderSettings(show_spheres=True))
    assert len(lines) == 0
    lines, _ = overlay_vertices(_coll_ov(), RenderSettings(show_collision=True))
    assert len(lines) == 11 * 4 + 24 + 3 * 32 * 2 + (2 * 32 * 2 + 4 * 2)


def test_collision_overlay_lines_lie_on_their_shapes():
    from viewer.render.overlays import box_lines, cylinder_lines, plane_lines
    p = plane_lines((0.0, 0.0, 2.0), -2.0, (1, 1, 1, 1))    # 2z - 2 = 0: z = 1
    assert np.allclose(p[:, 2], 1.0)
    assert np.allclose(np.abs(p[:, :2]).max(), 5.0)
    b = box_lines((0, 0, 0), (1, 2, 3), (1, 1, 1, 1))
    assert len(b) == 24                                     # 12 edges
    on_faces = np.isclose(b[:, :3], 0) | np.isclose(b[:, :3], [1, 2, 3])
    assert (on_faces.sum(axis=1) >= 2).all()                # every point on an edge
    c = cylinder_lines((1, 1, 0.5), 0.5, 2.0, (1, 1, 1, 1))
    assert np.allclose(np.linalg.norm(c[:, :2] - [1, 1], axis=1), 0.5, atol=1e-5)
    assert set(np.round(c[:, 2], 5)) == {0.5, 2.5}


def test_scene_input_carries_the_world_collision_shapes():
    from viewer.render.world_adapter import build_scene_input
    from viewer.sim.world import World
    world = World(None)
    world.collision.describe = lambda: SHAPES
    assert build_scene_input(world).overlays.collision == SHAPES


def test_collision_overlay_golden(gl_ctx, regen_goldens):
    from tests.imagecheck import assert_image_matches
    settings = RenderSettings(background=(0, 0, 0, 1), show_grid=False, show_collision=True)
    r = SceneRenderer(gl_ctx, S.build_db(), settings)
    t = OffscreenTarget(gl_ctx, (96, 72))
    try:
        sc = S.scene()
        sc.overlays = _coll_ov()
        r.render(sc, S.oblique_camera(), t)
        img = t.read_rgba()
        assert (img[..., :3].max(axis=-1) > 8).sum() > 200
        assert_image_matches(img, "render/collision_overlay.png", tol=3,
                             max_bad_fraction=0.01, regen=regen_goldens)
    finally:
        r.release()
        t.release()
