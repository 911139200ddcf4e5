"""CMotionTable::GetObjectSequence and the MotionTableManager (CMTable.c,
CMTableManager.c)."""

from __future__ import annotations

import pytest
from anim_builders import NON_COMBAT, READY, WALK_FORWARD, DictDB, anim, key, md

from viewer.dat.records.motion_table import MotionTable
from viewer.sim.animation.motion_table import CMotionTable, MotionState, MotionTableManager
from viewer.sim.animation.sequence import ANIM_DONE, CSequence

HAND_COMBAT = 0x8000003C
RUN = 0x44000007
SIT = 0x41000013           # a substate only allowed from the style default (bitfield 2)
RECALL = 0x10000153
WAVE = 0x13000087
JUMP_MOD = 0x2500003B      # a modifier
IDLE, WALK, R2W, W2R, RECALL_A, WAVE_A, SIT_A, FIGHT, N2F, R2RUN = range(0x03000101,
                                                                       0x0300010B)


def table(**over):
    cycles = {
        key(NON_COMBAT, READY): md((IDLE, 0, -1, 30.0)),
        key(NON_COMBAT, WALK_FORWARD): md((WALK, 0, -1, 30.0), velocity=(0.0, 3.0, 0.0)),
        key(NON_COMBAT, RUN): md((WALK, 0, -1, 30.0), velocity=(0.0, 4.0, 0.0), bitfield=1),
        key(NON_COMBAT, SIT): md((SIT_A, 0, -1, 30.0), bitfield=2),
        key(HAND_COMBAT, READY): md((FIGHT, 0, -1, 30.0)),
    }
    links = {
        key(NON_COMBAT, READY): {WALK_FORWARD: md((R2W, 0, -1, 30.0)),
                                 RECALL: md((RECALL_A, 0, -1, 10.0)),
                                 HAND_COMBAT: md((N2F, 0, -1, 30.0)),
                                 RUN: md((R2RUN, 0, -1, 30.0))},
        key(NON_COMBAT, WALK_FORWARD): {READY: md((W2R, 0, -1, 30.0))},
        (NON_COMBAT << 16) & 0xFFFFFFFF: {WAVE: md((WAVE_A, 0, -1, 30.0))},
    }
    modifiers = {key(NON_COMBAT, JUMP_MOD): md(velocity=(0.0, 0.0, 5.0))}
    cycles.update(over.get("cycles", {}))
    rec = MotionTable(0x09000100, NON_COMBAT,
                      ((NON_COMBAT, READY), (HAND_COMBAT, READY)),
                      tuple(cycles.items()), tuple(modifiers.items()),
                      tuple((k, tuple(v.items())) for k, v in links.items()))
    return rec


def anims():
    return DictDB(*(anim(d, 2, 5) for d in (IDLE, WALK, R2W, W2R, RECALL_A, WAVE_A, SIT_A,
                                            FIGHT, N2F, R2RUN)))


def fresh():
    seq = CSequence(anims().get)
    mgr = MotionTableManager(CMotionTable(table()))
    mgr.initialize_state(seq)
    return mgr, seq


def ids(seq):
    return [n.anim_id for n in seq.anim_list]


def test_SetDefaultState_0x005230A0_default_style_and_cycle():
    mgr, seq = fresh()
    st = mgr.state
    assert (st.style, st.substate, st.substate_mod) == (NON_COMBAT, READY, 1.0)
    assert ids(seq) == [IDLE] and seq.first_cyclic is seq.anim_list[0]
    assert mgr.pending_animations == [[READY, 0]]


def test_substate_change_plays_link_then_cycle_and_sets_velocity():
    mgr, seq = fresh()
    assert mgr.do_object_motion(WALK_FORWARD, seq)
    # curr_anim was the idle cycle itself: remove_cyclic_anims drops it, the link starts
    assert ids(seq) == [R2W, WALK]
    assert seq.curr_anim.anim_id == R2W and seq.frame_number == 0.0
    assert seq.first_cyclic.anim_id == WALK
    assert seq.velocity == (0.0, 3.0, 0.0)
    assert (mgr.state.substate, mgr.state.substate_mod) == (WALK_FORWARD, 1.0)
    assert mgr.pending_animations[-1] == [WALK_FORWARD, 1]


