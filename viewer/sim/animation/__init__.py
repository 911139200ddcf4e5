"""Animation: CSequence, CMotionTable, the command catalogs and the per-object controller."""

from viewer.sim.animation.controller import MotionController

__all__ = ["MotionController"]
