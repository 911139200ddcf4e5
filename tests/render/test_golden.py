"""Golden images (headless EGL, llvmpipe, small sizes) of the render passes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.imagecheck import assert_image_matches
from tests.render import scenes as S
from viewer.dat.records.common import Frame
from viewer.dat.records.setup import LightInfo
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.lights import lights_from_setup
from viewer.render.renderer import RenderSettings, SceneRenderer

W, H = 96, 72
BG = (0.0, 0.0, 0.0, 1.0)


@pytest.fixture
def rig(gl_ctx):
    db = S.build_db()
    settings = RenderSettings(background=BG, show_grid=False)
    r = SceneRenderer(gl_ctx, db, settings)
    target = OffscreenTarget(gl_ctx, (W, H))
    yield r, target
    r.release()
    target.release()


def draw(rig, scene, camera):
    r, target = rig
    r.render(scene, camera, target)
    return target.read_rgba()


def covered(img):
    return int((img[..., :3].max(axis=-1) > 8).sum())


def test_textured_setup_golden(rig, regen_goldens):
    img = draw(rig, S.scene([S.mesh(S.CUBE)]), S.oblique_camera())
    assert covered(img) > 500
    assert_image_matches(img, "render/textured_setup.png", tol=3, max_bad_fraction=0.01,
                         regen=regen_goldens)


@pytest.mark.parametrize("name", list(S.BLEND_SURFACES))
def test_blend_mode_golden(rig, regen_goldens, name):
    backdrop = S.mesh(S.BACKDROP, origin=(0.0, 1.0, 0.0))
    quad = S.mesh(S.BLEND_QUADS[name])
    img = draw(rig, S.scene([backdrop, quad]), S.front_camera())
    assert_image_matches(img, f"render/blend_{name}.png", tol=3, max_bad_fraction=0.01,
                         regen=regen_goldens)


def test_blend_modes_differ_as_retail_describes(rig):
    backdrop = S.mesh(S.BACKDROP, origin=(0.0, 1.0, 0.0))
    centre = {}
    for name in S.BLEND_SURFACES:
        img = draw(rig, S.scene([backdrop, S.mesh(S.BLEND_QUADS[name])]), S.front_camera())
        centre[name] = img[H // 2, W // 2, :3].astype(int)
    bd = np.array([0x30, 0x50, 0xA0])
    assert centre["opaque"].tolist() == [255, 128, 0]
    # SRCALPHA/INVSRCALPHA at alpha 0x80: halfway between texel and backdrop
    assert np.allclose(centre["alpha"], (np.array([255, 128, 0]) * 0x80 + bd * 0x7F) / 255,
                       atol=3)
    # ONE/ONE: backdrop + texel, clamped
    assert np.allclose(centre["additive"], np.minimum(bd + [0x80, 0x40, 0], 255), atol=3)
    # SRCALPHA/ONE: backdrop + alpha * texel
    assert np.allclose(centre["alpha_additive"],
                       np.minimum(bd + np.array([255, 128, 0]) * 0x80 / 255, 255), atol=3)
    # translucent surface 0.5: alpha 0.5 over the backdrop
    assert np.allclose(centre["translucent"], (np.array([255, 128, 0]) + bd) / 2, atol=3)


def test_pure_additive_particle_does_not_fade_with_translucency(rig):
    """Runtime spec 3.5.4: ONE/ONE ignores the material alpha; only t == 1 removes it."""
    gfx = S.BLEND_QUADS["additive"]
    cam = S.front_camera()
    a = draw(rig, S.scene(particles=S.particle_arrays([[0, 0, 0]], gfx, trans=[0.0])), cam)
    b = draw(rig, S.scene(particles=S.particle_arrays([[0, 0, 0]], gfx, trans=[0.7])), cam)
    c = draw(rig, S.scene(particles=S.particle_arrays([[0, 0, 0]], gfx, trans=[1.0])), cam)
    assert np.array_equal(a, b)
    assert covered(c) == 0


def test_alpha_particle_fades_with_translucency(rig):
    gfx = S.BLEND_QUADS["alpha_additive"]
    cam = S.front_camera()
    a = draw(rig, S.scene(particles=S.particle_arrays([[0, 0, 0]], gfx, trans=[0.0])), cam)
    b = draw(rig, S.scene(particles=S.particle_arrays([[0, 0, 0]], gfx, trans=[0.5])), cam)
    assert int(a[H // 2, W // 2, 0]) > int(b[H // 2, W // 2, 0]) + 30


def test_billboarded_particle_golden(rig, regen_goldens):
    """Degrade mode 2 (set_vector_heading): the XZ quad turns to face an oblique viewer."""
    cam = S.oblique_camera(distance=3.0)
    img = draw(rig, S.scene(particles=S.particle_arrays([[0, 0, 0]], S.QUAD_BB)), cam)
    flat = draw(rig, S.scene(particles=S.particle_arrays([[0, 0, 0]], S.QUAD)), cam)
    # facing the camera it covers more screen than the same quad left world-aligned
    assert covered(img) > covered(flat) * 1.2
    assert_image_matches(img, "render/billboard_particle.png", tol=3, max_bad_fraction=0.01,
                         regen=regen_goldens)


def test_lit_mesh_golden(gl_ctx, regen_goldens):
    db = S.build_db()
    settings = RenderSettings(background=BG, show_grid=False, ambient=(0.05, 0.05, 0.05),
                              sun_direction=None)
    r = SceneRenderer(gl_ctx, db, settings)
    target = OffscreenTarget(gl_ctx, (W, H))
    try:
        light = LightInfo(0, Frame((1.2, -1.2, 1.2), (1.0, 0, 0, 0)), 0xFFFFE0A0, 1.0, 4.0, 0.0)
        lit = lights_from_setup([light], (0, 0, 0), (1, 0, 0, 0), 0x00400C08)
        dark = lights_from_setup([light], (0, 0, 0), (1, 0, 0, 0), 0x00400408)
        assert len(lit) == 1 and dark == []  # no LIGHTING_ON bit -> no lights
        r.render(S.scene([S.mesh(S.CUBE)], lights=lit), S.oblique_camera(), target)
        img = target.read_rgba()
        r.render(S.scene([S.mesh(S.CUBE)], lights=dark), S.oblique_camera(), target)
        unlit = target.read_rgba()
        assert img[..., :3].astype(int).sum() > unlit[..., :3].astype(int).sum() * 2
        assert_image_matches(img, "render/lit_mesh.png", tol=3, max_bad_fraction=0.01,
                             regen=regen_goldens)
    finally:
        r.release()
        target.release()


def test_hidden_object_is_not_drawn_golden(rig, regen_goldens):
    cam = S.oblique_camera(distance=5.0)
    visible = S.mesh(S.CUBE, origin=(-0.8, 0, 0))
    hidden = S.mesh(S.CUBE, origin=(0.8, 0, 0), hidden=True)
    img = draw(rig, S.scene([visible, hidden]), cam)
    only = draw(rig, S.scene([visible]), cam)
    assert np.array_equal(img, only)
    both = draw(rig, S.scene([visible, S.mesh(S.CUBE, origin=(0.8, 0, 0))]), cam)
    assert covered(both) > covered(img) * 1.5
    assert_image_matches(img, "render/hidden_object.png", tol=3, max_bad_fraction=0.01,
                         regen=regen_goldens)


def test_part_translucency_one_is_not_drawn(rig):
    cam = S.oblique_camera()
    assert covered(draw(rig, S.scene([S.mesh(S.CUBE, translucency=1.0)]), cam)) == 0


def test_render_does_not_modify_scene_input(rig):
    parts = S.particle_arrays([[0, 0, 0], [0.3, 0, 0]], S.QUAD_BB, trans=[0.2, 0.0])
    before = [a.copy() for a in (parts.positions, parts.scales, parts.translucencies)]
    draw(rig, S.scene([S.mesh(S.CUBE)], particles=parts), S.oblique_camera())
    for a, b in zip(before, (parts.positions, parts.scales, parts.translucencies)):
        assert np.array_equal(a, b)


def test_one_particle_draw_per_batch(rig):
    r, _ = rig
    pos = np.random.default_rng(0).uniform(-1, 1, (500, 3))
    gfx = np.where(np.arange(500) % 2 == 0, S.QUAD_BB, S.BLEND_QUADS["additive"])
    parts = S.particle_arrays(pos, S.QUAD_BB)
    parts = type(parts)(parts.positions, parts.orientations, parts.scales,
                        parts.translucencies, gfx.astype(np.uint32), parts.emitter,
                        parts.emitter_origins)
    draw(rig, S.scene(particles=parts), S.oblique_camera())
    assert r.last_stats["particle_draws"] == r.last_stats["particle_batches"] == 2
    assert r.particles.uploads >= 1


def test_scene_renderer_clear_false_draws_over_the_window_target(gl_ctx):
    """The window clears and draws its grid, then calls SceneRenderer.render(clear=False)
    (viewer/app/scene_view.py): what the target holds stays where nothing is drawn."""
    from tests.render import dat_fixture
    from viewer.dat.database import AssetDatabase
    from viewer.render.renderer import RenderSettings, SceneRenderer
    from viewer.render.scene_input import scene_input_from_world
    from viewer.sim.world import World
    db = AssetDatabase.from_records(dat_fixture.records())
    world = World(db, seed=1)
    world.create_object(1, dat_fixture.SETUP)
    world.tick(0)
    r = SceneRenderer(gl_ctx, db, RenderSettings(show_grid=False))
    target = OffscreenTarget(gl_ctx, (48, 36))
    try:
        target.clear((0.2, 0.0, 0.0, 1.0))
        info = r.render(scene_input_from_world(world), S.oblique_camera(), target, clear=False)
        img = target.read_rgba()
        assert info["draw_calls"] >= 1
        assert (img[0, 0, :3] == [51, 0, 0]).all()     # not cleared: corner keeps the red
        assert covered(img) > 0
    finally:
        r.release()
        target.release()


def test_billboard_setup_part_faces_the_viewer(rig):
    """A Setup part whose GfxObj's degrade entry has mode 2 is drawn camera-facing."""
    cam = S.oblique_camera(distance=3.0)
    bb = draw(rig, S.scene([S.mesh(S.QUAD_BB)]), cam)
    flat = draw(rig, S.scene([S.mesh(S.QUAD)]), cam)
    assert covered(bb) > covered(flat) * 1.2


