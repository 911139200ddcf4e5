"""The viewport's MAD / SSIM while it plays (issue 18): the 3D view is read back through a
pixel buffer issued in its frame and fetched a frame later, the worker measures one frame at
a time and rests while playing, and every figure still names the frame it was measured on
and equals the synchronous measure of that frame. Counted and compared, never timed."""

from __future__ import annotations

import os
import sys
import threading

import numpy as np
import pytest
import ui_fixtures as F
from PIL import Image

from viewer.render.framebuffer import OffscreenTarget, PixelReadback
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui import compare_panel
from viewer.ui.compare_panel import CompareModel, panel_view
from viewer.ui.session import Session

SIZE = (420, 260)


@pytest.fixture(scope="module")
def rec(tmp_path_factory):
    """A recording whose picture changes every frame (a bar moving right)."""
    folder = tmp_path_factory.mktemp("rec")
    for k in range(40):
        img = np.zeros((90, 160, 3), np.uint8)
        img[:] = (200, 40, 160)
        img[30:60, 3 * k:3 * k + 20] = (250, 250, 250)
        Image.fromarray(img).save(folder / f"f{k:03d}.png")
    return folder


@pytest.fixture
def model(rec):
    m = CompareModel()
    m.load(str(rec), 30.0)
    yield m
    m.collect(wait=True)


def test_pixel_readback_gives_the_view_as_it_was_when_issued(gl_ctx):
    target = OffscreenTarget(gl_ctx, (9, 5))
    rb = PixelReadback(gl_ctx)
    try:
        target.clear((1.0, 0.0, 0.0, 1.0))
        gl_ctx.scissor = (0, 3, 4, 2)          # the top-left corner: rows order shows
        target.clear((0.0, 0.0, 1.0, 1.0))
        gl_ctx.scissor = None
        want = target.read_rgba()
        assert not rb.pending
        rb.issue(target.fbo, target.size)
        assert rb.pending
        target.clear((0.0, 1.0, 0.0, 1.0))     # drawn over after the issue
        got = rb.fetch()
        assert not rb.pending
        assert got.shape == (5, 9, 4) and np.array_equal(got, want)
        assert tuple(got[0, 0, :3]) == (0, 0, 255)
        with pytest.raises(RuntimeError):
            rb.fetch()
    finally:
        rb.release()
        target.release()


def test_measure_after_fetches_at_the_next_collect_and_drops_a_stale_read(model, rec):
    img = np.zeros((36, 64, 4), np.uint8)
    img[5:20, 10:30] = 255
    fetched = []

    def fetch():
        fetched.append(1)
        return img[::-1][::-1]           # a view, as PixelReadback.fetch gives
    model.measure_after(3, 3 / 30, fetch)
    assert fetched == [] and model.measuring
    assert not model.wants_measure(4, playing=True)    # a read-back on its way
    model.collect(wait=True)
    assert fetched == [1]
    sync = CompareModel()
    sync.load(str(rec), 30.0)
    assert model.figures[3] == (3 / 30, *sync.measure(3, 3 / 30, img))
    model.measure_after(4, 4 / 30, fetch)
    model.set_offset(0.1)                # the settings changed before it was fetched
    model.collect(wait=True)
    assert fetched == [1, 1] and 4 not in model.figures
    model.measure_after(5, 5 / 30, fetch)
    model.forget_reading()               # its buffer went away: nothing fetched
    model.collect(wait=True)
    assert fetched == [1, 1] and 5 not in model.figures