def test_same_substate_same_sign_respeeds_cycle_in_place():
    mgr, seq = fresh()
    mgr.do_object_motion(WALK_FORWARD, seq)
    before = ids(seq)
    assert mgr.do_object_motion(WALK_FORWARD, seq, 2.0)
    assert ids(seq) == before
    assert seq.first_cyclic.framerate == pytest.approx(60.0)
    assert seq.velocity == pytest.approx((0.0, 6.0, 0.0))
    assert mgr.state.substate_mod == 2.0


def test_add_motion_scales_framerate_by_speed_and_negative_plays_backwards():
    mgr, seq = fresh()
    mgr.do_object_motion(WALK_FORWARD, seq, -0.5)
    walk = seq.first_cyclic
    assert walk.framerate == pytest.approx(-15.0)
    assert walk.get_starting_frame() > walk.get_ending_frame()


def test_get_link_0x00522710_falls_back_to_style_wide_outer_key():
    t = CMotionTable(table())
    assert t.get_link(NON_COMBAT, WALK_FORWARD, 1.0, WAVE, 1.0) is not None
    assert t.get_link(NON_COMBAT, WALK_FORWARD, 1.0, RECALL, 1.0) is None


def test_get_link_negative_speed_looks_up_reverse_direction():
    t = CMotionTable(table())
    # speed < 0: Links[(style, to)][from]  -> Links[(NC, Ready)][WalkForward] = R2W
    link = t.get_link(NON_COMBAT, WALK_FORWARD, 1.0, READY, -1.0)
    assert link.anims[0].anim_id == R2W


def test_action_plays_link_once_then_returns_to_cycle_and_retires_on_AnimationDone():
    mgr, seq = fresh()
    assert mgr.do_object_motion(RECALL, seq)
    assert ids(seq) == [RECALL_A, IDLE]
    assert mgr.state.actions == [(RECALL, 1.0)]
    assert mgr.pending_animations[-1] == [RECALL, 1]
    mgr.animation_done(True)     # the idle link node finishes: counter 1 >= 0 and 1
    assert mgr.state.actions == []
    assert (RECALL, True) in mgr.completed


def test_action_without_direct_link_routes_through_style_default():
    mgr, seq = fresh()
    mgr.do_object_motion(WALK_FORWARD, seq)
    assert mgr.do_object_motion(RECALL, seq)
    # walk -> ready link, ready -> recall, (no ready -> walk link here: R2W is Ready->Walk)
    assert ids(seq)[-4:] == [W2R, RECALL_A, R2W, WALK]
    assert mgr.state.substate == WALK_FORWARD


def test_modifier_combines_velocity_without_animation_nodes():
    mgr, seq = fresh()
    n = len(seq.anim_list)
    assert mgr.do_object_motion(JUMP_MOD, seq)
    assert len(seq.anim_list) == n
    assert seq.velocity == (0.0, 0.0, 5.0)
    assert mgr.state.modifiers == [(JUMP_MOD, 1.0)]
    assert mgr.stop_object_motion(JUMP_MOD, seq)
    assert seq.velocity == (0.0, 0.0, 0.0) and mgr.state.modifiers == []


def test_cycle_with_bitfield_1_clears_modifiers_and_refuses_new_ones():
    mgr, seq = fresh()
    mgr.do_object_motion(JUMP_MOD, seq)
    mgr.do_object_motion(RUN, seq)
    assert mgr.state.modifiers == []
    assert not mgr.do_object_motion(JUMP_MOD, seq)


def test_modifiers_are_reapplied_after_a_cycle_change_re_modify():
    mgr, seq = fresh()
    mgr.do_object_motion(JUMP_MOD, seq)
    mgr.do_object_motion(WALK_FORWARD, seq)
    assert seq.velocity == pytest.approx((0.0, 3.0, 5.0))
    assert mgr.state.modifiers == [(JUMP_MOD, 1.0)]


def test_is_allowed_0x005226C0_bitfield_2_only_from_style_default():
    mgr, seq = fresh()
    assert mgr.do_object_motion(SIT, seq)        # from Ready (the default): allowed
    mgr2, seq2 = fresh()
    mgr2.do_object_motion(WALK_FORWARD, seq2)
    assert not mgr2.do_object_motion(SIT, seq2)  # from WalkForward: refused
    assert mgr2.state.substate == WALK_FORWARD


