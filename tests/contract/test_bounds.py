"""Every number a user gives has a documented range (viewer/bounds.py, docs/bounds.md), and
every hostile input of the adversarial pass is the contract's answer: a one-line error with
exit 1 for a bad input, exit 2 for bad usage, never a traceback, never a hang, never a
silent guess. Each case runs the real command line as a process (``python -m viewer``)
under a hang guard (a generous subprocess timeout, not a benchmark)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import dpkt
import pytest

from viewer import bounds
from viewer import synthetic as S
from viewer.errors import DatError

ROOT = Path(__file__).resolve().parents[2]
SYN = str(S.SYNTHETIC_DAT)
HUMANOID = f"0x{S.SETUP_HUMANOID:08X}"
HANG_GUARD_S = 120


class Run:
    def __init__(self, p: subprocess.CompletedProcess) -> None:
        self.rc, self.out, self.err = p.returncode, p.stdout, p.stderr
        self.err_lines = [ln for ln in self.err.splitlines() if ln.strip()]

    def __repr__(self) -> str:
        return f"Run(rc={self.rc}, err={self.err[-600:]!r})"


def vfx(*argv, cwd=None) -> Run:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    p = subprocess.run([sys.executable, "-m", "viewer", *map(str, argv)], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=HANG_GUARD_S, check=False)
    return Run(p)


def input_error(r: Run, *names: str) -> None:
    """Contract: exit 1 and exactly one line on stderr (naming ``names``), no traceback."""
    assert r.rc == 1, r
    assert "Traceback" not in r.err, r
    assert len(r.err_lines) == 1, r
    for name in names:
        assert name in r.err_lines[0], (name, r.err_lines[0])


def usage_error(r: Run, *names: str) -> None:
    """Contract: bad usage exits 2 with a clear message, no traceback."""
    assert r.rc == 2, r
    assert "Traceback" not in r.err, r
    assert r.err_lines and r.err_lines[-1].startswith("vfxviewer"), r
    for name in names:
        assert name in r.err, (name, r.err)


def scenario(tmp_path: Path, name="s.json", *, raw: bytes | str | None = None, **top) -> Path:
    """A small valid scenario on the synthetic DAT with ``top`` fields replaced."""
    data = {"dat": [SYN], "fps": 30, "seconds": 0.1,
            "objects": [{"id": 1, "setup": HUMANOID}], "events": []}
    data.update(top)
    path = tmp_path / name
    if raw is None:
        raw = json.dumps(data)
    path.write_bytes(raw if isinstance(raw, bytes) else raw.encode("utf-8"))
    return path


# -- finding 2: inputs that asked for unbounded work --------------------------------------------
@pytest.mark.parametrize("field, value", [
    ("fps", 1e6), ("fps", 2 ** 31), ("fps", 1e308), ("fps", "1e308"), ("fps", 0.5),
    ("seconds", 1e6), ("seconds", 1e308), ("seconds", "1e9"), ("seconds", 3600.5),
])
def test_scenario_clock_outside_its_range_is_one_line_naming_the_field(tmp_path, field,
                                                                        value):
    r = vfx("trace", "--scenario", scenario(tmp_path, **{field: value}))
    input_error(r, "s.json", f"{field}: ", bounds.FPS.span() if field == "fps"
                else bounds.SECONDS.span())


def test_the_largest_accepted_clock_steps_fps_times_seconds_frames(tmp_path):
    """fps at its limit: the run is fps * seconds frames and stops (work bounded by the
    scenario's length)."""
    from viewer.dat.database import AssetDatabase
    from viewer.sim.scenario import Scenario, ScenarioRunner
    sc = Scenario.load(scenario(tmp_path, fps=bounds.FPS.hi, seconds=0.05))
    with AssetDatabase([SYN]) as db:
        runner = ScenarioRunner(sc, db)
        runner.run()
    assert runner.frame == round(bounds.FPS.hi * 0.05)


@pytest.mark.parametrize("option, value", [("--seconds", "1e9"), ("--seconds", "nan"),
                                           ("--fps", "1e6"), ("--fps", "0")])
def test_trace_clock_options_outside_their_range_are_usage_errors(option, value):
    usage_error(vfx("trace", SYN, "--setup", HUMANOID, option, value), option)


@pytest.mark.parametrize("value", ["1e9", "1000000000", "0", "-1"])
def test_screenshot_frames_outside_its_range_is_a_usage_error(tmp_path, value):
    usage_error(vfx("screenshot", "--out", tmp_path / "x.png", "--frames", value),
                "--frames")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("frame", [10 ** 12, bounds.VIEWER_FRAMES.hi, 1.5])
def test_an_action_frame_outside_its_range_is_one_line_naming_the_actions_file(tmp_path,
                                                                                frame):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"frame": frame, "command": "Seek", "t": 0.1}]))
    r = vfx("screenshot", "--out", tmp_path / "x.png", "--actions", actions)
    input_error(r, str(actions), "actions[0]")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("frame", [-1, "3", True, None, bounds.VIEWER_FRAMES.hi])
