"""GfxObj (0x01) and GfxObjDegradeInfo (0x11).

CGfxObj::Serialize 0x00534970, CVertexArray::UnPack 0x0053C030, CSWVertex::UnPack
0x0053DE50, CPolygon::UnPack 0x00538650, BSPNODE::UnPack 0x0053C540.

BSP trees have no length prefix; they are walked (never mis-sized) and kept as their raw
bytes, which is all the viewer needs (no collision or cell queries here).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, replace

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.common import CullMode, GfxObjFlags, StipplingType, Vec3, as_enum

# BSP node tags (u32 values; the disk bytes are the FourCC reversed).
LEAF = 0x4C454146
PORT = 0x504F5254
BPnn = 0x42506E6E
BPIn = 0x4250496E
BpIN = 0x4270494E
BpnN = 0x42706E4E
BPIN = 0x4250494E
BPnN = 0x42506E4E
BPOL = 0x42504F4C
_POS_CHILD = (BPnn, BPIn, BPIN, BPnN)
_NEG_CHILD = (BpIN, BpnN, BPIN, BPnN)

DRAWING, PHYSICS, CELL = "drawing", "physics", "cell"
_MAX_BSP_DEPTH = 1 << 20  # each node consumes >= 8 bytes, so only a sanity cap


def skip_bsp(r: Reader, mode: str) -> None:
    """Walk one BSP tree (BSPTREE::UnPack 0x00539830) without keeping it.

    Iterative: a hostile file cannot blow Python's recursion limit. Each stack item is a
    node still to read, or a node whose children are read and whose tail is pending.
    """
    stack: list[tuple[int, int]] = [(0, 0)]  # (kind 0 = read node / 1 = tail of tag, tag)
    while stack:
        if len(stack) > _MAX_BSP_DEPTH:
            raise r.error("BSP tree too deep: corrupt")
        kind, tag = stack.pop()
        if kind == 1:
            if tag == PORT:
                if mode == DRAWING:  # BSPPORTAL::UnPackPortal 0x0053DB70
                    r.skip(16, "BSP portal sphere")
                    npoly, nportal = r.fmt("II", "BSP portal counts")
                    r.count(npoly, 2, "BSP portal polygons", kept=False)
                    r.skip(2 * npoly, "BSP portal polygons")
                    r.count(nportal, 4, "BSP portal refs", kept=False)
                    r.skip(4 * nportal, "BSP portal refs")
            elif mode == DRAWING:
                r.skip(16, "BSP sphere")
                n = r.u32("BSP polygon count")
                r.count(n, 2, "BSP polygons", kept=False)
                r.skip(2 * n, "BSP polygons")
            elif mode == PHYSICS:
                r.skip(16, "BSP sphere")
            continue
        tag = r.u32("BSP tag")
        if tag == LEAF:  # BSPLEAF::UnPackLeaf 0x0053D4A0
            r.skip(4, "BSP leaf_index")
            if mode == PHYSICS:
                r.skip(4 + 16, "BSP leaf solid and sphere")
                n = r.u32("BSP leaf polygon count")
                r.count(n, 2, "BSP leaf polygons", kept=False)
                r.skip(2 * n, "BSP leaf polygons")
            continue
        r.skip(16, "BSP plane")
        stack.append((1, tag))
        if tag == PORT:
            stack.append((0, 0))  # neg
            stack.append((0, 0))  # pos (read first)
            continue
        if tag in _NEG_CHILD:
            stack.append((0, 0))
        if tag in _POS_CHILD:
            stack.append((0, 0))


def read_bsp(r: Reader, mode: str) -> bytes:
    start = r.pos
    skip_bsp(r, mode)
    return r.data[start:r.pos]


def drawing_leaf_bsp(leaf_index: int = 0) -> bytes:
    """The smallest valid drawing BSP (a single LEAF), for synthetic GfxObjs."""
    return struct.pack("<Ii", LEAF, leaf_index)


def physics_leaf_bsp(center=(0.0, 0.0, 0.0), radius: float = 0.0, polygons=()) -> bytes:
    """A single physics LEAF: leaf_index 0, solid 0, sphere, polygon indices."""
    n = len(polygons)
    return (struct.pack("<Iii4fI", LEAF, 0, 0, *center, radius, n)
            + struct.pack(f"<{n}H", *polygons))


@dataclass(frozen=True, slots=True)
class SWVertex:
    vertex_id: int
    origin: Vec3
    normal: Vec3
    uvs: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class VertexArray:
    vertex_type: int  # only 1 (CSWVertex) exists
    vertices: tuple[SWVertex, ...]


@dataclass(frozen=True, slots=True)
class Polygon:
    """CPolygon as stored. The client's load-time copy (sides_type 1: neg := pos) is a
    derivation the consumer applies; ``neg_uv_indices`` stays None here when not stored."""

    poly_id: int
    stippling: StipplingType
    sides_type: CullMode | int
    pos_surface: int
    neg_surface: int
    vertex_ids: tuple[int, ...]
    pos_uv_indices: tuple[int, ...] | None   # absent when stippling & NoPos
    neg_uv_indices: tuple[int, ...] | None   # only when sides_type == 2 and not NoNeg

    @property
    def num_pts(self) -> int:
        return len(self.vertex_ids)

    def as_loaded(self) -> Polygon:
        """The polygon as the client holds it after CPolygon::UnPack 0x00538650: with
        sides_type 1 the back face mirrors the front (neg_surface := pos_surface,
        neg_uv_indices := pos_uv_indices)."""
        if self.sides_type != 1:
            return self
        return replace(self, neg_surface=self.pos_surface, neg_uv_indices=self.pos_uv_indices)


def _read_polygon(r: Reader) -> Polygon:
    poly_id, num_pts, stippling, sides, pos_s, neg_s = r.fmt("HBBihh", "Polygon")
    vids = r.fmt(f"{num_pts}H", "Polygon vertex_ids")
    pos_uv = r.fmt(f"{num_pts}B", "pos_uv_indices") if not stippling & 0x4 else None
    neg_uv = None
    if sides == 2 and not stippling & 0x8:
        neg_uv = r.fmt(f"{num_pts}B", "neg_uv_indices")
    return Polygon(poly_id, StipplingType(stippling), as_enum(CullMode, sides), pos_s, neg_s,
                   vids, pos_uv, neg_uv)


def _write_polygon(w: Writer, p: Polygon) -> None:
    n = len(p.vertex_ids)
    w.fmt("HBBihh", p.poly_id, n, int(p.stippling), int(p.sides_type), p.pos_surface,
          p.neg_surface)
    w.fmt(f"{n}H", *p.vertex_ids)
    if (p.pos_uv_indices is None) != bool(p.stippling & 0x4):
        raise ValueError("Polygon: pos_uv_indices must be absent exactly when NoPos")
    if p.pos_uv_indices is not None:
        w.fmt(f"{n}B", *p.pos_uv_indices)
    wants_neg = p.sides_type == 2 and not p.stippling & 0x8
    if (p.neg_uv_indices is not None) != wants_neg:
        raise ValueError("Polygon: neg_uv_indices must be present exactly when sides_type "
                         "is 2 and NoNeg is clear")
    if p.neg_uv_indices is not None:
        w.fmt(f"{n}B", *p.neg_uv_indices)


_VHEAD = struct.Struct("<HH6f")


@dataclass(frozen=True, slots=True)
class GfxObj:
    id: int
    flags: GfxObjFlags
    surfaces: tuple[int, ...]
    vertex_array: VertexArray
    physics_polygons: tuple[Polygon, ...] | None   # flags & HasPhysics
    physics_bsp: bytes | None                       # raw physics BSP bytes
    sort_center: Vec3
    polygons: tuple[Polygon, ...] | None            # flags & HasDrawing
    drawing_bsp: bytes | None                       # raw drawing BSP bytes
    did_degrade: int | None                         # flags & HasDIDDegrade -> 0x11 DID

    @classmethod
    def read(cls, r: Reader) -> GfxObj:
        id_ = r.u32("id")
        flags = GfxObjFlags(r.u32("flags"))
        n = r.count(r.cuint("num_surfaces"), 4, "surfaces")
        surfaces = r.fmt(f"{n}I", "surfaces")
        vtype = r.i32("vertex_type")
        nv = r.count(r.u32("num_vertices"), 28, "vertices")
        if vtype != 1 and nv:
            raise r.error(f"vertex_type {vtype} is not CSWVertex (1); the client reads no "
                          f"vertices for it")
        verts = []
        for _ in range(nv):
            vid, nuv, ox, oy, oz, nx, ny, nz = r.unpack(_VHEAD, "SWVertex")
            uv = r.fmt(f"{2 * r.count(nuv, 8, 'SWVertex uvs')}f", "SWVertex uvs") if nuv else ()
            verts.append(SWVertex(vid, (ox, oy, oz), (nx, ny, nz),
                                  tuple(uv[i:i + 2] for i in range(0, 2 * nuv, 2))))
        phys_polys = phys_bsp = polys = draw_bsp = degrade = None
        if flags & GfxObjFlags.HasPhysics:
            m = r.count(r.cuint("num_physics_polygons"), 12, "physics_polygons")
            phys_polys = tuple(_read_polygon(r) for _ in range(m))
            phys_bsp = read_bsp(r, PHYSICS)
        sort_center = r.vec3("sort_center")
        if flags & GfxObjFlags.HasDrawing:
            m = r.count(r.cuint("num_polygons"), 12, "polygons")
            polys = tuple(_read_polygon(r) for _ in range(m))
            draw_bsp = read_bsp(r, DRAWING)
        if flags & GfxObjFlags.HasDIDDegrade:
            degrade = r.u32("did_degrade")  # not re-aligned (CGfxObj::Serialize 0x00534970)
        return cls(id_, flags, surfaces, VertexArray(vtype, tuple(verts)), phys_polys,
                   phys_bsp, sort_center, polys, draw_bsp, degrade)

    def write(self, w: Writer) -> None:
        f = self.flags
        checks = ((GfxObjFlags.HasPhysics, self.physics_polygons, "physics_polygons"),
                  (GfxObjFlags.HasPhysics, self.physics_bsp, "physics_bsp"),
                  (GfxObjFlags.HasDrawing, self.polygons, "polygons"),
                  (GfxObjFlags.HasDrawing, self.drawing_bsp, "drawing_bsp"),
                  (GfxObjFlags.HasDIDDegrade, self.did_degrade, "did_degrade"))
        for bit, value, name in checks:
            if bool(f & bit) != (value is not None):
                raise ValueError(f"GfxObj: {name} must be present exactly when flags has "
                                 f"{bit.name}")
        w.u32(self.id)
        w.u32(int(f))
        w.cuint(len(self.surfaces))
        w.fmt(f"{len(self.surfaces)}I", *self.surfaces)
        w.i32(self.vertex_array.vertex_type)
        w.u32(len(self.vertex_array.vertices))
        for v in self.vertex_array.vertices:
            w.pack(_VHEAD, v.vertex_id, len(v.uvs), *v.origin, *v.normal)
            for uv in v.uvs:
                w.fmt("2f", *uv)
        if self.physics_polygons is not None:
            w.cuint(len(self.physics_polygons))
            for p in self.physics_polygons:
                _write_polygon(w, p)
            w.bytes(self.physics_bsp)
        w.vec3(self.sort_center)
        if self.polygons is not None:
            w.cuint(len(self.polygons))
            for p in self.polygons:
                _write_polygon(w, p)
            w.bytes(self.drawing_bsp)
        if self.did_degrade is not None:
            w.u32(self.did_degrade)


@dataclass(frozen=True, slots=True)
class GfxObjInfo:
    gfxobj_id: int
    degrade_mode: int
    min_dist: float
    ideal_dist: float
    max_dist: float


@dataclass(frozen=True, slots=True)
class GfxObjDegradeInfo:
    id: int
    degrades: tuple[GfxObjInfo, ...]

    @classmethod
    def read(cls, r: Reader) -> GfxObjDegradeInfo:
        id_ = r.u32("id")
        n = r.count(r.u32("count"), 20, "degrades")
        return cls(id_, tuple(GfxObjInfo(*r.fmt("II3f", "GfxObjInfo")) for _ in range(n)))

    def write(self, w: Writer) -> None:
        w.u32(self.id)
        w.u32(len(self.degrades))
        for d in self.degrades:
            w.fmt("II3f", d.gfxobj_id, d.degrade_mode, d.min_dist, d.ideal_dist, d.max_dist)
