"""Hostile inputs, round 2, class 9: an output never destroys an input (issue 26).

``replay c.pcap --scenario-out c.pcap`` overwrote the capture and then blamed it; ``render
x.png ... --out x.png``, ``screenshot`` and ``compare --reference r.mp4 --csv r.mp4`` exited
0 having replaced their input. An output that is one of the command's inputs (the same file,
through a symbolic or hard link too) is bad usage: exit 2, one line, before any work, and
the input is unchanged. Two outputs naming one file are bad usage too.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from viewer import synthetic as S
from viewer.commands.overwrite import clash

from .conftest import CAPTURES, SYN, assert_usage_error

SETUP = f"0x{S.SETUP_HUMANOID:08X}"


def _kept(path, before: bytes) -> None:
    assert path.read_bytes() == before, f"{path} was changed"


def _one_line(r) -> str:
    assert_usage_error(r)
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1, r.err
    assert "destroy an input" in lines[0] or "name one file" in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def capture(tmp_path):
    src = sorted(CAPTURES.glob("*.pcap*"))[0]
    dst = tmp_path / ("c" + src.suffix)
    shutil.copyfile(src, dst)
    return dst


@pytest.fixture
def dat_png(tmp_path):
    """The synthetic DAT under a picture's name (a DAT may be called anything)."""
    dst = tmp_path / "x.png"
    shutil.copyfile(SYN, dst)
    return dst


# -- replay ---------------------------------------------------------------------------------------
def test_replay_scenario_out_onto_the_capture_is_usage(cli, capture):
    """Issue 26's reproduction: the capture was overwritten, then blamed."""
    before = capture.read_bytes()
    line = _one_line(cli("replay", capture, "--scenario-out", capture))
    assert "--scenario-out" in line and "capture" in line
    _kept(capture, before)


def test_replay_scenario_out_onto_the_capture_through_links(cli, capture, tmp_path):
    before = capture.read_bytes()
    (tmp_path / "sym").symlink_to(capture)
    os.link(capture, tmp_path / "hard")
    _one_line(cli("replay", capture, "--scenario-out", tmp_path / "sym"))
    _one_line(cli("replay", tmp_path / "hard", "--scenario-out", capture))
    _kept(capture, before)


def test_replay_scenario_out_onto_the_dat_is_usage(cli, capture, tmp_path):
    dat = tmp_path / "d.dat"
    shutil.copyfile(SYN, dat)
    before = dat.read_bytes()
    line = _one_line(cli("replay", capture, "--dat", dat, "--trace", "--scenario-out", dat))
    assert "DAT" in line
    _kept(dat, before)


def test_replay_scenario_out_elsewhere_still_works(cli, capture, tmp_path):
    r = cli("replay", capture, "--scenario-out", tmp_path / "s.json")
    assert r.rc == 0, r
    assert json.loads((tmp_path / "s.json").read_text())["events"] is not None


# -- render ---------------------------------------------------------------------------------------
def test_render_out_onto_the_dat_is_usage(cli, dat_png):
    """Issue 26: ``render x.png ... --out x.png`` replaced the DAT with a picture."""
    before = dat_png.read_bytes()
    line = _one_line(cli("render", dat_png, "--setup", SETUP, "--out", dat_png))
    assert "--out" in line and "DAT" in line
    _kept(dat_png, before)


def test_render_out_onto_the_scenario_or_its_dat_is_usage(cli, tmp_path, dat_png):
    scenario = tmp_path / "s.png"
    scenario.write_text(json.dumps({"dat": ["x.png"], "seconds": 0,
                                    "objects": [{"id": 1, "setup": SETUP}]}))
    before = scenario.read_bytes(), dat_png.read_bytes()
    _one_line(cli("render", "--scenario", scenario, "--out", scenario))
    _one_line(cli("render", "--scenario", scenario, "--out", dat_png))
    assert (scenario.read_bytes(), dat_png.read_bytes()) == before