def test_parse_actions_takes_whole_frames_inside_the_viewer_range(frame):
    from viewer.app import parse_actions
    from viewer.errors import ScenarioError
    with pytest.raises(ScenarioError, match=r"actions\[0\]: frame must be an integer"):
        parse_actions([{"frame": frame, "command": "Seek", "t": 0.1}])
    assert parse_actions([{"frame": bounds.VIEWER_FRAMES.hi - 1, "command": "Seek",
                           "t": 0.1}])[0][0] == bounds.VIEWER_FRAMES.hi - 1


@pytest.mark.parametrize("t", ["nan", float("nan"), float("inf"), 3601, -1, 1e308])
def test_an_action_argument_outside_its_range_is_one_line_naming_the_field(tmp_path, t):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"frame": 0, "command": "Seek", "t": t}]))
    r = vfx("screenshot", "--out", tmp_path / "x.png", "--actions", actions)
    input_error(r, str(actions), "actions[0].t: ")
    assert "InternalError" not in r.err
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("entry, field", [
    ({"command": "Seek", "t": True}, "t"),
    ({"command": "ExportCapture", "path": "x.gif", "end": 4000}, "end"),
    ({"command": "ExportCapture", "path": "a\x00b"}, "path"),
    ({"command": "SetVolume", "volume": 2}, "volume"),
    ({"command": "SetWipeSplit", "split": float("nan")}, "split"),
    ({"command": "SetReferenceOffset", "offset": float("-inf")}, "offset"),
    ({"command": "CameraOrbit", "dx": float("nan"), "dy": 0}, "dx"),
    ({"command": "LaunchProjectile", "object": 1, "velocity": [0, 1e300, 0]}, "velocity[1]"),
    ({"command": "LaunchProjectile", "object": 1, "speed": 0}, "speed"),
    ({"command": "SetReferenceCrop", "crop": [0, 0, 0, 5]}, "crop[2]"),
    ({"command": "Step", "frames": 1.5}, "frames"),
    ({"command": "SetLoop", "loop": "yes"}, "loop"),
])
def test_parse_actions_checks_each_argument_against_its_type_and_range(entry, field):
    import re

    from viewer.app import parse_actions
    from viewer.errors import ScenarioError
    with pytest.raises(ScenarioError, match=rf"^actions\[0\]\.{re.escape(field)}: "):
        parse_actions([{"frame": 0, **entry}])


def test_parse_actions_keeps_arguments_inside_their_ranges():
    import math

    from viewer.app import parse_actions
    from viewer.ui import commands as c
    got = [cmd for _, cmd in parse_actions([
        {"frame": 0, "command": "Seek", "t": 3600},
        {"frame": 0, "command": "PlayTyped", "object": 1, "play": 1, "intensity": float("nan")},
        {"frame": 0, "command": "SetReferenceCrop", "crop": None},
        {"frame": 0, "command": "LoadSetup", "setup": "0x02000001"},
        {"frame": 0, "command": "Step", "frames": -1},
    ])]
    assert got[0] == c.Seek(3600) and math.isnan(got[1].intensity)
    assert got[2:] == [c.SetReferenceCrop(None), c.LoadSetup(0x02000001), c.Step(-1)]


# -- finding 4: tracebacks that are now the one-line error -------------------------------------
@pytest.mark.parametrize("raw", [
    b'{"fps": 30, "note": "\xff\xfe"}',                       # not UTF-8
    '{"fps": 30}'.encode("utf-16"),                           # UTF-16 with its BOM
    '{"fps": 30}'.encode("utf-16-le"),                        # UTF-16 without one
])
def test_a_scenario_that_is_not_utf8_is_one_line(tmp_path, raw):
    input_error(vfx("trace", SYN, "--scenario", scenario(tmp_path, raw=raw)), "s.json")


