"""Solo / mute of emitters and objects (viewer/ui/emitter_filter.py): the renderer gets
only the shown emitters' particles; a view setting that never changes the simulation: the
trace of the scenario is byte-identical with them on, and so is the session's state."""

from __future__ import annotations

import numpy as np
import ui_fixtures as F

from viewer.commands.trace import trace_lines
from viewer.render.world_adapter import build_scene_input
from viewer.sim.inspect import live_emitters
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.emitter_filter import EmitterFilter, filter_particles
from viewer.ui.session import Session

SIZE = (480, 320)


def test_filter_model_solo_and_mute_toggle():
    f = EmitterFilter()
    assert not f.active and f.shows(1, 1)
    f.toggle_solo("emitter", 2)
    assert f.active and f.shows(2, 1) and not f.shows(3, 1)
    f.toggle_solo("emitter", 2)
    assert not f.active
    f.toggle_mute("object", 1)
    assert not f.shows(2, 1) and f.shows(2, 5)
    f.toggle_mute("object", 1)
    assert not f.active


def _session(seconds=2.0):
    return Session(F.database(), Scenario.from_json(F.scenario_json(seconds=seconds)))


def test_solo_and_mute_choose_the_particles_drawn():
    s = _session()
    for _ in range(s.playback.total_frames):   # a frame with both emitters' particles
        s.apply(c.Step(1))
        if sum(em.alive > 0 for em in live_emitters(s.world)) == 2:
            break
    w = s.world
    handles = sorted(em.handle for em in live_emitters(w) if em.alive > 0)
    assert len(handles) == 2
    full = build_scene_input(w).particles
    rows_handle = np.array([-1 if em is None else em.handle for em in w.pool.row_emitter])
    solo = EmitterFilter(solo=("emitter", handles[0]))
    shown = filter_particles(full, w.pool.row_emitter, solo)
    assert 0 < shown.count < full.count
    assert set(rows_handle[shown.emitter]) == {handles[0]}
    mute = EmitterFilter(muted={("emitter", handles[0])})
    hidden = filter_particles(full, w.pool.row_emitter, mute)
    assert hidden.count == full.count - shown.count
    assert filter_particles(full, w.pool.row_emitter,
                            EmitterFilter(muted={("object", 1)})).count == 0


def test_solo_mute_never_change_the_simulation_or_the_trace(gl_ctx):
    sc = Scenario.from_json(F.scenario_json())
    before: list[str] = []
    trace_lines(sc, F.database(), particles=True, out=before.append)
    plain = _session()
    with F.headless_app(gl_ctx, _session(), SIZE) as (app, target):
        app.controller.apply(c.Seek(0.5))
        plain.apply(c.Seek(0.5))
        handle = live_emitters(app.session.world)[0].handle
        app.controller.apply_all([c.ToggleSolo("emitter", handle), c.ToggleMute("object", 1)])
        assert app.controller.view.emitter_filter.active and not app.session.modified
        for _ in range(8):
            app.controller.apply(c.Step(1))
            plain.apply(c.Step(1))
            app.frame(1 / 60, display_size=SIZE, target=target.fbo)
        assert app.errors.entries == []
        s = app.session
        assert s.stats() == plain.stats() and s.events() == plain.events()
        mine, theirs = s.world.pool, plain.world.pool
        assert np.array_equal(mine.position[mine.evaluate()], theirs.position[theirs.evaluate()])
        assert [e.to_json() for e in s.scenario.events] == [
            e.to_json() for e in plain.scenario.events]
    after: list[str] = []
    trace_lines(sc, F.database(), particles=True, out=after.append)
    assert after == before and len(before) > 10


def test_the_selected_emitters_particles_are_highlighted(gl_ctx):
    with F.headless_app(gl_ctx, _session(), SIZE) as (app, target):
        app.controller.apply(c.Seek(0.3))
        em = live_emitters(app.session.world)[0]
        app.controller.apply(c.Select("emitter", em.handle))
        app.frame(1 / 60, display_size=SIZE, target=target.fbo)
        small = [r for r in app.wiring.selection_rings() if r[1] == 3.5]
        assert 0 < len(small) <= em.alive            # (those in front of the camera)


def test_view_overlays_draw_bounds_without_touching_the_simulation(gl_ctx):
    with F.headless_app(gl_ctx, _session(), SIZE) as (app, target):
        app.controller.apply(c.Seek(0.3))
        before = app.session.stats()

        def view():
            return F.settled_view(app, target)

        plain = view()
        app.overlays["show_spheres"] = True
        app.overlays["show_emitter_anchors"] = True
        shown = view()
        assert F.changed_pixels(shown, plain) > 50
        assert app.session.stats() == before and app.errors.entries == []
