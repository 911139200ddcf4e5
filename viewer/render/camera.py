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

from viewer.bounds import CAMERA_DISTANCE

PITCH_LIMIT = math.radians(89.0)
#: the zoom limits, also the range of ``render --distance`` (viewer/bounds.py)
MIN_DISTANCE = float(CAMERA_DISTANCE.lo)
MAX_DISTANCE = float(CAMERA_DISTANCE.hi)


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
    # "retail": the vertical FOV follows the aspect as the retail client's does
    # (retail_fov_y); otherwise ``fov_y_deg`` is used as is.
    fov_mode: str = "fixed"

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

    def fov_y_for(self, aspect: float) -> float:
        """Vertical field of view (degrees) at this viewport aspect."""
        if self.fov_mode == "retail":
            return math.degrees(retail_fov_y(aspect))
        return self.fov_y_deg

    def projection_matrix(self, aspect: float) -> np.ndarray:
        return perspective(self.fov_y_for(aspect), aspect, self.near, self.far)

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


# --- the retail client's camera ---------------------------------------------------------------
#: SmartBox ctor: m_fGameFOV = pi/2 (SmartBox::SetDefaultFov 0x00451E60 stores degrees as
#: radians); Render::SetFOVRad 0x0054B2D0 sets znear 0.1.
RETAIL_GAME_FOV = math.pi / 2
RETAIL_ZNEAR = 0.1
#: CameraSet::SetDefaultOffsets 0x00458F80: the pivot is the player at
#: (0, 0, CAMERA_DEFAULT_PIVOT_Z = 1.5) and viewer_offset = (0, -2.5 * scale, 0.75 * scale)
#: from it in the player's frame (+Y forward), scale 1 (CameraManager ctor 0x00457090).
RETAIL_PIVOT_Z = 1.5
RETAIL_VIEWER_OFFSET = (0.0, -2.5, 0.75)
#: CameraSet::SetInHead 0x00458CE0: the first-person viewer_offset (0, 0.18, 0)
#: (CameraSet::InHead 0x00457680 tests for it).
RETAIL_IN_HEAD_OFFSET = (0.0, 0.18, 0.0)


#: The narrowest viewport shape the retail formula is used at: the client's 4:3 display
#: modes (800x600 and up); every retail screen was this shape or wider.
RETAIL_MIN_ASPECT = 4.0 / 3.0


def retail_formula_fov_y(aspect: float) -> float:
    """Retail's own vertical FOV in radians at ``aspect`` (width / height, RenderDevice::
    ComputeAspectForViewport 0x0054F150): SmartBox's render setup calls
    Render::SetFOVRad(m_fGameFOV / (aspect - 0.1)) (SmartBox::GetOverrideFovDistance
    0x00451BE0 uses the same ratio), and SetFOVRad 0x0054B2D0 sets znear 0.1 and a vertical
    FOV (SetFOVInternal 0x0054B340: vdst = (height - 1) / 2 / tan(fov / 2)). Unbounded:
    it reaches pi at aspect 0.6 (SetFOVRad refuses a FOV outside (0, pi))."""
    return RETAIL_GAME_FOV / (float(aspect) - 0.1)


def retail_half_width(aspect: float = RETAIL_MIN_ASPECT) -> float:
    """tan(horizontal FOV / 2) of retail's formula at ``aspect``: the horizontal extent
    at unit distance (aspect * tan(vertical FOV / 2))."""
    return float(aspect) * math.tan(retail_formula_fov_y(aspect) / 2.0)


def retail_fov_y(aspect: float) -> float:
    """Vertical FOV in radians of the Retail camera at viewport ``aspect``.

    At ``RETAIL_MIN_ASPECT`` (4:3) and wider it is retail's formula,
    (pi/2) / (aspect - 0.1) (Render::SetFOVRad 0x0054B2D0, retail_formula_fov_y). Retail
    never drew a narrower screen, and there the formula blows up (180 degrees at 0.6), so
    for a narrower viewport we keep the horizontal extent retail shows at 4:3: the same
    tan(horizontal FOV / 2) = retail_half_width(4/3) (about 0.986, 89.2 degrees), and the
    vertical FOV follows from the aspect: 2 atan(retail_half_width(4/3) / aspect). It stays
    below 180 degrees at any aspect (136 degrees at 0.4)."""
    aspect = float(aspect)
    if not math.isfinite(aspect) or aspect <= 0.0:
        aspect = RETAIL_MIN_ASPECT   # no viewport shape: retail's 4:3
    if aspect >= RETAIL_MIN_ASPECT:
        return retail_formula_fov_y(aspect)
    return 2.0 * math.atan(retail_half_width() / aspect)