def test_json_nested_thousands_deep_is_one_line(tmp_path):
    deep = '{"fps": 30, "x": ' + "[" * 5000 + "]" * 5000 + "}"
    input_error(vfx("trace", SYN, "--scenario", scenario(tmp_path, raw=deep)), "s.json",
                "nests deeper")


def test_json_nested_past_the_bound_but_within_python_is_one_line(tmp_path):
    deep = '{"fps": 30, "x": ' + "[" * 100 + "]" * 100 + "}"
    input_error(vfx("trace", SYN, "--scenario", scenario(tmp_path, raw=deep)), "s.json",
                "nests deeper")


def test_an_actions_file_nested_thousands_deep_is_one_line(tmp_path):
    actions = tmp_path / "a.json"
    actions.write_text("[" * 5000 + "]" * 5000)
    input_error(vfx("screenshot", "--out", tmp_path / "x.png", "--actions", actions),
                str(actions))


def test_an_integer_literal_of_5000_digits_is_one_line(tmp_path):
    raw = '{"seed": 1' + "0" * 5000 + "}"
    input_error(vfx("trace", SYN, "--scenario", scenario(tmp_path, raw=raw)), "s.json")


@pytest.mark.parametrize("world, name", [
    ([{"plane": {"normal": [0, 0, 1], "d": 10 ** 400}}], "world[0]"),
    ([{"sphere": {"center": [10 ** 400, 0, 0], "radius": 1}}], "world[0]"),
    ([{"box": {"min": [0, 0, 0], "max": [1, 1, 10 ** 309]}}], "world[0]"),
])
def test_world_integers_beyond_float_range_are_one_line(tmp_path, world, name):
    input_error(vfx("trace", SYN, "--scenario", scenario(tmp_path, world=world)), "s.json",
                name)


@pytest.mark.parametrize("launch", [
    {"velocity": [10 ** 400, 0, 0]}, {"target": [5, 0, 0], "speed": 10 ** 400},
    {"velocity": [1, 0, 0], "delay": 10 ** 400}, {"velocity": [1, 0, 0], "delete_after": 1e9},
])
def test_launch_numbers_beyond_their_range_are_one_line(tmp_path, launch):
    events = [{"t": 0, "object": 1, "launch": launch}]
    input_error(vfx("trace", SYN, "--scenario", scenario(tmp_path, events=events)), "s.json",
                "events[0]", "launch")


@pytest.mark.parametrize("launch, name", [
    ({"velocity": [1, 0, 0], "state": 2 ** 40}, "state"),
    ({"velocity": [1, 0, 0], "impact_state": -1}, "impact_state"),
    ({"velocity": [1, 0, 0], "target_id": 2 ** 32}, "target_id"),
])
def test_launch_integers_are_u32_never_wrapped(tmp_path, launch, name):
    events = [{"t": 0, "object": 1, "launch": launch}]
    input_error(vfx("trace", SYN, "--scenario", scenario(tmp_path, events=events)), "s.json",
                "events[0]", name)


def test_a_world_shape_state_is_a_u32(tmp_path):
    world = [{"sphere": {"center": [0, 0, 0], "radius": 1, "state": 2 ** 40}}]
    input_error(vfx("trace", SYN, "--scenario", scenario(tmp_path, world=world)), "s.json",
                "world[0]", "state")


def test_replay_stand_in_DIDs_are_u32(tmp_path):
    usage_error(vfx("replay", tmp_capture(tmp_path), "--stand-in", "0x1000000000"),
                "--stand-in")


@pytest.mark.parametrize("path", ["a\x00b.dat", "\ud800.dat"])
def test_a_dat_path_with_a_nul_or_a_lone_surrogate_is_one_line(tmp_path, path):
    raw = json.dumps({"dat": [path], "objects": [{"id": 1, "setup": HUMANOID}]})
    input_error(vfx("trace", "--scenario", scenario(tmp_path, raw=raw)), "s.json", "dat[0]")


def _render(out, *extra):
    return vfx("render", SYN, "--setup", HUMANOID, "--seconds", "0", "--size", "16x16",
               "--out", out, *extra)


def _screenshot(out, *extra):
    return vfx("screenshot", "--out", out, "--size", "64x64", *extra)


