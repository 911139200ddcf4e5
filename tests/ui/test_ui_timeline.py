"""Timeline: tracks from the event log and the transport's commands (no GL)."""

from __future__ import annotations

from viewer.ui import commands as c
from viewer.ui.timeline import TimelineTracks, TimelineView, transport_commands

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


def test_track_rows_and_hover_hit_test():
    from viewer.ui.timeline import hit_test, track_rows
    tracks = TimelineTracks.from_events(EVENTS)
    rows = track_rows(tracks)
    assert [k for k, _ in rows] == ["lane", "lane", "bar", "pes"]
    text, clicks = hit_test(tracks, rows[0], 0.51, 0.02)
    assert "CallPES (19) (hook 1 of 0x33000719, owner 1)" in text and clicks == []
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


# --- hundreds of rows (the stress scene's 500 emitter bars) ------------------------------------
def test_visible_rows_are_those_overlapping_the_visible_span():
    from viewer.ui.timeline import visible_rows
    # rows of 14 px from y = 100; the child window shows y = 128 .. 170
    assert visible_rows(100.0, 500, 14.0, 128.0, 170.0) == range(2, 5)
    assert visible_rows(100.0, 500, 14.0, 127.0, 171.0) == range(1, 6)
    assert visible_rows(100.0, 3, 14.0, 0.0, 1000.0) == range(0, 3)
    assert visible_rows(100.0, 3, 14.0, 142.0, 1000.0) == range(0)     # all above
    assert visible_rows(100.0, 3, 14.0, 0.0, 100.0) == range(0)        # all below
    assert visible_rows(100.0, 0, 14.0, 0.0, 1000.0) == range(0)
    assert visible_rows(100.0, 4, 14.0, float("-inf"), float("inf")) == range(0, 4)


def test_lane_markers_are_kept_until_the_markers_change():
    tracks = TimelineTracks.from_events(EVENTS)
    first = tracks.lane_markers()
    assert tracks.lane_markers() is first
    assert {k: [m.t for m in v] for k, v in first.items()} == \
        {(1, 0x33000719): [0.0, 0.5], (2, 0x33000100): [0.75]}
    tracks.extend([{"t": 2.0, "event": "hook", "owner": 3, "source": 9, "index": 0,
                    "type": "CallPES"}])
    assert tracks.lane_markers() is not first
    assert tracks.lanes() == [(1, 0x33000719), (2, 0x33000100), (3, 9)]
