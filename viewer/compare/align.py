"""Finding the time offset between a rendering and a recording.

Both are reduced to small grayscale thumbnails (so scale, crop margins and compression noise
matter little). Every candidate offset on the recording's frame grid is scored over the
frames both cover by how well their *changes* agree: the frame-to-frame difference images of
the rendering and of the recording sampled at the offset. What moves in the effect lines
up; what differs but holds still (a second object standing in the recording, a different
background, a changed colour) cancels out of the differences, and the worst frames (an
object popping in) are trimmed, so neither can pull the answer away. Scenes with no motion
at all fall back to the mean thumbnail difference.
"""

from __future__ import annotations

import numpy as np

from viewer.compare.reference import ReferenceTrack, resize
from viewer.media import block_rms

THUMB = (48, 27)


def thumbnail(image: np.ndarray, size: tuple[int, int] = THUMB) -> np.ndarray:
    small = resize(np.ascontiguousarray(image[..., :3]), size).astype(np.float32)
    return small @ np.array([0.299, 0.587, 0.114], np.float32)


def _motion_score(r_thumbs: np.ndarray, ref_sampled: np.ndarray,
                  trim: float = 0.1) -> float | None:
    """How badly the frame-to-frame changes of the two stacks disagree, relative to how
    much changes at all; None when nothing moves in the rendering. The worst ``trim`` of the
    frames is left out, so a one-off event in the recording (an object popping in, a
    cut) cannot decide the answer."""
    dr = np.diff(r_thumbs, axis=0)
    df = np.diff(ref_sampled, axis=0)
    moving = float(np.abs(dr).mean())
    if moving <= 1e-6:
        return None
    norm = moving + float(np.abs(df).mean())
    e = np.sort(np.abs(dr - df).mean(axis=(1, 2)))
    keep = len(e) - max(1, int(len(e) * trim)) if len(e) >= 5 else len(e)
    return float(e[:keep].mean()) / norm


def estimate_offset(render_times: np.ndarray, render_frames: list[np.ndarray],
                    track: ReferenceTrack, *, search: tuple[float, float] | None = None,
                    min_overlap: float = 0.5) -> tuple[float, float]:
    """Returns ``(offset, score)``: the recording time at timeline t = 0 that best lines the
    recording up with the rendered frames (``track.rate`` is kept), and its score (lower is
    better: the relative motion disagreement, or the mean thumbnail difference for a
    motionless scene).
    ``search`` bounds the offsets tried (default: the recording's length either way)."""
    return estimate_offset_of_thumbnails(render_times, [thumbnail(f) for f in render_frames],
                                         track, search=search, min_overlap=min_overlap)


def estimate_offset_of_thumbnails(render_times: np.ndarray, render_thumbs: list[np.ndarray],
                                  track: ReferenceTrack, *,
                                  search: tuple[float, float] | None = None,
                                  min_overlap: float = 0.5) -> tuple[float, float]:
    """``estimate_offset`` from the rendered frames' ``thumbnail``s (a caller that streams
    its frames keeps only these)."""
    render_times = np.asarray(render_times, np.float64)
    r_thumbs = np.stack(render_thumbs)
    ref_thumbs = np.stack([thumbnail(track.cropped(f)) for f in track.frames])
    step = float(np.median(np.diff(track.times))) if len(track.times) > 1 else 1 / 30
    lo, hi = search if search is not None else (-track.duration - render_times[-1],
                                                track.duration)
    candidates = np.arange(lo, hi + step / 2, step)
    need = max(2, int(len(render_times) * min_overlap))
    motion: list[tuple[float, float]] = []
    still: list[tuple[float, float]] = []
    for off in candidates:
        rt = off + render_times * track.rate
        idx = np.searchsorted(track.times, rt + 1e-9, side="right") - 1
        ok = (idx >= 0) & (rt <= track.times[-1] + step)
        if int(ok.sum()) < need:
            continue
        r, f = r_thumbs[ok], ref_thumbs[idx[ok]]
        # scores are per covered frame: dividing by the covered fraction keeps an offset
        # from winning merely by overlapping less of the rendering
        cover = float(ok.sum()) / len(render_times)
        m = _motion_score(r, f)
        if m is not None:
            motion.append((m / cover, float(off)))
        still.append((float(np.mean(np.abs(r - f))) / cover, float(off)))
    pool = motion or still
    if not pool:
        return (0.0, float("inf"))
    score, off = min(pool, key=lambda so: (round(so[0], 9), abs(so[1])))
    return (off, score)


