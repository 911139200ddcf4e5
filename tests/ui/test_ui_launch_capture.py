"""GL-free logic of the launch panel (issue 11), the capture panel and the retail camera
preset."""

from __future__ import annotations

import math

import numpy as np
import pytest
import ui_fixtures as F

from viewer.errors import ScenarioError
from viewer.render.camera import (
    RETAIL_MIN_ASPECT,
    RETAIL_ZNEAR,
    Camera,
    preset,
    retail_camera,
    retail_camera_for,
    retail_fov_y,
    retail_half_width,
)
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.capture_panel import CapturePanelState, export_command, export_path
from viewer.ui.controller import Controller
from viewer.ui.launch_panel import LaunchPanelState, LaunchView, launch_command
from viewer.ui.session import Session


@pytest.fixture(scope="module")
def db():
    return F.projectile_database()


def session(db, seconds=2.0):
    return Session(db, Scenario.from_json(F.scenario_json(seconds=seconds)))


# --- retail camera ------------------------------------------------------------------------------
@pytest.mark.parametrize("aspect", [4 / 3, 16 / 9, 16 / 10, 2.4])
def test_SetFOVRad_0x0054B2D0_vertical_fov_is_game_fov_over_aspect_minus_0_1(aspect):
    fov = retail_fov_y(aspect)
    assert fov == pytest.approx((math.pi / 2) / (aspect - 0.1))
    cam = retail_camera()
    m = cam.projection_matrix(aspect)
    assert m[1, 1] == pytest.approx(1 / math.tan(fov / 2), rel=1e-5)
    assert m[0, 0] == pytest.approx(m[1, 1] / aspect, rel=1e-5)
    assert cam.near == RETAIL_ZNEAR == 0.1


@pytest.mark.parametrize("aspect", [0.4, 1.0, 1.78, 2.4])
def test_retail_camera_fov_below_180_and_keeps_retails_horizontal_extent(aspect):
    """Narrower than 4:3 (retail never drew it) the Retail camera keeps the horizontal
    extent retail shows at 4:3; at 4:3 and wider it is retail's formula. A point on the
    view's right edge at unit depth projects to NDC x = 1."""
    cam = retail_camera()
    fov = retail_fov_y(aspect)
    assert 0 < math.degrees(fov) < 180 and 0 < cam.fov_y_for(aspect) < 180
    half_w = aspect * math.tan(fov / 2)
    want = retail_half_width(aspect) if aspect >= RETAIL_MIN_ASPECT else retail_half_width()
    assert half_w == pytest.approx(want, rel=1e-9)
    assert half_w <= retail_half_width(1.0)       # never wider than the raw formula's
    # the projection shows exactly that extent
    m = cam.projection_matrix(aspect)
    edge = m @ np.array([want, 0.0, -1.0, 1.0])   # eye space: looking down -Z
    assert edge[0] / edge[3] == pytest.approx(1.0, rel=1e-5)


def test_retail_fov_never_divides_by_zero():
    for aspect in (0.1, 0.05, 0.0, -1.0, float("nan"), float("inf")):
        assert 0 < retail_fov_y(aspect) < math.pi


