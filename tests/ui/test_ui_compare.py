"""Reference recording and comparison in the GUI (issue 10), GL-free: the CompareModel, its
commands through the Controller, the scenario's "reference" entry, the timeline lane and
plot, the wipe handle, and that the viewport composite is exactly `vfxviewer compare`'s."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import ui_fixtures as F
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from viewer.commands.compare import compare_frames
from viewer.compare.reference import ReferenceTrack
from viewer.errors import ScenarioError, ViewerError
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.compare_panel import (
    CompareModel,
    ReferencePanelState,
    crop_command,
    drag_offset,
    lane_span,
    panel_view,
    scenario_play_events,
)
from viewer.ui.controller import Controller
from viewer.ui.session import Session
from viewer.ui.timeline import figure_polylines
from viewer.ui.viewport_panel import wipe_grabbed, wipe_split_at

W, H = 64, 36


def frame_image(i: int, changed: bool = False) -> np.ndarray:
    """A small synthetic 'rendering': a block moving right on a gradient; ``changed``
    recolours the block (one effect changed)."""
    img = np.zeros((H, W, 3), np.uint8)
    img[..., 0] = np.linspace(0, 120, W, dtype=np.uint8)[None, :]
    img[..., 2] = 60
    x = 4 + 3 * i
    img[10:24, x:x + 10] = (40, 240, 40) if changed else (250, 250, 250)
    return img


def write_recording(folder, n=20, changed_at=None, start=0):
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(n):
        Image.fromarray(frame_image(k + start, changed=(k + start) == changed_at)).save(
            folder / f"f{k:03d}.png")
    return folder


@pytest.fixture
def rec(tmp_path):
    return write_recording(tmp_path / "rec")


@pytest.fixture
def model(rec):
    m = CompareModel()
    m.load(str(rec), 30.0)
    return m


# --- the track and its settings -----------------------------------------------------------------
def test_loading_a_recording_turns_side_by_side_on_and_maps_time(model):
    assert model.mode == "side_by_side" and model.active
    assert len(model.track.frames) == 20
    assert model.track.index_at(5 / 30) == 5
    model.set_offset(2 / 30)
    assert model.track.index_at(5 / 30) == 7


def test_step_moves_the_recording_one_of_its_frames(model):
    model.step(1)
    assert model.track.offset == pytest.approx(1 / 30)
    model.step(-3)
    assert model.track.offset == pytest.approx(-2 / 30)


@pytest.mark.parametrize("rate", [0.0, -1.0, float("nan"), float("inf")])
def test_rate_must_be_positive_and_finite(model, rate):
    with pytest.raises(ScenarioError):
        model.set_rate(rate)
    assert model.track.rate == 1.0


def test_offset_nan_is_refused(model):
    with pytest.raises(ScenarioError):
        model.set_offset(float("nan"))


def test_crop_outside_the_recording_is_refused_and_kept_out(model):
    with pytest.raises(ViewerError):
        model.set_crop((500, 500, 10, 10))
    assert model.track.crop is None
    model.set_crop((8, 4, 32, 20))
    assert model.settings_json()["crop"] == [8, 4, 32, 20]
    assert model.reference_at(0.0, (16, 10)).shape == (10, 16, 3)


def test_unknown_view_mode_and_mode_without_recording_are_errors():
    m = CompareModel()
    with pytest.raises(ScenarioError):
        m.set_mode("side_by_side")      # nothing loaded
    m.set_mode("off")
    with pytest.raises(ScenarioError):
        m.set_mode("sideways")


def test_opacity_and_split_clamp_to_0_1(model):
    model.set_opacity(3.0)
    model.set_split(-1.0)
    assert (model.opacity, model.split) == (1.0, 0.0)


def test_align_on_event_is_offset_from_event(model):
    model.set_rate(2.0)
    model.align_on_event(3.0, 0.5)
    assert model.track.offset == pytest.approx(3.0 - 0.5 * 2.0)


def test_settings_changes_drop_the_measured_figures(model):
    model.measure(0, 0.0, frame_image(0))
    assert model.figures
    model.set_offset(0.1)
    assert not model.figures


# --- composite equals the headless compare ----------------------------------------------------
@pytest.mark.parametrize("mode", ["side_by_side", "overlay", "wipe", "onion", "difference"])
def test_viewport_composite_equals_vfxviewer_compare(rec, mode):
    rendered = [np.dstack([frame_image(k), np.full((H, W), 255, np.uint8)]) for k in range(6)]
    times = [k / 30 for k in range(6)]
    opts = {"overlay": {"opacity": 0.3}, "wipe": {"split": 0.25}}.get(mode, {})
    track = ReferenceTrack.load(rec, fps=30, offset=1 / 30)
    _, expected, _ = compare_frames(times, rendered, track, mode=mode, view_opts=opts)
    m = CompareModel()
    m.load(str(rec), 30.0, offset=1 / 30)
    m.set_mode(mode)
    m.set_opacity(0.3)
    m.set_split(0.25)
    for k in range(6):   # stepping frame by frame, as the viewport does
        assert np.array_equal(m.compose(rendered[k], times[k], k), expected[k]), k


def test_onion_never_ghosts_frames_across_a_scrub(model):
    model.set_mode("onion")
    model.compose(frame_image(3), 3 / 30, 3)
    assert model.previous(10) == []
    assert len(model.previous(4)) == 1


def test_before_the_recording_the_reference_is_black_and_no_figure(model):
    model.set_offset(-1.0)
    out = model.compose(frame_image(0), 0.0, 0, mode="overlay")
    assert out.shape == (H, W, 3)
    assert model.measure(0, 0.0, frame_image(0)) is None


# --- figures and alignment on a synthetic recording ---------------------------------------------
def test_difference_plot_peaks_where_the_effect_changed(tmp_path):
    """The "recording" is the rendering shifted by 3 frames with the block recoloured at
    one frame: alignment finds the shift, and MAD peaks (SSIM dips) at that frame."""
    from viewer.compare.align import estimate_offset
    rec = write_recording(tmp_path / "rec", n=16, changed_at=9, start=3)
    rendered = [frame_image(k) for k in range(3, 15)]   # frames 3..14 at t = 0..
    times = np.arange(len(rendered)) / 30
    m = CompareModel()
    m.load(str(rec), 30.0)
    offset, _ = estimate_offset(times, rendered, m.track)
    assert offset == pytest.approx(0.0, abs=1e-6)
    m.load(str(write_recording(tmp_path / "rec2", n=20, changed_at=9)), 30.0)
    offset, _ = estimate_offset(times, rendered, m.track)
    assert offset == pytest.approx(3 / 30, abs=1e-6)      # found the time shift
    m.set_offset(offset)
    for k, (t, img) in enumerate(zip(times, rendered)):
        m.measure(k, t, img)
    lane = m.lane()
    mads = [f[1] for f in lane.figures]
    ssims = [f[2] for f in lane.figures]
    assert int(np.argmax(mads)) == 6 and int(np.argmin(ssims)) == 6   # rendered frame 9
    assert sorted(mads)[-2] < mads[6] / 4
    mad_pts, dis_pts, top = figure_polylines(lane.figures, 1.0, 0.0, 100.0, 0.0, 40.0)
    assert top == pytest.approx(max(mads))
    assert min(mad_pts, key=lambda p: p[1]) == mad_pts[6]          # highest point on screen
    assert min(dis_pts, key=lambda p: p[1]) == dis_pts[6]


def test_reference_read_ahead_in_a_worker_equals_reading_it_now(model):
    """The composite's recording frame for the next frame is read (and packed) in a worker
    thread; asking for it gives exactly what reading it now gives, and each frame is
    decoded once however many sizes and threads ask."""
    import threading

    from viewer.render.composite import reference_texels
    seen = []

    def then(ref, size):
        seen.append(threading.current_thread().name)
        return reference_texels(ref, size)
    size = (W // 2, H // 2)
    model.reference_soon(5 / 30, size, then)
    ahead = model.reference_ready(5 / 30, size, then)
    assert seen == [seen[0]] and seen[0].startswith("reference")
    assert ahead == reference_texels(model.reference_at(5 / 30, size), size)
    assert model.reference_ready(6 / 30, size, then) == \
        reference_texels(model.reference_at(6 / 30, size), size)
    assert seen[1] == threading.current_thread().name         # not read ahead: read now
    frames = model.track.frames
    calls = []
    real = type(frames).__getitem__

    def counted(self, i):
        calls.append(i)
        return real(self, i)
    type(frames).__getitem__ = counted
    try:
        for shape in ((W, H), (W // 2, H // 2), None):
            model.track.frame_at(9 / 30, shape)
    finally:
        type(frames).__getitem__ = real
    assert calls == [9]


def test_measure_later_reads_the_reference_in_its_worker(model):
    """The figures of measure_later (reference read, resized and measured in the worker)
    equal measure's; before the recording there is no figure."""
    img = frame_image(4)
    model.measure_later(4, 4 / 30, img)
    model.collect(wait=True)
    later = model.figures.pop(4)
    assert later[1:] == model.measure(4, 4 / 30, img)
    model.set_offset(-1.0)
    model.measure_later(0, 0.0, img)
    model.collect(wait=True)
    assert 0 not in model.figures


