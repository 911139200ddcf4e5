"""The sound track of ``vfxviewer render`` to MP4: each played sound's onset lies within
1 ms of its hook time (decoded back from the file), and ``--no-audio`` writes none."""

from __future__ import annotations

import json

import av
import numpy as np
import pytest

from viewer import synthetic as S
from viewer.cli import main
from viewer.dat.database import AssetDatabase
from viewer.media import read_audio
from viewer.sim.mixer import SAMPLE_RATE
from viewer.sim.scenario import Scenario, ScenarioRunner

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")
FPS = 30


def _scenario(tmp_path, seed=5, start=0.2):
    sc = {"dat": [str(S.SYNTHETIC_DAT)], "seed": seed, "fps": FPS, "seconds": 1.2,
          "objects": [{"id": 1, "setup": f"0x{S.SETUP_HUMANOID:08X}", "position": [0, 0, 0]}],
          "events": [{"t": start, "object": 1, "play_script": f"0x{S.PES_SOUND:08X}"}]}
    path = tmp_path / "sound.scenario.json"
    path.write_text(json.dumps(sc))
    return path


def played_sounds(path) -> list[dict]:
    sc = Scenario.load(path)
    with AssetDatabase([str(S.SYNTHETIC_DAT)]) as db:
        runner = ScenarioRunner(sc, db)
        runner.world.events = []
        for _ in runner.frames():
            pass
        return [e for e in runner.world.events if e["event"] == "sound" and e["played"]]


def onsets(x: np.ndarray, rate: int, threshold: float = 0.01, quiet: float = 0.01):
    """Sample indices where |x| first exceeds ``threshold`` after ``quiet`` s below it."""
    loud = np.flatnonzero(np.abs(x) > threshold)
    if not len(loud):
        return []
    gaps = np.diff(loud) > quiet * rate
    return [int(loud[0])] + [int(i) for i in loud[1:][gaps]]


def test_rendered_mp4_sound_onsets_lie_within_1ms_of_their_hooks(tmp_path, gl_ctx):
    path = _scenario(tmp_path)
    out = tmp_path / "sound.mp4"
    assert main(["render", "--scenario", str(path), "--out", str(out), "--size", "32x18"]) == 0
    played = played_sounds(path)
    assert len(played) >= 2
    audio, rate = read_audio(out)
    assert rate == SAMPLE_RATE
    with av.open(str(out)) as c:
        a, v = c.streams.audio[0], c.streams.video[0]
        assert a.codec_context.name == "pcm_s16le"
        assert float(a.duration * a.time_base) == pytest.approx(
            float(v.duration * v.time_base), abs=1 / SAMPLE_RATE)
    found = onsets(audio, rate)
    assert len(found) == len(played)
    for k, e in zip(found, played):
        assert abs(k / rate - e["t"]) <= 0.001, (k / rate, e)


def test_render_no_audio_writes_no_sound_track(tmp_path, gl_ctx):
    out = tmp_path / "silent.mp4"
    assert main(["render", "--scenario", str(_scenario(tmp_path)), "--out", str(out),
                 "--size", "32x18", "--no-audio"]) == 0
    assert read_audio(out) is None
