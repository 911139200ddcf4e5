"""Issue 26, classes 6 and 8: Ctrl-C (SIGINT) and SIGTERM end a command with one line on
stderr and exit 130 / 143, and no output is left half written: a file, a folder of frames,
the figures of ``compare`` (written beside under a hidden partial name and renamed when
complete, removed on any failure or interrupt). The signals are sent to a real child
``python -m viewer`` once it is writing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from viewer import synthetic as S
from viewer.commands.interrupts import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    Terminated,
    stop_on_signals,
)

ROOT = Path(__file__).resolve().parents[2]
LONG = ["--scenario", str(S.DEFAULT_SCENARIO), "--seconds", "600", "--size", "32x32"]
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix",
                                reason="POSIX signals")


def _start(argv, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISPLAY", None)
    out, err = open(tmp_path / "stdout", "wb"), open(tmp_path / "stderr", "wb")  # noqa: SIM115
    p = subprocess.Popen([sys.executable, "-m", "viewer", *map(str, argv)], cwd=tmp_path,
                         stdout=out, stderr=err, env=env)
    out.close()
    err.close()
    return p


def _stop_when(p, ready, sig) -> int:
    """Send ``sig`` once ``ready()`` holds (the child is at work), then wait for it."""
    deadline = time.monotonic() + 60
    while not ready():
        assert p.poll() is None, "the child ended before it was stopped"
        assert time.monotonic() < deadline, "the child never started writing"
        time.sleep(0.02)
    p.send_signal(sig)
    return p.wait(timeout=60)


def _stopped(p, tmp_path, ready, sig, line) -> None:
    rc = _stop_when(p, ready, sig)
    err = (tmp_path / "stderr").read_text()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    status = {signal.SIGINT: EXIT_INTERRUPTED, signal.SIGTERM: EXIT_TERMINATED}[sig]
    assert rc == status and lines == [f"vfxviewer: {line}"], (rc, err)


SIGNALS = [(signal.SIGINT, "interrupted"), (signal.SIGTERM, "terminated (SIGTERM)")]


def _left(tmp_path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if p.name not in ("stdout", "stderr"))


@pytest.mark.parametrize("sig, line", SIGNALS, ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("out", ["y.gif", "y.mp4", "frames"])
def test_a_render_stopped_midway_says_one_line_and_leaves_no_output(tmp_path, sig, line, out):
    p = _start(["render", S.SYNTHETIC_DAT, *LONG, "--out", tmp_path / out], tmp_path)
    partial = tmp_path / (f".{Path(out).stem}.partial{Path(out).suffix}")

    def writing() -> bool:   # a frame or two are down
        if partial.is_dir():
            return len(list(partial.iterdir())) >= 2
        return partial.exists() and partial.stat().st_size > 0
    _stopped(p, tmp_path, writing, sig, line)
    assert _left(tmp_path) == []


@pytest.mark.parametrize("sig, line", SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_a_trace_stopped_midway_says_one_line(tmp_path, sig, line):
    p = _start(["trace", S.SYNTHETIC_DAT, *LONG[:4], "--poses"], tmp_path)
    _stopped(p, tmp_path, lambda: (tmp_path / "stdout").stat().st_size > 10_000, sig, line)


def test_a_compare_stopped_midway_leaves_neither_comparison_nor_figures(tmp_path):
    ref = tmp_path / "ref"
    ref.mkdir()
    from PIL import Image
    Image.new("RGB", (32, 32)).save(ref / "a.png")
    p = _start(["compare", S.SYNTHETIC_DAT, *LONG, "--reference", ref, "--out",
                tmp_path / "c", "--csv", tmp_path / "c.csv", "--json", tmp_path / "c.json"],
               tmp_path)
    partial = tmp_path / ".c.partial"
    _stopped(p, tmp_path, lambda: partial.is_dir() and len(list(partial.iterdir())) >= 2,
             signal.SIGTERM, "terminated (SIGTERM)")
    assert _left(tmp_path) == ["ref"]


# --- class 8: a late error leaves no folder of frames -----------------------------------------
def _failing_scenario(tmp_path) -> Path:
    sc = json.loads(S.DEFAULT_SCENARIO.read_text())
    sc["dat"] = [str(S.SYNTHETIC_DAT)]
    sc["events"].append({"t": 0.6, "object": 4242, "play_script": "0x33000001"})
    path = tmp_path / "fails.json"
    path.write_text(json.dumps(sc))
    return path


def _vfx(*argv, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "viewer", *map(str, argv)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_folder_output_after_a_late_error_is_not_there(tmp_path):
    sc = _failing_scenario(tmp_path)
    r = _vfx("render", "--scenario", sc, "--seconds", "1", "--size", "16x16", "--out",
             tmp_path / "frames", cwd=tmp_path)
    assert r.returncode == 1 and "4242 does not exist" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fails.json"]


def test_an_existing_folder_keeps_its_files_after_a_late_error_and_gains_frames_after_success(
        tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "frame_00000.png").write_bytes(b"old")
    sc = _failing_scenario(tmp_path)
    r = _vfx("render", "--scenario", sc, "--seconds", "1", "--size", "16x16", "--out",
             folder, cwd=tmp_path)
    assert r.returncode == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fails.json", "frames"]
    assert sorted(p.name for p in folder.iterdir()) == ["frame_00000.png", "notes.txt"]
    assert (folder / "frame_00000.png").read_bytes() == b"old"
    r = _vfx("render", S.SYNTHETIC_DAT, "--scenario", S.DEFAULT_SCENARIO, "--seconds", "0.1",
             "--size", "16x16", "--out", "frames", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["frame_00000.png", "frame_00001.png", "frame_00002.png",
                     "frame_00003.png", "notes.txt"]
    assert (folder / "frame_00000.png").read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fails.json", "frames"]


def test_a_folder_writer_aborted_or_killed_before_leaves_nothing_behind(tmp_path):
    from viewer.media import FrameWriter
    stale = tmp_path / ".out.partial"      # left by a run killed outright
    stale.mkdir()
    (stale / "frame_00099.png").write_bytes(b"x")
    frame = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(RuntimeError), FrameWriter(tmp_path / "out") as w:
        w.write(frame)
        raise RuntimeError("late")
    assert list(tmp_path.iterdir()) == []
    with FrameWriter(tmp_path / "out") as w:
        w.write(frame)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["frame_00000.png"]


def test_written_renames_when_complete_and_removes_on_failure(tmp_path):
    from viewer.commands.output import written
    out = tmp_path / "f.csv"
    out.write_text("old")
    with pytest.raises(KeyboardInterrupt), written(out, "--csv") as fh:
        fh.write("half")
        raise KeyboardInterrupt
    assert out.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["f.csv"]
    with written(out, "--csv") as fh:
        fh.write("new")
    assert out.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["f.csv"]


# --- the handlers themselves -------------------------------------------------------------------
def test_sigterm_raises_terminated_once_and_the_old_handlers_come_back():
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    with pytest.raises(Terminated), stop_on_signals():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1)
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


def test_a_second_signal_during_cleanup_is_ignored():
    cleaned = []
    with pytest.raises(KeyboardInterrupt), stop_on_signals():
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)   # ignored: the cleanup runs to its end
            time.sleep(0.05)
            cleaned.append(True)
    assert cleaned == [True]


def test_outside_the_main_thread_nothing_is_installed():
    seen = []

    def body():
        before = signal.getsignal(signal.SIGTERM)
        with stop_on_signals():
            seen.append(signal.getsignal(signal.SIGTERM) is before)
    t = threading.Thread(target=body)
    t.start()
    t.join()
    assert seen == [True]
