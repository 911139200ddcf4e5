"""Degrade selection and draw rotations of parts (GfxObjDegradeInfo::get_degrade 0x0051E4B0)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.render.fakes import GfxObjInfo
from viewer.render import degrade as D

ENTRIES = [GfxObjInfo(1, 2, 0.0, 10.0, 20.0), GfxObjInfo(2, 3, 10.0, 30.0, 40.0)]


def test_get_degrade_0x0051E4B0_within_50m_uses_entry_0():
    assert D.select_level(ENTRIES, 49.0, 1.0) == 0
    assert D.select_level(ENTRIES, 69.9, 1.0) == 0      # d = 19.9 < max 20 (m = +1)
    assert D.select_level(ENTRIES, 70.0, 1.0) == 1
    assert D.select_level(ENTRIES, 500.0, 1.0) == 1     # none -> last


def test_get_degrade_0x0051E4B0_distance_divided_by_scale():
    assert D.select_level(ENTRIES, 100.0, 2.0) == 0     # 100 / 2 - 50 = 0


def test_get_degrade_0x0051E4B0_multiplier_zero_uses_ideal():
    assert D.select_level(ENTRIES, 65.0, 1.0, m=0.0) == 1   # d = 15 >= ideal 10


def test_set_vector_heading_billboard_points_plus_Y_at_the_heading():
    r = D.heading_rotation((3.0, 4.0, 0.0))
    assert r[:, 1] == pytest.approx((0.6, 0.8, 0.0))
    assert r[2, 0] == pytest.approx(0.0)                # X stays horizontal
    assert np.linalg.det(r) == pytest.approx(1.0)


def test_set_vector_heading_vertical_heading_uses_90_degrees():
    r = D.heading_rotation((0.0, 0.0, -2.0))
    assert r[:, 0] == pytest.approx((0.0, -1.0, 0.0))
    assert r[:, 1] == pytest.approx((0.0, 0.0, -1.0))


def test_tiny_heading_defaults_to_up():
    assert D.heading_rotation((0.0, 0.0, 1e-5))[:, 1] == pytest.approx((0, 0, 1))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2), st.tuples(*[st.floats(-10, 10)] * 3))
def test_rotate_around_axis_to_vector_keeps_the_axis_and_stays_a_rotation(axis, h):
    r = D.axis_locked_rotation(np.eye(3), axis, h)
    assert r[:, axis] == pytest.approx(np.eye(3)[:, axis])
    with np.errstate(under="ignore"):
        assert r.T @ r == pytest.approx(np.eye(3), abs=1e-9)
        assert np.linalg.det(r) == pytest.approx(1.0)


def test_rotate_around_Z_turns_Y_towards_the_viewer():
    r = D.axis_locked_rotation(np.eye(3), 2, (1.0, 0.0, 5.0))
    assert r[:, 1] == pytest.approx((1.0, 0.0, 0.0))
    assert r[:, 0] == pytest.approx((0.0, -1.0, 0.0))


def test_draw_rotation_mode_1_keeps_the_part_frame():
    r = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], float)
    assert (D.draw_rotation(1, r, (1, 2, 3)) == r).all()
