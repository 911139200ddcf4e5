"""CSequence / AnimSequenceNode (CSequence.c, CSeqPrim.c)."""

from __future__ import annotations

import math

import pytest
from anim_builders import DictDB, anim, sound
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.dat.records.common import AnimationHookDir
from viewer.dat.records.common import Frame as RFrame
from viewer.sim.animation.sequence import ANIM_DONE, AnimData, AnimSequenceNode, CSequence
from viewer.sim.frame import EPS, IDENTITY

A = 0x03000010
B = 0x03000011

BOTH, FWD, BACK = AnimationHookDir.Both, AnimationHookDir.Forward, AnimationHookDir.Backward


def hooks_each_frame(n):
    """Frame k carries three hooks: Both (wave 100+k), Forward (200+k), Backward (300+k)."""
    return {k: [sound(100 + k, BOTH), sound(200 + k, FWD), sound(300 + k, BACK)]
            for k in range(n)}


def seq_with(*records):
    db = DictDB(*records)
    return CSequence(db.get)


def waves(staged):
    return [h.wave_id for h, _, _ in staged if h is not ANIM_DONE]


def test_AnimSequenceNode_set_animation_id_0x00525D60_clamps_frames():
    a = anim(A, 1, 5)
    n = AnimSequenceNode(a, A, 0, -1, 30.0)
    assert (n.low_frame, n.high_frame) == (0, 4)
    n = AnimSequenceNode(a, A, 9, 12, 30.0)        # low >= n and high >= n
    assert (n.low_frame, n.high_frame) == (4, 4)
    n = AnimSequenceNode(a, A, 3, 1, 30.0)         # low > high -> high = low
    assert (n.low_frame, n.high_frame) == (3, 3)
    n = AnimSequenceNode(a, A, -2, 2, 30.0)        # negative low is not clamped
    assert n.low_frame == -2


def test_starting_and_ending_frame_0x00525C80_follow_framerate_sign():
    a = anim(A, 1, 5)
    fwd = AnimSequenceNode(a, A, 1, 3, 10.0)
    assert fwd.get_starting_frame() == 1.0
    assert fwd.get_ending_frame() == pytest.approx(4.0 - EPS)
    back = AnimSequenceNode(a, A, 1, 3, -10.0)
    assert back.get_starting_frame() == pytest.approx(4.0 - EPS)
    assert back.get_ending_frame() == 1.0


def test_multiply_framerate_0x00525BE0_negative_swaps_low_high():
    n = AnimSequenceNode(anim(A, 1, 5), A, 1, 3, 10.0)
    n.multiply_framerate(-2.0)
    assert (n.low_frame, n.high_frame, n.framerate) == (3, 1, -20.0)


def test_append_animation_0x00525510_drops_node_without_animation():
    s = seq_with(anim(A, 1, 5))
    s.append_animation(AnimData(0, 0, -1, 30.0))
    assert not s.has_anims() and s.curr_anim is None
    s.append_animation(AnimData(A, 0, -1, 30.0))
    s.append_animation(AnimData(A, 1, 2, 15.0))
    assert len(s.anim_list) == 2
    assert s.curr_anim is s.anim_list[0]          # first append sets curr_anim
    assert s.first_cyclic is s.anim_list[1]       # every append moves first_cyclic


def test_update_internal_forward_fires_hooks_of_frames_left_Both_and_Forward():
    s = seq_with(anim(A, 1, 6, hooks=hooks_each_frame(6)))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.update(0.25, None)                          # frame 0 -> 2.5: leaves frames 0 and 1
    assert s.get_curr_frame_number() == 2
    assert waves(s.drain_hooks()) == [100, 200, 101, 201]
    s.update(0.05, None)                          # 2.5 -> 3.0: leaves frame 2
    assert waves(s.drain_hooks()) == [102, 202]


def test_update_internal_no_boundary_crossed_fires_nothing():
    s = seq_with(anim(A, 1, 6, hooks=hooks_each_frame(6)))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.update(0.05, None)                          # 0 -> 0.5
    assert s.drain_hooks() == []


def test_update_internal_backward_fires_Both_and_Backward_in_reverse_order():
    s = seq_with(anim(A, 1, 6, hooks=hooks_each_frame(6)))
    s.append_animation(AnimData(A, 0, -1, -10.0))
    assert s.frame_number == pytest.approx(6.0 - EPS)  # starts at high + 1 - EPS
    s.update(0.25, None)                          # 5.9998 -> 3.4998: leaves 5 and 4
    assert s.get_curr_frame_number() == 3
    assert waves(s.drain_hooks()) == [105, 305, 104, 304]


