"""CMotionTable resolution and the MotionTableManager (canim/CMTable.c,
cphysobj/CMTableManager.c).

``CMotionTable`` turns a motion command and the object's ``MotionState`` into changes of its
``CSequence``: style changes, substate cycles (with links between them), actions (a link
played once, then the cycle again) and modifiers (velocity / omega only). Keys are
``(style << 16) | (motion & 0xFFFFFF)``. The manager queues each performed motion with the
number of animations it added and retires it when the sequence reports AnimationDone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from viewer.sim.animation.commands import ACTION_BIT, MODIFIER_BIT, READY, STYLE_BIT, SUBSTATE_BIT
from viewer.sim.animation.sequence import AnimData, CSequence
from viewer.sim.frame import EPS

_ZERO = (0.0, 0.0, 0.0)
_U32 = 0xFFFFFFFF


def _key(style: int, motion: int) -> int:
    return ((style << 16) | (motion & 0xFFFFFF)) & _U32


@dataclass
class MotionState:
    """MotionState (canim/CMotionPrim.c): style, substate and its speed, the modifier list
    (newest first) and the action queue."""

    style: int = 0
    substate: int = 0
    substate_mod: float = 1.0
    modifiers: list[tuple[int, float]] = field(default_factory=list)  # head first
    actions: list[tuple[int, float]] = field(default_factory=list)

    def copy(self) -> MotionState:
        return MotionState(self.style, self.substate, self.substate_mod,
                           list(self.modifiers), list(self.actions))

    # MotionState::add_modifier_no_check 0x00525FF0 (prepends)
    def add_modifier_no_check(self, modifier: int, speed_mod: float) -> None:
        self.modifiers.insert(0, (modifier, speed_mod))

    # MotionState::add_modifier 0x00526320
    def add_modifier(self, modifier: int, speed_mod: float) -> bool:
        if any(m == modifier for m, _ in self.modifiers):
            return False
        if self.substate == modifier:
            return False
        self.add_modifier_no_check(modifier, speed_mod)
        return True

    def clear_modifiers(self) -> None:
        self.modifiers.clear()

    # MotionState::add_action 0x005260A0 (appends)
    def add_action(self, action: int, speed_mod: float) -> None:
        self.actions.append((action, speed_mod))

    def clear_actions(self) -> None:
        self.actions.clear()

    # MotionState::remove_action_head 0x00526120
    def remove_action_head(self) -> int:
        if not self.actions:
            return 0
        return self.actions.pop(0)[0]


def _same_sign(a: float, b: float) -> bool:
    """same_sign 0x00522260: true when both are >= 0 or both are < 0."""
    return (a >= 0.0) == (b >= 0.0)


def _vel(md) -> tuple[float, float, float]:
    return md.velocity if md.velocity is not None else _ZERO


def _omega(md) -> tuple[float, float, float]:
    return md.omega if md.omega is not None else _ZERO


def _scale(v, s: float) -> tuple[float, float, float]:
    return (v[0] * s, v[1] * s, v[2] * s)


# add_motion 0x00522370: velocity and omega are SET (the last MotionData added wins), then
# every AnimData is appended with its framerate times speed_mod.
def add_motion(sequence: CSequence, data, speed_mod: float) -> None:
    if data is None:
        return
    sequence.set_velocity(_scale(_vel(data), speed_mod))
    sequence.set_omega(_scale(_omega(data), speed_mod))
    for a in data.anims:
        sequence.append_animation(
            AnimData(a.anim_id, a.low_frame, a.high_frame, a.framerate * speed_mod))


# combine_motion 0x00522580
def combine_motion(sequence: CSequence, data, speed_mod: float) -> None:
    if data is not None:
        sequence.combine_physics(_scale(_vel(data), speed_mod), _scale(_omega(data), speed_mod))


# subtract_motion 0x00522600
def subtract_motion(sequence: CSequence, data, speed_mod: float) -> None:
    if data is not None:
        sequence.subtract_physics(_scale(_vel(data), speed_mod),
                                  _scale(_omega(data), speed_mod))


# change_cycle_speed 0x00522290
def change_cycle_speed(sequence: CSequence, old_speed: float, new_speed: float) -> None:
    if abs(old_speed) <= EPS:
        if abs(new_speed) < EPS:
            sequence.multiply_cyclic_animation_fr(0.0)
    else:
        sequence.multiply_cyclic_animation_fr(new_speed / old_speed)


def _num_anims(md) -> int:
    return len(md.anims) if md is not None else 0


class CMotionTable:
    """A MotionTable record indexed as retail's hash tables (a later duplicate key wins:
    CMotionTable::UnPack 0x005238C0 inserts at the bucket head)."""

    def __init__(self, record) -> None:
        self.record = record
        self.did = record.id
        self.default_style = record.default_style
        self.style_defaults: dict[int, int] = {k: v for k, v in record.style_defaults}
        self.cycles: dict[int, object] = {k: md for k, md in record.cycles}
        self.modifiers: dict[int, object] = {k: md for k, md in record.modifiers}
        self.links: dict[int, dict[int, object]] = {}
        for outer, inner in record.links:
            self.links[outer] = {k: md for k, md in inner}

    # CMotionTable::is_allowed 0x005226C0
    def is_allowed(self, motion: int, mdata, state: MotionState) -> bool:
        if mdata is None:
            return False
        if mdata.bitfield & 2 and motion != state.substate:
            return self.style_defaults.get(state.style) == state.substate
        return True

    # CMotionTable::get_link 0x00522710
    def get_link(self, style: int, substate: int, substate_speed: float, motion: int,
                 speed: float):
        if speed < 0.0 or substate_speed < 0.0:
            table = self.links.get(_key(style, motion))
            result = table.get(substate & _U32) if table is not None else None
            if result is not None:
                return result
            default = self.style_defaults.get(style)
            if default is not None:
                table = self.links.get(_key(style, substate))
                if table is not None:
                    return table.get(default)
            return result
        table = self.links.get(_key(style, substate))
        result = table.get(motion & _U32) if table is not None else None
        if result is not None:
            return result
        table = self.links.get((style << 16) & _U32)
        if table is not None:
            return table.get(motion & _U32)
        return result

    # CMotionTable::re_modify 0x005222E0: re-apply every modifier to the new sequence.
    def re_modify(self, sequence: CSequence, state: MotionState) -> None:
        if not state.modifiers:
            return
        dummy = len(state.modifiers)
        for _ in range(dummy):
            motion, speed = state.modifiers.pop(0)
            self.get_object_sequence(motion, state, sequence, speed, 0)

    # CMotionTable::GetObjectSequence 0x00522860 -> (ok, num_anims)
    def get_object_sequence(self, motion: int, state: MotionState, sequence: CSequence,
                            speed_mod: float, stop_modifiers: int = 0) -> tuple[bool, int]:
        """Retail tries the branches in this order, each only when the motion has its bit
        (style, substate, action, modifier); a branch that finds no data falls through to
        the next one."""
        motion &= _U32
        if not state.style or not state.substate:
            return False, 0
        if (motion == self.style_defaults.get(state.style) and not stop_modifiers
                and state.substate & MODIFIER_BIT):
            return True, 0
        for bit, branch in ((STYLE_BIT, self._style_change), (SUBSTATE_BIT, self._substate_cycle),
                            (ACTION_BIT, self._action_link), (MODIFIER_BIT, self._modifier)):
            if motion & bit:
                result = branch(motion, state, sequence, speed_mod)
                if result is not None:
                    return result
        return False, 0

    # GetObjectSequence 0x00522860, the style branch (motion & 0x80000000): leave the
    # current substate, link to the new style's default substate and cycle it.
    def _style_change(self, motion: int, state: MotionState, sequence: CSequence,
                      speed_mod: float) -> tuple[bool, int] | None:
        substate = state.substate
        style_default = self.style_defaults.get(state.style)
        if state.style == motion:
            return True, 0
        pre_link = None
        if substate != style_default:
            pre_link = self.get_link(state.style, substate, state.substate_mod,
                                     style_default if style_default is not None else 0,
                                     speed_mod)
        new_default = self.style_defaults.get(motion)
        if new_default is not None:
            cycle = self.cycles.get(_key(motion, new_default))
            if cycle is not None:
                if cycle.bitfield & 1:
                    state.clear_modifiers()
                from_sub = style_default if style_default is not None else 0
                link = self.get_link(state.style, from_sub, state.substate_mod, motion,
                                     speed_mod)
                link2 = None
                if link is None and motion != state.style:
                    link = self.get_link(state.style, from_sub, 1.0, self.default_style,
                                         1.0)
                    dflt = self.style_defaults.get(self.default_style, 0)
                    link2 = self.get_link(self.default_style, dflt, 1.0, motion, 1.0)
                sequence.clear_physics()
                sequence.remove_cyclic_anims()
                add_motion(sequence, pre_link, speed_mod)
                add_motion(sequence, link, speed_mod)
                add_motion(sequence, link2, speed_mod)
                add_motion(sequence, cycle, speed_mod)
                state.substate = new_default
                state.style = motion
                state.substate_mod = speed_mod
                self.re_modify(sequence, state)
                n = (_num_anims(link) + _num_anims(link2) + _num_anims(cycle)
                     + _num_anims(pre_link) - 1)
                return True, n
        return None

    # GetObjectSequence 0x00522860, the substate branch (motion & 0x40000000): a new cycle
    # (with links between them), or the same cycle re-speeded in place.
    def _substate_cycle(self, motion: int, state: MotionState, sequence: CSequence,
                        speed_mod: float) -> tuple[bool, int] | None:
        substate = state.substate
        cycle = self.cycles.get(_key(state.style, motion))
        if cycle is None:
            cycle = self.cycles.get(_key(self.default_style, motion))
        if cycle is not None and self.is_allowed(motion, cycle, state):
            if (motion == substate and _same_sign(speed_mod, state.substate_mod)
                    and sequence.has_anims()):
                # Same cycle: re-speed in place.
                change_cycle_speed(sequence, state.substate_mod, speed_mod)
                subtract_motion(sequence, cycle, state.substate_mod)
                combine_motion(sequence, cycle, speed_mod)
                state.substate_mod = speed_mod
                return True, 0
            if cycle.bitfield & 1:
                state.clear_modifiers()
            link = self.get_link(state.style, state.substate, state.substate_mod, motion,
                                 speed_mod)
            link2 = None
            if link is None or not _same_sign(speed_mod, state.substate_mod):
                dflt = self.style_defaults.get(state.style, 0)
                link = self.get_link(state.style, state.substate, state.substate_mod,
                                     dflt, 1.0)
                link2 = self.get_link(state.style, dflt, 1.0, motion, speed_mod)
            sequence.clear_physics()
            sequence.remove_cyclic_anims()
            if link2 is not None:
                add_motion(sequence, link, state.substate_mod)
                add_motion(sequence, link2, speed_mod)
            else:
                s = speed_mod
                if state.substate_mod < 0.0 and speed_mod > 0.0:
                    s = -speed_mod
                add_motion(sequence, link, s)
            add_motion(sequence, cycle, speed_mod)
            old = state.substate
            if (old != motion and old & MODIFIER_BIT
                    and self.style_defaults.get(state.style) != motion):
                state.add_modifier_no_check(old, state.substate_mod)
            state.substate_mod = speed_mod
            state.substate = motion
            self.re_modify(sequence, state)
            n = _num_anims(link2) + _num_anims(cycle) + _num_anims(link) - 1
            return True, n
        return None

    # GetObjectSequence 0x00522860, the action branch (motion & 0x10000000): a link played
    # once, then back to the current cycle (directly or through the style's default).
    def _action_link(self, motion: int, state: MotionState, sequence: CSequence,
                     speed_mod: float) -> tuple[bool, int] | None:
        substate = state.substate
        cycle_key = _key(state.style, substate)
        cycle = self.cycles.get(cycle_key)
        if cycle is not None:
            link = self.get_link(state.style, substate, state.substate_mod, motion,
                                 speed_mod)
            if link is not None:
                state.add_action(motion, speed_mod)
                sequence.clear_physics()
                sequence.remove_cyclic_anims()
                add_motion(sequence, link, speed_mod)
                add_motion(sequence, cycle, state.substate_mod)
                self.re_modify(sequence, state)
                return True, _num_anims(link)
            # Route through the style's default substate.
            dflt = self.style_defaults.get(state.style, 0)
            to_default = self.get_link(state.style, substate, state.substate_mod, dflt,
                                       1.0)
            link2 = (self.get_link(state.style, dflt, 1.0, motion, speed_mod)
                     if to_default is not None else None)
            cycle2 = self.cycles.get(cycle_key) if link2 is not None else None
            if cycle2 is not None:
                back = self.get_link(state.style, dflt, 1.0, substate,
                                     state.substate_mod)
                state.add_action(motion, speed_mod)
                sequence.clear_physics()
                sequence.remove_cyclic_anims()
                add_motion(sequence, to_default, 1.0)
                add_motion(sequence, link2, speed_mod)
                add_motion(sequence, back, 1.0)
                add_motion(sequence, cycle2, state.substate_mod)
                self.re_modify(sequence, state)
                n = _num_anims(to_default) + _num_anims(link2)
                if back is not None:
                    n += _num_anims(back)
                return True, n
        return None

    # GetObjectSequence 0x00522860, the modifier branch (motion & 0x20000000): velocity /
    # omega only, unless the current cycle clears modifiers.
    def _modifier(self, motion: int, state: MotionState, sequence: CSequence,
                  speed_mod: float) -> tuple[bool, int] | None:
        substate = state.substate
        cycle = self.cycles.get(_key(state.style, substate))
        if cycle is not None and not cycle.bitfield & 1:
            md = self.modifiers.get(_key(state.style, motion))
            if md is None:
                md = self.modifiers.get(motion & 0xFFFFFF)
            if md is not None:
                if state.add_modifier(motion, speed_mod):
                    combine_motion(sequence, md, speed_mod)
                    return True, 0
                self.stop_sequence_motion(motion, 1.0, state, sequence)
                if state.add_modifier(motion, speed_mod):
                    combine_motion(sequence, md, speed_mod)
                    return True, 0
        return None

    # CMotionTable::StopSequenceMotion 0x00522FC0 -> (ok, num_anims)
    def stop_sequence_motion(self, motion: int, speed: float, state: MotionState,
                             sequence: CSequence) -> tuple[bool, int]:
        motion &= _U32
        if motion & SUBSTATE_BIT and motion == state.substate:
            dflt = self.style_defaults.get(state.style, 0)
            _, n = self.get_object_sequence(dflt, state, sequence, 1.0, 1)
            return True, n
        if motion & MODIFIER_BIT:
            for i, (m, s) in enumerate(state.modifiers):
                if m == motion:
                    md = self.modifiers.get(_key(state.style, motion))
                    if md is None:
                        md = self.modifiers.get(motion & 0xFFFFFF)
                    if md is None:
                        return False, 0
                    subtract_motion(sequence, md, s)
                    del state.modifiers[i]
                    return True, 0
        return False, 0

    # CMotionTable::StopObjectCompletely 0x00523ED0
    def stop_object_completely(self, state: MotionState,
                               sequence: CSequence) -> tuple[bool, int]:
        retval = False
        n = 0
        while state.modifiers:
            m, s = state.modifiers[0]
            ok, n = self.stop_sequence_motion(m, s, state, sequence)
            if ok:
                retval = True
            else:
                state.modifiers.pop(0)  # retail would loop forever here
        ok, n = self.stop_sequence_motion(state.substate, state.substate_mod, state, sequence)
        return (True if ok else retval), n

    # CMotionTable::SetDefaultState 0x005230A0 -> (ok, num_anims)
    def set_default_state(self, state: MotionState, sequence: CSequence) -> tuple[bool, int]:
        dflt = self.style_defaults.get(self.default_style)
        if dflt is None:
            return False, 0
        state.clear_modifiers()
        state.clear_actions()
        cycle = self.cycles.get(_key(self.default_style, dflt))
        if cycle is None:
            return False, 0
        state.style = self.default_style
        state.substate = dflt
        state.substate_mod = 1.0
        sequence.clear_physics()
        sequence.clear_animations()
        add_motion(sequence, cycle, state.substate_mod)
        return True, len(cycle.anims) - 1


class MotionTableManager:
    """MotionTableManager (cphysobj/CMTableManager.c): the motion table, the object's
    MotionState and the queue of performed motions awaiting AnimationDone."""

    def __init__(self, table: CMotionTable) -> None:
        self.table = table
        self.state = MotionState()
        self.pending_animations: list[list[int]] = []  # [motion, num_anims]
        self.animation_counter = 0
        self.completed: list[tuple[int, bool]] = []     # (motion, success): MotionDone

    # MotionTableManager::initialize_state 0x0051C030
    def initialize_state(self, sequence: CSequence) -> None:
        ok, n = self.table.set_default_state(self.state, sequence)
        self.pending_animations.append([READY, n if ok else 0])
        self.remove_redundant_links(sequence)

    # MotionTableManager::PerformMovement 0x0051C0B0, type 2 (DoObjectMotion)
    def do_object_motion(self, motion: int, sequence: CSequence, speed: float = 1.0) -> bool:
        ok, n = self.table.get_object_sequence(motion, self.state, sequence, speed, 0)
        if ok:
            self.add_to_queue(motion & _U32, n, sequence)
        return ok

    # PerformMovement type 4 (StopObjectMotion -> StopSequenceMotion)
    def stop_object_motion(self, motion: int, sequence: CSequence, speed: float = 1.0) -> bool:
        ok, n = self.table.stop_sequence_motion(motion, speed, self.state, sequence)
        if ok:
            self.add_to_queue(READY, n, sequence)
        return ok

    # PerformMovement type 5 (StopObjectCompletely)
    def stop_completely(self, sequence: CSequence) -> None:
        _, n = self.table.stop_object_completely(self.state, sequence)
        self.add_to_queue(READY, n, sequence)

    # MotionTableManager::add_to_queue 0x0051BFE0
    def add_to_queue(self, motion: int, num_anims: int, sequence: CSequence) -> None:
        self.pending_animations.append([motion, num_anims])
        self.remove_redundant_links(sequence)

    # MotionTableManager::AnimationDone 0x0051BCE0
    def animation_done(self, success: bool = True) -> None:
        if not self.pending_animations:
            return
        self.animation_counter += 1
        while self.pending_animations:
            motion, n = self.pending_animations[0]
            if n > self.animation_counter:
                break
            if motion & ACTION_BIT:
                self.state.remove_action_head()
            self.completed.append((motion, success))
            self.animation_counter -= n
            self.pending_animations.pop(0)
        if self.animation_counter and not self.pending_animations:
            self.animation_counter = 0

    # MotionTableManager::CheckForCompletedMotions 0x0051BE00
    def check_for_completed_motions(self) -> None:
        while self.pending_animations and self.pending_animations[0][1] == 0:
            motion, _ = self.pending_animations.pop(0)
            if motion & ACTION_BIT:
                self.state.remove_action_head()
            self.completed.append((motion, True))

    # MotionTableManager::truncate_animation_list 0x0051BC80
    def _truncate_animation_list(self, node_index: int, sequence: CSequence) -> None:
        total = 0
        for i in range(len(self.pending_animations) - 1, node_index, -1):
            total += self.pending_animations[i][1]
            self.pending_animations[i][1] = 0
        sequence.remove_link_animations(total)

    # MotionTableManager::remove_redundant_links 0x0051BF20
    def remove_redundant_links(self, sequence: CSequence) -> None:
        pend = self.pending_animations
        i = len(pend) - 1
        while i >= 0 and pend[i][1] == 0:
            i -= 1
        if i < 0:
            return
        motion = pend[i][0]
        if motion & SUBSTATE_BIT and not motion & MODIFIER_BIT:
            j = i - 1
            while j >= 0:
                m, n = pend[j]
                if m == motion and n:
                    self._truncate_animation_list(j, sequence)
                    return
                if n and m & 0xB0000000:
                    return
                j -= 1
            return
        if motion & 0x80000000:
            j = i - 1
            while j >= 0:
                m, n = pend[j]
                if m == motion:
                    self._truncate_animation_list(j, sequence)
                    return
                if n and m & 0x70000000:
                    return
                j -= 1
