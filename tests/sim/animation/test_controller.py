"""MotionController: creation defaults, advance (root motion, hooks), part frames, and the
recall-like action of issue 6 (the retail recall chain of docs/cli.md section 9)."""

from __future__ import annotations

import math

import pytest
from anim_builders import (
    HUMANOID,
    IDLE,
    IDLE_TO_WALK,
    LIFESTONE_RECALL,
    PARTS,
    RECALL,
    RECALL_EMITTER,
    RECALL_FPS,
    TABLE,
    WALK,
    WALK_FORWARD,
    WALK_STEP,
    DictDB,
    anim,
    humanoid_records,
    part_frame,
    setup,
)

from viewer.dat.records.common import AnimationHookType
from viewer.dat.records.common import Frame as RFrame
from viewer.errors import DatError, ScenarioError
from viewer.sim.animation.controller import MotionController
from viewer.sim.frame import Frame
from viewer.sim.poses import compose

TICK = 1.0 / 30.0


def humanoid():
    db = humanoid_records()
    return MotionController(db[HUMANOID], db), db


def test_InitObjectEnd_0x0050FFE0_placement_Resting_pose_without_animation():
    s = setup(0x02000005, 2)
    mc = MotionController(s, DictDB(s))
    frames = mc.part_frames()
    assert [f.origin for f in frames] == [(0.0, 0.0, 0.5), (1.0, 0.0, 0.5)]
    offset, fired = mc.advance(TICK)
    assert offset == Frame() and fired == []


def test_SetPlacementFrame_0x005193D0_falls_back_to_Default_then_none():
    af0 = RFrame((9.0, 0.0, 0.0))
    from viewer.dat.records.animation import AnimationFrame
    s = setup(0x02000006, 1, placements=((0, AnimationFrame((af0,))),))
    assert MotionController(s, DictDB(s)).part_frames()[0].origin == (9.0, 0.0, 0.0)
    s2 = setup(0x02000007, 1, placements=((0x66, AnimationFrame((af0,))),))
    assert MotionController(s2, DictDB(s2)).part_frames() is None


def test_InitDefaults_0x00518980_default_animation_plays_at_30fps():
    a = anim(0x03000020, 2, 10)
    s = setup(0x02000008, 2, default_animation=a.id)
    mc = MotionController(s, DictDB(s, a))
    assert mc.current_animation == a.id and mc.sequence.curr_anim.framerate == 30.0
    mc.advance(0.1)                                  # 3 frames at 30 fps
    assert mc.part_frames()[1] == Frame(*_sim(part_frame(1, 3)))


def _sim(f):
    return (tuple(f.origin), tuple(f.orientation))


def test_motion_table_default_state_replaces_default_animation():
    db = humanoid_records()
    s = setup(HUMANOID, PARTS, motion_table=TABLE, default_animation=WALK)
    mc = MotionController(s, db)
    assert [n.anim_id for n in mc.sequence.anim_list] == [IDLE]
    assert mc.describe()["substate"] == "0x41000003"


def test_walk_root_motion_accumulates_and_scales_on_walkable():
    mc, _ = humanoid()
    assert mc.do_motion("WalkForward")
    assert [n.anim_id for n in mc.sequence.anim_list] == [IDLE_TO_WALK, WALK]
    y = 0.0
    for _ in range(30):                              # 1 s at 30 Hz
        y += mc.advance(TICK, scale=2.0)[0].origin[1]
    # the link (3 frames, 0.1 s) has no PosFrames; then 0.9 s of walk at 30 fps
    crossings = 27                                   # frames left in 0.9 s at 30 fps
    assert y == pytest.approx(2.0 * WALK_STEP * crossings, abs=2 * 2.0 * WALK_STEP)


