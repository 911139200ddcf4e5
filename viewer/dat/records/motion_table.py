"""MotionTable (0x09): CMotionTable::UnPack 0x005238C0,
MotionData::UnPack 0x00526570, AnimData::UnPack 0x00525E50."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.common import MotionDataFlags, Vec3


@dataclass(frozen=True, slots=True)
class AnimData:
    anim_id: int
    low_frame: int
    high_frame: int      # -1 = last frame
    framerate: float     # negative = reverse


@dataclass(frozen=True, slots=True)
class MotionData:
    bitfield: int
    flags: MotionDataFlags
    anims: tuple[AnimData, ...]
    velocity: Vec3 | None   # flags & HasVelocity
    omega: Vec3 | None      # flags & HasOmega

    @classmethod
    def read(cls, r: Reader) -> MotionData:
        num_anims, bitfield, flags = r.fmt("BBB", "MotionData")
        r.align4()  # the one pad byte inside MotionData
        flags = MotionDataFlags(flags)
        anims = tuple(AnimData(*r.fmt("Iiif", "AnimData"))
                      for _ in range(num_anims))
        velocity = r.vec3("velocity") if flags & MotionDataFlags.HasVelocity else None
        omega = r.vec3("omega") if flags & MotionDataFlags.HasOmega else None
        return cls(bitfield, flags, anims, velocity, omega)

    def write(self, w: Writer) -> None:
        if bool(self.flags & MotionDataFlags.HasVelocity) != (self.velocity is not None):
            raise ValueError("MotionData: velocity must be present exactly when HasVelocity")
        if bool(self.flags & MotionDataFlags.HasOmega) != (self.omega is not None):
            raise ValueError("MotionData: omega must be present exactly when HasOmega")
        w.fmt("BBB", len(self.anims), self.bitfield, int(self.flags))
        w.align4()
        for a in self.anims:
            w.fmt("Iiif", a.anim_id, a.low_frame, a.high_frame, a.framerate)
        if self.velocity is not None:
            w.vec3(self.velocity)
        if self.omega is not None:
            w.vec3(self.omega)


@dataclass(frozen=True, slots=True)
class MotionTable:
    """All maps are tuples of (key, value) in stored order."""

    id: int
    default_style: int
    style_defaults: tuple[tuple[int, int], ...]
    cycles: tuple[tuple[int, MotionData], ...]
    modifiers: tuple[tuple[int, MotionData], ...]
    links: tuple[tuple[int, tuple[tuple[int, MotionData], ...]], ...]

    @classmethod
    def read(cls, r: Reader) -> MotionTable:
        id_, default_style = r.fmt("II", "MotionTable header")
        n = r.count(r.u32("num_style_defaults"), 8, "style_defaults")
        style_defaults = tuple(r.fmt("II", "style_defaults") for _ in range(n))

        def table(what):
            m = r.count(r.u32(f"num_{what}"), 8, what)
            return tuple((r.u32(f"{what} key"), MotionData.read(r)) for _ in range(m))

        cycles = table("cycles")
        modifiers = table("modifiers")
        n = r.count(r.u32("num_links"), 8, "links")
        links = []
        for _ in range(n):
            key = r.u32("links key")
            links.append((key, table("link targets")))
        return cls(id_, default_style, style_defaults, cycles, modifiers, tuple(links))

    def write(self, w: Writer) -> None:
        w.fmt("II", self.id, self.default_style)
        w.u32(len(self.style_defaults))
        for k, v in self.style_defaults:
            w.fmt("II", k, v)

        def table(items):
            w.u32(len(items))
            for k, md in items:
                w.u32(k)
                md.write(w)

        table(self.cycles)
        table(self.modifiers)
        w.u32(len(self.links))
        for k, inner in self.links:
            w.u32(k)
            table(inner)
