"""Timeline: frame-exact playback, scrub by deterministic re-simulation from snapshots,
tracks from the event log, and the transport's commands (no GL)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.ui import commands as c
from viewer.ui.timeline import Playback, TimelineTracks, TimelineView, transport_commands


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


# --- tracks -----------------------------------------------------------------------------------
EVENTS = [
    {"t": 0.0, "event": "script", "action": "started", "owner": 1, "script": "0x33000719"},
    {"t": 0.0, "event": "hook", "owner": 1, "source": "0x33000719", "index": 0,
     "type": "CreateParticle"},
    {"t": 0.0, "event": "emitter", "action": "created", "owner": 1, "logical_id": 3,
     "info": "0x320009C4", "part": 0, "handle": 7},
    {"t": 0.5, "event": "hook", "owner": 1, "source": "0x33000719", "index": 1,
     "type": "CallPES"},
    {"t": 0.5, "event": "callpes", "owner": 1, "script": "0x33000200", "delay": 0.25},
    {"t": 0.75, "event": "hook", "owner": 2, "source": "0x33000100", "index": 0,
     "type": "StopParticle"},
    {"t": 1.0, "event": "emitter", "action": "stopped", "owner": 1, "logical_id": 3,
     "info": "0x320009C4", "part": 0, "handle": 7},
    {"t": 1.8, "event": "emitter", "action": "finished", "owner": 1, "logical_id": 3,
     "info": "0x320009C4", "part": 0, "handle": 7},
]


def test_tracks_markers_lanes_bars_and_pes_windows():
    tracks = TimelineTracks.from_events(EVENTS)
    assert [m.t for m in tracks.markers] == [0.0, 0.5, 0.75]
    assert tracks.lanes() == [(1, 0x33000719), (2, 0x33000100)]
    bar = tracks.bars[7]
    assert (bar.created, bar.stopped, bar.finished) == (0.0, 1.0, 1.8)
    assert bar.info == 0x320009C4 and bar.logical_id == 3
    (w,) = tracks.pes_windows
    assert (w.t, w.end, w.pes_id) == (0.5, 0.75, 0x33000200)
    assert tracks.scripts == [(0.0, "started", 1, 0x33000719)]


def test_emitter_destroyed_without_stop_ends_both():
    tracks = TimelineTracks.from_events([
        {"t": 0.1, "event": "emitter", "action": "created", "handle": 1, "info": 5},
        {"t": 0.4, "event": "emitter", "action": "destroyed", "handle": 1, "info": 5}])
    assert (tracks.bars[1].stopped, tracks.bars[1].finished) == (0.4, 0.4)
    assert tracks.bars[1].end(9.0) == 0.4


def test_alive_emitter_bar_runs_to_the_end():
    tracks = TimelineTracks.from_events(EVENTS[:3])
    assert tracks.bars[7].end(5.0) == 5.0


def test_jump_to_previous_and_next_hook():
    tracks = TimelineTracks.from_events(EVENTS)
    assert tracks.next_marker(0.0, +1) == 0.5
    assert tracks.next_marker(0.5, +1) == 0.75
    assert tracks.next_marker(0.75, +1) is None
    assert tracks.next_marker(0.75, -1) == 0.5
    assert tracks.next_marker(0.6, -1) == 0.5
    assert tracks.next_marker(0.0, -1) is None


# --- transport ------------------------------------------------------------------------------
def test_transport_widgets_map_to_commands():
    view = TimelineView(time=1.0, frame=30, total_frames=60, fps=30, playing=False,
                        speed=1.0, loop=False)
    assert transport_commands(view=view, play_pressed=True) == [c.Play()]
    assert transport_commands(view=view, step_back=True, step_fwd=True) == [c.Step(-1), c.Step(1)]
    assert transport_commands(view=view, prev_hook=True, next_hook=True) == \
        [c.JumpHook(-1), c.JumpHook(1)]
    assert transport_commands(view=view, scrub_to=1.0) == []      # unchanged: no command
    assert transport_commands(view=view, scrub_to=0.25) == [c.Seek(0.25)]
    assert transport_commands(view=view, speed=2.0, loop=True) == [c.SetSpeed(2.0), c.SetLoop(True)]
    assert transport_commands(view=view, restart=True) == [c.Restart()]


def test_fps_must_be_positive():
    with pytest.raises(ValueError):
        Playback(FakeWorld, FakeWorld.advance, 0, 1.0)


def test_track_rows_and_hover_hit_test():
    from viewer.ui.timeline import hit_test, track_rows
    tracks = TimelineTracks.from_events(EVENTS)
    rows = track_rows(tracks)
    assert [k for k, _ in rows] == ["lane", "lane", "bar", "pes"]
    text, clicks = hit_test(tracks, rows[0], 0.51, 0.02)
    assert "CallPES (hook 1 of 0x33000719, owner 1)" in text and clicks == []
    assert hit_test(tracks, rows[0], 0.3, 0.02) == ("", [])
    text, clicks = hit_test(tracks, rows[2], 0.9, 0.02)
    assert "emitter 7 (id 3) 0x320009C4" in text and "stopped 1.000 s" in text
    assert clicks == [c.Select("emitter", 7)]
    text, _ = hit_test(tracks, rows[3], 0.6, 0.01)
    assert "CallPES 0x33000200" in text and "plays at 0.750 s" in text


def test_state_transitions_get_their_own_row():
    from viewer.ui.timeline import hit_test, track_rows
    tracks = TimelineTracks.from_events(EVENTS + [
        {"t": 1.2, "event": "state", "owner": 1, "state": "0x00404C08", "hidden": True}])
    assert tracks.states == [(1.2, 1, 0x00404C08, True)]
    rows = track_rows(tracks)
    assert rows[-1] == ("state", None)
    text, _ = hit_test(tracks, rows[-1], 1.21, 0.02)
    assert text == "1.200 s  owner 1 state 0x00404C08 (hidden)"
