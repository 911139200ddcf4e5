"""Retail rules of the mesh path: face culling / winding and the alpha a subset draws with.

Culling: `D3DPolyRender::RenderMeshSubset` 0x0059CA10 sets CULLMODE_CW (D3DCULL_CW) on every
subset; retail's view (`Render::update_viewpoint` 0x0054CDD0 + D3DXMatrixPerspectiveFovLH)
shows the right-handed world unmirrored, so the drawn side of a polygon is the one its
right-hand-rule plane normal (`CPolygon::make_plane` 0x005383D0) points to.
Mesh build: `D3DPolyRender::ConstructMesh` 0x0059DFA0 (sides_type 1 reverses the second
winding; sides_type 2's neg side keeps the front winding).
Alpha: `D3DPolyRender::SetSurface` 0x0059C4D0 (MODULATE texture x diffuse), copyVert
0x0059C080 (vertex alpha from a TRANSLUCENT surface), `RenderDeviceD3D::SetCurrentMaterial`
0x0059FEE0 (a part's private material replaces the vertex alpha).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.render import scenes as S
from tests.render.fakes import (
    FakeDB,
    GfxObj,
    Polygon,
    Vertex,
    VertexArray,
    quad_gfxobj,
    solid_surface,
    textured_surface,
)
from viewer.render import materials
from viewer.render.camera import Camera
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.meshes import triangulate_gfxobj
from viewer.render.renderer import RenderSettings, SceneRenderer

W, H = 48, 36
FLOOR = 0x01000010        # XY quad, CCW about +Z (normal +Z)
WHITE = 0x08000010


def _plane_normal(p0, p1, p2):
    """CPolygon::make_plane 0x005383D0 for a triangle: (p1 - p0) x (p2 - p0)."""
    return np.cross(np.subtract(p1, p0), np.subtract(p2, p0))


def _camera(pitch_deg, yaw_deg=-90.0):
    return Camera(target=(0.0, 0.0, 0.0), distance=4.0, yaw=math.radians(yaw_deg),
                  pitch=math.radians(pitch_deg), fov_y_deg=50.0)


def _render(gl_ctx, db, meshes, camera, **settings):
    settings.setdefault("background", (0.0, 0.0, 0.0, 0.0))
    settings.setdefault("show_grid", False)
    r = SceneRenderer(gl_ctx, db, RenderSettings(**settings))
    target = OffscreenTarget(gl_ctx, (W, H))
    try:
        r.render(S.scene(meshes), camera, target)
        return target.read_rgba()
    finally:
        r.release()
        target.release()


def _drawn(img) -> int:
    return int((img[..., 3] > 0).sum())


@pytest.fixture
def floor_db():
    db = FakeDB()
    solid_surface(db, WHITE, 0xFFFFFFFF, luminosity=1.0)
    db.add(FLOOR, quad_gfxobj(FLOOR, WHITE, plane="xy", size=2.0))
    return db


# --- culling and winding ----------------------------------------------------------------------
def test_RenderMeshSubset_0x0059CA10_cull_cw_draws_the_side_the_make_plane_normal_faces(
        gl_ctx, floor_db):
    """Vertices counter-clockwise about +Z (make_plane normal +Z): seen from above the
    polygon is drawn, from below it is culled (single-sided, sides_type 0)."""
    g = floor_db.get(FLOOR)
    v = [g.vertex_array.vertices[i].origin for i in g.polygons[0].vertex_ids]
    assert _plane_normal(*v[:3])[2] > 0
    assert _drawn(_render(gl_ctx, floor_db, [S.mesh(FLOOR)], _camera(60.0))) > 100
    assert _drawn(_render(gl_ctx, floor_db, [S.mesh(FLOOR)], _camera(-60.0))) == 0


def test_retail_view_is_unmirrored_east_is_right_of_north(gl_ctx, floor_db):
    """update_viewpoint 0x0054CDD0: view x = camera X (right), y = camera Z, z = camera Y;
    with the LH projection the image is the right-handed world unmirrored: looking north
    (+Y), a part at +X (east) is on the right of the image."""
    # +90 deg about X turns the floor's +Z normal to -Y, towards the camera at -Y
    part = S.mesh(FLOOR, origin=(1.2, 0.0, 0.0), quat=(math.cos(math.pi / 4),
                                                        math.sin(math.pi / 4), 0.0, 0.0))
    img = _render(gl_ctx, floor_db, [part], _camera(0.0, yaw_deg=-90.0))
    cols = np.flatnonzero((img[..., 3] > 0).any(axis=0))
    assert cols.size and cols.min() > W // 2


def test_ConstructMesh_0x0059DFA0_sides_type_2_neg_side_keeps_the_front_winding():
    """The winding loop (sides_type 1) reverses the index order; the side loop (sides_type
    2) does not: the neg side has the same winding, negated normals, its own surface/UVs."""
    h = 0.5
    pts = [(-h, -h, 0), (h, -h, 0), (h, h, 0)]
    verts = tuple(Vertex(i, p, (0, 0, 1), ((0.0, 0.0), (1.0, 1.0))) for i, p in enumerate(pts))
    g = GfxObj(1, (0x08000001, 0x08000002), VertexArray(1, verts),
               (Polygon(0, 0, 2, 0, 1, (0, 1, 2), (0, 0, 0), (1, 1, 1)),))
    m = triangulate_gfxobj(g)
    front, back = m.vertices[0:3], m.vertices[3:6]
    assert back[:, :3].tolist() == front[:, :3].tolist()          # same order, same winding
    assert (back[:, 3:6] == [0, 0, -1]).all()                     # normals negated
    assert _plane_normal(*back[:, :3])[2] > 0                     # faces +Z like the front


def test_ConstructMesh_0x0059DFA0_sides_type_2_is_invisible_from_behind(gl_ctx):
    db = FakeDB()
    solid_surface(db, 0x08000001, 0xFFFFFFFF, luminosity=1.0)
    solid_surface(db, 0x08000002, 0xFFFF0000, luminosity=1.0)
    g = quad_gfxobj(FLOOR, 0x08000001, plane="xy", size=2.0, sides_type=2)
    db.add(FLOOR, GfxObj(g.id, (0x08000001, 0x08000002), g.vertex_array,
                         (Polygon(0, 0, 2, 0, 1, (0, 1, 2, 3), (0, 0, 0, 0), (0, 0, 0, 0)),)))
    assert _drawn(_render(gl_ctx, db, [S.mesh(FLOOR)], _camera(-60.0))) == 0
    above = _render(gl_ctx, db, [S.mesh(FLOOR)], _camera(60.0))
    assert _drawn(above) > 100
    # coplanar sides, depth test LESS (zfuncVal): the first drawn subset (surface 0) stays
    lit = above[above[..., 3] > 0]
    assert (lit[:, 1] > 200).all()


def test_CPolygon_UnPack_sides_type_1_is_visible_from_both_sides(gl_ctx, floor_db):
    floor_db.add(FLOOR, quad_gfxobj(FLOOR, WHITE, plane="xy", size=2.0, sides_type=1))
    assert _drawn(_render(gl_ctx, floor_db, [S.mesh(FLOOR)], _camera(-60.0))) > 100
    assert _drawn(_render(gl_ctx, floor_db, [S.mesh(FLOOR)], _camera(60.0))) > 100


def test_ConstructMesh_0x0059DFA0_no_uv_indices_select_uv_0():
    """stippling NoPos: no pos_uv_indices; uvsForSide NULL -> index 0 of each vertex."""
    verts = tuple(Vertex(i, p, (0, 0, 1), ((0.25, 0.75), (1.0, 1.0)))
                  for i, p in enumerate([(0, 0, 0), (1, 0, 0), (0, 1, 0)]))
    g = GfxObj(1, (0x08000001,), VertexArray(1, verts),
               (Polygon(0, 0x4, 0, 0, 0, (0, 1, 2), None),))
    m = triangulate_gfxobj(g)
    assert (m.vertices[:, 6:8] == [0.25, 0.75]).all()


# --- alpha ------------------------------------------------------------------------------------
def test_copyVert_alpha_byte_truncates_and_wraps_like_the_u64_shift():
    assert materials.alpha_byte(0.0) == 255
    assert materials.alpha_byte(0.5) == 127            # 127.5 truncated
    assert materials.alpha_byte(0.35) == 165           # 165.75 truncated
    assert materials.alpha_byte(1.0) == 0
    assert materials.alpha_byte(-0.5) == 382 & 0xFF    # shifted << 24 into 32 bits
    assert materials.alpha_byte(1.5) == (-127) & 0xFF
    assert materials.alpha_byte(float("nan")) == 0


def test_CurSettingsAreDefault_0x0050D9E0_decides_whose_alpha_lights_the_subset():
    va = 127 / 255
    assert materials.diffuse_alpha(va, 0.0) == va                 # no material: vertex alpha
    assert materials.diffuse_alpha(va, 0.25) == 0.75              # material replaces it
    assert materials.diffuse_alpha(va, 0.0, luminosity=0.5) == 1.0  # material, alpha 1
    assert materials.diffuse_alpha(va, 0.0, diffuse=0.4) == 1.0
    assert materials.diffuse_alpha(va, -0.5) == 1.0               # D3D clamps lit alpha
    assert materials.diffuse_alpha(va, 0.0, luminosity=0.0, diffuse=1.0) == va


@pytest.fixture
def translucent_db():
    """A white, opaque-texel texture on a TRANSLUCENT surface (translucency 0.5) and a solid
    white surface with translucency 0.5."""
    db = FakeDB()
    textured_surface(db, 0x08000001, 0x06000001, S.A8R8G8B8, 4, 4,
                     np.full(16, 0xFFFFFFFF, "<u4").tobytes(), surface_type=0x2,
                     translucency=0.5)
    db.add(0x01000001, quad_gfxobj(0x01000001, 0x08000001, size=3.0))
    solid_surface(db, 0x08000002, 0xFFFFFFFF, translucency=0.5)
    db.add(0x01000002, quad_gfxobj(0x01000002, 0x08000002, size=3.0))
    return db


def _centre_value(gl_ctx, db, inst) -> float:
    img = _render(gl_ctx, db, [inst], S.front_camera(), lighting=False,
                  background=(0.0, 0.0, 0.0, 1.0))
    return float(img[H // 2, W // 2, 0])


@pytest.mark.parametrize("part_t,expected", [(0.0, 127), (0.25, 191), (0.75, 64)])
def test_SetSurface_0x0059C4D0_textured_alpha_is_texel_times_vertex_or_material_alpha(
        gl_ctx, translucent_db, part_t, expected):
    """SRCALPHA/INVSRCALPHA over black: the pixel is 255 x alpha. Part t = 0: the surface's
    vertex alpha 127/255; part t > 0: the material's 1 - t alone (not x 0.5)."""
    v = _centre_value(gl_ctx, translucent_db, S.mesh(0x01000001, translucency=part_t))
    assert v == pytest.approx(expected, abs=2)


