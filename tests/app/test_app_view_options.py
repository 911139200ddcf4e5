"""Camera and view settings (issue 28 item 4): follow the selected object, Frame all,
Reset, the grid / axes / background toggles; none of them changes the simulation or the
saved scenario; a comparison view draws neither grid nor axes (the Difference view no
longer lights the grid up). A loaded Setup is framed and followed as it falls."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from viewer import synthetic as S
from viewer.app import ViewerApp
from viewer.render.camera import Camera
from viewer.render.framebuffer import OffscreenTarget
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.controller import Controller
from viewer.ui.session import Session, open_database, open_session
from viewer.ui.view_options import BACKGROUNDS, ViewOptions


def _empty_session():
    return Session(open_database([str(S.SYNTHETIC_DAT)]),
                   Scenario(seconds=1.0), prepass=False)


def test_a_loaded_setup_is_followed_as_it_falls_and_follow_can_be_switched_off():
    ctl = Controller(session=open_session(prepass=False))
    assert ctl.apply(c.LoadSetup(S.SETUP_BOLT))
    s = ctl.session
    assert ctl.view.options.follow
    centre = s.bounds_of("object", 1)[0]
    assert ctl.view.camera.target == pytest.approx(centre)   # framed
    s.playback.seek_frame(20)                                 # it falls (no floor)
    ctl.follow_selection()
    moved = s.bounds_of("object", 1)[0]
    assert moved[2] < centre[2] - 0.05
    assert ctl.view.camera.target == pytest.approx(moved)
    assert ctl.apply(c.CameraFollow(False))
    s.playback.seek_frame(29)
    ctl.follow_selection()
    assert ctl.view.camera.target == pytest.approx(moved)     # left where it was


def test_frame_all_reset_and_the_layers_are_view_settings_only():
    ctl = Controller(session=open_session(prepass=False))
    s = ctl.session
    saved, events = s.scenario.to_json(), len(s.scenario.events)
    ctl.apply(c.CameraOrbit(40, 10))
    assert ctl.apply(c.CameraFrameAll())
    centre, radius = s.scene_bounds()
    assert ctl.view.camera.target == pytest.approx(centre)
    assert ctl.apply(c.CameraReset())
    assert ctl.view.camera == Camera()
    for cmd in (c.SetViewLayer("grid", False), c.SetViewLayer("axes", False),
                c.SetBackground("white"), c.CameraFollow(True)):
        assert ctl.apply(cmd)
    assert ctl.view.options == ViewOptions(follow=True, grid=False, axes=False,
                                           background="white")
    assert not ctl.apply(c.SetViewLayer("floor", True))
    assert not ctl.apply(c.SetBackground("mauve"))
    assert "no background 'mauve'" in ctl.errors.entries[-1].line()
    # nothing of it is a scenario edit
    assert s.scenario.to_json() == saved and len(s.scenario.events) == events
    assert not s.modified and not s.history.undo_stack


def test_grid_axes_background_toggles_and_no_grid_in_a_comparison(gl_ctx, tmp_path):
    app = ViewerApp(gl_ctx, display_size=(320, 240), session=_empty_session())
    target = OffscreenTarget(gl_ctx, (96, 72))
    ctl = app.controller
    try:
        def drawn():
            app.scene_view.draw(target)
            return target.read_rgba()[..., :3].astype(int)

        def off_background(img, name="dark"):
            bg = np.round(np.array(BACKGROUNDS[name][:3]) * 255)
            return int((np.abs(img - bg).sum(axis=-1) > 3).sum())

        full = off_background(drawn())
        assert full > 200                                # grid and axes
        ctl.apply(c.SetViewLayer("grid", False))
        axes = off_background(drawn())
        assert 0 < axes < full / 2                       # the axes alone
        ctl.apply(c.SetViewLayer("axes", False))
        assert off_background(drawn()) == 0
        ctl.apply(c.SetBackground("white"))
        assert off_background(drawn(), "white") == 0
        # a comparison (Difference) view: the grid and axes on, yet not drawn
        ctl.apply(c.SetBackground("dark"))
        ctl.apply(c.SetViewLayer("grid", True))
        ctl.apply(c.SetViewLayer("axes", True))
        rec = tmp_path / "rec"
        rec.mkdir()
        for k in range(3):
            Image.fromarray(np.zeros((72, 96, 3), np.uint8)).save(rec / f"f{k:03d}.png")
        assert ctl.apply(c.LoadReference(str(rec), 30.0))
        assert ctl.apply(c.SetCompareMode("difference"))
        assert off_background(drawn()) == 0
        assert ctl.apply(c.SetCompareMode("off"))
        assert off_background(drawn()) == full
    finally:
        app.release()
        target.release()
