"""Picture outputs other than PNG: ``screenshot``, ``render`` and ``compare`` write a
``--out`` ending in ``.jpg`` (or another picture type Pillow writes in colour) through the
one save path (``viewer.media.save_image``: ``.partial`` then rename), the picture set over
black where the type has no alpha channel. A type nothing can write is bad usage (exit 2)
before any work starts."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from viewer.media import output_kind, save_image

from .test_bounds import _compare, _render, _screenshot, usage_error


def _picture(path):
    with Image.open(path) as im:
        return im.format, im.mode, np.asarray(im.convert("RGB"), np.int16)


def test_save_image_sets_an_RGBA_picture_over_black_for_a_JPEG(tmp_path):
    out = save_image(Image.new("RGBA", (16, 16), (200, 100, 40, 128)), tmp_path / "x.jpg")
    fmt, mode, px = _picture(out)
    assert (fmt, mode) == ("JPEG", "RGB")
    assert np.abs(px - np.array([100, 50, 20])).max() <= 3      # half covered, black behind
    assert [p.name for p in tmp_path.iterdir()] == ["x.jpg"]     # the .partial was renamed


@pytest.mark.parametrize("name, kind", [("x.png", "picture"), ("x.JPG", "picture"),
                                        ("x.jpeg", "picture"), ("x.webp", "picture"),
                                        ("x.gif", "gif"), ("x.mp4", "video"), ("x", "dir"),
                                        ("x.xyz", None), ("x.txt", None)])
def test_output_kind_of_each_suffix(name, kind):
    assert output_kind(name) == kind


def test_screenshot_out_jpg_writes_a_JPEG(tmp_path):
    r = _screenshot(tmp_path / "x.jpg")
    assert r.rc == 0, r
    fmt, mode, px = _picture(tmp_path / "x.jpg")
    assert (fmt, mode, px.shape) == ("JPEG", "RGB", (64, 64, 3))
    assert [p.name for p in tmp_path.iterdir()] == ["x.jpg"]


def test_screenshot_to_a_picture_type_without_colour_is_a_usage_error(tmp_path):
    usage_error(_screenshot(tmp_path / "x.xbm"), "--out", "x.xbm")   # 1-bit only
    assert not list(tmp_path.iterdir())


def test_render_out_jpg_writes_the_last_frame_as_the_png_would(tmp_path):
    assert _render(tmp_path / "x.png", "--grid").rc == 0
    r = _render(tmp_path / "x.jpg", "--grid")
    assert r.rc == 0, r
    _, _, png = _picture(tmp_path / "x.png")
    fmt, mode, jpg = _picture(tmp_path / "x.jpg")
    assert (fmt, mode, jpg.shape) == ("JPEG", "RGB", png.shape)
    assert np.abs(jpg - png).mean() < 4.0                   # the same picture, JPEG-coded
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jpg", "x.png"]


def test_compare_out_jpg_writes_the_last_composed_frame(tmp_path):
    r = _compare(tmp_path, "--out", tmp_path / "c.jpg")
    assert r.rc == 0, r
    fmt, _, px = _picture(tmp_path / "c.jpg")
    assert fmt == "JPEG" and px.shape[0] == 16 and px.shape[1] > 32   # side by side


@pytest.mark.parametrize("command", ["render", "compare"])
def test_render_and_compare_to_an_unknown_type_are_usage_errors_before_any_work(tmp_path,
                                                                                command):
    out = tmp_path / "x.xyz"
    r = _render(out) if command == "render" else _compare(tmp_path, "--out", out)
    usage_error(r, "--out", "'.xyz'")
    assert not out.exists()
