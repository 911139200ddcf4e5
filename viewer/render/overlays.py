"""Debug overlays: sorting/collision sphere circles, part axes, emitter anchors and offset
shells. Line and point vertices are built with numpy (x, y, z, r, g, b, a); one upload and
one draw per primitive kind."""

from __future__ import annotations

import numpy as np

from viewer.render.programs import load_program

SPHERE_COLORS = {"sorting": (0.95, 0.85, 0.2, 1.0), "collision": (0.2, 0.9, 0.9, 1.0),
                 "selection": (0.8, 0.4, 1.0, 1.0), "shell": (1.0, 0.5, 0.2, 1.0)}
ANCHOR_COLOR = (1.0, 0.3, 0.9, 1.0)
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

    def _draw(self, data: np.ndarray, mode, view_proj) -> None:
        if len(data) == 0:
            return
        buf = self.buffers.get(mode)
        if buf is None or buf.size < data.nbytes:
            if buf is not None:
                buf.release()
            buf = self.buffers[mode] = self.ctx.buffer(reserve=max(data.nbytes, 4096) * 2,
                                                       dynamic=True)
        buf.write(data.tobytes())
        vao = self.ctx.vertex_array(self.prog, [(buf, "3f 4f", "in_position", "in_color")])
        self.prog["u_view_proj"].write(np.ascontiguousarray(view_proj.T, np.float32).tobytes())
        vao.render(mode, vertices=len(data))
        vao.release()

    def draw(self, overlays, settings, view_proj) -> None:
        import moderngl
        lines, points = overlay_vertices(overlays, settings)
        self.ctx.enable(moderngl.PROGRAM_POINT_SIZE)
        self._draw(lines, moderngl.LINES, view_proj)
        self._draw(points, moderngl.POINTS, view_proj)

    def release(self) -> None:
        for b in self.buffers.values():
            b.release()
        self.buffers.clear()
