"""The GUI opens a folder as a DAT set (Open DAT, the session, the recent list) and says
which retail members it found and which it lacks (Errors panel and notice); the Open DAT
dialog offers the usual install folders that exist. The folder is named with spaces, an
apostrophe and non-ASCII letters."""

from __future__ import annotations

import json
import os

import pytest
import ui_fixtures as F

from viewer.app import ViewerApp, browse_folder
from viewer.app import prompts as P
from viewer.render.framebuffer import OffscreenTarget
from viewer.ui import commands as c
from viewer.ui.assets_panel import RecentFiles
from viewer.ui.session import open_session

SIZE = (360, 240)
ODD = "Asheron's Call (ÄÖ)"
CFG = "Ann's settings (ÄÖ)"
MISSING = "missing client_cell_1.dat, client_highres.dat, client_local_English.dat"


@pytest.fixture
def install(tmp_path):
    folder = tmp_path / ODD
    folder.mkdir()
    F.write_dat(folder / "client_portal.dat")
    return folder


@pytest.fixture
def app(gl_ctx, tmp_path):
    a = ViewerApp(gl_ctx, display_size=SIZE, ini_path=tmp_path / CFG / "imgui.ini")
    a.test_target = OffscreenTarget(gl_ctx, SIZE)
    yield a
    a.release()
    a.test_target.release()


def test_session_opens_a_folder_and_notes_the_missing_members(install):
    session = open_session(str(install))
    assert session.dat_paths == [str(install)]
    assert F.SETUP in session.db
    (notice,) = session.take_notices()
    assert str(notice) == f"{install}: found client_portal.dat; {MISSING}"


def test_open_dat_by_folder_says_what_it_found_and_keeps_it_in_recent(app, install, tmp_path):
    assert app.controller.apply(c.OpenDat((str(install),)))
    app.frame(1 / 60, SIZE, app.test_target.fbo)
    assert app.session.dat_paths == [str(install)]
    (entry,) = [e for e in app.errors.entries if e.kind == "IncompleteDatSet"]
    assert entry.file == str(install) and entry.context == "Open DAT"
    assert entry.message == f"found client_portal.dat; {MISSING}"
    assert app.recent.items == [str(install)]
    # the recent list lives in the (odd-named) settings folder and reads back the same
    assert RecentFiles(tmp_path / CFG / "recent.json").items == [str(install)]


def test_open_dat_dialog_offers_install_folders_that_exist(app, install, monkeypatch):
    monkeypatch.setattr(P, "install_folders", lambda: [install])
    app.prompts.open_dialog("dat")
    assert app.prompts.install_folders == [str(install)]
    app.prompts.open_dialog("load")
    assert app.prompts.install_folders == []


def test_path_dialog_lists_the_odd_folders_dat_files(install):
    folder, listing = browse_folder(str(install) + os.sep, (".dat",))
    assert folder == install and listing == [("client_portal.dat", False)]
    folder, listing = browse_folder(str(install.parent / "Ash"), (".dat",))
    assert (ODD, True) in listing


def test_a_saved_scenario_reopens_the_folder(install, tmp_path):
    session = open_session(str(install))
    saved = tmp_path / "Ann's scenario (ÄÖ).json"
    session.scenario_to_save().save(saved)
    assert json.loads(saved.read_text(encoding="utf-8"))["dat"] == [str(install)]
    again = open_session(None, str(saved))
    assert F.SETUP in again.db and again.dat_paths == [str(install)]
