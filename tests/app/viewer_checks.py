"""Checks shared by the screenshot and Xvfb window tests: is the 3D view (grid and axes)
visible, and are panels drawn? Work on any size; HxWx3 or HxWx4 uint8."""

from __future__ import annotations

import numpy as np


def colour_mask(img, lo, hi) -> np.ndarray:
    rgb = img[..., :3].astype(int)
    return ((rgb >= np.array(lo)) & (rgb <= np.array(hi))).all(axis=-1)


def axes_visible(img) -> dict[str, int]:
    """Pixel counts of the three axis colours (X red, Y green, Z blue)."""
    return {
        "x": int(colour_mask(img, (150, 0, 0), (255, 110, 110)).sum()),
        "y": int(colour_mask(img, (0, 130, 0), (120, 255, 120)).sum()),
        "z": int(colour_mask(img, (0, 40, 160), (130, 170, 255)).sum()),
    }


def grid_pixels(img) -> int:
    """Grey grid-line pixels: neutral and brighter than the background (~28..36)."""
    rgb = img[..., :3].astype(int)
    neutral = (np.abs(rgb[..., 0] - rgb[..., 1]) < 12) & (np.abs(rgb[..., 2] - rgb[..., 1]) < 20)
    return int((neutral & (rgb[..., 1] > 48) & (rgb[..., 1] < 200)).sum())


def text_pixels(img, x0: float = 0.0, x1: float = 1.0) -> int:
    """Near-white pixels (ImGui's default text) in the columns [x0, x1) of the width."""
    w = img.shape[1]
    part = img[:, int(w * x0):int(w * x1)]
    return int(colour_mask(part, (200, 200, 200), (255, 255, 255)).sum())


def title_bar_pixels(img) -> int:
    """ImGui dark style's active title / tab blue."""
    return int(colour_mask(img, (30, 60, 100), (80, 120, 175)).sum())


def assert_viewer_visible(img) -> None:
    axes = axes_visible(img)
    assert all(n >= 3 for n in axes.values()), f"world axes not visible: {axes}"
    assert grid_pixels(img) > 200, f"ground grid not visible ({grid_pixels(img)} px)"
    assert title_bar_pixels(img) > 100, "no panel title bars / tabs"
    assert text_pixels(img) > 100, "no panel text"
