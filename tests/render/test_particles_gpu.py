"""The GPU particle pass (viewer/render/particles_gpu.py, shaders/particle_*.glsl) against
the CPU reference: every ParticleType law of Particle::Update 0x0051C290 evaluated both ways
for random birth states and ages, the same batches and draw order as particles.prepare, and
birth states uploaded only for the slots changed since the previous frame."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import numpy as np
import pytest

from tests.render import scenes as S
from viewer.render import world_adapter as WA
from viewer.render.particles import prepare
from viewer.render.particles_gpu import GpuParticlePass, pack_births, particle_snapshot
from viewer.render.renderer import RenderSettings, SceneRenderer
from viewer.render.scene_input import SceneInput
from viewer.sim.particles import ParticlePool

S.build_db()  # fills S.BLEND_QUADS
GFX = (S.QUAD, S.QUAD_BB, S.BLEND_QUADS["additive"], S.BLEND_QUADS["alpha"])
EYE = np.array([1.0, -12.0, 3.0])


def _row(pool, rng, gfx):
    info = SimpleNamespace(is_parent_local=bool(rng.random() < 0.5), hw_gfxobj_id=gfx)
    em = SimpleNamespace(info=info, frame=SimpleNamespace(origin=tuple(rng.uniform(-3, 3, 3))),
                         nodraw=False)
    row = pool.add_row(em)
    pool.em_time[row] = rng.uniform(5.0, 10.0)
    pool.em_origin[row] = rng.uniform(-3, 3, 3)
    q = rng.normal(size=4)
    pool.em_quat[row] = q / np.linalg.norm(q)
    return row


def _births(pool, rng, n, rows, ptypes=range(1, 13)):
    """n random particles (random types, vectors, ages) through the pool's own allocate."""
    idx = np.array([pool.allocate() for _ in range(n)], np.int64)
    pool.emitter[idx] = rng.choice(rows, n)
    pool.slot[idx] = idx  # unique per particle: a deterministic tie-break
    pool.ptype[idx] = rng.choice(list(ptypes), n)
    st = pool.state
    st[idx, 0] = pool.em_time[pool.emitter[idx]] - rng.uniform(0.0, 3.0, n)   # birth
    st[idx, 1] = rng.uniform(0.0, 0.5, n)                                      # acc
    st[idx, 2] = rng.uniform(0.5, 5.0, n)                                      # lifespan
    st[idx, 3:18] = rng.normal(size=(n, 15))   # start origin, offset, a, b, c
    q = rng.normal(size=(n, 4))
    st[idx, 18:22] = q / np.linalg.norm(q, axis=1)[:, None]
    st[idx, 22:24] = rng.uniform(0.1, 2.0, (n, 2))
    st[idx, 24:26] = rng.uniform(0.0, 1.0, (n, 2))
    return idx


@pytest.fixture
def renderer(gl_ctx):
    r = SceneRenderer(gl_ctx, S.build_db())
    yield r
    r.release()


@pytest.fixture
def gpu(gl_ctx, renderer):
    g = GpuParticlePass.create(gl_ctx, renderer.meshes)
    if g is None:
        pytest.skip("no compute shaders in this GL context")
    yield g
    g.release()


def _random_pool(rng, n=600, n_rows=6):
    pool = ParticlePool()
    rows = [_row(pool, rng, GFX[k % len(GFX)]) for k in range(n_rows)]
    _births(pool, rng, n, rows)
    return pool, rows