def offset_from_event(capture_event_t: float, scenario_event_t: float,
                      rate: float = 1.0) -> float:
    """Offset that lines a recording up on one event seen in both: the time of a PlayScript
    in the capture (recording seconds) and the same event's time in the scenario."""
    return capture_event_t - scenario_event_t * rate


AUDIO_BLOCK = 256   # samples per envelope block: the precision of the audio alignment


def _envelope(x: np.ndarray, block: int) -> np.ndarray:
    """Per-block RMS, with its mean removed (so silence vs. sound decides, not level)."""
    return _centred(block_rms(x, block))


def _stretched(x: np.ndarray, rate: float) -> np.ndarray:
    """A track (float64) stretched to ``rate`` recording seconds per timeline second."""
    r = np.asarray(x, np.float64)
    if rate != 1.0 and len(r) > 1:
        n = int(round(len(r) * rate))
        r = np.interp(np.arange(n) / rate, np.arange(len(r)), r)
    return r


def _centred(e: np.ndarray) -> np.ndarray:
    return e - e.mean() if len(e) else e


def estimate_audio_offset(render_audio: np.ndarray, recording_audio: np.ndarray,
                          sample_rate: int, *, rate: float = 1.0,
                          block: int = AUDIO_BLOCK) -> tuple[float, float]:
    """Returns ``(offset, score)``: the recording time at timeline t = 0 that lines the
    recording's sound up with the scenario's rendered sound track (both mono at
    ``sample_rate``, the render's sample 0 at t = 0), found by cross-correlating their
    block envelopes (numpy FFT) to within one block; the score is the normalized
    correlation at that lag (1 = identical envelopes). ``rate`` (recording seconds per
    timeline second) stretches the render's track first."""
    r = _stretched(render_audio, rate)
    return offset_of_envelopes(_envelope(r, block), _envelope(np.asarray(recording_audio), block),
                               sample_rate, block)


def offset_of_envelopes(a: np.ndarray, b: np.ndarray, sample_rate: int, block: int
                        ) -> tuple[float, float]:
    """``estimate_audio_offset`` from the two block envelopes (``_envelope``): the
    render's ``a`` and the recording's ``b``."""
    if not len(a) or not len(b) or not a.any() or not b.any():
        return 0.0, 0.0
    size = 1 << int(np.ceil(np.log2(len(a) + len(b))))
    # corr[L] = sum_n a[n] * b[n + L]: lag L means the recording is L blocks later
    corr = np.fft.irfft(np.conj(np.fft.rfft(a, size)) * np.fft.rfft(b, size), size)
    lags = np.concatenate([np.arange(0, len(b)), np.arange(-(len(a) - 1), 0)])
    values = np.concatenate([corr[:len(b)], corr[size - (len(a) - 1):]])
    best = int(np.argmax(values))
    score = float(values[best] / (np.linalg.norm(a) * np.linalg.norm(b)))
    return lags[best] * block / float(sample_rate), score


def align_audio(recording_path: str, render_audio: np.ndarray, sample_rate: int, *,
                rate: float = 1.0) -> float:
    """The offset that lines the recording at ``recording_path`` up by its sound with the
    scenario's sound track ``render_audio`` (mono or stereo, sample 0 at t = 0); a
    recording without sound, or a scenario that plays none, is an error."""
    from pathlib import Path

    from viewer.errors import ScenarioError
    from viewer.media import MediaError, audio_block_rms
    r = np.asarray(render_audio, np.float32)
    if r.ndim == 2:
        r = r.mean(axis=1)
    if not len(r) or not np.abs(r).max():
        raise ScenarioError("aligning by sound: the scenario plays no sound to line up")
    # the recording streamed into its block envelope (its first ALIGN_AUDIO_MAX_SECONDS):
    # hours of sound cost their envelope, not their samples
    rec = (audio_block_rms(recording_path, sample_rate, AUDIO_BLOCK)
           if Path(recording_path).is_file() else None)
    if rec is None or not len(rec[0]) or not rec[1]:
        raise MediaError("aligning by sound: the recording has no sound", file=recording_path)
    offset, _ = offset_of_envelopes(_envelope(_stretched(r, rate), AUDIO_BLOCK),
                                    _centred(rec[0]), sample_rate, AUDIO_BLOCK)
    return offset
