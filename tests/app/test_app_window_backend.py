"""`open --window BACKEND`: a backend moderngl-window does not know, or one whose toolkit is
not installed (glfw, sdl2, pyside2 are not dependencies), is one line naming what to
install (usage, exit 2), never an ImportError traceback."""

from __future__ import annotations

import importlib.util

import pytest

from viewer.app.window import window_class
from viewer.errors import UsageError


def test_an_unknown_backend_is_named():
    with pytest.raises(UsageError, match="unknown window backend 'nope'"):
        window_class("nope")


def test_a_backend_whose_toolkit_is_missing_names_the_package():
    if importlib.util.find_spec("sdl2") is not None:
        pytest.skip("PySDL2 is installed here")
    with pytest.raises(UsageError, match=r"--window sdl2: needs the Python package 'sdl2'"):
        window_class("sdl2")


def test_the_cli_says_it_in_one_line_with_exit_2(tmp_path, capsys, monkeypatch):
    if importlib.util.find_spec("sdl2") is not None:
        pytest.skip("PySDL2 is installed here")
    monkeypatch.setenv("DISPLAY", ":99")   # past the no-display check: no window is opened
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    from viewer.cli import main
    rc = main(["open", "--window", "sdl2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "pip install sdl2" in err[0]
