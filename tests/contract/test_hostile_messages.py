"""Hostile inputs, round 2, class 10: wrong or raw messages (issue 26).

Each failure is the contract's one line naming what is wrong (the field path, the file, the
DID) with the right exit status: an ``--actions`` entry without ``"command"`` said
``actions[0]: 'command'``, an unknown command ``module 'viewer.ui.commands' has no
attribute ...``, SaveScenario / TakeScreenshot to a path that cannot be written an
``InternalError: FileNotFoundError ... at pathlib.py``; ``render --camera 0,0,0 --target
0,0,0`` exited 1 naming the DAT (it is bad usage: 2); a missing or wrong-type Setup or table
lacked its ``objects[i].setup`` path; ``--crop -1,0,5,5`` got argparse's "expected one
argument".
"""

from __future__ import annotations

import json
import types

import numpy as np
import pytest

from viewer import synthetic as S
from viewer.errors import OutputError, ScenarioError

from .conftest import SYN, assert_input_failure, assert_usage_error, write_scenario

SETUP = f"0x{S.SETUP_HUMANOID:08X}"
TABLE = f"0x{S.PST_HUMANOID:08X}"
SCRIPT = f"0x{S.PES_COLLISION_FLASH:08X}"


def _actions_error(entry) -> str:
    from viewer.app import parse_actions
    with pytest.raises(ScenarioError) as info:
        parse_actions([entry])
    return str(info.value)


# -- --actions entries ----------------------------------------------------------------------------
def test_action_without_command_says_so():
    """Issue 26: ``actions[0]: 'command'`` (a KeyError's text)."""
    assert _actions_error({"frame": 1}) == 'actions[0]: needs "command"'
    assert _actions_error({"command": "Play"}) == 'actions[0]: needs "frame"'


@pytest.mark.parametrize("name", ["Frobnicate", "annotations", "dataclass", "Command",
                                  "field", "", 3, None, ["Seek"]])
def test_unknown_action_command_names_the_field(name):
    """Issue 26: ``module 'viewer.ui.commands' has no attribute ...``; a name the module
    holds that is no command (``dataclass``, the base ``Command``) is unknown too."""
    line = _actions_error({"frame": 1, "command": name})
    assert line.startswith(f"actions[0].command: unknown command {name!r} (one of "), line
    assert "Seek" in line and "module" not in line


def test_unknown_action_field_names_it():
    line = _actions_error({"frame": 1, "command": "OpenDat", "path": "/dev/zero"})
    assert line == "actions[0].path: unknown field of OpenDat (it takes paths)"


def test_missing_action_field_names_it():
    assert _actions_error({"frame": 1, "command": "Seek"}) == "actions[0]: Seek needs 't'"


def test_action_hex_text_is_ascii_only():
    line = _actions_error({"frame": 1, "command": "PlayScript", "object": 1,
                           "script": "0x3300010\u0663"})
    assert line.startswith("actions[0].script: not an integer"), line


def test_action_hex_text_still_reads_as_an_integer():
    from viewer.app import parse_actions
    [(frame, cmd)] = parse_actions([{"frame": 2, "command": "PlayScript", "object": 1,
                                     "script": SCRIPT}])
    assert frame == 2 and cmd.script == int(SCRIPT, 16)


def test_actions_file_errors_through_the_command_line(cli, tmp_path):
    actions = tmp_path / "a.json"
    actions.write_text(json.dumps([{"frame": 1, "command": "Nope"}]))
    r = cli("screenshot", "--out", tmp_path / "x.png", "--actions", actions)
    assert_input_failure(r, str(actions), "actions[0].command: unknown command 'Nope'")
    assert not (tmp_path / "x.png").exists()


# -- writes the viewer is asked for ---------------------------------------------------------------
def test_save_scenario_to_an_unwritable_path_is_one_output_error(tmp_path):
    """Issue 26: SaveScenario there was ``InternalError: FileNotFoundError ... at
    pathlib.py:1044`` in the Errors panel."""
    from viewer.sim.scenario import Scenario
    from viewer.ui.error_panel import ErrorLog
    blocker = tmp_path / "file"
    blocker.write_text("")
    sc = Scenario.from_json({"dat": [str(SYN)], "objects": []})
    for target in (blocker / "s.json", tmp_path / "missing" / "s.json"):
        with pytest.raises(OutputError) as info:
            sc.save(target)
        assert str(info.value).startswith(f"{target}: cannot write the scenario: ")
        entry = ErrorLog().report(info.value, "actions")
        assert entry.kind == "OutputError"


