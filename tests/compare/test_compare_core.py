"""Reference tracks, view modes, difference figures and alignment on drawn frames."""

from __future__ import annotations

import numpy as np
import pytest

from viewer.compare.align import estimate_offset, offset_from_event
from viewer.compare.metrics import frame_figures, mean_abs_diff, ssim
from viewer.compare.reference import Crop, ReferenceTrack, resize
from viewer.compare.views import ViewMode, compose
from viewer.media import MediaError, read_frames, write_frames

W, H, FPS = 64, 36, 30.0


def scene(t: float, changed: bool = False) -> np.ndarray:
    """A moving bright blob on a dark ground, plus a second 'effect' that can be changed."""
    img = np.full((H, W, 3), 20, np.uint8)
    x = int(8 + 40 * (t % 1.0))
    img[10:20, x:x + 8] = (250, 200, 40)
    if 0.5 <= t < 0.8:
        img[25:32, 50:58] = (40, 90, 250) if not changed else (250, 40, 40)
    return img


def frames(times, **kw):
    return [scene(t, **kw) for t in times]


def test_reference_frame_at_holds_last_frame_and_maps_offset_and_rate():
    times = np.arange(10) / 10.0
    track = ReferenceTrack("mem", times, [np.full((2, 2, 3), i, np.uint8) for i in range(10)],
                           offset=0.3, rate=2.0)
    assert track.index_at(-0.2) is None            # before the recording starts
    assert track.index_at(0.0) == 3                # ref_t = 0.3
    assert track.index_at(0.1) == 5                # ref_t = 0.5
    assert track.index_at(0.12) == 5               # held until the next frame
    assert track.index_at(100.0) == 9              # held at the end


def test_crop_then_resize_to_viewport():
    img = np.zeros((20, 40, 3), np.uint8)
    img[5:10, 10:20] = 200
    track = ReferenceTrack("mem", np.array([0.0]), [img], crop=Crop(10, 5, 10, 5))
    out = track.frame_at(0.0, size=(20, 10))
    assert out.shape == (10, 20, 3) and out.min() == 200
    assert track.settings_json()["crop"] == [10, 5, 10, 5]
    with pytest.raises(MediaError):
        Crop(100, 100, 5, 5).apply(img)


def test_metrics_identical_and_different():
    a = scene(0.2)
    assert mean_abs_diff(a, a) == 0.0 and ssim(a, a) == pytest.approx(1.0)
    b = scene(0.6)
    f = frame_figures(a, b)
    assert f["mad"] > 1.0 and f["ssim"] < 0.99


@pytest.mark.parametrize("mode", list(ViewMode))
def test_each_view_mode_composes(mode):
    a, b = scene(0.1), scene(0.6)
    out = compose(mode, a, b)
    assert out.dtype == np.uint8 and out.ndim == 3
    if mode is ViewMode.SIDE_BY_SIDE:
        assert out.shape[1] == 2 * W + 2
    else:
        assert out.shape == (H, W, 3)
    if mode is ViewMode.DIFFERENCE:
        assert compose(mode, a, a).max() == 0


def test_wipe_splits_left_render_right_reference():
    a = np.zeros((4, 10, 3), np.uint8)
    b = np.full((4, 10, 3), 200, np.uint8)
    out = compose("wipe", a, b, split=0.5, line=False)
    assert out[:, :5].max() == 0 and out[:, 5:].min() == 200


def test_estimate_offset_finds_shift_despite_scale_and_changed_effect():
    render_t = np.arange(0, 1.5, 1 / FPS)
    rendered = frames(render_t)
    shift = 0.4  # the recording starts 0.4 s before the scenario's t = 0
    ref_t = np.arange(0, 2.2, 1 / FPS)
    recording = [resize(scene(t - shift, changed=True), (128, 72)) for t in ref_t]
    track = ReferenceTrack("mem", ref_t, recording)
    off, score = estimate_offset(render_t, rendered, track)
    assert off == pytest.approx(shift, abs=1 / FPS + 1e-9)


def test_difference_peaks_where_the_effect_changed():
    ts = np.arange(0, 1.0, 1 / FPS)
    track = ReferenceTrack("mem", ts, frames(ts, changed=True))
    mads = [mean_abs_diff(scene(t), track.frame_at(t)) for t in ts]
    peak = ts[int(np.argmax(mads))]
    assert 0.5 <= peak < 0.8
    assert max(mads[:15]) == 0.0


def test_offset_from_capture_event():
    assert offset_from_event(12.5, 0.5) == pytest.approx(12.0)


