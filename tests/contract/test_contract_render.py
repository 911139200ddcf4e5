"""Contract section 6: ``vfxviewer render`` (headless EGL). ``--out`` ``.png`` writes one
frame (the last), a directory ``frame_00000.png``..., ``.mp4`` a video; the same seed gives
the same frames. Run as processes (each owns its EGL context).

This suite does not own ``viewer/commands/render.py``: the deviations it found are pinned
with ``xfail(strict=True)`` and listed in the QA report."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from viewer import synthetic as S

from .conftest import ROOT, SYN, assert_input_failure, assert_usage_error, run_process

SIZE = "64x48"
BASE = (SYN, "--setup", f"0x{S.SETUP_MARKER:08X}", "--script",
        f"0x{S.PES_EMITTER_LIMITS:08X}", "--seconds", "0.2", "--fps", "30", "--size", SIZE)
FRAMES = 7  # t = 0, 1/30, ..., 6/30 = 0.2


def _egl_ok() -> bool:
    try:
        from viewer.render.context import headless_context
        headless_context().release()
        return True
    except Exception:  # noqa: BLE001 - no EGL on this machine: skip, not fail
        return False


pytestmark = pytest.mark.skipif(not _egl_ok(), reason="no headless EGL")


def _render(*argv):
    r = run_process("render", *argv)
    assert r.rc == 0, r
    return r


def _pixels(path):
    with Image.open(path) as im:
        return np.asarray(im.convert("RGBA"))


@pytest.fixture(scope="module")
def frames_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("render") / "frames"
    _render(*BASE, "--out", out)
    return out


def test_directory_out_writes_numbered_frames(frames_dir):
    names = sorted(p.name for p in frames_dir.iterdir())
    assert names == [f"frame_{i:05d}.png" for i in range(FRAMES)]
    assert _pixels(frames_dir / "frame_00000.png").shape[:2] == (48, 64)


def test_png_out_is_one_frame_the_last(tmp_path, frames_dir):
    _render(*BASE, "--out", tmp_path / "last.png")
    assert list(tmp_path.iterdir()) == [tmp_path / "last.png"]
    last = _pixels(tmp_path / "last.png")
    assert np.array_equal(last, _pixels(frames_dir / f"frame_{FRAMES - 1:05d}.png"))


def test_mp4_out_writes_a_video(tmp_path):
    av = pytest.importorskip("av")
    _render(*BASE, "--out", tmp_path / "v.mp4")
    with av.open(str(tmp_path / "v.mp4")) as c:
        stream = c.streams.video[0]
        n = sum(1 for _ in c.decode(stream))
        assert (stream.width, stream.height) == (64, 48)
    assert n == FRAMES


def test_same_seed_same_frames(tmp_path, frames_dir):
    again = tmp_path / "again"
    _render(*BASE, "--out", again, "--seed", "0x0")
    for i in range(FRAMES):
        name = f"frame_{i:05d}.png"
        assert np.array_equal(_pixels(again / name), _pixels(frames_dir / name)), name


def test_scenario_selection(tmp_path):
    _render(SYN, "--scenario", ROOT / "assets_synthetic" / "default.scenario.json",
            "--seconds", "0.1", "--size", SIZE, "--out", tmp_path / "d.png")
    assert _pixels(tmp_path / "d.png").shape[:2] == (48, 64)


def test_missing_DAT_names_the_file(tmp_path):
    r = run_process("render", tmp_path / "gone.dat", "--setup", "0x02000106", "--out",
                    tmp_path / "x.png")
    assert_input_failure(r, "gone.dat")


def test_bad_size_is_usage_error(tmp_path):
    assert_usage_error(run_process("render", *BASE, "--size", "abc", "--out",
                                   tmp_path / "x.png"))


# --- deviations (render.py is not this suite's) ---------------------------------------------
def test_script_on_the_command_line_adds_to_a_scenario(tmp_path):
    sc = tmp_path / "s.json"
    sc.write_text(json.dumps({"seconds": 0.3,
                              "objects": [{"id": 1, "setup": f"0x{S.SETUP_MARKER:08X}"}]}))
    _render(SYN, "--scenario", sc, "--size", SIZE, "--out", tmp_path / "a.png")
    _render(SYN, "--scenario", sc, "--size", SIZE, "--script", f"0x{S.PES_EXPLODE:08X}",
            "--out", tmp_path / "b.png")
    assert not np.array_equal(_pixels(tmp_path / "a.png"), _pixels(tmp_path / "b.png"))


@pytest.mark.parametrize("opt", [["--seconds", "nan"], ["--seconds", "inf"],
                                 ["--fps", "inf"]])
def test_nonfinite_seconds_or_fps_is_usage_error(tmp_path, opt):
    argv = [a for a in BASE if a not in ("--seconds", "0.2")] + opt
    assert_usage_error(run_process("render", *argv, "--out", tmp_path / "x.png"))


def test_unknown_setup_DID_names_the_DAT(tmp_path):
    r = run_process("render", SYN, "--setup", "0x02009999", "--out", tmp_path / "x.png")
    assert_input_failure(r, "synthetic_portal.dat", "0x02009999")


def test_no_selection_is_usage_error(tmp_path):
    assert_usage_error(run_process("render", SYN, "--out", tmp_path / "x.png"))


def test_decimal_with_leading_zero_is_an_integer(tmp_path):
    _render(SYN, "--setup", f"0{S.SETUP_MARKER}", "--seconds", "0", "--size", SIZE, "--out",
            tmp_path / "x.png")


def test_scenario_and_setup_together_is_usage_error(tmp_path):
    r = run_process("render", SYN, "--scenario",
                    ROOT / "assets_synthetic" / "default.scenario.json", "--setup",
                    f"0x{S.SETUP_MARKER:08X}", "--seconds", "0", "--size", SIZE, "--out",
                    tmp_path / "x.png")
    assert_usage_error(r)


def test_command_line_DAT_overrides_the_scenario_dat(tmp_path):
    sc = tmp_path / "s.json"
    sc.write_text(json.dumps({"dat": ["nowhere.dat"], "seconds": 0.1, "objects": [
        {"id": 1, "setup": f"0x{S.SETUP_MARKER:08X}"}]}))
    _render(SYN, "--scenario", sc, "--size", SIZE, "--out", tmp_path / "x.png")
    r = run_process("render", "--scenario", sc, "--size", SIZE, "--out", tmp_path / "y.png")
    assert_input_failure(r, "nowhere.dat")