def test_SetSurface_0x0059C4D0_luminosity_only_material_drops_the_surface_translucency(
        gl_ctx, translucent_db):
    v = _centre_value(gl_ctx, translucent_db, S.mesh(0x01000001, luminosity=0.5))
    # the private material (alpha 1) lights the subset: no fade at all; TRANSLUCENT still
    # picks SRCALPHA/INVSRCALPHA, so the texel alpha 1 gives the full colour
    assert v == pytest.approx(255, abs=2)


@pytest.mark.parametrize("part_t,expected", [(0.0, 127 * 127 / 255), (0.5, 127 * 0.5)])
def test_SetSolidColorTextureColor_texel_alpha_times_diffuse_alpha(gl_ctx, translucent_db,
                                                                     part_t, expected):
    """A solid surface's 1x1 texel carries alpha (1 - t) whatever the Translucent bit, and the
    TRANSLUCENT vertex alpha multiplies it again: (127/255)^2 without a part material."""
    v = _centre_value(gl_ctx, translucent_db, S.mesh(0x01000002, translucency=part_t))
    assert v == pytest.approx(expected, abs=2)


# --- the target's alpha is coverage (captures) --------------------------------------------------
@pytest.mark.parametrize("bg_alpha,expected", [(1.0, 255), (0.0, 127)])
def test_target_alpha_is_coverage_so_opaque_captures_stay_opaque(gl_ctx, translucent_db,
                                                                 bg_alpha, expected):
    """Colour blends as retail; the alpha channel accumulates ONE/INVSRCALPHA: over an opaque
    background it stays 1 (a PNG is not darkened), over a clear one it is the drawn alpha."""
    img = _render(gl_ctx, translucent_db, [S.mesh(0x01000001)], S.front_camera(),
                  lighting=False, background=(0.0, 0.0, 0.0, bg_alpha))
    assert img[H // 2, W // 2, 3] == pytest.approx(expected, abs=1)
    assert img[0, 0, 3] == round(255 * bg_alpha)


def test_opaque_subset_writes_alpha_1_whatever_its_texel_alpha(gl_ctx):
    db = FakeDB()
    textured_surface(db, 0x08000001, 0x06000001, S.A8R8G8B8, 4, 4,
                     np.full(16, 0x40FFFFFF, "<u4").tobytes(), surface_type=0x2)
    db.add(0x01000001, quad_gfxobj(0x01000001, 0x08000001, size=3.0))
    img = _render(gl_ctx, db, [S.mesh(0x01000001)], S.front_camera(), lighting=False)
    assert img[H // 2, W // 2, 3] == 255 and img[H // 2, W // 2, 0] == 255


# --- emissive / diffuse material (RenderMeshSubset 0x0059CA10) ----------------------------------
def test_RenderMeshSubset_0x0059CA10_surface_luminosity_wins_over_the_part_material():
    assert materials.emissive(0.3, 0.8) == 0.3        # surface > 0: written into the material
    assert materials.emissive(0.0, 0.8) == 0.8        # else the part material's emissive
    assert materials.emissive(0.0, None) == 0.0       # else the default material's 0
    assert materials.diffuse_rgb(None) == 1.0         # vertex white (COLOR1)
    assert materials.diffuse_rgb(0.4) == 0.4          # the part material's Diffuse.rgb


@pytest.mark.parametrize("surface_lum,part_lum,expected", [(0.3, 0.8, 76), (0.0, 0.8, 204),
                                                           (0.0, None, 0)])
def test_RenderMeshSubset_0x0059CA10_emissive_drawn(gl_ctx, surface_lum, part_lum, expected):
    db = FakeDB()
    # the Surface's own diffuse (0.2) is not used by the mesh path
    solid_surface(db, 0x08000001, 0xFFFFFFFF, luminosity=surface_lum, diffuse=0.2)
    db.add(0x01000001, quad_gfxobj(0x01000001, 0x08000001, size=3.0))
    img = _render(gl_ctx, db, [S.mesh(0x01000001, luminosity=part_lum)], S.front_camera(),
                  ambient=(0.0, 0.0, 0.0), sun_direction=None,
                  background=(0.0, 0.0, 0.0, 1.0))
    assert img[H // 2, W // 2, 0] == pytest.approx(expected, abs=1)


def test_ambient_material_is_1_and_diffuse_scales_only_the_lights(gl_ctx):
    """A part diffuse of 0 leaves the ambient term (ambient material 1, CMaterial 0x00539770)."""
    db = FakeDB()
    solid_surface(db, 0x08000001, 0xFFFFFFFF)
    db.add(0x01000001, quad_gfxobj(0x01000001, 0x08000001, size=3.0))
    img = _render(gl_ctx, db, [S.mesh(0x01000001, diffuse=0.0)], S.front_camera(),
                  ambient=(0.25, 0.25, 0.25), sun_direction=(0.0, 1.0, 0.0),
                  background=(0.0, 0.0, 0.0, 1.0))
    assert img[H // 2, W // 2, 0] == pytest.approx(64, abs=1)


@pytest.mark.parametrize("t,expected", [(0.0, 127), (0.25, 191)])
def test_particle_alpha_is_vertex_alpha_until_SetTranslucency_makes_a_material(
        gl_ctx, translucent_db, t, expected):
    """Particles are parts with physobj 0: SetTranslucency 0x0050E670 gives them a private
    material whenever t != 0, whose 1 - t replaces the surface's vertex alpha."""
    r = SceneRenderer(gl_ctx, translucent_db,
                      RenderSettings(background=(0.0, 0.0, 0.0, 1.0), show_grid=False,
                                     lighting=False))
    target = OffscreenTarget(gl_ctx, (W, H))
    try:
        r.render(S.scene(particles=S.particle_arrays([[0.0, 0.0, 0.0]], 0x01000001,
                                                     trans=[t])), S.front_camera(), target)
        img = target.read_rgba()
    finally:
        r.release()
        target.release()
    assert img[H // 2, W // 2, 0] == pytest.approx(expected, abs=2)
