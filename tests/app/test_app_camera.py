"""Camera math (GL-free): orbit, pan, zoom, fly, framing, presets, bookmarks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.render.camera import (
    MAX_DISTANCE,
    MIN_DISTANCE,
    PITCH_LIMIT,
    Bookmarks,
    Camera,
    look_at,
    perspective,
    preset,
)


def test_eye_is_distance_from_target_and_view_maps_target_ahead():
    cam = Camera(target=(1.0, 2.0, 3.0), distance=5.0)
    assert np.linalg.norm(cam.eye() - np.array(cam.target)) == pytest.approx(5.0)
    p = cam.view_matrix() @ np.array([*cam.target, 1.0])
    assert p[:2] == pytest.approx([0.0, 0.0], abs=1e-5) and p[2] == pytest.approx(-5.0, rel=1e-5)


def test_world_up_is_screen_up():
    cam = Camera(target=(0, 0, 0), pitch=0.2)
    vp = cam.view_projection(1.0)
    above = vp @ np.array([0, 0, 1.0, 1.0])
    below = vp @ np.array([0, 0, -1.0, 1.0])
    assert above[1] / above[3] > 0 > below[1] / below[3]


def test_orbit_clamps_pitch_and_wraps_yaw():
    cam = Camera().orbit(0, 1e6)
    assert cam.pitch == pytest.approx(PITCH_LIMIT)
    cam = Camera().orbit(0, -1e6)
    assert cam.pitch == pytest.approx(-PITCH_LIMIT)
    assert 0 <= Camera().orbit(12345, 0).yaw < 2 * math.pi


def test_zoom_in_and_out_is_clamped():
    assert Camera(distance=6).zoom(1).distance < 6
    assert Camera(distance=6).zoom(-1).distance > 6
    assert Camera().zoom(1e4).distance == MIN_DISTANCE
    assert Camera().zoom(-1e4).distance == MAX_DISTANCE


def test_pan_moves_target_across_the_view_not_along_it():
    cam = Camera(target=(0, 0, 0))
    moved = cam.pan(100, 0, 600)
    delta = np.array(moved.target) - np.array(cam.target)
    assert abs(float(delta @ cam.forward())) < 1e-9
    assert float(delta @ cam.right()) < 0     # dragging right moves the scene right
    assert moved.distance == cam.distance


def test_fly_moves_eye_and_target_together():
    cam = Camera(target=(0, 0, 0))
    flown = cam.fly(1.0, 0.0, 0.0)
    assert np.allclose(flown.eye() - cam.eye(), cam.forward())
    assert np.allclose(np.array(flown.target) - cam.target, cam.forward())


def test_framed_fits_the_sphere():
    cam = Camera().framed((1, 1, 1), 2.0)
    assert cam.target == (1.0, 1.0, 1.0)
    assert cam.distance * math.sin(math.radians(cam.fov_y_deg) / 2) >= 2.0


def test_presets_and_bookmarks():
    top = preset(Camera(), "top")
    assert top.pitch == pytest.approx(PITCH_LIMIT)
    marks = Bookmarks()
    marks.save("a", top)
    assert marks.get("a") == top and marks.get("b") is None


def test_look_at_straight_down_is_finite():
    m = look_at((0, 0, 5), (0, 0, 0))
    assert np.isfinite(m).all()


@settings(max_examples=40, deadline=None)
@given(st.floats(-3, 3), st.floats(-1.5, 1.5), st.floats(0.1, 100))
def test_target_projects_to_screen_centre(yaw, pitch, distance):
    cam = Camera(target=(3.0, -2.0, 1.0), yaw=yaw, pitch=pitch, distance=distance)
    clip = cam.view_projection(1.5) @ np.array([*cam.target, 1.0])
    assert clip[0] / clip[3] == pytest.approx(0.0, abs=1e-4)
    assert clip[1] / clip[3] == pytest.approx(0.0, abs=1e-4)


def test_perspective_depth_range():
    p = perspective(60, 1.0, 0.1, 100)
    near = p @ np.array([0, 0, -0.1, 1.0])
    far = p @ np.array([0, 0, -100, 1.0])
    assert near[2] / near[3] == pytest.approx(-1.0, abs=1e-4)
    assert far[2] / far[3] == pytest.approx(1.0, abs=1e-4)
