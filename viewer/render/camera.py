"""The viewer's cameras: orbit / pan / zoom around a target, and fly.

Asheron's Call's world is Z-up, metres; the camera follows it. Matrices are numpy float32,
column-vector convention (``clip = proj @ view @ world``); pass ``.T`` bytes to GLSL
(``mat.T.tobytes()``) because GLSL reads column-major.

The camera is plain data with pure methods (no GL), so the UI can save it in bookmarks and
tests can check it without a context.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

PITCH_LIMIT = math.radians(89.0)
MIN_DISTANCE = 0.05
MAX_DISTANCE = 5000.0


def _flush(x: float) -> float:
    """Tiny components become 0, so later numpy products never underflow (the suite runs
    with np.seterr(all="raise"))."""
    return 0.0 if abs(x) < 1e-12 else x


def look_at(eye, target, up=(0.0, 0.0, 1.0)) -> np.ndarray:
    eye = np.asarray(eye, np.float64)
    target = np.asarray(target, np.float64)
    f = target - eye
    f /= np.linalg.norm(f)
    s = np.cross(f, np.asarray(up, np.float64))
    if np.linalg.norm(s) < 1e-9:  # looking straight along up: pick any side vector
        s = np.cross(f, (0.0, 1.0, 0.0))
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.identity(4)
    m[0, :3], m[1, :3], m[2, :3] = s, u, -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m.astype(np.float32)


def perspective(fov_y_deg: float, aspect: float, near: float, far: float) -> np.ndarray:
    f = 1.0 / math.tan(math.radians(fov_y_deg) / 2.0)
    m = np.zeros((4, 4))
    m[0, 0] = f / max(aspect, 1e-6)
    m[1, 1] = f
    m[2, 2] = (far + near) / (near - far)
    m[2, 3] = 2.0 * far * near / (near - far)
    m[3, 2] = -1.0
    return m.astype(np.float32)


@dataclass(frozen=True)
class Camera:
    """An orbit camera: ``target`` point, ``distance`` from it, ``yaw`` around +Z from +X
    and ``pitch`` above the XY plane (radians). Fly mode moves the target and keeps the
    eye-to-target offset, so both modes share one state."""

    target: tuple[float, float, float] = (0.0, 0.0, 0.5)
    distance: float = 6.0
    yaw: float = math.radians(-60.0)
    pitch: float = math.radians(25.0)
    fov_y_deg: float = 50.0
    near: float = 0.05
    far: float = 1000.0

    # --- derived -----------------------------------------------------------------------
    def forward(self) -> np.ndarray:
        """Unit vector from the eye towards the target."""
        cp = math.cos(self.pitch)
        return -np.array([_flush(cp * math.cos(self.yaw)), _flush(cp * math.sin(self.yaw)),
                          _flush(math.sin(self.pitch))])

    def eye(self) -> np.ndarray:
        return np.asarray(self.target, np.float64) - self.forward() * self.distance

    def right(self) -> np.ndarray:
        r = np.cross(self.forward(), (0.0, 0.0, 1.0))
        n = np.linalg.norm(r)
        return r / n if n > 1e-9 else np.array([1.0, 0.0, 0.0])

    def up(self) -> np.ndarray:
        return np.cross(self.right(), self.forward())

    def view_matrix(self) -> np.ndarray:
        return look_at(self.eye(), self.target)

    def projection_matrix(self, aspect: float) -> np.ndarray:
        return perspective(self.fov_y_deg, aspect, self.near, self.far)

    def view_projection(self, aspect: float) -> np.ndarray:
        return self.projection_matrix(aspect) @ self.view_matrix()

    # --- moves (each returns a new camera) ------------------------------------------------
    def orbit(self, dx_px: float, dy_px: float, speed: float = 0.01) -> Camera:
        pitch = min(max(self.pitch + dy_px * speed, -PITCH_LIMIT), PITCH_LIMIT)
        return replace(self, yaw=(self.yaw - dx_px * speed) % (2 * math.pi), pitch=pitch)

    def pan(self, dx_px: float, dy_px: float, viewport_h_px: float = 600.0) -> Camera:
        """Drag the scene: one viewport height of mouse travel moves the view by its
        visible height at the target's distance."""
        metres_per_px = 2.0 * self.distance * math.tan(math.radians(self.fov_y_deg) / 2)
        metres_per_px /= max(viewport_h_px, 1.0)
        move = (-self.right() * dx_px + self.up() * dy_px) * metres_per_px
        return replace(self, target=tuple(float(v) for v in np.asarray(self.target) + move))

    def zoom(self, wheel_steps: float, factor: float = 0.88) -> Camera:
        wheel_steps = min(max(float(wheel_steps), -200.0), 200.0)  # beyond this: clamped anyway
        d = self.distance * factor ** wheel_steps
        return replace(self, distance=float(min(max(d, MIN_DISTANCE), MAX_DISTANCE)))

    def fly(self, forward: float, right: float, up: float) -> Camera:
        """Move eye and target together (metres) along the view axes."""
        move = self.forward() * forward + self.right() * right + np.array([0, 0, up]) * 1.0
        return replace(self, target=tuple(float(v) for v in np.asarray(self.target) + move))

    def framed(self, center, radius: float) -> Camera:
        """Look at ``center`` from a distance that fits a sphere of ``radius``."""
        half = math.radians(self.fov_y_deg) / 2
        d = max(radius, 0.05) / math.sin(half) * 1.1
        return replace(self, target=tuple(float(v) for v in center),
                       distance=float(min(max(d, MIN_DISTANCE), MAX_DISTANCE)))


# Named views (yaw, pitch); AC's +Y is north.
PRESETS: dict[str, tuple[float, float]] = {
    "perspective": (math.radians(-60.0), math.radians(25.0)),
    "front": (math.radians(-90.0), 0.0),
    "side": (0.0, 0.0),
    "top": (math.radians(-90.0), PITCH_LIMIT),
}


def preset(camera: Camera, name: str) -> Camera:
    yaw, pitch = PRESETS[name]
    return replace(camera, yaw=yaw, pitch=pitch)


@dataclass
class Bookmarks:
    """Saved cameras by name (the UI's camera bookmarks)."""

    saved: dict[str, Camera] = field(default_factory=dict)

    def save(self, name: str, camera: Camera) -> None:
        self.saved[name] = camera

    def get(self, name: str) -> Camera | None:
        return self.saved.get(name)