def retail_camera(origin=(0.0, 0.0, 0.0), forward=(0.0, 1.0, 0.0), *, scale: float = 1.0,
                  in_head: bool = False, far: float = 1000.0) -> Camera:
    """The retail client's default chase camera behind an object standing at ``origin``
    facing ``forward`` (its frame's +Y in world space; only the horizontal part counts).

    Eye = origin + (0, 0, 1.5) + R * (0, -2.5, 0.75) * scale (CameraSet::SetDefaultOffsets
    0x00458F80; CameraManager::QueryPivotPosition 0x004564F0 adds the rotated pivot offset,
    CameraManager::UpdateCamera 0x00456660 puts the eye at the pivot frame's
    localtoglobal(viewer_offset)); for that offset CameraSet::SetTargetForOffset 0x004576E0 picks
    ALIGN_WITH_PLANE | LOOK_IN_DIRECTION with direction (0, 1, 0): the view looks along the
    object's heading, level (pitch 0 on flat ground). ``in_head``: the first-person offset.
    Field of view as retail (``fov_mode="retail"``), znear 0.1. ``target`` is the point at
    the object's own position along the view line, ``distance`` the offset's length behind.
    This is where the camera comes to rest; retail eases towards it (the stiffness values)
    and aligns with a sloped ground plane, which a flat scene does not show."""
    fx, fy = float(forward[0]), float(forward[1])
    n = math.hypot(fx, fy)
    fx, fy = (0.0, 1.0) if n < 1e-9 else (fx / n, fy / n)
    rx, ry = fy, -fx                       # the object's +X (right) for a Z-up frame
    off = RETAIL_IN_HEAD_OFFSET if in_head else RETAIL_VIEWER_OFFSET
    ox, oy, oz = (c * float(scale) for c in off)
    eye = (origin[0] + rx * ox + fx * oy, origin[1] + ry * ox + fy * oy,
           origin[2] + RETAIL_PIVOT_Z + oz)
    ahead = max(1.0, -oy) if not in_head else 1.0
    target = (eye[0] + fx * ahead, eye[1] + fy * ahead, eye[2])
    # Camera.forward() = -(cos p cos y, cos p sin y, sin p)
    yaw = math.atan2(-fy, -fx) % (2 * math.pi)
    return Camera(target=tuple(float(c) for c in target), distance=float(ahead), yaw=yaw,
                  pitch=0.0, near=RETAIL_ZNEAR, far=far, fov_mode="retail")


def retail_camera_for(obj, *, in_head: bool = False) -> Camera:
    """``retail_camera`` behind a sim object (anything with a ``frame``: its origin and its
    +Y in world space), e.g. ``vfxviewer render --camera retail`` on object 1."""
    frame = obj.frame
    return retail_camera(tuple(float(v) for v in frame.origin),
                         tuple(float(v) for v in frame.local_to_global_vec((0.0, 1.0, 0.0))),
                         in_head=in_head)


# Named views (yaw, pitch); AC's +Y is north.
PRESETS: dict[str, tuple[float, float]] = {
    "perspective": (math.radians(-60.0), math.radians(25.0)),
    "front": (math.radians(-90.0), 0.0),
    "side": (0.0, 0.0),
    "top": (math.radians(-90.0), PITCH_LIMIT),
}


def preset(camera: Camera, name: str) -> Camera:
    """A named view of the same target; the fixed presets keep (or restore) the viewer's
    own field of view. ("retail" needs an object: see ``retail_camera``.)"""
    yaw, pitch = PRESETS[name]
    return replace(camera, yaw=yaw, pitch=pitch, fov_mode="fixed",
                   near=min(camera.near, Camera.near))


@dataclass
class Bookmarks:
    """Saved cameras by name (the UI's camera bookmarks)."""

    saved: dict[str, Camera] = field(default_factory=dict)

    def save(self, name: str, camera: Camera) -> None:
        self.saved[name] = camera

    def get(self, name: str) -> Camera | None:
        return self.saved.get(name)
