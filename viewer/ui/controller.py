"""The one place where panel commands change anything.

``Controller.apply(command)`` updates the view state (camera, bookmarks, selection,
inspector intensity) and forwards timeline / scenario commands to the session (the runtime
adapter, ``viewer/ui/session.py``). Every ``ViewerError`` raised while applying goes to the
error log; the viewer keeps running. GL-free, so it is tested directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from viewer.render.camera import Bookmarks, Camera, preset
from viewer.ui import commands as c
from viewer.ui.error_panel import ErrorLog


@dataclass
class ViewState:
    camera: Camera = field(default_factory=Camera)
    bookmarks: Bookmarks = field(default_factory=Bookmarks)
    selection: tuple[str, object] | None = None     # (kind, key)
    intensity: float = 0.5                           # script table inspector
    screenshot_requests: list[str] = field(default_factory=list)


class Controller:
    def __init__(self, view: ViewState | None = None, session=None,
                 errors: ErrorLog | None = None) -> None:
        self.view = view or ViewState()
        self.session = session
        self.errors = errors if errors is not None else ErrorLog()   # (an empty log is falsy)
        # opener(kind, value) -> session: "dat" (paths) or "scenario" (path); set by the app
        self.opener = None

    def apply_all(self, commands, context: str = "") -> None:
        for command in commands:
            self.apply(command, context)

    def apply(self, command: c.Command, context: str = "") -> bool:
        """Apply one command; returns False (and logs) when it failed."""
        try:
            self._apply(command)
            return True
        except Exception as err:  # noqa: BLE001 - the viewer keeps running on any failure
            self.errors.report(err, context or type(command).__name__)
            return False

    # ------------------------------------------------------------------------------------
    def _apply(self, cmd: c.Command) -> None:
        v = self.view
        match cmd:
            case c.CameraOrbit(dx, dy):
                v.camera = v.camera.orbit(dx, dy)
            case c.CameraPan(dx, dy, h):
                v.camera = v.camera.pan(dx, dy, h)
            case c.CameraZoom(steps):
                v.camera = v.camera.zoom(steps)
            case c.CameraFly(f, r, u):
                v.camera = v.camera.fly(f, r, u)
            case c.CameraPreset(name):
                v.camera = preset(v.camera, name)
            case c.CameraBookmark(name, save):
                if save:
                    v.bookmarks.save(name, v.camera)
                elif (cam := v.bookmarks.get(name)) is not None:
                    v.camera = cam
            case c.CameraFrameSelected():
                bounds = self._selection_bounds()
                if bounds is not None:
                    v.camera = v.camera.framed(*bounds)
            case c.Select(kind, key):
                v.selection = (kind, key)
                if self.session is not None:
                    self.session.apply(cmd)
            case c.SetIntensity(value):
                v.intensity = float(value)
            case c.ClearErrors():
                self.errors.clear()
            case c.TakeScreenshot(path):
                v.screenshot_requests.append(path)
            case c.OpenDat(paths) if self.opener is not None:
                self.session = self.opener("dat", tuple(paths))
            case c.LoadScenario(path) if self.opener is not None:
                self.session = self.opener("scenario", path)
            case _:
                if self.session is None:
                    raise _no_session(cmd)
                self.session.apply(cmd)

    def _selection_bounds(self):
        if self.session is None or self.view.selection is None:
            return None
        bounds = getattr(self.session, "bounds_of", None)
        return bounds(*self.view.selection) if bounds else None


def _no_session(cmd) -> Exception:
    from viewer.errors import ScenarioError
    return ScenarioError(f"nothing loaded to apply {type(cmd).__name__} to")


def finite_or_text(x: float) -> str:
    """nan / inf / -inf spelled as the contract does; other floats with 4 decimals."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.4f}"


__all__ = ["Controller", "ViewState", "finite_or_text"]
