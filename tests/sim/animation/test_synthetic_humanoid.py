"""Acceptance (issue 6): the synthetic humanoid's recall-like action through the committed
synthetic DAT. LifestoneRecall (0x10000153, ACE numbering) from NonCombat Ready resolves
through the humanoid MotionTable to the recall Animation at 9.96 fps; leaving frame 16 runs
CreateParticle (logical emitter 19 on the root, part -1) and its particles follow the body."""

from __future__ import annotations

import math

import pytest

from viewer import synthetic as S
from viewer.dat.database import AssetDatabase
from viewer.sim.scenario import Scenario, ScenarioRunner

TICK = 1.0 / 30.0


@pytest.fixture(scope="module")
def db():
    with AssetDatabase([str(S.SYNTHETIC_DAT)]) as d:
        yield d


def runner(db, events, seconds, **obj):
    o = {"id": 1, "setup": f"0x{S.SETUP_HUMANOID:08X}", **obj}
    sc = Scenario.from_json({"fps": 30, "seconds": seconds, "objects": [o], "events": events})
    r = ScenarioRunner(sc, db)
    r.world.events = []
    return r


def test_humanoid_default_state_idle_cycle(db):
    r = runner(db, [], 0.2)
    r.run()
    m = r.world.objects[1].motion
    assert m.describe()["style"] == "0x8000003D" and m.describe()["substate"] == "0x41000003"
    assert m.current_animation == S.ANIM_HUMANOID_IDLE
    assert len(r.world.objects[1].parts) == 11


def test_humanoid_recall_creates_emitter_19_on_root_at_frame_16(db):
    r = runner(db, [{"t": 0.0, "object": 1, "motion": "LifestoneRecall"}], 4.5)
    r.run()
    ev = r.world.events
    hooks = [e for e in ev if e["event"] == "hook" and e["source"] == S.ANIM_HUMANOID_RECALL]
    assert [h["type"] for h in hooks] == ["CreateParticle", "SoundTweaked", "SoundTweaked",
                                          "SoundTweaked", "SoundTable"]
    created = [e for e in ev if e["event"] == "emitter" and e["action"] == "created"]
    assert len(created) == 1
    c = created[0]
    assert (c["logical_id"], c["part"], c["info"]) == (S.RECALL_EMITTER_LOGICAL_ID, -1,
                                                       S.EMIT_RECALL)
    # Frame 16 is left at (16 + 1) / 9.96 s; the hook runs on the 30 Hz tick that crosses it.
    crossing = (S.RECALL_EMITTER_FRAME + 1) / S.RECALL_FRAMERATE
    assert c["t"] == pytest.approx(math.ceil(crossing / TICK) * TICK, abs=TICK + 1e-9)
    assert c["t"] >= crossing - 1e-9


def test_humanoid_recall_particles_follow_the_moving_body(db):
    # No gravity (0x00400808 = default state without GRAVITY), sliding along +X at 2 m/s.
    r = runner(db, [{"t": 0.0, "object": 1, "motion": "0x10000153"}], 3.5,
               state="0x00400808", velocity=[2.0, 0.0, 0.0])
    r.run()
    obj = r.world.objects[1]
    created = next(e for e in r.world.events
                   if e["event"] == "emitter" and e["action"] == "created")
    assert obj.frame.origin[0] > 2.0 * (3.5 - created["t"]) * 0.5   # it moved since then
    (_, em), = obj.particle_manager.emitters()
    assert em.frame.origin == pytest.approx(obj.frame.origin)      # reads the root pose
    pool = r.world.pool
    pool.evaluate()
    xs = [float(pool.position[i][0]) for _, i in em.live_slots()]
    assert len(xs) > 5
    # parent-local swarm: every live particle stays around the body's current position
    assert all(abs(x - obj.frame.origin[0]) < 1.5 for x in xs)
