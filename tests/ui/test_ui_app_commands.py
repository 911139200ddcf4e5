"""App-level commands on a headless viewer: the screenshot button, loading a scenario and
opening a DAT (each replaces the session), and a bad file going to the error panel. As in
the window (``job_budget`` set), opening a DAT reads its directory in a worker thread with
progress and Cancel while the frames go on; Cancel keeps the DATs shown before, a damaged
directory is an Errors entry with file and offset; at startup the same, once the window
draws."""

from __future__ import annotations

import json

import pytest
import ui_fixtures as F
from imagecheck import load_png
from imgui_bundle import imgui

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


def _big_dat(path, n=3000) -> str:
    """The test library plus ``n`` filler files (our DAT writer): a directory of ~50 leaf
    nodes, read in that many progress steps."""
    from viewer.dat import records as R
    from viewer.dat.writer import build_dat

    recs = {did: R.encode(rec) for did, rec in F.records().items()}
    recs.update({0x78000000 + i: bytes([i & 0xFF]) * 4 for i in range(n)})   # no type
    path.write_bytes(build_dat(recs))
    return str(path)


@pytest.fixture
def gated_index(monkeypatch):
    """AssetDatabase.read_index held at its first progress step until ``gate`` is set;
    ``started`` is set once it got there; ``dbs`` lists the databases read."""
    import threading
    import types

    from viewer.dat.database import AssetDatabase

    g = types.SimpleNamespace(gate=threading.Event(), started=threading.Event(), dbs=[])
    original = AssetDatabase.read_index

    def read_index(self, progress=None):
        g.dbs.append(self)

        def held(fraction, entries):
            progress(fraction, entries)
            g.started.set()
            g.gate.wait(10)
        return original(self, held)
    monkeypatch.setattr(AssetDatabase, "read_index", read_index)
    return g


def _until_idle(app, limit=400):
    for _ in range(limit):
        frame(app)
        if app.job is None and not app.controller.view.export_requests:
            return
    raise AssertionError("the open never ended")


def test_open_dat_in_the_window_reads_its_directory_in_a_worker_with_progress_and_cancel(
        app, tmp_path, gated_index):
    first = F.write_dat(tmp_path / "first.dat")
    assert app.controller.apply(c.OpenDat((first,)))   # headless: at once
    before = app.session
    app.job_budget = 0.0          # as the window: the frame loop never waits for the work
    big = _big_dat(tmp_path / "big.dat")
    assert app.controller.apply(c.OpenDat((big,)))
    assert app.session is before
    frame(app)                    # the open starts after the frame
    assert gated_index.started.wait(10)
    shown = app.frame_count
    frame(app, 3)                 # the window keeps drawing: progress bar and Cancel
    assert app.frame_count == shown + 3 and app.session is before
    assert app.job is not None and 0.0 < app.job.fraction < 1.0
    assert "files" in app.job.status
    assert imgui.internal.find_window_by_name("Working###job").active
    job = app.job
    app.cancel_job()              # Cancel (or Esc)
    gated_index.gate.set()
    job._thread.join(10)          # the worker stops at its next progress step
    _until_idle(app)
    assert app.session is before and app.recent.items == [first]
    assert all(f._mm is None for f in gated_index.dbs[0].collection.files)   # closed
    assert not app.errors.entries
    # again, to the end: the new DAT is shown, its directory read once and kept
    assert app.controller.apply(c.OpenDat((big,)))
    _until_idle(app)
    assert app.session is not before and app.session.dat_paths == [big]
    assert app.recent.items[0] == big
    assert app.session.db.collection._dids is not None
    assert len(app.session.db.dids(0x78)) == 3000


def test_a_corrupt_directory_goes_to_the_errors_panel_with_file_and_offset(app, tmp_path):
    from viewer.dat.container import DatFile

    big = tmp_path / "bad.dat"
    _big_dat(big)
    f = DatFile(str(big))
    child = f._node(f.header.btree_root).branches[0]
    f.close()
    data = bytearray(big.read_bytes())
    data[child + 4 + 248:child + 4 + 252] = (99).to_bytes(4, "little")   # entry count
    big.write_bytes(bytes(data))
    first = F.write_dat(tmp_path / "first.dat")
    assert app.controller.apply(c.OpenDat((first,)))
    before = app.session
    app.job_budget = 0.0
    assert app.controller.apply(c.OpenDat((str(big),)))
    _until_idle(app)
    assert app.session is before
    [entry] = app.errors.entries
    assert entry.kind == "DatError" and entry.file == str(big) and entry.offset == child
    assert f"offset {child} (0x{child:X})" in entry.line()


def test_startup_reads_the_directory_once_the_window_shows(gl_ctx, tmp_path, gated_index):
    # vfxviewer open DAT: the DAT is opened (bad input: exit 1) before the window, its
    # directory read as long work once the window draws; Cancel leaves nothing loaded
    from viewer.ui.session import plan_session

    big = _big_dat(tmp_path / "big.dat")
    for cancel in (True, False):
        gated_index.gate.clear()
        gated_index.started.clear()
        a = ViewerApp(gl_ctx, display_size=SIZE)
        a.test_target = OffscreenTarget(gl_ctx, SIZE)
        try:
            a.job_budget = 0.0
            plan = plan_session(big)
            db = plan.open_database()
            a.open_later(plan, "startup", None, db=db, play=True)
            frame(a)
            assert gated_index.started.wait(10)
            frame(a, 2)
            assert a.session is None and a.job is not None
            job = a.job
            if cancel:
                a.cancel_job()
            gated_index.gate.set()
            job._thread.join(10)
            _until_idle(a)
            if cancel:
                assert a.session is None and db.collection.files[0]._mm is None
            else:
                assert a.session.db is db and a.session.playback.playing
        finally:
            a.release()
            a.test_target.release()
