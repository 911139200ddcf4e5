"""Issue 26, class 7: reference media decoded in full. Aligning by sound streams the
recording's sound into its block envelope (at most its first ALIGN_AUDIO_MAX_SECONDS), a
frame larger than FRAME_MAX_SIDE on a side is downscaled while it is decoded (crops stay in
the recording's own pixels), and a frame over FRAME_MAX_PIXELS is refused from its header.
Memory is measured in a child process (tests/bounded.py); the media are built small here."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest

from tests import hostile_media as H
from tests.bounded import GiB, MiB, run_bounded
from viewer import synthetic as S
from viewer.compare.align import AUDIO_BLOCK, _envelope, align_audio, estimate_audio_offset
from viewer.compare.reference import Crop, ReferenceTrack
from viewer.media import (
    ALIGN_AUDIO_MAX_SECONDS,
    FRAME_MAX_PIXELS,
    FRAME_MAX_SIDE,
    FrameWriter,
    MediaError,
    audio_block_rms,
    decode_factor,
    read_audio,
)

#: address space for a child that renders (GL's llvmpipe maps much it never touches) and
#: the resident peak it may reach; before, these inputs took 0.7 to 4.1 GiB
LIMIT = 3 * GiB
SCENE = ["--scenario", str(S.DEFAULT_SCENARIO), "--seconds", "0.1", "--size", "32x32"]


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile_media")
    return {"aac": H.silent_aac_video(d / "aac.mp4", 600.0),       # 10 minutes of silence
            "big": H.huge_frame_video(d / "big.mkv", frames=2, codec="mjpeg"),   # 8192x8192
            "pngs": H.huge_png_folder(d / "pngs", count=1)}          # an 8000x8000 PNG


def test_compare_align_audio_streams_10_minutes_of_silence(media):
    # decoded whole at 48 kHz it took about 500 MiB (two hours: 4.1 GiB)
    r = run_bounded(["compare", S.SYNTHETIC_DAT, *SCENE, "--align", "audio",
                     "--reference", media["aac"]], memory=LIMIT)
    assert r.rc == 1 and len(r.err_lines) == 1 and "has no sound" in r.err, r
    assert r.maxrss < 300 * MiB, r


@pytest.mark.parametrize("what", ["big", "pngs"])
def test_compare_against_huge_frames_decodes_them_downscaled(media, what, tmp_path):
    r = run_bounded(["compare", S.SYNTHETIC_DAT, *SCENE, "--reference", media[what],
                     "--json", tmp_path / "f.json"], memory=LIMIT)
    assert r.rc == 0, r
    # full size: one 8192x8192 frame is 192 MiB as RGB, Pillow's decode 256 MiB; the cache
    # alone held 256 MiB of them beside the decode (1.05 and 1.37 GiB before)
    assert r.maxrss < 700 * MiB, r


def test_the_viewer_loads_a_huge_reference_downscaled(media):
    code = ("import resource, sys\n"
            "from viewer.ui.compare_panel import CompareModel\n"
            "m = CompareModel()\n"
            "m.load(sys.argv[1])\n"
            "img = m.reference_at(0.0, (64, 64))\n"
            "print(m.track.size, m.track.frames[0].shape, img.shape)\n")
    r = run_bounded([media["big"]], code=code, memory=LIMIT)
    assert r.rc == 0, r
    assert r.out.split() == ["(8192,", "8192)", "(4096,", "4096,", "3)", "(64,", "64,", "3)"], r
    assert r.maxrss < 600 * MiB, r   # 1.26 GiB before


def test_a_huge_frame_keeps_crops_in_the_recordings_own_pixels(media):
    track = ReferenceTrack.load(media["big"])
    assert track.size == (8192, 8192) and track.factor == 2
    assert track.frames[0].shape == (4096, 4096, 3)
    track.crop = Crop(4096, 0, 4096, 2048)            # the top right quarter's upper half
    assert track.frame_at(0.0).shape == (1024, 2048, 3)
    track.crop = Crop(9000, 0, 10, 10)
    with pytest.raises(MediaError, match="outside the 8192x8192 recording"):
        track.frame_at(0.0)


def test_a_huge_picture_folder_is_decoded_downscaled(media):
    track = ReferenceTrack.load(media["pngs"])
    assert track.size == (8000, 8000) and track.frames[0].shape == (4000, 4000, 3)
    assert tuple(track.frames[0][0, 0]) == (40, 80, 120)


def _png_header_claiming(path, w, h):
    """A PNG whose IHDR claims ``w`` x ``h`` (its pixel data is not there)."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    idat = struct.pack(">I", 0) + b"IDAT" + struct.pack(">I", zlib.crc32(b"IDAT"))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk + idat)
    return path


