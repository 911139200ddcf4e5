"""Debug overlays: sorting/collision sphere circles, part axes, emitter anchors and offset
shells, the selected emitter's particle velocities and live particles' boxes per emitter,
and the world's collision shapes
(``CollisionWorld.describe()``: planes as a square grid patch about their point nearest the
origin, boxes as 12 edges, spheres as three great circles, vertical cylinders as two rings
and four sides). Line and point vertices are built
with numpy (x, y, z, r, g, b, a); one upload and one draw per primitive kind."""

from __future__ import annotations

import numpy as np

from viewer.render.programs import load_program

SPHERE_COLORS = {"sorting": (0.95, 0.85, 0.2, 1.0), "collision": (0.2, 0.9, 0.9, 1.0),
                 "selection": (0.8, 0.4, 1.0, 1.0), "shell": (1.0, 0.5, 0.2, 1.0)}
ANCHOR_COLOR = (1.0, 0.3, 0.9, 1.0)
VELOCITY_COLOR = (1.0, 1.0, 0.3, 1.0)
PARTICLE_BOX_COLOR = (0.3, 1.0, 0.5, 1.0)
COLLISION_COLORS = {"plane": (0.35, 0.75, 0.35, 1.0), "box": (0.95, 0.35, 0.3, 1.0),
                    "sphere": (0.3, 0.6, 1.0, 1.0), "cylinder": (1.0, 0.75, 0.25, 1.0)}
PLANE_HALF_SIZE = 5.0      # metres of the drawn patch each side of the plane's centre point
PLANE_CELLS = 10
SEGMENTS = 32


def sphere_lines(center, radius, color) -> np.ndarray:
    """Three great circles (XY, XZ, YZ) as a line list."""
    t = np.linspace(0.0, 2.0 * np.pi, SEGMENTS + 1)
    c, s = np.cos(t) * radius, np.sin(t) * radius
    z = np.zeros_like(t)
    rings = [np.stack([c, s, z], 1), np.stack([c, z, s], 1), np.stack([z, c, s], 1)]
    rows = []
    for ring in rings:
        seg = np.stack([ring[:-1], ring[1:]], 1).reshape(-1, 3) + np.asarray(center)
        rows.append(np.concatenate([seg, np.tile(color, (len(seg), 1))], 1))
    return np.concatenate(rows).astype(np.float32)


def axes_lines(matrix, length: float = 0.25) -> np.ndarray:
    m = np.asarray(matrix, np.float64)
    o = m[:3, 3]
    rows = []
    for i, col in enumerate(((1, 0.2, 0.2, 1), (0.2, 1, 0.2, 1), (0.3, 0.5, 1, 1))):
        rows.append([*o, *col])
        rows.append([*(o + m[:3, i] * length), *col])
    return np.asarray(rows, np.float32)


def _with_color(points, color) -> np.ndarray:
    p = np.asarray(points, np.float64).reshape(-1, 3)
    return np.concatenate([p, np.tile(color, (len(p), 1))], 1).astype(np.float32)


def plane_lines(normal, d, color, half=PLANE_HALF_SIZE, cells=PLANE_CELLS) -> np.ndarray:
    """A square grid patch of the plane n.x + d = 0 centred on -d n (n normalised)."""
    n = np.asarray(normal, np.float64)
    ln = np.linalg.norm(n)
    if not ln > 0:
        return np.zeros((0, 7), np.float32)
    n = n / ln
    c = -float(d) / ln * n
    a = np.cross(n, (0.0, 0.0, 1.0) if abs(n[2]) < 0.9 else (1.0, 0.0, 0.0))
    a /= np.linalg.norm(a)
    b = np.cross(n, a)
    t = np.linspace(-half, half, cells + 1)
    rows = []
    for v in t:
        rows += [c + a * -half + b * v, c + a * half + b * v,
                 c + b * -half + a * v, c + b * half + a * v]
    return _with_color(rows, color)


def box_lines(lo, hi, color) -> np.ndarray:
    lo, hi = np.asarray(lo, np.float64), np.asarray(hi, np.float64)
    corners = np.array([[(hi if (k >> i) & 1 else lo)[i] for i in range(3)] for k in range(8)])
    rows = []
    for k in range(8):
        for i in range(3):
            if not (k >> i) & 1:
                rows += [corners[k], corners[k | (1 << i)]]
    return _with_color(rows, color)


