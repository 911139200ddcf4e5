"""GfxObj triangulation (fan from vertex 0, CPolygon::UnPack 0x00538650 sides rules)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.render.fakes import (
    FakeDB,
    GfxObj,
    Polygon,
    Vertex,
    VertexArray,
    cube_gfxobj,
    quad_gfxobj,
    solid_surface,
)
from viewer.errors import DatError
from viewer.render.meshes import MeshCache, triangulate_gfxobj


def test_polygon_is_fan_triangulated_from_vertex_0():
    pts = [(0, 0, 0), (1, 0, 0), (1.5, 1, 0), (1, 2, 0), (0, 2, 0)]
    verts = tuple(Vertex(i, p, (0, 0, 1), ((i * 0.1, 0.5),)) for i, p in enumerate(pts))
    g = GfxObj(0x01000001, (0x08000001,), VertexArray(1, verts),
               (Polygon(0, 0, 0, 0, 0, (0, 1, 2, 3, 4), (0, 0, 0, 0, 0)),))
    m = triangulate_gfxobj(g)
    assert m.subsets == [(0, 0, 9)]
    tri_pos = m.vertices[:, :3].reshape(3, 3, 3)
    for k, tri in enumerate(tri_pos):
        assert tri[0].tolist() == [0, 0, 0]
        assert tri[1].tolist() == list(map(float, pts[k + 1]))
        assert tri[2].tolist() == list(map(float, pts[k + 2]))
    assert m.vertices[3, 6] == pytest.approx(0.1 * 0)  # uv of vertex 0 in 2nd triangle


def test_CPolygon_UnPack_sides_type_1_mirrors_front_as_back_face():
    m = triangulate_gfxobj(quad_gfxobj(0x01000002, 0x08000001, sides_type=1))
    assert m.subsets == [(0, 0, 12)]
    back = m.vertices[6:12]
    assert (back[:, 3:6] == [0, 1, 0]).all()  # normal negated
    # winding reversed: first back triangle is (v0, v2, v1) of the front one
    assert back[1, :3].tolist() == m.vertices[2, :3].tolist()


def test_sides_type_2_back_face_uses_neg_surface_and_neg_uvs():
    h = 0.5
    verts = tuple(Vertex(i, p, (0, 0, 1), ((0.0, 0.0), (1.0, 1.0)))
                  for i, p in enumerate([(-h, -h, 0), (h, -h, 0), (h, h, 0)]))
    g = GfxObj(1, (0x08000001, 0x08000002), VertexArray(1, verts),
               (Polygon(0, 0, 2, 0, 1, (0, 1, 2), (0, 0, 0), (1, 1, 1)),))
    m = triangulate_gfxobj(g)
    assert m.subsets == [(0, 0, 3), (1, 3, 3)]
    assert (m.vertices[3:, 6:8] == 1.0).all()


def test_single_sided_polygon_has_no_back_face():
    assert triangulate_gfxobj(quad_gfxobj(1, 0x08000001)).subsets == [(0, 0, 6)]


def test_vertex_index_out_of_range_raises_DatError_naming_the_gfxobj():
    g = GfxObj(0x01000009, (0x08000001,), VertexArray(1, (Vertex(0, (0, 0, 0), (0, 0, 1)),)),
               (Polygon(0, 0, 0, 0, 0, (0, 1, 2), None),))
    with pytest.raises(DatError, match="0x01000009"):
        triangulate_gfxobj(g)


def test_surface_index_out_of_range_raises_DatError():
    g = quad_gfxobj(0x0100000A, 0x08000001)
    bad = GfxObj(g.id, (), g.vertex_array, g.polygons)
    with pytest.raises(DatError, match="surface index"):
        triangulate_gfxobj(bad)


def test_missing_record_raises_DatError(gl_ctx):
    with pytest.raises(DatError, match="0x01000077"):
        MeshCache(gl_ctx, FakeDB()).mesh(0x01000077)


def test_mesh_cache_loads_each_gfxobj_once(gl_ctx):
    db = FakeDB()
    solid_surface(db, 0x08000001, 0xFFFF0000)
    db.add(0x01000001, cube_gfxobj(0x01000001, 0x08000001))
    cache = MeshCache(gl_ctx, db)
    try:
        a = cache.mesh(0x01000001)
        gets = db.gets
        assert cache.mesh(0x01000001) is a and db.gets == gets
        assert a.radius == pytest.approx(np.sqrt(3) / 2, rel=1e-5)
        assert sum(s.count for s in a.subsets) == 36
    finally:
        cache.release()


def test_CSurface_InitEnd_0x00536400_translucency_sets_translucent_bit(gl_ctx):
    db = FakeDB()
    solid_surface(db, 0x08000001, 0xFFFFFFFF, translucency=0.5)
    cache = MeshCache(gl_ctx, db)
    mat = cache.surface(0x08000001)
    # copyVert 0x0059C080: vertex alpha (u64)((1 - 0.5) * 255) = 127
    assert mat.surface_type & 0x10 and mat.vertex_alpha() == 127 / 255
    solid_surface(db, 0x08000002, 0xFFFFFFFF, translucency=0.0001)
    assert not cache.surface(0x08000002).surface_type & 0x10
    cache.release()


def test_SetSolidColorTextureColor_alpha_comes_from_translucency_not_the_colour(gl_ctx):
    db = FakeDB()
    solid_surface(db, 0x08000001, 0x00FF0000)                 # alpha byte 0: still opaque
    solid_surface(db, 0x08000002, 0xFFFF0000, translucency=0.25)
    cache = MeshCache(gl_ctx, db)
    a, b = cache.surface(0x08000001), cache.surface(0x08000002)
    assert a.color[3] == 1.0 and a.vertex_alpha() == 1.0
    # the 1x1 texel alpha is (u64)(0.75 * 255) = 191, and the TRANSLUCENT vertex alpha too
    assert b.color[3] == 191 / 255 and b.vertex_alpha() == 191 / 255
    cache.release()


def test_clipmap_alpha_ref_follows_the_palette(gl_ctx):
    from tests.render.fakes import textured_surface
    db = FakeDB()
    textured_surface(db, 0x08000001, 0x06000001, 0x29, 2, 2, bytes(4), surface_type=0x4,
                     palette=[0xFF000000, 0xFFFFFFFF])
    textured_surface(db, 0x08000002, 0x06000002, 0x15, 2, 2, bytes(16), surface_type=0x4)
    cache = MeshCache(gl_ctx, db)
    assert cache.surface(0x08000001).blend().alpha_ref == 100
    assert cache.surface(0x08000002).blend().alpha_ref == 200
    cache.release()


def test_stippled_pos_polygon_makes_its_surface_wrap_else_clamp():
    """MeshBuffer build: isStippledOrAlphaedMask[pos_surface] |= stippling > 0; SetSurface
    0x0059C4D0 picks TEXADDRESS_WRAP for stippled, TEXADDRESS_CLAMP otherwise."""
    h = 0.5
    verts = tuple(Vertex(i, p, (0, 0, 1), ((0.0, 0.0),))
                  for i, p in enumerate([(-h, -h, 0), (h, -h, 0), (h, h, 0)]))
    g = GfxObj(1, (0x08000001, 0x08000002, 0x08000003), VertexArray(1, verts),
               (Polygon(0, 0x1, 2, 0, 2, (0, 1, 2), (0, 0, 0), (0, 0, 0)),
                Polygon(1, 0x0, 0, 1, 1, (0, 1, 2), (0, 0, 0))))
    m = triangulate_gfxobj(g)
    assert m.wrap == frozenset({0})  # the neg surface (2) of a stippled polygon clamps


def test_row_sides_mark_lone_sides_fronts_and_mirrored_backs():
    """ConstructMesh 0x0059DFA0 rows tagged for the particle draw: a sides_type 1 polygon's
    reversed back winding (CPolygon::UnPack 0x00538650) is SIDE_MIRROR, its front
    SIDE_FRONT; one-sided and sides_type 2 faces (each its own side) SIDE_ONE."""
    from viewer.render.meshes import SIDE_FRONT, SIDE_MIRROR, SIDE_ONE
    one = triangulate_gfxobj(quad_gfxobj(1, 0x08000001))
    assert one.row_sides.tolist() == [SIDE_ONE] * 6
    two = triangulate_gfxobj(quad_gfxobj(1, 0x08000001, sides_type=1))
    assert two.row_sides.tolist() == [SIDE_FRONT] * 6 + [SIDE_MIRROR] * 6
    own = triangulate_gfxobj(quad_gfxobj(1, 0x08000001, sides_type=2))
    assert own.row_sides.tolist() == [SIDE_ONE] * 12


class _Directory(FakeDB):
    """A database that can say what it holds (as AssetDatabase does)."""

    def __contains__(self, did):
        return did in self.records


def test_absent_GfxObj_draws_nothing_CPhysicsPart_SetPart_0x0050E700(gl_ctx):
    """A GfxObj no DAT holds (the runtime traced it): an empty mesh, no error."""
    cache = MeshCache(gl_ctx, _Directory())
    try:
        m = cache.mesh(0x01000077)
        assert m.subsets == [] and m.degrade == []
    finally:
        cache.release()


def test_absent_degrade_table_LoadGfxObjArray_0x0050DCF0_draws_the_GfxObj_alone(gl_ctx):
    import dataclasses
    db = _Directory()
    solid_surface(db, 0x08000001, 0xFFFF0000)
    db.add(0x01000001, dataclasses.replace(cube_gfxobj(0x01000001, 0x08000001),
                                           did_degrade=0x11000099))
    cache = MeshCache(gl_ctx, db)
    try:
        m = cache.mesh(0x01000001)
        assert m.degrade == [] and sum(s.count for s in m.subsets) == 36
    finally:
        cache.release()


def test_a_held_degrade_table_is_read(gl_ctx):
    import dataclasses

    from viewer.dat.records import GfxObjDegradeInfo, GfxObjInfo
    db = _Directory()
    solid_surface(db, 0x08000001, 0xFFFF0000)
    db.add(0x11000001, GfxObjDegradeInfo(0x11000001, (GfxObjInfo(0x01000001, 1, 0.0, 0.0,
                                                                   100.0),)))
    db.add(0x01000001, dataclasses.replace(cube_gfxobj(0x01000001, 0x08000001),
                                           did_degrade=0x11000001))
    cache = MeshCache(gl_ctx, db)
    try:
        assert len(cache.mesh(0x01000001).degrade) == 1
    finally:
        cache.release()


# --- paletted textures: one lookup for the ordinary and the ObjDesc surfaces ---------------
def _paletted_db(surface_type: int, *, stored_palette: int = 0):
    """Surface 0x08000001 on a 4x1 P8 texture (texels 0, 7, 8, 255) whose default palette
    0x04000001 has 256 colours (colour k: R = k); 0x04000002 is another palette (R = 200)."""
    from tests.render.fakes import Palette, RenderSurface, Surface, SurfaceTexture
    db = FakeDB()
    db.add(0x04000001, Palette(0x04000001, tuple(0xFF000000 | (k << 16) for k in range(256))))
    db.add(0x04000002, Palette(0x04000002, tuple([0xFFC80000] * 256)))
    db.add(0x06000001, RenderSurface(0x06000001, 4, 1, 0x29, bytes([0, 7, 8, 255]), 0x04000001))
    db.add(0x05000001, SurfaceTexture(0x05000001, (0x06000001,)))
    db.add(0x08000001, Surface(surface_type, orig_texture_id=0x05000001,
                               orig_palette_id=stored_palette))
    return db


def test_CSurface_InitEnd_0x00536400_draws_the_textures_palette_not_the_stored_one():
    """Loading binds the texture's default palette and overwrites the Surface's stored
    palette with it (CSurface::Serialize 0x005365F0 -> InitEnd SurfaceInitLoading)."""
    from viewer.render.meshes import surface_material
    _, src = surface_material(_paletted_db(0x2, stored_palette=0x04000002), 0x08000001)
    assert src.rgba()[0, :, 0].tolist() == [0, 0, 1, 31]


def test_ImgTex_CopyIntoData_0x0053EC60_ordinary_P8_surface_widened_palette_and_clipmap():
    """P8 texel i of a 256-colour palette shows colour i // 8 (Palette::InitLoad 0x0053E060
    widens it); on a clip-map surface indices below 8 are 0 (ImgTex::Combine 0x00540230 ->
    A8R8G8B8), otherwise the alpha is unused (X8R8G8B8)."""
    from viewer.render.meshes import surface_material
    _, src = surface_material(_paletted_db(0x4), 0x08000001)
    assert src.rgba()[0].tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 255],
                                      [31, 0, 0, 255]]
    _, plain = surface_material(_paletted_db(0x2), 0x08000001)
    assert plain.rgba()[0, :, 0].tolist() == [0, 0, 1, 31]
    assert plain.rgba()[0, :, 3].tolist() == [255] * 4


def test_objdesc_surface_without_a_part_palette_uses_the_same_lookup(gl_ctx):
    """A private surface with no part palette draws its texture's default palette through
    the same table as the ordinary surface (widened, clip-map rule)."""
    from viewer.render.meshes import surface_material
    from viewer.sim.objdesc import DrawnSurface
    db = _paletted_db(0x4)
    cache = MeshCache(gl_ctx, db)
    try:
        mat = cache.custom_surface(DrawnSurface(0x08000001, 0x05000001, None, b"", True))
        texels = np.frombuffer(mat.texture.read(), np.uint8).reshape(1, 4, 4)
        assert texels.tolist() == surface_material(db, 0x08000001)[1].rgba().tolist()
        assert texels[0, :, 0].tolist() == [0, 0, 1, 31]
    finally:
        cache.release()


def test_a_parts_private_surfaces_give_its_mesh_subsets_once_not_per_frame(gl_ctx):
    """MeshCache.subsets: the subsets a mesh draws with a part's ObjDesc surfaces are made
    once per GfxObj and surfaces (the renderer asks every frame); None: the mesh's own."""
    from viewer.render.meshes import GpuMesh, GpuSubset
    from viewer.sim.objdesc import DrawnSurface
    cache = MeshCache(gl_ctx, _paletted_db(0x4))
    own = GpuSubset(0, 0, 3, None, False)
    mesh = GpuMesh(0x01000001, None, [own, GpuSubset(1, 3, 3, None, True)], (0.0, 0.0, 0.0))
    try:
        assert cache.subsets(mesh, None) is mesh.subsets
        drawn = (DrawnSurface(0x08000001, 0x05000001, None, b"", True),)
        subs = cache.subsets(mesh, drawn)
        assert subs[0].material is cache.custom_surface(drawn[0])
        assert (subs[0].first, subs[0].count, subs[0].wrap) == (0, 3, False)
        assert subs[1] is mesh.subsets[1]            # past the part's surfaces: its own
        assert cache.subsets(mesh, (DrawnSurface(0x08000001, 0x05000001, None, b"", True),)) \
            is subs
    finally:
        cache.release()
