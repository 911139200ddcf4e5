"""Settings and cache folders on each OS (viewer/userdirs.py, platformdirs), with the
platform faked: Linux keeps ~/.config/vfxviewer ($XDG_CONFIG_HOME honoured), Windows uses
%APPDATA% (roaming), macOS ~/Library/Application Support; numba's cache goes under the
cache folder unless NUMBA_CACHE_DIR is set."""

from __future__ import annotations

import sys
from pathlib import Path, PureWindowsPath

import pytest

from viewer import userdirs as U
from viewer.ui import layout
from viewer.ui.assets_panel import RecentFiles

ODD = "Asheron's Call (ÄÖ)"
XDG = ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    monkeypatch.setenv("HOME", str(h))
    for var in XDG:
        monkeypatch.delenv(var, raising=False)
    return h


def test_linux_keeps_dot_config_and_dot_cache(home):
    assert U.config_dir("linux") == home / ".config" / "vfxviewer"
    assert U.cache_dir("linux") == home / ".cache" / "vfxviewer"
    assert U.numba_cache_dir("linux") == home / ".cache" / "vfxviewer" / "numba"


def test_linux_honours_xdg_variables(home, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert U.config_dir("linux") == tmp_path / "cfg" / "vfxviewer"
    assert U.cache_dir("linux") == tmp_path / "cache" / "vfxviewer"


def test_windows_uses_roaming_appdata_for_settings_and_local_for_cache(home, monkeypatch):
    # platformdirs' documented override of the Windows known folders (no Windows API here)
    monkeypatch.setenv("WIN_PD_OVERRIDE_APPDATA", r"C:\Users\Ann\AppData\Roaming")
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", r"C:\Users\Ann\AppData\Local")
    assert PureWindowsPath(U.config_dir("win32")) == PureWindowsPath(
        r"C:\Users\Ann\AppData\Roaming\vfxviewer")
    assert PureWindowsPath(U.cache_dir("win32")) == PureWindowsPath(
        r"C:\Users\Ann\AppData\Local\vfxviewer\Cache")


def test_macos_uses_application_support_and_caches(home):
    assert U.config_dir("darwin") == home / "Library" / "Application Support" / "vfxviewer"
    assert U.cache_dir("darwin") == home / "Library" / "Caches" / "vfxviewer"


def test_layout_ini_follows_the_platform(home, monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert layout.default_ini_path() == (home / "Library" / "Application Support"
                                         / "vfxviewer" / "imgui.ini")
    monkeypatch.setattr(sys, "platform", "linux")
    assert layout.default_ini_path() == home / ".config" / "vfxviewer" / "imgui.ini"


def test_numba_cache_dir_is_set_unless_the_user_chose_one(home):
    env: dict[str, str] = {}
    U.use_numba_cache_dir(env)
    assert Path(env["NUMBA_CACHE_DIR"]) == U.numba_cache_dir()
    mine = {"NUMBA_CACHE_DIR": "/somewhere/else"}
    U.use_numba_cache_dir(mine)
    assert mine == {"NUMBA_CACHE_DIR": "/somewhere/else"}


def test_recent_list_round_trips_odd_names_in_an_odd_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / ODD))
    path = U.config_dir("linux") / "recent.json"
    dat = str(tmp_path / ODD / "client_portal.dat")
    folder = str(tmp_path / ODD)
    RecentFiles(path).add(dat)
    again = RecentFiles(path)
    again.add(folder)
    assert RecentFiles(path).items == [folder, dat]
