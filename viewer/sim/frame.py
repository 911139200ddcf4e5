"""Frame (position + orientation) math, as retail's Frame / AFrame.

A ``Frame`` is an origin ``(x, y, z)`` and a unit quaternion ``(w, x, y, z)``. Frames are
immutable value objects built from plain floats: per-object math stays cheap and exactly
reproducible, and per-particle math is done with numpy elsewhere (``quat_rotate_many``).

World conventions: Z up, model forward +Y, compass headings
(0 deg = +Y/north, 90 deg = +X/east).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

EPS = 0.0002  # the client's universal small constant (printed as 0.00019999999)

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]  # (w, x, y, z)

IDENTITY_QUAT: Quat = (1.0, 0.0, 0.0, 0.0)


def quat_mul(a: Quat, b: Quat) -> Quat:
    """Hamilton product a * b."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def quat_conj(q: Quat) -> Quat:
    return (q[0], -q[1], -q[2], -q[3])


def quat_normalize(q: Quat) -> Quat:
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if n == 0.0 or not math.isfinite(n):
        return q
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def quat_rotate(q: Quat, v: Vec3) -> Vec3:
    """R(q) . v for a unit quaternion (active rotation)."""
    w, x, y, z = q
    vx, vy, vz = v
    # t = 2 * cross(q.xyz, v); v' = v + w * t + cross(q.xyz, t)
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (vx + w * tx + (y * tz - z * ty),
            vy + w * ty + (z * tx - x * tz),
            vz + w * tz + (x * ty - y * tx))


def quat_rotate_many(q: Quat, v: np.ndarray) -> np.ndarray:
    """R(q) . v for an (N, 3) array of vectors."""
    w = q[0]
    u = np.array(q[1:], dtype=np.float64)
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def quat_to_matrix(q: Quat) -> np.ndarray:
    """3x3 rotation matrix; its columns are the images of local X, Y, Z."""
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ], dtype=np.float64)


def axis_angle_quat(w: Vec3) -> Quat | None:
    """Quaternion for a rotation by |w| radians about w; None when |w|^2 < EPS^2."""
    n2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
    if n2 < EPS * EPS:
        return None
    theta = math.sqrt(n2)
    s = math.sin(theta / 2.0) / theta
    return (math.cos(theta / 2.0), w[0] * s, w[1] * s, w[2] * s)


def vec_add(a: Vec3, b: Vec3) -> Vec3:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def vec_sub(a: Vec3, b: Vec3) -> Vec3:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def vec_scale(a: Vec3, s: float) -> Vec3:
    return (a[0] * s, a[1] * s, a[2] * s)


def vec_dot(a: Vec3, b: Vec3) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def vec_cross(a: Vec3, b: Vec3) -> Vec3:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def vec_length(a: Vec3) -> float:
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


def normalize_check_small(v: Vec3) -> Vec3 | None:
    """Vector normalised, or None when |v| < EPS (callers substitute zero)."""
    n = vec_length(v)
    if n < EPS:
        return None
    return (v[0] / n, v[1] / n, v[2] / n)


def heading_of(v: Vec3) -> float:
    """Compass heading in degrees of a direction: fmod(450 - deg(atan2(y, x)), 360)."""
    return math.fmod(450.0 - math.degrees(math.atan2(v[1], v[0])), 360.0)


