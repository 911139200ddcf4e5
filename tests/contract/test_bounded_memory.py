"""Issue 14, adversarial finding 1: memory without bound. Each hostile input runs the real
command line in a child process under an address-space limit (``RLIMIT_AS``): the command
gives the contract's one-line error (exit 1) or its result, never a MemoryError, a
traceback or a kill."""

from __future__ import annotations

import json
import struct
import zlib

import pytest

from tests.bounded import ROOT, GiB, MiB, run_bounded
from viewer import synthetic as S
from viewer.dat.container import MAX_INFLATED_SIZE, DatFile
from viewer.dat.writer import build_dat
from viewer.inputs import ACTIONS_MAX_BYTES, CAPTURE_MAX_BYTES, SCENARIO_MAX_BYTES

BOMB_DID = 0x02000103            # the default scenario's object 1 Setup

#: Well above what any of these commands needs (about 40 MiB for trace, 140 MiB for a
#: small render) and well below what each hostile input made them take before.
LIMIT = 700 * MiB


def _one_line_error(r, *needles) -> None:
    assert not r.timed_out, r
    assert r.rc == 1, r
    assert len(r.err_lines) == 1 and "Traceback" not in r.err, r
    for n in needles:
        assert n in r.err, r


@pytest.fixture(scope="module")
def bomb_dat(tmp_path_factory):
    """The synthetic library with the default scenario's Setup replaced by a zlib stream
    of 1 GiB of zeros (about 1 MB) whose size prefix claims 3 GiB."""
    with DatFile(S.SYNTHETIC_DAT) as d:
        recs = {did: d.read(did) for did in d}
    c = zlib.compressobj(1)
    zeros = bytes(16 * MiB)
    stream = b"".join(c.compress(zeros) for _ in range(64)) + c.flush()
    recs[BOMB_DID] = struct.pack("<I", 3 * GiB) + stream
    data = bytearray(build_dat(recs))
    with DatFile(data=bytes(data)) as d:
        e = d.entry(BOMB_DID)
    packed = struct.pack("<IIiIIi", e.bitfield, e.did, e.offset, e.size, e.date, e.iteration)
    at = data.find(packed)                # its BTEntry: set bit 0, "compressed"
    assert at > 0
    data[at] |= 1
    path = tmp_path_factory.mktemp("bomb") / "bomb.dat"
    path.write_bytes(bytes(data))
    assert path.stat().st_size < 8 * MiB
    return path


@pytest.mark.parametrize("argv", [
    ["dat", "show", "{dat}", f"0x{BOMB_DID:08X}"],
    ["trace", "{dat}", "--scenario", str(S.DEFAULT_SCENARIO), "--seconds", "0.1"],
    ["render", "{dat}", "--scenario", str(S.DEFAULT_SCENARIO), "--seconds", "0",
     "--size", "64x64", "--out", "{tmp}/x.png"],
], ids=["dat-show", "trace", "render"])
def test_a_compressed_size_prefix_of_3GiB_is_refused_before_inflating(bomb_dat, argv,
                                                                       tmp_path):
    argv = [a.format(dat=bomb_dat, tmp=tmp_path) for a in argv]
    r = run_bounded(argv, memory=LIMIT, timeout=120)
    _one_line_error(r, str(bomb_dat), f"DID 0x{BOMB_DID:08X}", "offset",
                    str(MAX_INFLATED_SIZE))
    assert not (tmp_path / "x.png").exists()


def test_a_size_prefix_its_stream_cannot_reach_is_refused():
    payload = bytes(range(256)) * 4
    data = bytearray(build_dat({0x0A000001: payload}, compressed=[0x0A000001]))
    with DatFile(data=bytes(data)) as d:
        off = d.entry(0x0A000001).offset
    struct.pack_into("<I", data, off + 4, MAX_INFLATED_SIZE)   # the u32 size prefix
    with DatFile(data=bytes(data), name="lie.dat") as d, pytest.raises(Exception) as exc:
        d.read(0x0A000001)
    msg = str(exc.value)
    assert type(exc.value).__name__ == "DatError"
    assert msg.startswith("lie.dat: DID 0x0A000001: offset") and "zlib stream" in msg


# --- inputs read whole: a byte cap (viewer/inputs.py) ---------------------------------------
@pytest.mark.parametrize("argv, what", [
    (["trace", str(S.SYNTHETIC_DAT), "--scenario", "/dev/zero"], "scenario"),
    (["replay", "/dev/zero"], "capture"),
    (["screenshot", "--out", "{tmp}/x.png", "--actions", "/dev/zero"], "actions"),
], ids=["trace-scenario", "replay", "screenshot-actions"])
def test_an_endless_device_is_refused_unread(argv, what, tmp_path):
    """Only regular files are inputs (viewer.inputs.open_input; issue 26 class 2)."""
    argv = [a.format(tmp=tmp_path) for a in argv]
    r = run_bounded(argv, memory=LIMIT, timeout=120)
    _one_line_error(r, "/dev/zero", f"{what} is a character device, not a file")
    assert not (tmp_path / "x.png").exists()