# -- screenshot -----------------------------------------------------------------------------------
def test_screenshot_out_onto_an_input_is_usage(cli, tmp_path, dat_png):
    before = dat_png.read_bytes()
    _one_line(cli("screenshot", dat_png, "--out", dat_png))
    _kept(dat_png, before)
    actions = tmp_path / "a.png"
    actions.write_text("[]")
    _one_line(cli("screenshot", "--actions", actions, "--out", actions))
    _kept(actions, b"[]")
    scenario = tmp_path / "s.png"
    scenario.write_text(json.dumps({"dat": [str(SYN)], "objects": []}))
    text = scenario.read_bytes()
    _one_line(cli("screenshot", "--scenario", scenario, "--out", scenario))
    _kept(scenario, text)


# -- compare --------------------------------------------------------------------------------------
@pytest.mark.parametrize("option", ["--csv", "--json", "--out"])
def test_compare_output_onto_the_reference_is_usage(cli, tmp_path, option):
    """Issue 26: ``compare --reference r.mp4 --csv r.mp4`` exited 0 having replaced it."""
    ref = tmp_path / "r.mp4"
    ref.write_bytes(b"not really a video, but an input all the same")
    before = ref.read_bytes()
    line = _one_line(cli("compare", SYN, "--setup", SETUP, "--reference", ref, option, ref))
    assert option in line and "reference" in line
    _kept(ref, before)


def test_compare_output_onto_the_scenario_reference_is_usage(cli, tmp_path):
    ref = tmp_path / "r.csv"
    ref.write_bytes(b"recording")
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"dat": [str(SYN)], "seconds": 0,
                                    "objects": [{"id": 1, "setup": SETUP}],
                                    "reference": {"path": "r.csv"}}))
    _one_line(cli("compare", "--scenario", scenario, "--csv", ref))
    _kept(ref, b"recording")


def test_compare_two_outputs_on_one_file_is_usage(cli, tmp_path):
    line = _one_line(cli("compare", SYN, "--setup", SETUP, "--reference", tmp_path / "r.mp4",
                         "--csv", tmp_path / "f.txt", "--json", tmp_path / "f.txt"))
    assert "name one file" in line


def test_compare_output_onto_the_dat_is_usage(cli, tmp_path):
    dat = tmp_path / "d.csv"
    shutil.copyfile(SYN, dat)
    _one_line(cli("compare", dat, "--setup", SETUP, "--reference", tmp_path / "r.mp4",
                  "--csv", dat))
    assert dat.read_bytes() == SYN.read_bytes()


# -- open -----------------------------------------------------------------------------------------
def test_open_outputs_onto_inputs_are_usage(cli, tmp_path, dat_png):
    """Checked before the window (or the missing display) is looked at."""
    before = dat_png.read_bytes()
    _one_line(cli("open", dat_png, "--screenshot", dat_png))
    _one_line(cli("open", dat_png, "--dump-state", dat_png))
    _kept(dat_png, before)


# -- the rule -------------------------------------------------------------------------------------
def test_clash_is_by_file_identity(tmp_path):
    a = tmp_path / "a"
    a.write_text("x")
    assert clash([("--out", tmp_path / "new")], [("DAT", a)]) is None  # not yet a file
    assert clash([("--out", a)], [("DAT", tmp_path / "missing")]) is None
    assert clash([("--out", tmp_path / "." / "a")], [("DAT", a)]) is not None
    assert clash([("--out", None)], [("DAT", a)]) is None
    assert clash([("--out", a)], [("DAT", None)]) is None
    assert clash([("--csv", tmp_path / "n"), ("--json", tmp_path / "n")], []) is not None
    assert clash([("--csv", tmp_path / "n"), ("--json", tmp_path / "m")], []) is None


def test_check_outputs_refuses_a_clash_then_checks_each_output(tmp_path, capsys):
    """viewer.commands.overwrite.check_outputs: the one order every command checks its
    outputs in (an input named as an output is usage before any path is probed)."""
    from viewer.commands.overwrite import check_outputs
    from viewer.errors import OutputError
    dat = tmp_path / "in.dat"
    dat.write_bytes(b"x")
    assert check_outputs("p", [("--out", dat)], [("DAT", dat)]) is None
    assert "destroy an input" in capsys.readouterr().err
    assert check_outputs("p", [("--out", tmp_path / "o.png"), ("--csv", None)],
                         [("DAT", dat)]) == [tmp_path / "o.png", None]
    with pytest.raises(OutputError):
        check_outputs("p", [("--out", tmp_path)], [("DAT", dat)])   # a folder, not a file
