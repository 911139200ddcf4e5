"""Ground grid on the XY plane (Z up, 1 m cells, brighter every 5 m) and the world axes
(X red, Y green, Z blue, 1 m long). Drawn first into the viewport target."""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.render.programs import load_program

MINOR = (0.30, 0.30, 0.33, 0.55)
MAJOR = (0.45, 0.45, 0.50, 0.85)
AXIS_X = (0.90, 0.20, 0.20, 1.0)
AXIS_Y = (0.20, 0.85, 0.25, 1.0)
AXIS_Z = (0.25, 0.45, 1.00, 1.0)
AXIS_VERTICES = 6   # the three axes, last in grid_vertices


def grid_vertices(half_extent: int = 20, major_every: int = 5,
                  axis_length: float = 1.0) -> np.ndarray:
    """Line-list vertices as a float32 (N, 7) array: x, y, z, r, g, b, a. Grid lines
    skip the two lines the X and Y axes cover (drawn in colour from 0 to +axis_length,
    the negative half stays a major grid line)."""
    rows: list[tuple] = []
    n = half_extent
    for i in range(-n, n + 1):
        color = MAJOR if i % major_every == 0 else MINOR
        if i == 0:
            # The half lines on the negative side; the positive side is split at the axis.
            rows += [(-n, 0, 0, *MAJOR), (0, 0, 0, *MAJOR)]
            rows += [(axis_length, 0, 0, *MAJOR), (n, 0, 0, *MAJOR)]
            rows += [(0, -n, 0, *MAJOR), (0, 0, 0, *MAJOR)]
            rows += [(0, axis_length, 0, *MAJOR), (0, n, 0, *MAJOR)]
            continue
        rows += [(i, -n, 0, *color), (i, n, 0, *color)]   # parallel to Y
        rows += [(-n, i, 0, *color), (n, i, 0, *color)]   # parallel to X
    a = axis_length
    rows += [(0, 0, 0, *AXIS_X), (a, 0, 0, *AXIS_X)]
    rows += [(0, 0, 0, *AXIS_Y), (0, a, 0, *AXIS_Y)]
    rows += [(0, 0, 0, *AXIS_Z), (0, 0, a, *AXIS_Z)]
    return np.asarray(rows, np.float32)


class GridPass:
    """Draws the grid and axes with depth test on and alpha blending."""

    def __init__(self, ctx: moderngl.Context, half_extent: int = 20) -> None:
        self.ctx = ctx
        self.half_extent = half_extent
        self.program = load_program(ctx, "grid")   # cached per context: not ours to release
        verts = grid_vertices(half_extent)
        self.vertex_count = len(verts)
        self.vbo = ctx.buffer(verts.tobytes())
        self.vao = ctx.vertex_array(self.program,
                                    [(self.vbo, "3f 4f", "in_position", "in_color")])

    def draw(self, view_proj: np.ndarray, eye, *, grid: bool = True, axes: bool = True) -> None:
        """The grid lines and / or the axes (the last six vertices)."""
        if not (grid or axes):
            return
        self.program["u_view_proj"].write(np.ascontiguousarray(view_proj.T, np.float32))
        self.program["u_eye"].value = tuple(float(v) for v in eye)
        self.program["u_fade_start"].value = self.half_extent * 0.6
        self.program["u_fade_end"].value = self.half_extent * 1.6
        self.ctx.enable(moderngl.DEPTH_TEST | moderngl.BLEND)
        # Colour blends; destination alpha stays 1 so the viewport texture is opaque when
        # ImGui composites it.
        self.ctx.blend_func = (moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA,
                               moderngl.ZERO, moderngl.ONE)
        first = 0 if grid else self.vertex_count - AXIS_VERTICES
        count = self.vertex_count - first - (0 if axes else AXIS_VERTICES)
        self.vao.render(moderngl.LINES, vertices=count, first=first)

    def release(self) -> None:
        for obj in (self.vao, self.vbo):
            obj.release()
