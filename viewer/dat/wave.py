"""Wave (0x0A) records to PCM: float32 samples in [-1, 1], shape (frames, channels).

A Wave holds a WAVEFORMATEX and the audio bytes (DBWave::UnPack 0x00551B90, records/
sound.py). Retail plays PCM directly and hands every other format tag to the Windows ACM
codecs (SoundBuf::Create 0x00552930 / CopyWaveToBuffer 0x005526D0 convert to 16-bit PCM);
the ACM codecs are not in the decompile, so we decode those forms with FFmpeg (PyAV):

* 0x0001 PCM, 8-bit unsigned or 16-bit signed little-endian: decoded here (numpy).
* 0x0002 MS ADPCM, 0x0011 IMA ADPCM, 0x0055 MPEG Layer 3: PyAV on the record wrapped as a
  RIFF/WAVE file.

A Wave that cannot be decoded (an unknown tag, a bad header, a codec error, no samples) is
a ``DatError`` naming the DID and the format tag: never a crash, never silence. So is one
outside the bounds below (docs/bounds.md), checked before anything is decoded where the
header and the byte count tell, and while decoding otherwise: a header that lies (8-bit PCM
"at 1 Hz") would make 2,400 bytes 40 minutes of sound.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass

import numpy as np

from viewer.errors import DatError

WAVE_FORMAT_PCM = 0x0001
WAVE_FORMAT_ADPCM = 0x0002
WAVE_FORMAT_IMA_ADPCM = 0x0011
WAVE_FORMAT_MPEGLAYER3 = 0x0055
#: DirectSound's DSBFREQUENCY_MIN..DSBFREQUENCY_MAX: a buffer at another rate cannot be
#: created, so retail cannot play such a Wave
WAVE_RATE_MIN, WAVE_RATE_MAX = 100, 200_000
#: WAVEFORMATEX without the extensible form describes mono or stereo only
WAVE_CHANNELS_MAX = 2
#: decoded sample frames of one Wave (2 ** 24: 5.8 minutes at 48 kHz, 25 at 11,025 Hz;
#: retail's sounds last seconds): 64 MiB as mono float32
WAVE_MAX_FRAMES = 1 << 24
FORMAT_NAMES = {WAVE_FORMAT_PCM: "PCM", WAVE_FORMAT_ADPCM: "MS ADPCM",
                WAVE_FORMAT_IMA_ADPCM: "IMA ADPCM", WAVE_FORMAT_MPEGLAYER3: "MP3"}


@dataclass(frozen=True)
class WaveFormat:
    """The WAVEFORMATEX fields we use."""

    tag: int
    channels: int
    sample_rate: int
    avg_bytes_per_sec: int
    block_align: int
    bits_per_sample: int

    @classmethod
    def parse(cls, header: bytes) -> WaveFormat:
        if len(header) < 16:
            raise ValueError(f"WAVEFORMATEX of {len(header)} bytes (needs 16)")
        return cls(*struct.unpack_from("<HHIIHH", header))


@dataclass(frozen=True)
class Pcm:
    samples: np.ndarray   # float32 (frames, channels)
    sample_rate: int

    @property
    def duration(self) -> float:
        return self.samples.shape[0] / self.sample_rate


def _error(wave, tag, why: str, file=None) -> DatError:
    name = FORMAT_NAMES.get(tag, "unknown")
    tag_s = f"0x{tag:04X}" if tag is not None else "none"
    return DatError(f"Wave format tag {tag_s} ({name}): {why}", file=file, did=wave.id)


def _decode_pcm(fmt: WaveFormat, data: bytes) -> np.ndarray:
    if fmt.bits_per_sample == 8:
        a = np.frombuffer(data, np.uint8).astype(np.float32)
        a -= 128.0
        a /= 128.0
    elif fmt.bits_per_sample == 16:
        a = np.frombuffer(data[:len(data) // 2 * 2], "<i2").astype(np.float32)
        a /= 32768.0
    else:
        raise ValueError(f"{fmt.bits_per_sample}-bit PCM is not supported (8 or 16)")
    n = a.shape[0] // fmt.channels
    return a[:n * fmt.channels].reshape(n, fmt.channels)


def _too_long(frames: int) -> ValueError:
    return ValueError(f"{frames} sample frames or more (at most {WAVE_MAX_FRAMES})")


def _decode_av(wave, fmt: WaveFormat) -> np.ndarray:
    import av
    chunks = []
    total = 0
    with av.open(io.BytesIO(wave.to_riff()), format="wav") as c:
        for frame in c.decode(audio=0):
            total += frame.samples
            if total > WAVE_MAX_FRAMES:
                raise _too_long(total)
            a = frame.to_ndarray()
            if frame.format.is_planar:
                a = a.T                     # (channels, n) -> (n, channels)
            else:
                a = a.reshape(-1, len(frame.layout.channels))
            if a.dtype == np.int16:
                a = a.astype(np.float32) / 32768.0
            elif a.dtype == np.int32:
                a = a.astype(np.float32) / 2147483648.0
            chunks.append(a.astype(np.float32))
    if not chunks:
        return np.zeros((0, fmt.channels), np.float32)
    return np.concatenate(chunks)


def check_format(fmt: WaveFormat) -> None:
    """ValueError unless the rate and channel count are inside the bounds."""
    if not 1 <= fmt.channels <= WAVE_CHANNELS_MAX:
        raise ValueError(f"{fmt.channels} channels (1..{WAVE_CHANNELS_MAX})")
    if not WAVE_RATE_MIN <= fmt.sample_rate <= WAVE_RATE_MAX:
        raise ValueError(f"{fmt.sample_rate} Hz is outside {WAVE_RATE_MIN}..{WAVE_RATE_MAX} "
                         "Hz (DirectSound's buffer rates)")


def decode_wave(wave, *, file: str | None = None) -> Pcm:
    """The Wave's samples (float32, (frames, channels)) and its sample rate."""
    tag = wave.format_tag
    try:
        fmt = WaveFormat.parse(wave.header)
        check_format(fmt)
        if tag == WAVE_FORMAT_PCM:
            frames = len(wave.data) // max(1, fmt.bits_per_sample // 8 * fmt.channels)
            if frames > WAVE_MAX_FRAMES:
                raise _too_long(frames)
            samples = _decode_pcm(fmt, wave.data)
        elif tag in (WAVE_FORMAT_ADPCM, WAVE_FORMAT_IMA_ADPCM, WAVE_FORMAT_MPEGLAYER3):
            samples = _decode_av(wave, fmt)
        else:
            raise ValueError("not a format the retail files use (PCM, MS ADPCM, IMA ADPCM, "
                             "MP3)")
    except DatError:
        raise
    except Exception as err:  # PyAV / FFmpeg raise many kinds; one line naming the Wave
        raise _error(wave, tag, str(err) or type(err).__name__, file) from err
    if samples.shape[0] == 0:
        raise _error(wave, tag, "no samples", file)
    return Pcm(np.ascontiguousarray(samples, np.float32), fmt.sample_rate)
