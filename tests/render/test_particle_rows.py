"""Particle rows' index lists (particles.row_classes; ours, not retail's): rows wholly
outside the view leave out their triangles, billboards (degrade mode 2) with culling on
leave out the triangles culling removes where that is certain. The pictures must not
change by a byte: each case renders with the lists and with every row's full pattern."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tests.render import scenes as S
from tests.render.fakes import GfxObjDegradeInfo, GfxObjInfo, quad_gfxobj
from viewer.render import particles as P
from viewer.render.camera import Camera, look_at, perspective
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.meshes import triangulate_gfxobj
from viewer.render.renderer import RenderSettings, SceneRenderer
from viewer.render.scene_input import ParticleArrays

W, H = 96, 72
TWO_BB = 0x01000201        # two-sided XZ quad, billboard: its front winding faces the viewer
TWO_BB_AWAY = 0x01000202   # the same, front winding reversed: the mirrored side is seen
ONE_BB_AWAY = 0x01000203   # one-sided, facing away in a billboard: never drawn
TILTED_BB = 0x01000204     # two-sided, tilted 70 degrees: no facing pattern
LIT = 0x08000003           # a lit (not luminous) grey: the two sides light differently


def _flip(g):
    """The GfxObj with its polygon's winding reversed (the front normal turned over)."""
    poly = g.polygons[0]
    ids = poly.vertex_ids
    return dataclasses.replace(g, polygons=(dataclasses.replace(
        poly, vertex_ids=(ids[0],) + tuple(reversed(ids[1:]))),))


def _tilt(g, deg):
    """The GfxObj's vertices turned ``deg`` about local X."""
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    verts = tuple(dataclasses.replace(v, origin=(v.origin[0], c * v.origin[1] - s * v.origin[2],
                                                 s * v.origin[1] + c * v.origin[2]))
                  for v in g.vertex_array.vertices)
    return dataclasses.replace(g, vertex_array=dataclasses.replace(g.vertex_array,
                                                                   vertices=verts))


def build_db():
    db = S.build_db()
    for i, (did, sides, edit) in enumerate([(TWO_BB, 1, None), (TWO_BB_AWAY, 1, _flip),
                                           (ONE_BB_AWAY, 0, _flip),
                                           (TILTED_BB, 1, lambda g: _tilt(g, 70.0))]):
        deg = 0x11000201 + i
        db.add(deg, GfxObjDegradeInfo(deg, (GfxObjInfo(did, 2, 0.0, 100.0, 1000.0),)))
        g = quad_gfxobj(did, LIT if i % 2 else 0x08000001, sides_type=sides, degrade=deg)
        db.add(did, edit(g) if edit else g)
    return db


class RolledCamera:
    """A camera looking from ``eye`` at ``target`` with its up vector rolled."""

    def __init__(self, eye, target, roll_deg, fov_y_deg=50.0):
        self._eye = np.asarray(eye, np.float64)
        self.target = np.asarray(target, np.float64)
        r = math.radians(roll_deg)
        f = self.target - self._eye
        f /= np.linalg.norm(f)
        side = np.cross(f, (0.0, 0.0, 1.0))
        side /= np.linalg.norm(side)
        up = np.cross(side, f)
        self.up = math.cos(r) * up + math.sin(r) * side
        self.fov = fov_y_deg

    def eye(self):
        return self._eye

    def view_matrix(self):
        return look_at(self._eye, self.target, self.up)

    def projection_matrix(self, aspect):
        return perspective(self.fov, aspect, 0.1, 500.0)


def particles(rng, n, gfx, centre, spread, scale, origin=None):
    pos = np.asarray(centre) + rng.uniform(-spread, spread, (n, 3))
    arr = S.particle_arrays(pos, 0, scales=rng.uniform(*scale, n),
                            emitter_origins=[origin if origin is not None else centre])
    gfx_ids = np.asarray(gfx, np.uint32)[rng.integers(0, len(gfx), n)]
    return dataclasses.replace(arr, gfxobj=gfx_ids)


