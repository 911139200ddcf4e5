"""Image comparison for rendering tests (pygfx / VisPy style).

``assert_image_matches(actual, golden_path, tol=..., max_bad_fraction=..., regen=...)``
compares an RGBA uint8 array with a golden PNG under ``tests/goldens/``. A pixel is "bad"
when any channel differs by more than ``tol``; the check fails when more than
``max_bad_fraction`` of the pixels are bad. On failure it writes ``actual.png``,
``expected.png`` and a magnified ``diff.png`` to ``tests/_artifacts/<test name>/`` and names
that folder in the message. With ``regen=True`` (pytest ``--regen-goldens`` or
``REGEN_GOLDENS=1``, see the ``regen_goldens`` fixture) it rewrites the golden and passes.
A missing golden fails with a hint to regenerate it (never a silent pass).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
from PIL import Image

TESTS = Path(__file__).resolve().parent
GOLDENS = TESTS / "goldens"
ARTIFACTS = TESTS / "_artifacts"

# The diff image scales each channel's absolute error by this (clipped at 255), so a
# one-level difference is still visible.
DIFF_GAIN = 16


def _as_rgba(image) -> np.ndarray:
    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise TypeError(f"expected a uint8 image, got {arr.dtype}")
    if arr.ndim == 2:
        arr = np.stack([arr, arr, arr, np.full_like(arr, 255)], axis=-1)
    if arr.ndim != 3 or arr.shape[2] not in (3, 4):
        raise ValueError(f"expected an HxWx3 or HxWx4 image, got shape {arr.shape}")
    if arr.shape[2] == 3:
        arr = np.concatenate([arr, np.full(arr.shape[:2] + (1,), 255, np.uint8)], axis=-1)
    return np.ascontiguousarray(arr)


def load_png(path: str | os.PathLike) -> np.ndarray:
    with Image.open(path) as im:
        return _as_rgba(np.asarray(im.convert("RGBA")))


def save_png(image, path: str | os.PathLike) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(_as_rgba(image), "RGBA").save(path)
    return path


def current_test_name() -> str:
    """The running pytest test's name, made safe for a folder name."""
    raw = os.environ.get("PYTEST_CURRENT_TEST", "unknown_test").split(" ")[0]
    raw = raw.split("::")[-1] if "::" in raw else raw
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", raw).strip("_") or "unknown_test"


def artifact_dir(test_name: str | None = None) -> Path:
    return ARTIFACTS / (test_name or current_test_name())


def diff_image(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Magnified absolute difference of the colour channels, opaque."""
    err = np.abs(actual.astype(np.int16) - expected.astype(np.int16))
    rgb = np.clip(err[..., :3].astype(np.int32) * DIFF_GAIN, 0, 255).astype(np.uint8)
    # Alpha differences show in every channel so they are not lost.
    alpha = np.clip(err[..., 3:4].astype(np.int32) * DIFF_GAIN, 0, 255).astype(np.uint8)
    rgb = np.maximum(rgb, alpha)
    return np.concatenate([rgb, np.full(rgb.shape[:2] + (1,), 255, np.uint8)], axis=-1)


def compare(actual: np.ndarray, expected: np.ndarray, tol: int) -> tuple[float, int]:
    """(fraction of bad pixels, largest channel error)."""
    err = np.abs(actual.astype(np.int16) - expected.astype(np.int16))
    per_pixel = err.max(axis=-1)
    return float((per_pixel > tol).mean()), int(per_pixel.max(initial=0))


def assert_image_matches(actual_rgba_uint8, golden_path: str | os.PathLike, *, tol: int = 2,
                         max_bad_fraction: float = 0.0, regen: bool = False,
                         test_name: str | None = None) -> None:
    """Fail unless ``actual`` matches the golden within ``tol`` per channel on all but
    ``max_bad_fraction`` of the pixels. Relative ``golden_path`` is under tests/goldens/."""
    actual = _as_rgba(actual_rgba_uint8)
    golden = Path(golden_path)
    if not golden.is_absolute():
        golden = GOLDENS / golden
    if regen or os.environ.get("REGEN_GOLDENS") == "1":
        save_png(actual, golden)
        return
    out = artifact_dir(test_name)
    if not golden.exists():
        save_png(actual, out / "actual.png")
        raise AssertionError(
            f"golden {golden} does not exist; actual written to {out / 'actual.png'}; "
            f"run pytest with --regen-goldens (or REGEN_GOLDENS=1) to create it")
    expected = load_png(golden)
    if expected.shape != actual.shape:
        save_png(actual, out / "actual.png")
        save_png(expected, out / "expected.png")
        raise AssertionError(f"image size {actual.shape[1]}x{actual.shape[0]} != golden "
                             f"{expected.shape[1]}x{expected.shape[0]} ({golden}); "
                             f"images in {out}")
    bad, worst = compare(actual, expected, tol)
    if bad > max_bad_fraction:
        save_png(actual, out / "actual.png")
        save_png(expected, out / "expected.png")
        save_png(diff_image(actual, expected), out / "diff.png")
        raise AssertionError(
            f"{bad:.4%} of pixels differ by more than {tol} (allowed {max_bad_fraction:.4%}; "
            f"largest channel error {worst}) against {golden}; actual / expected / diff "
            f"(x{DIFF_GAIN}) written to {out}")
