"""The viewer's Capture to MP4 carries the sound of the frames it writes (sample-exact)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from viewer import synthetic as S
from viewer.app import ViewerApp
from viewer.media import read_audio
from viewer.render.framebuffer import OffscreenTarget
from viewer.ui import commands as c
from viewer.ui.session import open_session

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")
SIZE = (96, 64)


def test_capture_mp4_sound_onset_lies_at_its_hook_time(gl_ctx, tmp_path):
    session = open_session()
    session.playback.prepass()
    app = ViewerApp(gl_ctx, display_size=SIZE, session=session)
    app.use_scene_renderer = False
    target = OffscreenTarget(gl_ctx, SIZE)
    try:
        first = session.sound.events()[0]
        pb = session.playback
        start = max(0.0, math.floor((first["t"] - 0.2) * pb.fps) / pb.fps)
        out = tmp_path / "cap.mp4"
        app.controller.apply(c.ExportCapture(str(out), start, start + 0.5))
        app.frame(1 / 60, display_size=SIZE, target=target.fbo)
        assert app.errors.entries == [] and out.exists()
        audio, rate = read_audio(out)
        loud = np.flatnonzero(np.abs(audio) > 0.01)
        assert len(loud) and abs(loud[0] / rate - (first["t"] - start)) <= 0.001
    finally:
        target.release()
        app.release()