def join(*parts: ParticleArrays) -> ParticleArrays:
    """Particle arrays of several emitters (one origin each)."""
    n = [p.count for p in parts]
    emitter = np.concatenate([np.full(k, i, np.int32) for i, k in enumerate(n)])
    return ParticleArrays(*(np.concatenate([getattr(p, f) for p in parts])
                            for f in ("positions", "orientations", "scales", "translucencies",
                                      "gfxobj")), emitter,
                          np.concatenate([p.emitter_origins for p in parts]))


ALL_BB = [TWO_BB, TWO_BB_AWAY, ONE_BB_AWAY, TILTED_BB, S.QUAD_BB, S.QUAD]


def scene_arrays(seed=0):
    """Billboards near the origin (their own heading point), far ones round an emitter
    beyond particle_distance_2dsq (the emitter origin's heading), big and tiny, and plain
    quads (mode 1): some in view, some outside it, some across its edges; and rows of a
    far emitter beside the eye (at -4 on Y): their heading (to the emitter origin, along
    +Y) puts some quads' planes between the eye and the emitter, others behind the eye
    (the seen side is the one the heading says faces away: they must draw both)."""
    rng = np.random.default_rng(seed)
    return join(particles(rng, 40, ALL_BB, (0.0, 0.0, 0.0), 2.5, (0.2, 1.2)),
                particles(rng, 20, ALL_BB, (3.0, 40.0, 2.0), 4.0, (2.0, 5.0)),
                particles(rng, 20, ALL_BB, (-6.0, 60.0, 0.0), 8.0, (0.01, 0.05)),
                particles(rng, 30, ALL_BB, (4.0, -4.0, 0.0), 1.5, (0.3, 1.0),
                          origin=(0.0, 60.0, 0.0)))


CAMERAS = [
    S.front_camera(),
    S.oblique_camera(),
    Camera(target=(0.0, 0.0, 0.0), distance=6.0, yaw=math.radians(30.0),
           pitch=math.radians(-50.0), fov_y_deg=50.0),
    Camera(target=(0.0, 20.0, 0.0), distance=30.0, yaw=math.radians(-100.0),
           pitch=math.radians(70.0), fov_y_deg=70.0),
    S.front_camera(distance=0.6),                              # the eye right by quads
    RolledCamera((0.5, -5.0, 1.0), (0.0, 10.0, 0.0), 35.0),
    RolledCamera((2.0, -3.0, -1.5), (0.0, 40.0, 2.0), -120.0, fov_y_deg=30.0),
    RolledCamera((0.0, 0.0, 0.0), (0.0, 1.0, 0.0), 90.0),     # the eye among the particles
    RolledCamera((0.0, -4.0, 0.0), (10.0, -4.0, 0.0), 0.0),   # beside the far emitter's rows
    RolledCamera((0.0, -4.0, 0.3), (10.0, -3.0, -0.5), 10.0),
]


@pytest.fixture
def rig(gl_ctx):
    r = SceneRenderer(gl_ctx, build_db(), RenderSettings(background=(0.0, 0.0, 0.0, 1.0),
                                                         show_grid=False))
    target = OffscreenTarget(gl_ctx, (W, H))
    yield r, target
    r.release()
    target.release()


def _classes(r):
    """Row classes of the frame just drawn (ROW_FULL, ROW_FACING, ROW_NONE counts)."""
    pp = r.particles
    counts = np.zeros(3, int)
    for b in pp.uploaded.batches:
        mesh = r.meshes.mesh(b.gfxobj)
        lay = pp.corner_table(mesh).layouts[mesh.subsets[0].first]
        if P.classified(b) and pp.view is not None:
            rows = pp.uploaded.instances[b.start:b.start + b.count]
            counts += np.bincount(P.row_classes(rows, lay, pp.view, b.mode == 2), minlength=3)
    return counts


