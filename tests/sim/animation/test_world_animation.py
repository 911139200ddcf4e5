"""The animation layer inside the World: scenario motion events, animation hooks traced with
the Animation DID, part poses published per tick, emitters on the root following the body
(docs/retail-rules.md, Animation)."""

from __future__ import annotations

import pytest
from anim_builders import (
    HUMANOID,
    PARTS,
    RECALL,
    RECALL_EMITTER,
    TABLE,
    DictDB,
    humanoid_records,
    setup,
)

from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.common import Sphere
from viewer.dat.records.particle_emitter import ParticleEmitterInfo
from viewer.dat.records.setup import LocationType
from viewer.errors import DatError, ScenarioError
from viewer.sim.frame import Frame
from viewer.sim.scenario import Scenario, ScenarioRunner
from viewer.sim.state import TransientState


class RaisingDB(DictDB):
    def get(self, did):
        try:
            return self[did]
        except KeyError:
            raise DatError("no such DID", did=did) from None


def emitter_info(did, parent_local):
    # Still particles (type 1), one every 0.05 s, living 5 s; hw_gfxobj_id non-zero.
    return ParticleEmitterInfo(did, 0, 1, 1, 0x01000001, 0x01000001, 0.05, 50, 0, 0, 0.0, 5.0,
                               0.0, (0.0, 0.0, 0.0), 0.0, 0.0, (0.0, 0.0, 0.0), 1.0, 1.0,
                               (0.0, 0.0, 0.0), 1.0, 1.0, (0.0, 0.0, 0.0), 1.0, 1.0, 1.0, 1.0,
                               0.0, 0.0, 0.0, 0.0, parent_local)


def records(parent_local=True):
    db = humanoid_records()
    out = RaisingDB(*db.values())
    out[RECALL_EMITTER] = emitter_info(RECALL_EMITTER, parent_local)
    return out


def run(events, *, seconds=3.0, db=None, fps=30):
    db = db or records()
    sc = Scenario.from_json({"fps": fps, "seconds": seconds,
                             "objects": [{"id": 1, "setup": f"0x{HUMANOID:08X}"}],
                             "events": events})
    runner = ScenarioRunner(sc, db)
    runner.world.events = []
    runner.run()
    return runner


def test_world_attaches_motion_controller_with_default_state():
    r = run([], seconds=0.1)
    obj = r.world.objects[1]
    assert obj.motion is not None
    assert obj.motion.describe()["substate"] == "0x41000003"


def test_scenario_motion_by_name_plays_recall_and_traces_hooks_with_animation_did():
    r = run([{"t": 0.0, "object": 1, "motion": "LifestoneRecall"}])
    ev = r.world.events
    hooks = [e for e in ev if e["event"] == "hook" and e["source"] == RECALL]
    assert [h["type"] for h in hooks][:2] == ["CreateParticle", "SoundTweaked"]
    created = [e for e in ev if e["event"] == "emitter" and e["action"] == "created"]
    assert len(created) == 1
    assert created[0]["logical_id"] == 19 and created[0]["part"] == -1
    assert created[0]["info"] == RECALL_EMITTER
    # frame 16 is left at 17 / 9.96 s (plus the tick that crosses it)
    assert hooks[0]["t"] == pytest.approx(17 / 9.96, abs=1 / 30 + 1e-9)
    # the hook is traced before the emitter it creates
    assert ev.index(hooks[0]) < ev.index(created[0])


def test_scenario_motion_full_command_and_retail_catalog_name():
    r = run([{"t": 0.0, "object": 1, "motion": "0x10000153"}], seconds=0.2)
    assert r.world.objects[1].motion.current_animation == RECALL
    # In the 2013 catalog "LifestoneRecall" is 0x10000150, which this table does not have.
    r = run([{"t": 0.0, "object": 1, "motion": "LifestoneRecall", "catalog": "retail-2013"}],
            seconds=0.2)
    applied = [e for e in r.world.events if e["event"] == "motion"]
    assert applied[0]["command"] == 0x10000150
    assert r.world.objects[1].motion.current_animation != RECALL


@pytest.mark.parametrize("event", [{"motion": "NoSuchMotion"},
                                   {"motion": "Ready", "catalog": "ace-2099"}])
def test_scenario_bad_motion_raises_ScenarioError(event):
    with pytest.raises(ScenarioError):
        Scenario.from_json({"objects": [{"id": 1, "setup": "0x02000001"}],
                            "events": [dict(t=0.0, object=1, **event)]})


def test_part_poses_published_from_animation_frames_each_tick():
    r = run([], seconds=0.5)
    obj = r.world.objects[1]
    local = obj.motion.part_frames()
    assert len(obj.parts) == PARTS
    for p, f in zip(obj.parts, local):
        w = obj.frame.combine(f)
        assert p.frame.origin == pytest.approx(w.origin)


