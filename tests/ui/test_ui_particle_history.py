"""The selected particle's attributes over its life (issue 28, item 6): read through
viewer.sim.inspect from its birth state and its law, agreeing with the pool's own
evaluation now, never changing the simulation; drawn under the Emitters panel."""

from __future__ import annotations

import numpy as np
import ui_fixtures as F

from viewer.sim.inspect import live_emitters, particle_history
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.session import Session


def _session():
    return Session(F.database(), Scenario.from_json(F.scenario_json()))


def test_history_agrees_with_the_pool_now_and_changes_nothing():
    s = _session()
    plain = _session()
    s.apply(c.Seek(0.6))
    plain.apply(c.Seek(0.6))
    em = next(e for e in live_emitters(s.world, with_particles=True) if len(e.particles) > 2)
    p = em.particles[1]
    pool = s.world.pool
    before = {name: getattr(pool, name).copy() for name in
              ("state", "position", "scale", "trans", "lifetime", "orientation")}
    hist = particle_history(s.world, em.handle, p.slot, samples=2049)
    for name, arr in before.items():
        assert np.array_equal(arr, getattr(pool, name)), name
    assert hist.t[0] == 0.0 and hist.t[-1] == hist.lifespan == p.lifespan
    assert abs(hist.age - p.age) < 1e-9
    at_now = [np.interp(p.age, hist.t, hist.position[:, k]) for k in range(3)]
    assert np.allclose(at_now, p.position, atol=1e-4)
    assert abs(np.interp(p.age, hist.t, hist.scale) - p.scale) < 1e-5
    assert abs(np.interp(p.age, hist.t, hist.alpha) - (1.0 - p.translucency)) < 1e-5
    # the velocity is the position's rate of change (here the emitter's 1 m/s upwards)
    for k in range(3):
        assert np.allclose(np.gradient(hist.position[:, k], hist.t)[1:-1],
                           hist.velocity[1:-1, k], atol=1e-3)
    assert abs(hist.velocity[0, 2] - 1.0) < 0.2
    assert particle_history(s.world, em.handle, 9999) is None
    s.apply(c.Step(3))
    plain.apply(c.Step(3))
    assert s.events() == plain.events() and s.stats() == plain.stats()


def test_the_plot_draws_under_the_particle_table(gl_ctx, monkeypatch):
    import viewer.app.panels as panels

    drawn = []
    real = panels.draw_particle_history
    monkeypatch.setattr(panels, "draw_particle_history",
                        lambda world, key: drawn.append(key) or real(world, key))
    s = _session()
    with F.headless_app(gl_ctx, s, (700, 900)) as (app, target):
        app.controller.apply(c.Seek(0.6))
        em = next(e for e in live_emitters(s.world, with_particles=True) if e.particles)
        key = (em.handle, em.particles[0].slot)
        app.controller.apply(c.Select("particle", key))
        app.only_panel = "Emitters"
        for _ in range(3):
            app.frame(1 / 60, display_size=target.size, target=target.fbo)
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]
    assert drawn and drawn[-1] == key
