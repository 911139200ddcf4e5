"""File > Load scenario plays and frames the new objects like startup; the path dialog
lists the typed folder's matching files and remembers recent folders."""

from __future__ import annotations

import os

import pytest

from viewer.app import ViewerApp, browse_folder
from viewer.render.framebuffer import OffscreenTarget
from viewer.synthetic import DEFAULT_SCENARIO
from viewer.ui import commands as c

SIZE = (640, 400)


def test_browse_folder_lists_subfolders_then_matching_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.json").write_text("{}")
    (tmp_path / "b.dat").write_bytes(b"")
    (tmp_path / ".hidden.json").write_text("{}")
    folder, listing = browse_folder(str(tmp_path / "x.json"), (".json",))
    assert folder == tmp_path and listing == [("sub", True), ("a.json", False)]
    folder, listing = browse_folder(str(tmp_path) + "/", None)
    assert [n for n, _ in listing] == ["sub", "a.json", "b.dat"]
    assert browse_folder(str(tmp_path / "missing" / "x"), None)[1] == []


def test_load_scenario_plays_frames_the_objects_and_remembers_the_folder(gl_ctx, tmp_path,
                                                                        monkeypatch):
    from viewer import userdirs
    docs = tmp_path / "Documents"
    monkeypatch.setattr(userdirs, "documents_dir", lambda platform=None: docs)
    app = ViewerApp(gl_ctx, display_size=SIZE)
    target = OffscreenTarget(gl_ctx, SIZE)
    try:
        before = app.controller.view.camera
        assert app.controller.apply(c.LoadScenario(str(DEFAULT_SCENARIO)))
        s = app.session
        assert s.playback.playing
        centre, radius = s.scene_bounds()
        cam = app.controller.view.camera
        assert cam.target == pytest.approx(centre) and cam.distance != before.distance
        assert app.recent_dirs.items[0] == str(DEFAULT_SCENARIO.resolve().parent)
        # the next dialog starts in that folder, not the working folder
        folder = DEFAULT_SCENARIO.resolve().parent
        assert app.prompts.default_path("load") == str(folder / "scenario.json")
        assert app.prompts.default_path("reference") == str(folder) + os.sep
        # Save As of an untitled scenario: never into that (shipped) folder: documents
        assert app.prompts.default_path("save") == str(docs / "default.scenario.json")
        s.file = s.scenario.path = None
        assert app.prompts.default_path("save") == str(docs / "scenario.json")
        app.file_dialog = ("load", str(DEFAULT_SCENARIO.parent) + "/")
        for _ in range(2):
            app.frame(1 / 60, display_size=SIZE, target=target.fbo)
        assert app.errors.entries == []
    finally:
        app.release()
        target.release()
