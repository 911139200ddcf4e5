"""Part pose composition (CPartArray::UpdateParts 0x005190F0)."""

from __future__ import annotations

import math

import pytest
from anim_builders import setup, zrot

from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.setup import LocationType
from viewer.sim.frame import IDENTITY, Frame
from viewer.sim.poses import (
    PartPoses,
    compose,
    drawable_scales,
    holding_location,
    pose_events,
    update_parts,
)


def close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_UpdateParts_0x005190F0_object_scale_multiplies_origin_only():
    obj = Frame((10.0, 0.0, 0.0), zrot(90.0))
    part = RFrame((1.0, 0.0, 0.5), zrot(30.0))
    (p,) = update_parts(obj, [part], 1, scale=2.0)
    assert close(p.origin, (10.0, 2.0, 1.0))           # R(90 z).(2, 0, 1) + (10, 0, 0)
    assert close(p.orientation, zrot(120.0))          # rotation unscaled
    (q,) = update_parts(obj, [part], 1, scale=1.0)
    assert close(q.orientation, p.orientation)


def test_UpdateParts_non_uniform_scale_is_componentwise_on_the_part_origin():
    (p,) = update_parts(IDENTITY, [RFrame((1.0, 1.0, 1.0))], 1, scale=(1.0, 2.0, 3.0))
    assert close(p.origin, (1.0, 2.0, 3.0))


def test_UpdateParts_parts_beyond_frame_part_count_keep_previous_pose():
    prev = (Frame((5.0, 5.0, 5.0)), Frame((6.0, 6.0, 6.0)), Frame((7.0, 7.0, 7.0)))
    parts = update_parts(IDENTITY, [RFrame((1.0, 0.0, 0.0))], 3, previous=prev)
    assert close(parts[0].origin, (1.0, 0.0, 0.0))
    assert parts[1] == prev[1] and parts[2] == prev[2]


def test_UpdateParts_without_anim_frame_leaves_every_part():
    prev = (Frame((5.0, 5.0, 5.0)),)
    assert update_parts(Frame((1.0, 1.0, 1.0)), None, 1, previous=prev) == prev


def test_part_index_minus_one_and_out_of_range_mean_the_root():
    poses = compose(Frame((1.0, 2.0, 3.0)), [RFrame((0.0, 0.0, 1.0))], 1)
    assert poses.part(-1) == poses.root
    assert poses.part(7) == poses.root
    assert close(poses.part(0).origin, (1.0, 2.0, 4.0))


def test_UpdateChild_0x00512D50_child_follows_parent_part_pose():
    obj = Frame((0.0, 0.0, 0.0), zrot(90.0))
    poses = compose(obj, [RFrame((1.0, 0.0, 0.0), zrot(0.0))], 1)
    child = poses.child_frame(0, RFrame((0.0, 1.0, 0.0)))
    assert close(child.origin, (-1.0, 1.0, 0.0))      # part at (0,1,0); offset +Y -> -X
    assert close(child.orientation, zrot(90.0))


def test_SetScaleInternal_0x00518A00_drawable_scale_is_default_scale_times_object_scale():
    s = setup(0x02000009, 2, default_scale=((0.5, 0.5, 0.5), (1.0, 2.0, 1.0)))
    assert drawable_scales(s, 2.0) == ((1.0, 1.0, 1.0), (2.0, 4.0, 2.0))
    s2 = setup(0x0200000A, 2)
    assert drawable_scales(s2, 3.0) == ((3.0, 3.0, 3.0), (3.0, 3.0, 3.0))


def test_holding_location_returns_part_and_offset():
    s = setup(0x0200000B, 2, holding=((1, LocationType(1, RFrame((0.0, 0.1, 0.0)))),))
    part, offset = holding_location(s, 1)
    assert part == 1 and offset.origin == (0.0, 0.1, 0.0)
    assert holding_location(s, 2) is None


def test_pose_events_root_then_each_part():
    poses = PartPoses(Frame((1.0, 0.0, 0.0)), (Frame((2.0, 0.0, 0.0)),))
    ev = pose_events(0.5, 7, poses)
    assert [e["part"] for e in ev] == [-1, 0]
    assert ev[1] == {"t": 0.5, "event": "pose", "owner": 7, "part": 0,
                     "origin": [2.0, 0.0, 0.0], "orientation": [1.0, 0.0, 0.0, 0.0]}
    n = math.sqrt(sum(c * c for c in ev[0]["orientation"]))
    assert n == pytest.approx(1.0)
