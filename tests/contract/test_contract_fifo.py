"""Issue 26 class 2: a named pipe without a writer hung every command that opened it (its
``open`` waits for a writer). Only regular files are inputs (``viewer.inputs.open_input``,
used by ``DatFile`` and every capped read): a named pipe, a device or a folder where a file
belongs is the one-line input failure (exit 1), at once. Each command runs in a child
process under a hang guard, so a regression fails instead of hanging the suite."""

from __future__ import annotations

import json
import os

import pytest

from tests.bounded import run_bounded
from viewer import synthetic as S

pytestmark = [pytest.mark.timeout(90),
              pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")]

SYN = str(S.SYNTHETIC_DAT)
SETUP = f"0x{S.SETUP_HUMANOID:08X}"
HANG_GUARD_S = 30


@pytest.fixture()
def fifo(tmp_path):
    """A named pipe nobody writes to, and a scenario whose ``"dat"`` names it."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    (tmp_path / "s.json").write_text(json.dumps({
        "dat": [str(path)], "seconds": 0.1,
        "objects": [{"id": 1, "setup": SETUP}]}), encoding="utf-8")
    return path


def _refused(r, name: str, kind: str) -> None:
    assert not r.timed_out, f"hung on {kind}: {r}"
    assert r.rc == 1, r
    assert "Traceback" not in r.err, r
    assert len(r.err_lines) == 1, r
    assert name in r.err_lines[0] and kind in r.err_lines[0], r.err_lines[0]


@pytest.mark.parametrize("argv, what", [
    (["dat", "ls", "{p}"], "DAT"),
    (["dat", "show", "{p}", "0x33000101"], "DAT"),
    (["resolve", "{p}", "0x34000101", "Launch", "0.5"], "DAT"),
    (["xref", "{p}", "0x33000101"], "DAT"),
    (["trace", "{p}", "--setup", SETUP, "--seconds", "0.1"], "DAT"),
    (["trace", SYN, "--scenario", "{p}"], "scenario"),
    (["trace", "--scenario", "{s}"], "DAT"),
    (["render", "--scenario", "{s}", "--out", "{tmp}/x.png", "--size", "8x8"], "DAT"),
    (["render", SYN, "--scenario", "{p}", "--out", "{tmp}/x.png", "--size", "8x8"],
     "scenario"),
    (["replay", "{p}"], "capture"),
    (["screenshot", "--out", "{tmp}/x.png", "--actions", "{p}"], "actions"),
    (["screenshot", "{p}", "--out", "{tmp}/x.png"], "DAT"),
], ids=["dat-ls", "dat-show", "resolve", "xref", "trace-dat", "trace-scenario",
        "trace-scenario-dat", "render-scenario-dat", "render-scenario", "replay",
        "screenshot-actions", "screenshot-dat"])
def test_a_named_pipe_without_a_writer_is_refused_at_once(fifo, tmp_path, argv, what):
    argv = [a.format(p=fifo, s=tmp_path / "s.json", tmp=tmp_path) for a in argv]
    r = run_bounded(argv, timeout=HANG_GUARD_S)
    _refused(r, str(fifo), f"{what} is a named pipe, not a file")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("reference, name, kind", [
    ("{p}", "{p}", "recording is a named pipe"),
    ("{tmp}/frames", "{tmp}/frames/a.png", "image is a named pipe"),
], ids=["video", "image-in-folder"])
def test_compare_refuses_a_named_pipe_as_its_recording(fifo, tmp_path, reference, name, kind):
    (tmp_path / "frames").mkdir()
    os.mkfifo(tmp_path / "frames" / "a.png")
    fmt = {"p": fifo, "tmp": tmp_path}
    r = run_bounded(["compare", SYN, "--setup", SETUP, "--seconds", "0.1", "--size", "8x8",
                     "--reference", reference.format(**fmt)], timeout=HANG_GUARD_S)
    _refused(r, name.format(**fmt), f"{kind}, not a file")


def test_dat_verify_names_a_named_pipe_as_its_failure(fifo):
    r = run_bounded(["dat", "verify", fifo], timeout=HANG_GUARD_S)
    assert not r.timed_out and r.rc == 1 and "Traceback" not in r.err, r
    assert f"{fifo}: DAT is a named pipe, not a file" in r.out, r.out


def test_audit_names_a_named_pipe_and_does_not_wait(fifo):
    r = run_bounded(["audit", fifo], timeout=HANG_GUARD_S)
    assert not r.timed_out and r.rc == 1 and "Traceback" not in r.err, r
    assert f"MISSING DAT files: {fifo}: DAT is a named pipe, not a file" in r.out, r.out


@pytest.mark.parametrize("argv, what, kind", [
    (["dat", "show", "/dev/zero", "0x33000101"], "DAT", "a character device"),
    (["trace", SYN, "--scenario", "{tmp}"], "scenario", "a folder"),
    (["replay", "{tmp}"], "capture", "a folder"),
], ids=["dat-dev-zero", "scenario-folder", "capture-folder"])
def test_a_device_or_a_folder_where_a_file_belongs_is_refused(tmp_path, argv, what, kind):
    argv = [a.format(tmp=tmp_path) for a in argv]
    r = run_bounded(argv, timeout=HANG_GUARD_S)
    name = "/dev/zero" if "/dev/zero" in argv else str(tmp_path)
    _refused(r, name, f"{what} is {kind}, not a file")


def test_open_input_refuses_without_blocking_and_opens_a_regular_file(tmp_path, fifo):
    from viewer.errors import DatError
    from viewer.inputs import open_input
    with pytest.raises(DatError, match=r"pipe: DAT is a named pipe, not a file$"):
        open_input(fifo, DatError, "DAT")
    with pytest.raises(DatError, match="cannot read DAT: No such file"):
        open_input(tmp_path / "absent.dat", DatError, "DAT")
    (tmp_path / "a.dat").write_bytes(b"abc")
    with open_input(tmp_path / "a.dat", DatError, "DAT") as fh:
        assert fh.read() == b"abc"


def test_the_viewers_open_dat_refuses_a_named_pipe_before_its_worker_starts(fifo):
    from viewer.errors import ScenarioError
    from viewer.ui.session import plan_session
    with pytest.raises(ScenarioError, match=r"pipe: DAT is a named pipe, not a file$"):
        plan_session(dat=str(fifo))
