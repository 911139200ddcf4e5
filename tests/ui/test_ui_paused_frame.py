"""A paused viewer with a selected particle or emitter (rings, the Emitters panel's
particle table and plot, the velocity and bounds overlays) draws each frame from what it
already has: no evaluation of the whole pool, no particle preparation or upload, no birth
rows sent to the GPU mirror, no simulation. Counted calls, never timed."""

from __future__ import annotations

from dataclasses import replace

import pytest
import ui_fixtures as F

from viewer.app import panels as app_mod
from viewer.render import particles as particles_mod
from viewer.render import particles_gpu
from viewer.render import renderer as renderer_mod
from viewer.sim.inspect import live_emitters
from viewer.sim.particles import ParticlePool
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.session import Session

SIZE = (480, 320)


class Counts:
    def __init__(self, monkeypatch):
        self.evaluated: list[int] = []     # rows of each ParticlePool._evaluate
        self.prepared = self.uploaded = self.written = self.advanced = 0

        def wrap(owner, name, count):
            real = getattr(owner, name)

            def counted(*args, **kwargs):
                count(*args)
                return real(*args, **kwargs)
            monkeypatch.setattr(owner, name, counted)

        wrap(ParticlePool, "_evaluate", lambda pool, live: self.evaluated.append(len(live)))
        wrap(renderer_mod, "prepare", lambda *a: self._add("prepared"))
        wrap(particles_mod.ParticlePass, "upload", lambda *a: self._add("uploaded"))
        wrap(particles_gpu.GpuParticlePass, "_write_rows", lambda *a: self._add("written"))
        self.inspected = 0      # inspect.live_emitters calls (per-emitter Python)
        wrap(app_mod, "live_emitters", lambda *a: self._add("inspected"))
        self.summarised = 0     # inspect.object_summaries calls (per-object Python)
        wrap(app_mod, "object_summaries", lambda *a: self._add("summarised"))

    def _add(self, name):
        setattr(self, name, getattr(self, name) + 1)


@pytest.mark.parametrize("gpu", [False, True])
def test_paused_frame_with_a_selection_does_not_evaluate_or_upload_the_pool(
        gl_ctx, monkeypatch, gpu):
    session = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, session, SIZE) as (app, target):
        app.controller.apply(c.Play())
        for _ in range(20):                       # half a second: particles alive
            app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        renderer = app.scene_renderer
        renderer.settings.gpu_particles = gpu
        if gpu and not renderer.gpu_particles:
            pytest.skip("no compute shaders in this GL context")
        app.controller.apply(c.Pause())
        em = max(live_emitters(session.world, with_particles=True), key=lambda e: e.alive)
        assert em.alive > 1
        app.overlays["show_velocities"] = app.overlays["show_particle_bounds"] = True
        app.controller.apply(c.Select("emitter", em.handle))
        for _ in range(2):                        # the pause's frame and the selection's
            app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        session.playback.explore(10**6)          # the event log complete: nothing left to
        simulated = session.playback.frames_simulated    # explore (budgeted: test_bounded_work)
        counts = Counts(monkeypatch)
        particle = (em.handle, em.particles[0].slot)
        for kind, key in (("emitter", em.handle), ("particle", particle)):
            app.controller.apply(c.Select(kind, key))
            for _ in range(3):
                app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        live = session.world.pool.live_count
        # only the selected emitter's rows may be evaluated (the inspector), never the pool
        assert all(n <= em.alive < live for n in counts.evaluated), counts.evaluated
        assert (counts.prepared, counts.uploaded, counts.written) == (0, 0, 0)
        assert counts.inspected <= 6     # the rings and the Emitters panel share one a frame
        assert 0 < counts.summarised <= 6   # the Object and Hidden panels share one a frame
        assert session.playback.frames_simulated == simulated
        assert renderer.last_stats["particles_drawn"] > 0 and app.errors.entries == []


def test_paused_frames_build_the_emitter_list_once_per_sim_frame(gl_ctx, monkeypatch):
    """The Emitters panel and the rings are drawn every viewer frame, paused too: their
    ``live_emitters`` (per-emitter Python, hundreds of emitters in the stress scene) is
    built again only when what it shows can change: another sim frame, another selected
    emitter, or a moved viewer (the selected emitter's viewer distance)."""
    session = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, session, SIZE) as (app, target):
        app.controller.apply(c.Seek(1.3))
        app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        em = max(live_emitters(session.world), key=lambda e: e.alive)
        app.controller.apply(c.Select("emitter", em.handle))
        app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        counts = Counts(monkeypatch)
        for _ in range(5):
            app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        assert counts.inspected == 0          # nothing changed since the selection's frame
        cam = app.controller.view.camera   # the viewer moves: the detail's CYpt changes
        app.controller.view.camera = replace(cam, distance=cam.distance + 1.0)
        app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        assert counts.inspected == 1
        (shown,) = [e for e in app.wiring.live_emitters(em.handle) if e.handle == em.handle]
        (fresh,) = [e for e in live_emitters(session.world, with_particles=em.handle)
                    if e.handle == em.handle]
        assert shown == fresh                 # what the panel shows is today's list
        app.controller.apply(c.Seek(1.5))     # another sim frame
        app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        assert counts.inspected == 2