def both(rig, arrays, camera, monkeypatch, settings=None):
    """(the picture with the row lists, the picture with full patterns, row classes)."""
    r, target = rig
    r.render(S.scene(particles=arrays), camera, target, settings=settings)
    img = target.read_rgba()
    counts = _classes(r)
    monkeypatch.setattr(P, "ROW_PATTERNS", False)
    r.render(S.scene(particles=arrays), camera, target, settings=settings)
    full = target.read_rgba()
    monkeypatch.setattr(P, "ROW_PATTERNS", True)
    return img, full, counts


def test_row_lists_draw_the_same_pixels_from_many_views(rig, monkeypatch):
    total = np.zeros(3, int)
    arrays = scene_arrays()
    for cam in CAMERAS:
        img, full, counts = both(rig, arrays, cam, monkeypatch)
        assert np.array_equal(img, full), cam
        total += counts
    # every kind of row was met
    assert (total > 0).all(), total


def test_row_lists_same_pixels_culling_off_and_translucent(rig, monkeypatch):
    arrays = dataclasses.replace(scene_arrays(1), translucencies=np.linspace(0, 0.8, 110))
    r, _ = rig
    off = dataclasses.replace(r.settings, cull_backfaces=False)
    for cam in CAMERAS[:4]:
        img, full, counts = both(rig, arrays, cam, monkeypatch, off)
        assert np.array_equal(img, full)
        assert counts[P.ROW_FACING] == 0          # no culling: every side is drawn
        img, full, _ = both(rig, arrays, cam, monkeypatch)
        assert np.array_equal(img, full)


def test_row_lists_same_pixels_through_the_compiled_kernel(rig, monkeypatch):
    from viewer.sim import particles as sim_particles
    monkeypatch.setattr(sim_particles, "KERNEL", "1")
    arrays = scene_arrays(2)
    for cam in CAMERAS[:3] + CAMERAS[5:6]:
        img, full, counts = both(rig, arrays, cam, monkeypatch)
        assert np.array_equal(img, full)
    assert counts[P.ROW_FACING] > 0


def test_a_busy_billboard_batch_draws_6_indices_a_two_sided_quad(rig):
    """The stress scene's case: two-sided billboards in view, 6 indices a row, not 12."""
    r, target = rig
    rng = np.random.default_rng(3)
    arrays = particles(rng, 500, [TWO_BB], (0.0, 8.0, 0.0), 1.0, (0.3, 0.5))
    r.render(S.scene(particles=arrays), S.front_camera(), target)
    pp = r.particles
    (b,) = pp.uploaded.batches
    mesh = r.meshes.mesh(TWO_BB)
    lay = pp.corner_table(mesh).layouts[mesh.subsets[0].first]
    assert len(lay.pattern) // 4 == 12
    idx = pp.row_index_list(lay, b)
    assert idx is not None and len(idx) == 6 * b.count
    # the front winding's triangles, 4 distinct corners a row
    assert np.array_equal(idx[:6], np.frombuffer(lay.pattern, np.uint32)[:6])
    assert len(np.unique(idx[:6])) == 4


def test_the_gpu_pass_rows_draw_full_patterns(rig):
    """Rows the GPU pass gathered (use_buffer) are not on the CPU: full patterns."""
    r, target = rig
    arrays = particles(np.random.default_rng(4), 50, [TWO_BB], (0.0, 8.0, 0.0), 1.0,
                       (0.3, 0.5))
    r.render(S.scene(particles=arrays), S.front_camera(), target)
    pp = r.particles
    (b,) = pp.uploaded.batches
    lay = pp.corner_table(r.meshes.mesh(TWO_BB)).layouts[0]
    assert pp.row_index_list(lay, b) is not None
    buf = r.ctx.buffer(pp.uploaded.instances.tobytes())
    try:
        pp.use_buffer(buf, b.count)
        assert pp.row_index_list(lay, b) is None
    finally:
        buf.release()


# --- the facing pattern of a layout ---------------------------------------------------------
def _layout(gl_ctx, g):
    table = P.CornerTable(gl_ctx, triangulate_gfxobj(g))
    table.texture.release()
    return table.layouts[0]


