"""Headless (EGL, small sizes) images of the comparison views in the Viewport, the Reference
panel, the reference lane and difference plot on the Timeline, the Launch and Capture panels,
and the capture export (PNG sequence with transparency, GIF, MP4) re-simulated frame by
frame."""

from __future__ import annotations

import numpy as np
import pytest
import ui_fixtures as F
from imagecheck import assert_image_matches
from PIL import Image

from viewer.app import ViewerApp
from viewer.media import read_frames
from viewer.render.framebuffer import OffscreenTarget
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.session import Session

SIZE = (420, 260)
REF_COLOUR = (200, 40, 160)     # the recording's background: magenta, unlike anything drawn


@pytest.fixture(scope="module")
def rec(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rec")
    for k in range(40):
        img = np.zeros((90, 160, 3), np.uint8)
        img[:] = REF_COLOUR
        img[30:60, 2 * k:2 * k + 30] = (250, 250, 250)
        Image.fromarray(img).save(folder / f"f{k:03d}.png")
    return folder


@pytest.fixture
def session():
    return Session(F.database(), Scenario.from_json(F.scenario_json()))


def run_app(gl_ctx, session, panel, commands=(), size=SIZE, frames=3, check=None,
            prepare=None):
    app = ViewerApp(gl_ctx, display_size=size, session=session)
    target = OffscreenTarget(gl_ctx, size)
    try:
        app.only_panel = panel
        app.controller.apply_all([c.Seek(0.5), c.CameraZoom(6), *commands])
        if prepare is not None:
            prepare(app)
        for _ in range(frames):
            app.frame(1 / 60, size, target.fbo)
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]
        img = target.read_rgba()
        if check is not None:
            check(app)
        return img
    finally:
        app.release()
        target.release()


def near(img, rgb, tol=12) -> np.ndarray:
    return (np.abs(img[..., :3].astype(int) - np.array(rgb)) <= tol).all(axis=-1)


def composite_matches_views(app):
    """The texture shown is viewer.compare.views' composite of the 3D view just drawn."""
    cmp = app.controller.view.compare
    tex = app.compare_texture
    shown = np.frombuffer(tex.read(alignment=1), np.uint8).reshape(tex.size[1], tex.size[0],
                                                                   4)[::-1, :, :3]
    s = app.session
    cmp._rendered.clear()                   # onion: compare a still frame, no ghosts
    expected = cmp.compose(app.viewport.read_rgba(), s.playback.time)
    assert shown.shape == expected.shape
    if cmp.mode != "onion":
        assert np.array_equal(shown, expected)


