"""The session on the real runtime (ScenarioRunner on a tiny synthetic library): the event
log and tracks, scrubbing equal to a straight run, edits as scenario events, save/load."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import ui_fixtures as F

from viewer.errors import ScenarioError
from viewer.sim.inspect import live_emitters, object_summaries, state_transitions
from viewer.sim.scenario import Scenario, ScenarioRunner
from viewer.ui import commands as c
from viewer.ui.session import Session, open_session


@pytest.fixture(scope="module")
def db():
    return F.database()


def make(db, **kw):
    return Session(db, Scenario.from_json(F.scenario_json(**kw)))


def straight_positions(db, frames, scenario=None):
    r = ScenarioRunner(scenario or Scenario.from_json(F.scenario_json()), db)
    for _ in range(frames + 1):
        r.step_frame()
    pool = r.world.pool
    live = pool.evaluate()
    return pool.position[live].copy()


def positions(session):
    pool = session.world.pool
    live = pool.evaluate()
    return pool.position[live].copy()


def test_load_records_event_log_and_tracks(db):
    s = make(db)
    assert s.playback.frame == 0 and s.playback.total_frames == 60
    types = [(m.t, m.type) for m in s.tracks.markers]
    assert [t for _, t in types] == ["CreateParticle", "CallPES", "StopParticle",
                                     "CreateParticle"]
    assert len(s.tracks.bars) == 2
    (w,) = s.tracks.pes_windows
    assert w.pes_id == F.SCRIPT_PES and 0.0 <= w.delay <= 0.25


def test_scrub_back_equals_straight_run(db):
    s = make(db)
    s.apply(c.Seek(1.5))
    s.apply(c.Seek(0.4))
    assert s.playback.frame == 12
    assert np.array_equal(positions(s), straight_positions(db, 12))
    s.apply(c.Step(-1))
    assert np.array_equal(positions(s), straight_positions(db, 11))


def test_jump_to_next_and_previous_hook(db):
    s = make(db)
    s.apply(c.JumpHook(+1))
    first = s.playback.time
    assert first > 0
    s.apply(c.JumpHook(+1))
    assert s.playback.time > first
    s.apply(c.JumpHook(-1))
    assert s.playback.time == pytest.approx(first)


def test_play_typed_becomes_an_event_at_the_current_time(db):
    s = make(db)
    s.apply(c.Seek(0.5))
    s.apply(c.PlayTyped(1, "Launch", 0.2))
    ev = s.scenario.events[-1]
    assert ev.kind == "play" and ev.t == pytest.approx(0.5) and ev.intensity == pytest.approx(0.2)
    assert s.playback.frame == 15
    resolves = [e for e in s.events() if e["event"] == "resolve"]
    assert resolves and resolves[0]["script"] == F.SCRIPT
    assert resolves[0]["t"] == pytest.approx(0.5)   # applied at this frame, not the next


def test_nan_intensity_event_is_saved_as_string(db, tmp_path):
    s = make(db)
    s.apply(c.PlayTyped(1, "Launch", math.nan))
    path = tmp_path / "s.json"
    s.apply(c.SaveScenario(str(path)))
    data = json.loads(path.read_text())
    assert data["events"][-1]["intensity"] == "nan"
    back = Scenario.load(path)
    assert math.isnan(back.events[-1].intensity)


def test_set_state_hidden_logs_transition_with_hidden_script(db):
    s = make(db)
    s.apply(c.Seek(0.2))
    s.apply(c.SetState(1, 0x00400C08 | 0x4000))
    s.apply(c.Seek(2.0))
    trans = state_transitions(s.events(), owner=1)
    hidden = [t for t in trans if t.hidden]
    assert hidden and ("Hidden", F.SCRIPT_HIDDEN) in hidden[0].scripts
    (summary,) = object_summaries(s.world)
    assert summary.hidden and summary.hidden_script == F.SCRIPT_HIDDEN
    assert summary.unhide_script == F.SCRIPT_UNHIDE


def test_edit_on_missing_object_is_a_scenario_error(db):
    s = make(db)
    with pytest.raises(ScenarioError):
        s.apply(c.PlayScript(9, F.SCRIPT))


def test_load_setup_replaces_scene(db):
    s = make(db)
    s.apply(c.LoadSetup(F.SETUP, F.TABLE))
    assert s.scenario.events == [] and [o.setup for o in s.scenario.objects] == [F.SETUP]
    assert s.playback.total_frames == 150
    s.apply(c.PlayScript(1, F.SCRIPT))
    assert any(e["event"] == "emitter" for e in s.events())


def test_load_missing_setup_keeps_previous_scene(db):
    s = make(db)
    with pytest.raises(ScenarioError):
        s.apply(c.LoadSetup(0x0200FFFF, None))
    assert s.scenario.objects[0].setup == F.SETUP and s.tracks.markers


def test_emitter_inspection_counts_and_particles(db):
    s = make(db)
    s.apply(c.Seek(0.6))
    (em,) = live_emitters(s.world, with_particles=True)
    assert em.info_did == F.EMITTER and em.state == "running" and em.logical_id == 1
    assert "degrade distance" in em.detail[0] and "drawn" in em.detail[0]
    assert em.alive == len(em.particles) > 0 and em.emitted >= em.alive
    assert all(0 <= p.age <= p.lifespan + 1e-9 for p in em.particles)
    s.apply(c.Seek(1.2))
    states = {e.info_did: e.state for e in live_emitters(s.world)}
    assert states[F.EMITTER] == "stopped"


def test_stats_and_bounds(db):
    s = make(db)
    s.apply(c.Seek(0.5))
    st = s.stats()
    assert st["frame"] == 15 and st["particles"] > 0 and st["emitters"] == 1
    assert st["updates"] > 0 and st["rng_draws"] > 0
    centre, radius = s.bounds_of("object", 1)
    assert len(centre) == 3 and radius > 0


def test_open_session_with_missing_dat_is_an_error(tmp_path):
    with pytest.raises(ScenarioError, match="not found"):
        open_session(str(tmp_path / "none.dat"))