def test_facing_pattern_keeps_the_front_winding_of_a_two_sided_quad(gl_ctx):
    lay = _layout(gl_ctx, quad_gfxobj(1, 0x08000001, sides_type=1))
    full = np.frombuffer(lay.pattern, np.uint32).reshape(-1, 3)
    assert lay.kept == (0, 1)
    assert np.array_equal(np.frombuffer(lay.facing, np.uint32).reshape(-1, 3), full[:2])
    assert lay.alt == pytest.approx(math.sqrt(0.5))
    assert lay.reach == pytest.approx(math.sqrt(0.5))


def test_facing_pattern_keeps_the_mirrored_winding_when_the_front_faces_away(gl_ctx):
    lay = _layout(gl_ctx, _flip(quad_gfxobj(1, 0x08000001, sides_type=1)))
    full = np.frombuffer(lay.pattern, np.uint32).reshape(-1, 3)
    assert lay.kept == (2, 3)
    kept = np.frombuffer(lay.facing, np.uint32).reshape(-1, 3)
    assert np.array_equal(kept, full[2:])
    assert (kept[:, 2] >= lay.mirrored).all()       # provoked by mirrored corners


def test_facing_pattern_cases(gl_ctx):
    # one-sided facing the viewer: nothing is ever culled, no pattern
    assert _layout(gl_ctx, quad_gfxobj(1, 0x08000001)).facing is None
    # one-sided facing away: nothing kept
    lay = _layout(gl_ctx, _flip(quad_gfxobj(1, 0x08000001)))
    assert (lay.facing, lay.kept) == (b"", ())
    # tilted 45 degrees: still certain (cos 0.71); 70 degrees: too close to edge-on
    assert _layout(gl_ctx, _tilt(quad_gfxobj(1, 0x08000001, sides_type=1), 45.0)).kept == (0, 1)
    assert _layout(gl_ctx, _tilt(quad_gfxobj(1, 0x08000001, sides_type=1), 70.0)).facing is None
    from tests.render.fakes import cube_gfxobj
    assert _layout(gl_ctx, cube_gfxobj(1, 0x08000001)).facing is None


# --- row classes --------------------------------------------------------------------------
def _view(cam=None, size=(W, H), cull=True):
    cam = cam or S.front_camera()
    aspect = size[0] / size[1]
    return P.facing_view(cam.projection_matrix(aspect), cam.view_matrix(), size,
                         cam.eye(), cull)


LAY = P.CornerLayout(0, 5, np.arange(12, dtype=np.uint32).tobytes(), 3,
                     np.arange(6, dtype=np.uint32).tobytes(), math.sqrt(0.5),
                     math.sqrt(0.5), (0, 1))


def _rows(pos, scale=1.0, head=None, quat=(1.0, 0.0, 0.0, 0.0)):
    pos = np.asarray(pos, np.float64).reshape(-1, 3)
    rows = np.zeros((len(pos), P.INSTANCE_FLOATS), np.float32)
    rows[:, 0:3] = pos
    rows[:, 3:7] = quat
    rows[:, 7] = scale
    rows[:, 8] = -1.0
    rows[:, 9:12] = pos if head is None else head
    return rows


