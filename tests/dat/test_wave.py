"""Wave records to PCM (viewer.dat.wave): every WAVEFORMATEX form the retail files use."""

import struct

import numpy as np
import pytest

from viewer.dat.records.sound import Wave
from viewer.dat.wave import decode_wave
from viewer.errors import DatError
from viewer.synthetic import audio as A

RATE = 22050
DID = 0x0A00F001


def _best_error(decoded: np.ndarray, source: np.ndarray, max_lag: int) -> tuple[float, int]:
    """The smallest peak error of ``decoded`` against ``source`` over lags 0..max_lag (the
    codec's delay), compared over the source's body."""
    n = len(source) - 200
    return min((float(np.abs(decoded[k:k + n] - source[:n]).max()), k)
               for k in range(max_lag + 1) if k + n <= len(decoded))


def test_PCM_8bit_unsigned_decodes_to_the_tone_within_one_step():
    s = A.tone(RATE, 0.1, 440.0)
    pcm = decode_wave(Wave(DID, *A.encode(s, RATE, 1, bits=8)))
    assert pcm.sample_rate == RATE and pcm.samples.shape == (len(s), 1)
    assert np.abs(pcm.samples[:, 0] - s).max() <= 1 / 256 + 1e-6


def test_PCM_16bit_decodes_to_the_tone_within_one_step():
    s = A.tone(RATE, 0.1, 440.0)
    pcm = decode_wave(Wave(DID, *A.encode(s, RATE, 1, bits=16)))
    assert np.abs(pcm.samples[:, 0] - s).max() <= 1 / 65536 + 1e-7


def test_PCM_8bit_values_by_hand():
    header = A.pcm_format(8000, 8)
    pcm = decode_wave(Wave(DID, header, bytes([0, 64, 128, 192, 255])))
    assert pcm.samples[:, 0].tolist() == [-1.0, -0.5, 0.0, 0.5, 127 / 128]


@pytest.mark.parametrize("tag,tolerance,lag", [(0x0002, 0.03, 0), (0x0011, 0.05, 0),
                                               (0x0055, 0.08, 1200)])
def test_compressed_forms_decode_to_the_source_tone(tag, tolerance, lag):
    s = A.tone(RATE, 0.25, 440.0)
    header, data = A.encode(s, RATE, tag)
    assert struct.unpack_from("<H", header)[0] == tag
    pcm = decode_wave(Wave(DID, header, data))
    assert pcm.sample_rate == RATE and pcm.samples.shape[1] == 1
    err, k = _best_error(pcm.samples[:, 0], s, lag)
    assert err < tolerance
    if tag != 0x0055:
        assert k == 0   # ADPCM: no delay, the onset is the first sample


@pytest.mark.parametrize("header,data,says", [
    (struct.pack("<HHIIHHH", 0x0160, 1, 8000, 8000, 1, 8, 0), b"\0" * 10, "0x0160"),
    (b"\x01\x00\x01", b"\0" * 10, "0x0001"),                         # truncated header
    (A.pcm_format(8000, 24), b"\0" * 12, "24-bit"),
    (A.pcm_format(8000, 16), b"", "no samples"),
    (A.encode(A.tone(RATE, 0.05, 440.0), RATE, 0x0055)[0], b"\x00" * 64, "0x0055"),
    (A.encode(A.tone(RATE, 0.05, 440.0), RATE, 0x0002)[0], b"\x07" * 3, "0x0002")])
def test_an_undecodable_Wave_is_a_DatError_naming_DID_and_format_tag(header, data, says):
    with pytest.raises(DatError) as e:
        decode_wave(Wave(DID, header, data), file="x.dat")
    msg = str(e.value)
    assert says in msg and "0x0A00F001" in msg.upper().replace("0X", "0x") and "\n" not in msg
