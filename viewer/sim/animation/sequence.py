"""CSequence and AnimSequenceNode: retail's animation sequencer.

A sequence is a list of nodes (links followed by the looping cycle), ``first_cyclic`` (the
node the list loops back to), ``curr_anim`` and a fractional ``frame_number``. ``update``
advances it by a quantum, accumulates root motion (PosFrames and the sequence velocity /
omega) into an offset Frame, and stages the hooks of every frame it leaves. Poses are read
from ``floor(frame_number)``; there is no interpolation between keyframes.

Frames here are viewer.sim.frame.Frame values; the record frames (PosFrames, part frames)
are read through their ``origin`` / ``orientation`` fields.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from viewer.dat.records.common import AnimationHookDir, AnimationHookType
from viewer.errors import ScenarioError
from viewer.sim.frame import EPS, Frame

# A staged hook: (hook record, Animation DID, index of the hook in the Animation's hook
# order: frames in order, each frame's hooks in file order). The AnimationDone sentinel
# is staged as (ANIM_DONE, 0, -1).
StagedHook = tuple[object, int, int]


class _AnimDone:
    """CSequence's static ``anim_done_hook`` (an AnimDoneHook the runtime owns, never read
    from a record): staged when a non-cyclic node finishes."""

    __slots__ = ()
    hook_type = AnimationHookType.AnimationDone
    direction = AnimationHookDir.Both

    def __repr__(self) -> str:
        return "ANIM_DONE"


ANIM_DONE = _AnimDone()

#: How many animation nodes one update may run through before the viewer calls the speed
#: absurd (a real cycle at 30 fps and speed 4 crosses a handful per 0.2 s quantum).
MAX_NODE_PASSES = 10_000


def hook_offsets(anim) -> tuple[int, ...]:
    """Index of the first hook of each frame in the Animation's flattened hook order."""
    cached = _OFFSETS.get(id(anim))
    if cached is not None and cached[0] is anim:
        return cached[1]
    offs = []
    n = 0
    for pf in anim.part_frames:
        offs.append(n)
        n += len(pf.built_hooks)
    result = tuple(offs)
    _OFFSETS[id(anim)] = (anim, result)
    return result


_OFFSETS: dict[int, tuple[object, tuple[int, ...]]] = {}


class AnimData:
    """AnimData (in MotionData): anim_id, low_frame, high_frame, framerate.

    Defaults low 0, high -1, framerate 30 (AnimData::AnimData 0x00525CE0).
    """

    __slots__ = ("anim_id", "framerate", "high_frame", "low_frame")

    def __init__(self, anim_id: int, low_frame: int = 0, high_frame: int = -1,
                 framerate: float = 30.0) -> None:
        self.anim_id = anim_id
        self.low_frame = low_frame
        self.high_frame = high_frame
        self.framerate = framerate


class AnimSequenceNode:
    """One animation run: the Animation record, its frame range and framerate."""

    __slots__ = ("anim", "anim_id", "framerate", "high_frame", "low_frame")

    def __init__(self, anim, anim_id: int, low_frame: int, high_frame: int,
                 framerate: float) -> None:
        self.anim = anim
        self.anim_id = anim_id
        self.framerate = framerate
        self.low_frame = low_frame
        self.high_frame = high_frame
        # AnimSequenceNode::set_animation_id 0x00525D60: clamp to the animation's frames;
        # a negative low frame is not clamped.
        if anim is not None:
            n = anim.num_frames
            if self.high_frame < 0:
                self.high_frame = n - 1
            if self.low_frame >= n:
                self.low_frame = n - 1
            if self.high_frame >= n:
                self.high_frame = n - 1
            self.high_frame = max(self.high_frame, self.low_frame)

    def __repr__(self) -> str:
        return (f"AnimSequenceNode(0x{self.anim_id:08X}, {self.low_frame}..{self.high_frame}, "
                f"{self.framerate:g} fps)")

    def has_anim(self) -> bool:
        return self.anim is not None

    # AnimSequenceNode::multiply_framerate 0x00525BE0
    def multiply_framerate(self, multiplier: float) -> None:
        if multiplier < 0.0:
            self.low_frame, self.high_frame = self.high_frame, self.low_frame
        self.framerate *= multiplier

    # AnimSequenceNode::get_starting_frame 0x00525C80
    def get_starting_frame(self) -> float:
        if self.framerate < 0.0:
            return float(self.high_frame + 1) - EPS
        return float(self.low_frame)

    # AnimSequenceNode::get_ending_frame 0x00525CB0
    def get_ending_frame(self) -> float:
        if self.framerate < 0.0:
            return float(self.low_frame)
        return float(self.high_frame + 1) - EPS

    # AnimSequenceNode::get_pos_frame 0x00525C10 (None when out of range or absent)
    def get_pos_frame(self, fn: int):
        a = self.anim
        if a is None or a.pos_frames is None or fn < 0 or fn >= a.num_frames:
            return None
        return a.pos_frames[fn]

    # AnimSequenceNode::get_part_frame 0x00525C40
    def get_part_frame(self, fn: int):
        a = self.anim
        if a is None or fn < 0 or fn >= a.num_frames:
            return None
        return a.part_frames[fn]


