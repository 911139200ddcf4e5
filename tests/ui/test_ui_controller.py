"""The one apply step: commands change view state or go to the session; failures land in
the error log and the viewer keeps going."""

from __future__ import annotations

import math

import pytest

from viewer.errors import DatError
from viewer.render.camera import PITCH_LIMIT, Camera
from viewer.ui import commands as c
from viewer.ui.controller import Controller, finite_or_text
from viewer.ui.viewport_panel import ViewportInput, camera_commands


class FakeSession:
    scenario = None   # no scenario: no reference entry to keep in step

    def __init__(self):
        self.applied = []

    def apply(self, cmd):
        if isinstance(cmd, c.LoadSetup) and cmd.setup == 0xDEAD:
            raise DatError("no such Setup", file="client_portal.dat", did=0x0200DEAD)
        self.applied.append(cmd)

    def take_notices(self):
        return []

    def bounds_of(self, kind, key):
        return (1.0, 2.0, 3.0), 0.5


def test_camera_commands_change_the_camera():
    ctl = Controller()
    cam0 = ctl.view.camera
    ctl.apply_all([c.CameraOrbit(10, 0), c.CameraZoom(1), c.CameraPreset("top")])
    assert ctl.view.camera.distance < cam0.distance
    assert ctl.view.camera.pitch == pytest.approx(PITCH_LIMIT)


def test_bookmarks_save_and_restore():
    ctl = Controller()
    ctl.apply(c.CameraBookmark("home", save=True))
    saved = ctl.view.camera
    ctl.apply(c.CameraOrbit(50, 20))
    assert ctl.view.camera != saved
    ctl.apply(c.CameraBookmark("home"))
    assert ctl.view.camera == saved


def test_frame_selected_uses_session_bounds():
    ctl = Controller(session=FakeSession())
    ctl.apply(c.Select("object", 1))
    ctl.apply(c.CameraFrameSelected())
    assert ctl.view.camera.target == (1.0, 2.0, 3.0)


def test_session_commands_are_forwarded():
    s = FakeSession()
    ctl = Controller(session=s)
    ctl.apply_all([c.Play(), c.Seek(1.5), c.SetSpeed(2.0)])
    assert s.applied == [c.Play(), c.Seek(1.5), c.SetSpeed(2.0)]


def test_viewer_error_goes_to_error_log_and_keeps_going():
    s = FakeSession()
    ctl = Controller(session=s)
    assert ctl.apply(c.LoadSetup(0xDEAD)) is False
    assert ctl.apply(c.Play()) is True
    (entry,) = ctl.errors.entries
    assert entry.kind == "DatError"
    assert "client_portal.dat" in entry.line() and "0x0200DEAD" in entry.line()


def test_commands_without_a_session_report_scenario_error():
    ctl = Controller()
    assert ctl.apply(c.Play()) is False
    assert ctl.errors.entries[0].kind == "ScenarioError"


def test_intensity_accepts_nan_and_inf():
    ctl = Controller()
    ctl.apply(c.SetIntensity(float("nan")))
    assert math.isnan(ctl.view.intensity)
    ctl.apply(c.SetIntensity(float("-inf")))
    assert ctl.view.intensity == -math.inf
    assert finite_or_text(float("nan")) == "nan" and finite_or_text(math.inf) == "inf"
    assert finite_or_text(-math.inf) == "-inf" and finite_or_text(0.25) == "0.2500"


def test_clear_errors_and_screenshot_request():
    ctl = Controller()
    ctl.apply(c.Play())
    ctl.apply(c.ClearErrors())
    assert len(ctl.errors) == 0
    ctl.apply(c.TakeScreenshot("x.png"))
    assert ctl.view.screenshot_requests == ["x.png"]


# --- viewport input -> camera commands ------------------------------------------------------
def test_viewport_drags_map_to_orbit_and_pan():
    inp = ViewportInput(hovered=True, drag_left=(3, 4), height_px=300)
    assert camera_commands(inp) == [c.CameraOrbit(3, 4)]
    inp = ViewportInput(hovered=True, drag_right=(1, 0), drag_middle=(0, 2), height_px=300)
    assert camera_commands(inp) == [c.CameraPan(1, 2, 300)]


def test_viewport_wheel_needs_hover_and_fly_needs_focus():
    assert camera_commands(ViewportInput(hovered=False, wheel=1.0)) == []
    assert camera_commands(ViewportInput(hovered=True, wheel=1.0)) == [c.CameraZoom(1.0)]
    inp = ViewportInput(focused=True, keys=frozenset("wd"), dt=0.5, fly_speed=2.0)
    assert camera_commands(inp) == [c.CameraFly(1.0, 1.0, 0.0)]
    assert camera_commands(ViewportInput(hovered=True, keys=frozenset("w"), dt=1)) == []
    assert c.CameraFrameSelected() in camera_commands(
        ViewportInput(focused=True, pressed=frozenset("f")))


def test_camera_is_immutable_value():
    cam = Camera()
    import dataclasses
    with pytest.raises(dataclasses.FrozenInstanceError):
        cam.distance = 3  # type: ignore[misc]
