"""Absent records in the viewer: each record a hook names that no open DAT holds is listed
in the Errors panel once (the runtime's ``missing`` event, whatever the re-simulations),
naming the record that names it; the playback goes on."""

from __future__ import annotations

import ui_fixtures as F

from viewer.dat.database import AssetDatabase
from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.hooks import CreateParticleHook, SoundHook
from viewer.sim.scenario import Scenario
from viewer.ui import commands as c
from viewer.ui.controller import Controller
from viewer.ui.session import Session

ABSENT_WAVE, ABSENT_INFO = 0x0A000271, 0x32000099


def _session():
    recs = F.records()
    recs[F.SCRIPT_BIG] = F.script(F.SCRIPT_BIG, (0.1, SoundHook(0, ABSENT_WAVE)),
                                  (0.2, CreateParticleHook(0, ABSENT_INFO, -1, RFrame(), 4)),
                                  (0.3, SoundHook(0, ABSENT_WAVE)))
    sc = F.scenario_json(seconds=2.0)   # SCRIPT_BIG queues after SCRIPT: at 1.0 s
    sc["events"].append({"t": 0.0, "object": 1, "play_script": f"0x{F.SCRIPT_BIG:08X}"})
    return Session(AssetDatabase.from_records(recs), Scenario.from_json(sc))


def test_each_absent_record_is_one_Errors_entry_naming_who_names_it():
    s = _session()
    ctl = Controller(session=s)
    ctl.apply(c.Seek(1.9))
    ctl.apply(c.Seek(0.0))                    # the same frames again: nothing new
    ctl.apply(c.Seek(1.9))
    lines = [e.line() for e in ctl.errors.entries]
    assert len(lines) == 2, lines
    wave = next(x for x in lines if "0x0A000271" in x)
    assert "Wave, named by 0x33000102, is in no open DAT" in wave
    assert any("0x32000099" in x and "ParticleEmitterInfo, named by 0x33000102" in x
               for x in lines)
    assert all(e.count == 1 for e in ctl.errors.entries)
    assert s.playback.frame == round(1.9 * s.playback.fps)   # the playback went on


def test_the_window_lists_them_once_while_it_plays(gl_ctx):
    """The viewer's frame drains what the runtime met while playing into its Errors."""
    s = _session()
    with F.headless_app(gl_ctx, s, (320, 240)) as (app, target):
        s.apply(c.Play())
        for _ in range(3):
            app.frame(1.0, target=target.fbo)     # 1 s a frame: past the script's hooks
        app.frame(1 / 30, target=target.fbo)
        missing = [e for e in app.errors.entries if "is in no open DAT" in e.message]
        assert len(missing) == 2 and all(e.count == 1 for e in missing)
        assert {e.context for e in missing} == {"playback"}
