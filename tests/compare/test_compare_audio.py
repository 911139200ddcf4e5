"""``compare --align audio``: the recording's offset found by cross-correlating its sound
with the scenario's rendered sound track (a recording made from a shifted render)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from viewer import synthetic as S
from viewer.cli import main
from viewer.compare.align import AUDIO_BLOCK, estimate_audio_offset
from viewer.media import FrameWriter, read_audio, read_frames
from viewer.sim.mixer import SAMPLE_RATE

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")
FPS = 20
LEAD = 0.4137          # the recording starts this long before the scenario (seconds)


def _scenario(tmp_path):
    sc = {"dat": [str(S.SYNTHETIC_DAT)], "seed": 5, "fps": FPS, "seconds": 1.2,
          "objects": [{"id": 1, "setup": f"0x{S.SETUP_HUMANOID:08X}", "position": [0, 0, 0]}],
          "events": [{"t": 0.2, "object": 1, "play_script": f"0x{S.PES_SOUND:08X}"}]}
    path = tmp_path / "sound.scenario.json"
    path.write_text(json.dumps(sc))
    return path


def test_estimate_audio_offset_finds_a_shift_within_one_block():
    rng = np.random.default_rng(1)
    x = np.zeros(SAMPLE_RATE, np.float32)
    for at in (0.1, 0.35, 0.7):          # three bursts
        k = int(at * SAMPLE_RATE)
        x[k:k + 2400] = rng.uniform(-0.5, 0.5, 2400)
    lead = int(0.2731 * SAMPLE_RATE)
    rec = np.concatenate([np.zeros(lead, np.float32), x]) + rng.normal(0, 0.01, lead + len(x))
    off, score = estimate_audio_offset(x, rec, SAMPLE_RATE)
    assert abs(off - 0.2731) <= AUDIO_BLOCK / SAMPLE_RATE and score > 0.8
    late, _ = estimate_audio_offset(rec, x, SAMPLE_RATE)      # recording starting later
    assert abs(late + 0.2731) <= AUDIO_BLOCK / SAMPLE_RATE


def test_compare_align_audio_recovers_the_recordings_offset(tmp_path, gl_ctx):
    scen = _scenario(tmp_path)
    render = tmp_path / "render.mp4"
    assert main(["render", "--scenario", str(scen), "--out", str(render), "--size",
                 "32x18"]) == 0
    frames = [f.image for f in read_frames(render, fps=FPS)]
    audio, rate = read_audio(render)
    lead = int(round(LEAD * rate))
    # the recording: silence and the first frame for LEAD seconds, then the render
    rec = tmp_path / "recording.mp4"
    with FrameWriter(rec, fps=FPS) as w:
        for img in [frames[0]] * int(round(LEAD * FPS)) + frames:
            w.write(img)
        mono = np.concatenate([np.zeros(lead, np.float32), audio])
        w.set_audio(np.stack([mono, mono], axis=1), rate)
    out_json = tmp_path / "figures.json"
    assert main(["compare", "--scenario", str(scen), "--reference", str(rec), "--align",
                 "audio", "--size", "32x18", "--json", str(out_json)]) == 0
    offset = json.loads(out_json.read_text())["offset"]
    assert abs(offset - LEAD) <= AUDIO_BLOCK / SAMPLE_RATE


def test_compare_align_audio_without_sound_in_the_recording_is_one_line_exit_1(
        tmp_path, gl_ctx, capsys):
    scen = _scenario(tmp_path)
    rec = tmp_path / "silent.mp4"
    assert main(["render", "--scenario", str(scen), "--out", str(rec), "--size", "32x18",
                 "--no-audio"]) == 0
    assert main(["compare", "--scenario", str(scen), "--reference", str(rec), "--align",
                 "audio", "--size", "32x18"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no sound" in err[0] and "silent.mp4" in err[0]


@pytest.mark.parametrize("read", ["read_audio", "audio_block_rms"])
def test_a_recording_whose_sound_does_not_decode_is_one_line_naming_it(tmp_path, read):
    from viewer import media
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF\x10\x00\x00\x00WAVEfmt " + bytes(40))
    args = (bad,) if read == "read_audio" else (bad, SAMPLE_RATE, AUDIO_BLOCK)
    with pytest.raises(media.MediaError, match="cannot read the audio") as err:
        getattr(media, read)(*args)
    assert err.value.file == str(bad)
