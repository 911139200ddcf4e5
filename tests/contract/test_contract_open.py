"""Contract section 8: ``vfxviewer`` (no arguments) and ``vfxviewer open DAT [--scenario
FILE]`` open the interactive viewer; with no arguments the synthetic default assets and
the default scenario. Without a display they fail cleanly (exit 1, one line); under Xvfb
they open, and ``--screenshot`` / ``--dump-state`` (extra options) let a script check what
they show."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from PIL import Image

from viewer import synthetic as S

from .conftest import SYN, assert_input_failure, run_process

XVFB = shutil.which("xvfb-run")
needs_xvfb = pytest.mark.skipif(XVFB is None, reason="xvfb-run not installed")


def _xvfb(*argv, env=None):
    """``xvfb-run -a vfxviewer ARGS`` (the DISPLAY comes from Xvfb)."""
    import os
    import subprocess

    from .conftest import VFXVIEWER
    full_env = dict(os.environ)
    full_env.pop("DISPLAY", None)
    full_env.update(env or {})
    p = subprocess.run([XVFB, "-a", str(VFXVIEWER), *map(str, argv)], check=False,
                       capture_output=True, text=True, env=full_env, timeout=120)
    return p


@pytest.mark.parametrize("argv", [[], ["open"], ["open", SYN]], ids=["no_args", "open",
                                                                    "open_DAT"])
def test_without_a_display_fails_cleanly(argv):
    r = run_process(*argv)
    assert_input_failure(r, "display")


@needs_xvfb
def test_open_missing_DAT_names_the_file(tmp_path):
    p = _xvfb("open", tmp_path / "gone.dat", "--screenshot", tmp_path / "o.png")
    err = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert len(err) == 1 and "gone.dat" in err[0]


@needs_xvfb
def test_no_arguments_opens_the_synthetic_default_scenario(tmp_path):
    shot = tmp_path / "noargs.png"
    p = _xvfb(env={"VFXVIEWER_SCREENSHOT": str(shot), "VFXVIEWER_SCREENSHOT_AFTER": "2"})
    assert p.returncode == 0, p.stderr[-2000:]
    with Image.open(shot) as im:
        px = np.asarray(im.convert("RGB"))
    assert px.std() > 1.0, "a window with content, not a blank frame"


@needs_xvfb
def test_open_without_DAT_loads_the_default_scenario_objects(tmp_path):
    dump = tmp_path / "state.json"
    p = _xvfb("open", "--paused", "--screenshot", tmp_path / "o.png", "--screenshot-after",
              "2", "--dump-state", dump)
    assert p.returncode == 0, p.stderr[-2000:]
    state = json.loads(dump.read_text())
    default = json.loads(S.DEFAULT_SCENARIO.read_text())
    assert [o["id"] for o in state["objects"]] == [o["id"] for o in default["objects"]]
    assert state["errors"] == []


@needs_xvfb
def test_open_DAT_with_scenario(tmp_path):
    sc = tmp_path / "s.json"
    sc.write_text(json.dumps({"seconds": 1.0, "objects": [
        {"id": 4, "setup": f"0x{S.SETUP_MARKER:08X}"}], "events": [
        {"t": 0, "object": 4, "play_script": f"0x{S.PES_EMITTER_GALLERY:08X}"}]}))
    dump = tmp_path / "state.json"
    p = _xvfb("open", SYN, "--scenario", sc, "--screenshot", tmp_path / "o.png",
              "--screenshot-after", "2", "--dump-state", dump)
    assert p.returncode == 0, p.stderr[-2000:]
    state = json.loads(dump.read_text())
    assert [o["id"] for o in state["objects"]] == [4] and state["errors"] == []


def _save_via_gui(tmp_path, scenario, save_to):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"frame": 2, "command": "SaveScenario",
                                    "path": str(save_to)}]))
    p = _xvfb("open", "--scenario", scenario, "--paused", "--actions", actions,
              "--screenshot", tmp_path / "o.png", "--screenshot-after", "4")
    assert p.returncode == 0, p.stderr[-2000:]
    assert save_to.exists()


@needs_xvfb
def test_the_GUI_saves_the_file_trace_plays(tmp_path):
    """Section 4: the GUI saves and loads the same file -- a scenario saved beside its DAT
    traces exactly as the original."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(SYN, work / "synthetic_portal.dat")
    shutil.copy(S.DEFAULT_SCENARIO, work / "default.scenario.json")
    _save_via_gui(tmp_path, work / "default.scenario.json", work / "saved.json")
    a = run_process("trace", "--scenario", work / "default.scenario.json", "--seconds", "2")
    b = run_process("trace", "--scenario", work / "saved.json", "--seconds", "2")
    assert a.rc == b.rc == 0 and a.out == b.out


@needs_xvfb
def test_a_scenario_saved_elsewhere_still_finds_its_DAT(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    saved = tmp_path / "elsewhere" / "saved.json"
    _save_via_gui(tmp_path, S.DEFAULT_SCENARIO, saved)
    r = run_process("trace", "--scenario", saved, "--seconds", "0.5")
    assert r.rc == 0, r


@needs_xvfb
def test_open_command_line_DAT_overrides_the_scenario_dat(tmp_path):
    data = json.loads(S.DEFAULT_SCENARIO.read_text())
    data["dat"] = ["nowhere.dat"]
    sc = tmp_path / "s.json"
    sc.write_text(json.dumps(data))
    dump = tmp_path / "state.json"
    p = _xvfb("open", SYN, "--scenario", sc, "--paused", "--screenshot", tmp_path / "o.png",
              "--screenshot-after", "2", "--dump-state", dump)
    assert p.returncode == 0, p.stderr[-2000:]
    state = json.loads(dump.read_text())
    assert state["errors"] == [] and [o["id"] for o in state["objects"]] == [
        o["id"] for o in data["objects"]]