def test_playing_measures_one_frame_at_a_time_and_rests(model, monkeypatch):
    """While playing, a frame shown while another is measured is left out, and after a
    measure the worker rests (1 / PLAYING_SHARE - 1) times the CPU it took; paused or
    stepping, every frame shown is measured."""
    go = threading.Event()
    cpu = {"s": 1000.0}

    def job(track, t, rendered):
        go.wait(30)
        return {"mad": 1.0, "ssim": 0.5}, cpu["s"], compare_panel.time.perf_counter()
    monkeypatch.setattr(compare_panel, "_measure_job", job)
    img = np.zeros((36, 64, 3), np.uint8)
    assert model.wants_measure(1, playing=True)
    model.measure_later(1, 1 / 30, img)
    assert not model.wants_measure(1, playing=False)    # measuring it already
    assert not model.wants_measure(2, playing=True)     # busy: left out
    assert model.wants_measure(2, playing=False)        # stepping: queued
    go.set()
    model.collect(wait=True)
    assert model.figures[1] == (1 / 30, 1.0, 0.5)
    assert not model.wants_measure(2, playing=True)     # resting after 1000 s of CPU
    assert model.wants_measure(2, playing=False)
    model._rest_until = 0.0
    cpu["s"] = 0.0
    model.measure_later(2, 2 / 30, img)
    model.collect(wait=True)
    assert model.wants_measure(3, playing=True)         # a free CPU-less measure: no rest


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice: Linux")
def test_the_figures_worker_runs_below_the_frames_priority(model, monkeypatch):
    def job(track, t, rendered):
        nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        return {"mad": float(nice), "ssim": 0.0}, 0.0, 0.0
    monkeypatch.setattr(compare_panel, "_measure_job", job)
    model.measure_later(1, 1 / 30, np.zeros((4, 4, 3), np.uint8))
    model.collect(wait=True)
    here = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert model.figures[1][1] == min(here + compare_panel.WORKER_NICE, 19)


@pytest.mark.parametrize("mode", ["overlay", "side_by_side"])
def test_playing_figures_name_their_frame_and_equal_the_synchronous_measure(
        gl_ctx, rec, mode):
    """Figures measured while playing (read back a frame later, some frames left out)
    are, frame by frame, what measuring that frame's view synchronously gives."""
    session = Session(F.database(), Scenario.from_json(F.scenario_json(seconds=1.0)))
    with F.headless_app(gl_ctx, session, SIZE) as (app, target):
        app.only_panel = "Viewport"
        app.controller.apply_all([c.CameraZoom(6), c.LoadReference(str(rec), 30.0),
                                  c.SetCompareMode(mode)])
        for _ in range(2):                   # the layout settles: the view keeps its size
            app.frame(1 / 30, SIZE, target.fbo)
        cmp = app.controller.view.compare
        cmp.collect(wait=True)
        cmp.figures.clear()
        cmp._rest_until = 0.0
        app.controller.apply(c.Play())
        issued = []
        real_after = cmp.measure_after

        def after(frame, t, fetch, view=None):
            issued.append(frame)
            real_after(frame, t, fetch, view)
        cmp.measure_after = after
        for _ in range(16):
            app.frame(1 / 30, SIZE, target.fbo)
        cmp.collect(wait=True)
        figs = dict(cmp.figures)
        assert figs and set(figs) <= set(issued)
        assert len(issued) == len(set(issued))           # each frame read back once
        app.controller.apply(c.Pause())
        sync = CompareModel()
        sync.load(str(rec), 30.0)
        pb = session.playback
        for frame, (t, mad, ssim) in sorted(figs.items()):
            pb.seek_frame(frame)
            app.frame(1 / 30, SIZE, target.fbo)        # paused: the same frame drawn
            assert pb.frame == frame and t == pytest.approx(pb.time, abs=1e-12)
            assert (mad, ssim) == sync.measure(frame, pb.time, app.viewport.read_rgba())
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]


def _shown_figures(app):
    """The Reference panel's figures of the shown frame (None: not measured as drawn)."""
    s = app.session
    return panel_view(app.controller.view.compare, s.playback.time, s.playback.frame,
                      view=app.scene_view.view_tag()).current


