"""The emitter debugger's counts over time (viewer/ui/emitter_plot.py): alive and emitted
per emitter recorded from the frames shown, drawn with ImPlot; a view tool that never
changes the simulation."""

from __future__ import annotations

import numpy as np
import ui_fixtures as F
from imgui_bundle import imgui

from viewer.app import ViewerApp
from viewer.render.framebuffer import OffscreenTarget
from viewer.sim.inspect import live_emitters
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.emitter_plot import EmitterCounts, draw_counts_plot
from viewer.ui.session import Session

SIZE = (640, 400)


class Row:
    def __init__(self, handle, alive, emitted):
        self.handle, self.alive, self.emitted = handle, alive, emitted


def test_counts_recorded_per_frame_in_order_and_reset_on_a_new_generation():
    counts = EmitterCounts()
    counts.record(1, 2, 2 / 30, [Row(7, 3, 3)])
    counts.record(1, 0, 0.0, [Row(7, 1, 1)])
    counts.record(1, 2, 2 / 30, [Row(7, 3, 3)])     # the same frame again: one point
    t, alive, emitted = counts.arrays(7)
    assert list(alive) == [1, 3] and list(emitted) == [1, 3] and t[1] == 2 / 30
    assert len(counts.arrays(99)[0]) == 0
    counts.record(2, 0, 0.0, [])                      # an edit: the old counts go
    assert counts.series == {}


def _session():
    return Session(F.database(), Scenario.from_json(F.scenario_json()))


def test_the_app_records_counts_and_the_plot_draws_without_touching_the_simulation(gl_ctx):
    app = ViewerApp(gl_ctx, display_size=SIZE, session=_session())
    app.use_scene_renderer = False
    target = OffscreenTarget(gl_ctx, SIZE)
    plain = _session()
    try:
        for _ in range(6):
            app.controller.apply(c.Step(1))
            plain.apply(c.Step(1))
            app.frame(1 / 60, display_size=SIZE, target=target.fbo)
        s = app.session
        handles = [em.handle for em in live_emitters(s.world)]
        assert handles and len(app.emitter_counts.arrays(handles[0])[0]) >= 1
        # the plot, open, inside a window of its own
        imgui.get_io().display_size = SIZE
        imgui.new_frame()
        imgui.begin("plot test")
        imgui.set_next_item_open(True)
        draw_counts_plot(app.emitter_counts, handles, s.playback.time)
        imgui.end()
        imgui.render()
        # a view tool: the simulation is the one a plain session runs
        assert s.stats() == plain.stats()
        assert s.events() == plain.events()
        assert np.array_equal(s.world.pool.position, plain.world.pool.position)
    finally:
        app.release()
        target.release()


def test_the_timeline_shows_the_counts_on_its_own_time_axis(gl_ctx, monkeypatch):
    """Issue 19: "a plot of alive and emitted counts over time per emitter on the
    timeline": the Timeline draws it above its tracks, x from 0 to the duration, for the
    selected emitter, else every emitter seen."""
    from imgui_bundle import implot

    import viewer.app.panels as app_module

    app = ViewerApp(gl_ctx, display_size=SIZE, session=_session())
    app.use_scene_renderer = False
    target = OffscreenTarget(gl_ctx, SIZE)
    calls = []
    real = app_module.draw_counts_plot

    def spy(counts, handles, now, **kw):
        calls.append((list(handles), kw))
        return real(counts, handles, now, **kw)

    monkeypatch.setattr(app_module, "draw_counts_plot", spy)
    try:
        for _ in range(6):
            app.controller.apply(c.Step(1))
            app.frame(1 / 60, display_size=SIZE, target=target.fbo)
        pb = app.session.playback
        on_timeline = [kw for _, kw in calls if kw.get("title") == "Emitter counts"]
        assert on_timeline and on_timeline[-1]["duration"] == pb.duration
        assert [h for h, kw in calls if kw][-1] == sorted(app.emitter_counts.series)
        em = live_emitters(app.session.world)[0]
        app.controller.apply(c.Select("emitter", em.handle))
        app.frame(1 / 60, display_size=SIZE, target=target.fbo)
        assert [h for h, kw in calls if kw][-1] == [em.handle]
        # drawn open: the x axis is locked to the whole timeline
        limits = []
        monkeypatch.setattr(implot, "setup_axis_limits", lambda *a: limits.append(a))
        imgui.get_io().display_size = SIZE
        for _ in range(2):               # a new window draws its items from its 2nd frame
            imgui.new_frame()
            imgui.set_next_window_size(imgui.ImVec2(400, 300))
            imgui.begin("plot test")
            imgui.set_next_item_open(True)
            real(app.emitter_counts, [em.handle], pb.time, title="Emitter counts",
                 duration=pb.duration)
            imgui.end()
            imgui.render()
        assert limits[-1] == (implot.ImAxis_.x1, 0.0, pb.duration, implot.Cond_.always)
    finally:
        app.release()
        target.release()


def test_another_emitter_refits_the_axes_after_a_zoom(gl_ctx):
    """Issue 28: after the counts plot was zoomed (or fitted to one small emitter),
    selecting another emitter fits the axes to its lines again, never leaving them
    off-plot."""
    counts = EmitterCounts()
    for f in range(30):
        counts.record(1, f, f / 30, [Row(1, 2, 2), Row(2, 40 + f, 60 + f)])
    assert counts.refit("p", [1]) and not counts.refit("p", [1]) and counts.refit("p", [2])
    counts.drawn.clear()

    def draw(handles, frames=3):
        for _ in range(frames):
            imgui.new_frame()
            imgui.set_next_window_size(imgui.ImVec2(400, 300))
            imgui.begin("refit test")
            imgui.set_next_item_open(True)
            draw_counts_plot(counts, handles, 0.5, title="p")
            imgui.end()
            imgui.render()
        return counts.limits["p"]

    app = ViewerApp(gl_ctx, display_size=SIZE)   # an ImGui / ImPlot context to draw in
    imgui.get_io().display_size = SIZE
    try:
        small = draw([1])
        assert small[3] < 10                      # fitted to emitter 1's two particles
        big = draw([2])
        assert big[3] >= 89 and big[2] <= 40      # emitter 2's lines (40..89) all shown
    finally:
        app.release()
