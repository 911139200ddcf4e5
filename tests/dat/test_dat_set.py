"""Folders as DAT sets (viewer/dat/dat_set.py): a folder stands for the retail DAT files in
it, opened in one collection with retail's lookup order (client_highres.dat first for the
DIDs it holds, CLCache::GetDiskController); the members it lacks are named; the usual
install places are offered per platform."""

from __future__ import annotations

import os
from pathlib import Path, PureWindowsPath

import pytest

from viewer.dat import dat_set as D
from viewer.dat.database import AssetDatabase
from viewer.dat.writer import write_dat, write_highres_dat
from viewer.errors import DatError

ODD = "Asheron's Call (ÄÖ)"


@pytest.fixture
def install(tmp_path) -> Path:
    folder = tmp_path / ODD
    folder.mkdir()
    write_dat(folder / "client_portal.dat", {0x06000001: b"portal-1", 0x33000001: b"s"})
    write_highres_dat(folder / "client_highres.dat", {0x06000001: b"hires-1"})
    return folder


def test_folder_gives_the_retail_members_it_holds_and_names_the_others(install):
    found = D.expand([install])
    assert found.files == [install / "client_portal.dat", install / "client_highres.dat"]
    (folder,) = found.folders
    assert folder.found == ("client_portal.dat", "client_highres.dat")
    assert folder.missing == ("client_cell_1.dat", "client_local_English.dat")
    assert found.notes() == [
        f"{install}: found client_portal.dat, client_highres.dat; "
        f"missing client_cell_1.dat, client_local_English.dat"]


def test_CLCache_GetDiskController_highres_first_across_a_folder(install):
    with AssetDatabase(str(install)) as db:
        assert db.raw(0x06000001) == b"hires-1"      # in client_highres.dat: read there
        assert db.raw(0x33000001) == b"s"            # elsewhere: client_portal.dat
        assert db.dat_set is not None and len(db.dat_set.folders) == 1


def test_member_names_match_without_case_and_other_dats_come_last_sorted(tmp_path):
    folder = tmp_path / "AC"
    folder.mkdir()
    for name in ("zz_extra.dat", "CLIENT_PORTAL.DAT", "a_extra.Dat", "client_cell_1.dat",
                 "client_local_English.dat", "client_highres.dat", "readme.txt"):
        write_dat(folder / name, {0x01000001: name.encode()})
    (folder / "sub.dat").mkdir()       # a folder named .dat is not a DAT file
    found = D.expand([folder])
    assert [p.name for p in found.files] == [
        "CLIENT_PORTAL.DAT", "client_cell_1.dat", "client_highres.dat",
        "client_local_English.dat", "a_extra.Dat", "zz_extra.dat"]
    assert found.notes() == []
    assert found.folders[0].others == ("a_extra.Dat", "zz_extra.dat")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_called_dat_is_not_opened(tmp_path):
    os.mkfifo(tmp_path / "client_portal.dat")
    with pytest.raises(DatError) as err:
        D.open_collection([tmp_path])
    assert "no DAT file in folder" in str(err.value) and str(tmp_path) in str(err.value)


def test_folder_without_a_dat_is_one_error_naming_it(tmp_path):
    with pytest.raises(DatError) as err:
        AssetDatabase(str(tmp_path))
    text = str(err.value)
    assert text.startswith(str(tmp_path)) and "client_portal.dat" in text
    assert "\n" not in text


def test_files_pass_through_and_no_paths_open_nothing(install):
    portal = install / "client_portal.dat"
    found = D.expand([str(portal)])
    assert found.files == [portal] and found.folders == []
    coll, _ = D.open_collection([])
    assert coll.files == []


def test_announcer_names_each_incomplete_folder_once(install):
    said: list[str] = []
    D.set_announcer(said.append)
    try:
        D.open_collection([install])[0].close()
        D.open_collection([str(install) + os.sep])[0].close()
    finally:
        D.set_announcer(None)
    assert said == [f"{install}: found client_portal.dat, client_highres.dat; "
                    f"missing client_cell_1.dat, client_local_English.dat"]


def test_install_places_on_windows(tmp_path):
    got = [PureWindowsPath(str(p)) for p in D.install_candidates("win32", {}, tmp_path)]
    assert got == [PureWindowsPath(r"C:\Turbine\Asheron's Call"),
                   PureWindowsPath(r"C:\Program Files (x86)\Turbine\Asheron's Call"),
                   PureWindowsPath(r"C:\Program Files\Turbine\Asheron's Call")]
    env = {"SystemDrive": "D:", "ProgramFiles(x86)": r"E:\Apps86"}
    got = [PureWindowsPath(str(p)) for p in D.install_candidates("win32", env, tmp_path)]
    assert PureWindowsPath(r"D:\Turbine\Asheron's Call") in got
    assert PureWindowsPath(r"E:\Apps86\Turbine\Asheron's Call") in got


def test_install_places_in_wine_prefixes_only_when_they_exist(tmp_path):
    home = tmp_path / "home"
    wine = home / ".wine" / "drive_c" / "Turbine" / "Asheron's Call"
    prefix = tmp_path / "ac prefix"
    other = prefix / "drive_c" / "Program Files (x86)" / "Turbine" / "Asheron's Call"
    assert D.install_folders("linux", {}, home) == []
    wine.mkdir(parents=True)
    other.mkdir(parents=True)
    assert D.install_folders("linux", {"WINEPREFIX": str(prefix)}, home) == [other, wine]
    bottle = (home / "Library" / "Application Support" / "CrossOver" / "Bottles" / "AC"
              / "drive_c" / "Turbine" / "Asheron's Call")
    bottle.mkdir(parents=True)
    assert D.install_folders("darwin", {}, home) == [wine, bottle]
