"""The compiled emitter update (viewer.sim.particle_kernel) against the Python reference
methods of ParticleEmitter: the same scenes and traces through both give the same events,
the same random draws, the same pool slots and the same birth states, bit for bit."""

from __future__ import annotations

import copy
import gc
import io
import math
from fractions import Fraction

import numpy as np
import pytest
import sim_builders as B

from viewer.sim import particles
from viewer.sim.events import to_line
from viewer.sim.frame import Frame
from viewer.sim.particles import EMITTER_TABLE_STATE, EXPLODE
from viewer.sim.rng import RetailRandom

SETUP = 0x02000001
INFO0 = 0x32000100


def _random_info(rng: np.random.Generator, did: int, ptype: int):
    """Any ParticleEmitterInfo: every ParticleType, per second or per meter, TotalParticles
    negative / zero / positive, TotalSeconds, InitialParticles, parent-local."""
    def vec():
        return tuple(float(x) for x in rng.normal(size=3))
    return B.emitter_info(
        did, emitter_type=int(rng.choice([1, 2, 1])), particle_type=ptype,
        birthrate=float(rng.choice([0.0, 0.02, 0.05, 0.3])),
        max_particles=int(rng.choice([0, 1, 3, 8, 20])),
        initial_particles=int(rng.choice([0, 0, 1, 4, 30])),
        total_particles=int(rng.choice([-1, 0, 0, 3, 12])),
        total_seconds=float(rng.choice([0.0, 0.0, 0.4, 1.5])),
        lifespan=float(rng.choice([0.0, 0.1, 0.35, 2.0])),
        lifespan_rand=float(rng.uniform(0, 0.3)),
        offset_dir=vec() if rng.random() < 0.7 else (0.0, 0.0, 1.0),
        min_offset=float(rng.uniform(0, 1)), max_offset=float(rng.uniform(0, 2)),
        a=vec(), min_a=float(rng.uniform(0, 1)), max_a=float(rng.uniform(1, 2)),
        b=vec(), min_b=float(rng.uniform(0, 1)), max_b=float(rng.uniform(1, 2)),
        c=vec(), min_c=float(rng.uniform(0, 1)), max_c=float(rng.uniform(1, 2)),
        start_scale=float(rng.uniform(0, 3)), final_scale=float(rng.uniform(0, 12)),
        scale_rand=float(rng.uniform(0, 1)), start_trans=float(rng.uniform(-0.2, 1)),
        final_trans=float(rng.uniform(0, 1.2)), trans_rand=float(rng.uniform(0, 0.5)),
        is_parent_local=bool(rng.random() < 0.3))


def _small_offset_info(world, did: int):
    """An info whose first birth (InitialParticles, from the world's next draws) gets an
    offset direction parallel to its random vector: GetRandomOffset 0x005174A0's small
    branch, zero offset and no 4th draw."""
    r = copy.deepcopy(world.rng)
    for _ in range(8):  # lifespan, trans x2, scale x2, c, b, a
        r.rand()
    rz, ry, rx = (r.roll_dice(-1.0, 1.0) for _ in range(3))
    n = math.sqrt(rx * rx + ry * ry + rz * rz)
    return B.emitter_info(did, particle_type=EXPLODE, initial_particles=1,
                          max_particles=2, birthrate=5.0, lifespan=1.0,
                          offset_dir=(rx / n, ry / n, rz / n), min_offset=3.0, max_offset=4.0,
                          c=(1.0, 2.0, 0.5))


def _state(world) -> list:
    """Everything the emitter update writes, as bytes (NaN-safe, -0.0 kept)."""
    pool = world.pool
    alive = np.flatnonzero(pool.alive)
    rows = [em.row for em in pool.row_emitter if em is not None]
    return [world.rng.state(), pool.live_count, pool.free_n,
            pool.free_stack[:pool.free_n].tobytes(), alive.tobytes(),
            pool.emitter[alive].tobytes(), pool.slot[alive].tobytes(),
            pool.ptype[alive].tobytes(), pool.state[alive].tobytes(),
            pool.em_time[rows].tobytes(), pool.em_origin[rows].tobytes(),
            pool.em_quat[rows].tobytes(), pool.row_drawn[rows].tobytes(),
            pool.ef[np.ix_(rows, EMITTER_TABLE_STATE[0])].tobytes(),
            pool.ei[np.ix_(rows, EMITTER_TABLE_STATE[1])].tobytes(),
            [(em.handle, em.live_slots(), _deaths(em)) for em in pool.row_emitter
             if em is not None]]