def test_texture_velocity_offset_moves_the_texture(rig):
    cam = S.front_camera(distance=2.0)
    sc = S.scene([S.mesh(S.CUBE, origin=(0, 0, 0))])
    a = draw(rig, sc, cam)
    sc.texture_offsets = {S.CUBE: (0.25, 0.0)}
    b = draw(rig, sc, cam)
    assert not np.array_equal(a, b)
    parts = S.particle_arrays([[0, 0, 0]], S.CUBE)
    c = draw(rig, S.scene(particles=parts), cam)
    sc2 = S.scene(particles=parts)
    sc2.texture_offsets = {S.CUBE: (0.25, 0.0)}
    assert not np.array_equal(c, draw(rig, sc2, cam))


def _floor_render(gl_ctx, lights):
    """A 4 m grey floor (16 x 16 quads: D3D lights per vertex) seen from above, no ambient,
    no sun: only ``lights`` light it."""
    settings = RenderSettings(background=BG, show_grid=False, ambient=(0, 0, 0),
                              sun_direction=None)
    r = SceneRenderer(gl_ctx, S.build_db(), settings)
    t = OffscreenTarget(gl_ctx, (64, 64))
    from viewer.render.camera import Camera
    cam = Camera(target=(0, 0, 0), distance=4.0, yaw=-np.pi / 2, pitch=np.radians(89.0))
    try:
        r.render(S.scene([S.mesh(S.FLOOR_FINE)], lights=lights), cam, t)
        return t.read_rgba()[..., :3].astype(int).sum(axis=-1)
    finally:
        r.release()
        t.release()