def test_wide_views_are_measured_at_measure_width(model):
    big = np.asarray(Image.fromarray(frame_image(2)).resize((640, 360)))
    mad, ssim = model.measure(2, 2 / 30, big)
    assert 0 <= mad < 20 and ssim > 0.5


# --- timeline lane ------------------------------------------------------------------------------
def test_lane_span_and_drag():
    assert lane_span(0.5, 2.0, 3.0) == (-0.25, 1.25)
    # dragging right by 0.25 timeline s shows the recording 0.25 s later
    off = drag_offset(0.5, 2.0, 0.25)
    start, _ = lane_span(off, 2.0, 3.0)
    assert start == pytest.approx(-0.25 + 0.25)


def test_lane_reports_span_and_label(model):
    model.set_offset(-0.5)
    lane = model.lane()
    assert lane.start == pytest.approx(0.5)
    assert lane.end == pytest.approx(0.5 + 19 / 30)
    assert lane.label == "rec"


# --- wipe handle --------------------------------------------------------------------------------
def test_wipe_handle_grab_and_move():
    assert wipe_grabbed(0.5, 103.0, 200.0) and not wipe_grabbed(0.5, 120.0, 200.0)
    assert wipe_split_at(50.0, 200.0) == 0.25
    assert wipe_split_at(-5.0, 200.0) == 0.0 and wipe_split_at(900.0, 200.0) == 1.0


