"""Solo / mute of emitters and objects in the 3D view (the emitter debugger): VIEW settings
only. They choose which particles the renderer is handed; the simulation, its event log
and every trace stay exactly as without them. GL-free."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np


@dataclass
class EmitterFilter:
    """``solo``: ("emitter", handle) or ("object", id) whose particles alone are drawn;
    ``muted``: such keys whose particles are not drawn."""
    solo: tuple[str, int] | None = None
    muted: set[tuple[str, int]] = field(default_factory=set)

    @property
    def active(self) -> bool:
        return self.solo is not None or bool(self.muted)

    def toggle_solo(self, kind: str, key: int) -> None:
        k = (kind, int(key))
        self.solo = None if self.solo == k else k

    def toggle_mute(self, kind: str, key: int) -> None:
        k = (kind, int(key))
        self.muted.symmetric_difference_update({k})

    def shows(self, handle: int, owner: int) -> bool:
        keys = {("emitter", int(handle)), ("object", int(owner))}
        if self.solo is not None and self.solo not in keys:
            return False
        return not (keys & self.muted)


def filter_particles(arrays, row_emitters, flt: EmitterFilter):
    """``arrays`` (render ParticleArrays, ``emitter`` = pool row) without the rows of
    emitters the filter hides; ``row_emitters``: the pool's emitter per row (None: free)."""
    if not flt.active or arrays.count == 0:
        return arrays
    ok = np.array([em is not None and flt.shows(em.handle, em.owner_id)
                   for em in row_emitters] + [False], bool)   # one entry per emitter row
    rows = np.minimum(arrays.emitter, len(ok) - 1)
    keep = ok[rows]
    return replace(arrays, positions=arrays.positions[keep],
                   orientations=arrays.orientations[keep], scales=arrays.scales[keep],
                   translucencies=arrays.translucencies[keep], gfxobj=arrays.gfxobj[keep],
                   emitter=arrays.emitter[keep],
                   tints=None if arrays.tints is None else arrays.tints[keep])


__all__ = ["EmitterFilter", "filter_particles"]