def cylinder_lines(low_point, radius, height, color) -> np.ndarray:
    """CCylSphere: a vertical cylinder from low_point up by height."""
    t = np.linspace(0.0, 2.0 * np.pi, SEGMENTS + 1)
    ring = np.stack([np.cos(t) * radius, np.sin(t) * radius, np.zeros_like(t)], 1)
    lo = np.asarray(low_point, np.float64)
    up = np.array([0.0, 0.0, float(height)])
    rows = []
    for base in (lo, lo + up):
        seg = ring + base
        rows.append(np.stack([seg[:-1], seg[1:]], 1).reshape(-1, 3))
    for k in range(0, SEGMENTS, SEGMENTS // 4):
        rows.append(np.stack([lo + ring[k], lo + up + ring[k]]))
    return _with_color(np.concatenate(rows), color)


def collision_lines(shapes) -> list[np.ndarray]:
    out = []
    for sh in shapes:
        kind = sh.get("kind")
        color = COLLISION_COLORS.get(kind, (1.0, 1.0, 1.0, 1.0))
        if kind == "plane":
            out.append(plane_lines(sh["normal"], sh["d"], color))
        elif kind == "box":
            out.append(box_lines(sh["min"], sh["max"], color))
        elif kind == "sphere":
            out.append(sphere_lines(sh["center"], float(sh["radius"]), color))
        elif kind == "cylinder":
            out.append(cylinder_lines(sh["low_point"], float(sh["radius"]),
                                      float(sh["height"]), color))
    return out


def overlay_vertices(overlays, settings):
    lines = []
    if settings.show_spheres:
        for sp in overlays.spheres:
            if sp.kind == "shell" and not settings.show_emitter_anchors:
                continue
            lines.append(sphere_lines(sp.center, sp.radius,
                                      SPHERE_COLORS.get(sp.kind, (1, 1, 1, 1))))
    if settings.show_part_axes:
        lines.extend(axes_lines(m) for m in overlays.part_axes)
    if settings.show_collision:
        lines.extend(collision_lines(overlays.collision))
    if settings.show_velocities and overlays.velocities is not None:
        lines.append(_with_color(overlays.velocities, VELOCITY_COLOR))
    if settings.show_particle_bounds and overlays.particle_boxes is not None:
        lines.extend(box_lines(lo, hi, PARTICLE_BOX_COLOR) for lo, hi in overlays.particle_boxes)
    points = np.zeros((0, 7), np.float32)
    if settings.show_emitter_anchors and overlays.emitter_anchors:
        p = np.asarray(overlays.emitter_anchors, np.float32).reshape(-1, 3)
        points = np.concatenate([p, np.tile(ANCHOR_COLOR, (len(p), 1))], 1).astype(np.float32)
    line_arr = np.concatenate(lines) if lines else np.zeros((0, 7), np.float32)
    return line_arr, points


class OverlayPass:
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.prog = load_program(ctx, "overlay")
        self.buffers = {}
        self.vaos = {}  # one per buffer, rebuilt only when the buffer grows

    def _draw(self, data: np.ndarray, mode, view_proj) -> None:
        if len(data) == 0:
            return
        buf = self.buffers.get(mode)
        if buf is None or buf.size < data.nbytes:
            if buf is not None:
                self.vaos.pop(mode).release()
                buf.release()
            buf = self.buffers[mode] = self.ctx.buffer(reserve=max(data.nbytes, 4096) * 2,
                                                       dynamic=True)
            self.vaos[mode] = self.ctx.vertex_array(
                self.prog, [(buf, "3f 4f", "in_position", "in_color")])
        buf.write(data.tobytes())
        self.prog["u_view_proj"].write(np.ascontiguousarray(view_proj.T, np.float32).tobytes())
        self.vaos[mode].render(mode, vertices=len(data))

    def draw(self, overlays, settings, view_proj) -> None:
        import moderngl
        lines, points = overlay_vertices(overlays, settings)
        self.ctx.enable(moderngl.PROGRAM_POINT_SIZE)
        self._draw(lines, moderngl.LINES, view_proj)
        self._draw(points, moderngl.POINTS, view_proj)

    def release(self) -> None:
        for v in self.vaos.values():
            v.release()
        self.vaos.clear()
        for b in self.buffers.values():
            b.release()
        self.buffers.clear()
