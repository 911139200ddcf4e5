"""View > Particle colour and the velocity overlay (emitter debugging): view settings that
change the drawn pixels and never the simulation: the scenario's trace is byte-identical
with them on, and mode "none" draws exactly what the view drew before."""

from __future__ import annotations

import numpy as np
import ui_fixtures as F

from viewer.commands.trace import trace_lines
from viewer.render.framebuffer import OffscreenTarget
from viewer.render.renderer import RenderSettings
from viewer.render.world_adapter import build_scene_input
from viewer.sim.inspect import live_emitters
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.session import Session

SIZE = (480, 320)


def _session():
    return Session(F.database(), Scenario.from_json(F.scenario_json()))


def _trace() -> list[str]:
    """The scenario's trace with particles, from a fresh run."""
    out: list[str] = []
    trace_lines(Scenario.from_json(F.scenario_json()), F.database(), particles=True,
                out=out.append)
    return out


def test_particle_colour_and_velocities_change_pixels_never_the_trace(gl_ctx):
    before = _trace()
    with F.headless_app(gl_ctx, _session(), SIZE) as (app, target):
        app.controller.apply(c.Seek(0.5))
        stats = app.session.stats()

        def view():
            return F.settled_view(app, target)

        plain = view()
        assert np.array_equal(view(), plain)
        app.particle_colour = "emitter"
        tinted = view()
        assert F.changed_pixels(tinted, plain) > 20
        app.particle_colour = "none"
        assert np.array_equal(view(), plain)         # "none": exactly the plain view
        em = live_emitters(app.session.world)[0]
        app.controller.apply(c.Select("emitter", em.handle))
        selected = view()
        app.overlays["show_velocities"] = True
        assert app.scene_view.selected_velocities().shape == (em.alive, 2, 3)
        assert F.changed_pixels(view(), selected) > 20
        assert app.session.stats() == stats and app.errors.entries == []
    assert _trace() == before and len(before) > 10


def test_a_colour_mode_draws_through_the_cpu_path(gl_ctx):
    """With a colour mode the scene carries tinted CPU arrays, not a GPU snapshot, and a
    snapshot handed over anyway is evaluated on the CPU with the tints."""
    from viewer.render.camera import Camera
    from viewer.render.renderer import SceneRenderer
    s = _session()
    s.apply(c.Seek(0.5))
    scene = build_scene_input(s.world, gpu_particles=True, particle_colour="age")
    assert scene.particle_snapshot is None and scene.particles.tints is not None
    snap_scene = build_scene_input(s.world, gpu_particles=True)
    assert snap_scene.particle_snapshot is not None
    r = SceneRenderer(gl_ctx, F.database(), RenderSettings(gpu_particles=True,
                                                           particle_colour="type"))
    target = OffscreenTarget(gl_ctx, (64, 48))
    try:
        info = r.render(snap_scene, Camera(), target)
        assert info["particles_drawn"] > 0 and r.particles.tinted
    finally:
        r.release()
        target.release()


def test_particle_bounds_box_each_emitters_live_particles():
    from viewer.render.particle_debug import particle_bounds
    s = _session()
    s.apply(c.Seek(0.5))
    live = [em for em in live_emitters(s.world, with_particles=True) if em.particles]
    assert live
    pool = s.world.pool
    boxes = particle_bounds(pool)
    assert boxes.shape == (len(live), 2, 3)
    for em in live:
        pts = np.array([p.position for p in em.particles])
        want = np.stack([pts.min(axis=0), pts.max(axis=0)])
        assert any(np.allclose(b, want, atol=1e-5) for b in boxes), em.handle
    row = next(r for r, e in enumerate(pool.row_emitter)
               if e is not None and e.handle == live[0].handle)
    assert particle_bounds(pool, [row]).shape == (1, 2, 3)
    assert particle_bounds(pool, [len(pool.row_emitter) + 5]).shape == (0, 2, 3)


def test_particle_bounds_overlay_changes_pixels_never_the_trace(gl_ctx):
    """View > Overlays > Particle bounds: every emitter's box, or the selected one's;
    view-only (the trace and the session's figures stay as they were)."""
    before = _trace()
    with F.headless_app(gl_ctx, _session(), SIZE) as (app, target):
        app.controller.apply(c.Seek(0.5))
        stats = app.session.stats()
        plain = F.settled_view(app, target)
        app.overlays["show_particle_bounds"] = True
        every = F.settled_view(app, target)
        assert F.changed_pixels(every, plain) > 20
        n_all = len(app.scene_view.particle_boxes())
        em = next(e for e in live_emitters(app.session.world) if e.alive)
        app.controller.apply(c.Select("emitter", em.handle))
        assert len(app.scene_view.particle_boxes()) == 1 <= n_all
        app.overlays["show_particle_bounds"] = False
        assert np.array_equal(F.settled_view(app, target), plain)   # off: the plain view
        assert app.session.stats() == stats and app.errors.entries == []
    assert _trace() == before and len(before) > 10
