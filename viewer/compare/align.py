"""Finding the time offset between a rendering and a recording.

Both are reduced to small grayscale thumbnails (so scale and compression noise matter
little), then every candidate offset on the recording's frame grid is scored by the mean
absolute difference over the frames both cover; the best score wins. A changed effect in one
part of the picture raises the score at every offset alike, so the minimum stays put.
"""

from __future__ import annotations

import numpy as np

from viewer.compare.reference import ReferenceTrack, resize

THUMB = (48, 27)


def thumbnail(image: np.ndarray, size: tuple[int, int] = THUMB) -> np.ndarray:
    small = resize(np.ascontiguousarray(image[..., :3]), size).astype(np.float32)
    return small @ np.array([0.299, 0.587, 0.114], np.float32)


def estimate_offset(render_times: np.ndarray, render_frames: list[np.ndarray],
                    track: ReferenceTrack, *, search: tuple[float, float] | None = None,
                    min_overlap: float = 0.5) -> tuple[float, float]:
    """Returns ``(offset, score)``: the recording time at timeline t = 0 that best lines the
    recording up with the rendered frames (``track.rate`` is kept), and its mean thumbnail
    difference. ``search`` bounds the offsets tried (default: the recording's length
    either way)."""
    render_times = np.asarray(render_times, np.float64)
    r_thumbs = np.stack([thumbnail(f) for f in render_frames])
    ref_thumbs = np.stack([thumbnail(track.crop.apply(f) if track.crop else f)
                           for f in track.frames])
    step = float(np.median(np.diff(track.times))) if len(track.times) > 1 else 1 / 30
    lo, hi = search if search is not None else (-track.duration - render_times[-1],
                                                track.duration)
    candidates = np.arange(lo, hi + step / 2, step)
    best = (0.0, float("inf"))
    need = max(1, int(len(render_times) * min_overlap))
    for off in candidates:
        rt = off + render_times * track.rate
        idx = np.searchsorted(track.times, rt + 1e-9, side="right") - 1
        ok = (idx >= 0) & (rt <= track.times[-1] + step)
        if int(ok.sum()) < need:
            continue
        score = float(np.mean(np.abs(r_thumbs[ok] - ref_thumbs[idx[ok]])))
        if score < best[1] - 1e-9:
            best = (float(off), score)
    return best


def offset_from_event(capture_event_t: float, scenario_event_t: float,
                      rate: float = 1.0) -> float:
    """Offset that lines a recording up on one event seen in both: the time of a PlayScript
    in the capture (recording seconds) and the same event's time in the scenario."""
    return capture_event_t - scenario_event_t * rate