def test_UpdatePositionInternal_root_origin_zeroed_off_walkable_rotation_kept():
    mc, _ = humanoid()
    mc.do_motion(WALK_FORWARD)
    mc.sequence.set_omega((0.0, 0.0, 1.0))
    total_y = 0.0
    for _ in range(10):
        off, _ = mc.advance(TICK, on_walkable=False)
        total_y += abs(off.origin[1])
        assert off.origin == (0.0, 0.0, 0.0)
    assert total_y == 0.0
    off, _ = mc.advance(TICK, on_walkable=False)
    assert abs(off.orientation[3]) > 0.0             # omega still turns the body


def test_do_motion_accepts_catalog_name_and_rejects_unknown_name():
    mc, _ = humanoid()
    with pytest.raises(ScenarioError):
        mc.do_motion("NotAMotion")
    assert not mc.do_motion(0x41000099)               # not in the table: refused


def test_missing_animation_raises_DatError_naming_the_did():
    s = setup(0x0200000C, 1, default_animation=0x03000099)
    with pytest.raises(DatError) as err:
        MotionController(s, DictDB(s))
    assert "0x03000099" in str(err.value)


def test_missing_ok_drops_absent_animation_node_like_DBObj_Get_null():
    s = setup(0x0200000D, 1, default_animation=0x03000099, motion_table=0x09000099)
    mc = MotionController(s, DictDB(s), missing_ok=True)
    assert mc.manager is None and not mc.sequence.has_anims()
    assert mc.part_frames() is not None             # the placement pose remains


def test_recall_creates_logical_emitter_19_on_root_at_frame_16_then_sounds():
    """LifestoneRecall (0x10000153) from NonCombat Ready resolves to the
    recall Animation at 9.96 fps; frame 16 creates emitter 0x3200078E, part -1, logical id
    19, zero offset; SoundTweaked at 16, 46, 76, 116. Hooks fire when frame 16 is left."""
    mc, _ = humanoid()
    assert mc.do_motion(0x10000153)
    assert mc.current_animation == RECALL
    assert mc.sequence.curr_anim.framerate == pytest.approx(RECALL_FPS)
    t = 0.0
    events = []
    for _ in range(int(14.0 / TICK)):         # 130 frames at 9.96 fps = 13.05 s
        _, fired = mc.advance(TICK)
        t += TICK
        events += [(t, h, did, idx) for h, did, idx in fired]
    creates = [e for e in events if e[1].hook_type == AnimationHookType.CreateParticle]
    assert len(creates) == 1
    t_create, hook, did, idx = creates[0]
    assert did == RECALL and idx == 0
    assert hook.emitter_info_id == RECALL_EMITTER and hook.emitter_id == 19
    assert hook.part_index == -1 and hook.offset.origin == (0.0, 0.0, 0.0)
    assert t_create == pytest.approx(math.ceil(17.0 / RECALL_FPS / TICK) * TICK, abs=1e-9)
    sounds = [e for e in events if e[1].hook_type == AnimationHookType.SoundTweaked]
    assert [e[3] for e in sounds] == [1, 2, 3, 4]      # frames 16, 46, 76, 116 in order
    assert sounds[0][0] == t_create                     # same frame, after the emitter
    # After the 130-frame action the body returns to its idle cycle.
    assert mc.current_animation == IDLE and mc.state.actions == []


def test_recall_emitter_on_root_reads_the_published_root_pose():
    """An emitter on part -1 is placed from the object's root frame each tick; a body
    that moves (here: pushed by the runtime) carries it along."""
    mc, _ = humanoid()
    mc.do_motion(LIFESTONE_RECALL)
    root = Frame((0.0, 0.0, 0.0))
    anchors = []
    for k in range(int(2.0 / TICK)):
        off, fired = mc.advance(TICK)
        root = root.combine(off).with_origin((0.1 * k, 0.0, 0.0))
        poses = compose(root, mc.part_frames(), PARTS)
        for h, _, _ in fired:
            if h.hook_type == AnimationHookType.CreateParticle:
                anchors.append(k)
        if anchors:
            assert poses.child_frame(-1, RFrame()).origin == root.origin
    assert anchors
