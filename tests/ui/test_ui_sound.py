"""Sound in the viewer's session: the played sounds reach the SoundPlayer, playing queues
audio on the sink, scrubbing queues none, volume and mute are commands, the timeline shows
a sound lane (GL-free; the headless sink is silent)."""

import numpy as np
import pytest

from viewer import audio_out as AO
from viewer import synthetic as S
from viewer.ui import commands as c
from viewer.ui.session import open_session
from viewer.ui.timeline import transport_commands

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")


class Recorder(AO.SilentSink):
    def __init__(self):
        super().__init__()
        self.chunks = []

    def write(self, samples):
        self.chunks.append(np.array(samples))


@pytest.fixture(scope="module")
def session():
    s = open_session()
    s.playback.prepass()
    return s


def test_without_a_device_the_session_plays_into_a_silent_sink(session):
    assert isinstance(session.sound.sink, AO.SilentSink)
    assert session.sound.events(), "the default scenario plays sounds"


def test_playing_queues_audio_and_a_seek_queues_none(session):
    rec = session.sound.sink = Recorder()
    pb = session.playback
    session.apply(c.Seek(0.0))
    session.apply(c.Play())
    for _ in range(10):
        session.tick(1 / pb.fps)
    assert sum(len(x) for x in rec.chunks) == round(pb.frame / pb.fps * 48000)
    n = len(rec.chunks)
    session.apply(c.Seek(pb.duration / 2))   # scrub: pauses, plays nothing
    session.tick(1 / pb.fps)
    session.apply(c.Play())
    session.tick(0.0)
    assert len(rec.chunks) == n
    session.apply(c.Pause())


def test_volume_and_mute_are_commands_and_the_timeline_shows_the_sound_lane(session):
    view = session.timeline_view()
    assert view.sounds and all(s.end > s.start for s in view.sounds)
    cmds = transport_commands(view=view, volume=0.25, muted=True)
    assert cmds == [c.SetVolume(0.25), c.SetMute(True)]
    for cmd in cmds:
        session.apply(cmd)
    view = session.timeline_view()
    assert (view.volume, view.muted) == (0.25, True)
    session.apply(c.SetVolume(float("nan")))
    assert session.sound.volume == 0.25
    session.apply(c.SetMute(False))


def test_an_undecodable_Wave_is_raised_once_from_tick_for_the_Errors_panel():
    from viewer.errors import DatError
    s = open_session()
    s.sound.record(10**6, [{"event": "sound", "t": 0.0, "start": 0.0, "played": True,
                        "wave": 0x0A0000FE, "gain": 1.0, "pan": 0, "voice": 0}])
    s.apply(c.Play())
    with pytest.raises(DatError, match="0x0A0000FE"):
        s.tick(0.1)
    s.tick(0.1)      # said once; the viewer keeps running


def test_AlignReferenceAudio_finds_a_shifted_recordings_offset_by_its_sound(tmp_path):
    from viewer.compare.align import AUDIO_BLOCK
    from viewer.media import FrameWriter
    from viewer.ui.controller import Controller
    s = open_session()
    pb = s.playback
    s.playback.prepass()
    track = s.sound_track(0.0, pb.duration)
    lead = 0.3137
    rec = tmp_path / "rec.mp4"
    n_lead = round(lead * 48000)
    with FrameWriter(rec, fps=pb.fps) as w:
        for _ in range(int(pb.duration * pb.fps) + 10):
            w.write(np.zeros((16, 16, 3), np.uint8))
        w.set_audio(np.concatenate([np.zeros((n_lead, 2), np.float32), track]), 48000)
    ctl = Controller(session=s)
    assert ctl.apply(c.LoadReference(str(rec), None))
    assert ctl.apply(c.AlignReferenceAudio())
    assert abs(ctl.view.compare.track.offset - lead) <= AUDIO_BLOCK / 48000
    silent = tmp_path / "silent.mp4"
    with FrameWriter(silent, fps=pb.fps) as w:
        w.write(np.zeros((16, 16, 3), np.uint8))
    assert ctl.apply(c.LoadReference(str(silent), None))
    assert ctl.apply(c.AlignReferenceAudio()) is False        # said in the Errors panel
    assert "no sound" in ctl.errors.entries[-1].line()
