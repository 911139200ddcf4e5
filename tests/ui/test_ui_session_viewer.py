"""The window's viewer, as ``render``'s (World.set_viewer after each simulated frame): the
camera's eye for the distance culling (CPhysicsObj::UpdateViewerDistance 0x00510B30) and
its view direction for the sound listener's heading (SoundManager::SetPlayerPosition
0x005503C0 takes the viewer's whole frame; PlaySoundInternal 0x00550170 pans by its
Frame::get_heading 0x00535760). A world made from a snapshot taken before the camera moved
takes the view now, so scrubbing after an orbit culls as a straight run would."""

from __future__ import annotations

import json

import pytest

from viewer import synthetic as S
from viewer.sim.sound import frame_heading
from viewer.ui.session import open_session

NEAR, FAR = (0.0, 1.5, 99.9), (0.0, 1.5, 100.1)
DOWN = (0.0, 0.0, -1.0)


def _scenario(tmp_path, seconds=1.0):
    """The emitter gallery (twelve emitters within 2.25 m x 1.5 m of (0, 1.5, 0), several
    with a 100 m degrade distance) played at t = 0."""
    path = tmp_path / "edge.json"
    path.write_text(json.dumps({
        "dat": [str(S.SYNTHETIC_DAT)], "seed": 3, "fps": 30, "seconds": seconds,
        "objects": [{"id": 1, "setup": f"0x{S.SETUP_MARKER:08X}",
                     "table": f"0x{S.PST_FLAME:08X}", "state": "0x00000000"}],
        "events": [{"t": 0.0, "object": 1,
                    "play_script": f"0x{S.PES_EMITTER_GALLERY:08X}"}]}))
    return str(path)


def _state(session):
    """What the culling decided: per emitter its viewer distance and whether it draws, and
    the live particle count."""
    w = session.world
    return (sorted((em.handle, round(em.cypt, 6), bool(em.should_draw()))
                   for em in w.pool.row_emitter if em is not None), w.pool.live_count)


def _straight(path, eye, frame):
    s = open_session(None, path, snapshot_every=5)
    s.set_viewer(eye, DOWN)
    s.playback.seek_frame(frame)
    return _state(s)


def test_a_scrub_after_an_orbit_simulates_from_the_snapshot_with_the_eye_now(tmp_path):
    path = _scenario(tmp_path)
    s = open_session(None, path, snapshot_every=5)
    s.set_viewer(FAR, DOWN)
    end = s.playback.total_frames
    s.playback.seek_frame(end)                       # snapshots every 5 frames, eye FAR
    assert s.playback.snapshot_frames[:3] == [0, 5, 10]
    far = _state(s)
    s.set_viewer(NEAR, DOWN)                         # the orbit
    s.playback.seek_frame(0)                         # back to snapshot 0 (made at FAR) ...
    assert s.world.viewer_position == NEAR           # ... which takes the eye now
    s.playback.seek_frame(end)                       # ... and simulates on with it
    near = _straight(path, NEAR, end)
    assert _state(s) == near != far
    assert s.world.viewer_position == NEAR


def test_scrubbing_to_a_snapshot_frame_shows_it_with_the_eye_now(tmp_path):
    path = _scenario(tmp_path)
    s = open_session(None, path, snapshot_every=5)
    s.set_viewer(FAR, DOWN)
    s.playback.seek_frame(20)
    s.set_viewer(NEAR, DOWN)
    s.playback.seek_frame(10)                        # a snapshot frame: no step after it
    cypt = [em.cypt for em in s.world.pool.row_emitter if em is not None]
    assert cypt and all(d < 100.0 for d in cypt)     # distances from NEAR, not FAR


def test_explore_from_a_snapshot_takes_the_eye_now(tmp_path):
    path = _scenario(tmp_path, seconds=2.0)
    s = open_session(None, path, snapshot_every=5, prepass=False)
    s.set_viewer(FAR, DOWN)
    s.playback.seek_frame(10)
    s.set_viewer(NEAR, DOWN)
    seen = []
    s.playback.on_restore = lambda h, orig=s.playback.on_restore: (orig(h),
                                                                   seen.append(h.world))
    s.playback.explore(20)
    assert seen and all(w.viewer_position == NEAR for w in seen)