@pytest.mark.parametrize("name", ["file/x.png", "x.unknownsuffix"])
def test_take_screenshot_to_an_unwritable_path_is_one_output_error(tmp_path, name):
    from viewer.app.viewer_app import ViewerApp
    (tmp_path / "file").write_text("")
    target = tmp_path / name
    fake = types.SimpleNamespace(display_size=(4, 2), fb_scale=1.0,
                                 wiring=types.SimpleNamespace(
                                     camera_state=types.SimpleNamespace(last_screenshot=None)))
    fbo = types.SimpleNamespace(read=lambda **kw: np.zeros(4 * 2 * 4, np.uint8).tobytes())
    with pytest.raises(OutputError) as info:
        ViewerApp._save_screenshot(fake, fbo, str(target))
    assert str(info.value).startswith(f"{target}: cannot write the screenshot: ")


def test_open_dat_on_a_device_does_not_say_not_found():
    """Issue 26: ``OpenDat /dev/zero`` said "not found"."""
    from viewer.ui.session import open_database
    with pytest.raises(ScenarioError) as info:
        open_database(["/dev/zero"])
    assert "not found" not in str(info.value) and "/dev/zero" in str(info.value)


# -- render's camera ------------------------------------------------------------------------------
def test_camera_on_its_target_is_usage(cli, tmp_path):
    """Issue 26: ``render --camera 0,0,0 --target 0,0,0`` exited 1 naming the DAT."""
    r = cli("render", SYN, "--setup", SETUP, "--out", tmp_path / "x.png", "--camera",
            "0,0,0", "--target", "0,0,0")
    assert_usage_error(r)
    assert str(SYN) not in r.err and "--camera 0,0,0" in r.err
    assert not (tmp_path / "x.png").exists()


def test_camera_on_the_default_target_is_usage(cli, tmp_path):
    """Object 1 at the origin: the default target is 0,0,0.5."""
    r = cli("render", SYN, "--setup", SETUP, "--out", tmp_path / "x.png", "--camera",
            "0,0,0.5", "--seconds", "0", "--size", "8x8")
    assert_usage_error(r)
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and str(SYN) not in lines[0], r.err
    assert "default target" in lines[0]


@pytest.mark.parametrize("argv", [["--target", "-1,0,0"], ["--camera", "-3,0,1"],
                                  ["--target", "-.5,-2,-1e1"]])
def test_negative_camera_values_are_values(argv):
    """``--target -1,0,0`` was argparse's "expected one argument"."""
    from viewer.cli import build_parser
    args = build_parser().parse_args(["render", str(SYN), "--setup", SETUP, "--out", "x.png",
                                      *argv])
    assert args.target is not None or args.camera == argv[1]


def test_negative_crop_is_the_crop_range_error(cli):
    """Issue 26: ``--crop -1,0,5,5`` got argparse's "expected one argument"."""
    r = cli("compare", SYN, "--setup", SETUP, "--reference", "r.mp4", "--crop", "-1,0,5,5")
    assert_usage_error(r)
    assert "expected one argument" not in r.err
    assert "--crop '-1,0,5,5': x and y must be in" in r.err


# -- a scenario's Setup and table -----------------------------------------------------------------
@pytest.mark.parametrize(("obj", "field", "did"), [
    ({"setup": "0x02000999"}, "setup", "0x02000999"),
    ({"setup": SCRIPT}, "setup", SCRIPT),
    ({"setup": SETUP, "table": "0x34000999"}, "table", "0x34000999"),
    ({"setup": SETUP, "table": SETUP}, "table", SETUP),
])
def test_missing_or_wrong_type_setup_and_table_name_the_field(cli, tmp_path, obj, field, did):
    """Issue 26: the line named the DID but not ``objects[0].setup``."""
    data = {"dat": [str(SYN)], "seconds": 0, "objects": [{"id": 1, **obj}]}
    path = write_scenario(tmp_path / "s.json", data)
    assert_input_failure(cli("trace", "--scenario", path), str(path), f"DID {did}",
                         f"objects[0].{field}: ")
    data = {"dat": [str(SYN)], "seconds": 0,
            "events": [{"t": 0, "object": 2, "create": obj}]}
    path = write_scenario(tmp_path / "e.json", data)
    assert_input_failure(cli("trace", "--scenario", path), str(path), f"DID {did}",
                         f"events[0]: create.{field}: ")


