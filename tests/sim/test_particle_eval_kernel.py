"""The compiled evaluation (viewer.sim.particle_eval_kernel) against the numpy reference
``ParticlePool._evaluate_numpy``: random pools through both give the same positions,
rotations, scales, translucencies and lifetimes, byte for byte."""

from __future__ import annotations

import numpy as np
import pytest

from viewer.sim import particles
from viewer.sim.particles import GR_TYPES, ParticlePool

OUT = ("position", "orientation", "scale", "trans", "lifetime")


def random_pool(seed: int, n: int = 6000, rows: int = 40) -> ParticlePool:
    """A pool with ``n`` slots, about 3/4 live: every ParticleType and out-of-range ones
    (0, 13-15), parent-local rows, spans of 0, ages past the span and negative, spins
    below EPS, zero and non-unit birth rotations, non-finite values here and there."""
    rng = np.random.default_rng(seed)
    pool = ParticlePool(capacity=n, emitter_capacity=rows)
    pool.alive[:] = rng.random(n) < 0.75
    pool.emitter[:] = rng.integers(0, rows, n)
    pool.ptype[:] = rng.integers(0, 16, n)
    st = pool.state
    st[:] = rng.normal(0, 3, st.shape) * rng.choice([1e-3, 1.0, 1e3], size=(n, 1))
    st[:, 0] = rng.uniform(0, 50, n)                       # birth
    st[:, 1] = rng.choice([0.0, 0.25, -1.0], n)            # acc
    st[:, 2] = rng.choice([0.0, 0.5, 3.0, 1e6], n)         # lifespan
    q = rng.normal(size=(n, 4))
    st[:, 18:22] = q / np.linalg.norm(q, axis=1)[:, None]
    st[rng.random(n) < 0.05, 18:22] = 0.0                  # a zero rotation (0/0 -> nan)
    st[rng.random(n) < 0.1, 15:18] *= 1e-6                 # spins below EPS
    st[rng.random(n) < 0.01, 9] = np.inf
    st[rng.random(n) < 0.01, 12] = np.nan
    pool.em_time[:] = rng.uniform(0, 60, rows)
    pool.em_origin[:] = rng.normal(0, 100, (rows, 3))
    eq = rng.normal(size=(rows, 4))
    pool.em_quat[:] = eq / np.linalg.norm(eq, axis=1)[:, None]
    pool.em_parent_local[:] = rng.random(rows) < 0.4
    pool.orientation[:] = rng.normal(size=(n, 4))          # stale rows the laws keep
    pool.position[:] = rng.normal(size=(n, 3))
    return pool


def _outputs(pool):
    return {name: getattr(pool, name).tobytes() for name in OUT}


@pytest.mark.parametrize("seed", range(4))
def test_ParticleUpdate_0x0051C290_compiled_evaluation_is_byte_identical(seed):
    from viewer.sim import particle_eval_kernel as K
    pool = random_pool(seed)
    live = np.flatnonzero(pool.alive)
    assert set(np.unique(pool.ptype[live])) == set(range(16))
    assert np.isin(pool.ptype[live], GR_TYPES).sum() > 500
    ref = random_pool(seed)
    with np.errstate(all="ignore"):
        ref._evaluate_numpy(live)
    K.evaluate(pool, live)
    a, b = _outputs(ref), _outputs(pool)
    assert [n for n in OUT if a[n] != b[n]] == []
    # the unknown types left the stale position, the non-GR types the stale rotation
    fresh = random_pool(seed)
    unknown = live[(pool.ptype[live] == 0) | (pool.ptype[live] > 12)]
    plain = live[~np.isin(pool.ptype[live], GR_TYPES)]
    assert np.array_equal(pool.position[unknown], fresh.position[unknown])
    assert np.array_equal(pool.orientation[plain], fresh.orientation[plain])


def test_a_subset_of_rows_evaluates_only_those():
    from viewer.sim import particle_eval_kernel as K
    pool, ref = random_pool(7), random_pool(7)
    rows = np.flatnonzero(pool.alive)[::7]
    with np.errstate(all="ignore"):
        ref._evaluate_numpy(rows)
    K.evaluate(pool, rows)
    assert _outputs(pool) == _outputs(ref)


@pytest.mark.parametrize(("mode", "n", "compiled"), [
    ("auto", particles.EVAL_KERNEL_MIN_LIVE - 1, False),
    ("auto", particles.EVAL_KERNEL_MIN_LIVE, True),
    ("1", 1, True), ("0", 10**7, False)])
def test_the_evaluation_path_follows_the_live_count_and_the_switch(mode, n, compiled):
    assert particles.use_eval_kernel(mode, n) is compiled


def test_a_busy_pool_evaluates_compiled_and_a_small_one_with_numpy(monkeypatch):
    calls = []
    monkeypatch.setattr(ParticlePool, "_evaluate_numpy",
                        lambda self, live: calls.append(("numpy", live.size)))
    kernel = particles.eval_kernel()
    monkeypatch.setattr(kernel, "evaluate", lambda pool, live: calls.append(("compiled",
                                                                              live.size)))
    pool = ParticlePool(capacity=particles.EVAL_KERNEL_MIN_LIVE)
    pool.eval_mode = "auto"
    pool.alive[:10] = True
    pool.evaluate(force=True)
    pool.alive[:] = True
    pool.evaluate(force=True)
    assert calls == [("numpy", 10), ("compiled", particles.EVAL_KERNEL_MIN_LIVE)]


def test_no_writable_cache_folder_compiles_in_memory(monkeypatch):
    import numba
    calls = []

    def njit(cache=False, error_model="python"):
        calls.append((cache, error_model))
        if cache:
            raise RuntimeError("cannot cache function: no locator available")
        return lambda fn: fn
    monkeypatch.setattr(numba, "njit", njit)
    assert particles.jit(len) is len
    assert calls == [(True, "numpy"), (False, "numpy")]


def test_small_scenes_never_import_the_compiled_evaluation():
    import os
    import subprocess
    import sys
    code = ("import sys, numpy as np\n"
            "from viewer.sim.particles import ParticlePool\n"
            "p = ParticlePool(capacity=64)\n"
            "p.alive[:50] = True\n"
            "p.evaluate()\n"
            "assert 'numba' not in sys.modules and "
            "'viewer.sim.particle_eval_kernel' not in sys.modules\n")
    env = dict(os.environ, VIEWER_PARTICLE_KERNEL="auto")
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_the_first_compiled_evaluation_freezes_what_numba_left(monkeypatch):
    """settle_compiled: after the first compiled evaluate (numba compiles on that call) the
    live objects leave the cyclic collector's full collections once; later calls do not
    collect or freeze again."""
    import gc
    monkeypatch.setattr(particles, "_SETTLED", set())
    pool = random_pool(0, n=particles.EVAL_KERNEL_MIN_LIVE + 100)
    pool.eval_mode = "auto"
    pool.alive[:] = True
    before = gc.get_freeze_count()
    with np.errstate(all="ignore"):
        pool.evaluate(force=True)
    after = gc.get_freeze_count()
    assert after > before and "evaluate" in particles._SETTLED
    junk = [[] for _ in range(1000)]      # tracked objects a second freeze would take
    with np.errstate(all="ignore"):
        pool.evaluate(force=True)
    assert gc.get_freeze_count() == after
    del junk
