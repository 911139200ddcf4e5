"""Animation: retail's CSequence, CMotionTable and MotionTableManager, the two MotionCommand
catalogs, and the per-object ``MotionController`` the World drives.

* ``sequence.py``: AnimSequenceNode / CSequence: frame advance in
  either direction, hooks staged when their frame is left, links then the looping cycle,
  PosFrames and sequence velocity/omega accumulated into a root-motion offset.
* ``motion_table.py``: CMotionTable::GetObjectSequence (styles, substate cycles, links,
  actions, modifiers, speed scaling) and the MotionTableManager's pending-motion queue.
* ``commands.py`` (+ ``command_tables.py``): the ACE-modern catalog (runtime default) and
  the retail 2013 ``command_ids`` catalog; 16-bit wire reconstruction; scenario parsing.
* ``controller.py``: ``MotionController(setup, db)``: ``advance(dt)`` ->
  (root offset, [(hook, animation_did, hook_index)]), ``part_frames()``, ``do_motion()``.

Part poses (object frame + animation frames + object scale) are in ``viewer/sim/poses.py``.
"""

from viewer.sim.animation.controller import MotionController

__all__ = ["MotionController"]