def test_forward_clamp_to_high_never_processes_frame_high():
    """Crossing past the last frame clamps to ``high`` (not high + 1), so frame ``high``'s
    hooks never fire in forward play; the cycle loops to first_cyclic."""
    s = seq_with(anim(A, 1, 4, hooks=hooks_each_frame(4)))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    fired = []
    for _ in range(12):                           # 1.2 s = three passes of 4 frames
        s.update(0.1, None)
        fired += waves(s.drain_hooks())
    assert 103 not in fired and 203 not in fired
    assert fired.count(100) == 3 and fired.count(102) == 3


def test_backward_clamp_to_low_never_processes_frame_low():
    s = seq_with(anim(A, 1, 4, hooks=hooks_each_frame(4)))
    s.append_animation(AnimData(A, 0, -1, -10.0))
    fired = []
    for _ in range(12):
        s.update(0.1, None)
        fired += waves(s.drain_hooks())
    assert 100 not in fired and 300 not in fired
    assert 303 in fired and 301 in fired


def test_hook_index_is_position_in_animation_hook_order():
    s = seq_with(anim(A, 1, 6, hooks=hooks_each_frame(6)))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.update(0.25, None)
    staged = s.drain_hooks()
    assert [(did, idx) for _, did, idx in staged] == [(A, 0), (A, 1), (A, 3), (A, 4)]


def test_link_to_cycle_transition_plays_link_once_then_loops_cycle():
    link = anim(A, 1, 3, hooks={k: [sound(10 + k)] for k in range(3)})
    cycle = anim(B, 1, 4, hooks={k: [sound(20 + k)] for k in range(4)})
    s = seq_with(link, cycle)
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.append_animation(AnimData(B, 0, -1, 10.0))
    s.update(0.35, None)   # link 0..2 (0.3 s) -> leftover 0.05 s in the cycle
    staged = s.drain_hooks()
    assert waves(staged) == [10, 11]
    assert staged[-1][0] is ANIM_DONE            # a non-cyclic node finished
    assert s.curr_anim.anim_id == B
    assert s.frame_number == pytest.approx(0.5)
    assert [n.anim_id for n in s.anim_list] == [B]  # apricot dropped the finished link
    fired = []
    for _ in range(8):
        s.update(0.1, None)
        fired += s.drain_hooks()
    assert all(h is not ANIM_DONE for h, _, _ in fired)  # the cycle never reports done
    assert s.curr_anim.anim_id == B


def test_AnimDone_staged_again_when_cycle_wraps_before_apricot_0x00525B80():
    """update_internal stages AnimationDone whenever a node ends while the list head is not
    first_cyclic; apricot only runs after update_internal, so a link that finishes and a
    cycle that wraps in the same update report AnimationDone twice."""
    s = seq_with(anim(A, 1, 2), anim(B, 1, 2))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.append_animation(AnimData(B, 0, -1, 10.0))
    staged = s.update(0.4, None) or s.drain_hooks()   # link 0.2 s + full cycle 0.2 s
    assert [h for h, _, _ in staged] == [ANIM_DONE, ANIM_DONE]
    s2 = seq_with(anim(A, 1, 2), anim(B, 1, 2))
    s2.append_animation(AnimData(A, 0, -1, 10.0))
    s2.append_animation(AnimData(B, 0, -1, 10.0))
    s2.update(0.2, None)
    s2.update(0.2, None)
    assert [h for h, _, _ in s2.drain_hooks()] == [ANIM_DONE]


def test_root_motion_accumulates_pos_frames_with_entry_frame_counted_twice():
    """Per 4-frame cycle at 10 fps: frames 0, 1, 2 are left (3 is the clamp frame) and
    re-entering frame 0 combines its pos frame again (advance_to_next_animation)."""
    pos = [RFrame((0.0, 0.1 * (k + 1), 0.0)) for k in range(4)]
    s = seq_with(anim(A, 1, 4, pos=pos))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    total = 0.0
    for _ in range(4):
        total += s.update(0.1, IDENTITY).origin[1]
    assert total == pytest.approx(0.1 + 0.2 + 0.3 + 0.1)
    for _ in range(4):
        total += s.update(0.1, IDENTITY).origin[1]
    assert total == pytest.approx(2 * 0.7)


def test_root_motion_zero_when_no_frame_crossed():
    pos = [RFrame((0.0, 1.0, 0.0))] * 4
    s = seq_with(anim(A, 1, 4, pos=pos))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    assert s.update(0.05, IDENTITY).origin == (0.0, 0.0, 0.0)


def test_apply_physics_0x00524AB0_velocity_per_crossing_of_one_over_framerate():
    s = seq_with(anim(A, 1, 8))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.set_velocity((0.0, 2.0, 0.0))
    out = s.update(0.3, IDENTITY)          # three crossings of 0.1 s
    assert out.origin[1] == pytest.approx(0.6)


def test_apply_physics_omega_turns_about_local_axis():
    s = seq_with(anim(A, 1, 8))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.set_omega((0.0, 0.0, math.pi))      # pi rad/s about local Z
    out = s.update(0.1, IDENTITY)         # one crossing of 0.1 s -> pi/10
    angle = 2.0 * math.atan2(out.orientation[3], out.orientation[0])
    assert angle == pytest.approx(math.pi / 10)


