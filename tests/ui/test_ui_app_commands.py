"""App-level commands on a headless viewer: the screenshot button, loading a scenario and
opening a DAT (each replaces the session), and a bad file going to the error panel."""

from __future__ import annotations

import json

import pytest
import ui_fixtures as F
from imagecheck import load_png

from viewer.app import ViewerApp
from viewer.render.framebuffer import OffscreenTarget
from viewer.ui import commands as c

SIZE = (360, 240)


@pytest.fixture
def app(gl_ctx, tmp_path):
    a = ViewerApp(gl_ctx, display_size=SIZE, ini_path=tmp_path / "cfg" / "imgui.ini")
    a.test_target = OffscreenTarget(gl_ctx, SIZE)
    yield a
    a.release()
    a.test_target.release()


def frame(app, n=1):
    for _ in range(n):
        app.frame(1 / 60, SIZE, app.test_target.fbo)


def test_screenshot_button_saves_the_whole_viewer(app, tmp_path):
    frame(app, 2)
    out = tmp_path / "shots" / "v.png"
    app.controller.apply(c.TakeScreenshot(str(out)))
    frame(app)
    img = load_png(out)
    assert img.shape == (SIZE[1], SIZE[0], 4) and (img[..., 3] == 255).all()
    assert app.camera_state.last_screenshot == str(out)


def test_load_scenario_then_open_dat_replace_the_session(app, tmp_path):
    dat = F.write_dat(tmp_path / "fx.dat")
    sc = dict(F.scenario_json(), dat=["fx.dat"])
    (tmp_path / "s.json").write_text(json.dumps(sc))
    assert app.controller.apply(c.LoadScenario(str(tmp_path / "s.json")))
    frame(app)
    assert app.session is not None and sorted(app.session.world.objects) == [1]
    assert app.session.tracks.markers
    assert app.controller.apply(c.OpenDat((dat,)))
    frame(app)
    assert app.session.scenario.objects == [] and app.session.dat_paths == [dat]
    assert app.recent.items == [dat]
    assert (tmp_path / "cfg" / "recent.json").is_file()
    app.controller.apply(c.LoadSetup(F.SETUP, F.TABLE))
    frame(app)
    assert sorted(app.session.world.objects) == [1]


def test_bad_files_go_to_the_error_panel(app, tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    assert not app.controller.apply(c.LoadScenario(str(tmp_path / "bad.json")))
    assert not app.controller.apply(c.OpenDat((str(tmp_path / "missing.dat"),)))
    (tmp_path / "junk.dat").write_bytes(b"\0" * 100)
    assert not app.controller.apply(c.OpenDat((str(tmp_path / "junk.dat"),)))
    frame(app)
    kinds = [e.kind for e in app.errors.entries]
    assert kinds[:2] == ["ScenarioError", "ScenarioError"] and len(kinds) == 3
    assert "bad.json" in app.errors.entries[0].line()
    assert "junk.dat" in app.errors.entries[2].line()


def test_open_several_dats_at_once(app, tmp_path):
    a = F.write_dat(tmp_path / "a.dat")
    b = F.write_dat(tmp_path / "b.dat")
    assert app.controller.apply(c.OpenDat((a, b)))
    assert app.session.dat_paths == [a, b]
    assert app.recent.items[:2] == [b, a]


def test_scene_renderer_shares_the_viewer_grid_and_paused_playback_comes_back(app, tmp_path):
    from viewer.app import paused_playback

    F.write_dat(tmp_path / "fx.dat")
    (tmp_path / "s.json").write_text(json.dumps(dict(F.scenario_json(), dat=["fx.dat"])))
    assert app.controller.apply(c.LoadScenario(str(tmp_path / "s.json")))
    frame(app)
    assert app.scene_renderer is not None and app.scene_renderer.grid is app.grid
    pb = app.session.playback
    pb.seek_frame(2)
    pb.playing = True
    with paused_playback(pb):
        assert not pb.playing
        pb.seek_frame(pb.total_frames)
    assert pb.frame == 2 and pb.playing