def test_a_frame_over_the_pixel_bound_is_refused_from_its_header(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    _png_header_claiming(folder / "a.png", 8192, 8193)
    with pytest.raises(MediaError, match=f"over the {FRAME_MAX_PIXELS} pixels"):
        ReferenceTrack.load(folder)
    r = run_bounded(["compare", S.SYNTHETIC_DAT, *SCENE, "--reference", folder],
                    memory=LIMIT)
    assert r.rc == 1 and len(r.err_lines) == 1 and "a.png" in r.err, r


@pytest.mark.parametrize("size, factor", [((1, 1), 1), ((4096, 4096), 1), ((4097, 10), 2),
                                          ((8192, 8192), 2), ((8193, 2), 3)])
def test_decode_factor_is_the_smallest_whole_factor_that_fits(size, factor):
    assert decode_factor(*size) == factor
    assert max(-(-s // factor) for s in size) <= FRAME_MAX_SIDE


# --- the streamed envelope is the envelope of the whole sound ------------------------------
def _tone_video(path, seconds=3.0, rate=8000):
    """A video with a 0.5 s 440 Hz burst at 1.2 s in its PCM sound."""
    t = np.arange(int(seconds * rate)) / rate
    sound = np.where((t >= 1.2) & (t < 1.7), 0.5 * np.sin(2 * np.pi * 440 * t), 0.0)
    with FrameWriter(path, fps=10) as w:
        for _ in range(int(seconds * 10)):
            w.write(np.zeros((16, 16, 3), np.uint8))
        w.set_audio(np.repeat(sound[:, None], 2, axis=1).astype(np.float32), rate)
    return path


def test_the_streamed_block_rms_equals_the_whole_sounds(tmp_path):
    path = _tone_video(tmp_path / "t.mkv")
    whole, rate = read_audio(path, 48000)
    n = len(whole) // AUDIO_BLOCK
    want = np.sqrt(np.mean(np.square(whole[:n * AUDIO_BLOCK].astype(np.float64))
                           .reshape(n, AUDIO_BLOCK), axis=1))
    got, peak = audio_block_rms(path, 48000, AUDIO_BLOCK)
    np.testing.assert_array_equal(got, want)
    assert peak == float(np.abs(whole).max())
    short, _ = audio_block_rms(path, 48000, AUDIO_BLOCK, max_seconds=1.0)
    assert len(short) == 48000 // AUDIO_BLOCK
    assert ALIGN_AUDIO_MAX_SECONDS == 4 * 3600


@pytest.mark.parametrize("rate", [1.0, 1.25])
def test_align_audio_finds_what_the_whole_sound_finds(tmp_path, rate):
    path = _tone_video(tmp_path / "t.mkv")
    whole, _ = read_audio(path, 48000)
    render = np.zeros(48000, np.float32)                 # the burst at 0.2 s of the render
    render[9600:9600 + 24000] = 0.5 * np.sin(np.arange(24000) * 2 * np.pi * 440 / 48000)
    want, _ = estimate_audio_offset(render, whole, 48000, rate=rate)
    assert align_audio(str(path), render, 48000, rate=rate) == want
    if rate == 1.0:
        assert abs(want - 1.0) < 0.02
    assert _envelope(np.zeros(10), AUDIO_BLOCK).shape == (0,)


def test_docs_bounds_md_gives_the_reference_bounds_of_the_reader():
    assert H.undocumented(f"| frame size | at most {FRAME_MAX_PIXELS} pixels (8192x8192) |",
                          f"| frame decoded | at most {FRAME_MAX_SIDE} pixels on the longer",
                          f"| its first {ALIGN_AUDIO_MAX_SECONDS} s (4 hours) |",
                          f"one level per {AUDIO_BLOCK} samples") == []