@dataclass(frozen=True, slots=True)
class Frame:
    origin: Vec3 = (0.0, 0.0, 0.0)
    orientation: Quat = IDENTITY_QUAT

    # -- construction -------------------------------------------------------------------
    def __init__(self, origin: Vec3 = (0.0, 0.0, 0.0),
                 orientation: Quat = IDENTITY_QUAT) -> None:
        # the dataclass' frozen __init__ goes through object.__setattr__ (~3x slower); the
        # slots' own setters store the same two fields (Frames are made per object per tick)
        _SET_ORIGIN(self, origin)
        _SET_ORIENTATION(self, orientation)

    def __deepcopy__(self, memo) -> Frame:
        return self  # a value: frozen, two tuples of floats (a world snapshot shares it)

    def __copy__(self) -> Frame:
        return self

    @staticmethod
    def from_heading(origin: Vec3, heading_deg: float) -> Frame:
        """A frame at ``origin`` whose local +Y points along the compass heading."""
        return Frame(tuple(float(c) for c in origin)).set_heading(heading_deg)

    # -- Frame::localtoglobal family -----------------------------------------------------
    def local_to_global_vec(self, v: Vec3) -> Vec3:
        return quat_rotate(self.orientation, v)

    def local_to_global(self, p: Vec3) -> Vec3:
        return vec_add(self.origin, quat_rotate(self.orientation, p))

    def matrix(self) -> np.ndarray:
        """4x4 column-vector transform (translation in the last column)."""
        m = np.eye(4, dtype=np.float64)
        m[:3, :3] = quat_to_matrix(self.orientation)
        m[:3, 3] = self.origin
        return m

    # -- Frame::combine / subtract1 ------------------------------------------------------
    def combine(self, child: Frame) -> Frame:
        """``child`` expressed in this frame: o = o1 + R1.o2, q = q1 * q2 (renormalised)."""
        return Frame(self.local_to_global(child.origin),
                     quat_normalize(quat_mul(self.orientation, child.orientation)))

    def combine_scaled(self, child: Frame, scale: Vec3) -> Frame:
        """Part-pose combine: the child's origin is scaled component-wise, never its
        rotation (CPartArray::UpdateParts 0x005190F0: rigid part frames, drawable scale
        separate)."""
        o2 = (child.origin[0] * scale[0], child.origin[1] * scale[1],
              child.origin[2] * scale[2])
        return Frame(self.local_to_global(o2),
                     quat_normalize(quat_mul(self.orientation, child.orientation)))

    def subtract1(self, other: Frame) -> Frame:
        """Inverse of combine: q = q1 * conj(q2), o = o1 - R(q).o2."""
        q = quat_normalize(quat_mul(self.orientation, quat_conj(other.orientation)))
        r = quat_rotate(q, other.origin)
        return Frame(vec_sub(self.origin, r), q)

    # -- rotation edits ------------------------------------------------------------------
    def with_origin(self, origin: Vec3) -> Frame:
        return Frame(origin, self.orientation)

    def grotate(self, w: Vec3) -> Frame:
        """Rotate about a global axis: q <- q_d(w) * q (left multiply); nothing when
        |w|^2 < EPS^2 (Frame::grotate 0x005357A0)."""
        qd = axis_angle_quat(w)
        if qd is None:
            return self
        return Frame(self.origin, quat_normalize(quat_mul(qd, self.orientation)))

    def rotate(self, w: Vec3) -> Frame:
        """Rotate about a local axis: grotate(R.w) (Frame::rotate 0x004525B0)."""
        return self.grotate(self.local_to_global_vec(w))

    def set_vector_heading(self, v: Vec3) -> Frame:
        """Frame::set_vector_heading 0x00535DB0: local +Y along v, local +X horizontal (no roll);
        nothing when |v| is small. q = q_z(-h) * q_x(pitch)."""
        n = normalize_check_small(v)
        if n is None:
            return self
        h = math.radians(heading_of(n))
        p = math.asin(max(-1.0, min(1.0, n[2])))
        qz = (math.cos(-h / 2.0), 0.0, 0.0, math.sin(-h / 2.0))
        qx = (math.cos(p / 2.0), math.sin(p / 2.0), 0.0, 0.0)
        return Frame(self.origin, quat_normalize(quat_mul(qz, qx)))

    def set_heading(self, deg: float) -> Frame:
        """Frame::set_heading 0x00535E40: dir = (sin deg, cos deg, current local Y.z)."""
        r = math.radians(deg)
        y_axis = self.local_to_global_vec((0.0, 1.0, 0.0))
        return self.set_vector_heading((math.sin(r), math.cos(r), y_axis[2]))

    def get_vector_heading(self) -> Vec3:
        return self.local_to_global_vec((0.0, 1.0, 0.0))

    def get_heading(self) -> float:
        return heading_of(self.get_vector_heading())


_SET_ORIGIN = Frame.__dict__["origin"].__set__
_SET_ORIENTATION = Frame.__dict__["orientation"].__set__

IDENTITY = Frame()
