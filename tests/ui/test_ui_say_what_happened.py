"""Issue 28 item 5, "say what happened": an anonymous emitter's id in hex and named, the
Play on object notice (toast) and its event's mark, the particle colour legend, the
picked particle where it is drawn, the Emitters table scrolled to it, the reference
entry's path and view mode kept, opaque Audit and path dialogs."""

from __future__ import annotations

import math

import pytest
import ui_fixtures as F

from viewer.dat.database import AssetDatabase
from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.hooks import CreateParticleHook
from viewer.sim.inspect import live_emitters
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.emitters_panel import emitter_id_label
from viewer.ui.session import Session


def anonymous_db():
    """The library with SCRIPT's emitter created without a logical id (0)."""
    recs = F.records()
    recs[F.SCRIPT] = F.script(F.SCRIPT, (0.0, CreateParticleHook(0, F.EMITTER, -1,
                                                                 RFrame((0.0, 0.0, 0.5)), 0)))
    return AssetDatabase.from_records(recs)


def test_an_anonymous_emitter_shows_its_id_in_hex_and_named():
    s = Session(anonymous_db(), Scenario.from_json(F.scenario_json()))
    s.apply(c.Seek(0.3))
    ids = [em.logical_id for em in live_emitters(s.world)]
    assert ids == [0xFFFF0000]                      # ParticleManager's first own id
    assert emitter_id_label(ids[0]) == "0xFFFF0000 (anonymous)"
    assert emitter_id_label(1) == "1" and emitter_id_label(0xFFFF0003).endswith("anonymous)")


def test_play_on_object_at_nan_says_so_and_marks_the_timeline(gl_ctx, monkeypatch):
    """The button pressed at intensity nan: a notice (under it and a toast) saying what
    was played and that retail picks none, and the event's mark on the Timeline."""
    s = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, s, (700, 500)) as (app, target):
        app.controller.apply(c.SetIntensity(math.nan))
        app.controller.apply(c.Seek(0.5))
        app.only_panel = "Script Table"
        F.click_button(app, "Play on object", monkeypatch, lambda n: [
            app.frame(1 / 60, display_size=target.size, target=target.fbo) for _ in range(n)])
        said = [item[0].text for item in app.toasts.items if hasattr(item[0], "text")]
        assert said and said[-1].startswith(
            "Played Launch (0x04) on object 1 at intensity nan, t = 0.500 s: retail picks none")
        assert app.wiring.table_state["played"] == said[-1]
        ev = s.scenario.events[-1]
        assert ev.kind == "play" and math.isnan(ev.intensity)
        marks = s.timeline_view().events
        assert marks.t[-1] == 0.5 and marks.flagged[-1]      # flagged: nan plays nothing
        assert "intensity nan" in marks.label(len(marks) - 1)


def _row(slot, pos, gfx=7):
    from viewer.sim.inspect import ParticleRow
    return ParticleRow(slot, 0.1, 1.0, pos, 1.0, 0.0, (1.0, 0.0, 0.0, 0.0), gfx)


def _emitter(*rows):
    from viewer.sim.inspect import EmitterView
    return EmitterView(1, 1, 0, (0, 0, 0), 1, 0, None, "running", len(rows), len(rows), 0,
                       (0, 0, 0), tuple(rows))


def test_a_click_on_a_drawn_particle_picks_it_not_its_neighbour():
    """The unit quad particles are drawn from their corner: a click on the middle of
    particle 0 is nearer particle 1's position than its own."""
    from viewer.render.camera import Camera
    from viewer.ui.viewport_panel import drawn_centre, mesh_extent, pick_particle, project

    extents = {7: mesh_extent(F.records()[F.GFX])}
    assert extents[7][0] == (0.5, 0.5, 0.0)
    cam = Camera(target=(0.5, 0.5, 0), distance=4)
    size = (400, 300)
    em = _emitter(_row(0, (0.0, 0.0, 0.0)), _row(1, (0.55, 0.55, 0.0)))
    click = project(cam, size, drawn_centre(em.particles[0], extents))
    assert pick_particle([em], cam, size, click, extents=extents) == (1, 0)
    assert pick_particle([em], cam, size, click) == (1, 1)   # by position: the neighbour
    # anywhere on the drawn quad picks it, well beyond 8 px from its centre
    edge = project(cam, size, (0.05, 0.5, 0.0))
    assert math.dist(edge, click) > 8
    assert pick_particle([em], cam, size, edge, extents=extents) == (1, 0)
    # a billboard (degrade mode 2) turns its mesh to the eye: local +Y away from it
    board = {7: (extents[7][0], extents[7][1], 2)}
    assert drawn_centre(em.particles[0], board, (-5.0, 0.0, 0.0)) == \
        pytest.approx((0.5, -0.5, 0.0))