# --- panel view-model ---------------------------------------------------------------------------
def test_crop_fields_follow_a_crop_set_elsewhere_and_keep_typing(model):
    from viewer.ui.compare_panel import sync_crop_fields
    st = ReferencePanelState(crop_on=True, crop=[0, 0, 10, 10])
    v = panel_view(model, 0.0, 0)
    sync_crop_fields(st, v)                 # first sight: the track has no crop
    assert not st.crop_on
    st.crop_on, st.crop = True, [1, 1, 20, 20]
    sync_crop_fields(st, v)                 # being typed: kept
    assert st.crop == [1, 1, 20, 20] and st.crop_on
    model.set_crop((5, 5, 30, 20))          # e.g. a scenario's entry loaded
    v = panel_view(model, 0.0, 0)
    sync_crop_fields(st, v)
    assert st.crop == [5, 5, 30, 20] and crop_command(st, v) is None


def test_panel_view_and_crop_command(model):
    v = panel_view(model, 0.1, 3, [(0.0, "object 1 0x33000100")])
    assert v.frames == 20 and v.size == (W, H) and v.crop is None
    st = ReferencePanelState()
    assert crop_command(st, v) is None
    st.crop_on, st.crop = True, [0, 0, 0, 5]
    assert crop_command(st, v) is None            # width 0: still being typed
    st.crop = [1, 2, 30, 20]
    assert crop_command(st, v) == c.SetReferenceCrop((1, 2, 30, 20))
    st.crop_on = False
    assert crop_command(st, v) is None


def test_scenario_play_events_lists_script_events():
    sc = Scenario.from_json(F.scenario_json())
    assert scenario_play_events(sc) == [(0.0, "object 1 0x33000100")]


def test_capture_events_keep_playscripts_only():
    m = CompareModel()
    m.set_capture("x.pcap", [{"t": 1.5, "object": 5, "play": 4, "intensity": 0.5},
                             {"t": 2.0, "object": 5, "set_state": "0x00000001"},
                             {"t": 2.5, "object": 5, "play_script": "0x33000100"}])
    assert [t for t, _ in m.capture_events] == [1.5, 2.5]