def _deaths(em) -> bytes:
    """The live slots' death times (both paths keep them in the slot table)."""
    slots = em.slots
    base = int(em.pool.ei[em.row, particles.I_BASE])
    return em.pool.slot_death[base + np.flatnonzero(slots >= 0)].tobytes()


SCRIPT0 = 0x33000100


def _hook_scripts(records: dict, rng: np.random.Generator) -> list[int]:
    """Scripts whose hooks run mid-tick, after some owners' particle updates and before
    others': emitters created (InitialParticles births: draws), stopped and destroyed on
    the owner, CallPES with a pause (a Python draw) playing a script that creates one."""
    dids = []
    for k in range(4):
        did = SCRIPT0 + k
        info = INFO0 + int(rng.integers(0, 24))
        records[SCRIPT0 + 10 + k] = B.script(SCRIPT0 + 10 + k,
                                             (0.05, B.create(INFO0 + 99, -1, 0x200 + k)))
        records[did] = B.script(
            did, (0.1 * k, B.create(info, -1, 0x100 + k)),
            (0.2 + 0.1 * k, B.create(INFO0 + 99, 0, 0x110 + k)),
            (0.4, B.callpes(SCRIPT0 + 10 + k, 0.3 + 0.1 * k)),
            (0.6 + 0.05 * k, B.stop(0x100 + k)),
            (0.9, B.destroy(0x110 + k)),
            (1.1 + 0.1 * k, B.destroy(0x100 + k)),
            (1.3, B.create(info, 1, 0x100 + k)),
            (1.6, B.destroy(0x200 + k)))
        dids.append(did)
    return dids