# -- compare's crop -----------------------------------------------------------------------------
@pytest.fixture
def recording(tmp_path):
    """A two-frame image-folder recording of 32x24 pixels."""
    from PIL import Image
    folder = tmp_path / "rec"
    folder.mkdir()
    for k in range(2):
        Image.new("RGB", (32, 24), (100 * k, 0, 0)).save(folder / f"f{k}.png")
    return folder


@pytest.mark.parametrize(("crop", "how"), [("1000,1000,5,5", "lies outside"),
                                           ("0,0,40,10", "lies partly outside"),
                                           ("30,20,4,4", "lies partly outside")])
def test_crop_outside_the_recording_is_usage_naming_the_recording(cli, recording, crop, how):
    """Issue 26: a crop far outside blamed the DAT (exit 1); one partly outside was cut
    silently to what lay inside."""
    r = cli("compare", SYN, "--setup", SETUP, "--reference", recording, "--crop", crop,
            "--seconds", "0", "--size", "8x8")
    assert_usage_error(r)
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1, r.err
    assert f"--crop {crop} {how} the 32x24 recording {recording}" in lines[0]
    assert str(SYN) not in lines[0]


def test_scenario_reference_crop_outside_is_an_input_failure(cli, recording, tmp_path):
    data = {"dat": [str(SYN)], "seconds": 0, "objects": [{"id": 1, "setup": SETUP}],
            "reference": {"path": str(recording), "crop": [0, 0, 33, 24]}}
    path = write_scenario(tmp_path / "s.json", data)
    assert_input_failure(cli("compare", "--scenario", path, "--size", "8x8"), str(path),
                         "reference.crop: [0,0,33,24] lies partly outside the 32x24")


def test_crop_inside_the_recording_passes_the_check(recording):
    from viewer.commands.compare import _check_crop
    from viewer.compare.reference import Crop, ReferenceTrack
    track = ReferenceTrack.load(recording)
    for crop in (Crop(0, 0, 32, 24), Crop(31, 23, 1, 1), Crop(4, 4, 8, 8)):
        _check_crop(track, crop, given=True, sc=None)


@pytest.mark.parametrize("option", ["--dump-state", "--screenshot"])
def test_open_outputs_that_cannot_be_written_are_said_before_the_window(cli, tmp_path,
                                                                       option):
    """They were written when the window closed: an OSError after the whole session."""
    (tmp_path / "file").write_text("")
    target = tmp_path / "file" / "x.json"
    assert_input_failure(cli("open", option, target), str(target), option)


def test_viewer_writes_to_unwritable_paths_are_output_errors_in_the_viewer(cli, tmp_path):
    """Through the viewer itself (screenshot --actions): SaveScenario, TakeScreenshot and
    ExportCapture under a file were ``InternalError: ...Error ... at pathlib.py``."""
    (tmp_path / "file").write_text("")
    under = tmp_path / "file"
    actions = tmp_path / "a.json"
    actions.write_text(json.dumps([
        {"frame": 1, "command": "SaveScenario", "path": str(under / "s.json")},
        {"frame": 1, "command": "TakeScreenshot", "path": str(under / "x.png")},
        {"frame": 1, "command": "ExportCapture", "path": str(under / "x.gif"), "start": 0,
         "end": 0.05}]))
    r = cli("screenshot", "--out", tmp_path / "o.png", "--size", "64x64", "--frames", "1",
            "--actions", actions)
    assert r.rc == 1, r
    assert "InternalError" not in r.err and "Traceback" not in r.err, r.err
    for name, what in (("s.json", "scenario"), ("x.png", "screenshot"), ("x.gif", "capture")):
        assert f"OutputError: {under / name}: cannot write the {what}: " in r.err, r.err


def test_load_setup_error_names_the_setup_not_the_open_scenario():
    """LoadSetup of a DID no DAT holds named the scenario file that was open and its
    ``objects[0].setup``; it is the Setup asked for that is missing."""
    from viewer.ui import commands as c
    from viewer.ui.session import open_session
    s = open_session(None, None)
    with pytest.raises(ScenarioError) as info:
        s.apply(c.LoadSetup(0x02000999, None))
    line = str(info.value)
    assert line.startswith("DID 0x02000999: load Setup 0x02000999: "), line
    assert "objects[0]" not in line and ".json" not in line
