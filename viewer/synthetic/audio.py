"""Synthetic Wave content: generated tones and clicks, encoded in each WAVEFORMATEX form the
retail files use (PCM 8/16-bit, MS ADPCM, IMA ADPCM, MP3).

PCM is written here; the compressed forms are encoded by FFmpeg through PyAV into a WAV
container whose ``fmt `` chunk becomes the record's WAVEFORMATEX and whose ``data`` chunk
its audio (no RIFF wrapper is kept: a Wave record is header + data).
"""

from __future__ import annotations

import io
import struct

import numpy as np

from viewer.dat.wave import (
    WAVE_FORMAT_ADPCM,
    WAVE_FORMAT_IMA_ADPCM,
    WAVE_FORMAT_MPEGLAYER3,
    WAVE_FORMAT_PCM,
)

_CODECS = {WAVE_FORMAT_ADPCM: ("adpcm_ms", "s16"), WAVE_FORMAT_IMA_ADPCM:
           ("adpcm_ima_wav", "s16p"), WAVE_FORMAT_MPEGLAYER3: ("libmp3lame", "s16p")}


def tone(rate: int, seconds: float, freq: float, *, attack: float = 0.002,
         amplitude: float = 0.8) -> np.ndarray:
    """A sine with a short linear attack and a linear decay to silence (float32 mono):
    its onset is the first sample."""
    n = int(round(rate * seconds))
    t = np.arange(n, dtype=np.float64) / rate
    env = np.minimum(1.0, t / attack) * (1.0 - t / seconds)
    return (amplitude * env * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def click(rate: int, seconds: float, *, period: int = 8, amplitude: float = 0.9) -> np.ndarray:
    """A square click train with a linear decay (float32 mono)."""
    n = int(round(rate * seconds))
    sq = np.where((np.arange(n) // (period // 2)) % 2 == 0, 1.0, -1.0)
    return (amplitude * sq * (1.0 - np.arange(n) / n)).astype(np.float32)


def source(rate: int, seconds: float, freq: float) -> np.ndarray:
    """A library Wave's samples: a tone of ``freq`` Hz, or a click train for 0."""
    return tone(rate, seconds, freq) if freq else click(rate, seconds)


def pcm_format(rate: int, bits: int, channels: int = 1) -> bytes:
    """An 18-byte WAVEFORMATEX for PCM (cbSize 0)."""
    align = channels * bits // 8
    return struct.pack("<HHIIHHH", WAVE_FORMAT_PCM, channels, rate, rate * align, align, bits,
                       0)


def encode_pcm(samples: np.ndarray, rate: int, bits: int) -> tuple[bytes, bytes]:
    """(WAVEFORMATEX, data) for mono 8-bit unsigned or 16-bit signed PCM."""
    s = np.clip(np.asarray(samples, np.float64), -1.0, 32767 / 32768)
    if bits == 8:
        data = np.round(s * 128.0 + 128.0).clip(0, 255).astype(np.uint8).tobytes()
    else:
        data = np.round(s * 32768.0).astype("<i2").tobytes()
    return pcm_format(rate, bits), data


def _riff_chunks(blob: bytes) -> dict[bytes, bytes]:
    if blob[:4] != b"RIFF" or blob[8:12] != b"WAVE":
        raise ValueError("not a RIFF/WAVE stream")
    out, pos = {}, 12
    while pos + 8 <= len(blob):
        cid, size = blob[pos:pos + 4], struct.unpack_from("<I", blob, pos + 4)[0]
        out.setdefault(cid, blob[pos + 8:pos + 8 + size])
        pos += 8 + size + (size & 1)
    return out


def encode_av(samples: np.ndarray, rate: int, tag: int, *, bit_rate: int = 32000
              ) -> tuple[bytes, bytes]:
    """(WAVEFORMATEX, data) for mono MS ADPCM, IMA ADPCM or MP3, encoded by FFmpeg."""
    import av
    codec, fmt = _CODECS[tag]
    pcm = np.round(np.clip(np.asarray(samples, np.float64), -1.0, 32767 / 32768) * 32768.0
                   ).astype(np.int16)
    buf = io.BytesIO()
    with av.open(buf, "w", format="wav") as out:
        st = out.add_stream(codec, rate=rate, layout="mono")
        if tag == WAVE_FORMAT_MPEGLAYER3:
            st.bit_rate = bit_rate
        frame = av.AudioFrame.from_ndarray(pcm.reshape(1, -1), format=fmt, layout="mono")
        frame.sample_rate = rate
        frame.pts = 0
        for p in st.encode(frame):
            out.mux(p)
        for p in st.encode(None):
            out.mux(p)
    chunks = _riff_chunks(buf.getvalue())
    return chunks[b"fmt "], chunks[b"data"]


def encode(samples: np.ndarray, rate: int, tag: int, bits: int = 16) -> tuple[bytes, bytes]:
    """(WAVEFORMATEX, data) of ``samples`` (float mono) in the given format tag."""
    if tag == WAVE_FORMAT_PCM:
        return encode_pcm(samples, rate, bits)
    return encode_av(samples, rate, tag)
