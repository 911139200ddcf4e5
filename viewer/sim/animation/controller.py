"""The per-object motion controller: retail's CPartArray sequence + MotionTableManager.

The runtime (viewer/sim/world.py) owns one per animated object and, per physics step:

    root_motion, fired = obj.motion.advance(dt, on_walkable=..., scale=obj.scale)
    # new frame = combine(position.frame, root_motion); process_hooks runs ``fired``
    parts = obj.motion.part_frames()      # object-space part frames, or None

``advance`` is the animation half of CPhysicsObj::UpdatePositionInternal 0x00512C30:
``CSequence::update`` with an identity offset, then the offset's origin times the object
scale when the object is on walkable ground, else zeroed (rotation kept). The hooks it
returns are those ``CSequence::update`` staged (CPhysicsObj::add_anim_hook), in order, as
``(hook, animation_did, hook_index)``; the AnimationDone sentinel is consumed here
(MotionTableManager::AnimationDone 0x0051BCE0) and not returned.

Creation follows CPartArray::SetSetupID -> InitDefaults 0x00518980 (Setup.DefaultAnimation
at 30 fps), CPhysicsObj::InitObjectEnd 0x0050FFE0 (placement 0x65 Resting, else 0 Default)
and SetMotionTableID -> MotionTableManager::initialize_state 0x0051C030 (the table's default
state, which replaces the default animation).
"""

from __future__ import annotations

from collections.abc import Callable

from viewer.errors import DatError
from viewer.sim.animation.commands import DEFAULT_CATALOG, CommandCatalog, resolve_command
from viewer.sim.animation.motion_table import CMotionTable, MotionTableManager
from viewer.sim.animation.sequence import ANIM_DONE, AnimData, CSequence
from viewer.sim.frame import IDENTITY, Frame
from viewer.sim.poses import as_frame

PLACEMENT_RESTING = 0x65
PLACEMENT_DEFAULT = 0


def _loader(db) -> Callable[[int], object]:
    if callable(db) and not hasattr(db, "get"):
        return db
    return db.get


def find_placement_frame(setup, placement_id: int = PLACEMENT_RESTING):
    """CPartArray::SetPlacementFrame 0x005193D0: the frame for ``placement_id``, else the
    Default (0) frame, else None; returns (AnimationFrame or None, id used)."""
    frames = {int(k): af for k, af in setup.placement_frames}
    if placement_id in frames:
        return frames[placement_id], placement_id
    if PLACEMENT_DEFAULT in frames:
        return frames[PLACEMENT_DEFAULT], PLACEMENT_DEFAULT
    return None, 0