def test_a_regular_file_growing_past_its_cap_is_read_up_to_the_cap_then_refused(tmp_path,
                                                                                monkeypatch):
    """The size measured before reading may be stale: the read itself stops at the cap."""
    import os

    from viewer.errors import ScenarioError
    from viewer.inputs import read_capped
    p = tmp_path / "s.json"
    p.write_bytes(b"x" * 64)
    real_fstat = os.fstat
    monkeypatch.setattr(os, "fstat", lambda fd: os.stat_result(
        (*real_fstat(fd)[:6], 10, *real_fstat(fd)[7:])))    # st_size 10: the file "grew"
    with pytest.raises(ScenarioError, match="holds more than the 32 bytes accepted"):
        read_capped(p, 32, ScenarioError, "scenario")


@pytest.mark.parametrize("argv, what", [
    (["trace", str(S.SYNTHETIC_DAT), "--scenario", "{big}"], "scenario"),
    (["replay", "{big}"], "capture"),
    (["screenshot", "--out", "{tmp}/x.png", "--actions", "{big}"], "actions"),
], ids=["trace-scenario", "replay", "screenshot-actions"])
def test_a_sparse_file_over_the_cap_is_refused_unread(argv, what, tmp_path):
    big = tmp_path / "big"
    with open(big, "wb") as fh:
        fh.truncate(4 * GiB)
    argv = [a.format(tmp=tmp_path, big=big) for a in argv]
    r = run_bounded(argv, memory=LIMIT, timeout=120)
    _one_line_error(r, str(big), f"{what} is {4 * GiB} bytes, more than the")


def test_read_capped_reads_a_file_at_the_cap_and_names_a_bad_utf8_byte(tmp_path):
    from viewer.errors import ScenarioError
    from viewer.inputs import read_capped, read_text_capped
    p = tmp_path / "s.json"
    p.write_bytes(b"x" * 10)
    assert read_capped(p, 10, ScenarioError, "scenario") == b"x" * 10
    with pytest.raises(ScenarioError, match="more than the 9 accepted"):
        read_capped(p, 9, ScenarioError, "scenario")
    p.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(ScenarioError, match=r"offset 7 .*not UTF-8"):
        read_text_capped(p, 100, ScenarioError, "scenario")


# --- reference recordings: the frame cache is bounded in bytes (viewer/media.py) ------------
def test_an_image_folder_of_huge_frames_keeps_the_cache_under_its_byte_bound(tmp_path):
    from PIL import Image

    from viewer.media import LazyFrames
    big = tmp_path / "big.png"
    Image.new("RGB", (4000, 4000), (40, 80, 120)).save(big)     # 48 MB as pixels
    rec = tmp_path / "rec"
    rec.mkdir()
    for k in range(20):
        (rec / f"f{k:02d}.png").symlink_to(big)
    code = ("import sys\nfrom viewer.media import open_frames\n"
            "f = open_frames(sys.argv[1])\n"
            "for i in range(len(f)):\n    assert f[i][0, 0, 2] == 120\n"
            "print(len(f), len(f._cache), f._cache_bytes)\n")
    r = run_bounded([rec], code=code, memory=LIMIT, timeout=120)
    assert r.rc == 0 and not r.timed_out, r
    n, kept, nbytes = (int(v) for v in r.out.split())
    assert n == 20 and 1 <= kept < 20 and nbytes <= LazyFrames.CACHE_BYTES


def test_the_frame_cache_always_keeps_the_frame_just_decoded():
    import numpy as np

    from viewer.media import LazyFrames

    class Frames(LazyFrames):
        CACHE_BYTES = 100

        def _load(self, i):
            img = np.full((8, 8, 3), i, np.uint8)     # 192 bytes: over the bound alone
            self._keep(i, img)
            return img

    f = Frames(None, np.arange(5, dtype=np.float64))
    assert [int(f[i][0, 0, 0]) for i in range(5)] == [0, 1, 2, 3, 4]
    assert list(f._cache) == [4] and f._cache_bytes == 192


# --- render --out x.gif streams its frames; a failure leaves no file -------------------------
def _render_gif(tmp_path, name, seconds, size="512x512", scenario=S.DEFAULT_SCENARIO):
    out = tmp_path / name
    r = run_bounded(["render", S.SYNTHETIC_DAT, "--scenario", scenario, "--seconds", seconds,
                     "--size", size, "--out", out], timeout=300)
    return r, out


def test_render_gif_memory_does_not_grow_with_the_frame_count(tmp_path):
    from PIL import Image
    short, out_short = _render_gif(tmp_path, "short.gif", "0.1")
    long, out_long = _render_gif(tmp_path, "long.gif", "3")
    assert short.rc == 0 and long.rc == 0, (short, long)
    with Image.open(out_long) as im:
        assert im.n_frames == 91 and im.size == (512, 512)
    # keeping 91 frames of 512x512 would add at least 91 * 768 KiB = 68 MiB
    assert long.maxrss - short.maxrss < 32 * MiB, (short, long)
    assert not list(tmp_path.glob(".*partial*"))


