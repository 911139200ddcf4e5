"""The test harness itself: the EGL context fixture and the image comparison helper."""

from __future__ import annotations

import imagecheck
import numpy as np
import pytest
from imagecheck import assert_image_matches, load_png


def _checker(h=8, w=8):
    img = np.zeros((h, w, 4), np.uint8)
    img[..., 3] = 255
    img[::2, ::2, 0] = 200
    img[1::2, 1::2, 2] = 180
    return img


def test_gl_ctx_is_headless_egl_and_renders(gl_ctx):
    fbo = gl_ctx.simple_framebuffer((4, 4))
    fbo.use()
    fbo.clear(0.0, 1.0, 0.0, 1.0)
    px = np.frombuffer(fbo.read(components=4), np.uint8).reshape(4, 4, 4)
    assert (px == [0, 255, 0, 255]).all()
    assert gl_ctx.version_code >= 330
    fbo.release()


def test_imagecheck_passes_identical_and_within_tolerance(tmp_path):
    img = _checker()
    golden = tmp_path / "g.png"
    assert_image_matches(img, golden, regen=True)
    assert_image_matches(img, golden)
    near = img.copy()
    near[0, 0, 0] += 2
    assert_image_matches(near, golden, tol=2)


def test_imagecheck_failure_writes_actual_expected_diff(tmp_path, monkeypatch):
    monkeypatch.setattr(imagecheck, "ARTIFACTS", tmp_path / "art")
    img = _checker()
    golden = tmp_path / "g.png"
    assert_image_matches(img, golden, regen=True)
    bad = img.copy()
    bad[3, 4, 1] = 9
    with pytest.raises(AssertionError, match="largest channel error 9"):
        assert_image_matches(bad, golden, tol=2, test_name="case")
    out = tmp_path / "art" / "case"
    assert (load_png(out / "actual.png") == bad).all()
    assert (load_png(out / "expected.png") == img).all()
    diff = load_png(out / "diff.png")
    assert diff[3, 4, 1] == 9 * imagecheck.DIFF_GAIN and diff[0, 0, :3].max() == 0


def test_imagecheck_max_bad_fraction_allows_a_few_pixels(tmp_path, monkeypatch):
    monkeypatch.setattr(imagecheck, "ARTIFACTS", tmp_path / "art")
    img = _checker()
    golden = tmp_path / "g.png"
    assert_image_matches(img, golden, regen=True)
    bad = img.copy()
    bad[0, 0, 1] = 100  # 1 of 64 pixels
    assert_image_matches(bad, golden, max_bad_fraction=1 / 64)
    with pytest.raises(AssertionError):
        assert_image_matches(bad, golden, max_bad_fraction=0.01, test_name="few")


def test_imagecheck_missing_golden_fails_with_regen_hint(tmp_path, monkeypatch):
    monkeypatch.setattr(imagecheck, "ARTIFACTS", tmp_path / "art")
    monkeypatch.delenv("REGEN_GOLDENS", raising=False)
    with pytest.raises(AssertionError, match="--regen-goldens"):
        assert_image_matches(_checker(), tmp_path / "none.png", test_name="m")


def test_imagecheck_size_mismatch_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(imagecheck, "ARTIFACTS", tmp_path / "art")
    golden = tmp_path / "g.png"
    assert_image_matches(_checker(), golden, regen=True)
    with pytest.raises(AssertionError, match="size"):
        assert_image_matches(_checker(4, 8), golden, test_name="s")