def test_paused_the_shown_frame_is_measured_exactly_as_drawn_now(gl_ctx, rec):
    """Paused, the shown frame's figures are those of its image as drawn now: the first
    frames draw the view at its default size until the layout gives it the panel's, and a
    camera move draws it anew; each time the frame is measured again, and the panel never
    shows the figures of the earlier image meanwhile."""
    session = Session(F.database(), Scenario.from_json(F.scenario_json(seconds=1.0)))
    with F.headless_app(gl_ctx, session, SIZE) as (app, target):
        app.only_panel = "Viewport"
        app.controller.apply_all([c.CameraZoom(6), c.LoadReference(str(rec), 30.0),
                                  c.SetCompareMode("difference"), c.Seek(0.4)])
        cmp = app.controller.view.compare
        pb = session.playback
        sync = CompareModel()
        sync.load(str(rec), 30.0)
        sizes = set()
        for k, move in enumerate((None, c.CameraOrbit(0.3, 0.1), c.CameraOrbit(-0.3, 0.0))):
            if move is not None:
                app.controller.apply(move)
            shown = []
            for _ in range(12):
                app.frame(1 / 30, SIZE, target.fbo)
                sizes.add(app.viewport.size)
                cmp.collect(wait=True)
                now = _shown_figures(app)
                if now is not None:           # never the figures of an earlier image
                    image = app.viewport.read_rgba()
                    assert now == sync.measure(pb.frame, pb.time, image, view=(k, len(shown)))
                    shown.append(now)
            assert shown, move                # measured again within a few frames
            assert pb.frame == 12 and not pb.playing
        assert len(sizes) == 2                # the default size first, then the panel's


def test_another_session_never_shows_the_figures_measured_on_the_last_one(gl_ctx, rec):
    """A session opened in place of another (same scenario, same frame, same camera)
    draws other pictures: the figures of the last session's frames are not its figures."""
    def fresh():
        return Session(F.database(), Scenario.from_json(F.scenario_json(seconds=1.0)))
    with F.headless_app(gl_ctx, fresh(), SIZE) as (app, target):
        app.only_panel = "Viewport"
        app.controller.apply_all([c.CameraZoom(6), c.LoadReference(str(rec), 30.0),
                                  c.SetCompareMode("overlay")])
        for _ in range(4):
            app.frame(1 / 30, SIZE, target.fbo)
            app.controller.view.compare.collect(wait=True)
        assert _shown_figures(app) is not None
        app.session = fresh()
        assert app.session.generation == 1 and app.session.playback.frame == 0
        assert _shown_figures(app) is None


@pytest.mark.parametrize("change", ["none", "opacity", "camera", "offset", "mode", "seek"])
def test_paused_the_composite_is_drawn_again_only_when_what_it_shows_changed(
        gl_ctx, rec, monkeypatch, change):
    from viewer.render import composite
    session = Session(F.database(), Scenario.from_json(F.scenario_json(seconds=1.0)))
    with F.headless_app(gl_ctx, session, SIZE) as (app, target):
        app.only_panel = "Viewport"
        app.controller.apply_all([c.CameraZoom(6), c.LoadReference(str(rec), 30.0),
                                  c.SetCompareMode("overlay"), c.Seek(0.4)])
        if app.scene_view.composite_pass() is None:
            pytest.skip("no GLSL 4.00: the numpy composite")
        for _ in range(4):
            app.frame(1 / 30, SIZE, target.fbo)
        calls = F.count_calls(monkeypatch, composite.CompositePass, "compose")
        app.frame(1 / 30, SIZE, target.fbo)
        assert calls == []
        cmd = {"none": None, "opacity": c.SetCompareOpacity(0.8),
               "camera": c.CameraOrbit(0.2, 0.0), "offset": c.SetReferenceOffset(0.1),
               "mode": c.SetCompareMode("wipe"), "seek": c.Step(1)}[change]
        if cmd is not None:
            assert app.controller.apply(cmd)
        for _ in range(3):
            app.frame(1 / 30, SIZE, target.fbo)
        assert len(calls) == (change != "none")
        assert app.errors.entries == []
        tex = app.compare_texture                   # what composing it now gives
        kept = tex.read(alignment=1)
        app.scene_view._composed = None
        app.frame(1 / 30, SIZE, target.fbo)
        assert app.compare_texture.read(alignment=1) == kept
