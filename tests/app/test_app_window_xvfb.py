"""The real window (moderngl-window + pyglet) under Xvfb: start `vfxviewer open`, let the app
save a screenshot of its own framebuffer after a few frames, and check that the grid, the
axes and the panels are visible. Skips only when Xvfb is not installed (./test installs it
when run as root, otherwise prints the apt-get command)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from imagecheck import load_png, save_png
from viewer_checks import assert_viewer_visible

ROOT = Path(__file__).resolve().parents[2]


def _xvfb_run() -> str:
    path = shutil.which("xvfb-run")
    if path is None:
        pytest.skip("Xvfb is not installed (apt-get install -y xvfb xauth)")
    return path


def run_window(tmp_path, *extra, after=6, size="640x420", timeout=120):
    out = tmp_path / "window.png"
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONHASHSEED="0")
    env.pop("DISPLAY", None)
    cmd = [_xvfb_run(), "-a", "-s", "-screen 0 1024x768x24", sys.executable, "-m", "viewer",
           "open", *extra, "--size", size, "--screenshot", str(out),
           "--screenshot-after", str(after)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert out.exists(), proc.stderr[-3000:]
    return load_png(out), tmp_path / "config"


def test_window_opens_under_xvfb_and_shows_grid_and_panels(tmp_path):
    img, config = run_window(tmp_path)
    save_png(img, ROOT / "tests" / "_artifacts" / "xvfb_window" / "window.png")
    assert img.shape[:2] == (420, 640)
    assert_viewer_visible(img)
    # The layout is saved between runs, in the user config dir (not the repo).
    assert (config / "vfxviewer" / "imgui.ini").is_file()
    assert "Viewport" in (config / "vfxviewer" / "imgui.ini").read_text()