def test_row_classes_eligible_and_not():
    view = _view()                                     # eye (0, -4, 0) looking along +Y
    c = P.row_classes(_rows([[0, 0, 0], [0, 3, 0]]), LAY, view, True)
    assert c.tolist() == [P.ROW_FACING] * 2
    # the same rows as mode 1: full; culling off: full
    assert P.row_classes(_rows([[0, 0, 0]]), LAY, view, False).tolist() == [P.ROW_FULL]
    assert P.row_classes(_rows([[0, 0, 0]]), LAY, _view(cull=False), True).tolist() == \
        [P.ROW_FULL]
    # behind the eye, far off to a side: nothing
    c = P.row_classes(_rows([[0, -10, 0], [50, 0, 0], [0, 1000, 0]]), LAY, view, True)
    assert c.tolist() == [P.ROW_NONE] * 3
    # the eye too close for its size; across the view's edge; too small on screen
    c = P.row_classes(_rows([[0, -3.5, 0], [1.9, 0, 0], [0, 100, 0]], [1.0, 1.0, 0.05]),
                      LAY, view, True)
    assert c.tolist() == [P.ROW_FULL] * 3
    # a far row's heading point (emitter origin) far from the quad: not certain
    c = P.row_classes(_rows([[0, 10, 0]], 1.0, head=[[0, 5, 0]]), LAY, view, True)
    assert c.tolist() == [P.ROW_FULL]
    c = P.row_classes(_rows([[0, 10, 0]], 1.0, head=[[0, 10.5, 0]]), LAY, view, True)
    assert c.tolist() == [P.ROW_FACING]
    # the same rows on a bigger target are big enough
    assert P.row_classes(_rows([[0, 100, 0]], 0.05), LAY, _view(size=(1280, 960)),
                         True).tolist() == [P.ROW_FACING]
    # a quaternion longer than 1 stretches a mode-1 row: its reach grows with it
    edge = _rows([[5.9, 4, 0]], 1.0)
    assert P.row_classes(edge, LAY, view, False).tolist() == [P.ROW_NONE]
    assert P.row_classes(_rows([[5.9, 4, 0]], 1.0, quat=(2.0, 0, 0, 0)), LAY, view,
                         False).tolist() == [P.ROW_FULL]


def test_facing_view_only_for_a_plain_perspective_and_rigid_view():
    cam = S.front_camera()
    proj, view = cam.projection_matrix(1.0), cam.view_matrix()
    assert P.facing_view(proj, view, (10, 10), cam.eye()) is not None
    mirrored = view.copy()
    mirrored[0] *= -1
    assert P.facing_view(proj, mirrored, (10, 10), cam.eye()) is None
    skewed = proj.copy()
    skewed[0, 2] = 0.1
    assert P.facing_view(skewed, view, (10, 10), cam.eye()) is None
    assert P.facing_view(proj, view, (0, 10), cam.eye()) is None


def test_row_indices_lists_each_rows_pattern_in_row_order():
    classes = np.array([P.ROW_FULL, P.ROW_FACING, P.ROW_NONE, P.ROW_FACING], np.int8)
    idx = P.row_indices(classes, LAY)
    assert idx.tolist() == list(range(12)) + [5 + k for k in range(6)] + \
        [15 + k for k in range(6)]


@pytest.mark.parametrize("billboard", [True, False])
@pytest.mark.parametrize("cull", [True, False])
def test_compiled_facing_indices_match_numpy(billboard, cull):
    from viewer.render import particle_prepare_kernel as K
    rng = np.random.default_rng(5)
    n = 3000
    pos = rng.uniform(-30, 30, (n, 3)) + [0, 25, 0]
    head = np.where(rng.random((n, 1)) < 0.5, pos, pos + rng.normal(0, 2, (n, 3)))
    rows = _rows(pos, rng.uniform(0.0, 3.0, n), head)
    rows[:, 3:7] = rng.normal(0, 0.6, (n, 4))
    for lay in (LAY, dataclasses.replace(LAY, facing=b"", kept=()),
                dataclasses.replace(LAY, facing=None, kept=())):
        for cam in CAMERAS:
            view = _view(cam, cull=cull)
            ref = P.row_indices(P.row_classes(rows, lay, view, billboard), lay)
            out = np.empty(n * 12, np.uint32)
            k = K.facing_indices(rows, view.eye, view.planes, lay.reach, lay.alt,
                                 np.frombuffer(lay.pattern, np.uint32),
                                 np.frombuffer(lay.facing or b"", np.uint32),
                                 lay.facing is not None, lay.count, billboard, view.cull,
                                 view.f_min, view.f_max, view.stretch, P.FACING_COS,
                                 P.FACING_CLEARANCE, P.FACING_MIN_PX, out)
            assert np.array_equal(out[:k], ref)
