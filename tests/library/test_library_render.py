"""Synthetic library (issue 4): the billboard / degrade / blending GfxObjs and their Surfaces
and GfxObjDegradeInfos through the real render path (viewer.render), each checking the edge
case its MANIFEST row names. Scenes are tiny (48x48) for llvmpipe."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.render import scenes as SC
from viewer import synthetic as syn
from viewer.dat.database import AssetDatabase
from viewer.render import materials as M
from viewer.render.camera import Camera
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.meshes import MeshCache, triangulate_gfxobj
from viewer.render.particles import prepare
from viewer.render.renderer import RenderSettings, SceneRenderer
from viewer.sim.particles import DEFAULT_DEGRADE_DISTANCE, max_degrade_distance

pytestmark = pytest.mark.skipif(not syn.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")

SIZE = (48, 48)


@pytest.fixture(scope="module")
def db():
    d = AssetDatabase([str(syn.SYNTHETIC_DAT)])
    yield d
    d.close()


@pytest.fixture
def cache(gl_ctx, db):
    c = MeshCache(gl_ctx, db)
    yield c
    c.release()


def top_camera(distance=1.0) -> Camera:
    """Looking straight down -Z (an XZ or YZ quad without billboarding is edge-on)."""
    return Camera(target=(0.0, 0.0, 0.0), distance=distance, yaw=math.radians(-90.0),
                  pitch=math.radians(89.9), fov_y_deg=50.0)


def lit(img) -> int:
    return int((img[..., :3].max(axis=-1) > 2).sum())


def draw(gl_ctx, db, scene, cam):
    r = SceneRenderer(gl_ctx, db, RenderSettings(background=(0, 0, 0, 1), show_grid=False))
    t = OffscreenTarget(gl_ctx, SIZE)
    try:
        r.render(scene, cam, t)
        return t.read_rgba()
    finally:
        r.release()
        t.release()


# --- blending: D3DPolyRender::SetSurface 0x0059C4D0 (with CSurface::InitEnd 0x00536400) -------
BLEND_CASES = [
    # gfx, surface, expected (src, dst) blend, near degrade mode
    (syn.GFX_QUAD_GLOW, syn.SURFACE_GLOW_ALPHA_ADDITIVE, (M.SRCALPHA, M.ONE), 2),
    (syn.GFX_QUAD_SMOKE, syn.SURFACE_SMOKE_TRANSLUCENT, (M.SRCALPHA, M.INVSRCALPHA), 2),
    (syn.GFX_QUAD_RING, syn.SURFACE_RING_LUMINOUS, (M.ONE, M.ONE), 1),
    (syn.GFX_QUAD_NO_DEGRADE, syn.SURFACE_GLOW_ALPHA_ADDITIVE, (M.SRCALPHA, M.ONE), 1),
    (syn.GFX_QUAD_TWO_LEVELS, syn.SURFACE_GLOW_ALPHA_ADDITIVE, (M.SRCALPHA, M.ONE), 2),
    (syn.GFX_QUAD_AUTO_TRANSLUCENT, syn.SURFACE_SPARK_AUTO_TRANSLUCENT,
     (M.SRCALPHA, M.INVSRCALPHA), 2),
    (syn.GFX_QUAD_INVALPHA, syn.SURFACE_RING_INVALPHA, (M.INVSRCALPHA, M.SRCALPHA), 2),
    (syn.GFX_LANTERN_FLAME, syn.SURFACE_GLOW_ALPHA_ADDITIVE, (M.SRCALPHA, M.ONE), 2),
]


@pytest.mark.parametrize("gfx,surface,blend,mode", BLEND_CASES,
                         ids=[f"0x{c[0]:08X}" for c in BLEND_CASES])
def test_SetSurface_0x0059C4D0_each_quad_draws_with_its_blend_and_degrade_mode(
        gl_ctx, db, cache, gfx, surface, blend, mode):
    mesh = cache.mesh(gfx)
    (sub,) = mesh.subsets
    assert db.get(gfx).surfaces == (surface,)
    assert sub.material.blend().blend == blend
    near = mesh.degrade[0].degrade_mode if mesh.degrade else 1   # no table: mode 1
    assert near == mode
    # the particle pass picks the same mode for a particle 1.5 m away
    arrays = SC.particle_arrays([[0, 0, 0]], gfx)
    (batch,) = prepare(arrays, np.array([0.0, -1.5, 0.0]), cache).batches
    assert batch.mode == mode


@pytest.mark.parametrize("gfx,billboard", [
    (syn.GFX_QUAD_GLOW, True), (syn.GFX_QUAD_SMOKE, True), (syn.GFX_LANTERN_FLAME, True),
    (syn.GFX_QUAD_AUTO_TRANSLUCENT, True), (syn.GFX_QUAD_INVALPHA, True),
    (syn.GFX_QUAD_TWO_LEVELS, True),
    (syn.GFX_QUAD_NO_DEGRADE, False),     # XZ quad, mode 1: edge-on from above
])
def test_calc_draw_frame_0x0050DFA0_mode_2_turns_an_XZ_quad_to_a_viewer_above(
        gl_ctx, db, gfx, billboard):
    for scene in (SC.scene([SC.mesh(gfx)]),                      # CPU part path
                  SC.scene(particles=SC.particle_arrays([[0, 0, 0]], gfx))):  # GPU particles
        front = lit(draw(gl_ctx, db, scene, SC.front_camera(distance=1.0)))  # faces it anyway
        top = lit(draw(gl_ctx, db, scene, top_camera()))
        assert front > 10, hex(gfx)
        if billboard:
            assert top >= 0.7 * front, hex(gfx)
        else:
            assert top <= 0.2 * front, hex(gfx)


def test_GFX_QUAD_RING_mode_1_keeps_its_flat_XY_frame(gl_ctx, db):
    """Luminous additive ring, degrade_mode 1: seen from above it is a full quad, from the
    side (front camera along +Y) it stays edge-on (no billboard)."""
    ring = SC.mesh(syn.GFX_QUAD_RING)
    assert lit(draw(gl_ctx, db, SC.scene([ring]), top_camera())) > 100
    assert lit(draw(gl_ctx, db, SC.scene([ring]), SC.front_camera(distance=1.5))) < 20
    flat = SC.scene(particles=SC.particle_arrays([[0, 0, 0]], syn.GFX_QUAD_RING))
    assert lit(draw(gl_ctx, db, flat, SC.front_camera(distance=1.5))) < 20


def test_luminous_additive_ring_is_not_darkened_by_lighting(gl_ctx, db):
    """SURFACE_RING_LUMINOUS: Luminous with luminosity 1 draws full-bright with no light."""
    img = draw(gl_ctx, db, SC.scene([SC.mesh(syn.GFX_QUAD_RING)]), top_camera())
    assert img[..., :3].max() > 200


# --- degrade tables: GfxObjDegradeInfo::get_degrade 0x0051E4B0 and particle degrade distance
# (CPhysicsPart::GetMaxDegradeDistance 0x0050D510 / get_max_degrade_distance 0x0051E2D0) ----
DEGRADE_DISTANCES = [
    (syn.DEGRADE_QUAD_RING, syn.GFX_QUAD_RING, 1, 60.0),
    (syn.DEGRADE_QUAD_SPARK, syn.GFX_QUAD_SPARK, 2, 60.0),
    (syn.DEGRADE_QUAD_SPARK_AXIS_X, syn.GFX_QUAD_SPARK_AXIS_X, 3, 60.0),
    (syn.DEGRADE_QUAD_SPARK_AXIS_Y, syn.GFX_QUAD_SPARK_AXIS_Y, 4, 60.0),
    (syn.DEGRADE_QUAD_STREAK, syn.GFX_QUAD_STREAK, 5, 60.0),
    (syn.DEGRADE_QUAD_GLOW, syn.GFX_QUAD_GLOW, 2, 60.0),
    (syn.DEGRADE_QUAD_AUTO_TRANSLUCENT, syn.GFX_QUAD_AUTO_TRANSLUCENT, 2, 60.0),
    (syn.DEGRADE_QUAD_INVALPHA, syn.GFX_QUAD_INVALPHA, 2, 60.0),
    (syn.DEGRADE_LANTERN_FLAME, syn.GFX_LANTERN_FLAME, 2, 60.0),
    (syn.DEGRADE_TWO_LEVELS, syn.GFX_QUAD_TWO_LEVELS, 2, 12.0),      # entries[0] (n <= 2)
    (syn.DEGRADE_THREE_LEVELS, syn.GFX_QUAD_SMOKE, 2, 45.0),         # entries[n-2]
]


@pytest.mark.parametrize("table,gfx,mode,distance", DEGRADE_DISTANCES,
                         ids=[f"0x{c[0]:08X}" for c in DEGRADE_DISTANCES])
def test_get_max_degrade_distance_0x0051E2D0_per_table(db, cache, table, gfx, mode,
                                                       distance):
    g = db.get(gfx)
    assert g.did_degrade == table
    entries = db.get(table).degrades
    if len(entries) == 1:   # one level naming the quad itself
        assert entries[0].gfxobj_id == gfx
    assert entries[0].degrade_mode == mode
    assert max_degrade_distance(db, gfx) == pytest.approx(distance)


def test_GFX_QUAD_NO_DEGRADE_particle_degrade_distance_is_100(db):
    assert db.get(syn.GFX_QUAD_NO_DEGRADE).did_degrade is None
    assert max_degrade_distance(db, syn.GFX_QUAD_NO_DEGRADE) == DEFAULT_DEGRADE_DISTANCE == 100.0


@pytest.mark.parametrize("dist,drawn,mode", [
    (1.0, syn.GFX_QUAD_SMOKE, 2),                 # level 0
    (50.0 + 25.0, syn.GFX_QUAD_SMOKE, 2),         # d = 25: level 1 (ideal 30 .. max 45)
    (50.0 + 70.0, syn.GFX_QUAD_NO_DEGRADE, 1),    # beyond every threshold: the last level
])
def test_get_degrade_0x0051E4B0_GFX_QUAD_SMOKE_three_levels_far_one_another_mesh(
        cache, dist, drawn, mode):
    """DEGRADE_THREE_LEVELS: d = CYpt - s_rDegradeDistance(50); the far level names a
    different mesh drawn with mode 1."""
    arrays = SC.particle_arrays([[0, 0, 0]], syn.GFX_QUAD_SMOKE)
    (batch,) = prepare(arrays, np.array([0.0, -dist, 0.0]), cache, m=1.0).batches
    assert (batch.gfxobj, batch.mode) == (drawn, mode)


@pytest.mark.parametrize("dist,mode", [(1.0, 2), (50.0 + 25.0, 3)])
def test_get_degrade_0x0051E4B0_GFX_QUAD_TWO_LEVELS_mode_2_near_3_far(cache, dist, mode):
    arrays = SC.particle_arrays([[0, 0, 0]], syn.GFX_QUAD_TWO_LEVELS)
    (batch,) = prepare(arrays, np.array([0.0, -dist, 0.0]), cache, m=1.0).batches
    assert (batch.gfxobj, batch.mode) == (syn.GFX_QUAD_TWO_LEVELS, mode)


# --- surfaces --------------------------------------------------------------------------------
def test_InitEnd_0x00536400_sets_Translucent_at_load_only(db, cache):
    """SURFACE_SPARK_AUTO_TRANSLUCENT is stored without the Translucent bit; the loaded
    surface (and the renderer's material) has it, so the vertex alpha is 1 - 0.5."""
    stored = db.get(syn.SURFACE_SPARK_AUTO_TRANSLUCENT)
    assert not stored.type & M.TRANSLUCENT and stored.translucency == 0.5
    assert stored.as_loaded().type & M.TRANSLUCENT
    mat = cache.mesh(syn.GFX_QUAD_AUTO_TRANSLUCENT).subsets[0].material
    assert mat.surface_type & M.TRANSLUCENT
    assert mat.vertex_alpha() == pytest.approx(M.alpha_byte(0.5) / 255.0)
    # a surface with translucency 0 is left alone
    assert not db.get(syn.SURFACE_SOLID_SKIN).as_loaded().type & M.TRANSLUCENT


def test_SURFACE_SMOKE_TRANSLUCENT_alpha_with_translucency_035(cache):
    mat = cache.surface(syn.SURFACE_SMOKE_TRANSLUCENT)
    assert mat.texture_mode in ("compressed", "decoded")       # DXT3 texture
    assert mat.vertex_alpha() == pytest.approx(M.alpha_byte(0.35) / 255.0)
    assert mat.blend().blend == (M.SRCALPHA, M.INVSRCALPHA)


def test_SURFACE_GLOW_ALPHA_ADDITIVE_fades_with_translucency(gl_ctx, db):
    """SRCALPHA/ONE: the particle's translucency lowers what it adds (the additive spark,
    ONE/ONE, would not fade)."""
    cam = SC.front_camera(distance=1.5)
    full = draw(gl_ctx, db, SC.scene(particles=SC.particle_arrays(
        [[0, 0, 0]], syn.GFX_QUAD_GLOW)), cam)
    faded = draw(gl_ctx, db, SC.scene(particles=SC.particle_arrays(
        [[0, 0, 0]], syn.GFX_QUAD_GLOW, trans=[0.75])), cam)
    assert full[..., :3].astype(int).sum() > 2 * faded[..., :3].astype(int).sum() > 0


def test_SURFACE_RING_INVALPHA_blends_INVSRCALPHA_SRCALPHA(cache):
    mat = cache.surface(syn.SURFACE_RING_INVALPHA)
    assert mat.blend() == M.surface_blend(M.BASE1_IMAGE | M.INVALPHA, paletted=mat.paletted)
    assert mat.blend().blend == (M.INVSRCALPHA, M.SRCALPHA)


def test_SURFACE_STREAK_CLIPMAP_alpha_tests_at_the_paletted_ref(cache):
    mat = cache.surface(syn.SURFACE_STREAK_CLIPMAP)
    assert mat.paletted                                  # P8 texture
    b = mat.blend()
    assert b.alpha_ref == M.ALPHA_REF_PALETTED == 100
    assert b.blend == (M.ONE, M.INVSRCALPHA)
    w, h = mat.texture.size
    assert w != h                                        # non-square


def test_SURFACE_RING_LUMINOUS_INDEX16_with_its_palette(cache):
    mat = cache.surface(syn.SURFACE_RING_LUMINOUS)
    assert mat.paletted and mat.luminosity == 1.0
    assert mat.blend().blend == (M.ONE, M.ONE)


SOLIDS = [
    (syn.SURFACE_SOLID_SKIN, 0xFFD8A47F, 0.0, 0.0),
    (syn.SURFACE_SOLID_CLOTH, 0xFF2E4C8C, 0.0, 0.0),
    (syn.SURFACE_SOLID_METAL, 0xFFA0A4AC, 0.0, 0.0),
    (syn.SURFACE_SOLID_WOOD, 0xFF6B4423, 0.0, 0.0),
    (syn.SURFACE_SOLID_LANTERN_GLASS, 0xFFFFD070, 0.3, 1.0),
    (syn.SURFACE_SOLID_BOLT_CORE, 0xFFFF8A2A, 0.0, 1.0),
    (syn.SURFACE_SOLID_BACK_FACE, 0xFFB03030, 0.0, 0.0),
]


@pytest.mark.parametrize("surface,argb,trans,lum", SOLIDS, ids=[f"0x{c[0]:08X}" for c in SOLIDS])
def test_SetSolidColorTextureColor_solid_surface_colour_and_alpha(cache, surface, argb, trans,
                                                                  lum):
    """A Base1Solid surface draws its colour's RGB with alpha (1 - translucency) byte."""
    mat = cache.surface(surface)
    assert mat.texture is None
    r, g, b = (argb >> 16 & 255) / 255, (argb >> 8 & 255) / 255, (argb & 255) / 255
    assert mat.color[:3] == pytest.approx((r, g, b))
    assert mat.color[3] == pytest.approx(M.alpha_byte(trans) / 255.0)
    assert mat.luminosity == pytest.approx(lum)
    if trans:
        assert mat.surface_type & M.TRANSLUCENT and mat.blend().blend == (M.SRCALPHA,
                                                                           M.INVSRCALPHA)
    else:
        assert mat.blend().blend is None and mat.blend().depth_write


def test_SURFACE_TEXTURE_REPEATED_source_levels_name_one_RenderSurface(db):
    st = db.get(syn.SURFACE_TEXTURE_REPEATED)
    assert len(st.textures) >= 2 and len(set(st.textures)) == 1
    rs = db.get(st.textures[0])
    assert rs.width > 0 and rs.height > 0 and len(rs.source_data) > 0


# --- meshes ------------------------------------------------------------------------------------
def test_ConstructMesh_0x0059DFA0_GFX_QUAD_DOUBLE_SIDED_neg_side_keeps_front_winding(db):
    """sides_type 2: the neg side uses neg_surface and neg_uv_indices (UV set 1), normals
    negated, the SAME winding (so it is culled from behind, coplanar with the front);
    sides_type 1 mirrors the front with reversed winding."""
    g = db.get(syn.GFX_QUAD_DOUBLE_SIDED)
    two, one = g.polygons
    assert (int(two.sides_type), int(two.stippling), two.neg_surface) == (2, 0, 1)
    assert two.neg_uv_indices == (1, 1, 1, 1) and int(one.sides_type) == 1
    assert g.surfaces[1] == syn.SURFACE_SOLID_BACK_FACE
    data = triangulate_gfxobj(g)
    by_surf = {s: data.vertices[first:first + count] for s, first, count in data.subsets}
    front_and_mirror, neg = by_surf[0], by_surf[1]
    assert len(neg) == 6                                     # the sides-2 quad's neg side
    front = front_and_mirror[:6]                             # the sides-2 quad's front
    np.testing.assert_array_equal(neg[:, :3], front[:, :3])  # same positions, same order
    np.testing.assert_allclose(neg[:, 3:6], -front[:, 3:6])  # normals negated

    def facing(tri):
        a, b, c = tri[:, :3].astype(float)
        return np.cross(b - a, c - a)
    for k in range(0, 6, 3):
        assert facing(neg[k:k + 3]) @ facing(front[k:k + 3]) > 0
    mirror = front_and_mirror[6:]                            # sides_type 1 back face
    assert len(mirror) == 12
    assert facing(mirror[6:9]) @ facing(mirror[0:3]) < 0     # reversed winding


def test_GFX_SHARD_no_uvs_solid_single_sided(db, cache):
    g = db.get(syn.GFX_SHARD)
    assert len(g.polygons) == 4                              # tetrahedron
    for p in g.polygons:
        assert int(p.stippling) == 12 and p.pos_uv_indices is None and int(p.sides_type) == 0
    data = triangulate_gfxobj(g)
    assert len(data.vertices) == 12                          # front faces only
    assert not data.vertices[:, 6:8].any()                   # copyVert: no UVs -> (0, 0)
    mat = cache.mesh(syn.GFX_SHARD).subsets[0].material
    assert mat.texture is None and mat.blend().blend is None


def _extent(db, gfx):
    v = np.array([vx.origin for vx in db.get(gfx).vertex_array.vertices])
    return v.min(axis=0), v.max(axis=0)


def test_GFX_CUBE_SMALL_is_a_textured_10_cm_cube(db, cache):
    lo, hi = _extent(db, syn.GFX_CUBE_SMALL)
    np.testing.assert_allclose(hi - lo, (0.1, 0.1, 0.1), atol=1e-6)
    assert cache.mesh(syn.GFX_CUBE_SMALL).subsets[0].material.texture is not None
    assert len(triangulate_gfxobj(db.get(syn.GFX_CUBE_SMALL)).vertices) >= 36


HUMANOID_BOXES = [
    (syn.GFX_HUMANOID_PELVIS, (0.32, 0.18, 0.16)),
    (syn.GFX_HUMANOID_TORSO, (0.38, 0.22, 0.44)),
    (syn.GFX_HUMANOID_HEAD, (0.2, 0.22, 0.24)),
    (syn.GFX_HUMANOID_UPPER_ARM, (0.1, 0.1, 0.3)),
    (syn.GFX_HUMANOID_FOREARM, (0.09, 0.09, 0.3)),
    (syn.GFX_HUMANOID_THIGH, (0.13, 0.13, 0.44)),
    (syn.GFX_HUMANOID_SHIN, (0.11, 0.11, 0.44)),
]


@pytest.mark.parametrize("gfx,size", HUMANOID_BOXES, ids=[f"0x{c[0]:08X}" for c in HUMANOID_BOXES])
def test_humanoid_part_box_size_from_its_vertices(db, cache, gfx, size):
    lo, hi = _extent(db, gfx)
    np.testing.assert_allclose(hi - lo, size, atol=1e-5)
    assert lo[0] <= 0.0 <= hi[0] and lo[1] <= 0.0 <= hi[1]     # about its joint
    assert cache.mesh(gfx).radius > 0
    assert gfx in db.get(syn.SETUP_HUMANOID).parts


def test_GFX_ARROW_shaft_along_Y_with_a_metal_head(db, cache):
    lo, hi = _extent(db, syn.GFX_ARROW)
    assert hi[1] - lo[1] >= 0.8 and max(hi[0] - lo[0], hi[2] - lo[2]) < 0.1
    g = db.get(syn.GFX_ARROW)
    assert len(g.surfaces) == 2 and syn.SURFACE_SOLID_METAL in g.surfaces
    assert len(cache.mesh(syn.GFX_ARROW).subsets) == 2
    assert db.get(syn.SETUP_ARROW).parts == (syn.GFX_ARROW,)


def test_GFX_BOLT_luminous_octahedron_flat_shaded(db, cache):
    g = db.get(syn.GFX_BOLT)
    verts = g.vertex_array.vertices
    assert len(g.polygons) == 8
    for p in g.polygons:
        normals = {tuple(np.round(verts[i].normal, 5)) for i in p.vertex_ids}
        assert len(normals) == 1                          # one normal per face: flat
        a, b, c = (np.array(verts[i].origin) for i in p.vertex_ids[:3])
        face = np.cross(b - a, c - a)
        assert face @ np.array(next(iter(normals))) > 0
    mat = cache.mesh(syn.GFX_BOLT).subsets[0].material
    assert mat.luminosity == 1.0 and g.surfaces == (syn.SURFACE_SOLID_BOLT_CORE,)
    assert syn.GFX_BOLT in db.get(syn.SETUP_BOLT).parts


def test_GFX_MARKER_and_GFX_RACK_are_drawn_hosts(gl_ctx, db):
    assert db.get(syn.SETUP_MARKER).parts == (syn.GFX_MARKER,)
    lo, hi = _extent(db, syn.GFX_MARKER)
    assert max(hi - lo) <= 0.3                              # small cube
    assert len(db.get(syn.GFX_MARKER).polygons) == 6
    assert syn.GFX_RACK in db.get(syn.SETUP_LANTERN).parts
    assert syn.GFX_RACK in db.get(syn.SETUP_ATTACH_POINTS).parts
    lo, hi = _extent(db, syn.GFX_RACK)
    assert hi[2] - lo[2] > 1.0                               # a post
    cam = SC.oblique_camera(distance=4.0, target=(0.0, 0.0, 1.0))
    assert lit(draw(gl_ctx, db, SC.scene([SC.mesh(syn.GFX_RACK)]), cam)) > 20
    cam = SC.oblique_camera(distance=0.8)
    assert lit(draw(gl_ctx, db, SC.scene([SC.mesh(syn.GFX_MARKER)]), cam)) > 20


def test_ConstructMesh_0x0059DFA0_GFX_QUAD_DOUBLE_SIDED_sides_2_is_culled_from_behind(gl_ctx,
                                                                                     db):
    """From the front both quads draw; from behind only the sides_type 1 quad (its mirrored
    back face) draws: the sides_type 2 neg side kept the front winding and is culled."""
    target = (0.35, 0.0, 0.0)
    scene = SC.scene([SC.mesh(syn.GFX_QUAD_DOUBLE_SIDED)])
    front = draw(gl_ctx, db, scene, SC.front_camera(distance=2.0, target=target))
    behind = draw(gl_ctx, db, scene, Camera(target=target, distance=2.0,
                                            yaw=math.radians(90.0), pitch=0.0, fov_y_deg=50.0))
    # lit column groups, left to right: (columns, lit pixels)
    def groups(img):
        cols = (img[..., :3].max(axis=-1) > 2).sum(axis=0)
        out, cur = [], None
        for c in cols:
            if c and cur is None:
                cur = [0, 0]
                out.append(cur)
            if c:
                cur[0] += 1
                cur[1] += int(c)
            else:
                cur = None
        return out
    g_front, g_behind = groups(front), groups(behind)
    assert len(g_front) == 2, g_front            # the sides_type 2 quad and the sides_type 1
    (solid, ring) = sorted(g_front, key=lambda g: -g[1])   # neg/back surface solid, ring
    assert len(g_behind) == 1, g_behind                    # only the mirrored sides_type 1
    assert abs(g_behind[0][1] - ring[1]) <= 0.2 * ring[1] < solid[1]


@pytest.mark.parametrize("surface,fmt", [
    (syn.SURFACE_GLOW_ALPHA_ADDITIVE, "DXT5"), (syn.SURFACE_SMOKE_TRANSLUCENT, "DXT3"),
    (syn.SURFACE_RING_LUMINOUS, "INDEX16"), (syn.SURFACE_STREAK_CLIPMAP, "P8")])
def test_effect_surfaces_use_their_texture_format(db, cache, surface, fmt):
    """Each effect surface's SurfaceTexture level 0 is the RenderSurface format its row names;
    palettised ones resolve a palette (the surface's or the RenderSurface's default)."""
    s = db.get(surface)
    rs = db.get(db.get(s.orig_texture_id).textures[0])
    assert rs.format.name == fmt
    assert cache.surface(surface).paletted == (fmt in ("P8", "INDEX16"))
