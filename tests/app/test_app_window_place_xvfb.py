"""The window fits the screen (issue 28 item 1): on a 1280x720 Xvfb screen the viewer opens
at most that big, and layout.FitCheck run in the real window (every dock tab in front in
turn) finds nothing cut and no panel past the display; the size and place are remembered
per screen (window.json in the settings folder) and a remembered place that is too big
or off-screen comes back inside. The placing rule itself (window_place.place) is tested
with a desktop's work area and frame. Skips when Xvfb is not installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from viewer.app import window_place as W

ROOT = Path(__file__).resolve().parents[2]
SCREEN = "-screen 0 1280x720x24"
KEY = "1280x720+0+0"


def _xvfb(tmp_path, *cmd, timeout=180):
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        pytest.skip("Xvfb is not installed (apt-get install -y xvfb xauth)")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"), PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("DISPLAY", None)
    proc = subprocess.run([xvfb, "-a", "-s", SCREEN, sys.executable, *cmd], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return tmp_path / "cfg" / "vfxviewer" / "window.json"


def _open(tmp_path, *extra):
    return _xvfb(tmp_path, "-m", "viewer", "open", "--paused", *extra, "--screenshot",
                 str(tmp_path / "shot.png"), "--screenshot-after", "4")


def _remembered(path: Path) -> dict:
    return json.loads(path.read_text())["screens"][KEY]


@pytest.mark.parametrize("work_area, display, position", [
    (None, [1280, 720], [0, 0]),                                   # a bare X server
    ((0, 27, 1280, 693), [1280 - W.FRAME[0], 693 - W.FRAME[1]],    # a desktop's top bar
     [W.FRAME[0] // 2, 27 + W.FRAME[1] - W.FRAME[0] // 2])])
def test_on_a_1280x720_screen_every_panel_is_on_screen_and_nothing_is_cut(
        tmp_path, work_area, display, position):
    report = tmp_path / "report.json"
    memory = _xvfb(tmp_path, str(ROOT / "tests" / "app" / "window_fit_driver.py"),
                   str(report), *(str(v) for v in work_area or ()))
    got = json.loads(report.read_text())
    assert got["display"] == display                 # not 1400x860: the screen's room
    assert got["rounds"] >= 5                        # every tab of every dock was in front
    assert got["problems"] == [] and got["off_screen"] == []
    assert _remembered(memory) == {"size": display, "position": position}
    assert json.loads(memory.read_text())["last"] == KEY


def test_a_remembered_size_and_place_come_back_and_an_off_screen_one_is_moved_in(tmp_path):
    memory = tmp_path / "cfg" / "vfxviewer" / "window.json"
    memory.parent.mkdir(parents=True)
    memory.write_text(json.dumps({"last": KEY, "screens": {
        KEY: {"size": [800, 500], "position": [100, 60]}}}))
    assert _remembered(_open(tmp_path)) == {"size": [800, 500], "position": [100, 60]}
    # larger than the screen and far off it (a screen that was bigger, or another one)
    memory.write_text(json.dumps({"last": "1920x1080+1280+0", "screens": {
        KEY: {"size": [3000, 2000], "position": [5000, -400]},
        "1920x1080+1280+0": {"size": [1900, 1000], "position": [1300, 20]}}}))
    assert _remembered(_open(tmp_path)) == {"size": [1280, 720], "position": [0, 0]}
    # --size is honoured up to the screen, at the remembered place
    memory.write_text(json.dumps({"screens": {KEY: {"size": [800, 500],
                                                     "position": [100, 60]}}}))
    assert _remembered(_open(tmp_path, "--size", "640x400")) == {"size": [640, 400],
                                                                  "position": [100, 60]}


def test_a_desktops_work_area_is_kept_by_vfxviewer_open_too(tmp_path):
    """The command a user runs, with a window manager's _NET_WORKAREA (a 27 px top bar)
    and a --size larger than it: the window's inside is the work area less the frame."""
    memory = _xvfb(tmp_path, str(ROOT / "tests" / "app" / "workarea_driver.py"),
                   "0", "27", "1280", "693", "--", "--paused", "--size", "1600x900",
                   "--screenshot", str(tmp_path / "shot.png"), "--screenshot-after", "4")
    fw, fh = W.FRAME
    assert _remembered(memory) == {"size": [1280 - fw, 693 - fh],
                                   "position": [fw // 2, 27 + fh - fw // 2]}


def test_place_keeps_the_window_and_its_frame_inside_the_work_area():
    rect = W.Rect(0, 0, 1280, 720)
    bare = W.Screen(W.screen_key(rect), rect, rect, framed=False)
    assert W.place(W.DEFAULT_SIZE, bare) == (0, 0, 1280, 720)
    assert W.place((640, 400), bare) == (320, 160, 640, 400)           # centred
    # a desktop with a top bar of 27 px and a frame around windows
    area = W.Rect(0, 27, 1280, 693)
    desk = W.Screen(W.screen_key(rect), rect, area, framed=True)
    x, y, w, h = W.place(W.DEFAULT_SIZE, desk)
    fw, fh = W.FRAME
    assert (w, h) == (1280 - fw, 693 - fh)
    assert x - fw // 2 >= area.x and x + w + fw // 2 <= area.x + area.w
    assert y - (fh - fw // 2) >= area.y and y + h + fw // 2 <= area.y + area.h
    for saved in ({"size": [5000, 5000], "position": [-900, -900]},
                  {"size": [400, 300], "position": [4000, 4000]},
                  {"size": "big", "position": None}):                 # damaged: ignored
        x, y, w, h = W.place(W.DEFAULT_SIZE, desk, saved)
        assert area.x <= x - fw // 2 and x + w + fw // 2 <= area.x + area.w
        assert area.y <= y - (fh - fw // 2) and y + h + fw // 2 <= area.y + area.h
    screens = [desk, W.Screen("1920x1080+1280+0", W.Rect(1280, 0, 1920, 1080),
                              W.Rect(1280, 0, 1920, 1080), True)]
    assert W.pick_screen(screens, {"last": "1920x1080+1280+0"}) is screens[1]
    assert W.pick_screen(screens, {"last": "gone"}) is screens[0]
    assert W.screen_at(screens, 1500, 500) is screens[1]


def test_a_damaged_memory_file_is_an_empty_memory(tmp_path):
    path = tmp_path / "window.json"
    path.write_text("{not json")
    mem = W.WindowMemory(path)
    assert mem.data == {"screens": {}}
    rect = W.Rect(0, 0, 800, 600)
    screen = W.Screen(W.screen_key(rect), rect, rect, False)
    mem.remember(screen, 10, 20, 640, 480)
    assert W.WindowMemory(path).saved(screen) == {"size": [640, 480], "position": [10, 20]}


def test_a_window_manager_that_moves_the_window_down_does_not_make_it_creep(tmp_path):
    """A desktop that puts the frame where the inside was asked for shows the inside a
    title bar lower: the remembered place is corrected by what was measured once placed."""
    import types

    from viewer.app.window import _Placing

    rect = W.Rect(0, 0, 1280, 720)
    screen = W.Screen(W.screen_key(rect), rect, rect, framed=True)
    placing = _Placing(None, "no-pyglet")
    placing.screen, placing.screens, placing.place = screen, [screen], (100, 60, 800, 500)
    placing.memory = W.WindowMemory(tmp_path / "window.json")
    wnd = types.SimpleNamespace(position=(100, 92), size=(800, 500))
    placing.settled(wnd)
    wnd.position = (150, 132)                       # the user moved it a little
    placing.remember(wnd)
    assert placing.memory.saved(screen) == {"size": [800, 500], "position": [150, 100]}