def _compare(tmp_path, *extra):
    """compare against a one-picture recording folder made here."""
    from PIL import Image
    rec = tmp_path / "rec"
    rec.mkdir(exist_ok=True)
    Image.new("RGB", (16, 16)).save(rec / "0001.png")
    return vfx("compare", SYN, "--setup", HUMANOID, "--seconds", "0", "--size", "16x16",
               "--reference", rec, *extra)


def tmp_capture(folder: Path, *messages: bytes) -> Path:
    """A capture built here (retail's packet framing, no captured bytes) holding ``messages``, one
    datagram each (none: one empty datagram)."""
    from .test_contract_replay_synthetic import _fragment, _frame, _packet
    path = folder / "c.pcap"
    with path.open("wb") as fh:
        w = dpkt.pcap.Writer(fh, linktype=1)
        for i, msg in enumerate(messages or (b"",)):
            frags = [_fragment(10 + i, msg)] if msg else []
            w.writepkt(_frame(_packet(100 + i, frags), s2c=True), ts=1_700_000_000.0 + i)
    return path


WRITERS = {
    "render": lambda tmp, out: _render(out),
    "screenshot": lambda tmp, out: _screenshot(out),
    "compare --csv": lambda tmp, out: _compare(tmp, "--csv", out),
    "compare --json": lambda tmp, out: _compare(tmp, "--json", out),
    "replay --scenario-out": lambda tmp, out: vfx("replay", tmp_capture(tmp),
                                                  "--scenario-out", out),
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_an_output_under_a_file_is_one_line_before_any_work(tmp_path, writer):
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    out = blocker / "sub" / ("x.png" if not writer.startswith(("compare", "replay"))
                             else "x.json")
    input_error(WRITERS[writer](tmp_path, out), "--", "not a folder")


@pytest.mark.parametrize("writer", list(WRITERS))
def test_an_output_in_a_place_that_cannot_be_written_is_one_line(tmp_path, writer):
    """/proc takes no new files, root or not."""
    name = "x.png" if not writer.startswith(("compare", "replay")) else "x.json"
    input_error(WRITERS[writer](tmp_path, f"/proc/{name}"), f"/proc/{name}")


@pytest.mark.parametrize("writer", ["compare --csv", "compare --json",
                                    "replay --scenario-out"])
def test_an_output_onto_dev_full_is_one_line(tmp_path, writer):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    input_error(WRITERS[writer](tmp_path, "/dev/full"), "/dev/full")


def test_render_onto_dev_full_is_one_line(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    input_error(_render("/dev/full"), "/dev/full")          # a folder output: not a folder
    input_error(_render("/dev/full/x.png"), "/dev/full")


def test_screenshot_onto_dev_full_is_not_a_picture_type(tmp_path):
    usage_error(_screenshot("/dev/full"), "--out")


def test_render_a_video_of_one_pixel_is_a_usage_error(tmp_path):
    usage_error(_render(tmp_path / "x.mp4", "--size", "1x1"), "--size")
    assert not (tmp_path / "x.mp4").exists()


def test_screenshot_to_an_unknown_picture_type_is_a_usage_error(tmp_path):
    usage_error(_screenshot(tmp_path / "x.xyz"), "--out")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("option, value", [
    ("--fov", "0"), ("--fov", "inf"), ("--fov", "nan"), ("--fov", "-5"), ("--fov", "360"),
    ("--fov", "180"), ("--distance", "1e308"), ("--distance", "nan"), ("--distance", "-1"),
    ("--distance", "0"), ("--target", "1e308,1e308,1e308"), ("--target", "nan,0,0"),
    ("--camera", "1e308,0,0"), ("--size", "0x10"), ("--size", "9000x10"),
    ("--start", "1e9"),
])
def test_render_camera_and_frame_options_outside_their_range_are_usage_errors(
        tmp_path, option, value):
    usage_error(_render(tmp_path / "x.png", option, value), option)
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("option, value", [
    ("--split", "nan"), ("--split", "2"), ("--opacity", "-1"), ("--offset", "nan"),
    ("--offset", "inf"), ("--offset", "1e9"), ("--rate", "0"), ("--rate", "nan"),
    ("--reference-fps", "0"), ("--reference-fps", "nan"), ("--reference-fps", "-1"),
    ("--crop", "0,0,0,5"), ("--crop", "-1,0,5,5"),
])
def test_compare_options_outside_their_range_are_usage_errors(tmp_path, option, value):
    r = _compare(tmp_path, "--mode", "wipe", "--json", tmp_path / "f.json", option, value)
    usage_error(r, option)
    assert not (tmp_path / "f.json").exists()


@pytest.mark.parametrize("key, value", [("offset", "nan"), ("rate", -1), ("offset", [1]),
                                        ("crop", [0, 0, 0, 0])])
def test_a_scenario_reference_entry_outside_its_range_is_one_line(tmp_path, key, value):
    sc = scenario(tmp_path, reference={"path": str(tmp_path), key: value})
    r = vfx("compare", "--scenario", sc, "--seconds", "0", "--size", "16x16")
    input_error(r, "s.json", f"reference.{key}")


def _png_header_only(path: Path, w: int, h: int) -> None:
    """A PNG whose header claims w x h (no pixel data needed to be refused)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(
        ">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(b"")) +
        chunk(b"IEND", b""))


@pytest.mark.parametrize("side", [10000, 20000])
def test_a_reference_png_over_the_pixel_limit_is_one_line(tmp_path, side):
    """Past Pillow's decompression-bomb limit (a warning up to twice it, an error above)."""
    rec = tmp_path / "rec"
    rec.mkdir()
    _png_header_only(rec / "0001.png", side, side)
    r = vfx("compare", SYN, "--setup", HUMANOID, "--seconds", "0", "--size", "16x16",
            "--reference", rec)
    input_error(r, "0001.png")


def test_screenshot_of_a_scenario_lasting_1e308_seconds_is_one_line(tmp_path):
    sc = scenario(tmp_path, seconds=1e308)
    input_error(_screenshot(tmp_path / "x.png", SYN, "--scenario", sc), "s.json", "seconds")
    assert not (tmp_path / "x.png").exists()


# -- finding 5: silent nonsense ------------------------------------------------------------------
def test_a_world_plane_normal_with_nan_is_one_line(tmp_path):
    """Python's JSON reader takes a bare NaN token; the field check refuses it."""
    raw = json.dumps({"dat": [SYN], "seconds": 0.1, "objects": [{"id": 1, "setup": HUMANOID}],
                      "world": [{"plane": {"normal": [float("nan"), 0, 1], "d": 0}}]})
    assert "NaN" in raw
    input_error(vfx("trace", "--scenario", scenario(tmp_path, raw=raw)), "s.json",
                "world[0]", "plane normal")


def test_an_object_at_an_f32_sized_position_is_one_line_not_a_nan_camera(tmp_path):
    """3e38 is an f32 but the camera's maths squares it (NaN picture, exit 0 before)."""
    sc = scenario(tmp_path, objects=[{"id": 1, "setup": HUMANOID,
                                      "position": [3e38, 3e38, 3e38]}])
    input_error(vfx("render", "--scenario", sc, "--size", "16x16", "--out",
                    tmp_path / "x.png"), "s.json", "objects[0].position[0]")
    assert not (tmp_path / "x.png").exists()


def test_render_out_empty_is_a_usage_error_and_writes_nothing(tmp_path):
    usage_error(vfx("render", SYN, "--setup", HUMANOID, "--seconds", "0", "--out", "",
                    cwd=tmp_path), "--out")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("flag", ["--trace", "--gui"])
def test_replay_trace_or_gui_without_dat_is_a_usage_error(tmp_path, flag):
    usage_error(vfx("replay", tmp_capture(tmp_path), flag), flag, "--dat")


def test_compare_json_figures_spell_nonfinite_numbers_as_strings(tmp_path):
    """Contract conventions: NaN and infinities in JSON are "nan", "inf", "-inf"."""
    from viewer.commands.compare import write_figures
    out = tmp_path / "f.json"
    write_figures([{"frame": 0, "t": 0.0, "recording_t": float("inf"), "mad": float("nan"),
                    "ssim": None}], json_path=out, offset=float("-inf"))
    text = out.read_text()
    data = json.loads(text, parse_constant=lambda tok: pytest.fail(f"bare {tok}"))
    assert data["offset"] == "-inf" and data["frames"][0]["mad"] == "nan"


# -- finding 6: errors name the right place -----------------------------------------------------
def test_a_DID_missing_from_the_command_line_DAT_names_that_DAT(tmp_path):
    events = [{"t": 0, "object": 1, "play_script": "0x33009999"}]
    r = vfx("trace", SYN, "--scenario", scenario(tmp_path, events=events))
    input_error(r, "s.json", "events[0]", "DID 0x33009999", f"not found in {SYN}")


def test_replay_dat_with_a_missing_DID_names_the_DAT(tmp_path):
    """A captured PlayScriptId (wire F754) of a script the DAT lacks, on a stand-in."""
    cap = tmp_capture(tmp_path, struct.pack("<III", 0xF754, 0x50000042, 0x33009999))
    r = vfx("replay", cap, "--dat", SYN, "--trace", "--stand-in", HUMANOID)
    input_error(r, SYN, "DID 0x33009999")


def test_replay_trace_of_a_capture_value_outside_its_range_names_the_capture(
        tmp_path, monkeypatch, capsys):
    """What the capture holds (here a position of 3e38) is the capture's fault, not the
    DAT's: the error names the capture file and the field."""
    from viewer.cli import main
    from viewer.commands import replay
    cap = tmp_capture(tmp_path)
    monkeypatch.setattr(replay, "capture_scenario", lambda *a, **k: {
        "objects": [{"id": 1, "setup": HUMANOID, "position": [3e38, 0, 0]}]})
    assert main(["replay", str(cap), "--dat", SYN, "--trace"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"vfxviewer: {cap}: objects[0].position[0]: ") and SYN not in err


def test_a_motion_speed_of_1e38_names_the_scenario_field_not_the_DAT(tmp_path):
    events = [{"t": 0, "object": 1, "motion": f"0x{S.MOTION_WALK_FORWARD:08X}", "speed": 1e38}]
    r = vfx("trace", SYN, "--scenario", scenario(tmp_path, events=events))
    input_error(r, "s.json", "events[0].speed", bounds.MOTION_SPEED.span())
    assert "DID" not in r.err


def test_a_directory_entry_with_a_negative_record_offset_names_no_negative_offset():
    """BTEntry's offset is a signed field: -4096 is no place in the file, so the error
    names the DAT and the DID and says what the field holds (never "0x-1000")."""
    from viewer.dat.container import DatEntry, DatFile
    with DatFile(SYN) as dat, pytest.raises(DatError) as err:
        dat.read_entry(DatEntry(S.SETUP_HUMANOID, -4096, 64, 0, 0, 0))
    text = str(err.value)
    assert "0x-" not in text and err.value.offset is None
    assert text.startswith(f"{SYN}: DID {HUMANOID}: record offset -4096 (0xFFFFF000)")


def test_a_negative_offset_prints_its_sign_before_0x():
    text = str(DatError("bad", file="x.dat", offset=-4096))
    assert text == "x.dat: offset -4096 (-0x1000): bad" and "0x-" not in text


# -- the table itself ---------------------------------------------------------------------------
def test_every_bound_is_in_docs_bounds_md():
    doc = (ROOT / "docs" / "bounds.md").read_text(encoding="utf-8")
    for b in bounds.ALL:
        assert f"`{b.name}`" in doc, b.name
        assert b.span() in doc, (b.name, b.span())


@pytest.mark.parametrize("b", bounds.ALL, ids=lambda b: b.name)
def test_each_bound_holds_its_ends_and_refuses_past_them(b):
    lo_in, hi_in = not b.lo_open, not b.hi_open
    assert b.contains(b.lo) == lo_in and b.contains(b.hi) == hi_in
    assert not b.contains(float("nan")) and not b.contains(float("inf"))
    step = 1 if b.integer else max(abs(b.hi), 1) * 1e-6
    assert not b.contains(b.hi + step) and not b.contains(b.lo - step)


@pytest.mark.parametrize("kw, name", [({"fps": 0.0}, "fps"), ({"rate": float("nan")}, "rate"),
                                      ({"offset": 1e9}, "offset")])
def test_the_viewer_reference_panel_takes_the_same_ranges_as_compare(tmp_path, kw, name):
    """The GUI's Reference panel loads a recording with the ranges of ``vfxviewer compare``
    (refused before the recording is opened)."""
    from viewer.errors import ScenarioError
    from viewer.ui.compare_panel import CompareModel
    with pytest.raises(ScenarioError, match=rf"^{name}: .* is outside "):
        CompareModel().load(str(tmp_path / "not-opened"), **kw)