# --- through the controller: the scenario's "reference" entry -----------------------------------
@pytest.fixture(scope="module")
def db():
    return F.database()


def test_reference_entry_is_saved_with_the_scenario_and_loads_back(db, rec, tmp_path):
    s = Session(db, Scenario.from_json(F.scenario_json()))
    ctl = Controller(session=s)
    assert ctl.apply(c.LoadReference(str(rec), 30.0))
    assert ctl.apply(c.SetReferenceOffset(0.1))
    assert ctl.apply(c.SetReferenceRate(1.5))
    assert ctl.apply(c.SetReferenceCrop((2, 2, 40, 30)))
    path = tmp_path / "scene.json"
    assert ctl.apply(c.SaveScenario(str(path)))
    entry = json.loads(path.read_text())["reference"]
    assert entry == {"path": str(rec), "offset": 0.1, "rate": 1.5, "crop": [2, 2, 40, 30],
                     "fps": 30.0, "mode": "side_by_side"}
    # relative to the scenario file, as vfxviewer compare reads it
    entry["path"] = "rec"
    path.write_text(json.dumps({**json.loads(path.read_text()), "reference": entry}))
    s2 = Session(db, Scenario.load(path))
    ctl2 = Controller(session=s2)
    ctl2.sync_reference()
    track = ctl2.view.compare.track
    assert track is not None and len(track.frames) == 20
    assert (track.offset, track.rate, track.crop.to_json()) == (0.1, 1.5, [2, 2, 40, 30])
    assert s2.scenario.extra["reference"]["path"] == "rec"     # kept as written


def test_clear_reference_removes_the_entry(db, rec):
    s = Session(db, Scenario.from_json(F.scenario_json()))
    ctl = Controller(session=s)
    ctl.apply(c.LoadReference(str(rec), 30.0))
    assert "reference" in s.scenario.extra
    ctl.apply(c.ClearReference())
    assert "reference" not in s.scenario.extra and ctl.view.compare.mode == "off"


def test_bad_recording_goes_to_the_error_log(db, tmp_path):
    ctl = Controller(session=Session(db, Scenario.from_json(F.scenario_json())))
    assert ctl.apply(c.LoadReference(str(tmp_path / "missing.mp4"))) is False
    assert ctl.apply(c.SetReferenceOffset(1.0)) is False      # nothing loaded
    assert len(ctl.errors.entries) == 2
    assert "missing.mp4" in ctl.errors.entries[0].line()


def test_load_capture_without_reader_is_an_error_and_with_one_lists_events(db):
    ctl = Controller(session=Session(db, Scenario.from_json(F.scenario_json())))
    assert ctl.apply(c.LoadCapture("x.pcap")) is False
    ctl.capture_reader = lambda path: [{"t": 0.25, "object": 1, "play": 4, "intensity": 1.0}]
    assert ctl.apply(c.LoadCapture("x.pcap"))
    assert ctl.view.compare.capture_events[0][0] == 0.25


def test_step_steps_the_timeline_and_the_reference_follows(db, rec):
    s = Session(db, Scenario.from_json(F.scenario_json()))
    ctl = Controller(session=s)
    ctl.apply(c.LoadReference(str(rec), 30.0))
    track = ctl.view.compare.track
    seen = []
    for _ in range(3):
        ctl.apply(c.Step(1))
        seen.append(track.index_at(s.playback.time))
    assert seen == [1, 2, 3]
    assert math.isclose(s.playback.time, 3 / 30)


def test_line_up_on_a_playscript_of_a_real_capture(model, captures_dir):
    """effects-burst.pcap (amoeba/asheron-rs, MIT, (c) 2025 Bryce Mecum): its F755
    PlayScriptType events are offered; lining one up on the scenario's event sets the offset
    so that event's recording time shows at the scenario event's time."""
    from viewer.app import capture_events
    from viewer.ui.compare_panel import line_up_command
    path = captures_dir / "effects-burst.pcap"
    ctl = Controller()
    ctl.view.compare = model
    ctl.capture_reader = capture_events
    assert ctl.apply(c.LoadCapture(str(path)))
    events = model.capture_events
    assert len(events) == 515 and all("play" in label for _, label in events)
    view = panel_view(model, 0.0, 0, [(0.5, "object 1 play 4 @ 1")])
    st = ReferencePanelState(capture_pick=3, scenario_pick=0, capture_start=-10.0)
    cmd = line_up_command(view, st)
    assert cmd == c.AlignReferenceOnEvent(events[3][0] - 10.0, 0.5)
    assert ctl.apply(cmd)
    assert model.track.recording_time(0.5) == pytest.approx(events[3][0] - 10.0)


