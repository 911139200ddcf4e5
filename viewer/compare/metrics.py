"""Per-frame difference figures: mean absolute difference and SSIM (scikit-image)."""

from __future__ import annotations

import numpy as np


def _rgb(image: np.ndarray) -> np.ndarray:
    return image[..., :3]


def mean_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    """Mean over pixels and channels of |a - b|, in 0..255 units."""
    return float(np.mean(np.abs(_rgb(a).astype(np.int16) - _rgb(b).astype(np.int16))))


def ssim(a: np.ndarray, b: np.ndarray) -> float:
    """Structural similarity of two RGB frames (1 = identical)."""
    from skimage.metrics import structural_similarity
    a3, b3 = _rgb(a), _rgb(b)
    win = min(7, a3.shape[0], a3.shape[1])
    if win % 2 == 0:
        win -= 1
    if win < 3:
        return 1.0 if np.array_equal(a3, b3) else 0.0
    with np.errstate(all="ignore"):  # skimage divides by constant-image variances
        return float(structural_similarity(a3, b3, channel_axis=2, data_range=255,
                                           win_size=win))


def frame_figures(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    return {"mad": mean_abs_diff(a, b), "ssim": ssim(a, b)}