def test_SetDefaultOffsets_0x00458F80_eye_behind_and_above_looking_along_heading():
    cam = retail_camera((10.0, 20.0, 0.0), (0.0, 1.0, 0.0))
    assert cam.eye() == pytest.approx([10.0, 17.5, 2.25])      # pivot 1.5 + 0.75; 2.5 back
    assert cam.forward() == pytest.approx([0.0, 1.0, 0.0], abs=1e-9)   # LOOK_IN_DIRECTION
    east = retail_camera((0.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert east.eye() == pytest.approx([-2.5, 0.0, 2.25])
    assert east.forward() == pytest.approx([1.0, 0.0, 0.0], abs=1e-9)


def test_SetInHead_0x00458CE0_first_person_offset():
    cam = retail_camera((0.0, 0.0, 0.0), (0.0, 1.0, 0.0), in_head=True)
    assert cam.eye() == pytest.approx([0.0, 0.18, 1.5])


def test_fixed_presets_leave_the_retail_fov():
    cam = preset(retail_camera(), "front")
    assert cam.fov_mode == "fixed" and cam.projection_matrix(1.5)[1, 1] == pytest.approx(
        Camera().projection_matrix(1.5)[1, 1])


def test_retail_camera_for_a_turned_object(db):
    s = session(db)
    obj = s.world.objects[1]
    cam = retail_camera_for(obj)
    assert cam.eye() == pytest.approx([0.0, -2.5, 2.25])
    ctl = Controller(session=s)
    assert ctl.apply(c.CameraRetail())
    assert ctl.view.camera == cam
    assert ctl.apply(c.CameraRetail(object=99)) is False        # no such object: logged


# --- capture panel ------------------------------------------------------------------------------
def test_export_path_gets_the_kinds_suffix():
    assert export_path("out/a.mp4", 0) == "out/a.png"
    assert export_path("out/a", 1) == "out/a"
    assert export_path("out/a.png", 2) == "out/a.gif"
    assert export_path("  ", 3) == "out/capture.mp4"


def test_export_command_ranges_and_transparency():
    st = CapturePanelState(path="x", kind=2, start=0.5, end=-1.0, transparent=True)
    assert export_command(st, 2.0) == c.ExportCapture("x.gif", 0.5, 2.0, True, False)
    st.window = True                 # the whole viewer: opaque, no comparison composite
    assert export_command(st, 2.0) == c.ExportCapture("x.gif", 0.5, 2.0, False, False, True)
    st.window = False
    st.kind, st.end = 3, 9.0
    assert export_command(st, 2.0) == c.ExportCapture("x.mp4", 0.5, 2.0, False, False)  # video
    st.kind, st.start = 0, 1.25
    cmd = export_command(st, 2.0)
    assert (cmd.path, cmd.start, cmd.end) == ("x.png", 1.25, 1.25)


# --- launch panel -------------------------------------------------------------------------------
def test_launch_command_with_velocity_creates_a_new_object():
    st = LaunchPanelState(setup=f"0x{F.SETUP:08X}", table=f"0x{F.TABLE:08X}",
                          velocity=[5.0, 0.0, 1.0], intensity="0.25")
    cmd = launch_command(st, LaunchView((1,), 2))
    assert cmd == c.LaunchProjectile(2, origin=(0.0, 0.0, 1.0), velocity=(5.0, 0.0, 1.0),
                                     intensity=0.25, setup=F.SETUP, table=F.TABLE)


def test_launch_command_at_a_target_on_an_existing_object():
    st = LaunchPanelState(object_id=1, use_target=True, target=[8.0, 0.0, 1.0], speed=10.0,
                          intensity="nan")
    cmd = launch_command(st, LaunchView((1,), 2))
    assert cmd.target == (8.0, 0.0, 1.0) and cmd.speed == 10.0 and cmd.setup is None
    assert math.isnan(cmd.intensity)


@pytest.mark.parametrize("fields", [
    {"object_id": 7},                                      # neither a Setup nor a live object
    {"setup": "0x0200010G"},                               # not hex
    {"setup": "0x02000100", "velocity": [float("inf"), 0, 0]},
    {"setup": "0x02000100", "use_target": True, "speed": 0.0},
    {"setup": "0x02000100", "intensity": "lots"},
])
def test_launch_command_refuses_bad_fields(fields):
    with pytest.raises(ValueError):
        launch_command(LaunchPanelState(**fields), LaunchView((1,), 2))


def test_launch_appends_create_and_launch_events_at_the_current_time(db):
    s = session(db)
    s.apply(c.Seek(0.5))
    s.apply(c.LaunchProjectile(2, origin=(0.0, 0.0, 1.0), velocity=(4.0, 0.0, 0.0),
                               intensity=0.3, setup=F.SETUP_BOLT, table=F.TABLE))
    raw = [e.to_json() for e in s.scenario.events[-2:]]
    assert raw[0]["create"]["setup"] == f"0x{F.SETUP_BOLT:08X}" and raw[0]["t"] == raw[1]["t"]
    assert raw[1]["launch"] == {"velocity": [4.0, 0.0, 0.0], "from": [0.0, 0.0, 1.0],
                                "intensity": 0.3}
    assert raw[1]["t"] == pytest.approx(0.5)
    # the harness flies it: Launch script played, the object moves along +X
    events = s.events()
    launched = [e for e in events if e.get("event") == "projectile"
                and e.get("action") == "launched"]
    assert launched and launched[0]["owner"] == 2
    s.apply(c.Seek(1.0))
    x1 = s.world.objects[2].frame.origin[0]
    assert x1 == pytest.approx(4.0 * 0.5, abs=0.1)
    # re-simulation is deterministic: back and forth gives the same state
    s.apply(c.Seek(0.2))
    s.apply(c.Seek(1.0))
    assert s.world.objects[2].frame.origin[0] == x1


def test_launch_of_an_unknown_object_leaves_the_scenario_as_it_was(db):
    s = session(db)
    before = len(s.scenario.events)
    with pytest.raises(ScenarioError):
        s.apply(c.LaunchProjectile(5, velocity=(1.0, 0.0, 0.0)))
    assert len(s.scenario.events) == before


def test_launch_that_fails_to_simulate_is_rolled_back(db):
    s = session(db)
    before = [e.to_json() for e in s.scenario.events]
    with pytest.raises(ScenarioError):   # the target is the launch point: harness refuses
        s.apply(c.LaunchProjectile(1, origin=(0.0, 0.0, 0.0), target=(0.0, 0.0, 0.0)))
    assert [e.to_json() for e in s.scenario.events] == before
    assert s.stats()["particles"] >= 0


def test_launch_saved_scenario_replays_the_flight(db, tmp_path):
    s = session(db)
    s.apply(c.Seek(0.25))
    s.apply(c.LaunchProjectile(2, origin=(0.0, 0.0, 1.0), target=(6.0, 0.0, 1.0), speed=12.0,
                               intensity=0.5, setup=F.SETUP_BOLT, table=F.TABLE))
    s.apply(c.Seek(1.0))
    here = np.array(s.world.objects[2].frame.origin)
    path = tmp_path / "launch.json"
    s.apply(c.SaveScenario(str(path)))
    s2 = Session(db, Scenario.load(path))
    s2.apply(c.Seek(1.0))
    assert np.array_equal(np.array(s2.world.objects[2].frame.origin), here)
    assert here[0] > 1.0


def test_from_and_at_the_selected_object_fill_the_fields():
    from viewer.ui.launch_panel import AIM_HEIGHT, use_selected
    st = LaunchPanelState()
    view = LaunchView((1, 3), 4, (3, (5.0, 6.0, 0.5)))
    use_selected(st, view, "target")
    assert st.use_target and st.target == [5.0, 6.0, 0.5 + AIM_HEIGHT]
    use_selected(st, view, "from")
    assert st.origin == [5.0, 6.0, 0.5 + AIM_HEIGHT]
    use_selected(st, LaunchView((1,), 2), "from")          # nothing selected: unchanged
    assert st.origin == [5.0, 6.0, 0.5 + AIM_HEIGHT]


def test_assets_selection_fills_setup_or_table():
    from viewer.ui.launch_panel import use_asset
    st = LaunchPanelState()
    use_asset(st, 0x02000101)
    use_asset(st, 0x34000100)
    use_asset(st, 0x33000100)          # a PhysicsScript: neither field
    use_asset(st, None)
    assert (st.setup, st.table) == ("0x02000101", "0x34000100")