def test_the_picked_particle_is_ringed_where_drawn_and_its_row_scrolled_to(gl_ctx):
    from viewer.ui import emitters_panel
    from viewer.ui.viewport_panel import drawn_centre, project

    recs = F.records()   # a busy emitter: more particles than the table shows
    recs[F.EMITTER] = F.emitter_info(F.EMITTER, birthrate=0.02, max_particles=60, lifespan=3)
    s = Session(AssetDatabase.from_records(recs), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, s, (700, 500)) as (app, target):
        app.controller.apply(c.Seek(0.9))
        em = next(e for e in live_emitters(s.world, with_particles=True) if e.particles)
        assert len(em.particles) > 20
        last = em.particles[-1]
        app.controller.apply(c.Select("particle", (em.handle, last.slot)))
        app.only_panel = "Emitters"
        for _ in range(3):
            app.frame(1 / 60, display_size=target.size, target=target.fbo)
        assert emitters_panel.TABLE_SCROLL["particles"] > 0      # its row brought into view
        extents = app.wiring.particle_extents([em])
        want = project(app.controller.view.camera, app.viewport.size,
                       drawn_centre(last, extents))
        assert app.wiring._selected_particle_screen() == pytest.approx(want)
        assert want != pytest.approx(project(app.controller.view.camera, app.viewport.size,
                                             last.position))


def test_a_reopened_reference_keeps_its_saved_mode_and_shows_its_path(recording, gl_ctx,
                                                                      tmp_path):
    """Saved with the comparison Off: reopened, the mode is Off (not Side by side) and
    the Reference panel's path field holds the recording."""
    from imgui_bundle import imgui

    from viewer.app import ViewerApp
    from viewer.ui.compare_panel import ReferencePanelState, draw_reference_panel, panel_view
    from viewer.ui.controller import Controller

    db = F.database()
    s = Session(db, Scenario.from_json(F.scenario_json()))
    ctl = Controller(session=s)
    assert ctl.apply(c.LoadReference(str(recording), 30.0))
    assert ctl.apply(c.SetCompareMode("off"))
    path = tmp_path / "scene.json"
    assert ctl.apply(c.SaveScenario(str(path)))
    s2 = Session(db, Scenario.load(path))
    ctl2 = Controller(session=s2)
    ctl2.sync_reference()
    cmp = ctl2.view.compare
    assert cmp.track is not None and cmp.mode == "off" and not s2.modified
    view = panel_view(cmp, 0.0, 0)
    assert view.source == str(recording)
    state = ReferencePanelState()
    app = ViewerApp(gl_ctx, display_size=(500, 400), session=s2)   # an ImGui context
    try:
        imgui.new_frame()
        draw_reference_panel(view, state)
        imgui.render()
    finally:
        app.release()
    assert state.path == str(recording)                     # the field is filled
    # an entry naming no known mode is refused in words
    bad = Scenario.load(path)
    bad.extra["reference"]["mode"] = "sideways"
    with pytest.raises(Exception, match="reference.mode"):
        Controller(session=Session(db, bad)).sync_reference()


@pytest.fixture
def recording(tmp_path):
    """A 20-frame image-folder recording."""
    import numpy as np
    from PIL import Image
    rec = tmp_path / "rec"
    rec.mkdir()
    for k in range(20):
        Image.fromarray(np.full((48, 64, 3), k * 10, np.uint8)).save(rec / f"{k:04d}.png")
    return rec


def _window_pixel(gl_ctx, app, draw, clear) -> tuple:
    """The centre pixel of a window ``draw`` puts at (20, 20) 300x200, drawn alone over a
    framebuffer cleared to ``clear``."""
    from imgui_bundle import imgui

    from viewer.render.framebuffer import OffscreenTarget

    target = OffscreenTarget(gl_ctx, (400, 300))
    try:
        for _ in range(3):
            imgui.get_io().display_size = (400, 300)
            imgui.new_frame()
            imgui.set_next_window_pos(imgui.ImVec2(20, 20))
            imgui.set_next_window_size(imgui.ImVec2(300, 200))
            draw()
            imgui.render()
            target.fbo.use()
            target.fbo.clear(*clear)
            app.renderer.render(imgui.get_draw_data())
        img = target.read_rgba()
        return tuple(int(v) for v in img[img.shape[0] - 200, 300][:3])
    finally:
        target.release()


def test_audit_window_and_path_dialog_are_opaque(gl_ctx):
    from viewer.ui.audit_panel import AuditModel, draw_audit_panel

    s = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, s, (400, 300)) as (app, _):
        audit = AuditModel()
        audit.open = True
        app.prompts.open_dialog("load")
        for draw in (lambda: draw_audit_panel(audit), app.prompts.file_path_popup):
            on_white = _window_pixel(gl_ctx, app, draw, (1.0, 1.0, 1.0, 1.0))
            on_black = _window_pixel(gl_ctx, app, draw, (0.0, 0.0, 0.0, 1.0))
            assert on_white == on_black and max(on_white) < 60, (on_white, on_black)