def _scene_run(mode: str, seed: int, monkeypatch, switch_at=(), hooks=False) -> list:
    monkeypatch.setattr(particles, "KERNEL", mode)
    rng = np.random.default_rng(seed)
    records = {SETUP: B.setup(parts=2)}
    for k in range(24):  # every ParticleType (and 0 / 13: positions left alone) twice
        records[INFO0 + k] = _random_info(rng, INFO0 + k, k % 14)
    records[INFO0 + 99] = B.emitter_info(INFO0 + 99, max_particles=4, birthrate=0.01,
                                         initial_particles=2, lifespan=0.5)  # persistent
    scripts = _hook_scripts(records, rng) if hooks else []
    w = B.world(records, seed=seed)
    w.events = []
    objs = []
    for i in range(6):  # near and far (culled) owners, moving and turning
        far = i % 3 == 2
        o = w.create_object(i + 1, SETUP, position=(300.0 if far else 2.0 * i, 0.0, 1.0),
                            heading_deg=37.0 * i, velocity=tuple(rng.normal(size=3)),
                            omega=(0.0, 0.0, 0.5 * i))
        objs.append(o)
    handles = []
    for k in range(40):
        o = objs[k % len(objs)]
        did = INFO0 + (99 if k % 10 == 9 else int(rng.integers(0, 24)))
        part = int(rng.choice([-1, 0, 1]))
        off = Frame(tuple(float(x) for x in rng.normal(size=3)), (1.0, 0.0, 0.0, 0.0))
        handles.append((o, w.create_particle_emitter(o, did, part, off, int(k % 7))))
    w.db.add(INFO0 + 98, _small_offset_info(w, INFO0 + 98))
    w.create_particle_emitter(objs[0], INFO0 + 98, -1, Frame(), 0)
    for k, did in enumerate(scripts):  # owners 2..5: after owners 0 and 1 each tick
        w.play_script(objs[2 + k], did)
    if hooks:  # a child: its particles update inside its parent's frame walk
        w.attach_child(objs[5], objs[4], 1, Frame((0.0, 1.0, 0.0), (1.0, 0.0, 0.0, 0.0)))
    out = []
    for frame in range(1, 76):
        if frame in switch_at:
            w.pool.use_kernel(not w.pool.kernel)
        if frame == 20:
            w.viewer_position = (300.0, 0.0, 1.0)  # the far owners come into view
        if frame == 45:
            w.viewer_position = (0.0, 0.0, 1.0)
        if frame in (25, 50):
            for o in objs[:3]:
                pm = o.particle_manager
                for eid, _ in pm.emitters()[:2]:
                    pm.stop(eid)
                if pm.emitters():
                    pm.destroy(pm.emitters()[-1][0])
        # with hooks, two half-second jumps: updates of several quanta (a manager updated
        # and its frames set again within one tick)
        jump = Fraction(frame // 30, 2) if hooks else 0
        w.tick(Fraction(frame, 30) + jump)
        out.append(_state(w))
    out.append([to_line(e) for e in w.events])
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kernel_and_python_paths_give_the_same_run(seed, monkeypatch):
    ref = _scene_run("0", seed, monkeypatch)
    got = _scene_run("1", seed, monkeypatch)
    assert len(got) == len(ref)
    for k, (a, b) in enumerate(zip(ref, got)):
        assert a == b, f"frame {k + 1}"
    kinds = {e.split('"action": "')[1].split('"')[0] for e in ref[-1] if '"emitter"' in e}
    assert {"created", "stopped", "destroyed", "finished"} <= kinds


class _CountingKernel:
    """The kernel module, counting the emitter rows of each compiled update call."""

    def __init__(self):
        from viewer.sim import particle_kernel as K
        self.K = K
        self.calls: list[int] = []

    def update_rows(self, rows, *args):
        self.calls.append(len(rows))
        return self.K.update_rows(rows, *args)

    def __getattr__(self, name):
        return getattr(self.K, name)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_queued_updates_meet_hooks_mid_tick(seed, monkeypatch):
    """A tick's managers queued for one compiled call (ParticlePool.flush) while hooks
    between them create, stop and destroy emitters (births and deaths in one manager while
    another's update waits), draw in Python (CallPES) and emit events: the reference run."""
    ref = _scene_run("0", seed, monkeypatch, hooks=True)
    counting = _CountingKernel()
    monkeypatch.setattr(particles, "_KERNEL", counting)
    got = _scene_run("1", seed, monkeypatch, hooks=True)
    assert len(got) == len(ref)
    for k, (a, b) in enumerate(zip(ref, got)):
        assert a == b, f"frame {k + 1}"
    lines = ref[-1]
    for action in ('"created"', '"stopped"', '"destroyed"', '"finished"'):
        assert sum(action in e for e in lines) >= 3
    assert sum('"callpes"' in e for e in lines) >= 4
    # several managers ran in one call, and the hooks cut some ticks' queues short
    assert max(counting.calls) > 40 and min(counting.calls) < 20


def test_a_tick_without_hooks_runs_every_manager_in_one_call(monkeypatch):
    monkeypatch.setattr(particles, "KERNEL", "1")
    counting = _CountingKernel()
    monkeypatch.setattr(particles, "_KERNEL", counting)
    w = B.world({SETUP: B.setup(), INFO0: B.emitter_info(INFO0, birthrate=0.01)}, seed=3)
    for i in range(5):
        o = w.create_object(i + 1, SETUP, velocity=(1.0, 0.0, 0.0))
        for _ in range(3):
            w.create_particle_emitter(o, INFO0, -1, Frame(), 0)
    B.run_frames(w, 4)
    assert counting.calls == [15] * 4 and w.pool.live_count > 0
    assert not w.pool._queue and w.rng.draws > 0


def test_a_python_draw_runs_the_queued_updates_first(monkeypatch):
    """RetailRandom.set_barrier: a draw between queued updates (no event in between) comes
    after their births' draws, as when each update ran at once."""
    monkeypatch.setattr(particles, "KERNEL", "1")
    runs = []
    for defer in (False, True):
        w = B.world({SETUP: B.setup(), INFO0: B.emitter_info(INFO0, birthrate=0.0)}, seed=7)
        objs = [w.create_object(i + 1, SETUP) for i in range(3)]
        for o in objs:
            w.create_particle_emitter(o, INFO0, -1, Frame(), 0)
        w.render_pass()  # in view
        w.pool.defer = defer
        for o in objs[:2]:
            o.particle_manager.update_particles(w.rng, 0.5, 0.5)
        queued = len(w.pool._queue)
        x = w.rng.rand()
        objs[2].particle_manager.update_particles(w.rng, 0.5, 0.5)
        w.pool.defer = False
        w.pool.flush()
        runs.append((queued, x, _state(w)))
    assert (runs[0][0], runs[1][0]) == (0, 2)
    assert runs[0][1:] == runs[1][1:] and runs[1][2][1] == 3  # three births


def test_switching_paths_mid_run_changes_nothing(monkeypatch):
    ref = _scene_run("0", 4, monkeypatch)
    got = _scene_run("0", 4, monkeypatch, switch_at=(10, 33, 47, 60))
    assert got == ref


def test_the_scene_covers_what_the_parity_is_about(monkeypatch):
    monkeypatch.setattr(particles, "KERNEL", "1")
    _scene_run("1", 1, monkeypatch)
    # built again to look at it: the small-offset birth drew no 4th value
    w = B.world({SETUP: B.setup()}, seed=9)
    info = _small_offset_info(w, INFO0 + 98)
    w.db.add(INFO0 + 98, info)
    o = w.create_object(1, SETUP)
    before = w.rng.draws
    w.create_particle_emitter(o, INFO0 + 98, -1, Frame(), 0)
    assert w.rng.draws - before == 8 + 3 + 2  # no magnitude draw; EXPLODE's two
    em = o.particle_manager.emitters()[0][1]
    assert w.pool.offset[em.live_slots()[0][1]].tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", ["default", "gallery", "projectiles", "named_projectiles"])
def test_the_synthetic_scenarios_trace_the_same_on_both_paths(name, monkeypatch):
    from viewer.commands.trace import trace_lines
    from viewer.dat.database import AssetDatabase
    from viewer.sim.scenario import Scenario
    from viewer.synthetic import ASSETS_DIR
    sc = Scenario.load(ASSETS_DIR / f"{name}.scenario.json")
    db = AssetDatabase([str(p) for p in sc.dat_paths()])
    traces = []
    for mode in ("0", "1"):
        monkeypatch.setattr(particles, "KERNEL", mode)
        buf = io.StringIO()
        trace_lines(sc, db, particles=True, out=lambda s, b=buf: b.write(s + "\n"))
        traces.append(buf.getvalue())
    assert traces[0] == traces[1] and traces[0].count('"particles"') > 10


def test_kernel_rng_state_round_trips_through_python_draws():
    a, b = RetailRandom(5), RetailRandom(5)
    a.kernel_state()
    assert a.state() == b.state()
    arr = a.kernel_state()
    from viewer.sim.particle_kernel import _rand
    x = [_rand(arr) for _ in range(100)]
    assert x == [b.rand() for _ in range(100)]
    assert a.draws == b.draws == 100 and a.rand() == b.rand() and a.state() == b.state()


@pytest.mark.parametrize("seed", [0, 1, 5, 123456789, 2**31 - 2, -7])
def test_the_kernel_draws_are_the_python_draws_over_long_runs(seed):
    """The kernel's unsigned (a*s) mod m steps against RetailRandom.rand's Schrage steps."""
    from viewer.sim.particle_kernel import _rand
    a, b = RetailRandom(seed), RetailRandom(seed)
    arr = a.kernel_state()
    assert [_rand(arr) for _ in range(10_000)] == [b.rand() for _ in range(10_000)]
    assert a.state() == b.state()


def test_no_writable_cache_folder_compiles_in_memory(monkeypatch):
    from viewer.sim import particle_kernel as K
    calls = []

    def njit(cache=False):
        calls.append(cache)
        if cache:
            raise RuntimeError("cannot cache function: no locator available")
        return lambda fn: fn
    monkeypatch.setattr(K.numba, "njit", njit)
    assert K._jit(len) is len and calls == [True, False]


def test_a_snapshot_taken_on_the_kernel_path_continues_the_same(monkeypatch):
    monkeypatch.setattr(particles, "KERNEL", "1")
    rng = np.random.default_rng(5)
    records = {SETUP: B.setup()}
    for k in range(12):
        records[INFO0 + k] = _random_info(rng, INFO0 + k, k + 1)
    w = B.world(records, seed=5)
    for i in range(4):
        o = w.create_object(i + 1, SETUP, velocity=(1.0, 0.5 * i, 0.0))
        for k in range(8):
            w.create_particle_emitter(o, INFO0 + (i * 8 + k) % 12, -1, Frame(), 0)
    for frame in range(1, 11):
        w.tick(Fraction(frame, 30))
    copy_ = w.snapshot()
    a, b = [], []
    for frame in range(11, 31):
        w.tick(Fraction(frame, 30))
        copy_.tick(Fraction(frame, 30))
        a.append(_state(w))
        b.append(_state(copy_))
    assert a == b and w.pool.kernel and copy_.pool.kernel


def test_loading_the_kernel_compiles_it_and_freezes_what_numba_left():
    """particles.kernel(): both functions compiled on load, then the live objects (numba's
    ~100k) moved out of the cyclic collector's full collections (gc.freeze)."""
    K = particles.kernel()
    assert K.update_rows.signatures and K.emit_n.signatures
    assert gc.get_freeze_count() > 10_000


def _busy_start(mode: str, monkeypatch, emitters: int, initial: int) -> tuple[list, object]:
    """``emitters`` emitters created at once, each with ``initial`` InitialParticles births
    (ParticleEmitter::InitEnd 0x0051D400), then a few ticks."""
    monkeypatch.setattr(particles, "KERNEL", mode)
    records = {SETUP: B.setup(parts=1),
               INFO0: B.emitter_info(INFO0, particle_type=EXPLODE, birthrate=0.05,
                                     max_particles=initial + 20, initial_particles=initial,
                                     lifespan=3.0, lifespan_rand=1.0, offset_dir=(0, 0, 1),
                                     min_offset=0.1, max_offset=1.0, c=(1.0, 0.5, 0.2))}
    w = B.world(records, seed=11)
    w.events = []
    o = w.create_object(1, SETUP)
    out = []
    for k in range(emitters):
        w.create_particle_emitter(o, INFO0, -1, Frame(), k)
        out.append(_state(w))
    for frame in range(1, 6):
        w.tick(Fraction(frame, 30))
        out.append(_state(w))
    return out, w.pool


def _grown_alike(state: list) -> list:
    """``_state`` less the pool's capacity: the compiled update grows the pool before a
    batch (room for one birth per emitter), the Python path one birth at a time; growing
    puts new indices beneath the free ones, so the next allocations (the top of the free
    stack) are the same either way."""
    top = np.frombuffer(state[3], np.int64)[-16:]
    return [*state[:2], top.tobytes(), *state[4:]]


@pytest.mark.parametrize(("emitters", "initial"), [(30, 200), (2, 3000), (40, 5)])
def test_a_busy_start_births_on_the_kernel_and_the_same_run(emitters, initial, monkeypatch):
    """ParticlePool.switch_when_busy: in "auto" the InitialParticles births of a busy
    start (over KERNEL_MIN_LIVE live, or KERNEL_MIN_EMITTERS emitters) are compiled,
    not one Python EmitParticle 0x0051D010 call each; the run is the reference's bit for
    bit, before and after the switch."""
    ref, _ = _busy_start("0", monkeypatch, emitters, initial)
    calls = []
    real = particles.ParticleEmitter.emit
    monkeypatch.setattr(particles.ParticleEmitter, "emit",
                        lambda self, *a: calls.append(1) or real(self, *a))
    got, pool = _busy_start("auto", monkeypatch, emitters, initial)
    assert pool.kernel
    assert len(got) == len(ref)
    for k, (a, b) in enumerate(zip(ref, got)):
        assert _grown_alike(a) == _grown_alike(b), f"step {k}"
    # Python births only while the pool was quiet (below both thresholds)
    assert len(calls) < particles.KERNEL_MIN_LIVE
    assert len(calls) <= particles.KERNEL_MIN_EMITTERS * initial


def test_a_quiet_pool_stays_on_the_python_path(monkeypatch):
    _, pool = _busy_start("auto", monkeypatch, 3, 50)
    assert not pool.kernel


@pytest.mark.parametrize("name", ["default", "gallery", "projectiles", "named_projectiles"])
def test_the_synthetic_scenes_stay_below_the_compiled_paths_thresholds(name):
    """KERNEL_MIN_LIVE / KERNEL_MIN_EMITTERS sit above every synthetic scene's peak, so
    opening one never loads numba (its import and cache load cost more than the scene)."""
    from viewer.dat.database import AssetDatabase
    from viewer.sim.scenario import Scenario, ScenarioRunner
    from viewer.synthetic import ASSETS_DIR
    sc = Scenario.load(ASSETS_DIR / f"{name}.scenario.json")
    runner = ScenarioRunner(sc, AssetDatabase([str(p) for p in sc.dat_paths()]))
    live = emitters = 0
    for _, w in runner.frames():
        live, emitters = max(live, w.pool.live_count), max(emitters, w.pool.emitter_count)
    assert 0 < live < particles.KERNEL_MIN_LIVE // 2
    assert 0 < emitters < particles.KERNEL_MIN_EMITTERS
