"""Frame math (Frame / AFrame)."""

import math

import numpy as np
import pytest

from viewer.sim.frame import Frame, heading_of, quat_rotate, quat_rotate_many, quat_to_matrix


def close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_set_vector_heading_points_local_y_along_v_without_roll():
    v = (1.0, 1.0, 1.0)
    f = Frame().set_vector_heading(v)
    n = 1 / math.sqrt(3)
    assert close(f.local_to_global_vec((0, 1, 0)), (n, n, n))
    assert abs(f.local_to_global_vec((1, 0, 0))[2]) < 1e-12  # local +X horizontal


def test_set_vector_heading_small_vector_keeps_rotation():
    f = Frame().set_heading(90)
    assert f.set_vector_heading((1e-5, 0, 0)) == f


def test_heading_compass_convention():
    assert heading_of((0, 1, 0)) % 360 == pytest.approx(0.0, abs=1e-9)
    assert heading_of((1, 0, 0)) == pytest.approx(90.0)
    f = Frame().set_heading(90)
    assert close(f.local_to_global_vec((0, 1, 0)), (1, 0, 0))


def test_combine_then_subtract1_round_trips():
    a = Frame((1, 2, 3)).set_heading(30)
    b = Frame((0.5, -1, 2)).set_vector_heading((0.2, 0.3, 0.9))
    c = a.combine(b)
    back = c.subtract1(b)
    assert close(back.origin, a.origin) and close(back.orientation, a.orientation)


def test_combine_scaled_scales_child_origin_only():
    root = Frame((0, 0, 1)).set_heading(90)
    part = Frame((0, 1, 0)).set_heading(45)
    f = root.combine_scaled(part, (2, 2, 2))
    assert close(f.origin, (2, 0, 1))
    assert close(f.orientation, root.combine(part).orientation)


def test_grotate_left_multiplies_and_ignores_tiny_omega():
    f = Frame().set_heading(90)
    assert f.grotate((0, 0, 1e-5)) == f
    g = f.grotate((0, 0, math.pi / 2))  # +90 deg about world Z turns +X into +Y
    assert close(g.local_to_global_vec((0, 1, 0)), (0, 1, 0))
    # rotate() is about a local axis: local Z is world Z here, so the same result
    assert close(f.rotate((0, 0, math.pi / 2)).orientation, g.orientation)


def test_rotate_many_matches_single_and_matrix():
    q = Frame().set_vector_heading((0.3, -0.4, 0.5)).orientation
    v = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])
    many = quat_rotate_many(q, v)
    for i in range(2):
        assert close(many[i], quat_rotate(q, tuple(v[i])))
        assert close(many[i], quat_to_matrix(q) @ v[i])


def test_a_frame_is_a_value_copies_share_it_and_it_stays_frozen():
    import copy
    import dataclasses
    f = Frame((1.0, -0.0, 2.5), (0.5, 0.5, -0.5, 0.5))
    assert copy.deepcopy(f) is f and copy.copy(f) is f  # a world snapshot shares Frames
    assert Frame((1.0, -0.0, 2.5), (0.5, 0.5, -0.5, 0.5)) == f
    assert Frame() == Frame((0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0))
    assert Frame(origin=(1.0, 2.0, 3.0)).orientation == (1.0, 0.0, 0.0, 0.0)
    assert dataclasses.replace(f, origin=(0.0, 0.0, 0.0)).orientation == f.orientation
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.origin = (0.0, 0.0, 0.0)
