"""The compiled particle frame (viewer.render.particle_prepare_kernel) against the numpy
reference: random pools give the same ParticleArrays (drawn rows in emitter-then-slot
order), and random frames the same instance rows, draw order (ties stable), batches and
tints, byte for byte."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from tests.render.fakes import GfxObjInfo
from viewer.render import particles as P
from viewer.render import world_adapter
from viewer.render.particle_debug import PARTICLE_COLOURS
from viewer.render.scene_input import ParticleArrays
from viewer.sim import particles as SP
from viewer.sim.particles import ParticlePool

GFX = [0x01000001 + k for k in range(6)]


@dataclass
class _Mesh:
    sort_center: tuple = (0.0, 0.0, 0.0)
    degrade: list = field(default_factory=list)


class _Meshes:
    def __init__(self, table):
        self.table = table

    def mesh(self, did):
        return self.table.get(did, _Mesh())


def _meshes(rng) -> _Meshes:
    """GfxObjs without a table and with 1-3 degrade entries: every degrade mode and some
    out of 0..7 (clipped), entries that share a drawn GfxObj, sort centres."""
    table = {}
    for k, did in enumerate(GFX[:5]):
        entries = [GfxObjInfo(int(rng.choice([did, 0x01000100 + k, 0x01000100])),
                              int(rng.integers(-1, 10)), float(rng.uniform(0, 5)),
                              float(rng.uniform(5, 30)), float(rng.uniform(30, 60)))
                   for _ in range(int(rng.integers(0, 4)))]
        table[did] = _Mesh(tuple(rng.normal(0, 0.5, 3)), entries)
    return _Meshes(table)


def _frame(seed: int, n: int = 9000) -> ParticleArrays:
    """Runs of GfxObjs (and some interleaved), translucency exactly 1 / 0 / out of range,
    zero and tiny scales, near and far emitters, repeated positions (equal CYpt: ties) and
    positions a few ulps apart, non-finite rows, tints."""
    rng = np.random.default_rng(seed)
    emitters = 60
    em = np.sort(rng.integers(0, emitters, n))
    gfx = np.asarray(GFX, np.uint32)[rng.integers(0, len(GFX), emitters)][em]
    gfx[rng.random(n) < 0.02] = GFX[0]
    pos = rng.normal(0, 15, (n, 3))
    pos[rng.random(n) < 0.2] = (1.0, 2.0, 3.0)  # equal CYpt
    near = rng.random(n) < 0.1  # CYpt a few ulps apart: only the lowest bits order them
    pos[near] = (1.0, 2.0, 3.0)
    pos[near, 2] += rng.integers(-40, 40, near.sum()) * np.spacing(3.0)
    pos[rng.random(n) < 0.005] = np.nan
    trans = rng.choice([0.0, 1.0, 0.5, -0.25, 1.5, 0.999], n)
    scale = rng.choice([1.0, 0.0, 1e-9, 2.5, 0.3], n)
    q = rng.normal(size=(n, 4))
    origins = rng.normal(0, 30, (emitters, 3))
    tints = rng.random((n, 3)).astype(np.float32)
    return ParticleArrays(pos, q, scale, trans, gfx, em.astype(np.int32), origins, tints)


def _prepared(arrays, eye, meshes, m, compiled):
    if compiled:
        return P._prepare_compiled(arrays, eye, meshes, m, P.DEGRADE_DISTANCE)
    mode = SP.KERNEL
    SP.KERNEL = "0"
    try:
        return P.prepare(arrays, eye, meshes, m=m)
    finally:
        SP.KERNEL = mode


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("m", [1.0, 0.0, -0.6])
def test_compiled_prepare_is_byte_identical(seed, m):
    rng = np.random.default_rng(100 + seed)
    meshes = _meshes(rng)
    arrays = _frame(seed)
    eye = (3.0, -20.0, 4.0)
    with np.errstate(invalid="ignore"):
        ref = _prepared(arrays, eye, meshes, m, False)
    got = _prepared(arrays, eye, meshes, m, True)
    assert len(ref.batches) > 6 and len(ref.instances) < arrays.count
    assert got.batches == ref.batches
    assert got.instances.dtype == np.float32 and got.instances.tobytes() == ref.instances.tobytes()
    assert got.tints.tobytes() == ref.tints.tobytes()


def test_compiled_prepare_without_tints_or_visible_rows():
    arrays = _frame(9, 500)
    meshes = _meshes(np.random.default_rng(9))
    no_tints = ParticleArrays(*[getattr(arrays, f) for f in (
        "positions", "orientations", "scales", "translucencies", "gfxobj", "emitter",
        "emitter_origins")])
    with np.errstate(invalid="ignore"):
        ref = _prepared(no_tints, (0, 0, 0), meshes, 1.0, False)
    got = _prepared(no_tints, (0, 0, 0), meshes, 1.0, True)
    assert got.tints is None and got.instances.tobytes() == ref.instances.tobytes()
    hidden = ParticleArrays(no_tints.positions, no_tints.orientations, no_tints.scales,
                            np.ones(500), no_tints.gfxobj, no_tints.emitter,
                            no_tints.emitter_origins)
    assert _prepared(hidden, (0, 0, 0), meshes, 1.0, True).count == 0


def test_busy_frames_prepare_compiled(monkeypatch):
    calls = []
    monkeypatch.setattr(P, "_prepare_compiled", lambda *a: calls.append(a[0].count))
    monkeypatch.setattr(SP, "KERNEL", "auto")
    meshes = _meshes(np.random.default_rng(1))
    P.prepare(_frame(1, SP.EVAL_KERNEL_MIN_LIVE - 1), (0, 0, 0), meshes)
    P.prepare(_frame(1, SP.EVAL_KERNEL_MIN_LIVE), (0, 0, 0), meshes)
    assert calls == [SP.EVAL_KERNEL_MIN_LIVE]


def _pool(seed: int, n: int = 8000, rows: int = 50) -> ParticlePool:
    """Live and free slots, each live one with its emitter row's own slot number (in any
    pool order), culled rows (row_drawn false), random birth states."""
    rng = np.random.default_rng(seed)
    pool = ParticlePool(capacity=n, emitter_capacity=rows)
    pool.row_emitter = [None] * rows
    pool.alive[:] = rng.random(n) < 0.8
    pool.emitter[:] = rng.integers(0, rows, n)
    pool.emitter[~pool.alive] = -1
    for r in range(rows):  # slots 0.. per row, in a shuffled pool order
        idx = np.flatnonzero(pool.emitter == r)
        pool.slot[idx] = rng.permutation(idx.size)
    pool.ptype[:] = rng.integers(1, 13, n)
    pool.state[:] = rng.normal(0, 2, pool.state.shape)
    pool.lifespan[:] = rng.uniform(0.5, 4, n)
    pool.em_time[:] = rng.uniform(0, 10, rows)
    pool.row_gfx[:] = rng.choice(GFX, rows)
    pool.row_origin[:] = rng.normal(0, 20, (rows, 3))
    pool.row_drawn[:] = rng.random(rows) < 0.8
    return pool


@pytest.mark.parametrize("colour", PARTICLE_COLOURS)
def test_compiled_particle_arrays_are_byte_identical(colour):
    pools = {}
    for mode in ("0", "1"):
        pool = _pool(4)
        pool.eval_mode = mode
        pools[mode] = world_adapter._particle_arrays(pool, colour)
    ref, got = pools["0"], pools["1"]
    assert ref.count > 3000 and ref.count < int(_pool(4).alive.sum())  # culled rows left out
    for name in ("positions", "orientations", "scales", "translucencies", "gfxobj", "emitter",
                 "emitter_origins", "tints"):
        a, b = getattr(ref, name), getattr(got, name)
        if a is None:
            assert b is None
            continue
        assert (a.dtype, a.shape, a.tobytes()) == (b.dtype, b.shape, b.tobytes()), name


def test_the_scratch_grows_and_shrinks_with_the_frames():
    from viewer.render.particle_prepare_kernel import Scratch
    s = Scratch()
    ints, uints, cypt, rec = s.get(100)
    assert s.size == 1024 and ints.shape == (5, 1024) and rec.shape == (1024, 12)
    assert s.get(900)[0] is ints            # reused
    s.get(200_000)
    assert s.size == 300_000
    s.get(100_000)
    assert s.size == 300_000                # a quarter or more: kept
    s.get(50_000)
    assert s.size == 75_000 and s.cypt.shape == (75_000,)


def _cypts(kind: str, rng, n: int) -> np.ndarray:
    if kind == "near":
        return rng.uniform(1.8, 36.0, n)
    if kind == "wide":  # every exponent, zeros, inf and nan: all 32 high bits differ
        c = 10.0 ** rng.uniform(-300, 300, n)
        c[rng.random(n) < 0.05] = 0.0
        c[rng.random(n) < 0.05] = np.inf
        c[rng.random(n) < 0.05] = np.nan
        return c
    if kind == "ulps":  # runs of equal high bits longer than an insertion sort's
        return 50.0 + rng.integers(0, 3000, n) * np.spacing(50.0)
    if kind == "equal":
        return np.full(n, 7.5)
    return rng.choice([3.0, 4.0, 3.0 + np.spacing(3.0)], n)  # ties and a neighbour


@pytest.mark.parametrize("kind", ["near", "wide", "ulps", "equal", "ties"])
@pytest.mark.parametrize("n", [1, 2, 33, 5000])
def test_the_draw_order_sort_is_numpys_two_stable_sorts(kind, n):
    from viewer.render import particle_prepare_kernel as K
    rng = np.random.default_rng(n)
    cypt = _cypts(kind, rng, n)
    key = rng.integers(0, 9, n)
    depth = np.where(np.isnan(cypt), K._NAN_KEY, K._LOW63 - cypt.view(np.uint64))
    got = K._depth_key_order(depth, key, 8, np.empty(n, np.int64), np.empty(n, np.int64),
                             np.empty(n, np.uint64))
    by_depth = np.argsort(-cypt, kind="stable")
    assert got.tolist() == by_depth[np.argsort(key[by_depth], kind="stable")].tolist()


def test_the_first_compiled_frame_settles_what_numba_left(monkeypatch):
    """The compiled prepare and drawn-order calls each freeze numba's leftovers once
    (viewer.sim.particles.settle_compiled), after their first call."""
    import gc
    monkeypatch.setattr(SP, "_SETTLED", set())
    meshes = _meshes(np.random.default_rng(5))
    before = gc.get_freeze_count()
    P._prepare_compiled(_frame(5), (3.0, -20.0, 4.0), meshes, 1.0, P.DEGRADE_DISTANCE)
    pool = _pool(5)
    pool.eval_mode = "1"
    world_adapter._particle_arrays(pool, "none")
    assert {"prepare", "drawn order"} <= SP._SETTLED and gc.get_freeze_count() > before