def test_particle_colour_modes_have_a_legend(gl_ctx):
    from viewer.render.particle_debug import TYPE_PALETTE
    from viewer.ui.colour_legend import LEGEND_MAX, legend_entries

    assert legend_entries("none", [(0, 1)], [3]) == []
    age = legend_entries("age")
    assert [lb for _, lb in age] == ["just born", "half its lifespan", "end of its lifespan"]
    assert age[0][0] == (0.0, 1.0, 0.0) and age[2][0] == (1.0, 0.0, 0.0)
    typed = legend_entries("type", (), [3, 3, 1])
    assert [lb for _, lb in typed] == ["Still (1)", "ParabolicLVGA (3)"]
    assert typed[1][0] == pytest.approx(tuple(TYPE_PALETTE[3]))
    many = legend_entries("emitter", [(r, 100 + r) for r in range(12)])
    assert len(many) == LEGEND_MAX + 1 and many[-1] == (None, "+4 more emitters")
    assert many[0][1] == "emitter 100" and many[0][0] != many[1][0]

    s = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, s, (640, 420)) as (app, target):
        app.controller.apply(c.Seek(0.6))
        app.only_panel = "Viewport"
        app.scene_view.particle_colour = "type"
        assert app.wiring.colour_legend() == ("type", [(pytest.approx(tuple(TYPE_PALETTE[3])),
                                                        "ParabolicLVGA (3)")])
        shown = F.settled_view(app, target) is not None and target.read_rgba()
        app.scene_view.particle_colour = "none"
        assert app.wiring.colour_legend() is None
        F.settled_view(app, target)
        plain = target.read_rgba()
    corner = (slice(None), slice(0, 200))     # the legend's corner: top-left, read bottom-up
    blue = ((shown[..., 2] > 200) & (shown[..., 0] < 90) & (shown[..., 1] > 80)
            & (shown[..., 1] < 130))
    blue_plain = ((plain[..., 2] > 200) & (plain[..., 0] < 90) & (plain[..., 1] > 80)
                  & (plain[..., 1] < 130))
    assert blue[corner].sum() > blue_plain[corner].sum() + 40   # the ParabolicLVGA swatch


def test_the_legend_is_built_once_per_simulated_frame(gl_ctx):
    """The legend's rows are kept while the live emitters are (a paused view draws them
    every viewer frame), built again after a step or another mode."""
    s = Session(F.database(), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, s, (640, 420)) as (app, target):
        app.controller.apply(c.Seek(0.6))
        app.scene_view.particle_colour = "type"
        first = app.wiring.colour_legend()
        assert app.wiring.colour_legend() is first
        app.scene_view.particle_colour = "age"
        assert app.wiring.colour_legend()[0] == "age"
        app.scene_view.particle_colour = "type"
        again = app.wiring.colour_legend()
        assert again is not first and again == first
        app.controller.apply(c.Step(1))
        assert app.wiring.colour_legend() is not again


def test_the_drawn_centre_is_where_the_renderer_draws_the_particle(gl_ctx):
    """One particle: the pixels the particle colour tint changes are the particle's; their
    centroid is its drawn centre (its position is 35 px off at this zoom)."""
    import numpy as np

    from viewer.ui.viewport_panel import drawn_centre, project

    recs = F.records()
    recs[F.EMITTER] = F.emitter_info(F.EMITTER, birthrate=0.05, max_particles=1, lifespan=3)
    s = Session(AssetDatabase.from_records(recs), Scenario.from_json(F.scenario_json()))
    with F.headless_app(gl_ctx, s, (640, 480)) as (app, target):
        app.controller.apply_all([c.Seek(0.4), c.CameraZoom(6)])
        app.only_panel = "Viewport"
        plain = F.settled_view(app, target).astype(int)
        app.scene_view.particle_colour = "type"
        tinted = F.settled_view(app, target).astype(int)
        ys, xs = np.nonzero(np.abs(plain - tinted).max(axis=-1) > 20)
        ems = [e for e in live_emitters(s.world, with_particles=True) if e.particles]
        p = ems[0].particles[0]
        cam, size = app.controller.view.camera, app.viewport.size
        drawn = project(cam, size, drawn_centre(p, app.wiring.particle_extents(ems), cam.eye()))
        at = project(cam, size, p.position)
    assert len(xs) > 100
    assert math.dist(drawn, (xs.mean(), ys.mean())) < 2.0
    assert math.dist(at, (xs.mean(), ys.mean())) > 10.0