@pytest.mark.parametrize("suffix", [".mp4", ".gif", ""])
def test_media_round_trip(tmp_path, suffix):
    ts = np.arange(0, 0.5, 1 / FPS)
    out = tmp_path / f"rec{suffix}"
    write_frames(out, frames(ts), fps=FPS)
    back = list(read_frames(out, fps=FPS))
    assert len(back) >= 1
    assert back[0].image.shape[:2] == (H, W)
    if suffix != ".gif":  # GIF merges identical frames
        assert len(back) == len(ts)
        assert back[3].t == pytest.approx(3 / FPS, abs=1e-3)
        assert mean_abs_diff(back[3].image, scene(ts[3])) < 8.0


def test_media_transparent_png_keeps_alpha(tmp_path):
    from PIL import Image
    img = np.zeros((4, 4, 4), np.uint8)
    img[1, 1] = (255, 0, 0, 255)
    write_frames(tmp_path / "a.png", [img], transparent=True)
    back = np.asarray(Image.open(tmp_path / "a.png"))
    assert back.shape[2] == 4 and back[0, 0, 3] == 0 and back[1, 1, 3] == 255


def test_media_errors_name_the_file(tmp_path):
    with pytest.raises(MediaError, match="no such file"):
        list(read_frames(tmp_path / "missing.mp4"))
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"not a video")
    with pytest.raises(MediaError, match="bad.mp4"):
        list(read_frames(bad))


def _frame_tag(img: np.ndarray) -> int:
    """Index drawn into a test frame as its grey level (10 per frame)."""
    return int(round(float(img[..., 0].mean()) / 10))


@pytest.mark.parametrize("suffix", [".mp4", ""])
def test_recording_frames_decode_lazily_in_any_order(tmp_path, suffix):
    from viewer.media import LazyFrames, open_frames
    out = tmp_path / f"rec{suffix}"
    write_frames(out, [np.full((16, 16, 3), 10 * i, np.uint8) for i in range(25)], fps=FPS)
    frames = open_frames(out, fps=FPS)
    assert isinstance(frames, LazyFrames) and len(frames) == 25
    assert frames.times[5] == pytest.approx(5 / FPS, abs=1e-3)
    for i in (24, 3, 4, 17, 0, 12, 13, 2):          # jumps back and forth, then steps
        assert _frame_tag(frames[i]) == i
    assert [_frame_tag(f) for f in frames] == list(range(25))
    assert len(frames._cache) <= LazyFrames.CACHE


def test_reference_track_keeps_only_a_bounded_cache(tmp_path):
    out = tmp_path / "long.mp4"
    write_frames(out, [np.full((8, 8, 3), (i * 10) % 250, np.uint8) for i in range(120)],
                 fps=FPS)
    track = ReferenceTrack.load(out)
    for k in range(120):
        track.frame_at(k / FPS)
    assert len(track.frames._cache) <= track.frames.CACHE
    assert track.duration == pytest.approx(119 / FPS, abs=1e-3)


def test_estimate_offset_ignores_a_large_object_standing_in_the_recording():
    """A big still object that appears part-way (a second character walking in) differs
    at every offset alike: the changes still line up at the true shift."""
    render_t = np.arange(0, 1.5, 1 / FPS)
    rendered = frames(render_t)
    shift = 0.4
    ref_t = np.arange(0, 2.2, 1 / FPS)

    def rec(t):
        img = scene(t - shift)
        if t >= 1.0:
            img = img.copy()
            img[0:36, 0:30] = (200, 200, 200)   # 47% of the frame, for 60% of the overlap
        return resize(img, (128, 72))

    track = ReferenceTrack("mem", ref_t, [rec(t) for t in ref_t])
    off, _ = estimate_offset(render_t, rendered, track)
    assert off == pytest.approx(shift, abs=1 / FPS + 1e-9)


def test_estimate_offset_falls_back_to_picture_difference_without_motion():
    render_t = np.arange(0, 0.5, 1 / FPS)
    still = [np.full((H, W, 3), 30, np.uint8)] * len(render_t)
    ref_t = np.arange(0, 1.0, 1 / FPS)
    rec = [np.full((H, W, 3), 30 if t >= 0.2 else 200, np.uint8) for t in ref_t]
    off, score = estimate_offset(render_t, still, ReferenceTrack("mem", ref_t, rec))
    assert off >= 0.2 - 1e-9 and score == pytest.approx(0.0, abs=1e-6)
