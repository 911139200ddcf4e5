"""Degrade level and draw-frame rotation of one part, on the CPU.

The particle pass does the same per instance with numpy (particles.py) and in
shaders/particle.vert.glsl; ordinary Setup parts go through here: their GfxObj's
DIDDegrade table picks the drawn GfxObj and its degrade_mode by distance, and modes 2..5
turn the part towards the viewer (`CPhysicsPart::UpdateViewerDistance` 0x0050E030,
`calc_draw_frame` 0x0050DFA0).
"""

from __future__ import annotations

import numpy as np

EPS = 0.0002
DEGRADE_DISTANCE = 50.0   # Render::s_rDegradeDistance default


def select_level(entries, cypt: float, scale_z: float, m: float = 1.0,
                 degrade_distance: float = DEGRADE_DISTANCE) -> int:
    """GfxObjDegradeInfo::get_degrade 0x0051E4B0: first entry with d below its threshold,
    d = CYpt / scale.z - s_rDegradeDistance (>= 0); none -> the last entry."""
    if not entries:
        return 0
    d = max(cypt / max(scale_z, 1e-6) - degrade_distance, 0.0)
    for i, e in enumerate(entries):
        if m >= 0:
            thr = e.ideal_dist + (e.max_dist - e.ideal_dist) * m
        else:
            thr = e.ideal_dist + (e.ideal_dist - e.min_dist) * m
        if d < thr:
            return i
    return len(entries) - 1


@np.errstate(under="ignore")
def heading_rotation(h) -> np.ndarray:
    """Frame::set_vector_heading: local +Y along h, local X horizontal (no roll)."""
    h = np.asarray(h, np.float64)
    n = np.linalg.norm(h)
    y = np.array([0.0, 0.0, 1.0]) if n <= EPS else h / n
    if np.hypot(y[0], y[1]) < 1e-6:
        x = np.array([0.0, -1.0, 0.0])     # the heading of a vertical vector is 90 deg
    else:
        x = np.array([y[1], -y[0], 0.0])
        x /= np.linalg.norm(x)
    return np.stack([x, y, np.cross(x, y)], axis=1)


_PREV = (2, 0, 1)  # prev = [Z, X, Y] for [X, Y, Z]


@np.errstate(under="ignore")
def axis_locked_rotation(r, axis: int, h) -> np.ndarray:
    """rotate_around_axis_to_vector: keep column ``axis``, turn the others towards h."""
    r = np.array(r, np.float64)
    a = r[:, axis]
    h = np.asarray(h, np.float64)
    n = h - a * (a @ h)
    ln = np.linalg.norm(n)
    n = r[:, _PREV[axis]] if ln < EPS else n / ln
    if abs(n @ a) <= 0.001:
        r[:, _PREV[axis]] = n
        r[:, _PREV[_PREV[axis]]] = np.cross(n, a)
    return r


def draw_rotation(mode: int, r, h) -> np.ndarray:
    """The part's draw-frame rotation for degrade mode 1..5 (h = viewer -> part)."""
    if mode == 2:
        return heading_rotation(h)
    if mode in (3, 4, 5):
        return axis_locked_rotation(r, mode - 3, h)
    return np.asarray(r, np.float64)
