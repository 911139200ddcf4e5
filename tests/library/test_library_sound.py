"""Synthetic library sounds (issue 20): a Wave in each WAVEFORMATEX form decodes to the
tone it was generated from, and the humanoid SoundTable's choice follows GetSound."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from viewer import synthetic as S
from viewer.dat.database import AssetDatabase
from viewer.dat.records.hooks import SoundTableHook
from viewer.dat.wave import decode_wave
from viewer.sim.hooks import execute_hook
from viewer.sim.world import World
from viewer.synthetic import audio as A

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")


@pytest.fixture(scope="module")
def db():
    with AssetDatabase([str(S.SYNTHETIC_DAT)]) as d:
        yield d


@pytest.mark.parametrize("name,tag,bits,seconds,freq", S.WAVE_FORMS)
def test_every_synthetic_Wave_form_decodes_to_its_source(db, name, tag, bits, seconds, freq):
    wave = db.get(getattr(S, name))
    assert struct.unpack_from("<H", wave.header)[0] == tag
    pcm = decode_wave(wave)
    assert pcm.sample_rate == S.SOUND_SAMPLE_RATE and pcm.samples.shape[1] == 1
    src = A.source(S.SOUND_SAMPLE_RATE, seconds, freq)
    got = pcm.samples[:, 0]
    n = len(src) - 200
    lags = range(1300) if tag == 0x0055 else range(1)     # MP3: the codec's delay

    def rel_rms(k):   # the error's RMS over the source's RMS, the decoded shifted by k
        return float(np.sqrt(np.mean((got[k:k + n] - src[:n]) ** 2) / np.mean(src[:n] ** 2)))
    err = min(rel_rms(k) for k in lags if k + n <= len(got))
    # PCM: one 16-bit step; ADPCM: 4 bits a sample (a square click is its worst case)
    tolerance = {0x0001: 1e-4, 0x0002: 0.25, 0x0011: 0.05, 0x0055: 0.1}[tag]
    assert err < tolerance, (name, err)


@pytest.mark.parametrize("name", ["WAVE_CHIME", "WAVE_WHOOSH", "WAVE_BOOM"])
def test_the_8bit_PCM_Waves_decode(db, name):
    pcm = decode_wave(db.get(getattr(S, name)))
    assert pcm.sample_rate == 8000 and np.abs(pcm.samples).max() > 0.5


def test_GetSound_0x00550680_never_chooses_the_last_of_the_synthetic_entries(db):
    w = World(db, seed=3)
    w.events = []
    o = w.create_object(1, S.SETUP_HUMANOID)
    for _ in range(60):
        execute_hook(w, o, SoundTableHook(0, S.SOUND_TYPE_EXPLODE), 0, 0)
    ev = [e for e in w.events if e["event"] == "sound"]
    waves = {e["wave"] for e in ev}
    assert waves == {S.WAVE_BOOM, S.WAVE_CLICK_ADPCM}          # never the MP3 (index 2)
    clicks = [e for e in ev if e["wave"] == S.WAVE_CLICK_ADPCM]
    assert any(e["played"] for e in clicks) and not all(e["played"] for e in clicks)
    assert all(e["played"] for e in ev if e["wave"] == S.WAVE_BOOM)   # probability 1.0
