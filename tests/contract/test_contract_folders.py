"""Contract additions (2026-12-02), Folders: wherever a DAT is taken, a folder means the
retail DAT files in it; the retail members it lacks are named once on stderr (not an
error); a folder without a DAT is one line, exit 1. Driven with the synthetic DAT copied as
client_portal.dat into a folder named with spaces, an apostrophe and non-ASCII letters."""

from __future__ import annotations

import json
import shutil

import pytest

from viewer import synthetic as S

from .conftest import SYN, assert_input_failure, run_process

ODD = "Asheron's Call (ÄÖ)"
MISSING = "missing client_cell_1.dat, client_highres.dat, client_local_English.dat"
TRACE = ("--setup", f"0x{S.SETUP_MARKER:08X}", "--script", f"0x{S.PES_EMITTER_LIMITS:08X}",
         "--seconds", "0.2", "--fps", "30")


@pytest.fixture
def install(tmp_path):
    folder = tmp_path / ODD
    folder.mkdir()
    shutil.copyfile(SYN, folder / "client_portal.dat")
    return folder


def _names_missing_once(err: str, folder) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert lines == [f"vfxviewer: {folder}: found client_portal.dat; {MISSING}"], err


def test_dat_ls_by_folder_lists_the_set_and_names_the_missing_members(cli, install):
    by_folder = cli("dat", "ls", install)
    assert by_folder.rc == 0, by_folder
    assert by_folder.out == cli("dat", "ls", SYN).out
    _names_missing_once(by_folder.err, install)


def test_dat_show_by_folder(cli, install):
    did = f"0x{S.PES_EMITTER_LIMITS:08X}"
    r = cli("dat", "show", install, did)
    assert r.rc == 0, r
    assert json.loads(r.out) == json.loads(cli("dat", "show", SYN, did).out)


def test_trace_by_folder_is_the_trace_of_its_files(cli, install):
    r = cli("trace", install, *TRACE)
    assert r.rc == 0, r
    assert r.out == cli("trace", SYN, *TRACE).out
    _names_missing_once(r.err, install)


def test_scenario_dat_may_name_a_folder(cli, install, tmp_path):
    scenario = json.loads((SYN.parent / "default.scenario.json").read_text(encoding="utf-8"))
    scenario["dat"] = [ODD]                          # relative to the scenario file
    path = tmp_path / "by folder.scenario.json"
    path.write_text(json.dumps(scenario, ensure_ascii=False), encoding="utf-8")
    r = cli("trace", "--scenario", path, "--seconds", "0.1")
    assert r.rc == 0, r
    _names_missing_once(r.err, install)


def test_dat_verify_by_folder(cli, install):
    r = cli("dat", "verify", install, "--type", "0x33")
    assert r.rc == 0, r
    assert r.out == cli("dat", "verify", SYN, "--type", "0x33").out


def test_a_folder_without_a_dat_is_one_line_exit_1(cli, tmp_path):
    empty = tmp_path / ODD
    empty.mkdir()
    (empty / "readme.txt").write_text("no DATs here", encoding="utf-8")
    for argv in (("dat", "ls", empty), ("trace", empty, *TRACE)):
        assert_input_failure(cli(*argv), str(empty), "no DAT file in folder")


def test_a_real_process_takes_the_odd_folder_name(install):
    r = run_process("dat", "ls", install, "--type", "0x33",
                    env={"PYTHONIOENCODING": "utf-8"})
    assert r.rc == 0, r
    assert r.lines and all(ln.startswith("0x33") for ln in r.lines)
    _names_missing_once(r.err, install)


def test_the_note_belongs_to_the_command_run_only(cli, install, capsys):
    from viewer.dat.database import AssetDatabase

    assert cli("dat", "ls", install).rc == 0
    with AssetDatabase(str(install)) as db:       # library use after main: says nothing
        assert db.dat_set.notes() and db.dat_set.folders[0].missing
    assert capsys.readouterr().err == ""
