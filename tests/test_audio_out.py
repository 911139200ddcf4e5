"""Sound in the viewer (viewer.audio_out): the silent sink when there is no device, and the
SoundPlayer model: plays forward in sync, scrubbing plays nothing, volume and mute."""

import sys

import numpy as np
import pytest

from viewer import audio_out as AO
from viewer.dat.records.sound import Wave
from viewer.sim.mixer import SoundMixer
from viewer.synthetic import audio as A

RATE = 8000
FPS = 30
W = 0x0A000001


class DB:
    def __init__(self):
        tone = A.tone(RATE, 0.3, 440.0)
        self.r = {W: Wave(W, *A.encode(tone, RATE, 1, bits=16))}

    def get(self, did):
        return self.r[did]


class Recorder(AO.SilentSink):
    def __init__(self):
        super().__init__()
        self.chunks, self.flushes = [], 0

    def write(self, samples):
        self.chunks.append(np.array(samples))
        super().write(samples)

    def flush(self):
        self.flushes += 1

    def audio(self):
        return np.concatenate(self.chunks) if self.chunks else np.zeros((0, 2), np.float32)


def sound(frame, voice):
    t = frame / FPS
    return {"event": "sound", "t": t, "start": t, "played": True, "wave": W, "gain": 1.0,
            "pan": 0, "voice": voice}


def player(**kw):
    p = AO.SoundPlayer(DB(), Recorder(), sample_rate=RATE, **kw)
    for f, v in ((2, 0), (9, 1), (20, 2)):
        p.record(f, [sound(f, v), {"event": "tick"}])
    return p


def full_track(p, frames):
    return SoundMixer(DB(), RATE).mix(p.events(), 0.0, frames / FPS)


def test_open_sink_without_a_device_or_library_is_a_silent_sink(monkeypatch):
    sink = AO.open_sink()                 # headless here: silent; with a device: a device
    assert sink.name in ("silent", "miniaudio")
    sink.close()
    monkeypatch.setitem(sys.modules, "miniaudio", None)     # the library missing
    sink = AO.open_sink()
    assert isinstance(sink, AO.SilentSink) and "no audio device" in sink.reason
    sink.write(np.zeros((10, 2), np.float32))
    assert AO.open_sink(enabled=False).reason == "audio off"


def test_playing_forward_queues_the_track_in_sync():
    p = player()
    for f in range(0, 31):
        p.update(f, FPS, playing=True)
    want = full_track(p, 30)
    got = p.sink.audio()
    assert got.shape == want.shape and np.array_equal(got, want)


def test_scrubbing_plays_nothing_and_resuming_is_in_sync():
    p = player()
    p.update(0, FPS, playing=True)
    p.update(3, FPS, playing=True)
    n = len(p.sink.audio())
    for f in (12, 5, 17, 11):             # dragging the timeline (paused)
        p.update(f, FPS, playing=False)
    assert len(p.sink.audio()) == n and p.sink.flushes >= 4
    p.update(10, FPS, playing=True)       # seek while playing: a jump plays nothing
    for f in (11, 12, 13):
        p.update(f, FPS, playing=True)
    tail = p.sink.audio()[n:]
    want = full_track(p, 13)[round(10 / FPS * RATE):]
    assert np.array_equal(tail, want) and np.abs(tail).max() > 0.1   # frame 9's sound


def test_other_speeds_play_nothing():
    p = player()
    p.update(0, FPS, playing=True, speed=2.0)
    p.update(4, FPS, playing=True, speed=2.0)
    assert not p.sink.chunks


@pytest.mark.parametrize("volume,muted,scale", [(0.5, False, 0.5), (1.0, True, 0.0)])
def test_master_volume_and_mute(volume, muted, scale):
    p = player(volume=volume, muted=muted)
    for f in range(0, 12):
        p.update(f, FPS, playing=True)
    assert np.allclose(p.sink.audio(), full_track(p, 11) * scale)


def test_the_sound_lane_spans_and_an_undecodable_Wave_is_a_message_not_a_crash():
    p = player()
    spans = p.spans()
    assert [round(s.start * FPS) for s in spans] == [2, 9, 20]
    assert spans[0].end == pytest.approx(2 / FPS + 0.3)
    p.record(25, [dict(sound(25, 3), wave=0x0A0000FF)])
    p.update(24, FPS, playing=True)
    assert p.update(26, FPS, playing=True) == 0 and p.error is not None and p.spans() == []
