"""Save never writes into the shipped library (issue 28 item 2): the default scenario (and
one opened from the package or any read-only place) saves as a new file in the user's
documents, remembering the folder; Ctrl+S says "Saved <path>" (a toast); the quit prompt
names the file; a missing folder is made, one that cannot be made is refused in one line;
SaveScenario into the library is refused whoever asks. Both the checkout's
assets_synthetic/ and a read-only copy standing in for an installed package
(resources.assets_dir monkeypatched) are hashed before and after."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

import pytest

from viewer import resources, userdirs
from viewer.app import ViewerApp
from viewer.errors import OutputError
from viewer.ui import commands as c
from viewer.ui import save_target
from viewer.ui.session import open_session


def _tree_hash(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def docs(tmp_path, monkeypatch):
    out = tmp_path / "Documents"
    monkeypatch.setattr(userdirs, "documents_dir", lambda platform=None: out)
    return out


def _app(gl_ctx, session):
    return ViewerApp(gl_ctx, display_size=(640, 400), session=session)


def _save_everything(app, docs: Path, library: Path) -> Path:
    """Ctrl+S on the shipped default, the dialog's OK, Ctrl+S again: returns the file."""
    s = app.session
    s.apply(c.PlayScript(1, s.db.dids(0x33)[0]))
    assert s.modified
    assert not app.prompts.save_or_ask()              # no silent write: Save As opens
    kind, path = app.file_dialog
    assert kind == "save" and Path(path).parent == docs
    assert Path(path).name == "default.scenario.json"
    name, why = app.prompts.save_name()
    assert name == "default.scenario.json (as a new file)" and "ships with the viewer" in why
    assert app.prompts.save_to(path)                  # the dialog's OK
    assert Path(path).is_file() and not s.modified and s.file == Path(path)
    assert app.toasts.items[-1][0].line() == f"Saved {path} (made the folder {docs})"
    # Ctrl+S now writes that file at once and says so
    s.apply(c.PlayScript(1, s.db.dids(0x33)[0]))
    assert app.prompts.save_or_ask()
    assert app.toasts.items[-1][0].line() == f"Saved {path}"
    assert app.prompts.save_name() == ("default.scenario.json", None)
    # into the library: refused in one line, by the dialog's check and by the session
    shipped = library / "default.scenario.json"
    assert save_target.refusal(shipped) is not None
    assert not app.controller.apply(c.SaveScenario(str(shipped)))
    assert app.errors.entries[-1].kind == "OutputError"
    assert "read-only" in app.errors.entries[-1].line()
    return Path(path)


def test_save_of_the_default_never_touches_the_checkouts_library(gl_ctx, docs):
    library = resources.assets_dir()
    before = _tree_hash(library)
    app = _app(gl_ctx, open_session())
    try:
        _save_everything(app, docs, library)
    finally:
        app.release()
    assert _tree_hash(library) == before


def test_save_of_a_read_only_installed_library_goes_to_documents(gl_ctx, docs, tmp_path,
                                                                  monkeypatch):
    """An installed package stands in: a read-only copy the resources point at."""
    library = tmp_path / "site-packages" / "viewer" / "assets_synthetic"
    shutil.copytree(resources.assets_dir(), library)
    for p in [library, *library.rglob("*")]:
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    checkout_library = resources.assets_dir()
    monkeypatch.setattr(resources, "assets_dir", lambda: library)
    # the checkout's library stays shipped even with the resources pointing elsewhere
    assert save_target.shipped(checkout_library / "default.scenario.json")
    before = _tree_hash(library)
    app = _app(gl_ctx, open_session(scenario=str(library / "default.scenario.json")))
    try:
        assert app.session.file == library / "default.scenario.json"   # opened from there
        assert app.prompts.default_path("save") == str(docs / "default.scenario.json")
        saved = _save_everything(app, docs, library)
        # Save As again starts in the folder saved in last (remembered), at a free name
        app.session.file = library / "default.scenario.json"
        assert app.prompts.default_path("save") == str(saved.parent
                                                       / "default.scenario (2).json")
    finally:
        app.release()
        for p in [library, *library.rglob("*")]:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
    assert _tree_hash(library) == before


def test_a_folder_that_cannot_be_made_is_one_plain_line(gl_ctx, docs, tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    app = _app(gl_ctx, open_session())
    try:
        assert not app.prompts.save_to(str(blocker / "sub" / "s.json"))
        line = app.errors.entries[-1].line()
        assert app.errors.entries[-1].kind == "OutputError"
        assert f"cannot make the folder {blocker / 'sub'}" in line and "Traceback" not in line
        assert save_target.refusal(blocker / "sub" / "s.json") == \
            f"{blocker} is a file, not a folder"
        assert save_target.refusal(tmp_path / "new" / "deeper" / "s.json") is None
    finally:
        app.release()


def test_read_only_file_is_refused_and_names_are_free(tmp_path, monkeypatch):
    f = tmp_path / "s.json"
    f.write_text("{}")
    real = os.access
    monkeypatch.setattr(save_target.os, "access",   # root may write anything: ask as a user
                        lambda p, mode: False if Path(p) == f else real(p, mode))
    assert save_target.refusal(f) == "s.json is read-only"
    assert save_target.free_name(f) == tmp_path / "s (2).json"
    assert save_target.refusal(tmp_path) == f"{tmp_path} is a folder"
    with pytest.raises(OutputError):
        save_target.make_folder(f / "x" / "y.json")
