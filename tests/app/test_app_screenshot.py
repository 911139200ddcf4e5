"""`vfxviewer screenshot`: the whole viewer (3D view and panels) rendered headless to PNG."""

from __future__ import annotations

import numpy as np
import pytest
from imagecheck import assert_image_matches, load_png
from viewer_checks import assert_viewer_visible

from viewer.app import render_headless
from viewer.cli import main


def test_screenshot_command_writes_viewer_png(tmp_path, capsys):
    # No arguments: the synthetic default scenario when it exists, else an empty viewer;
    # either way the grid, axes and panels show.
    out = tmp_path / "shot.png"
    assert main(["screenshot", "--out", str(out), "--size", "640x400"]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    img = load_png(out)
    assert img.shape == (400, 640, 4)
    assert_viewer_visible(img)


def test_empty_viewer_matches_golden(regen_goldens):
    img = render_headless((400, 260), session=None)
    assert_viewer_visible(img)
    assert_image_matches(img, "app/screenshot_empty_400x260.png", tol=3,
                         max_bad_fraction=0.002, regen=regen_goldens)


def test_screenshot_is_deterministic(tmp_path):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    assert main(["screenshot", "--out", str(a), "--size", "200x140"]) == 0
    assert main(["screenshot", "--out", str(b), "--size", "200x140"]) == 0
    assert np.array_equal(load_png(a), load_png(b))


@pytest.mark.parametrize("size", ["10x10", "abc", "100"])
def test_screenshot_bad_size_is_usage_error(tmp_path, size, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["screenshot", "--out", str(tmp_path / "x.png"), "--size", size])
    assert exc.value.code == 2


def test_open_without_display_says_so(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["open"]) == 1
    assert "no display" in capsys.readouterr().err


def test_screenshot_at_a_time_shows_the_effect(tmp_path):
    out = tmp_path / "t.png"
    assert main(["screenshot", "--out", str(out), "--size", "480x300", "--time", "1.5"]) == 0
    assert_viewer_visible(load_png(out))


def test_screenshot_actions_show_a_comparison_and_export_the_viewer(tmp_path, capsys):
    """--actions drives the headless viewer as it drives the window: load a recording, show
    the wipe view, and export the whole viewer over 0.1 s as a GIF."""
    import json

    from PIL import Image

    from viewer.media import read_frames

    rec = tmp_path / "rec"
    rec.mkdir()
    for k in range(5):
        Image.fromarray(np.full((36, 64, 3), (200, 40, 160), np.uint8)).save(rec / f"{k}.png")
    gif = tmp_path / "viewer.gif"
    actions = [{"frame": 0, "command": "LoadReference", "path": str(rec), "fps": 30},
               {"frame": 1, "command": "SetCompareMode", "mode": "wipe"},
               {"frame": 3, "command": "ExportCapture", "path": str(gif), "start": 0.0,
                "end": 0.1, "window": True}]
    (tmp_path / "a.json").write_text(json.dumps(actions))
    out = tmp_path / "shot.png"
    assert main(["screenshot", "--out", str(out), "--size", "480x300", "--actions",
                 str(tmp_path / "a.json")]) == 0, capsys.readouterr().err
    img = load_png(out)
    magenta = (np.abs(img[..., :3].astype(int) - (200, 40, 160)) <= 14).all(axis=-1)
    assert magenta.sum() > 500
    frames = list(read_frames(gif))
    assert len(frames) == 4 and frames[0].image.shape[:2] == (300, 480)


def test_screenshot_action_that_fails_exits_1(tmp_path, capsys):
    import json
    (tmp_path / "a.json").write_text(json.dumps(
        [{"frame": 0, "command": "LoadReference", "path": str(tmp_path / "none.mp4")}]))
    assert main(["screenshot", "--out", str(tmp_path / "s.png"), "--size", "200x140",
                 "--actions", str(tmp_path / "a.json")]) == 1
    assert "none.mp4" in capsys.readouterr().err