def _assert_evaluation_matches(gpu, pool):
    ev = gpu.read_evaluated()
    live = pool.evaluate(force=True)
    np.testing.assert_allclose(ev[live, 0:3], pool.position[live], atol=1e-4, rtol=1e-5)
    np.testing.assert_allclose(ev[live, 3], pool.lifetime[live], atol=1e-5, rtol=1e-5)
    rot, ref = ev[live, 4:8], pool.orientation[live]
    sign = np.where(np.einsum("ij,ij->i", rot, ref) < 0, -1.0, 1.0)[:, None]  # q == -q
    np.testing.assert_allclose(rot * sign, ref, atol=1e-5)
    np.testing.assert_allclose(ev[live, 8], pool.scale[live], atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(ev[live, 9], pool.trans[live], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("ptype", range(1, 13))
def test_Particle_Update_0x0051C290_law_on_gpu_matches_cpu(gpu, ptype):
    rng = np.random.default_rng(100 + ptype)
    pool = ParticlePool()
    rows = [_row(pool, rng, GFX[k]) for k in range(4)]
    _births(pool, rng, 300, rows, ptypes=(ptype,))
    gpu.prepare(particle_snapshot(pool), EYE)
    _assert_evaluation_matches(gpu, pool)


def test_gpu_batches_and_draw_order_match_cpu_prepare(gpu, renderer):
    rng = np.random.default_rng(7)
    pool, _ = _random_pool(rng)
    prep_g = gpu.prepare(particle_snapshot(pool), EYE)
    prep_c = prepare(WA.particle_arrays(pool), EYE, renderer.meshes)
    assert [(b.gfxobj, b.mode, b.translucent, b.start, b.count) for b in prep_g.batches] == \
        [(b.gfxobj, b.mode, b.translucent, b.start, b.count) for b in prep_c.batches]
    np.testing.assert_allclose([b.far_depth for b in prep_g.batches],
                               [b.far_depth for b in prep_c.batches], rtol=1e-6)
    # same rows in the same order: per batch far to near, ties in emitter-row / slot order
    np.testing.assert_allclose(gpu.read_instances(), prep_c.instances, atol=1e-4, rtol=1e-5)
    assert prep_g.count == prep_c.count == len(prep_c.instances)


def test_far_emitter_shares_CYpt_ties_keep_row_then_slot_order(gpu, renderer):
    """UpdateViewerDistance 0x00510B30: a far emitter's particles share its CYpt exactly, so
    their order is the stable one (emitter row, then slot), as on the CPU."""
    rng = np.random.default_rng(3)
    pool = ParticlePool()
    rows = [_row(pool, rng, S.QUAD) for _ in range(2)]
    pool.row_origin[rows[0]] = (60.0, 40.0, 0.0)      # beyond particle_distance_2dsq
    pool.row_origin[rows[1]] = (60.0, 40.0, 0.0)
    idx = _births(pool, rng, 40, rows, ptypes=(2,))
    pool.slot[idx] = rng.permutation(40)
    gpu.prepare(particle_snapshot(pool), EYE)
    prep_c = prepare(WA.particle_arrays(pool), EYE, renderer.meshes)
    np.testing.assert_allclose(gpu.read_instances(), prep_c.instances, atol=1e-4, rtol=1e-5)


def test_only_changed_slots_are_uploaded_and_the_mirror_follows(gpu):
    rng = np.random.default_rng(11)
    pool, rows = _random_pool(rng, n=200, n_rows=3)
    pool.dirty.end_tick()   # World.tick's last step
    first = particle_snapshot(pool)
    assert first.seq_from == 0 and first.index.size == 200
    gpu.prepare(first, EYE)
    for frame in range(4):
        live = np.flatnonzero(pool.alive)
        pool.release_many(rng.choice(live, 5, replace=False).tolist())
        born = _births(pool, rng, 7, rows)
        pool.em_time[rows] += 0.1
        pool.dirty.end_tick()
        snap = particle_snapshot(pool)
        assert (snap.seq_from, snap.seq_to) == (first.seq_to + frame, first.seq_to + frame + 1)
        assert set(born.tolist()) <= set(snap.index.tolist())
        assert snap.index.size <= 12     # the 5 deaths and 7 births, never the live set
        gpu.prepare(snap, EYE)
        assert (gpu.serial, gpu.seq) == (snap.serial, snap.seq_to)   # the pass's own cursor
        _assert_evaluation_matches(gpu, pool)
    # the pool grows past its capacity: the mirror keeps its slots
    _births(pool, rng, pool.capacity, rows)
    gpu.prepare(particle_snapshot(pool), EYE)
    _assert_evaluation_matches(gpu, pool)


def test_a_pass_behind_several_ticks_catches_up_from_the_pool(gpu):
    """Several ticks between two frames (playing fast): the snapshot names the latest
    tick's slots only, so the pass reads what it lacks from the pool after its own cursor;
    marks not sealed yet (a change outside a tick) are uploaded too."""
    rng = np.random.default_rng(12)
    pool, rows = _random_pool(rng, n=100, n_rows=3)
    pool.dirty.end_tick()
    gpu.prepare(particle_snapshot(pool), EYE)
    for _ in range(3):
        _births(pool, rng, 4, rows)
        pool.release_many(np.flatnonzero(pool.alive)[:2].tolist())
        pool.dirty.end_tick()
    snap = particle_snapshot(pool)
    assert snap.seq_from > gpu.seq
    gpu.prepare(snap, EYE)
    _assert_evaluation_matches(gpu, pool)
    _births(pool, rng, 3, rows)          # pending: no tick has sealed them
    gpu.prepare(particle_snapshot(pool), EYE)
    _assert_evaluation_matches(gpu, pool)


def test_scattered_and_direct_row_writes_fill_the_same_mirror(gpu):
    """A few runs of changed slots go up as buffer writes, many through the scatter
    shader: either way the mirror holds the pool's birth states."""
    from viewer.render.particles_gpu import DIRECT_RUNS
    rng = np.random.default_rng(17)
    pool, rows = _random_pool(rng, n=400, n_rows=3)
    pool.dirty.end_tick()
    gpu.prepare(particle_snapshot(pool), EYE)
    for step in range(2):
        live = np.flatnonzero(pool.alive)
        n = 3 if step == 0 else 4 * DIRECT_RUNS    # few runs, then many
        pool.release_many(rng.choice(live, n, replace=False).tolist())
        _births(pool, rng, n // 2, rows)
        pool.dirty.end_tick()
        gpu.prepare(particle_snapshot(pool), EYE)
        _assert_evaluation_matches(gpu, pool)
        # one block (capacity 512): evaluate and sort in one dispatch, plus the scatter
        assert gpu.padded == 1024 and gpu.dispatches == (1 if step == 0 else 2)
    inst = gpu.read_instances()
    assert len(inst) == gpu.drawn > 0


def _pool_state(pool):
    log = pool.dirty
    return (pool.state.tobytes(), pool.alive.tobytes(), pool.emitter.tobytes(),
            pool.position.tobytes(), pool.scale.tobytes(), pool.live_count, pool.version,
            pool._evaluated, log.serial, log.seq, log.first, log.tick_start, log.tick_end,
            log._logged, [(q, c.tobytes()) for q, c in log._chunks], list(log._pending),
            [a.tobytes() for a in log._pending_arrays])


def test_rendering_leaves_the_pool_and_its_dirty_log_unchanged(gl_ctx, gpu):
    """The renderer reads the sim: a snapshot, a GPU frame (upload, evaluate, sort) and a
    second frame change nothing in the pool, its evaluated arrays or its DirtySlots log
    (the pass keeps its own cursor)."""
    from viewer.render.framebuffer import OffscreenTarget
    rng = np.random.default_rng(21)
    pool, rows = _random_pool(rng, n=120, n_rows=4)
    pool.dirty.end_tick()
    _births(pool, rng, 5, rows)          # and a few marks still pending
    before = _pool_state(pool)
    r = SceneRenderer(gl_ctx, S.build_db(), RenderSettings(gpu_particles=True))
    target = OffscreenTarget(gl_ctx, (32, 32))
    for _ in range(2):
        stats = r.render(SceneInput(particle_snapshot=particle_snapshot(pool)),
                         S.oblique_camera(distance=14.0), target)
        assert stats["particles_drawn"] > 0 and r._gpu is not None
        assert _pool_state(pool) == before
    target.release()
    r.release()


def test_culled_persistent_restamp_is_a_change(gpu):
    """UpdateParticles 0x0051D180 culled persistent branch re-stamps birth times: those
    slots are uploaded again."""
    rng = np.random.default_rng(5)
    pool, _ = _random_pool(rng, n=50, n_rows=1)
    gpu.prepare(particle_snapshot(pool), EYE)
    live = np.flatnonzero(pool.alive)
    pool.birth[live] += 0.25
    pool.dirty.mark_many(live)
    snap = particle_snapshot(pool)
    assert sorted(snap.index.tolist()) == live.tolist()
    gpu.prepare(snap, EYE)
    _assert_evaluation_matches(gpu, pool)


def test_a_copied_pool_is_a_new_mirror(gpu):
    """A restored snapshot (deepcopy) is a different pool: the renderer starts over."""
    rng = np.random.default_rng(9)
    pool, rows = _random_pool(rng, n=80, n_rows=2)
    gpu.prepare(particle_snapshot(pool), EYE)
    other = copy.deepcopy(pool)
    assert other.dirty.serial != pool.dirty.serial
    other.release_many(np.flatnonzero(other.alive)[:30].tolist())
    gpu.prepare(particle_snapshot(other), EYE)
    _assert_evaluation_matches(gpu, other)
    _births(pool, rng, 5, rows)
    gpu.prepare(particle_snapshot(pool), EYE)   # back to the first pool, still current
    _assert_evaluation_matches(gpu, pool)


def test_pack_births_splits_time_for_precision():
    pool = ParticlePool()
    idx = pool.allocate()
    pool.birth[idx] = 12345.678901234
    row = pack_births(pool, [idx])[0]
    assert float(row[0]) + float(row[1]) == pytest.approx(12345.678901234, abs=1e-9)


def test_gpu_and_cpu_paths_draw_the_same_picture(gl_ctx):
    """The renderer with a snapshot (GPU) and with arrays (CPU) gives the same image."""
    from viewer.render.framebuffer import OffscreenTarget
    rng = np.random.default_rng(2)
    pool = ParticlePool()
    rows = [_row(pool, rng, g) for g in GFX]
    _births(pool, rng, 60, rows, ptypes=(1, 2, 4, 5))
    pool.state[:, 24:26] = np.clip(pool.state[:, 24:26], 0.0, 0.6)
    images = []
    for gpu_on in (True, False):
        r = SceneRenderer(gl_ctx, S.build_db(), RenderSettings(gpu_particles=gpu_on))
        target = OffscreenTarget(gl_ctx, (96, 64))
        scene = SceneInput(particles=WA.particle_arrays(pool)) if not gpu_on else \
            SceneInput(particle_snapshot=particle_snapshot(pool))
        stats = r.render(scene, S.oblique_camera(distance=14.0), target)
        assert stats["particles_drawn"] > 0
        images.append(target.read_rgba().astype(int))
        target.release()
        r.release()
    assert np.abs(images[0] - images[1]).max() <= 1


def test_merge_ways_cover_the_runs_in_few_passes():
    assert GpuParticlePass.merge_ways(1) == []
    assert GpuParticlePass.merge_ways(16) == [16]
    assert GpuParticlePass.merge_ways(32) == [8, 4]
    assert GpuParticlePass.merge_ways(1024) == [16, 8, 8]
    for runs in (2 ** k for k in range(1, 15)):
        ways = GpuParticlePass.merge_ways(runs)
        assert int(np.prod(ways)) == runs and max(ways) <= 16
        assert len(ways) == -(-(runs.bit_length() - 1) // 4)


def test_sort_plan_is_one_or_two_dispatches_at_any_size():
    """On a software rasteriser each particle_eval workgroup sorts a run (blocks, then
    merged inside the workgroup) and one particle_sort dispatch merges at most 16 runs: 1M
    slots sort in two dispatches (runs of 64k, blocks merged 8 then 8 at a time in the
    workgroup), not four."""
    plan = GpuParticlePass.sort_plan
    assert plan(1024) == (1024, [], [])                  # one block: one dispatch
    assert plan(8192) == (1024, [], [8])
    assert plan(16384) == (1024, [], [16])
    assert plan(1 << 17) == (8192, [8], [16])
    assert plan(1 << 20) == (65536, [8, 8], [16])
    assert plan(4096, ways=2) == (2048, [2], [2])
    assert plan(4096, ways=1) == (4096, [4], [])         # the whole sort in one workgroup
    for k in range(10, 24):
        run, local, merges = plan(1 << k)
        assert run * int(np.prod(merges)) == 1 << k and run == 1024 * int(np.prod(local))
        assert len(merges) <= 1 and max(local + [1]) <= 16


def test_sort_plan_on_a_gpu_keeps_many_workgroups():
    """On a GPU (dispatches cheap, parallel workgroups what counts) runs are single blocks
    and the merge dispatches as few as the ways allow."""
    plan = GpuParticlePass.sort_plan
    assert plan(1 << 20, in_workgroups=False) == (1024, [], [16, 8, 8])
    assert plan(16384, in_workgroups=False) == (1024, [], [16])
    assert plan(4096, ways=2, in_workgroups=False) == (1024, [], [2, 2])


def test_only_a_software_rasteriser_merges_in_workgroups(gl_ctx, renderer, monkeypatch):
    import viewer.render.particles_gpu as PG
    name = str(gl_ctx.info["GL_RENDERER"]).lower()
    assert PG.software_rasteriser(gl_ctx, (name,)) and not PG.software_rasteriser(gl_ctx, ())
    for soft in (True, False):
        monkeypatch.setattr(PG, "software_rasteriser", lambda ctx, soft=soft: soft)
        g = GpuParticlePass.create(gl_ctx, renderer.meshes)
        if g is None:
            pytest.skip("no compute shaders in this GL context")
        assert g.merge_in_workgroups is soft
        g.release()


def _uneven_pool():
    """4096 slots (four sort blocks) drawn unevenly: block 0 full, block 1 three particles,
    block 2 none, block 3 a scattered half; two far emitters whose particles share one CYpt
    (equal CYpt: row, then slot decide) and a GfxObj with a batch of one."""
    rng = np.random.default_rng(21)
    pool = ParticlePool()
    rows = [_row(pool, rng, S.QUAD) for _ in range(3)]
    lone = _row(pool, rng, S.QUAD_BB)
    for r in rows[:2]:
        pool.row_origin[r] = (60.0, 40.0, 0.0)       # beyond particle_distance_2dsq
    idx = _births(pool, rng, 4096, rows, ptypes=(2, 3))
    assert pool.capacity == 4096
    keep = np.zeros(4096, bool)
    keep[:1024] = True
    keep[[1030, 1500, 2047]] = True
    keep[3072:][rng.random(1024) < 0.5] = True
    pool.release_many(np.flatnonzero(~keep).tolist())
    pool.slot[idx] = rng.permutation(4096)
    pool.emitter[3072 + 7] = lone
    pool.state[3072 + 7, 24:26] = 0.0               # opaque: its own batch of one
    return pool


@pytest.mark.parametrize("ways,in_workgroups,dispatches",
                         [(1, True, 1), (2, True, 2), (4, True, 2), (16, True, 2),
                          (2, False, 3), (16, False, 2)])
def test_merges_in_and_across_workgroups_keep_the_cpu_order(gpu, renderer, ways,
                                                             in_workgroups, dispatches):
    """Whatever share of the sort the workgroups do (ways 1: all of it, one dispatch; 16:
    blocks only, then one 4-way merge; a GPU's plan at ways 2: two 2-way merge dispatches),
    uneven runs, equal CYpt and a batch of one come out exactly in the CPU's order."""
    pool = _uneven_pool()
    gpu.sort_ways, gpu.merge_in_workgroups = ways, in_workgroups
    prep_g = gpu.prepare(particle_snapshot(pool), EYE)
    prep_c = prepare(WA.particle_arrays(pool), EYE, renderer.meshes)
    assert gpu.dispatches == dispatches
    assert [(b.gfxobj, b.mode, b.translucent, b.start, b.count) for b in prep_g.batches] == \
        [(b.gfxobj, b.mode, b.translucent, b.start, b.count) for b in prep_c.batches]
    assert 1 in [b.count for b in prep_g.batches]
    np.testing.assert_allclose(gpu.read_instances(), prep_c.instances, atol=1e-4, rtol=1e-5)


@pytest.mark.parametrize("ways", [1, 2, 16])
def test_a_sort_with_nothing_drawn_is_empty(gpu, ways):
    """Live particles that are all hidden (translucency 1: SetTranslucency 0x0050E670):
    every key is the undrawn one (all equal), no batch, no instance row."""
    pool = _uneven_pool()
    pool.state[:, 24:26] = 1.0
    gpu.sort_ways = ways
    prep = gpu.prepare(particle_snapshot(pool), EYE)
    assert prep.batches == [] and gpu.drawn == 0 and len(gpu.read_instances()) == 0


@pytest.mark.parametrize("n", [5000, 17000])
def test_merge_sort_orders_thousands_far_to_near_per_batch(gpu, renderer, n):
    """Capacity 8192: blocks, one 8-way merge; 32768: runs of two blocks merged in the
    workgroup, then one 16-way merge: every batch is far to near and holds exactly the
    CPU's rows."""
    rng = np.random.default_rng(13)
    pool, _ = _random_pool(rng, n=n, n_rows=8)
    prep_g = gpu.prepare(particle_snapshot(pool), EYE)
    prep_c = prepare(WA.particle_arrays(pool), EYE, renderer.meshes)
    inst_g, inst_c = gpu.read_instances(), prep_c.instances
    assert [(b.start, b.count) for b in prep_g.batches] == \
        [(b.start, b.count) for b in prep_c.batches]
    for b in prep_g.batches:
        rows = inst_g[b.start:b.start + b.count]
        cypt = np.linalg.norm(rows[:, 9:12].astype(np.float64) - EYE, axis=1)
        assert (np.diff(cypt) <= 1e-5).all()
        ref = inst_c[b.start:b.start + b.count]
        np.testing.assert_allclose(np.sort(rows[:, 0]), np.sort(ref[:, 0]), atol=1e-4)


def test_auto_keeps_a_software_rasteriser_on_the_cpu_path(gl_ctx, monkeypatch):
    """llvmpipe runs compute shaders on the CPU cores (slower than numpy): "auto" asks for
    arrays there, and a snapshot it still gets is evaluated with numpy from the pool (which
    is still at the snapshot), drawing the same rows."""
    import viewer.render.renderer as R
    from viewer.render.framebuffer import OffscreenTarget
    rng = np.random.default_rng(4)
    pool = ParticlePool()
    rows = [_row(pool, rng, g) for g in GFX]
    _births(pool, rng, 40, rows, ptypes=(2,))
    monkeypatch.setattr(R, "SOFTWARE_RENDERERS", (str(gl_ctx.info["GL_RENDERER"]).lower(),))
    r = SceneRenderer(gl_ctx, S.build_db())
    assert r.settings.gpu_particles == "auto" and not r.gpu_particles
    target = OffscreenTarget(gl_ctx, (32, 32))
    cam = S.oblique_camera(distance=14.0)
    stats = r.render(SceneInput(particle_snapshot=particle_snapshot(pool)), cam, target)
    assert r._gpu is None
    assert stats["particles_drawn"] == prepare(WA.particle_arrays(pool), cam.eye(),
                                               r.meshes).count
    target.release()
    r.release()
    monkeypatch.setattr(R, "SOFTWARE_RENDERERS", ())
    hw = SceneRenderer(gl_ctx, S.build_db())
    assert hw.gpu_particles   # a hardware GPU: the GPU path
    hw.release()
