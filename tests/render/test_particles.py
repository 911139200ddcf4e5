"""Particle batching: visibility, degrade level, billboard mode, sorting,
and the proof that per-frame CPU work has no Python loop over particles or emitters."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np
import pytest

from tests.render.fakes import GfxObjInfo
from viewer.render import particles as P
from viewer.render.scene_input import ParticleArrays


@dataclass
class _Mesh:
    sort_center: tuple = (0.0, 0.0, 0.0)
    degrade: list = field(default_factory=list)


class _Meshes:
    def __init__(self, table=None):
        self.table = table or {}

    def mesh(self, did):
        return self.table.get(did, _Mesh())


def arrays(pos, *, gfx=None, trans=None, scale=None, emitter=None, origins=None):
    pos = np.asarray(pos, np.float64).reshape(-1, 3)
    n = len(pos)
    quat = np.tile([1.0, 0, 0, 0], (n, 1))
    return ParticleArrays(pos, quat,
                          np.ones(n) if scale is None else np.asarray(scale, float),
                          np.zeros(n) if trans is None else np.asarray(trans, float),
                          np.full(n, 0x01000001, np.uint32) if gfx is None
                          else np.asarray(gfx, np.uint32),
                          np.zeros(n, np.int32) if emitter is None
                          else np.asarray(emitter, np.int32),
                          np.zeros((1, 3)) if origins is None else np.asarray(origins, float))


def test_SetTranslucency_0x0050E670_translucency_exactly_one_is_not_drawn():
    p = P.prepare(arrays([[0, 0, 0], [1, 0, 0], [2, 0, 0]], trans=[1.0, 0.999, 0.0]),
                  (0, -10, 0), _Meshes())
    assert len(p.instances) == 2
    # t = 0.999: material alpha 1 - t; t = 0: no material, -1 = the surface's vertex alpha
    assert sorted(p.instances[:, 8].tolist()) == pytest.approx([-1.0, 0.001])


def test_SetTranslucency_0x0050E670_material_alpha_replaces_vertex_alpha_and_clamps():
    """t != 0 makes a private material (CurSettingsAreDefault 0x0050D9E0 false) whose diffuse
    alpha 1 - t is used (SetCurrentMaterial 0x0059FEE0), clamped to [0, 1] as D3D clamps lit
    colours; t == 0 keeps the vertex colour alpha (-1 in the instance row)."""
    p = P.prepare(arrays([[0, 0, 0], [1, 0, 0], [2, 0, 0]], trans=[-0.5, 0.25, 0.0]),
                  (0, -10, 0), _Meshes())
    assert sorted(p.instances[:, 8].tolist()) == pytest.approx([-1.0, 0.75, 1.0])


def test_no_degrade_table_draws_own_gfxobj_mode_1():
    p = P.prepare(arrays([[0, 0, 0]]), (0, -5, 0), _Meshes())
    assert [(b.gfxobj, b.mode) for b in p.batches] == [(0x01000001, 1)]


def test_get_degrade_0x0051E4B0_picks_first_entry_under_threshold_beyond_50m():
    deg = [GfxObjInfo(0x01000010, 2, 0.0, 10.0, 20.0), GfxObjInfo(0x01000011, 3, 0, 30, 40)]
    meshes = _Meshes({0x01000001: _Mesh(degrade=deg)})
    # d = CYpt/scale - 50: at 60 m d = 10 < 20 -> entry 0; at 85 m d = 35 -> entry 1;
    # at 200 m none -> last entry
    eye = (0.0, 0.0, 0.0)
    for dist, want in ((60.0, (0x01000010, 2)), (85.0, (0x01000011, 3)),
                       (200.0, (0x01000011, 3)), (10.0, (0x01000010, 2))):
        p = P.prepare(arrays([[0, dist, 0]], origins=[[0, dist, 0]]), eye, meshes)
        assert [(b.gfxobj, b.mode) for b in p.batches] == [want], dist


def test_get_degrade_0x0051E4B0_negative_multiplier_uses_ideal_minus_min():
    deg = [GfxObjInfo(0x01000010, 2, 5.0, 10.0, 20.0), GfxObjInfo(0x01000011, 3, 0, 30, 40)]
    meshes = _Meshes({0x01000001: _Mesh(degrade=deg)})
    # m = -1: threshold = ideal - (ideal - min) = min = 5; d = 58 - 50 = 8 -> entry 1
    p = P.prepare(arrays([[0, 58, 0]], origins=[[0, 58, 0]]), (0, 0, 0), meshes, m=-1.0)
    assert p.batches[0].gfxobj == 0x01000011


def test_SetDegradeLevelInternal_0x0054C3C0_particle_distance_2dsq():
    assert P.particle_distance_2dsq(1.0) == 625.0
    assert P.particle_distance_2dsq(0.0) == 256.0
    assert P.particle_distance_2dsq(-1.0) == 64.0


def test_UpdateViewerDistance_0x00510B30_far_emitter_shares_origin_heading_and_keeps_slot_order():
    # emitter 30 m away horizontally (> 25 m): all particles share its origin and CYpt
    pos = [[0, 30, 5], [0, 29, 0], [0, 31, 0]]
    p = P.prepare(arrays(pos, origins=[[0, 30, 0]]), (0, 0, 0), _Meshes())
    assert (p.instances[:, 9:12] == [0, 30, 0]).all()
    assert p.instances[:, 1].tolist() == [30, 29, 31]  # equal CYpt -> slot order kept


def test_near_particles_sorted_far_to_near_with_sort_center():
    pos = [[0, 2, 0], [0, 5, 0], [0, 3, 0]]
    meshes = _Meshes({0x01000001: _Mesh(sort_center=(0, 0, 1.0))})
    p = P.prepare(arrays(pos, scale=[1, 1, 2]), (0, 0, 0), meshes)
    assert p.instances[:, 1].tolist() == [5, 3, 2]
    assert p.instances[:, 9:12].tolist()[1] == [0, 3, 2]  # pos + sort_center * scale


def test_batches_split_by_gfxobj_and_translucent_flag():
    pos = np.zeros((6, 3))
    p = P.prepare(arrays(pos, gfx=[1, 2, 1, 2, 1, 1], trans=[0, 0, 0.5, 0, 0, 0.2]),
                  (0, -5, 0), _Meshes())
    got = sorted((b.gfxobj, b.translucent, b.count) for b in p.batches)
    assert got == [(1, False, 2), (1, True, 2), (2, False, 2)]
    assert sum(b.count for b in p.batches) == len(p.instances) == 6
    # batches are contiguous in the instance buffer
    for b in p.batches:
        alpha = p.instances[b.start:b.start + b.count, 8]
        assert (((alpha >= 0.0) & (alpha < 1.0)) == b.translucent).all()


def _count_render_lines(fn):
    """Python lines executed inside viewer/render while fn runs."""
    count = [0]

    def tracer(frame, event, arg):
        if "viewer/render" not in frame.f_code.co_filename:
            return None
        if event == "line":
            count[0] += 1
        return tracer

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        fn()
    finally:
        sys.settrace(old)
    return count[0]


def _random_scene(n_particles, n_emitters, rng):
    pos = rng.uniform(-20, 20, (n_particles, 3))
    emitter = rng.integers(0, n_emitters, n_particles)
    gfx = np.where(np.arange(n_particles) % 2 == 0, 0x01000001, 0x01000002)
    return arrays(pos, gfx=gfx, trans=rng.uniform(0, 0.9, n_particles),
                  scale=rng.uniform(0.5, 2, n_particles), emitter=emitter,
                  origins=rng.uniform(-40, 40, (n_emitters, 3)))


@pytest.mark.parametrize("kernel", ["0", "1"])  # the numpy path, the compiled path
def test_particle_preparation_runs_no_python_loop_over_particles_or_emitters(kernel,
                                                                            monkeypatch):
    from viewer.sim import particles as SP
    monkeypatch.setattr(SP, "KERNEL", kernel)
    rng = np.random.default_rng(1)
    deg = [GfxObjInfo(0x01000001, 2, 0, 10, 20)]
    meshes = _Meshes({0x01000001: _Mesh(degrade=deg), 0x01000002: _Mesh()})
    small = _random_scene(50, 3, rng)
    big = _random_scene(20000, 300, rng)
    eye = (0.0, -60.0, 5.0)
    # Same batch structure (2 GfxObjs x opaque/translucent split collapse to the same keys).
    p_small = P.prepare(small, eye, meshes)
    p_big = P.prepare(big, eye, meshes)
    assert len(p_small.batches) == len(p_big.batches)
    lines_small = _count_render_lines(lambda: P.prepare(small, eye, meshes))
    lines_big = _count_render_lines(lambda: P.prepare(big, eye, meshes))
    assert lines_small == lines_big, (lines_small, lines_big)


class _CountingPass(P.ParticlePass):
    def __init__(self):  # no GL: count what would be drawn and uploaded
        self.draw_calls = 0
        self.uploads = 0

    def render_batch(self, mesh, sub, batch):
        self.draw_calls += 1


def test_one_draw_call_per_batch_and_one_upload(monkeypatch):
    rng = np.random.default_rng(2)

    @dataclass
    class _Sub:
        material: object
        first: int = 0
        count: int = 6

    class _Mat:
        def blend(self, part_translucent=False):
            from viewer.render.materials import surface_blend
            return surface_blend(0x10000, part_translucent=part_translucent)

    @dataclass
    class _M:
        sort_center: tuple = (0.0, 0.0, 0.0)
        degrade: list = field(default_factory=list)
        subsets: list = field(default_factory=lambda: [_Sub(_Mat())])

    meshes = _Meshes({0x01000001: _M(), 0x01000002: _M()})
    cp = _CountingPass()
    cp.meshes = meshes
    uploads = []
    monkeypatch.setattr(P.ParticlePass, "upload", lambda self, prep: uploads.append(prep))
    for n in (10, 5000):
        cp.draw_calls = 0
        prep = P.prepare(_random_scene(n, 40, rng), (0, -60, 5), meshes)
        cp.upload(prep)
        for _, _, d in cp.draw_items(prep):
            cp.render_batch(d.mesh, d.sub, d.batch)
        assert cp.draw_calls == len(prep.batches) == 2  # 2 GfxObjs, 1 subset each
    assert len(uploads) == 2


@pytest.mark.parametrize("n", [0, 1])
def test_tiny_inputs(n):
    p = P.prepare(arrays(np.zeros((n, 3))), (0, -1, 0), _Meshes())
    assert len(p.instances) == n


@pytest.mark.parametrize("values", [[], [7], [3, 3, 3, 1, 1, 3, 2, 2, 2, 2, 1],
                                    list(np.random.default_rng(5).integers(0, 4, 200)),
                                    list(np.repeat([9, 4, 9, 6], [50, 30, 20, 1]))])
def test_unique_runs_is_np_unique_with_inverse(values):
    values = np.asarray(values, np.int64)
    ids, inv = P.unique_runs(values)
    want_ids, want_inv = np.unique(values, return_inverse=True)
    assert ids.tolist() == want_ids.tolist()
    assert inv.tolist() == want_inv.reshape(-1).tolist()


def test_degrade_entries_not_drawn_this_frame_make_no_batches():
    # every particle near: entry 0 (GfxObj 0x11) drawn; entry 1 (0x22) in the table only
    near = GfxObjInfo(0x11, degrade_mode=1, min_dist=0, ideal_dist=5, max_dist=10)
    far = GfxObjInfo(0x22, degrade_mode=2, min_dist=0, ideal_dist=1e6, max_dist=1e6)
    meshes = _Meshes({0x01000001: _Mesh(degrade=[near, far]),
                      0x01000002: _Mesh()})
    p = P.prepare(arrays(np.zeros((4, 3)), gfx=[0x01000001, 0x01000002] * 2),
                  (0, -1, 0), meshes)
    assert sorted((b.gfxobj, b.mode, b.count) for b in p.batches) == \
        [(0x11, 1, 2), (0x01000002, 1, 2)]


def test_corner_table_shares_a_two_sided_quads_corners_between_its_windings(gl_ctx):
    """The particle draw pulls corners: a sides_type 1 quad's 12 rows are 5 corners (the
    mirrored winding's negated normals turned back; the corner provoking a front and a
    mirrored triangle twice), its 4 triangles kept in their order, the mirrored two
    provoked by mirrored corners (lit with the normal negated); a one-sided quad and a cube
    (a mesh drawn as a particle) have none."""
    from tests.render.fakes import cube_gfxobj, quad_gfxobj
    from viewer.render.meshes import triangulate_gfxobj
    two = triangulate_gfxobj(quad_gfxobj(1, 0x08000001, sides_type=1))
    one = triangulate_gfxobj(quad_gfxobj(2, 0x08000001))
    cube = triangulate_gfxobj(cube_gfxobj(3, 0x08000001))
    tables = [P.CornerTable(gl_ctx, m) for m in (two, one, cube)]
    try:
        lay = tables[0].layouts[0]
        tris = np.frombuffer(lay.pattern, np.uint32).reshape(-1, 3)
        assert (lay.first, lay.count, lay.mirrored) == (0, 5, 3)
        assert (tris[:, 2] >= lay.mirrored).tolist() == [False, False, True, True]
        texels = np.frombuffer(tables[0].texture.read(), np.float32).reshape(-1, 4)
        corners = texels[:10].reshape(5, 8)[:, [0, 1, 2, 4, 5, 6, 3, 7]]
        assert np.array_equal(corners[tris[:2].ravel()], two.vertices[:6])
        back = two.vertices[6:].copy()
        back[:, 3:6] *= -1
        assert np.array_equal(corners[tris[2:].ravel()], back)
        lay1 = tables[1].layouts[0]
        assert (lay1.count, len(lay1.pattern) // 4, lay1.mirrored) == (4, 6, 4)
        lay2 = tables[2].layouts[0]
        assert (lay2.count, len(lay2.pattern) // 4, lay2.mirrored) == (24, 36, 24)
    finally:
        for t in tables:
            t.release()


def test_a_batchs_index_buffer_counts_its_own_rows_not_those_before_it(gl_ctx):
    """The index buffer of a subset's pattern lists rows from the batch's first (u_row0):
    a late batch of a few rows needs no buffer as long as every row before it."""
    from tests.render import scenes as S
    from viewer.render.renderer import SceneRenderer
    r = SceneRenderer(gl_ctx, S.build_db())
    try:
        pp = r.particles
        pp.upload(P.PreparedParticles(np.zeros((6000, P.INSTANCE_FLOATS), np.float32)))
        mesh = r.meshes.mesh(S.QUAD)
        pp.render_batch(mesh, mesh.subsets[0], P.Batch(S.QUAD, 1, False, 5990, 10, 1.0))
        assert [held[2] for held in pp._indices.values()] == [1024]
    finally:
        r.release()
