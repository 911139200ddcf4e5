"""Hostile media built small at test time (issue 26, classes 4 and 7): Waves whose header
lies about their rate, and reference recordings that cost far more decoded than stored.
Shared by the tests and ``bench/hostile_media.py``."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from viewer import synthetic as S
from viewer.dat.container import DatFile
from viewer.dat.writer import build_dat

#: docs/bounds.md, which names every bound these inputs test
BOUNDS_DOC = Path(__file__).resolve().parent.parent / "docs" / "bounds.md"


def undocumented(*phrases: str) -> list[str]:
    """The phrases docs/bounds.md does not contain."""
    text = BOUNDS_DOC.read_text()
    return [p for p in phrases if p not in text]


#: the Wave the default scenario plays first (a SoundTable entry at t = 1/30 s)
PLAYED_WAVE = S.WAVE_WHOOSH


def wave_record(did: int, header: bytes, data: bytes) -> bytes:
    """A Wave (0x0A) record: DBWave::UnPack 0x00551B90's id, sizes, WAVEFORMATEX, data."""
    return struct.pack("<Iii", did, len(header), len(data)) + header + data


def _with_rate(header: bytes, rate: int) -> bytes:
    """``header`` (a WAVEFORMATEX) claiming ``rate`` samples a second."""
    h = bytearray(header)
    struct.pack_into("<I", h, 4, rate)                # nSamplesPerSec
    struct.pack_into("<I", h, 8, max(1, rate))        # nAvgBytesPerSec (as a liar would)
    return bytes(h)


def lying_wave_dat(path: Path, form: str, rate: int = 1, *, did: int = PLAYED_WAVE,
                   size: int = 2400) -> Path:
    """The synthetic library with ``did`` replaced by a Wave whose header says ``rate`` Hz:
    ``form`` is ``pcm8`` (``size`` bytes of 8-bit PCM), ``pcm16``, ``adpcm``, ``ima`` or
    ``mp3`` (the synthetic Wave of that form, its header's rate changed)."""
    with DatFile(S.SYNTHETIC_DAT) as d:
        recs = {e: d.read(e) for e in d}
    if form == "pcm8":
        header = struct.pack("<HHIIHHH", 1, 1, rate, rate, 1, 8, 0)
        data = (np.sin(np.arange(size) * 0.3) * 100 + 128).astype(np.uint8).tobytes()
    else:
        src = {"pcm16": S.WAVE_TONE_PCM16, "adpcm": S.WAVE_CLICK_ADPCM,
               "ima": S.WAVE_TONE_IMA, "mp3": S.WAVE_TONE_MP3}[form]
        raw = recs[src]
        _, hs, ds = struct.unpack_from("<Iii", raw)
        header, data = _with_rate(raw[12:12 + hs], rate), raw[12 + hs:12 + hs + ds]
    recs[did] = wave_record(did, header, data)
    path.write_bytes(build_dat(recs))
    return path


def _encode(c, stream, frames) -> None:
    """Encode and mux ``frames`` (each with its pts set) into ``stream``, then flush it."""
    for f in frames:
        for p in stream.encode(f):
            c.mux(p)
    for p in stream.encode(None):
        c.mux(p)


def _video_stream(c, size: int, codec: str = "mpeg4"):
    vs = c.add_stream(codec, rate=1)
    vs.width = vs.height = size
    vs.pix_fmt = "yuvj420p" if codec == "mjpeg" else "yuv420p"
    if codec == "libx264":
        vs.options = {"preset": "ultrafast"}
    return vs


def _grey_frames(size: int, count: int, pix_fmt: str = "yuv420p"):
    import av
    img = av.VideoFrame(size, size, pix_fmt)
    for plane in img.planes:
        plane.update(bytes([128]) * plane.buffer_size)
    for i in range(count):
        img.pts = i
        yield img


def _silence(seconds: float, rate: int, block: int = 1024):
    import av
    silence = np.zeros((1, block), np.float32)
    for i in range(0, int(seconds * rate), block):
        f = av.AudioFrame.from_ndarray(silence, format="fltp", layout="mono")
        f.sample_rate = rate
        f.pts = i
        yield f


def silent_aac_video(path: Path, seconds: float, *, size: int = 16, frames: int = 1,
                     audio_rate: int = 8000) -> Path:
    """A video of ``frames`` grey ``size`` x ``size`` frames and ``seconds`` of silent
    AAC at ``audio_rate`` Hz: small on disk (silence costs a few bytes a packet), hours long
    decoded."""
    import av
    with av.open(str(path), "w") as c:
        vs = _video_stream(c, size)
        aus = c.add_stream("aac", rate=audio_rate, layout="mono")
        _encode(c, vs, _grey_frames(size, frames))
        _encode(c, aus, _silence(seconds, audio_rate))
    return path


def huge_frame_video(path: Path, size: int = 8192, frames: int = 3,
                     codec: str = "libx264") -> Path:
    """``frames`` flat grey ``size`` x ``size`` frames: a few KB of H.264 (``mjpeg``: a few
    MB, but quicker to write)."""
    import av
    with av.open(str(path), "w") as c:
        vs = _video_stream(c, size, codec)
        _encode(c, vs, _grey_frames(size, frames, vs.pix_fmt))
    return path


def huge_png_folder(folder: Path, size: int = 8000, count: int = 6) -> Path:
    """``count`` flat ``size`` x ``size`` PNGs (a few hundred KB each)."""
    from PIL import Image
    folder.mkdir(parents=True, exist_ok=True)
    img = Image.new("RGB", (size, size), (40, 80, 120))
    for i in range(count):
        img.save(folder / f"f{i:03d}.png", compress_level=1)
    return folder