def test_a_reference_entry_that_fails_to_load_is_kept_in_the_scenario(db, tmp_path):
    sc = Scenario.from_json({**F.scenario_json(),
                             "reference": {"path": "gone.mp4", "offset": 0.5}})
    s = Session(db, sc)
    ctl = Controller(session=s)
    assert ctl.apply(c.Play())                # the command itself succeeds ...
    assert len(ctl.errors.entries) == 1       # ... and the failed load is logged once
    assert "gone.mp4" in ctl.errors.entries[0].line()
    ctl.apply(c.Pause())
    ctl.sync_reference()
    assert s.scenario.extra["reference"] == {"path": "gone.mp4", "offset": 0.5}


def test_reference_follows_into_a_new_scenario_of_the_session(db, rec):
    s = Session(db, Scenario.from_json(F.scenario_json()))
    ctl = Controller(session=s)
    ctl.apply(c.LoadReference(str(rec), 30.0))
    ctl.apply(c.LoadSetup(F.SETUP, F.TABLE))          # a new scenario object
    assert s.scenario.extra["reference"]["path"] == str(rec)


def test_recording_from_a_video_file(tmp_path):
    from viewer.media import write_frames
    path = write_frames(tmp_path / "rec.mp4", [frame_image(k) for k in range(8)], fps=30)
    m = CompareModel()
    m.load(str(path))
    assert len(m.track.frames) == 8
    assert m.track.index_at(4 / 30) == 4
    assert m.reference_at(4 / 30, (W, H)).shape == (H, W, 3)


def test_aspect_crop_is_the_largest_centred_rectangle():
    from viewer.ui.compare_panel import aspect_crop
    assert aspect_crop(1920, 1080, 4 / 3) == (240, 0, 1440, 1080)
    assert aspect_crop(800, 600, 16 / 9) == (0, 75, 800, 450)
    assert aspect_crop(640, 360, 16 / 9) == (0, 0, 640, 360)
    assert aspect_crop(640, 360, 0.0) == (0, 0, 640, 360)


# --- properties ---------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(w=st.integers(1, 4000), h=st.integers(1, 4000), aspect=st.floats(0.1, 10.0))
def test_aspect_crop_stays_inside_and_keeps_the_aspect(w, h, aspect):
    from viewer.ui.compare_panel import aspect_crop
    x, y, cw, ch = aspect_crop(w, h, aspect)
    assert x >= 0 and y >= 0 and x + cw <= w and y + ch <= h and cw >= 1 and ch >= 1
    assert cw == w or ch == h                                   # the largest such rectangle
    if cw > 20 and ch > 20:
        assert abs(cw / ch - aspect) / aspect < 0.1


@settings(max_examples=60, deadline=None)
@given(offset=st.floats(-100, 100), rate=st.floats(0.05, 20), dt=st.floats(-10, 10),
       duration=st.floats(0.1, 100))
def test_dragging_the_lane_moves_it_by_the_drag(offset, rate, dt, duration):
    start, end = lane_span(offset, rate, duration)
    start2, end2 = lane_span(drag_offset(offset, rate, dt), rate, duration)
    assert start2 - start == pytest.approx(dt, abs=1e-6)
    assert end2 - end == pytest.approx(dt, abs=1e-6)


def test_measure_later_fills_the_same_figures_in_a_worker_and_drops_stale_ones(model):
    """The viewport's MAD / SSIM run in a worker thread (the UI never waits); the figures
    equal measure()'s, and a settings change while a job runs discards its result."""
    ref = model.measure(3, 3 / 30, frame_image(3))
    model.figures.clear()
    model.measure_later(3, 3 / 30, frame_image(3))
    model.collect(wait=True)
    assert model.figures[3][1:] == ref
    model.measure_later(4, 4 / 30, frame_image(4))
    model.set_offset(0.1)                 # what the figures depend on changed
    model.collect(wait=True)
    assert 4 not in model.figures