def test_style_change_links_to_new_styles_default_cycle():
    mgr, seq = fresh()
    assert mgr.do_object_motion(HAND_COMBAT, seq)
    assert ids(seq)[-2:] == [N2F, FIGHT]
    assert (mgr.state.style, mgr.state.substate) == (HAND_COMBAT, READY)
    assert mgr.do_object_motion(HAND_COMBAT, seq)   # same style: success, no change
    assert ids(seq)[-2:] == [N2F, FIGHT]


def test_unknown_motion_fails_and_leaves_sequence_alone():
    mgr, seq = fresh()
    assert not mgr.do_object_motion(0x41000099, seq)
    assert not mgr.do_object_motion(0x10000099, seq)
    assert ids(seq) == [IDLE]


def test_GetObjectSequence_fails_without_style_or_substate():
    t = CMotionTable(table())
    ok, _ = t.get_object_sequence(WALK_FORWARD, MotionState(), CSequence(anims().get), 1.0)
    assert not ok


def test_remove_redundant_links_0x0051BF20_truncates_superseded_links():
    mgr, seq = fresh()
    mgr.do_object_motion(WALK_FORWARD, seq)   # [R2W, WALK]
    mgr.do_object_motion(READY, seq)          # + W2R, IDLE
    mgr.do_object_motion(WALK_FORWARD, seq)   # a second walk: the walk->ready link and
    counts = [n for _, n in mgr.pending_animations]
    assert counts[-2:] == [0, 0]              # the ready entry are superseded
    assert W2R not in ids(seq)


def test_sequence_reports_AnimationDone_to_manager_through_staged_sentinel():
    mgr, seq = fresh()
    mgr.do_object_motion(RECALL, seq)
    seen = []
    for _ in range(30):
        seq.update(0.1, None)
        for h, _, _ in seq.drain_hooks():
            if h is ANIM_DONE:
                seen.append(True)
                mgr.animation_done(True)
    assert seen and mgr.state.actions == []
    assert ids(seq) == [IDLE]


def test_CheckForCompletedMotions_0x0051BE00_retires_zero_anim_motions_at_once():
    mgr, seq = fresh()
    mgr.do_object_motion(JUMP_MOD, seq)            # a modifier adds no animation
    mgr.check_for_completed_motions()
    assert [m for m, _ in mgr.completed] == [READY, JUMP_MOD]
    assert mgr.pending_animations == []


def test_StopObjectCompletely_0x00523ED0_drops_modifiers_and_returns_to_default():
    mgr, seq = fresh()
    mgr.do_object_motion(WALK_FORWARD, seq)
    mgr.do_object_motion(JUMP_MOD, seq)
    mgr.stop_completely(seq)
    assert mgr.state.modifiers == []
    assert mgr.state.substate == READY
    assert seq.first_cyclic.anim_id == IDLE
    assert seq.velocity == (0.0, 0.0, 0.0)


def test_StopSequenceMotion_0x00522FC0_current_substate_goes_to_style_default():
    mgr, seq = fresh()
    mgr.do_object_motion(WALK_FORWARD, seq)
    assert mgr.stop_object_motion(WALK_FORWARD, seq)
    assert mgr.state.substate == READY
    assert ids(seq)[-2:] == [W2R, IDLE]
    assert not mgr.stop_object_motion(WALK_FORWARD, seq)   # no longer current


def test_negative_speed_substate_uses_reverse_link_played_backwards():
    """Walking backwards (speed < 0): the signs differ, so the link comes from
    get_link(style, Ready, 1, WalkForward, -1), which looks up Links[(style, to)][from]: the
    Walk->Ready link, played backwards into the reversed walk cycle."""
    mgr, seq = fresh()
    mgr.do_object_motion(WALK_FORWARD, seq, -1.0)
    assert ids(seq) == [W2R, WALK]
    assert seq.anim_list[0].framerate == pytest.approx(-30.0)
    assert seq.first_cyclic.framerate == pytest.approx(-30.0)
