"""Comparison views of a rendered frame ``a`` and a reference frame ``b`` (same size, RGB
or RGBA uint8): side by side, overlay, wipe, onion skin, absolute difference."""

from __future__ import annotations

from enum import Enum

import numpy as np

from viewer.compare.reference import resize


class ViewMode(str, Enum):
    SIDE_BY_SIDE = "side_by_side"
    OVERLAY = "overlay"
    WIPE = "wipe"
    ONION = "onion"
    DIFFERENCE = "difference"


def _match(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a3 = a[..., :3]
    b3 = resize(np.ascontiguousarray(b[..., :3]), (a3.shape[1], a3.shape[0]))
    return a3, b3


def side_by_side(a: np.ndarray, b: np.ndarray, gap: int = 2) -> np.ndarray:
    a3, b3 = _match(a, b)
    sep = np.full((a3.shape[0], gap, 3), 255, np.uint8)
    return np.concatenate([a3, sep, b3], axis=1)


def overlay(a: np.ndarray, b: np.ndarray, opacity: float = 0.5) -> np.ndarray:
    a3, b3 = _match(a, b)
    o = float(np.clip(opacity, 0.0, 1.0))
    return (a3.astype(np.float32) * (1 - o) + b3.astype(np.float32) * o + 0.5).astype(np.uint8)


def wipe(a: np.ndarray, b: np.ndarray, split: float = 0.5, line: bool = True) -> np.ndarray:
    """Left of the split shows the rendering, right the reference."""
    a3, b3 = _match(a, b)
    out = a3.copy()
    x = round(np.clip(split, 0.0, 1.0) * a3.shape[1])
    out[:, x:] = b3[:, x:]
    if line and 0 < x < a3.shape[1]:
        out[:, x - 1] = (255, 255, 0)
    return out


def onion(a: np.ndarray, b: np.ndarray, previous: list[np.ndarray] | None = None,
          falloff: float = 0.5) -> np.ndarray:
    """The reference at half strength over the rendering, with earlier rendered frames
    ghosted in at decreasing strength (newest first in ``previous``)."""
    a3, b3 = _match(a, b)
    acc = a3.astype(np.float32)
    w = falloff
    for prev in previous or []:
        p3 = resize(np.ascontiguousarray(prev[..., :3]), (a3.shape[1], a3.shape[0]))
        acc = np.maximum(acc, p3.astype(np.float32) * w)
        w *= falloff
    return (acc * 0.5 + b3.astype(np.float32) * 0.5 + 0.5).astype(np.uint8)


def difference(a: np.ndarray, b: np.ndarray, gain: float = 4.0) -> np.ndarray:
    a3, b3 = _match(a, b)
    d = np.abs(a3.astype(np.int16) - b3.astype(np.int16)).astype(np.float32) * gain
    return np.clip(d, 0, 255).astype(np.uint8)


def compose(mode: ViewMode | str, a: np.ndarray, b: np.ndarray, **opts) -> np.ndarray:
    mode = ViewMode(mode)
    fn = {ViewMode.SIDE_BY_SIDE: side_by_side, ViewMode.OVERLAY: overlay,
          ViewMode.WIPE: wipe, ViewMode.ONION: onion,
          ViewMode.DIFFERENCE: difference}[mode]
    return fn(a, b, **opts)