def moving_run(parent_local):
    db = records(parent_local=parent_local)
    s = db[HUMANOID]
    moving = setup(HUMANOID, PARTS, motion_table=TABLE)
    moving = type(s)(**{**{f: getattr(moving, f) for f in s.__dataclass_fields__},
                        "spheres": (Sphere((0.0, 0.0, 0.5), 0.5),)})
    db[HUMANOID] = moving
    sc = Scenario.from_json({"fps": 30, "seconds": 3.0,
                             "objects": [{"id": 1, "setup": f"0x{HUMANOID:08X}"}],
                             "events": [{"t": 0.0, "object": 1, "motion": "LifestoneRecall"}]})
    runner = ScenarioRunner(sc, db)
    runner.world.events = []
    runner.step_frame()
    obj = runner.world.objects[1]
    obj.transient_state |= TransientState.OnWalkable | TransientState.Contact
    runner.world.set_velocity(obj, (1.0, 0.0, 0.0))
    runner.run()
    pm = obj.particle_manager
    assert pm is not None
    (_, em), = pm.emitters()
    pool = runner.world.pool
    pool.evaluate()
    xs = [float(pool.position[i][0]) for _, i in em.live_slots()]
    return obj, em, xs


def test_recall_emitter_on_root_follows_the_moving_body_parent_local():
    """The body moves; the parent-local recall emitter (part -1) reads the published root
    pose every tick, so its particles ride along with the body."""
    obj, em, xs = moving_run(True)
    assert obj.frame.origin[0] > 0.5
    assert em.frame.origin == pytest.approx(obj.frame.origin)
    assert len(xs) > 3
    assert xs == pytest.approx([obj.frame.origin[0]] * len(xs))


def test_recall_emitter_world_particles_keep_their_birth_frame():
    obj, em, xs = moving_run(False)
    assert em.frame.origin == pytest.approx(obj.frame.origin)
    assert len(xs) > 3
    assert max(xs) - min(xs) > 0.2          # born along the path, left behind
    assert min(xs) < obj.frame.origin[0] - 0.2


def held_run(location):
    """A parent humanoid whose Setup holds RightHand (1) on part 2 with an offset, and a
    one-part child attached there."""
    db = records()
    base = db[HUMANOID]
    db[HUMANOID] = type(base)(**{**{f: getattr(base, f) for f in base.__dataclass_fields__},
                                 "holding_locations": (
                                     (1, LocationType(2, RFrame((0.0, 0.3, 0.0)))),)})
    child = setup(0x02000077, 1)
    db[child.id] = child
    sc = Scenario.from_json({"fps": 30, "seconds": 0.6, "objects": [
        {"id": 1, "setup": f"0x{HUMANOID:08X}", "heading_deg": 90},
        {"id": 2, "setup": "0x02000077", "parent": 1, "parent_location": location}]})
    runner = ScenarioRunner(sc, db)
    runner.run()
    return runner.world


@pytest.mark.parametrize("location", ["RightHand", 1, "1"])
def test_child_at_holding_location_follows_parent_part_pose_UpdateChild_0x00512D50(location):
    w = held_run(location)
    parent, child = w.objects[1], w.objects[2]
    hand = parent.parts[2].frame
    expected = hand.combine(Frame((0.0, 0.3, 0.0)))
    assert child.frame.origin == pytest.approx(expected.origin)
    assert child.frame.orientation == pytest.approx(expected.orientation)
    # the child's own parts are posed from its root (its placement frame)
    assert child.parts[0].frame.origin == pytest.approx(
        child.frame.combine(Frame((0.0, 0.0, 0.5))).origin)


def test_unknown_holding_location_is_a_ScenarioError():
    with pytest.raises(ScenarioError):
        held_run("Shield")


def test_emitter_on_a_part_reads_that_parts_published_pose_each_tick():
    """CreateParticle on part 1 of an animation whose part 1 sweeps along +X: the emitter's
    parent frame is the part's published world frame after every tick."""
    from anim_builders import anim, md

    from viewer.dat.records.common import AnimationHookDir
    from viewer.dat.records.hooks import CreateParticleHook
    from viewer.dat.records.motion_table import MotionTable

    def frames(i, k):
        return RFrame((0.2 * k if i == 1 else 0.0, 0.0, 1.0))
    sweep = anim(0x03000050, 2, 20, frames=frames, hooks={1: [CreateParticleHook(
        AnimationHookDir.Both, RECALL_EMITTER, 1, RFrame(), 7)]})
    table = MotionTable(0x09000050, 0x8000003D, ((0x8000003D, 0x41000003),),
                        ((0x003D0003, md((sweep.id, 0, -1, 10.0))),), (), ())
    s = setup(0x02000050, 2, motion_table=table.id)
    db = RaisingDB(sweep, table, s)
    db[RECALL_EMITTER] = emitter_info(RECALL_EMITTER, True)
    db[0x01000001] = records()[0x01000001]   # the particles' GfxObj
    sc = Scenario.from_json({"fps": 30, "seconds": 1.0,
                             "objects": [{"id": 1, "setup": "0x02000050"}]})
    runner = ScenarioRunner(sc, db)
    seen = []
    while runner.time < 1.0:
        runner.step_frame()
        obj = runner.world.objects[1]
        pm = obj.particle_manager
        if pm is not None and pm.emitters():
            (_, em), = pm.emitters()
            assert em.frame.origin == pytest.approx(obj.parts[1].frame.origin)
            seen.append(em.frame.origin[0])
    assert len(seen) > 5 and seen[-1] > seen[0] + 0.5    # it moved with the part
