"""Playback (viewer/sim/playback.py): frame-exact playback, scrub by deterministic
re-simulation from snapshots, the frame range ScenarioRunner.frames() runs (no GL)."""

from __future__ import annotations

import math
import random

import pytest
import sim_builders as B
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.sim import playback
from viewer.sim.playback import Playback, RunnerHandle
from viewer.sim.scenario import Scenario, ScenarioRunner


class FakeWorld:
    """Deterministic stand-in: a seeded RNG drives a random walk; hooks every 7th frame."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)
        self.frame = 0
        self.value = 0.0

    def advance(self):
        self.frame += 1
        self.value += self.rng.random()
        if self.frame % 7 == 0:
            return [{"t": self.frame / 30, "event": "hook", "owner": 1,
                     "source": "0x33000001", "index": self.frame // 7 - 1,
                     "type": "CreateParticle"}]
        return []


def make(seconds=2.0, fps=30, every=10, log=None):
    return Playback(FakeWorld, FakeWorld.advance, fps, seconds, snapshot_every=every,
                    on_events=(lambda f, ev: log.extend(ev)) if log is not None else None)


def straight(frame):
    w = FakeWorld()
    for _ in range(frame):
        w.advance()
    return w.value


def test_seek_back_equals_a_straight_run():
    pb = make()
    pb.seek_frame(45)
    pb.seek_frame(12)
    assert pb.frame == 12 and pb.world.value == straight(12)


def test_seek_back_restores_snapshot_not_from_start():
    pb = make(every=10)
    pb.seek_frame(50)
    before = pb.frames_simulated
    pb.seek_frame(33)
    assert pb.frames_simulated - before == 3       # from the snapshot at 30
    assert pb.world.value == straight(33)


def test_snapshot_is_not_aliased_by_the_live_world():
    pb = make(every=10)
    pb.seek_frame(10)
    pb.seek_frame(20)
    pb.seek_frame(10)
    pb.seek_frame(15)
    pb.seek_frame(10)
    assert pb.world.value == straight(10)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-5, 70), min_size=1, max_size=8))
def test_any_seek_sequence_lands_on_the_straight_run_state(frames):
    pb = make(seconds=2.0, fps=30, every=8)
    for f in frames:
        pb.seek_frame(f)
        want = min(max(f, 0), pb.total_frames)
        assert pb.frame == want
        assert pb.world.value == straight(want)


def test_step_forward_and_back_pause_playback():
    pb = make()
    pb.play()
    pb.step(1)
    assert not pb.playing and pb.frame == 1
    pb.step(-1)
    assert pb.frame == 0
    pb.step(-1)
    assert pb.frame == 0          # clamped at the start


def test_seek_time_picks_frame_at_or_before_and_clamps():
    pb = make(seconds=2.0, fps=30)
    pb.seek(0.5)
    assert pb.frame == 15
    pb.seek(0.51)
    assert pb.frame == 15
    pb.seek(99)
    assert pb.frame == 60
    pb.seek(-1)
    assert pb.frame == 0
    pb.seek(math.nan)
    assert pb.frame == 0


def test_tick_advances_by_speed_and_stops_at_end():
    pb = make(seconds=1.0, fps=30)
    pb.play()
    assert pb.tick(0.1) == 3
    pb.set_speed(2.0)
    assert pb.tick(0.1) == 6
    pb.tick(10.0)
    assert pb.frame == 30 and not pb.playing


def test_speed_is_clamped_to_tenth_to_four():
    pb = make()
    pb.set_speed(100)
    assert pb.speed == 4.0
    pb.set_speed(0.0)
    assert pb.speed == 0.1
    pb.set_speed(math.nan)
    assert pb.speed == 0.1


def test_loop_wraps_to_start():
    pb = make(seconds=1.0, fps=30)
    pb.loop = True
    pb.play()
    pb.tick(1.2)       # 36 frames: 30 to the end, wrap, then 5 more
    assert pb.playing and 0 < pb.frame < 10
    assert pb.world.value == straight(pb.frame)


def test_play_at_end_restarts():
    pb = make(seconds=1.0)
    pb.seek_frame(30)
    pb.play()
    assert pb.frame == 0 and pb.playing


def test_prepass_collects_all_events_and_returns():
    log = []
    pb = make(seconds=1.0, fps=30, log=log)
    pb.seek_frame(5)
    pb.prepass()
    assert pb.frame == 5
    assert [e["index"] for e in log] == [0, 1, 2, 3]
    assert pb.snapshot_frames == [0, 10, 20, 30]


def test_invalidate_rebuilds_and_keeps_frame():
    pb = make()
    pb.seek_frame(25)
    pb.invalidate()
    assert pb.frame == 25 and pb.snapshot_frames == [0, 10, 20]
    assert pb.world.value == straight(25)


class SnapWorld(FakeWorld):
    """A world with its own snapshot()/restore()."""
    def snapshot(self):
        return (self.rng.getstate(), self.frame, self.value)

    def restore(self, snap):
        state, self.frame, self.value = snap
        self.rng.setstate(state)


def test_world_snapshot_protocol_is_used():
    pb = Playback(SnapWorld, SnapWorld.advance, 30, 2.0, snapshot_every=10)
    pb.seek_frame(40)
    pb.seek_frame(21)
    assert isinstance(pb._snapshots[10], tuple)
    assert pb.world.value == straight(21)


def test_fps_must_be_positive():
    with pytest.raises(ValueError):
        Playback(FakeWorld, FakeWorld.advance, 0, 1.0)


@pytest.mark.parametrize("fps, seconds", [(30, 2.0), (30, 1.02), (30, 1.01), (24, 0.1),
                                          (60, 0.0), (144, 1.0)])
def test_total_frames_is_the_last_frame_ScenarioRunner_frames_runs(fps, seconds):
    sc = Scenario.from_json({"fps": fps, "seconds": seconds, "objects": []})
    frames = [t for t, _ in ScenarioRunner(sc, B.MemoryDB({})).frames()]
    assert make(seconds=seconds, fps=fps).total_frames == len(frames) - 1
    assert frames[-1] <= seconds < frames[-1] + 1 / sc.fps


def test_runner_handle_steps_frames_and_restores_from_a_snapshot():
    sc = Scenario.from_json({"fps": 30, "seconds": 1.0, "objects": []})
    h = RunnerHandle(ScenarioRunner(sc, B.MemoryDB({})))
    assert h.step()[0] == 0 and h.step()[0] * 30 == 1
    snap = h.snapshot()
    h.step()
    h.restore(snap)
    assert h.runner.frame == 1 and h.step()[0] * 30 == 2


# --- issue 14: bounded snapshots, exploring ahead without moving the world shown -------------
def test_snapshots_stay_under_the_cap_and_scrubbing_stays_exact(monkeypatch):
    import viewer.sim.playback as playback
    monkeypatch.setattr(playback, "MAX_SNAPSHOTS", 8)
    pb = make(seconds=20.0, every=1)            # 600 frames, a snapshot every frame at first
    pb.seek_frame(600)
    assert len(pb.snapshot_frames) <= 8 and pb.snapshot_frames[0] == 0
    assert pb.snapshot_every >= 600 // 8
    for n in (599, 3, 300, 150, 451, 0, 600):
        pb.seek_frame(n)
        assert pb.world.value == straight(n), n


def test_explore_runs_ahead_without_moving_the_world_shown():
    log, straight_log = [], []
    pb = make(seconds=2.0, every=10, log=log)
    pb.seek_frame(5)
    value = pb.world.value
    assert pb.explore(20) == 20 and pb.horizon == 20 and not pb.explored   # from frame 0
    assert pb.frame == 5 and pb.world.value == value
    pb.explore(10**6)
    assert pb.explored and pb.horizon == pb.total_frames == 60
    ref = make(seconds=2.0, log=straight_log)
    ref.prepass()
    firsts = {}
    for ev in log:                               # each frame's events, as first simulated
        firsts.setdefault(ev["index"], ev)
    assert list(firsts.values()) == straight_log
    pb.seek_frame(47)                            # from the explorer's snapshot at 40
    assert pb.world.value == straight(47)


def test_explore_leaves_the_frontier_to_a_world_playing_there():
    pb = make(seconds=2.0, every=10)
    pb.play()
    pb.tick(1 / 30)                              # the world shown is at the horizon
    assert pb.frame == pb.horizon == 1 and pb.explore(5) == 0
    pb.pause()
    assert pb.explore(5) == 5 and pb.horizon == 5 and pb.frame == 1   # from frame 0


def test_a_runner_snapshot_shares_the_decoded_records_and_continues_the_same():
    # the records the database decoded are shared values; the runtime state is copied
    from viewer.dat.database import AssetDatabase
    from viewer.synthetic import DEFAULT_SCENARIO
    sc = Scenario.load(DEFAULT_SCENARIO)
    db = AssetDatabase([str(p) for p in sc.dat_paths()])
    runner = ScenarioRunner(sc, db)
    frames = runner.frames()
    for _ in range(20):
        next(frames)
    snap = runner.snapshot()
    for oid, obj in runner.world.objects.items():
        copied = snap.world.objects[oid]
        assert copied is not obj and copied.setup is obj.setup
    assert snap.world.db is db and snap.world.pool is not runner.world.pool
    runner.world.events, snap.world.events = [], []
    for r in (runner, snap):
        it = r.frames()
        for _ in range(10):
            next(it)
    assert snap.world.events == runner.world.events and runner.world.events


class HeavyWorld(FakeWorld):
    """A FakeWorld whose copies weigh ``WEIGHT`` bytes (Playback's ``snapshot_bytes``)."""

    WEIGHT = 0

    def snapshot_bytes(self) -> int:
        return self.WEIGHT


@pytest.mark.parametrize(("weight", "spacing"), [
    (0, 10), (playback.SNAPSHOT_BYTES_PER_FRAME * 10, 10),
    (playback.SNAPSHOT_BYTES_PER_FRAME * 10 + 1, 20), (playback.SNAPSHOT_BYTES_PER_FRAME * 75, 80),
    (10 ** 12, 160)])
def test_a_heavy_world_spaces_its_snapshots_wider(weight, spacing, monkeypatch):
    """A copy moves at most SNAPSHOT_BYTES_PER_FRAME per frame it spans (the stress scene's
    pool copied every half second stalled a frame 70-140 ms); MAX_SPACING caps it; scrubs
    stay exact."""
    monkeypatch.setattr(HeavyWorld, "WEIGHT", weight)
    monkeypatch.setattr(playback, "MAX_SPACING", 200)
    pb = Playback(HeavyWorld, HeavyWorld.advance, 30, 20.0, snapshot_every=10)
    pb.seek_frame(600)
    assert pb.snapshot_every == spacing
    assert pb.snapshot_frames == list(range(0, 601, spacing))
    for n in (599, 3, 300, 150, 451, 0, 600):
        pb.seek_frame(n)
        assert pb.world.value == straight(n), n


def test_a_runners_snapshot_weighs_its_particle_tables():
    from viewer.sim.particles import ParticlePool
    pool = ParticlePool(capacity=1024, emitter_capacity=8)
    assert pool.nbytes() >= 1024 * 26 * 8       # the birth-state table alone
    grown = ParticlePool(capacity=4096, emitter_capacity=8)
    assert grown.nbytes() > 3 * pool.nbytes()
    sc = Scenario.from_json({"fps": 30, "seconds": 1.0, "objects": []})
    h = RunnerHandle(ScenarioRunner(sc, B.MemoryDB({})))
    assert h.snapshot_bytes() == h.world.pool.nbytes() > 0


def test_a_restored_run_keeps_its_grown_particle_pool_and_the_same_indices():
    """RunnerHandle.restore presizes the restored pool to the capacity the run had grown
    to (one growth, not a doubling after another inside the births' frame); where a pool
    grows never changes which index a particle gets."""
    from viewer.sim.particles import ParticlePool
    grown, natural = ParticlePool(capacity=256), ParticlePool(capacity=256)
    grown.presize(3000)
    assert grown.capacity == 4096 and natural.capacity == 256
    assert [grown.allocate() for _ in range(700)] == [natural.allocate() for _ in range(700)]
    grown.presize(10)
    assert grown.capacity == 4096
    sc = Scenario.from_json({"fps": 30, "seconds": 1.0, "objects": []})
    h = RunnerHandle(ScenarioRunner(sc, B.MemoryDB({})))
    snap = h.snapshot()
    h.world.pool.reserve(5000)
    h.restore(snap)
    assert h.world.pool.capacity == 8192 and snap.world.pool.capacity < 8192

