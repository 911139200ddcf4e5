"""Issue 26, class 4: Waves whose header lies. A Wave outside the documented bounds (a rate
outside DirectSound's 100..200000 Hz, more than 2 ** 24 frames, more than two channels) is
the one-line DatError naming its DID; a long Wave inside them is decoded at its own rate
and resampled only where the track hears it. Memory is measured in a child process
(tests/bounded.py)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from tests import hostile_media as H
from tests.bounded import GiB, MiB, run_bounded
from viewer import synthetic as S
from viewer.dat.records.sound import Wave
from viewer.dat.wave import WAVE_MAX_FRAMES, decode_wave
from viewer.errors import DatError
from viewer.sim.mixer import SoundMixer, resample, resample_span

#: the address space a child may map (RLIMIT_AS: GL's llvmpipe maps much it never touches)
#: and the resident peak it may reach: a small render peaks near 150 MiB; the 1 Hz Waves
#: took 2.3 to 7.5 GiB before
LIMIT = 3 * GiB
PEAK = 400 * MiB
SCENE = ["--scenario", str(S.DEFAULT_SCENARIO), "--seconds", "0.5", "--size", "32x32"]
DID = f"DID 0x{H.PLAYED_WAVE:08X}"


def _one_line(r, *needles) -> None:
    assert not r.timed_out and r.rc == 1 and r.maxrss < PEAK, r
    assert len(r.err_lines) == 1 and "Traceback" not in r.err, r
    for n in needles:
        assert n in r.err, r


def test_render_of_an_8bit_Wave_at_1_Hz_is_one_line_naming_it(tmp_path):
    dat = H.lying_wave_dat(tmp_path / "w.dat", "pcm8", 1)
    r = run_bounded(["render", dat, *SCENE, "--out", tmp_path / "v.mp4"], memory=LIMIT)
    _one_line(r, str(dat), DID, "1 Hz", "100..200000")
    assert list(tmp_path.iterdir()) == [dat]        # nothing half written


def test_compare_align_audio_with_a_Wave_at_1_Hz_is_one_line_naming_it(tmp_path):
    dat = H.lying_wave_dat(tmp_path / "w.dat", "mp3", 1)
    ref = H.silent_aac_video(tmp_path / "r.mp4", 1.0)
    r = run_bounded(["compare", dat, *SCENE, "--reference", ref, "--align", "audio"],
                    memory=LIMIT)
    _one_line(r, DID, "1 Hz")


def test_a_long_Wave_inside_the_bounds_is_resampled_only_where_heard(tmp_path):
    # 4 MiB of 8-bit PCM at 100 Hz (11.6 hours): resampled whole to 48 kHz, 7.5 GiB
    dat = H.lying_wave_dat(tmp_path / "w.dat", "pcm8", 100, size=1 << 22)
    r = run_bounded(["render", dat, *SCENE, "--out", tmp_path / "v.mp4"], memory=LIMIT)
    assert r.rc == 0 and not r.err_lines and r.maxrss < PEAK, r
    assert (tmp_path / "v.mp4").stat().st_size > 0


@pytest.mark.parametrize("form", ["pcm8", "pcm16", "adpcm", "ima", "mp3"])
@pytest.mark.parametrize("rate", [0, 1, 99, 200_001, 0xFFFFFFFF])
def test_every_form_outside_the_rate_bound_is_refused_before_decoding(tmp_path, form, rate):
    dat = H.lying_wave_dat(tmp_path / "w.dat", form, rate)
    from viewer.dat.database import AssetDatabase
    with AssetDatabase([str(dat)]) as db, pytest.raises(DatError) as e:
        SoundMixer(db).mix([_event(0.0)], 0.0, 0.1)
    assert f"{rate} Hz" in str(e.value) and DID in str(e.value)


def _event(t, wave=H.PLAYED_WAVE):
    return {"event": "sound", "t": t, "start": t, "played": True, "wave": wave,
            "gain": 1.0, "pan": 0, "voice": 0}


def test_a_Wave_over_the_frame_bound_or_with_three_channels_is_refused():
    over = Wave(1, struct.pack("<HHIIHHH", 1, 1, 8000, 8000, 1, 8, 0),
                bytes(WAVE_MAX_FRAMES + 1))
    with pytest.raises(DatError, match=f"at most {WAVE_MAX_FRAMES}"):
        decode_wave(over)
    three = Wave(1, struct.pack("<HHIIHHH", 1, 3, 8000, 24000, 3, 8, 0), bytes(30))
    with pytest.raises(DatError, match="3 channels"):
        decode_wave(three)


@pytest.mark.parametrize("rate", [100, 8000, 11025, 22050, 44100, 48000, 96000, 200000])
def test_a_span_resampled_alone_equals_the_same_span_of_the_whole(rate):
    rng = np.random.default_rng(rate)
    mono = rng.uniform(-1, 1, 1000).astype(np.float32)
    whole = resample(mono, rate, 48000)
    for j0, j1 in [(0, len(whole)), (0, 1), (len(whole) - 1, len(whole)),
                   *sorted(tuple(sorted(rng.integers(0, len(whole), 2))) for _ in range(20))]:
        np.testing.assert_array_equal(resample_span(mono, rate, 48000, j0, j1), whole[j0:j1])


def test_the_mixer_keeps_decoded_Waves_under_its_byte_bound():
    class DB:
        def get(self, did):
            return Wave(did, struct.pack("<HHIIHHH", 1, 1, 48000, 48000, 1, 8, 0),
                        bytes([200]) * 48000)

    m = SoundMixer(DB())
    m.CACHE_BYTES = 3 * 48000 * 4
    for did in range(10):
        m.mix([_event(0.0, did)], 0.0, 0.01)
        assert m._bytes <= m.CACHE_BYTES and len(m._pcm) <= 3


def test_the_viewer_sound_player_keeps_a_lying_Wave_as_its_error(tmp_path):
    from viewer.audio_out import SoundPlayer
    from viewer.dat.database import AssetDatabase
    dat = H.lying_wave_dat(tmp_path / "w.dat", "adpcm", 1)
    with AssetDatabase([str(dat)]) as db:
        p = SoundPlayer(db)
        p.record(1, [_event(1 / 30)])
        p.update(0, 30.0, playing=True)
        assert p.update(10, 30.0, playing=True) == 0
        assert isinstance(p.error, DatError) and DID in str(p.error)


def test_docs_bounds_md_gives_the_Wave_bounds_of_the_decoder():
    from viewer.dat import wave
    assert H.undocumented(f"| sample rate | {wave.WAVE_RATE_MIN}..{wave.WAVE_RATE_MAX} Hz |",
                          f"| channels | 1..{wave.WAVE_CHANNELS_MAX} |",
                          f"at most {wave.WAVE_MAX_FRAMES} sample frames",
                          f"up to {SoundMixer.CACHE_BYTES >> 20} MiB") == []


# --- a long track is mixed and written a block at a time --------------------------------------
def _many_events(rng, n, seconds):
    return [{"event": "sound", "t": float(t), "start": float(t), "played": True,
             "wave": int(rng.integers(1, 4)), "gain": float(rng.uniform(0.1, 1)),
             "pan": int(rng.integers(-15, 16)), "voice": int(rng.integers(0, 16))}
            for t in np.sort(rng.uniform(-0.5, seconds, n))]


class _ToneDB:
    """Waves 1..3: a tone at 8000, 22050 and 48000 Hz, a quarter to three quarters of a
    second long."""

    def get(self, did):
        rate = {1: 8000, 2: 22050, 3: 48000}[did]
        n = rate * (did + 1) // 4
        pcm = (np.sin(np.arange(n) * 0.05 * did) * 20000).astype("<i2").tobytes()
        return Wave(did, struct.pack("<HHIIHHH", 1, 1, rate, rate * 2, 2, 16, 0), pcm)


@pytest.mark.parametrize("block", [61, 997, 4800, 48 * 1024])
def test_the_track_in_blocks_is_the_whole_mix_bit_for_bit(block):
    rng = np.random.default_rng(block)
    events = _many_events(rng, 60, 3.0)
    m = SoundMixer(_ToneDB())
    whole = m.mix(events, 0.25, 2.5, volume=0.8)
    parts = list(m.blocks(events, 0.25, 2.5, block=block, volume=0.8))
    assert all(len(p) == block for p in parts[:-1]) and 0 < len(parts[-1]) <= block
    np.testing.assert_array_equal(np.concatenate(parts), whole)


def test_a_video_gets_the_same_sound_from_blocks_as_from_the_whole_track(tmp_path):
    from viewer.media import FrameWriter, read_audio
    events = _many_events(np.random.default_rng(1), 20, 2.0)
    m = SoundMixer(_ToneDB())
    got = []
    for name, track in [("whole.mp4", m.mix(events, 0.0, 2.0)),
                        ("blocks.mp4", m.blocks(events, 0.0, 2.0, block=5000))]:
        with FrameWriter(tmp_path / name, fps=10) as w:
            for _ in range(20):
                w.write(np.zeros((16, 16, 3), np.uint8))
            w.set_audio(track, 48000)
        got.append(read_audio(tmp_path / name)[0])
    assert len(got[0]) == 96000
    np.testing.assert_array_equal(got[0], got[1])


def test_a_ten_minute_track_is_written_without_holding_it(tmp_path):
    code = ("import sys, numpy as np\n"
            "from tests.contract.test_hostile_waves import _ToneDB, _many_events\n"
            "from viewer.media import FrameWriter\n"
            "from viewer.sim.mixer import SoundMixer\n"
            "events = _many_events(np.random.default_rng(2), 600, 600.0)\n"
            "with FrameWriter(sys.argv[1], fps=1) as w:\n"
            "    w.write(np.zeros((16, 16, 3), np.uint8))\n"
            "    w.set_audio(SoundMixer(_ToneDB()).blocks(events, 0.0, 600.0), 48000)\n")
    r = run_bounded([tmp_path / "long.mp4"], code=code, memory=LIMIT)
    assert r.rc == 0, r
    # whole: 220 MiB of float32 stereo and 110 MiB of 16-bit beside it
    assert r.maxrss < 200 * MiB, r
    assert (tmp_path / "long.mp4").stat().st_size > 100 * MiB
