"""Synthetic library (issue 4): the animation edge cases (hook directions, the reverse link)
through the runtime's CSequence and the humanoid's motion controller."""

from __future__ import annotations

import pytest

from viewer import synthetic as S
from viewer.dat.database import AssetDatabase
from viewer.dat.records import AnimationHookDir as Dir
from viewer.sim.animation.sequence import ANIM_DONE, AnimData, CSequence
from viewer.sim.scenario import Scenario, ScenarioRunner

pytestmark = pytest.mark.skipif(not S.SYNTHETIC_DAT.exists(), reason="no synthetic DAT")


@pytest.fixture(scope="module")
def db():
    with AssetDatabase([str(S.SYNTHETIC_DAT)]) as d:
        yield d


def _played(db, framerate: float, seconds: float):
    seq = CSequence(db.get)
    seq.append_animation(AnimData(S.ANIM_HOOK_DIRECTIONS, 0, -1, framerate))
    seq.update(seconds, None)
    return [(type(h).__name__, int(h.direction), getattr(h, "emitter_id", None))
            for h, _anim, _i in seq.drain_hooks() if h is not ANIM_DONE]


def test_execute_hooks_0x00524830_ANIM_HOOK_DIRECTIONS_forward(db):
    """Forward play fires Both and Forward hooks of each frame left, in file order; the
    Unknown (-2) hook on frame 5 never fires."""
    hooks = _played(db, 30.0, 6.5 / 30.0)     # leaves frames 0..5
    assert hooks == [("NoOpHook", Dir.Both, None),
                     ("SoundTableHook", Dir.Forward, None),
                     ("CreateParticleHook", Dir.Both, 3),
                     ("CreateParticleHook", Dir.Forward, 4)]


def test_execute_hooks_0x00524830_ANIM_HOOK_DIRECTIONS_backward(db):
    """Backward play (framerate < 0) fires Both and Backward hooks, frames high to low, each
    frame's hooks still in file order; Unknown (-2) never fires."""
    hooks = _played(db, -30.0, 6.5 / 30.0)
    assert hooks == [("CreateParticleHook", Dir.Both, 3),
                     ("CreateParticleHook", Dir.Backward, 5),
                     ("SoundTableHook", Dir.Backward, None),
                     ("NoOpHook", Dir.Both, None)]


def test_ANIM_HUMANOID_READY_TO_WALK_is_the_link_both_ways(db):
    """The motion table links Ready -> WalkForward with it at +12 fps and WalkForward ->
    Ready with it at -12 fps (the reverse link plays it backwards)."""
    mt = db.get(S.MTABLE_HUMANOID)
    links = {}
    for key, targets in mt.links:
        for motion, md in targets:
            for a in md.anims:
                links[(key & 0xFFFF, motion)] = (a.anim_id, a.framerate)
    # key = (style << 16) | (motion & 0xFFFFFF) in u32 (CMotionTable::UnPack 0x005238C0)
    ready, walk = S.MOTION_READY & 0xFFFF, S.MOTION_WALK_FORWARD & 0xFFFF
    assert links[(ready, S.MOTION_WALK_FORWARD)] == (S.ANIM_HUMANOID_READY_TO_WALK, 12.0)
    assert links[(walk, S.MOTION_READY)] == (S.ANIM_HUMANOID_READY_TO_WALK, -12.0)
    assert db.get(S.ANIM_HUMANOID_READY_TO_WALK).num_frames == 4


def test_get_starting_frame_0x00525C80_reverse_link_plays_from_the_last_frame(db):
    seq = CSequence(db.get)
    seq.append_animation(AnimData(S.ANIM_HUMANOID_READY_TO_WALK, 0, -1, -12.0))
    seq.append_animation(AnimData(S.ANIM_HUMANOID_IDLE, 0, -1, 10.0))
    assert seq.curr_anim.anim_id == S.ANIM_HUMANOID_READY_TO_WALK
    frames = [seq.get_curr_frame_number()]
    for _ in range(3):
        seq.update(1.0 / 12.0, None)
        frames.append(seq.get_curr_frame_number())
    assert frames == [3, 2, 1, 0]
    seq.update(1.0 / 12.0, None)
    assert seq.curr_anim.anim_id == S.ANIM_HUMANOID_IDLE


def test_humanoid_walk_then_ready_plays_the_link_backwards(db):
    sc = Scenario.from_json({"fps": 30, "seconds": 2.0, "objects": [
        {"id": 1, "setup": f"0x{S.SETUP_HUMANOID:08X}"}], "events": [
        {"t": 0.0, "object": 1, "motion": f"0x{S.MOTION_WALK_FORWARD:08X}"},
        {"t": 1.0, "object": 1, "motion": f"0x{S.MOTION_READY:08X}"}]})
    r = ScenarioRunner(sc, db)
    r.world.events = []
    r.run(1.0)
    seen = []
    for _ in range(12):
        r.step_frame()
        seq = r.world.objects[1].motion.sequence
        if seq.curr_anim.anim_id == S.ANIM_HUMANOID_READY_TO_WALK:
            seen.append((seq.curr_anim.framerate, seq.frame_number))
    assert seen, "the WalkForward -> Ready link never played"
    assert all(fr < 0 for fr, _ in seen)
    assert [f for _, f in seen] == sorted((f for _, f in seen), reverse=True)