class CSequence:
    """The per-object animation sequence (CSequence, canim/CSequence.c)."""

    def __init__(self, anim_loader: Callable[[int], object] | None = None) -> None:
        self.anim_list: list[AnimSequenceNode] = []
        self.first_cyclic: AnimSequenceNode | None = None
        self.curr_anim: AnimSequenceNode | None = None
        self.frame_number = 0.0
        self.velocity = (0.0, 0.0, 0.0)
        self.omega = (0.0, 0.0, 0.0)
        self.placement_frame = None      # an AnimationFrame record, or None
        self.placement_frame_id = 0
        self.anim_loader = anim_loader
        # CPhysicsObj::add_anim_hook: hooks staged by update, drained by the owner.
        self.staged_hooks: list[StagedHook] = []

    # -- list helpers (retail's DLList) ---------------------------------------------------
    def _next(self, node: AnimSequenceNode) -> AnimSequenceNode | None:
        i = self._index(node) + 1
        return self.anim_list[i] if i < len(self.anim_list) else None

    def _prev(self, node: AnimSequenceNode) -> AnimSequenceNode | None:
        i = self._index(node) - 1
        return self.anim_list[i] if i >= 0 else None

    def _index(self, node: AnimSequenceNode) -> int:
        for i, n in enumerate(self.anim_list):
            if n is node:
                return i
        raise ValueError("node not in sequence")

    def _remove(self, node: AnimSequenceNode) -> None:
        del self.anim_list[self._index(node)]

    # -- state ----------------------------------------------------------------------------
    def has_anims(self) -> bool:
        return bool(self.anim_list)

    def set_placement_frame(self, placement_frame, placement_id: int) -> None:
        self.placement_frame = placement_frame
        self.placement_frame_id = placement_id

    def get_curr_animframe(self):
        """CSequence::get_curr_animframe 0x00524970: the current AnimationFrame record."""
        if self.curr_anim is not None:
            return self.curr_anim.get_part_frame(math.floor(self.frame_number))
        return self.placement_frame

    def get_curr_frame_number(self) -> int:
        return math.floor(self.frame_number)

    def set_velocity(self, v) -> None:
        self.velocity = (float(v[0]), float(v[1]), float(v[2]))

    def set_omega(self, o) -> None:
        self.omega = (float(o[0]), float(o[1]), float(o[2]))

    # CSequence::combine_physics 0x005248C0
    def combine_physics(self, v, o) -> None:
        self.velocity = (self.velocity[0] + v[0], self.velocity[1] + v[1],
                         self.velocity[2] + v[2])
        self.omega = (self.omega[0] + o[0], self.omega[1] + o[1], self.omega[2] + o[2])

    # CSequence::subtract_physics 0x00524900
    def subtract_physics(self, v, o) -> None:
        self.velocity = (self.velocity[0] - v[0], self.velocity[1] - v[1],
                         self.velocity[2] - v[2])
        self.omega = (self.omega[0] - o[0], self.omega[1] - o[1], self.omega[2] - o[2])

    # CSequence::clear_physics 0x00524D50
    def clear_physics(self) -> None:
        self.velocity = (0.0, 0.0, 0.0)
        self.omega = (0.0, 0.0, 0.0)

    # CSequence::clear_animations 0x00524DC0
    def clear_animations(self) -> None:
        self.anim_list.clear()
        self.first_cyclic = None
        self.frame_number = 0.0
        self.curr_anim = None

    # CSequence::clear 0x005255B0
    def clear(self) -> None:
        self.clear_animations()
        self.clear_physics()
        self.placement_frame = None
        self.placement_frame_id = 0

    # CSequence::multiply_cyclic_animation_fr 0x00524940
    def multiply_cyclic_animation_fr(self, multiplier: float) -> None:
        if self.first_cyclic is None:
            return
        for node in self.anim_list[self._index(self.first_cyclic):]:
            node.multiply_framerate(multiplier)

    # CSequence::append_animation 0x00525510
    def append_animation(self, data: AnimData) -> None:
        anim = None
        if data.anim_id and self.anim_loader is not None:
            anim = self.anim_loader(data.anim_id)
        node = AnimSequenceNode(anim, data.anim_id, data.low_frame, data.high_frame,
                                data.framerate)
        if not node.has_anim():
            return  # a node without an animation is dropped
        self.anim_list.append(node)
        self.first_cyclic = node
        if self.curr_anim is None:
            self.curr_anim = self.anim_list[0]
            self.frame_number = self.curr_anim.get_starting_frame()

    # CSequence::remove_cyclic_anims 0x00524E40
    def remove_cyclic_anims(self) -> None:
        node = self.first_cyclic
        while node is not None:
            if self.curr_anim is node:
                prev = self._prev(node)
                self.curr_anim = prev
                self.frame_number = prev.get_ending_frame() if prev is not None else 0.0
            nxt = self._next(node)
            self._remove(node)
            node = nxt
        self.first_cyclic = self.anim_list[-1] if self.anim_list else None

    # CSequence::remove_link_animations 0x00524BE0
    def remove_link_animations(self, n: int) -> None:
        for _ in range(n):
            if self.first_cyclic is None:
                break
            prev = self._prev(self.first_cyclic)
            if prev is None:
                break
            if prev is self.curr_anim:
                self.curr_anim = self.first_cyclic
                self.frame_number = self.first_cyclic.get_starting_frame()
            self._remove(prev)

    # CSequence::apricot 0x00524B40
    def apricot(self) -> None:
        while self.anim_list:
            head = self.anim_list[0]
            if head is self.curr_anim or head is self.first_cyclic:
                break
            del self.anim_list[0]

    # -- update -------------------------------------------------------------------------
    # CSequence::apply_physics 0x00524AB0: sequence velocity / omega over |quantum| with
    # the sign of ``sign``; omega turns about the frame's local axes (Frame::rotate).
    def apply_physics(self, frame: Frame, quantum: float, sign: float) -> Frame:
        q = abs(quantum)
        if sign < 0.0:
            q = -q
        v = self.velocity
        o = self.omega
        origin = frame.origin
        frame = Frame((origin[0] + v[0] * q, origin[1] + v[1] * q, origin[2] + v[2] * q),
                      frame.orientation)
        return frame.rotate((o[0] * q, o[1] * q, o[2] * q))

    def update(self, quantum: float, retval: Frame | None) -> Frame | None:
        """CSequence::update 0x00525B80. ``retval`` is the root-motion offset accumulated
        this tick (None: no root motion); the updated offset is returned."""
        if self.anim_list:
            retval = self.update_internal(quantum, retval)
            self.apricot()
        elif retval is not None:
            retval = self.apply_physics(retval, quantum, quantum)
        return retval

    def _play_forward(self, node: AnimSequenceNode, last: int, quantum: float,
                      retval: Frame | None) -> tuple[Frame | None, float | None]:
        """update_internal 0x005255D0, a positive frame step: past high_frame the node ends
        (clamped to high_frame, the time beyond it left over); every whole frame crossed
        adds its root motion and stages its forward hooks. (retval, time left or None)"""
        framerate = node.framerate
        time_left = None
        if node.high_frame < math.floor(self.frame_number):
            over = self.frame_number - node.high_frame - 1.0
            over = max(over, 0.0)
            time_left = over / framerate if abs(framerate) > EPS else 0.0
            self.frame_number = float(node.high_frame)  # clamp to high, not high+1
        while math.floor(self.frame_number) > last:
            if retval is not None:
                pf = node.get_pos_frame(last)
                if pf is not None:
                    retval = retval.combine(pf)
                if abs(framerate) > EPS:
                    retval = self.apply_physics(retval, 1.0 / framerate, quantum)
            self._execute_hooks(node, last, 1)
            last += 1
        return retval, time_left

    def _play_backward(self, node: AnimSequenceNode, last: int, quantum: float,
                       retval: Frame | None) -> tuple[Frame | None, float | None]:
        """update_internal 0x005255D0, a negative frame step: below low_frame the node ends;
        every whole frame crossed takes its root motion back and stages its backward
        hooks. (retval, time left (<= 0) or None)"""
        framerate = node.framerate
        time_left = None
        if node.low_frame > math.floor(self.frame_number):
            over = self.frame_number - node.low_frame
            over = min(over, 0.0)
            time_left = over / framerate if abs(framerate) > EPS else 0.0
            self.frame_number = float(node.low_frame)
        while math.floor(self.frame_number) < last:
            if retval is not None:
                pf = node.get_pos_frame(last)
                if pf is not None:
                    retval = retval.subtract1(pf)
                if abs(framerate) > EPS:
                    retval = self.apply_physics(retval, 1.0 / framerate, quantum)
            self._execute_hooks(node, last, -1)
            last -= 1
        return retval, time_left

    def _execute_hooks(self, node: AnimSequenceNode, fn: int, direction: int) -> None:
        """CSequence::execute_hooks 0x00524830: stage the frame's hooks whose direction is
        Both (0) or ``direction``, in file order (the frame's list holds no NULL hook:
        AnimFrame::UnPack 0x0051F8E0 adds nothing for one)."""
        af = node.get_part_frame(fn)
        if af is None or not af.hooks:
            return
        base = hook_offsets(node.anim)[fn]
        for i, hook in enumerate(af.built_hooks):
            d = int(hook.direction)
            if d == 0 or d == direction:
                self.staged_hooks.append((hook, node.anim_id, base + i))

    def update_internal(self, quantum: float, retval: Frame | None) -> Frame | None:
        """CSequence::update_internal 0x005255D0."""
        passes = 0
        while True:
            passes += 1
            if passes > MAX_NODE_PASSES:
                # retail would spin here for hours (a speed of 1e30 crosses ~1e30 loops in
                # one update); the viewer reports it instead of hanging
                raise ScenarioError(
                    f"animation time step crosses more than {MAX_NODE_PASSES} animation "
                    f"nodes in one update (framerate x speed {self.curr_anim.framerate:g} "
                    "is far beyond anything retail data plays)")
            node = self.curr_anim
            frame_quantum = node.framerate * quantum
            last = math.floor(self.frame_number)
            self.frame_number += frame_quantum
            if frame_quantum > 0.0:
                retval, time_left = self._play_forward(node, last, quantum, retval)
            elif frame_quantum < 0.0:
                retval, time_left = self._play_backward(node, last, quantum, retval)
            else:
                # framerate 0 (or no time): only the sequence velocity / omega moves.
                if retval is not None and abs(quantum) > EPS:
                    retval = self.apply_physics(retval, quantum, quantum)
                return retval
            if time_left is None:  # the node did not end
                return retval
            if self.anim_list and self.anim_list[0] is not self.first_cyclic:
                self.staged_hooks.append((ANIM_DONE, 0, -1))
            retval = self.advance_to_next_animation(quantum, retval)
            quantum = time_left

    def advance_to_next_animation(self, quantum: float, retval: Frame | None) -> Frame | None:
        """CSequence::advance_to_next_animation 0x005252B0."""
        node = self.curr_anim
        if quantum >= 0.0:
            if node.framerate < 0.0 and retval is not None:
                pf = node.get_pos_frame(math.floor(self.frame_number))
                if pf is not None:
                    retval = retval.subtract1(pf)
                if abs(node.framerate) > EPS:
                    retval = self.apply_physics(retval, 1.0 / node.framerate, quantum)
            nxt = self._next(node)
            self.curr_anim = nxt if nxt is not None else self.first_cyclic
            node = self.curr_anim
            self.frame_number = node.get_starting_frame()
            if node.framerate > 0.0 and retval is not None:
                pf = node.get_pos_frame(math.floor(self.frame_number))
                if pf is not None:
                    retval = retval.combine(pf)
                if abs(node.framerate) > EPS:
                    retval = self.apply_physics(retval, 1.0 / node.framerate, quantum)
        else:
            if node.framerate >= 0.0 and retval is not None:
                pf = node.get_pos_frame(math.floor(self.frame_number))
                if pf is not None:
                    retval = retval.subtract1(pf)
                if abs(node.framerate) > EPS:
                    retval = self.apply_physics(retval, 1.0 / node.framerate, quantum)
            prev = self._prev(node)
            self.curr_anim = prev if prev is not None else self.anim_list[-1]
            node = self.curr_anim
            self.frame_number = node.get_ending_frame()
            if node.framerate < 0.0 and retval is not None:
                pf = node.get_pos_frame(math.floor(self.frame_number))
                if pf is not None:
                    retval = retval.combine(pf)
                if abs(node.framerate) > EPS:
                    retval = self.apply_physics(retval, 1.0 / node.framerate, quantum)
        return retval

    def drain_hooks(self) -> list[StagedHook]:
        out = self.staged_hooks
        self.staged_hooks = []
        return out
