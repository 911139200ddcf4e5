"""Hand-built records for render tests, shaped as the retail records are (no retail bytes).

The renderer reads records through ``db.get(did)``; these stand-ins carry the same field
names as ``viewer.dat.records`` so the tests exercise the real access paths.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Vertex:
    vertex_id: int
    origin: tuple
    normal: tuple
    uvs: tuple = ()


@dataclass(frozen=True)
class VertexArray:
    vertex_type: int
    vertices: tuple


@dataclass(frozen=True)
class Polygon:
    poly_id: int
    stippling: int
    sides_type: int
    pos_surface: int
    neg_surface: int
    vertex_ids: tuple
    pos_uv_indices: tuple | None
    neg_uv_indices: tuple | None = None

    @property
    def num_pts(self):
        return len(self.vertex_ids)


@dataclass(frozen=True)
class GfxObj:
    id: int
    surfaces: tuple
    vertex_array: VertexArray
    polygons: tuple
    sort_center: tuple = (0.0, 0.0, 0.0)
    did_degrade: int | None = None
    flags: int = 2


@dataclass(frozen=True)
class Surface:
    type: int
    orig_texture_id: int | None = None
    orig_palette_id: int | None = None
    color_value: int | None = None
    translucency: float = 0.0
    luminosity: float = 0.0
    diffuse: float = 1.0


@dataclass(frozen=True)
class SurfaceTexture:
    id: int
    textures: tuple
    data_category: int = 0
    texture_type: int = 2


@dataclass(frozen=True)
class RenderSurface:
    id: int
    width: int
    height: int
    format: int
    source_data: bytes
    default_palette_id: int | None = None
    data_category: int = 6


@dataclass(frozen=True)
class Palette:
    id: int
    colors: tuple


@dataclass(frozen=True)
class GfxObjInfo:
    gfxobj_id: int
    degrade_mode: int
    min_dist: float
    ideal_dist: float
    max_dist: float


@dataclass(frozen=True)
class GfxObjDegradeInfo:
    id: int
    degrades: tuple


class FakeDB:
    def __init__(self):
        self.records = {}
        self.gets = 0

    def add(self, did, rec):
        self.records[did] = rec
        return did

    def get(self, did):
        self.gets += 1
        return self.records.get(did)


def quad_gfxobj(did, surface_did, *, plane="xz", size=1.0, sides_type=0, degrade=None,
                sort_center=(0.0, 0.0, 0.0)):
    """A unit quad centred on the origin. plane 'xz' (particle quads, normal -Y: the side the
    viewer sees when +Y points away) or 'xy' (floor, normal +Z); CCW seen from the normal."""
    h = size / 2
    if plane == "xz":
        pts = [(-h, 0, -h), (h, 0, -h), (h, 0, h), (-h, 0, h)]
        nrm = (0.0, -1.0, 0.0)
    else:
        pts = [(-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0)]
        nrm = (0.0, 0.0, 1.0)
    uvs = [((0.0, 1.0),), ((1.0, 1.0),), ((1.0, 0.0),), ((0.0, 0.0),)]
    verts = tuple(Vertex(i, p, nrm, uvs[i]) for i, p in enumerate(pts))
    poly = Polygon(0, 0, sides_type, 0, 0, (0, 1, 2, 3), (0, 0, 0, 0),
                   (0, 0, 0, 0) if sides_type == 2 else None)
    return GfxObj(did, (surface_did,), VertexArray(1, verts), (poly,), sort_center, degrade,
                  flags=2 | (8 if degrade else 0))


def cube_gfxobj(did, surface_did, size=1.0):
    """An axis-aligned cube on the origin, outward CCW faces, per-face normals."""
    h = size / 2
    faces = [((1, 0, 0), [(h, -h, -h), (h, h, -h), (h, h, h), (h, -h, h)]),
             ((-1, 0, 0), [(-h, h, -h), (-h, -h, -h), (-h, -h, h), (-h, h, h)]),
             ((0, 1, 0), [(h, h, -h), (-h, h, -h), (-h, h, h), (h, h, h)]),
             ((0, -1, 0), [(-h, -h, -h), (h, -h, -h), (h, -h, h), (-h, -h, h)]),
             ((0, 0, 1), [(-h, -h, h), (h, -h, h), (h, h, h), (-h, h, h)]),
             ((0, 0, -1), [(-h, h, -h), (h, h, -h), (h, -h, -h), (-h, -h, -h)])]
    verts, polys = [], []
    uv = ((0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0))
    for f, (n, pts) in enumerate(faces):
        ids = []
        for k, p in enumerate(pts):
            ids.append(len(verts))
            verts.append(Vertex(len(verts), p, n, (uv[k],)))
        polys.append(Polygon(f, 0, 0, 0, 0, tuple(ids), (0, 0, 0, 0)))
    return GfxObj(did, (surface_did,), VertexArray(1, tuple(verts)), tuple(polys))


def checker_a8r8g8b8(w=8, h=8, c0=0xFFFF0000, c1=0xFF0000FF) -> bytes:
    """A8R8G8B8 checkerboard: u32 0xAARRGGBB little-endian (PixelFormatDesc::SetFormat
    0x0043D0F0)."""
    yy, xx = np.mgrid[0:h, 0:w]
    px = np.where(((xx // 2 + yy // 2) % 2) == 0, c0, c1).astype("<u4")
    return px.tobytes()


def solid_surface(db, did, argb, *, surface_type=0x1, translucency=0.0, luminosity=0.0,
                  diffuse=1.0):
    return db.add(did, Surface(surface_type, color_value=argb, translucency=translucency,
                               luminosity=luminosity, diffuse=diffuse))


def textured_surface(db, did, rs_did, fmt, w, h, data, *, surface_type=0x2, palette=None,
                     translucency=0.0, luminosity=0.0, diffuse=1.0):
    tex_did = 0x05000000 | (rs_did & 0xFFFF)
    pal_did = None
    if palette is not None:
        pal_did = db.add(0x04000000 | (rs_did & 0xFFFF), Palette(0x04000000 | (rs_did & 0xFFFF),
                                                                 tuple(palette)))
    db.add(rs_did, RenderSurface(rs_did, w, h, fmt, data, pal_did))
    db.add(tex_did, SurfaceTexture(tex_did, (rs_did,)))
    return db.add(did, Surface(surface_type, orig_texture_id=tex_did, orig_palette_id=0,
                               translucency=translucency, luminosity=luminosity,
                               diffuse=diffuse))


def grid_gfxobj(did, surface_did, *, size=4.0, n=16):
    """A flat XY floor of n x n quads (normal +Z): fine enough for per-vertex lighting."""
    h = size / 2
    step = size / n
    verts = []
    for j in range(n + 1):
        for i in range(n + 1):
            verts.append(Vertex(len(verts), (-h + i * step, -h + j * step, 0.0), (0, 0, 1),
                                ((i / n, j / n),)))
    polys = []
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i
            polys.append(Polygon(len(polys), 0, 0, 0, 0, (a, a + 1, a + n + 2, a + n + 1),
                                 (0, 0, 0, 0)))
    return GfxObj(did, (surface_did,), VertexArray(1, tuple(verts)), tuple(polys))
