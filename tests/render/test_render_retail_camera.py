"""``vfxviewer render --camera retail``: the retail client's chase camera behind object 1
(CameraSet::SetDefaultOffsets 0x00458F80, Render::SetFOVRad 0x0054B2D0)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from viewer.commands.render import build_parser_args, make_camera
from viewer.errors import ScenarioError
from viewer.sim.frame import Frame


class _Obj:
    def __init__(self, frame):
        self.frame = frame


class _World:
    def __init__(self, objects):
        self.objects = objects


def test_camera_retail_stands_behind_object_1_with_retail_fov():
    world = _World({1: _Obj(Frame.from_heading((2.0, 3.0, 0.0), 90.0))})  # facing +X
    args = build_parser_args(["--setup", "1", "--out", "x.png", "--camera", "retail"])
    cam = make_camera(args, world)
    # pivot 1.5 m up, offset (0, -2.5, 0.75) in the object's frame: 2.5 m behind along -X
    assert np.allclose(cam.eye(), (2.0 - 2.5, 3.0, 2.25), atol=1e-9)
    assert cam.fov_mode == "retail" and cam.near == pytest.approx(0.1)
    assert cam.fov_y_for(16 / 9) == pytest.approx(math.degrees((math.pi / 2) / (16 / 9 - 0.1)))


def test_camera_retail_needs_an_object():
    with pytest.raises(ScenarioError, match="retail"):
        make_camera(build_parser_args(["--setup", "1", "--out", "x.png", "--camera", "retail"]),
                    _World({}))
