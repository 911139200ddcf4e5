"""Part poses (CPartArray::UpdateParts 0x005190F0).

Each tick, after the animation has advanced and the object's frame is final, every part's
world frame is ``combine_scaled(object_frame, anim_frame.frames[i], scale)``
(CPartArray::UpdateParts 0x005190F0): the object scale multiplies the animation origin
only, never the rotation, and the mesh's own scale (Setup DefaultScale times object scale,
CPartArray::SetScaleInternal 0x00518A00) is kept apart for drawing. Parts beyond the
frame's part count keep their previous pose. Part index -1, or any index past the parts,
means the object root (CPhysicsObj::UpdateChild 0x00512D50).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from viewer.sim.frame import IDENTITY, Frame

ROOT_PART = -1


def as_frame(f) -> Frame:
    """A sim Frame from anything with ``origin`` and ``orientation`` (records' Frame)."""
    if isinstance(f, Frame):
        return f
    o = f.origin
    q = f.orientation
    return Frame((float(o[0]), float(o[1]), float(o[2])),
                 (float(q[0]), float(q[1]), float(q[2]), float(q[3])))


def _scale3(scale) -> tuple[float, float, float]:
    if isinstance(scale, (int, float)):
        s = float(scale)
        return (s, s, s)
    return (float(scale[0]), float(scale[1]), float(scale[2]))


def update_parts(object_frame: Frame, anim_frames: Sequence | None, num_parts: int,
                 scale=1.0, previous: Sequence[Frame] | None = None) -> tuple[Frame, ...]:
    """CPartArray::UpdateParts 0x005190F0: world frames of the ``num_parts`` parts.

    ``anim_frames`` are the current AnimationFrame's part frames (object space); None (no
    animation frame and no placement frame) leaves every part where it was.
    """
    parts = list(previous) if previous is not None else [IDENTITY] * num_parts
    if len(parts) < num_parts:
        parts.extend([IDENTITY] * (num_parts - len(parts)))
    del parts[num_parts:]
    if anim_frames is not None:
        s = _scale3(scale)
        for i in range(min(num_parts, len(anim_frames))):
            parts[i] = object_frame.combine_scaled(anim_frames[i], s)
    return tuple(parts)


def drawable_scales(setup, scale=1.0) -> tuple[tuple[float, float, float], ...]:
    """CPartArray::SetScaleInternal 0x00518A00: each part's mesh scale (gfxobj_scale) =
    Setup DefaultScale[i] times the object scale (or the object scale alone)."""
    s = _scale3(scale)
    n = len(setup.parts)
    if setup.default_scale is None:
        return tuple(s for _ in range(n))
    return tuple((d[0] * s[0], d[1] * s[1], d[2] * s[2]) for d in setup.default_scale[:n])


@dataclass(frozen=True, slots=True)
class PartPoses:
    """One object's published pose: its root frame and every part's world frame."""

    root: Frame
    parts: tuple[Frame, ...]

    def part(self, index: int) -> Frame:
        """The frame of part ``index``; -1 or an index past the parts is the root."""
        if 0 <= index < len(self.parts):
            return self.parts[index]
        return self.root

    def child_frame(self, part_index: int, offset) -> Frame:
        """CPhysicsObj::UpdateChild 0x00512D50: an attached child's frame."""
        return self.part(part_index).combine(as_frame(offset))


def compose(object_frame: Frame, anim_frames: Sequence | None, num_parts: int, scale=1.0,
            previous: PartPoses | None = None) -> PartPoses:
    """The object's published pose this tick (CPartArray::SetFrame 0x005192F0)."""
    prev = previous.parts if previous is not None else None
    return PartPoses(object_frame, update_parts(object_frame, anim_frames, num_parts, scale,
                                                prev))


def holding_location(setup, location: int):
    """CSetup::GetHoldingLocation 0x005213F0: (part_index, offset frame) of a ParentLocation,
    or None."""
    for key, loc in setup.holding_locations:
        if int(key) == int(location):
            return loc.part_id, as_frame(loc.frame)
    return None


def pose_events(t: float, owner: int, poses: PartPoses) -> list[dict]:
    """Trace lines for ``--poses`` (docs/cli.md section 5): the root (part -1), then each part,
    world origin and unit quaternion (w, x, y, z)."""
    out = [_pose_event(t, owner, ROOT_PART, poses.root)]
    for i, f in enumerate(poses.parts):
        out.append(_pose_event(t, owner, i, f))
    return out


def _pose_event(t: float, owner: int, part: int, f: Frame) -> dict:
    return {"t": t, "event": "pose", "owner": owner, "part": part,
            "origin": [f.origin[0], f.origin[1], f.origin[2]],
            "orientation": [f.orientation[0], f.orientation[1], f.orientation[2],
                            f.orientation[3]]}