@pytest.mark.parametrize("mode", ["side_by_side", "overlay", "wipe", "onion", "difference"])
def test_comparison_view_renders_in_viewport(gl_ctx, session, rec, mode):
    img = run_app(gl_ctx, session, "Viewport",
                  [c.LoadReference(str(rec), 30.0), c.SetCompareMode(mode)],
                  check=composite_matches_views)
    magenta = near(img, REF_COLOUR, 14)
    if mode == "side_by_side":      # letterboxed at the recording's shape: the rows shown
        img, magenta = img[magenta.any(axis=1)], magenta[magenta.any(axis=1)]
    h, w = img.shape[:2]
    if mode == "side_by_side":      # the recording fills the right half, the view the left
        assert magenta[:, w // 2 + 10:].mean() > 0.5 and magenta[:, : w // 2 - 10].mean() < 0.01
    elif mode == "wipe":            # split at 0.5: the same halves, with a yellow line
        assert magenta[:, w // 2 + 10:].mean() > 0.5 and magenta[:, : w // 2 - 10].mean() < 0.01
        assert near(img, (255, 255, 0), 10).sum() > h // 2
    elif mode in ("overlay", "onion"):   # half strength over the whole view
        blend = (img[..., 0].astype(int) > img[..., 1].astype(int) + 40)
        assert blend.mean() > 0.5 and magenta.mean() < 0.2
    else:                           # |render - recording| x4: saturated almost everywhere
        assert (img[..., :3].max(axis=-1) > 200).mean() > 0.5


def test_wipe_split_moves_the_line(gl_ctx, session, rec):
    img = run_app(gl_ctx, session, "Viewport", [c.LoadReference(str(rec), 30.0),
                                                c.SetCompareMode("wipe"), c.SetWipeSplit(0.2)])
    w = img.shape[1]
    assert near(img, REF_COLOUR, 14)[:, int(w * 0.3):].mean() > 0.5


def test_comparison_off_shows_the_plain_view(gl_ctx, session, rec):
    img = run_app(gl_ctx, session, "Viewport", [c.LoadReference(str(rec), 30.0),
                                                c.SetCompareMode("off")])
    assert near(img, REF_COLOUR, 14).sum() == 0


def test_figures_are_measured_for_frames_shown(gl_ctx, session, rec):
    def check(app):
        app.controller.view.compare.collect(wait=True)   # measured in a worker thread
        figs = app.controller.view.compare.figures
        assert 15 in figs     # t = 0.5 s at 30 fps
        t, mad, ssim = figs[15]
        assert t == pytest.approx(0.5) and mad > 10 and ssim < 0.9
    run_app(gl_ctx, session, "Viewport", [c.LoadReference(str(rec), 30.0)], check=check)


def test_reference_panel_screenshot(gl_ctx, session, rec):
    def measure(app):    # figures for frames 0..14 and the shown frame 15 (t = 0.5 s)
        cmp = app.controller.view.compare
        for k in range(16):
            img = np.zeros((18, 32, 3), np.uint8)
            img[:, : k * 2] = 255
            cmp.measure(k, k / 30, img)
        app.controller.apply(c.LoadCapture("x.pcap"))
    img = run_app(gl_ctx, session, "Reference",
                  [c.LoadReference(str(rec), 30.0), c.SetCompareMode("overlay")],
                  size=(420, 360), prepare=lambda app: (
                      setattr(app.controller, "capture_reader",
                              lambda p: [{"t": 1.0, "object": 7, "play": 4, "intensity": 1}]),
                      measure(app)))
    assert (img[..., 3] == 255).all()
    assert near(img, (255, 255, 255), 40).sum() > 400          # text
    assert near(img, (66, 150, 250), 30).sum() > 20             # the checked radio button
    assert near(img, (156, 156, 156), 12).sum() > 50            # the MAD plot line


def test_reference_panel_with_a_crop_shows_its_fields(gl_ctx, session, rec):
    plain = run_app(gl_ctx, session, "Reference", [c.LoadReference(str(rec), 30.0)],
                    size=(420, 300))
    cropped = run_app(gl_ctx, session, "Reference", [c.LoadReference(str(rec), 30.0),
                                                     c.SetReferenceCrop((4, 4, 100, 60))],
                      size=(420, 300))
    # four more input fields (the crop rectangle) on the crop line
    assert near(cropped, (255, 255, 255), 40).sum() > near(plain, (255, 255, 255), 40).sum()


def test_reference_panel_empty_golden(gl_ctx, session, regen_goldens):
    img = run_app(gl_ctx, session, "Reference", size=(420, 120))
    assert_image_matches(img, "ui/panel_reference_empty.png", tol=4, max_bad_fraction=0.003,
                         regen=regen_goldens)


def test_timeline_shows_reference_lane_and_difference_plot(gl_ctx, session, rec):
    def measure(app):
        """Figures of frames 0..29 against a recording whose frame 20 differs."""
        cmp = app.controller.view.compare
        for k in range(30):
            base = cmp.reference_at(k / 30, (32, 18))   # None before the recording starts
            img = np.zeros((18, 32, 3), np.uint8) if base is None else base.copy()
            if k == 20:
                img[:] = (0, 255, 0)
            cmp.measure(k, k / 30, img)
    cmds = [c.LoadReference(str(rec), 30.0), c.SetReferenceOffset(-0.25)]
    img = run_app(gl_ctx, session, "Timeline", cmds, size=(420, 300), frames=2,
                  prepare=measure)
    lane = near(img, (174, 128, 220), 12)            # the recording's bar (purple)
    assert lane.sum() > 100
    cols = np.nonzero(lane.any(axis=0))[0]
    track_x0, width = 8 + 150, 420 - 16 - 150
    # it starts a quarter second into the 2 s timeline
    assert cols.min() == pytest.approx(track_x0 + 0.25 / 2.0 * width, abs=6)
    mad = near(img, (255, 153, 51), 30)              # the MAD line (orange)
    assert mad.sum() > 20
    ys, xs = np.nonzero(mad[:, track_x0:])
    peak_x = xs[np.argmin(ys)] + track_x0            # the highest point: frame 20
    assert peak_x == pytest.approx(track_x0 + (20 / 30) / 2.0 * width, abs=6)


@pytest.mark.parametrize("panel,golden", [("Launch", "ui/panel_launch.png"),
                                          ("Capture", "ui/panel_capture.png")])
def test_launch_and_capture_panel_goldens(gl_ctx, session, panel, golden, regen_goldens):
    img = run_app(gl_ctx, session, panel, size=(420, 220))
    assert near(img, (255, 255, 255), 40).sum() > 200
    assert_image_matches(img, golden, tol=4, max_bad_fraction=0.003, regen=regen_goldens)


# --- capture export ------------------------------------------------------------------------------
def export(gl_ctx, session, cmd, size=SIZE, commands=()):
    app = ViewerApp(gl_ctx, display_size=size, session=session)
    target = OffscreenTarget(gl_ctx, size)
    try:
        app.only_panel = "Viewport"
        app.controller.apply_all([c.CameraZoom(6), *commands])
        app.frame(1 / 60, size, target.fbo)
        app.controller.apply(cmd)
        app.frame(1 / 60, size, target.fbo)
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]
        return app.viewport.size, app.session.playback.frame
    finally:
        app.release()
        target.release()


def test_export_png_sequence_transparent_keeps_alpha_where_nothing_is_drawn(gl_ctx, session,
                                                                             tmp_path):
    session.apply(c.Seek(0.2))
    out = tmp_path / "seq"
    _, frame_after = export(gl_ctx, session, c.ExportCapture(str(out), 0.1, 0.3, True))
    files = sorted(out.iterdir())
    assert len(files) == 7                          # frames 3..9 at 30 fps
    assert frame_after == 6                         # came back to where it was (0.2 s)
    img = np.asarray(Image.open(files[3]))
    assert img.shape[2] == 4
    assert img[0, 0, 3] == 0 and img[-1, -1, 3] == 0        # background: transparent
    assert (img[..., 3] > 0).sum() > 200                    # the quad and its particles


def test_export_frames_equal_a_straight_run(gl_ctx, session, tmp_path):
    """Frame k of an export is the view at frame k reached by playing from the start."""
    out = tmp_path / "seq"
    export(gl_ctx, session, c.ExportCapture(str(out), 0.0, 0.4))
    exported = np.asarray(Image.open(out / "frame_00012.png").convert("RGB"))
    fresh = Session(F.database(), Scenario.from_json(F.scenario_json()))
    app = ViewerApp(gl_ctx, display_size=SIZE, session=fresh)
    target = OffscreenTarget(gl_ctx, SIZE)
    try:
        app.only_panel = "Viewport"
        app.controller.apply_all([c.CameraZoom(6)])
        app.frame(1 / 60, SIZE, target.fbo)
        for _ in range(12):
            app.controller.apply(c.Step(1))
        app.frame(1 / 60, SIZE, target.fbo)
        shown = app.viewport.read_rgba()[..., :3]
    finally:
        app.release()
        target.release()
    assert np.array_equal(shown, exported)


@pytest.mark.parametrize("name", ["clip.gif", "clip.mp4"])
def test_export_gif_and_mp4_over_a_range(gl_ctx, session, tmp_path, name):
    path = tmp_path / name
    size, _ = export(gl_ctx, session, c.ExportCapture(str(path), 0.0, 0.3,
                                                      transparent=name.endswith(".gif")))
    frames = list(read_frames(path))
    assert len(frames) == 10
    assert abs(frames[0].image.shape[1] - size[0]) <= 1


def test_export_with_the_comparison_view(gl_ctx, session, rec, tmp_path):
    out = tmp_path / "cmp.png"
    size, _ = export(gl_ctx, session, c.ExportCapture(str(out), 0.2, 0.2, compare=True),
                     commands=[c.LoadReference(str(rec), 30.0), c.SetCompareMode("wipe")])
    img = np.asarray(Image.open(out))
    assert img.shape[1] == size[0]
    assert near(img, REF_COLOUR, 14)[:, size[0] // 2 + 10:].mean() > 0.5


def test_find_offset_lines_up_a_recording_made_from_the_view_shifted_in_time(gl_ctx, tmp_path):
    """A synthetic "recording": the view exported from 0.4 s on (so recording t = 0 is
    timeline 0.4 s) and scaled up; Find offset recovers -0.4 s."""
    rec = tmp_path / "rec"
    sc = F.scenario_json(seconds=1.5)
    s = Session(F.database(), Scenario.from_json(sc))
    export(gl_ctx, s, c.ExportCapture(str(rec), 0.4, 1.5))
    for f in rec.iterdir():    # scaled, as a capture at another resolution would be
        im = Image.open(f).convert("RGB")
        im.resize((im.width * 3 // 2, im.height * 3 // 2)).save(f)
    s = Session(F.database(), Scenario.from_json(sc))
    app = ViewerApp(gl_ctx, display_size=SIZE, session=s)
    target = OffscreenTarget(gl_ctx, SIZE)
    try:
        app.only_panel = "Viewport"
        app.controller.apply_all([c.CameraZoom(6), c.LoadReference(str(rec), 30.0),
                                  c.SetCompareMode("off")])
        app.frame(1 / 60, SIZE, target.fbo)
        app.controller.apply(c.AlignReferenceAuto())
        app.frame(1 / 60, SIZE, target.fbo)
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]
        assert app.controller.view.compare.track.offset == pytest.approx(-0.4, abs=1e-6)
        assert s.scenario.extra["reference"]["offset"] == pytest.approx(-0.4, abs=1e-6)
        # the offset found is an edit like a typed one: undoable, the scenario modified
        assert s.modified and s.history.undo_label() == "reference offset"
    finally:
        app.release()
        target.release()


def test_export_the_whole_viewer_over_a_range(gl_ctx, session, tmp_path):
    out = tmp_path / "viewer"
    size = (360, 240)
    app = ViewerApp(gl_ctx, display_size=size, session=session)
    target = OffscreenTarget(gl_ctx, size)
    try:
        app.frame(1 / 60, size, target.fbo)
        app.controller.apply(c.ExportCapture(str(out), 0.0, 0.1, window=True))
        app.frame(1 / 60, size, target.fbo)
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]
    finally:
        app.release()
        target.release()
    files = sorted(out.iterdir())
    assert len(files) == 4
    first, last = (np.asarray(Image.open(f)) for f in (files[0], files[-1]))
    assert first.shape[:2] == (240, 360)
    assert near(first, (255, 255, 255), 40).sum() > 100       # panel text
    assert not np.array_equal(first, last)                    # the timeline moved on


ZOOM_IN = 4


def test_recording_of_a_changed_effect_found_and_plotted_end_to_end(gl_ctx, tmp_path):
    """Issue 10's check in the GUI: the "recording" is the view of the same scenario with
    one effect added at 0.8 s (a second emitter script on the object), exported from 0.3 s
    on and scaled. Find offset recovers the shift; stepping through the timeline measures
    each frame, and the MAD plot rises where the effect differs, not before."""
    changed = F.scenario_json(seconds=1.5)
    changed["events"].append({"t": 0.8, "object": 1, "play_script": f"0x{F.SCRIPT_PES:08X}"})
    rec = tmp_path / "rec"
    zoom = c.CameraZoom(ZOOM_IN)
    # a recording has no grid or axes (a comparison view draws none: issue 28)
    no_grid = [c.SetViewLayer("grid", False), c.SetViewLayer("axes", False)]
    export(gl_ctx, Session(F.database(), Scenario.from_json(changed)),
           c.ExportCapture(str(rec), 0.3, 1.5), commands=[zoom, *no_grid])
    for f in rec.iterdir():
        im = Image.open(f).convert("RGB")
        im.resize((im.width * 5 // 4, im.height * 5 // 4)).save(f)
    s = Session(F.database(), Scenario.from_json(F.scenario_json(seconds=1.5)))
    app = ViewerApp(gl_ctx, display_size=SIZE, session=s)
    target = OffscreenTarget(gl_ctx, SIZE)
    try:
        app.only_panel = "Viewport"
        app.controller.apply_all([c.CameraZoom(6), zoom, c.LoadReference(str(rec), 30.0),
                                  c.SetCompareMode("difference")])
        app.frame(1 / 60, SIZE, target.fbo)
        app.controller.apply(c.AlignReferenceAuto())
        app.frame(1 / 60, SIZE, target.fbo)
        assert app.controller.view.compare.track.offset == pytest.approx(-0.3, abs=1e-6)
        app.controller.apply(c.Seek(0.3))
        for _ in range(36):                 # step both together, frame by frame, to 1.5 s
            app.frame(1 / 60, SIZE, target.fbo)
            app.controller.apply(c.Step(1))
        assert app.errors.entries == [], [e.line() for e in app.errors.entries]
        app.controller.view.compare.collect(wait=True)   # measured in a worker thread
        figs = app.controller.view.compare.lane().figures
    finally:
        app.release()
        target.release()
    before = [m for t, m, _ in figs if t < 0.8 - 1e-9]
    after = [m for t, m, _ in figs if t > 0.95]
    assert len(before) >= 10 and len(after) >= 10
    flat = max(before)                       # resampling noise only: the same picture
    assert max(after) > 3 * flat
    rise = next(t for t, m, _ in figs if m > 2 * flat)
    assert 0.8 <= rise <= 1.1                # where the added effect shows


def test_fit_aspect_is_the_largest_area_of_that_shape():
    from viewer.ui.viewport_panel import fit_aspect
    assert fit_aspect((400, 200), None) == (400, 200)
    assert fit_aspect((400, 200), 1.0) == (200, 200)
    assert fit_aspect((400, 400), 2.0) == (400, 200)
    assert fit_aspect((400, 200), float("nan")) == (400, 200)


@pytest.mark.parametrize("mode,crop", [("side_by_side", None), ("overlay", None),
                                       ("wipe", None), ("onion", None), ("difference", None),
                                       ("side_by_side", (0, 0, 90, 90)),
                                       ("wipe", (10, 0, 60, 90))])
def test_comparison_renders_the_3d_view_at_the_recordings_shape(gl_ctx, session, rec, mode,
                                                                  crop):
    """In a comparison the rendered view has the recording's aspect (its crop's when set),
    so both halves frame the same scene (issue 19)."""
    want = crop[2] / crop[3] if crop else 160 / 90
    halves = 2 if mode == "side_by_side" else 1

    def check(app):
        w, h = app.viewport.size
        assert w / h == pytest.approx(want, abs=0.03), (w, h)
        tw, th = app.compare_texture.size        # what the Viewport shows: both halves
        assert tw / th == pytest.approx(want * halves, abs=0.05), (tw, th)

    run_app(gl_ctx, session, "Viewport",
            [c.LoadReference(str(rec), 30.0), c.SetReferenceCrop(crop), c.SetCompareMode(mode)],
            size=(900, 400), frames=4, check=check)
