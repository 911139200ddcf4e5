"""One distance-culling rule for every drawing path: the window (ViewerApp's 3D view) and
``vfxviewer render`` both give the runtime their camera's eye after each simulated frame
(``World.set_viewer``), so an emitter at the 100 m edge (ParticleEmitter degrade distance,
CPhysicsObj::UpdateViewerDistance 0x00510B30) is culled, or drawn, the same way in both."""

from __future__ import annotations

import json

import numpy as np
import pytest

from viewer import synthetic as S
from viewer.commands.render import build_parser_args, make_camera, render_frames
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.world_adapter import build_scene_input
from viewer.sim.scenario import Scenario

SIZE = (96, 64)


def _scenario(tmp_path):
    path = tmp_path / "edge.json"
    path.write_text(json.dumps({
        "dat": [str(S.SYNTHETIC_DAT)], "seed": 3, "fps": 30, "seconds": 0.5,
        "objects": [{"id": 1, "setup": f"0x{S.SETUP_MARKER:08X}",
                     "table": f"0x{S.PST_FLAME:08X}", "state": "0x00000000"}],
        "events": [{"t": 0.0, "object": 1,
                    "play_script": f"0x{S.PES_EMITTER_GALLERY:08X}"}]}))
    return path


def _args(path, eye):
    return build_parser_args(["--scenario", str(path), "--out", "x.png", "--size",
                              f"{SIZE[0]}x{SIZE[1]}", "--camera", ",".join(map(str, eye)),
                              "--target", "0,1.5,0", "--fov", "3", "--transparent"])


def _culling(world):
    """Per live emitter: its viewer distance, degrade distance and whether it is drawn."""
    return sorted((em.handle, round(em.cypt, 9), em.degrade_distance, bool(em.should_draw()))
                  for em in world.pool.row_emitter if em is not None)


def _both_paths(gl_ctx, path, distance):
    """(window image, render image, window culling, render culling, window particles, the
    session's viewer eye) for the camera straight above at ``distance``."""
    from viewer.app import ViewerApp
    from viewer.ui.commands import Seek
    from viewer.ui.session import open_session

    args = _args(path, (0.0, 1.5, distance))
    sc = Scenario.load(path)
    shots, states = [], []
    render_frames(sc, args, gl_ctx, shots.append, wants=lambda last: last,
                  on_world=lambda t, w: states.append(_culling(w)))
    session = open_session(None, str(path))
    app = ViewerApp(gl_ctx, display_size=(320, 240), ini_path=None, session=session)
    target = OffscreenTarget(gl_ctx, SIZE)
    try:
        app.controller.view.camera = make_camera(args, session.world)
        app.controller.apply(Seek(sc.seconds))
        app.scene_view.draw(target, transparent=True)   # the window's 3D view, one drawn frame
        shown = target.read_rgba()
        window_state = _culling(session.world)
        particles = build_scene_input(session.world).particles
    finally:
        target.release()
        app.release()
    return shown, shots[-1], window_state, states[-1], particles, session.viewer_eye


def test_window_and_render_cull_at_the_100m_edge_alike(gl_ctx, tmp_path):
    """The gallery's twelve emitters lie within 2.25 m x 1.5 m of (0, 1.5, 0): seen from
    straight above at 99.9 m every one is nearer than 100 m, at 100.1 m every one is
    farther. Both paths give the same culling, particles and pixels on each side."""
    path = _scenario(tmp_path)
    images = {}
    for distance in (99.9, 100.1):
        shown, rendered, window_state, render_state, particles, eye = _both_paths(
            gl_ctx, path, distance)
        assert eye == pytest.approx((0.0, 1.5, distance))
        assert window_state and window_state == render_state
        drawn = distance < 100.0
        assert all(d == (cypt <= degrade) for _, cypt, degrade, d in window_state)
        edge = [d for _, _, degrade, d in window_state if degrade == 100.0]
        assert edge and all(d == drawn for d in edge)   # the 100 m emitters flip at the edge
        assert (len(particles.positions) > 0) == drawn
        assert np.array_equal(shown, rendered)
        images[distance] = shown
    assert not np.array_equal(images[99.9], images[100.1]), "the edge changes the picture"


def test_window_and_render_give_the_sound_listener_the_same_heading(gl_ctx, tmp_path):
    """The window passes its camera's view direction with the eye (Session.set_viewer), as
    render does: the listener's heading (Frame::get_heading 0x00535760, the pan of
    PlaySoundInternal 0x00550170) is the camera's, not 0."""
    from viewer.app import ViewerApp
    from viewer.sim.sound import frame_heading
    from viewer.ui.session import open_session

    path = _scenario(tmp_path)
    args = _args(path, (8.0, 1.5, 2.0))              # east of the target, looking west
    headings = []
    render_frames(Scenario.load(path), args, gl_ctx, lambda rgba: None,
                  wants=lambda last: last,
                  on_world=lambda t, w: headings.append(w.sound.listener_heading))
    session = open_session(None, str(path))
    app = ViewerApp(gl_ctx, display_size=(320, 240), ini_path=None, session=session)
    target = OffscreenTarget(gl_ctx, SIZE)
    try:
        camera = make_camera(args, session.world)
        app.controller.view.camera = camera
        app.scene_view.draw(target)
        assert session.world.sound.listener_heading == pytest.approx(270.0)
        assert session.world.sound.listener_heading == pytest.approx(headings[-1])
        assert frame_heading(camera.forward()) == pytest.approx(270.0)
    finally:
        target.release()
        app.release()
