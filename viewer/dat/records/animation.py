"""Animation (0x03) and AnimationFrame (CAnimation::UnPack 0x0051FB50, AnimFrame::UnPack
0x0051F8E0).

CAnimation::UnPack 0x0051FB50; AnimFrame::UnPack 0x0051F8E0.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.common import AnimationFlags, Frame
from viewer.dat.records.hooks import (
    AnimationHook,
    NullHook,
    UnknownHooks,
    is_null_hook,
    read_hook,
    write_hook,
)


@dataclass(frozen=True, slots=True)
class AnimationFrame:
    """num_parts part frames, then the hooks of this frame (each followed by align4).

    ``hooks`` keeps every stored hook (``NullHook`` included) so the frame re-encodes
    byte for byte; ``built_hooks`` is the frame's hook list as retail holds it."""

    frames: tuple[Frame, ...]
    hooks: tuple[AnimationHook | NullHook, ...] = ()

    @property
    def built_hooks(self) -> tuple[AnimationHook, ...]:
        """AnimFrame::UnPack 0x0051F8E0: add_to_list of a NULL hook adds nothing."""
        return tuple(h for h in self.hooks if not is_null_hook(h))

    @classmethod
    def read(cls, r: Reader, num_parts: int, unknown: UnknownHooks | None = None,
             label: str = "") -> AnimationFrame:
        r.count(num_parts, 28, "part frames")
        frames = tuple(Frame.read(r) for _ in range(num_parts))
        n = r.count(r.u32("num_hooks"), 8, "hooks")
        if unknown is None:
            return cls(frames, tuple(read_hook(r) for _ in range(n)))
        return cls(frames, tuple(unknown.read(r, f"{label}hook {i}") for i in range(n)))

    def write(self, w: Writer) -> None:
        for f in self.frames:
            f.write(w)
        w.u32(len(self.hooks))
        for h in self.hooks:
            write_hook(w, h)


@dataclass(frozen=True, slots=True)
class Animation:
    id: int
    flags: AnimationFlags
    num_parts: int
    pos_frames: tuple[Frame, ...] | None  # None unless flags & PosFrames
    part_frames: tuple[AnimationFrame, ...]

    @property
    def num_frames(self) -> int:
        return len(self.part_frames)

    @classmethod
    def read(cls, r: Reader) -> Animation:
        id_ = r.u32("id")
        flags = AnimationFlags(r.u32("flags"))
        num_parts = r.u32("num_parts")
        num_frames = r.count(r.u32("num_frames"), 4, "frames")
        pos_frames = None
        if flags & AnimationFlags.PosFrames:
            r.count(num_frames, 28, "pos_frames")
            pos_frames = tuple(Frame.read(r) for _ in range(num_frames))
        with UnknownHooks().naming(r) as unknown:
            part_frames = tuple(AnimationFrame.read(r, num_parts, unknown, f"frame {k} ")
                                for k in range(num_frames))
        return cls(id_, flags, num_parts, pos_frames, part_frames)

    def write(self, w: Writer) -> None:
        has_pos = bool(self.flags & AnimationFlags.PosFrames)
        if has_pos != (self.pos_frames is not None):
            raise ValueError("Animation: pos_frames must be present exactly when flags has "
                             "PosFrames")
        if has_pos and len(self.pos_frames) != len(self.part_frames):
            raise ValueError("Animation: pos_frames and part_frames differ in length")
        w.u32(self.id)
        w.u32(int(self.flags))
        w.u32(self.num_parts)
        w.u32(len(self.part_frames))
        if has_pos:
            for f in self.pos_frames:
                f.write(w)
        for pf in self.part_frames:
            if len(pf.frames) != self.num_parts:
                raise ValueError("Animation: a part frame has the wrong number of parts")
            pf.write(w)
