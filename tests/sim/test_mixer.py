"""The sound track mixer (viewer.sim.mixer): placement at round(t * rate), gain, pan, the
voice ring's cut, and an undecodable Wave as an error (no GL, no audio device)."""

import numpy as np
import pytest

from viewer.dat.records.sound import Wave
from viewer.errors import DatError
from viewer.sim.mixer import SoundMixer, pan_gains
from viewer.synthetic import audio as A

RATE = 8000
ONE = 0x0A000001
BAD = 0x0A000002


class DB:
    def __init__(self):
        ones = np.full(800, 0.5, np.float32)                 # 0.1 s of a constant 0.5
        self.r = {ONE: Wave(ONE, *A.encode(ones, RATE, 1, bits=16)),
                  BAD: Wave(BAD, b"\x60\x01" + bytes(16), b"\0" * 8)}

    def get(self, did):
        return self.r[did]


def ev(t, voice=0, gain=1.0, pan=0, wave=ONE):
    return {"event": "sound", "t": t, "start": t, "played": True, "wave": wave,
            "gain": gain, "pan": pan, "voice": voice}


def test_a_sound_starts_at_round_t_times_rate_with_its_gain():
    out = SoundMixer(DB(), RATE).mix([ev(0.01234, gain=0.5)], 0.0, 0.5)
    start = int(round(0.01234 * RATE))
    assert out.shape == (4000, 2)
    assert not out[:start].any() and out[start, 0] == pytest.approx(0.25)
    assert np.count_nonzero(out[:, 0]) == 800


def test_t0_shifts_the_track_and_a_sound_begun_before_it_is_heard_from_its_middle():
    out = SoundMixer(DB(), RATE).mix([ev(0.0)], 0.05, 0.5)
    assert out[0, 0] == pytest.approx(0.5) and np.count_nonzero(out[:, 0]) == 400


def test_PlaySoundInternal_0x0054FEC0_a_later_sound_on_the_same_voice_cuts_it():
    m = SoundMixer(DB(), RATE)
    spans = m.spans([ev(0.0, voice=3), ev(0.05, voice=3), ev(0.06, voice=4)])
    assert [(s.start, s.end) for s in spans] == [(0.0, 0.05), (0.05, pytest.approx(0.15)),
                                                 (0.06, pytest.approx(0.16))]
    out = m.mix([ev(0.0, voice=3), ev(0.05, voice=3)], 0.0, 0.5)
    assert np.count_nonzero(out[:, 0]) == 400 + 800 and out[:, 0].max() == pytest.approx(0.5)


def test_pan_attenuates_the_far_channel_by_its_dB():
    assert pan_gains(0) == (1.0, 1.0)
    left, right = pan_gains(6)
    assert right == 1.0 and left == pytest.approx(10 ** (-6 / 20))
    out = SoundMixer(DB(), RATE).mix([ev(0.0, pan=-20)], 0.0, 0.2)
    assert out[0, 0] == pytest.approx(0.5) and out[0, 1] == pytest.approx(0.05)


def test_an_undecodable_Wave_in_the_track_is_a_DatError_naming_it():
    with pytest.raises(DatError, match="0x0160"):
        SoundMixer(DB(), RATE).mix([ev(0.0, wave=BAD)], 0.0, 0.2)


def test_unplayed_sounds_are_not_mixed():
    e = ev(0.0)
    e["played"] = False
    assert not SoundMixer(DB(), RATE).mix([e], 0.0, 0.2).any()