def test_point_light_range_is_falloff_times_1_5_hard_cut(gl_ctx):
    from viewer.render.scene_input import SceneLight
    # light 0.5 m above (-1.5, 0); range 1.5 * 1.0: the far side of the floor stays dark
    img = _floor_render(gl_ctx, [SceneLight(0, (-1.5, 0.0, 0.5), (0, 1, 0), (1, 1, 1), 1.0,
                                            1.0)])
    h, w = img.shape
    assert img[h // 2, 8] > 60          # near the light
    assert img[h // 2, w - 6] == 0       # beyond 1.5 m: hard cut


def test_directional_light_lights_by_direction_only(gl_ctx):
    from viewer.render.scene_input import SceneLight
    down = _floor_render(gl_ctx, [SceneLight(1, (50, 50, 50), (0, 0, -1), (1, 1, 1), 1.0,
                                             0.0)])
    up = _floor_render(gl_ctx, [SceneLight(1, (0, 0, 0), (0, 0, 1), (1, 1, 1), 1.0, 0.0)])
    h, w = down.shape
    assert down[h // 2, w // 2] > 250 and abs(int(down[4, 4]) - int(down[h - 5, w - 5])) < 6
    assert up.max() == 0


def test_spot_light_cone(gl_ctx):
    from viewer.render.scene_input import SceneLight
    # spot 1 m above the origin pointing down, 60 deg cone: lit disc of radius ~0.58 m
    img = _floor_render(gl_ctx, [SceneLight(2, (0, 0, 1.0), (0, 0, -1), (1, 1, 1), 2.0, 10.0,
                                            np.radians(60))])
    h, w = img.shape
    assert img[h // 2, w // 2] > 60
    assert img[h // 2, 4] == 0 and img[4, w // 2] == 0


def test_alpha_list_is_drawn_far_to_near_whatever_the_scene_order(rig):
    """CShadowPart::insertion_sort 0x006B5130 then FlushAlphaList 0x0059D2E0: blended
    subsets (parts and particle batches alike) are drawn far to near."""
    cam = S.front_camera()
    alpha = S.BLEND_QUADS["alpha"]
    near = S.mesh(alpha, origin=(0.2, -0.5, 0.1))
    far = S.mesh(S.BLEND_QUADS["alpha_blue"], origin=(-0.2, 0.5, -0.1))
    a = draw(rig, S.scene([near, far]), cam)
    b = draw(rig, S.scene([far, near]), cam)
    assert np.array_equal(a, b)
    # (far then near) differs from (near then far) where they overlap: the order matters
    centre = a[H // 2, W // 2, :3].astype(int)
    assert centre[0] > centre[2]  # the near orange quad is on top
    # the same with the near quad as a particle batch
    p_near = S.particle_arrays([[0.2, -0.5, 0.1]], alpha, emitter_origins=[[0.2, -0.5, 0.1]])
    c = draw(rig, S.scene([far], particles=p_near), cam)
    assert np.abs(c.astype(int) - a.astype(int)).max() <= 2


def _two_sided_particle_views(gl_ctx):
    """A sides_type 1 quad particle (CPolygon::UnPack 0x00538650: the back face mirrors the
    front, normal negated) under a point light on its front side, then on its back side,
    each seen from the front and from behind: [[light front: front, back view],
    [light behind: front, back view], [no point light: front, back view]]."""
    import math

    from tests.render.fakes import quad_gfxobj, solid_surface
    from viewer.render.camera import Camera
    from viewer.render.scene_input import SceneLight
    db = S.build_db()
    solid_surface(db, 0x08000301, 0xFFC08040)      # no luminosity: lit
    did = db.add(0x01000301, quad_gfxobj(0x01000301, 0x08000301, sides_type=1, size=1.6))
    r = SceneRenderer(gl_ctx, db, RenderSettings(background=BG, show_grid=False))
    target = OffscreenTarget(gl_ctx, (W, H))
    rows = []
    try:
        for light_y in (-1.0, 1.0, None):   # the quad's front faces -Y
            lights = [] if light_y is None else [
                SceneLight(0, (0.3, light_y, 0.2), (0, 1, 0), (1.0, 1.0, 1.0), 0.6, 4.0)]
            row = []
            for yaw in (-90.0, 90.0):  # from -Y (the front), from +Y (behind)
                cam = Camera(target=(0, 0, 0), distance=3.0, yaw=math.radians(yaw),
                             pitch=math.radians(10.0), fov_y_deg=50.0)
                r.render(S.scene(particles=S.particle_arrays([[0, 0, 0]], did),
                                 lights=lights), cam, target)
                row.append(target.read_rgba())
            rows.append(row)
    finally:
        r.release()
        target.release()
    return rows


def test_two_sided_particle_lit_on_each_face_by_a_point_light_golden(gl_ctx, regen_goldens):
    """The front face takes the light on its side (N.L), the mirrored back face the light
    on the other side (its normal negated); the face turned away from the point light is
    lit as if it were not there (max(N.L, 0) = 0). Pixel for pixel the pictures of the
    12-vertex two-sided draw (the golden was made by it)."""
    (front_lit, back_dark), (front_dark, back_lit), (front, back) = \
        _two_sided_particle_views(gl_ctx)
    assert covered(front) > 500 and covered(back) > 500
    assert np.array_equal(back_dark, back) and np.array_equal(front_dark, front)
    for img, base in ((front_lit, front), (back_lit, back)):
        assert int(img[H // 2, W // 2, 0]) > int(base[H // 2, W // 2, 0]) + 30
    mosaic = np.concatenate([np.concatenate([front_lit, back_dark], axis=1),
                             np.concatenate([front_dark, back_lit], axis=1)], axis=0)
    assert_image_matches(mosaic, "render/two_sided_particle_lit.png", tol=0,
                         max_bad_fraction=0.0, regen=regen_goldens)