@pytest.mark.parametrize("forward, heading", [((0.0, 1.0, -0.2), 0.0),
                                              ((1.0, 0.0, 0.0), 90.0),
                                              ((-1.0, 0.0, -1.0), 270.0)])
def test_the_window_passes_its_view_direction_as_the_listener_heading(tmp_path, forward,
                                                                     heading):
    s = open_session(None, _scenario(tmp_path, seconds=0.5))
    s.set_viewer((0.0, -5.0, 2.0), forward)
    assert s.world.sound.listener_heading == pytest.approx(heading)
    assert frame_heading(forward) == pytest.approx(heading)
    s.playback.seek_frame(0)
    s.playback.seek_frame(s.playback.total_frames)   # every simulated frame keeps it
    assert s.world.sound.listener_heading == pytest.approx(heading)


def test_snapshots_taken_after_an_orbit_mid_run_are_not_used_for_the_new_eye(tmp_path):
    """Played to frame 12 with the FAR eye, orbited NEAR, played on to the end: the
    snapshots taken on the way hold frames culled partly as of FAR, so a scrub back into
    them re-simulates from a snapshot of NEAR's (frame 0 here) and equals a straight NEAR
    run; the scrub takes the NEAR snapshots it passes again."""
    path = _scenario(tmp_path)
    s = open_session(None, path, snapshot_every=5)
    s.set_viewer(FAR, DOWN)
    s.playback.seek_frame(12)
    s.set_viewer(NEAR, DOWN)
    s.playback.seek_frame(s.playback.total_frames)   # snapshots 15..30 of mixed eyes
    before = s.playback.frames_simulated
    s.playback.seek_frame(22)
    assert s.playback.frames_simulated - before == 22     # from frame 0, not snapshot 20
    assert _state(s) == _straight(path, NEAR, 22)
    before = s.playback.frames_simulated
    s.playback.seek_frame(17)
    assert s.playback.frames_simulated - before == 2      # from snapshot 15, taken again
    assert _state(s) == _straight(path, NEAR, 17)


def test_an_orbit_far_from_every_edge_keeps_the_snapshots(tmp_path):
    """From 10 m, every culling decision is tens of metres from flipping (the world's
    viewer_margin): an orbit of 3 m cannot change one, so the snapshots
    taken before it (and those of the run that went on through it) still serve the new
    eye, and a scrub costs only the frames past the nearest one, showing what a straight
    run with the new eye shows."""
    path = _scenario(tmp_path)
    a, b = (0.0, 1.5, 10.0), (3.0, 1.5, 10.0)
    s = open_session(None, path, snapshot_every=5)
    s.set_viewer(a, DOWN)
    s.playback.seek_frame(12)
    assert 10.0 < s.world.viewer_margin < 100.0
    s.set_viewer(b, DOWN)                            # orbit mid-run
    s.playback.seek_frame(s.playback.total_frames)
    before = s.playback.frames_simulated
    s.playback.seek_frame(22)
    assert s.playback.frames_simulated - before == 2      # from snapshot 20
    assert _state(s) == _straight(path, b, 22)
    before = s.playback.frames_simulated
    s.playback.seek_frame(8)
    assert s.playback.frames_simulated - before == 3      # from snapshot 5 (made at a)
    assert _state(s) == _straight(path, b, 8)


def test_scrubbing_the_gallery_back_to_the_start_replays_the_same_particles():
    """RunnerHandle.restore presizes the restored pool (ParticlePool.presize): a scrub
    back to frame 0 and forward again gives the straight run's particles and draws."""
    s = open_session(None, str(S.ASSETS_DIR / "gallery.scenario.json"))
    pb = s.playback
    pb.seek_frame(40)
    pool = s.world.pool
    straight = (pool.capacity, pool.alive.copy(), pool.state[pool.alive].tobytes(),
                s.world.rng.state())
    pb.seek_frame(0)
    assert s.world.pool.capacity == straight[0]
    pb.seek_frame(40)
    pool = s.world.pool
    assert (pool.alive == straight[1]).all() and pool.alive.any()
    assert pool.state[pool.alive].tobytes() == straight[2]
    assert s.world.rng.state() == straight[3]
