"""CTransition::adjust_offset 0x0050A370 and Plane::snap_to_plane 0x00509C50, each
branch with exact values."""

from __future__ import annotations

import pytest

from viewer.sim import collision as co
from viewer.sim import physics as ph
from viewer.sim.frame import EPS, Frame


def transition(center=(0.0, 0.0, 10.0), radius=0.5, **opts) -> co.CTransition:
    b = ph.PhysicsBody(state=0, spheres=(((0.0, 0.0, 0.0), radius),), frame=Frame(center))
    return co.CTransition(b, b.frame, b.frame, (), co.AdjustOptions(**opts))


def contact(tr, n, d=0.0, water=False, cell=co.WORLD_CELL):
    ci = tr.collision_info
    ci.contact_plane_valid = True
    ci.contact_plane = (n, d)
    ci.contact_plane_is_water = water
    ci.contact_plane_cell_id = cell


def slide(tr, n):
    tr.collision_info.sliding_normal_valid = True
    tr.collision_info.sliding_normal = n


def approx(v):
    return pytest.approx(v, abs=1e-12)


# -- snap_to_plane ----------------------------------------------------------------------------
def test_snap_to_plane_0x00509C50_resolves_only_z():
    assert co.snap_to_plane(((0.0, 0.6, 0.8), 5.0), (2.0, 1.0, 7.0)) == approx((2.0, 1.0, -0.75))


def test_snap_to_plane_0x00509C50_near_vertical_is_noop():
    n = (1.0, 0.0, EPS)   # |N.z| <= EPS
    assert co.snap_to_plane((n, 0.0), (2.0, 1.0, 7.0)) == (2.0, 1.0, 7.0)


def test_snap_to_plane_0x00509C50_d_cancels():
    a = co.snap_to_plane(((0.0, 0.6, 0.8), 0.0), (0.0, 1.0, 1.0))
    b = co.snap_to_plane(((0.0, 0.6, 0.8), -123.0), (0.0, 1.0, 1.0))
    assert a == b


# -- adjust_offset ----------------------------------------------------------------------------
def test_adjust_offset_0x0050A370_no_contact_no_slide_unchanged():
    assert transition().adjust_offset((1.0, 2.0, 3.0)) == (1.0, 2.0, 3.0)


def test_adjust_offset_0x0050A370_sliding_normal_gate_clears_when_not_into_it():
    tr = transition()
    slide(tr, (1.0, 0.0, 0.0))
    assert tr.adjust_offset((1.0, 2.0, 0.0)) == (1.0, 2.0, 0.0)
    assert tr.collision_info.sliding_normal_valid is False


def test_adjust_offset_0x0050A370_no_contact_slide_removes_normal_component():
    tr = transition()
    slide(tr, (1.0, 0.0, 0.0))
    assert tr.adjust_offset((-2.0, 3.0, 1.0)) == approx((0.0, 3.0, 1.0))
    assert tr.collision_info.sliding_normal_valid is True


def test_adjust_offset_0x0050A370_crease_slide_along_cross_of_plane_and_slide():
    tr = transition()
    contact(tr, (0.0, 0.0, 1.0))
    slide(tr, (1.0, 0.0, 0.0))
    # cross(N, sliding) = (0, 1, 0): offset projected on it
    assert tr.adjust_offset((-1.0, 2.0, -3.0)) == approx((0.0, 2.0, 0.0))


def test_adjust_offset_0x0050A370_crease_degenerate_is_zero():
    tr = transition()
    contact(tr, (1.0, 0.0, 0.0))   # plane normal parallel to the sliding normal
    slide(tr, (1.0, 0.0, 0.0))
    assert tr.adjust_offset((-1.0, 2.0, 3.0)) == (0.0, 0.0, 0.0)


def test_adjust_offset_0x0050A370_into_plane_subtracts_normal_component():
    tr = transition()
    contact(tr, (0.0, 0.6, 0.8))
    # angle = -0.6 - 0.8 = -1.4 <= 0: offset - N * angle
    assert tr.adjust_offset((0.0, -1.0, -1.0)) == approx((0.0, -1.0 + 0.84, -1.0 + 1.12))


def test_adjust_offset_0x0050A370_parallel_offset_takes_into_plane_arm():
    tr = transition()
    contact(tr, (0.0, 0.0, 1.0))
    assert tr.adjust_offset((1.0, 0.0, 0.0)) == (1.0, 0.0, 0.0)   # angle 0 <= 0


def test_adjust_offset_0x0050A370_away_from_plane_snaps_not_subtracts():
    tr = transition()
    contact(tr, (0.0, 0.6, 0.8))
    # angle = 1.4 > 0: snap_to_plane keeps X, Y; Z = -(0.6 * 1) / 0.8
    out = tr.adjust_offset((0.0, 1.0, 1.0))
    assert out == approx((0.0, 1.0, -0.75))
    assert out != approx((0.0, 1.0 - 0.84, 1.0 - 1.12))


# -- safety push-out -------------------------------------------------------------------------------
def _push(center_z, n=(0.0, 0.6, 0.8), **opts):
    tr = transition(center=(0.0, 0.0, center_z), radius=0.5, **opts)
    contact(tr, n)
    tr.adjust_offset((0.0, 0.0, 0.0))
    return tr.sphere_path.check_pos.origin[2] - center_z


def test_adjust_offset_0x0050A5CF_bare_radius_safety_push():
    # dist = 0.8 * 0.3 = 0.24 < 0.5 - EPS: push (0.5 - 0.24) / 0.8 = 0.325 up
    assert _push(0.3) == pytest.approx(0.325, abs=1e-12)


def test_adjust_offset_0x0050A5CF_radius_times_nz_switch_alternative():
    # the withheld alternative: (0.5 * 0.8 - 0.24) / 0.8 = 0.2
    assert _push(0.3, radius_times_nz=True) == pytest.approx(0.2, abs=1e-12)


def test_adjust_offset_0x0050A5CF_bare_radius_pushes_where_alternative_does_not():
    # dist = 0.45: bare pushes 0.0625, radius*N.z (0.4) does not
    assert _push(0.5625) == pytest.approx(0.0625, abs=1e-12)
    assert _push(0.5625, radius_times_nz=True) == 0.0


def test_adjust_offset_0x0050A5E9_push_bounded_by_radius():
    # dist = -0.3 on a steep plane: z push (0.8 / 0.6) exceeds the radius, so none
    assert _push(-0.5, n=(0.8, 0.0, 0.6)) == 0.0


def test_adjust_offset_0x0050A571_no_push_on_water_or_cell_zero():
    for kw in ({"water": True}, {"cell": 0}):
        tr = transition(center=(0.0, 0.0, 0.3))
        contact(tr, (0.0, 0.6, 0.8), **kw)
        tr.adjust_offset((0.0, 0.0, 0.0))
        assert tr.sphere_path.check_pos.origin == (0.0, 0.0, 0.3)


def test_adjust_offset_0x0050A5CF_clear_of_plane_no_push():
    assert _push(5.0) == 0.0
