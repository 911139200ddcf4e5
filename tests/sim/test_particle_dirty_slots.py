"""The pool's dirty-slot record (viewer.sim.particles.DirtySlots): which slots were born,
killed or re-stamped, so a mirror of the birth states (the GPU particle pass) uploads only
those."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
import sim_builders as B

from viewer.sim import particles
from viewer.sim.frame import Frame
from viewer.sim.particles import DirtySlots, ParticlePool


def _tick_slots(log):
    """end_tick (World.tick's last step), then the slots of that tick."""
    log.end_tick()
    return log.since(log.tick_start)


def test_allocate_and_release_mark_their_slots():
    pool = ParticlePool()
    a, b = pool.allocate(), pool.allocate()
    assert pool.dirty.pending_slots().tolist() == sorted([a, b])   # read only
    assert pool.dirty.seq == 0 and pool.dirty.pending
    assert sorted(_tick_slots(pool.dirty).tolist()) == sorted([a, b])
    assert (pool.dirty.tick_start, pool.dirty.tick_end) == (0, 1)
    pool.release(a)
    assert _tick_slots(pool.dirty).tolist() == [a]
    assert _tick_slots(pool.dirty).size == 0          # nothing changed: an empty delta
    assert pool.dirty.tick_start == pool.dirty.tick_end == 2


def test_readers_keep_their_own_cursor():
    """since() is read only: two consumers at different seqs each get what they lack."""
    log = DirtySlots()
    log.mark_many([1, 2])
    log.end_tick()
    log.mark(3)
    log.end_tick()
    log.mark(4)
    log.end_tick()
    state = (log.seq, log.first, [c.tolist() for _, c in log._chunks])
    assert log.since(0).tolist() == [1, 2, 3, 4]
    assert log.since(2).tolist() == [4]
    assert (log.seq, log.first, [c.tolist() for _, c in log._chunks]) == state


def test_since_unions_chunks_and_forgets_past_the_limit():
    log = DirtySlots(limit=6)
    for k in range(4):
        log.mark_many([2 * k, 2 * k + 1])
        log.seal()
    assert log.since(2).tolist() == [4, 5, 6, 7]
    assert log.since(0) is None                     # chunk 1 dropped (8 > 6 slots logged)
    assert log.since(log.seq).size == 0
    assert log.since(log.seq + 1) is None


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "kernel"])
def test_ParticleEmitter_UpdateParticles_0x0051D180_culled_restamp_marks_live_slots(
        compiled, monkeypatch):
    monkeypatch.setattr(particles, "KERNEL", "1" if compiled else "0")
    info = B.emitter_info(initial_particles=3, max_particles=4, lifespan=10.0)  # persistent
    w = B.world({0x02000001: B.setup(), 0x32000001: info})
    o = w.create_object(1, 0x02000001)
    w.create_particle_emitter(o, 0x32000001, -1, Frame(), 0)
    em = o.particle_manager.emitters()[0][1]
    assert w.pool.kernel == compiled
    idx = [i for _, i in em.live_slots()]
    assert len(idx) == 3
    w.pool.dirty.end_tick()
    em.cypt = particles.FLT_MAX  # culled
    assert em.update(w.rng, 2.0, 2.0)
    assert sorted(_tick_slots(w.pool.dirty).tolist()) == sorted(idx)
    assert w.pool.birth[idx].tolist() == [2.0] * 3


def test_a_copied_pool_gets_a_new_serial_and_logs_its_live_slots():
    pool = ParticlePool()
    live = [pool.allocate() for _ in range(4)]
    pool.release(live[1])
    pool.dirty.end_tick()
    for other in (copy.deepcopy(pool), pickle.loads(pickle.dumps(pool))):
        assert other.dirty.serial != pool.dirty.serial
        assert other.dirty.tick_start == 0
        idx = other.dirty.since(0)
        assert sorted(idx.tolist()) == sorted([live[0], live[2], live[3]])


def test_evaluate_rows_matches_evaluate_for_the_rows_asked_only():
    """The inspector's rows are evaluated alone (the GPU draws the rest): same values as
    the full ParticlePool.evaluate, other rows untouched."""
    pool = ParticlePool()
    pool.em_time[0] = 2.0
    idx = [pool.allocate() for _ in range(6)]
    rng = np.random.default_rng(0)
    for k, i in enumerate(idx):
        pool.emitter[i], pool.ptype[i], pool.slot[i] = 0, 2 + (k % 3), k
        pool.state[i, 0:3] = (1.0, 0.0, 5.0)
        pool.state[i, 3:18] = rng.normal(size=15)
    pool.evaluate_rows(idx[:2])
    part = pool.position[idx].copy()
    assert not part[2:].any()
    pool.evaluate(force=True)
    np.testing.assert_array_equal(part[:2], pool.position[idx[:2]])


def test_the_log_stays_bounded_when_nobody_reads_it():
    """The CPU particle path never reads the log: marks are sealed and old chunks dropped,
    so a long run keeps about ``limit`` slot numbers."""
    log = DirtySlots(limit=100)
    for k in range(10_000):
        log.mark(k % 300)
    for _ in range(500):
        log.mark_many([1, 2, 3])
    assert len(log._pending) < 100 and len(log._pending_arrays) < 64
    assert log._logged <= 100 + 300
    assert log.since(0) is None and log.since(log.seq).size == 0
