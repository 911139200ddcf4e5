"""The gallery's neutral stand: a built-in Setup to play any PhysicsScript on, written by our
own record codecs and DAT writer (no retail bytes) into an in-memory DAT that is searched
after the user's DATs (``vfxviewer gallery``, viewer/commands/gallery.py).

``stand_records(base, parts)`` gives one Setup per part count 1..``parts`` (``base.setup +
n`` has n parts), sharing two GfxObjs and one solid Surface: part 0 a low grey plinth at the
object's origin, parts 1.. small markers on a ring 0.4 m out at 0.6 m up, so an emitter on
any part shows where that part is. ``free_base(held)`` picks DIDs no open DAT holds, from
the top of each DID range down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from viewer.dat.records import Placement, Surface, SurfaceType
from viewer.synthetic.generate import placement_record, setup_record
from viewer.synthetic.geometry import MeshBuilder, frame

#: the most parts a stand has (a hook naming a part beyond is a no-op, as retail's are)
MAX_PARTS = 64
#: the grey of the plinth and markers (ARGB)
STAND_COLOR = 0xFF8C9098
RING_RADIUS = 0.4
RING_HEIGHT = 0.6


@dataclass(frozen=True)
class StandDids:
    """Where the stand's records go: Setup with n parts at ``setup + n``."""

    setup: int
    plinth: int
    marker: int
    surface: int

    def setup_with(self, parts: int) -> int:
        return self.setup + max(1, min(MAX_PARTS, parts))

    def all(self) -> list[int]:
        return [self.plinth, self.marker, self.surface,
                *(self.setup + n for n in range(1, MAX_PARTS + 1))]


def free_base(held) -> StandDids:
    """Stand DIDs none of which ``held`` (a container: ``did in held``) holds: blocks of
    0x100 from 0x??FFFF00 down in each range."""
    def free(top: int, span: int) -> int:
        for block in range(0xFFFF00, 0x000100, -0x100):
            base = (top << 24) | block
            if not any((base + k) in held for k in range(span)):
                return base
        raise ValueError(f"no free DIDs for the stand in range 0x{top:02X}")
    gfx = free(0x01, 2)
    return StandDids(setup=free(0x02, MAX_PARTS + 1), plinth=gfx, marker=gfx + 1,
                     surface=free(0x08, 1))


def part_origin(index: int, parts: int) -> tuple[float, float, float]:
    """Where part ``index`` of an ``parts``-part stand stands (part 0 at the origin)."""
    if index == 0:
        return (0.0, 0.0, 0.0)
    a = 2.0 * math.pi * (index - 1) / max(1, parts - 1)
    return (round(RING_RADIUS * math.cos(a), 6), round(RING_RADIUS * math.sin(a), 6),
            RING_HEIGHT)


def stand_records(dids: StandDids) -> dict[int, object]:
    """Every record of the stand, by DID (encoded by ``viewer.dat.records.encode``)."""
    recs: dict[int, object] = {dids.surface: Surface(SurfaceType.Base1Solid, None, None,
                                                      STAND_COLOR, 0.0, 0.0, 1.0)}
    m = MeshBuilder()
    m.box((0.3, 0.3, 0.06), (0.0, 0.0, 0.03), surface=0)
    recs[dids.plinth] = m.gfxobj(dids.plinth, (dids.surface,))
    m = MeshBuilder()
    m.box((0.06, 0.06, 0.06), (0.0, 0.0, 0.0), surface=0)
    recs[dids.marker] = m.gfxobj(dids.marker, (dids.surface,))
    for n in range(1, MAX_PARTS + 1):
        frames = [frame(part_origin(k, n)) for k in range(n)]
        recs[dids.setup + n] = setup_record(
            dids.setup + n, [dids.plinth] + [dids.marker] * (n - 1),
            placements=((Placement.Default, placement_record(n, frames)),),
            height=0.1, radius=0.2, sorting=((0.0, 0.0, 0.3), 0.6))
    return recs


def stand_dat(dids: StandDids):
    """The stand as an in-memory DatFile (named ``<built-in stand>``)."""
    from viewer.dat.container import DatFile
    from viewer.dat.records import encode
    from viewer.dat.writer import build_dat
    data = build_dat({did: encode(r) for did, r in stand_records(dids).items()})
    return DatFile(data=data, name="<built-in stand>")


__all__ = ["MAX_PARTS", "StandDids", "free_base", "part_origin", "stand_dat", "stand_records"]