def test_update_without_nodes_applies_sequence_velocity_over_quantum():
    s = CSequence()
    s.set_velocity((1.0, 0.0, 0.0))
    assert s.update(0.5, IDENTITY).origin[0] == pytest.approx(0.5)


def test_framerate_zero_applies_velocity_over_whole_quantum():
    s = seq_with(anim(A, 1, 4))
    s.append_animation(AnimData(A, 0, -1, 0.0))
    s.set_velocity((0.0, 0.0, 1.0))
    out = s.update(0.25, IDENTITY)
    assert out.origin[2] == pytest.approx(0.25)
    assert s.frame_number == 0.0


def test_remove_cyclic_anims_0x00524E40_moves_curr_to_predecessor_end():
    s = seq_with(anim(A, 1, 4), anim(B, 1, 4))
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.append_animation(AnimData(B, 0, -1, 10.0))
    s.update(0.45, None)                  # now in B (cyclic)
    assert s.curr_anim.anim_id == B
    s.remove_cyclic_anims()
    assert s.anim_list == [] and s.curr_anim is None and s.frame_number == 0.0
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.append_animation(AnimData(B, 0, -1, 10.0))
    s.remove_cyclic_anims()               # curr is A (a link): untouched
    assert [n.anim_id for n in s.anim_list] == [A] and s.first_cyclic.anim_id == A


def test_get_curr_animframe_uses_floor_and_placement_without_nodes():
    a = anim(A, 2, 4)
    s = seq_with(a)
    placement = object()
    s.set_placement_frame(placement, 0x65)
    assert s.get_curr_animframe() is placement
    s.append_animation(AnimData(A, 0, -1, 10.0))
    s.update(0.19, None)
    assert s.get_curr_animframe() is a.part_frames[1]


# -- properties ---------------------------------------------------------------------------


def _run(steps, fr):
    pos = [RFrame((0.0, 0.125 * (k + 1), 0.0)) for k in range(5)]
    link = anim(A, 1, 3, hooks={k: [sound(10 + k)] for k in range(3)})
    cyc = anim(B, 1, 5, pos=pos, hooks={k: [sound(20 + k)] for k in range(5)})
    s = seq_with(link, cyc)
    s.append_animation(AnimData(A, 0, -1, fr))
    s.append_animation(AnimData(B, 0, -1, fr))
    y = 0.0
    fired = []
    for dt in steps:
        y += s.update(dt, IDENTITY).origin[1]
        fired += [h.wave_id for h, _, _ in s.drain_hooks() if h is not ANIM_DONE]
    return s, y, fired


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=12), st.sampled_from([8.0, -8.0, 16.0]))
def test_update_split_quantum_gives_same_frames_hooks_and_root_motion(ticks, fr):
    """Advancing by a+b in one update or in two gives the same frame, the same hooks in the
    same order and the same root motion. (AnimationDone may differ: see the apricot test.)"""
    steps = [t / 64.0 for t in ticks]
    one, y1, f1 = _run([sum(steps)], fr)
    many, y2, f2 = _run(steps, fr)
    assert one.frame_number == pytest.approx(many.frame_number, abs=1e-9)
    assert one.curr_anim.anim_id == many.curr_anim.anim_id
    assert f1 == f2
    assert y1 == pytest.approx(y2)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 90), min_size=1, max_size=15), st.sampled_from([7.5, -12.0]))
def test_frame_number_stays_inside_current_node(ticks, fr):
    s, _, _ = _run([t / 100.0 for t in ticks], fr)
    n = s.curr_anim
    lo, hi = min(n.low_frame, n.high_frame), max(n.low_frame, n.high_frame)
    assert lo <= s.frame_number < hi + 1


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(-3, 8), st.integers(-2, 8),
                          st.floats(-60.0, 60.0, allow_nan=False)), min_size=1, max_size=4),
       st.lists(st.floats(0.0, 2.0, allow_nan=False), min_size=1, max_size=8))
def test_update_terminates_and_never_raises_on_odd_frame_ranges(nodes, dts):
    """Empty animations, negative / inverted ranges, zero and tiny framerates, long quanta:
    the sequencer always returns (bounded leftover loop) and poses stay readable."""
    recs = [anim(0x03000100 + i, 1, n, hooks={k: [sound(k)] for k in range(n)},
                 pos=[RFrame((0.0, 0.01, 0.0))] * n)
            for i, (n, _, _, _) in enumerate(nodes)]
    s = seq_with(*recs)
    for i, (_, lo, hi, fr) in enumerate(nodes):
        s.append_animation(AnimData(0x03000100 + i, lo, hi, fr))
    for dt in dts:
        out = s.update(dt, IDENTITY)
        assert out is not None and all(math.isfinite(c) for c in out.origin)
        s.get_curr_animframe()
        s.drain_hooks()
