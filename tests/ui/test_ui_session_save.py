"""Saving a session writes the DATs it plays (a DAT opened on the command line included)."""

from __future__ import annotations

import json

from viewer import synthetic
from viewer.cli import main
from viewer.ui import commands as c
from viewer.ui.session import open_session


def test_save_of_a_dat_only_session_names_the_dat(tmp_path, capsys):
    session = open_session(dat=str(synthetic.SYNTHETIC_DAT), prepass=False)
    session.load_setup(synthetic.SETUP_MARKER, None)
    out = tmp_path / "elsewhere" / "s.json"
    out.parent.mkdir()
    session.apply(c.SaveScenario(str(out)))
    saved = json.loads(out.read_text())
    assert saved["dat"] == [str(synthetic.SYNTHETIC_DAT.resolve())]
    assert main(["trace", "--scenario", str(out), "--seconds", "0.1"]) == 0


def test_save_keeps_the_scenarios_own_relative_dat(tmp_path):
    session = open_session(scenario=str(synthetic.DEFAULT_SCENARIO), prepass=False)
    out = tmp_path / "s.json"
    session.apply(c.SaveScenario(str(out)))
    saved = json.loads(out.read_text())
    assert not saved["dat"][0].startswith("/")          # rebased, still relative
    assert (out.parent / saved["dat"][0]).resolve() == synthetic.SYNTHETIC_DAT.resolve()
