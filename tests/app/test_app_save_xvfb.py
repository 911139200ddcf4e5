"""Save in the real window (issue 28 item 2), driven by xdotool under Xvfb: with no
arguments, Ctrl+S on the shipped default scenario opens Save As at a new file in the user's
documents (XDG_DOCUMENTS_DIR), Enter saves there (the missing folder made), a second Ctrl+S
saves that file at once; the checkout's assets_synthetic/ (made read-only for the run) is
byte-for-byte as before. Skips when Xvfb or xdotool is not installed."""

from __future__ import annotations

import hashlib
import json
import stat

from test_app_keys_xvfb import drive

from viewer import resources


def _tree(folder):
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(),
                                         p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_ctrl_s_on_the_default_scenario_saves_to_documents_never_the_library(
        tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(docs))
    library = resources.assets_dir()
    before = _tree(library)
    modes = {p: p.stat().st_mode for p in [library, *library.rglob("*")]}
    for p, mode in modes.items():
        p.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    actions = [{"frame": 2, "command": "PlayScript", "object": 1, "script": "0x33000103"}]
    steps = [["sleep", 1.5], ["key", "ctrl+s"], ["sleep", 0.6], ["key", "Return"],
             ["sleep", 0.6], ["key", "space"], ["sleep", 0.4], ["key", "space"],
             ["sleep", 0.4], ["key", "ctrl+s"]]
    (tmp_path / "run").mkdir()
    try:
        state, shot, _ = drive(tmp_path / "run", steps, frames=120, actions=actions)
    finally:
        for p, mode in modes.items():
            p.chmod(mode)
    assert shot and state["errors"] == [], state["errors"]
    saved = docs / "default.scenario.json"
    assert [p.name for p in docs.iterdir()] == ["default.scenario.json"]
    assert not state["modified"] and state["title"].startswith("default.scenario.json ")
    assert json.loads(saved.read_text())["events"]        # the play event is in it
    assert _tree(library) == before
