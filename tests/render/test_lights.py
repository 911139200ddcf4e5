"""Light creation, selection and packing (docs/retail-rules.md, Rendering)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from viewer.dat.records.common import Frame
from viewer.dat.records.setup import LightInfo
from viewer.render.lights import lights_from_setup, max_dynamic_lights, pack_lights, select_lights
from viewer.render.scene_input import SceneLight

Q90Z = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))


def point(x, falloff=2.0, owner=0):
    return SceneLight(0, (x, 0.0, 0.0), (0, 1, 0), (1, 1, 1), 1.0, falloff, 0.0, owner)


def test_light_frame_is_object_frame_combined_with_offset():
    li = LightInfo(2, Frame((1.0, 0.0, 0.0), (1.0, 0, 0, 0)), 0xFF804020, 2.0, 3.0, 0.5)
    (light,) = lights_from_setup([li], (10.0, 0.0, 0.0), Q90Z, 0x800)
    assert light.position == pytest.approx((10.0, 1.0, 0.0), abs=1e-6)
    assert light.direction == pytest.approx((-1.0, 0.0, 0.0), abs=1e-6)  # local +Y turned
    assert light.color == pytest.approx((0x80 / 255, 0x40 / 255, 0x20 / 255))
    assert light.kind == 2 and light.intensity == 2.0


def test_set_state_0x00514DD0_no_lights_without_LIGHTING_ON():
    li = LightInfo(0, Frame(), 0xFFFFFFFF, 1.0, 1.0, 0.0)
    assert lights_from_setup([li], (0, 0, 0), (1, 0, 0, 0), 0x00400408) == []


def test_uninitialised_cone_angle_is_kept_finite():
    li = LightInfo(0, Frame(), 0xFFFFFFFF, 1.0, 1.0, -431602080.0)
    (light,) = lights_from_setup([li], (0, 0, 0), (1, 0, 0, 0), 0x800)
    n, _, _, cols = pack_lights([light])
    assert np.isfinite(cols).all() and n == 1


def test_max_dynamic_lights_steady_state_is_10():
    assert max_dynamic_lights(1.0) == 10 and max_dynamic_lights(0.0) == 7
    assert max_dynamic_lights(-1.0) == 5


def test_selection_sorted_by_viewer_distance_capped_and_range_tested():
    lights = [point(float(x)) for x in range(20, 0, -1)]
    chosen = select_lights(lights, (0, 0, 0), (5.0, 0, 0), 1.0, max_dynamic=10)
    # the 10 nearest the viewer are 1..10; only those within falloff + radius (3 m) of the
    # object at x = 5 light it: x in 2..8
    assert [light.position[0] for light in chosen] == [2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]


def test_at_most_8_hardware_lights_and_directional_always_first():
    sun = SceneLight(1, (0, 0, 0), (0, 0, -1), (1, 1, 1), 1.0, 0.0)
    lights = [point(0.1 * i, falloff=100.0) for i in range(1, 12)] + [sun]
    chosen = select_lights(lights, (0, 0, 0), (0, 0, 0), 1.0, max_dynamic=20)
    assert len(chosen) == 8 and chosen[0] is sun


def test_pack_lights_range_is_falloff_times_1_5_and_spot_cone_cosine():
    spot = SceneLight(2, (0, 0, 0), (0, 1, 0), (1, 0.5, 0), 2.0, 4.0, math.pi / 2)
    _, _, dirs, cols = pack_lights([spot])
    assert dirs[0, 3] == pytest.approx(6.0)
    assert cols[0, :3].tolist() == pytest.approx([2.0, 1.0, 0.0])
    assert cols[0, 3] == pytest.approx(math.cos(math.pi / 4))


def test_apply_lights_sets_the_uniforms_once_while_the_lights_stay_the_same():
    from viewer.render import lights as L

    class Member:
        def __init__(self):
            self.writes = 0

        def write(self, data):
            self.writes += 1

    class Prog(dict):
        pass

    prog = Prog(u_light_pos=Member(), u_light_dir=Member(), u_light_color=Member())
    sun = SceneLight(1, (0.0, 0.0, 0.0), (0.0, 0.0, -1.0), (1.0, 1.0, 1.0), 1.0, 0.0)
    lamp = SceneLight(0, (1.0, 2.0, 3.0), (0.0, 1.0, 0.0), (1.0, 0.5, 0.0), 2.0, 4.0)
    for lights, lighting, ambient, writes in (([sun], True, (0.4,) * 3, 1),
                                              ([sun], True, (0.4,) * 3, 1),   # unchanged
                                              ([sun, lamp], True, (0.4,) * 3, 2),
                                              ([sun, lamp], False, (0.4,) * 3, 3),
                                              ([sun, lamp], False, (0.5,) * 3, 4),
                                              ([sun, lamp], False, (0.5,) * 3, 4)):
        L.apply_lights(prog, lights, lighting=lighting, ambient=ambient)
        assert prog["u_light_pos"].writes == writes
