"""A viewer keeps the 3D view it drew while nothing it is drawn from changes (issue 18):
an unchanged paused frame draws no scene (nor a playing one between two simulated
frames), and every kind of change draws it anew (the camera, a seek, a scenario edit,
solo / mute, the particle colour, the overlays, the viewport's size, a selection), also
when no command announces it. Counted, never timed."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import ui_fixtures as F

from viewer.render import renderer as renderer_mod
from viewer.sim.inspect import live_emitters
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.controller import Controller
from viewer.ui.session import Session

SIZE = (480, 320)


def _emitter(session):
    return max(live_emitters(session.world, with_particles=True), key=lambda e: e.alive)


def _camera_moved(app):
    app.controller.view.camera = app.controller.view.camera.orbit(0.2, 0.0)


def _seek(app):
    app.session.playback.seek_frame(app.session.playback.frame + 1)


def _edit(app):
    app.session.apply(c.SetState(1, 0x00400C08 | 0x4000))


def _solo(app):
    app.controller.view.emitter_filter.toggle_solo("emitter", _emitter(app.session).handle)


def _mute(app):
    app.controller.view.emitter_filter.toggle_mute("emitter", _emitter(app.session).handle)


def _colour(app):
    app.particle_colour = "emitter"


def _overlay(app):
    app.overlays["show_particle_bounds"] = True


def _resize(app):
    return (SIZE[0] - 60, SIZE[1])       # a narrower window: a narrower Viewport panel


def _select_particle(app):
    em = _emitter(app.session)
    app.controller.view.selection = ("particle", (em.handle, em.particles[0].slot))


def _settings(app):
    app.scene_renderer.settings = dataclasses.replace(app.scene_renderer.settings,
                                                      lighting=False)


# each change made straight on the state (what a command does), so the view's key alone
# has to see it; the same changes through commands are counted below
CHANGES = {"camera": _camera_moved, "seek": _seek, "set state": _edit, "solo": _solo,
           "mute": _mute, "colour mode": _colour, "overlays": _overlay, "resize": _resize,
           "select particle": _select_particle, "render settings": _settings}

COMMANDS = {"camera": lambda app: c.CameraOrbit(0.2, 0.0), "seek": lambda app: c.Step(1),
            "set state": lambda app: c.SetState(1, 0x00400C08 | 0x4000),
            "solo": lambda app: c.ToggleSolo("emitter", _emitter(app.session).handle),
            "mute": lambda app: c.ToggleMute("emitter", _emitter(app.session).handle),
            "select particle": lambda app: c.Select("particle", (
                _emitter(app.session).handle, _emitter(app.session).particles[0].slot)),
            "select object": lambda app: c.Select("object", 1)}


@pytest.fixture
def paused(gl_ctx):
    session = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, session, SIZE) as (app, target):
        app.controller.apply(c.Play())
        for _ in range(20):                       # half a second: particles alive
            app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        app.controller.apply(c.Pause())
        for _ in range(2):                        # the pause's frame; the layout settled
            app.frame(1 / 40, display_size=SIZE, target=target.fbo)
        session.playback.explore(10**6)
        yield app, target


def _frames(app, target, n=3, size=SIZE):
    for _ in range(n):
        app.frame(1 / 40, display_size=size, target=target.fbo)


def _count_renders(monkeypatch):
    return F.count_calls(monkeypatch, renderer_mod.SceneRenderer, "render")


def test_an_unchanged_paused_frame_draws_no_scene_and_shows_the_same_image(
        paused, monkeypatch):
    app, target = paused
    before = app.viewport.read_rgba()
    calls = _count_renders(monkeypatch)
    _frames(app, target, 5)
    assert calls == [] and app.errors.entries == []
    assert np.array_equal(app.viewport.read_rgba(), before)


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_each_change_draws_the_paused_view_anew(paused, monkeypatch, change):
    """The change made without a command (the commands' count held still): the key of what
    the view is drawn from sees it; the new image is what a fresh draw gives."""
    app, target = paused
    monkeypatch.setattr(Controller, "applied", property(lambda self: 0, lambda self, v: None),
                        raising=False)
    _frames(app, target, 1)                         # the count's change itself
    calls = _count_renders(monkeypatch)
    _frames(app, target, 2)
    assert calls == []
    before = app.viewport.size
    size = CHANGES[change](app) or SIZE
    _frames(app, target, 3, size)
    assert len(calls) == 1, change                  # drawn once, then kept again
    assert app.errors.entries == [], [e.line() for e in app.errors.entries]
    assert (app.viewport.size != before) == (change == "resize")
    kept = app.viewport.read_rgba()
    app.scene_view.view_drawn = None                          # what drawing it now gives
    _frames(app, target, 1, size)
    assert np.array_equal(app.viewport.read_rgba(), kept), change


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_draws_the_paused_view_anew(paused, monkeypatch, command):
    app, target = paused
    calls = _count_renders(monkeypatch)
    _frames(app, target, 2)
    assert calls == []
    assert app.controller.apply(COMMANDS[command](app)), app.errors.entries
    _frames(app, target, 3)
    assert len(calls) == 1, command
    assert not app.session.playback.playing


def test_playing_draws_each_simulated_frame_once(paused, monkeypatch):
    """Playing at 60 viewer frames a second a 30 fps scenario: every other viewer frame
    simulates nothing new and keeps the view."""
    app, target = paused
    pb = app.session.playback
    pb.seek_frame(0)
    app.controller.apply(c.Play())
    _frames(app, target, 1)
    calls = _count_renders(monkeypatch)
    shown = []
    for _ in range(8):
        app.frame(1 / 60, display_size=SIZE, target=target.fbo)
        shown.append(pb.frame)
    assert pb.playing and len(set(shown)) >= 3
    assert len(calls) == len(set(shown)) < len(shown)


def test_the_selected_emitters_particle_rings_take_one_projection_a_frame(
        paused, monkeypatch):
    """The rings on the selected emitter's particles are projected together: the camera's
    view-projection matrix is built a few times a frame, not once per particle."""
    from viewer.render.camera import Camera
    from viewer.ui.viewport_panel import drawn_centre, project, project_many
    app, target = paused
    em = _emitter(app.session)
    assert em.alive >= 8, em.alive
    app.controller.apply(c.Select("emitter", em.handle))
    _frames(app, target, 2)
    rings = app.wiring.selection_rings()
    cam, size = app.controller.view.camera, app.viewport.size
    extents = app.wiring.particle_extents([em])   # each ring where its particle is drawn
    points = [em.origin, *(drawn_centre(p, extents, cam.eye()) for p in em.particles)]
    want = [xy for xy in (project(cam, size, p) for p in points) if xy is not None]
    assert len(rings) >= len(want)
    assert np.asarray([r[0] for r in rings[:len(want)]]) == pytest.approx(np.asarray(want))
    assert project_many(cam, size, points) == [project(cam, size, p) for p in points]
    calls = F.count_calls(monkeypatch, Camera, "view_projection")
    _frames(app, target, 4)
    assert len(calls) <= 4 * 3 < 4 * em.alive, len(calls)


def test_project_many_leaves_points_behind_the_eye_out():
    from viewer.render.camera import Camera
    from viewer.ui.viewport_panel import project_many
    cam = Camera(target=(0, 0, 0), distance=5)
    behind = tuple(cam.eye() - cam.forward() * 2)
    got = project_many(cam, (200, 100), [(0, 0, 0), behind, (1, 0, 0)])
    assert got[1] is None and got[0] == pytest.approx((100, 50), abs=1e-6)
    assert got[2] is not None and got[2][0] != pytest.approx(100)