@pytest.mark.parametrize("name", ["x.gif", "x.mp4", "x.png"])
def test_a_render_that_fails_midway_leaves_no_file(tmp_path, name):
    sc = json.loads(S.DEFAULT_SCENARIO.read_text())
    sc["dat"] = [str(S.SYNTHETIC_DAT)]
    sc["events"].append({"t": 2.0, "object": 99, "play_script": "0x33000001"})
    path = tmp_path / "fails.json"
    path.write_text(json.dumps(sc))
    r, out = _render_gif(tmp_path, name, "2.5", size="64x64", scenario=path)
    _one_line_error(r, "object 99 does not exist")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fails.json"]


def test_the_byte_caps_are_the_ones_docs_bounds_md_gives():
    from viewer.dat.container import MAX_INFLATED_SIZE
    from viewer.media import LazyFrames
    from viewer.sim.playback import MAX_SNAPSHOTS
    from viewer.ui.session import LOAD_FRAMES
    doc = (ROOT / "docs" / "bounds.md").read_text(encoding="utf-8")
    for row, value in (("scenario file", SCENARIO_MAX_BYTES),
                       ("`--actions` file", ACTIONS_MAX_BYTES),
                       ("capture (`replay`)", CAPTURE_MAX_BYTES),
                       ("a compressed DAT record, inflated", MAX_INFLATED_SIZE),
                       ("reference recording frames kept decoded", LazyFrames.CACHE_BYTES)):
        assert f"| {row} | {value} bytes" in doc, row
    prose = " ".join(doc.split())
    assert f"and {LazyFrames.CACHE} frames" in prose
    assert f"at most {MAX_SNAPSHOTS} scrub snapshots" in prose
    assert f"at most {LOAD_FRAMES} frames ahead" in prose


# --- screenshot --out goes through the same .partial-then-rename writer ------------------------
#: the CLI with writes capped at 2 KiB: a picture larger than that fails part-way (EFBIG)
_FSIZE_CAPPED = ("import resource, signal, sys\n"
                 "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
                 "resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))\n"
                 "from viewer.cli import main\n"
                 "sys.exit(main())\n")


def test_a_screenshot_whose_write_fails_partway_leaves_the_old_file_and_no_other(tmp_path):
    out = tmp_path / "x.png"
    out.write_bytes(b"the picture from before")
    r = run_bounded(["screenshot", "--size", "256x256", "--out", out], code=_FSIZE_CAPPED,
                    timeout=120)
    _one_line_error(r, str(out), "--out")
    assert out.read_bytes() == b"the picture from before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.png"]


def test_a_screenshot_is_saved_whole_under_its_name(tmp_path):
    from PIL import Image
    out = tmp_path / "x.png"
    out.write_bytes(b"the picture from before")
    r = run_bounded(["screenshot", "--size", "64x64", "--out", out], timeout=120)
    assert r.rc == 0, r
    with Image.open(out) as im:
        assert im.size == (64, 64)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.png"]


def test_save_image_removes_its_partial_file_when_the_encoder_fails(tmp_path):
    from PIL import Image

    from viewer.media import save_image
    out = tmp_path / "x.jpg"
    out.write_bytes(b"old")
    with pytest.raises(OSError):
        save_image(Image.new("RGB", (70000, 1)), out)   # JPEG stops at 65500 pixels
    assert out.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["x.jpg"]
    save_image(Image.new("RGB", (4, 4)), out)
    with Image.open(out) as im:
        assert im.format == "JPEG"


# --- compare streams: each frame is compared and written as it is rendered -------------------
def _compare(tmp_path, name, seconds, *extra):
    import numpy as np

    from viewer.media import write_frames
    rec = tmp_path / "rec"
    if not rec.exists():
        write_frames(rec, [np.full((16, 16, 3), 40 * k, np.uint8) for k in range(4)], fps=30)
    out = tmp_path / name
    r = run_bounded(["compare", S.SYNTHETIC_DAT, "--scenario", S.DEFAULT_SCENARIO,
                     "--seconds", seconds, "--size", "512x512", "--reference", rec,
                     "--reference-fps", "30", "--out", out, "--json", tmp_path / f"{name}.json",
                     *extra], timeout=300)
    return r, out


@pytest.mark.parametrize("extra", [(), ("--mode", "onion", "--align")])
def test_compare_memory_does_not_grow_with_the_frame_count(tmp_path, extra):
    from PIL import Image
    short, _ = _compare(tmp_path, "short.gif", "0.1", *extra)
    long, out_long = _compare(tmp_path, "long.gif", "3", *extra)
    assert short.rc == 0 and long.rc == 0, (short, long)
    with Image.open(out_long) as im:
        assert im.n_frames == 91
    rows = json.loads((tmp_path / "long.gif.json").read_text())["frames"]
    assert [r["frame"] for r in rows] == list(range(91))
    # keeping 91 rendered frames of 512x512 RGBA would add at least 91 MiB, the composed
    # side-by-side frames as much again
    assert long.maxrss - short.maxrss < 32 * MiB, (short, long)
    assert not list(tmp_path.glob(".*partial*"))