class MotionController:
    """Animation state of one object: its CSequence, motion table and MotionState."""

    def __init__(self, setup, db, *, motion_table: int | None = None,
                 catalog: CommandCatalog | None = None, missing_ok: bool = False) -> None:
        """``db``: an object with ``get(did)`` or a callable. A record it does not return
        raises DatError, unless ``missing_ok`` (the caller traces it): then, as retail's
        DBObj::Get returning null, an absent Animation's node is dropped and an absent
        motion table leaves the object without one."""
        self.setup = setup
        self.missing_ok = missing_ok
        self.catalog = catalog or DEFAULT_CATALOG
        self._get = _loader(db)
        self.sequence = CSequence(self._load_animation)
        self.num_parts = len(setup.parts)
        # CPartArray::InitDefaults 0x00518980
        if setup.default_animation:
            self.sequence.append_animation(AnimData(setup.default_animation, 0, -1, 30.0))
        # CPhysicsObj::InitObjectEnd 0x0050FFE0 -> SetPlacementFrame(0x65)
        pf, pid = find_placement_frame(setup)
        self.sequence.set_placement_frame(pf, pid)
        # CPartArray::SetMotionTableID 0x00517DD0 -> initialize_state
        did = setup.default_motion_table if motion_table is None else motion_table
        self.manager: MotionTableManager | None = None
        if did:
            record = self._get(did)
            if record is None and not missing_ok:
                raise DatError("motion table not found", did=did)
            if record is not None:
                self.manager = MotionTableManager(CMotionTable(record))
                self.manager.initialize_state(self.sequence)

    def _load_animation(self, did: int):
        anim = self._get(did)
        if anim is None and not self.missing_ok:
            raise DatError("animation not found", did=did)
        return anim

    # -- per tick -----------------------------------------------------------------------
    def advance(self, dt: float, *, on_walkable: bool = True, scale: float = 1.0,
                root_motion: bool = True) -> tuple[Frame, list[tuple[object, int, int]]]:
        """Advance by ``dt`` seconds; returns (root-motion offset in object space, hooks)."""
        offset = self.sequence.update(dt, IDENTITY if root_motion else None)
        if offset is None:
            offset = IDENTITY
        elif on_walkable:  # transient_state & ON_WALKABLE: origin times m_scale
            o = offset.origin
            offset = Frame((o[0] * scale, o[1] * scale, o[2] * scale), offset.orientation)
        else:
            offset = Frame((0.0, 0.0, 0.0), offset.orientation)
        fired = []
        for staged in self.sequence.drain_hooks():
            if staged[0] is ANIM_DONE and self.manager is not None:
                self.manager.animation_done(True)  # CPartArray::AnimationDone 0x00517D30
            # ANIM_DONE stays in the queue too: process_hooks traces it (source null) where
            # retail's CPhysicsObj::process_hooks 0x005114E0 runs its anim_done_hook
            fired.append(staged)
        if self.manager is not None:  # MotionTableManager::UseTime
            self.manager.check_for_completed_motions()
        return offset, fired

    def animation_done(self, success: bool = True) -> None:
        """CPartArray::AnimationDone 0x00517D30 (an AnimationDone hook executed by the
        runtime). The sequence's own AnimationDone is already consumed inside ``advance``."""
        if self.manager is not None:
            self.manager.animation_done(success)

    def part_frames(self) -> list[Frame] | None:
        """The current AnimationFrame's part frames (object space, unscaled), or the
        placement frame's; None when there is neither (CSequence::get_curr_animframe)."""
        af = self.sequence.get_curr_animframe()
        if af is None:
            return None
        return [as_frame(f) for f in af.frames]

    # -- commands -----------------------------------------------------------------------
    def resolve(self, command) -> int:
        return resolve_command(command, self.catalog)

    def do_motion(self, command, speed: float = 1.0) -> bool:
        """CPartArray::DoInterpretedMotion 0x00518750 -> PerformMovement(type 2): perform a
        full 32-bit command (or a catalog name). False when the table has no such motion
        or the object has no motion table."""
        if self.manager is None:
            return False
        ok = self.manager.do_object_motion(self.resolve(command), self.sequence, speed)
        # CMotionInterp::PerformMovement 0x00528E80 checks for completed motions after each
        self.manager.check_for_completed_motions()
        return ok

    def stop_completely(self) -> bool:
        if self.manager is None:
            return False
        self.manager.stop_completely(self.sequence)
        self.manager.check_for_completed_motions()
        return True

    # -- inspection ---------------------------------------------------------------------
    @property
    def state(self):
        return self.manager.state if self.manager is not None else None

    @property
    def current_animation(self) -> int:
        node = self.sequence.curr_anim
        return node.anim_id if node is not None else 0

    @property
    def frame_number(self) -> float:
        return self.sequence.frame_number

    def describe(self) -> dict:
        """A plain summary for panels and traces."""
        st = self.state
        return {
            "style": None if st is None else f"0x{st.style:08X}",
            "substate": None if st is None else f"0x{st.substate:08X}",
            "substate_mod": None if st is None else st.substate_mod,
            "animation": f"0x{self.current_animation:08X}",
            "frame": self.sequence.get_curr_frame_number(),
            "nodes": [f"0x{n.anim_id:08X}" for n in self.sequence.anim_list],
        }
