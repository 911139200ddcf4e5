"""GfxObj polygons to GPU vertex buffers, and surfaces to textures and blend states.

Triangulation (pure numpy, cached per GfxObj) follows the retail mesh build,
`D3DPolyRender::ConstructMesh` 0x0059DFA0 (the path every GfxObj takes, `CGfxObj::InitLoad`
0x005346B0): each polygon is a fan (0, k+1, k+2) in its stored vertex order.

* ``sides_type`` 1: a second winding with the order reversed (0, k+2, k+1), negated normals,
  the positive surface and UVs (`CPolygon::UnPack` 0x00538650 copies pos to neg).
* ``sides_type`` 2: a second side with ``neg_surface`` and ``neg_uv_indices`` and negated
  normals but the SAME winding as the front (only the winding loop reverses the index order),
  so under retail's back-face cull it is seen only from the front, coplanar with it.
* Missing UV indices (stippling NoPos) select each vertex's UV 0 (``uvsForSide`` NULL -> 0).

Face culling (`D3DPolyRender::RenderMeshSubset` 0x0059CA10 sets CULLMODE_CW on every subset):
D3D culls triangles that appear clockwise on screen. Retail's view matrix
(`Render::update_viewpoint` 0x0054CDD0: view x = camera X, y = camera Z, z = camera Y) with
`D3DXMatrixPerspectiveFovLH` gives an unmirrored image of the right-handed world, so the drawn
side is the one whose vertices run counter-clockwise seen from it, i.e. the side the
right-hand-rule plane normal of `CPolygon::make_plane` 0x005383D0 points to. The renderer's
right-handed GL camera keeps that with ``front_face = "ccw"`` and back faces culled.
Vertices are looked up by array position (CVertexArray::UnPack 0x0053C030).

Record access goes through the small helpers at the top so the field names of
``viewer.dat.records`` are read in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from viewer.dat import pixels
from viewer.dat import records as R
from viewer.dat.records.common import PixelFormat
from viewer.errors import DatError, ViewerError
from viewer.render import materials, textures

VERTEX_FLOATS = 8  # position 3, normal 3, uv 2


# --- triangulation ------------------------------------------------------------------------------
@dataclass
class MeshData:
    """Triangles of one GfxObj grouped by surface index: (surface_index, first, count)."""

    vertices: np.ndarray                     # (M, 8) float32
    subsets: list[tuple[int, int, int]]
    sort_center: tuple[float, float, float] = (0.0, 0.0, 0.0)
    # surface indices drawn with WRAP addressing (a polygon using it as pos_surface has
    # stippling != 0); every other subset clamps (D3DPolyRender MeshBuffer build and
    # SetSurface 0x0059C4D0: stippled -> TEXADDRESS_WRAP, else TEXADDRESS_CLAMP)
    wrap: frozenset = frozenset()
    # per vertex row: SIDE_ONE (a side drawn alone), SIDE_FRONT / SIDE_MIRROR (the front and
    # the mirrored back winding of a sides_type 1 polygon: the same corners, normals negated)
    row_sides: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8))


SIDE_ONE, SIDE_FRONT, SIDE_MIRROR = 0, 1, 2


def triangulate_gfxobj(gfx, did: int | None = None) -> MeshData:
    """Fan-triangulate the drawing polygons of a GfxObj record."""
    did = did if did is not None else gfx.id
    verts = list(gfx.vertex_array.vertices)
    n_surf = len(gfx.surfaces)
    per_surface: dict[int, list[list[float]]] = {}
    sides_of: dict[int, list[int]] = {}
    wrap: set[int] = set()

    def corner(vi: int, uv_index: int | None, flip: bool) -> list[float]:
        if not 0 <= vi < len(verts):
            raise DatError(f"polygon vertex index {vi} outside {len(verts)} vertices", did=did)
        v = verts[vi]
        o, n = v.origin, v.normal
        uvs = v.uvs
        if uv_index is None:
            uv_index = 0  # ConstructMesh: no UV index list -> index 0 (copyVert 0x0059C080)
        if not uvs:
            u, w = 0.0, 0.0  # copyVert: a vertex without UVs gets (0, 0)
        else:
            if not 0 <= uv_index < len(uvs):
                raise DatError(f"polygon uv index {uv_index} outside {len(uvs)} uvs of "
                               f"vertex {vi}", did=did)
            u, w = uvs[uv_index]
        s = -1.0 if flip else 1.0
        return [o[0], o[1], o[2], s * n[0], s * n[1], s * n[2], u, w]

    for poly in gfx.polygons or ():   # None without HasDrawing
        ids = list(poly.vertex_ids)
        if len(ids) < 3:
            continue
        sides = int(poly.sides_type)
        if int(poly.stippling) > 0:
            wrap.add(int(poly.pos_surface))
        # (surface, uv indices, negate normals, reverse winding): ConstructMesh 0x0059DFA0
        faces = [(int(poly.pos_surface), poly.pos_uv_indices, False, False,
                  SIDE_FRONT if sides == 1 else SIDE_ONE)]
        if sides == 2:  # own side: neg surface/UVs, normals negated, winding NOT reversed
            faces.append((int(poly.neg_surface), poly.neg_uv_indices, True, False, SIDE_ONE))
        elif sides == 1:  # back face mirrors the front (CPolygon::UnPack 0x00538650)
            faces.append((int(poly.pos_surface), poly.pos_uv_indices, True, True, SIDE_MIRROR))
        for surf, uvi, flip, reverse, tag in faces:
            if not 0 <= surf < n_surf:
                raise DatError(f"polygon {poly.poly_id} surface index {surf} "
                               f"outside {n_surf} surfaces", did=did)
            uvi = list(uvi) if uvi else None
            corners = [corner(ids[k], None if uvi is None else uvi[k], flip)
                       for k in range(len(ids))]
            out = per_surface.setdefault(surf, [])
            for k in range(1, len(ids) - 1):  # fan from vertex 0
                tri = (corners[0], corners[k], corners[k + 1])
                out.extend(tri if not reverse else (tri[0], tri[2], tri[1]))
            sides_of.setdefault(surf, []).extend([tag] * (3 * (len(ids) - 2)))
    rows: list[list[float]] = []
    row_sides: list[int] = []
    subsets = []
    for surf in sorted(per_surface):
        subsets.append((surf, len(rows), len(per_surface[surf])))
        rows.extend(per_surface[surf])
        row_sides.extend(sides_of[surf])
    arr = np.asarray(rows, np.float32).reshape(-1, VERTEX_FLOATS)
    sc = tuple(float(c) for c in gfx.sort_center)
    return MeshData(arr, subsets, sc, frozenset(wrap), np.asarray(row_sides, np.int8))


# --- surfaces -----------------------------------------------------------------------------------
@dataclass
class SurfaceMaterial:
    """One Surface resolved for drawing."""

    surface_type: int
    texture: object | None                   # moderngl texture or None for a solid colour
    color: tuple[float, float, float, float]  # solid colour RGBA (white when textured)
    translucency: float
    luminosity: float
    diffuse: float
    paletted: bool = False                   # P8 / INDEX16 texture (alpha-test ref 100)
    texture_mode: str = ""                   # "compressed" / "decoded" / ""

    def blend(self, part_translucent: bool = False) -> materials.BlendState:
        return materials.surface_blend(self.surface_type, paletted=self.paletted,
                                       part_translucent=part_translucent)

    def vertex_alpha(self) -> float:
        """The diffuse alpha baked into the mesh's vertex colours: copyVert 0x0059C080 writes
        ``(u64)((1 - translucency) * 255) << 24`` for a TRANSLUCENT surface, else 255. It is
        the lit alpha only while the part has no private material (``materials.diffuse_alpha``)."""
        if self.surface_type & materials.TRANSLUCENT:
            return materials.alpha_byte(self.translucency) / 255.0
        return 1.0


def argb_to_rgba(c: int) -> tuple[float, float, float, float]:
    c = int(c) & 0xFFFFFFFF
    return ((c >> 16 & 0xFF) / 255.0, (c >> 8 & 0xFF) / 255.0, (c & 0xFF) / 255.0,
            (c >> 24 & 0xFF) / 255.0)


#: a Surface drawn from a texture (Base1Image or Base1ClipMap), not a solid colour
TEXTURED = materials.BASE1_IMAGE | materials.BASE1_CLIPMAP


def typed_record(db, did: int, cls: type, by: int | None = None):
    """The record DID ``did`` names, which must be a ``cls`` (its DID's type): "DID X is a
    Y, not a Z (named by ``by``)" otherwise, before it is read."""
    if did and R.record_class(did) is not cls:
        raise R.wrong_type(did, R.type_name(did), cls, by=by)
    try:
        rec = db.get(did)
    except ViewerError:
        raise
    except KeyError:
        rec = None
    if rec is None:
        raise DatError("record not found", did=did)
    return rec


@dataclass(frozen=True)
class TextureSource:
    """The pixels a textured Surface draws: its SurfaceTexture's source level 0
    RenderSurface, and for P8 / INDEX16 the palette (RGBA rows) it is looked up in."""

    did: int                      # the RenderSurface
    fmt: int
    width: int
    height: int
    data: bytes
    palette: np.ndarray | None

    @property
    def paletted(self) -> bool:
        return self.fmt in (PixelFormat.P8, PixelFormat.INDEX16)

    def rgba(self) -> np.ndarray:
        """(H, W, 4) uint8, top row first (textures.decode_rgba)."""
        return textures.decode_rgba(self.fmt, self.width, self.height, self.data,
                                    self.palette, did=self.did)


def texture_source(db, did: int, s) -> TextureSource:
    """Surface ``s`` (DID ``did``) -> SurfaceTexture -> RenderSurface, and for an indexed one
    the table it is combined through (``paletted_table``): its texture's default palette.
    The Surface's stored palette is not drawn: loading binds the texture's default palette
    and overwrites the stored one with it (``CSurface::Serialize`` 0x005365F0 ->
    ``CSurface::InitEnd`` 0x00536400 with SurfaceInitLoading; the texture's palette is
    ``ImgTex::CreateFromRenderSurface_Internal`` 0x0053F270's ``m_pPalette``)."""
    return texture_pixels(db, int(s.orig_texture_id), int(s.type), by=did)


def texture_pixels(db, texture: int, surface_type: int, *, palette=None,
                   by: int | None = None) -> TextureSource:
    """SurfaceTexture ``texture`` -> its source level 0 RenderSurface, and for P8 / INDEX16
    the table it is combined through (``paletted_table`` for ``surface_type``) of
    ``palette`` (runtime colours: an ObjDesc part's), else of the texture's default palette
    (``CSurface::InitEnd`` 0x00536400). Shared by a Surface's own texture and a part's
    ObjDesc-changed one."""
    stex = typed_record(db, texture, R.SurfaceTexture, by=by)
    levels = list(stex.textures)
    if not levels:
        raise DatError("SurfaceTexture lists no RenderSurface", did=texture)
    rs_did = int(levels[0])  # ACViewer uses textures[0]; the client's source level 0
    rs = typed_record(db, rs_did, R.RenderSurface, by=texture)
    fmt = int(rs.format)
    pal = None
    if fmt in (PixelFormat.P8, PixelFormat.INDEX16):
        if palette is None:
            palette = pixels.runtime_palette(typed_record(
                db, int(rs.default_palette_id or 0), R.Palette, by=rs_did).colors)
        pal = paletted_table(palette, surface_type)
    return TextureSource(rs_did, fmt, int(rs.width), int(rs.height), bytes(rs.source_data),
                         pal)


def paletted_table(runtime_colors, surface_type: int) -> np.ndarray:
    """The RGBA table a Surface of ``surface_type`` combines its paletted texture through
    (``CSurface::SetTextureAndPalette`` 0x00535FB0 passes its clip-map bit to
    ``ImgTex::CreateCombinedTexture`` 0x00540420): ``pixels.combined_palette``. One place
    for the ordinary and the ObjDesc-changed surfaces."""
    return pixels.combined_palette(runtime_colors, bool(surface_type & materials.BASE1_CLIPMAP))


def surface_material(db, did: int, *, by: int | None = None,
                     texture: bool = True) -> tuple[SurfaceMaterial, TextureSource | None]:
    """Surface ``did`` resolved without GL: its material (no texture object yet) and, for a
    textured one when ``texture``, the pixels it draws (``by``: the GfxObj naming it)."""
    s = typed_record(db, did, R.Surface, by=by)
    st = int(s.type)
    trans = float(s.translucency)
    if trans > 0.0002:  # CSurface::InitEnd 0x00536400
        st |= materials.TRANSLUCENT
    color = (1.0, 1.0, 1.0, 1.0)
    source = None
    if st & TEXTURED:
        source = texture_source(db, did, s) if texture else None
    else:
        # D3DPolyRender::SetSurface 0x0059C4D0 -> SetSolidColorTextureColor: colour_value's
        # RGB with alpha (u64)((1 - translucency) * 255) whatever the TRANSLUCENT bit (the
        # stored alpha byte is not used); the 1x1 texture is then modulated by the diffuse
        # alpha like any texture
        r, g, b, _ = argb_to_rgba(s.color_value or 0)
        color = (r, g, b, materials.alpha_byte(trans) / 255.0)
    mat = SurfaceMaterial(st, None, color, trans, float(s.luminosity), float(s.diffuse),
                          source.paletted if source is not None else False)
    return mat, source


@dataclass
class GpuSubset:
    surface_index: int
    first: int
    count: int
    material: SurfaceMaterial
    wrap: bool = False        # texture addressing: WRAP (stippled) or CLAMP


@dataclass
class GpuMesh:
    did: int
    vbo: object
    subsets: list[GpuSubset]
    sort_center: tuple[float, float, float]
    degrade: list = field(default_factory=list)   # GfxObjInfo entries, [] if none
    radius: float = 0.0                           # bounding radius about the part origin
    vaos: dict = field(default_factory=dict)      # program key -> vertex array
    data: MeshData | None = None                  # the triangulation the vbo holds
    corners: object | None = None                 # particles.CornerTable, built when drawn


class MeshCache:
    """GfxObj DID -> GpuMesh, Surface DID -> SurfaceMaterial; built once, reused."""

    def __init__(self, ctx, db, *, allow_compressed: bool = True) -> None:
        self.ctx = ctx
        self.db = db
        self.allow_compressed = allow_compressed
        self.meshes: dict[int, GpuMesh] = {}
        self.surfaces: dict[int, SurfaceMaterial] = {}
        # (Surface, SurfaceTexture, palette key) -> a part's ObjDesc-changed surface
        self.custom: dict[tuple, SurfaceMaterial] = {}
        # (GfxObj, a part's drawn surfaces) -> the mesh's subsets drawn with them
        self.custom_subsets: dict[tuple, list[GpuSubset]] = {}

    def _get(self, did: int, cls: type, by: int | None = None):
        return typed_record(self.db, did, cls, by)

    def surface(self, did: int, by: int | None = None) -> SurfaceMaterial:
        """The material of Surface ``did`` (``by``: the GfxObj naming it, for errors)."""
        mat = self.surfaces.get(did)
        if mat is None:
            mat = self.surfaces[did] = self._load_surface(did, by=by)
        return mat

    def custom_surface(self, drawn) -> SurfaceMaterial:
        """A part's private surface after an ObjDesc (``inspect.part_surfaces`` entry): the
        Surface's blend and channels with the SurfaceTexture and palette the part draws."""
        key = (drawn.surface_did, drawn.texture, drawn.palette_key)
        mat = self.custom.get(key)
        if mat is None:
            mat = self.custom[key] = self._load_surface(drawn.surface_did, drawn)
        return mat

    def subsets(self, mesh: GpuMesh, surfaces) -> list[GpuSubset]:
        """The subsets ``mesh`` draws with a part's private surfaces (``inspect.part_surfaces``
        entries by surface index; None: the GfxObj's own), made once per GfxObj and surfaces
        (never per frame)."""
        if surfaces is None:
            return mesh.subsets
        key = (mesh.did, surfaces)
        subs = self.custom_subsets.get(key)
        if subs is None:
            subs = self.custom_subsets[key] = [
                GpuSubset(sub.surface_index, sub.first, sub.count,
                          self.custom_surface(surfaces[sub.surface_index]), sub.wrap)
                if sub.surface_index < len(surfaces) else sub
                for sub in mesh.subsets]
        return subs

    def _load_surface(self, did: int, drawn=None, by: int | None = None) -> SurfaceMaterial:
        mat, source = surface_material(self.db, did, by=by, texture=drawn is None)
        if drawn is not None and mat.surface_type & TEXTURED and drawn.texture:
            # a private surface: its SurfaceTexture's source level 0, a paletted one looked
            # up in the part's palette texel by texel, indices below 8 transparent on a
            # clip-map surface (ImgTex::CopyIntoData 0x0053EC60); none bound: white
            source = texture_pixels(self.db, drawn.texture, mat.surface_type,
                                    palette=drawn.palette)
        if source is not None:
            mat.texture = textures.upload(self.ctx, source.fmt, source.width, source.height,
                                          source.data, source.palette, did=source.did,
                                          allow_compressed=self.allow_compressed)
            mat.paletted = source.paletted
            mat.texture_mode = mat.texture.extra   # set by textures.upload
        return mat

    def mesh(self, did: int) -> GpuMesh:
        """The GfxObj's mesh; one no open DAT holds, or a DID of another type (a record's
        type is its DID's top byte), draws nothing (the runtime traced it as ``missing``
        where a Setup or an emitter named it: retail makes no part for it,
        CPhysicsPart::SetPart 0x0050E700)."""
        m = self.meshes.get(did)
        if m is None:
            m = self.meshes[did] = (self._load_mesh(did) if self._holds(did)
                                    else self._absent_mesh(did))
        return m

    def _holds(self, did: int) -> bool:
        return self._present(did) and R.record_class(did) is R.GfxObj

    def _present(self, did: int) -> bool:
        """Whether an open DAT holds ``did`` (a database without a directory: loading it
        will tell)."""
        try:
            return did in self.db
        except TypeError:
            return True

    def _absent_mesh(self, did: int) -> GpuMesh:
        return GpuMesh(did, self.ctx.buffer(np.zeros(VERTEX_FLOATS, np.float32).tobytes()),
                       [], (0.0, 0.0, 0.0))

    def _load_mesh(self, did: int) -> GpuMesh:
        gfx = self._get(did, R.GfxObj)
        data = triangulate_gfxobj(gfx, did)
        surf_dids = list(gfx.surfaces)
        subsets = [GpuSubset(si, first, count, self.surface(int(surf_dids[si]), by=did),
                             si in data.wrap)
                   for si, first, count in data.subsets]
        vbo = self.ctx.buffer(data.vertices.tobytes() if len(data.vertices) else
                              np.zeros(VERTEX_FLOATS, np.float32).tobytes())
        degrade = []
        deg_did = int(gfx.did_degrade or 0)
        # CPhysicsPart::LoadGfxObjArray 0x0050DCF0: a degrade table that cannot be loaded
        # leaves the GfxObj drawn alone, with no degrades
        if deg_did and self._present(deg_did):
            degrade = list(self._get(deg_did, R.GfxObjDegradeInfo, by=did).degrades)
        radius = float(np.sqrt((data.vertices[:, :3] ** 2).sum(axis=1)).max(initial=0.0))
        return GpuMesh(did, vbo, subsets, data.sort_center, degrade, radius=radius, data=data)

    def release(self) -> None:
        for m in self.meshes.values():
            for vao in m.vaos.values():
                vao.release()
            if m.corners is not None:
                m.corners.release()
            m.vbo.release()
        for s in (*self.surfaces.values(), *self.custom.values()):
            if s.texture is not None:
                s.texture.release()
        self.meshes.clear()
        self.surfaces.clear()
        self.custom.clear()
        self.custom_subsets.clear()
