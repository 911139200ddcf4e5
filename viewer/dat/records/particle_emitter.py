"""ParticleEmitterInfo (0x32): fixed 176 bytes.

Field order confirmed by ParticleEmitterInfo::UnPack 0x005179F0 (re-based +48) and
::Pack 0x00517780. The f64 fields sit unaligned at offsets 24, 44, 52 and 60.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer
from viewer.dat.records.common import EmitterType, ParticleType, Vec3, as_enum

_PEI = struct.Struct("<IIiiIIdiiiddd" + "3fff" * 4 + "6fI")
assert _PEI.size == 176


@dataclass(frozen=True, slots=True)
class ParticleEmitterInfo:
    id: int
    unknown: int
    emitter_type: EmitterType | int
    particle_type: ParticleType | int
    gfxobj_id: int
    hw_gfxobj_id: int
    birthrate: float
    max_particles: int
    initial_particles: int
    total_particles: int
    total_seconds: float
    lifespan: float
    lifespan_rand: float
    offset_dir: Vec3
    min_offset: float
    max_offset: float
    a: Vec3
    min_a: float
    max_a: float
    b: Vec3
    min_b: float
    max_b: float
    c: Vec3
    min_c: float
    max_c: float
    start_scale: float
    final_scale: float
    scale_rand: float
    start_trans: float
    final_trans: float
    trans_rand: float
    is_parent_local: bool

    @classmethod
    def read(cls, r: Reader) -> ParticleEmitterInfo:
        v = r.unpack(_PEI, "ParticleEmitterInfo")
        return cls(v[0], v[1], as_enum(EmitterType, v[2]), as_enum(ParticleType, v[3]),
                   v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12],
                   v[13:16], v[16], v[17], v[18:21], v[21], v[22], v[23:26], v[26], v[27],
                   v[28:31], v[31], v[32], v[33], v[34], v[35], v[36], v[37], v[38],
                   v[39] != 0)

    def write(self, w: Writer) -> None:
        w.pack(_PEI, self.id, self.unknown, int(self.emitter_type), int(self.particle_type),
               self.gfxobj_id, self.hw_gfxobj_id, self.birthrate, self.max_particles,
               self.initial_particles, self.total_particles, self.total_seconds,
               self.lifespan, self.lifespan_rand, *self.offset_dir, self.min_offset,
               self.max_offset, *self.a, self.min_a, self.max_a, *self.b, self.min_b,
               self.max_b, *self.c, self.min_c, self.max_c, self.start_scale,
               self.final_scale, self.scale_rand, self.start_trans, self.final_trans,
               self.trans_rand, 1 if self.is_parent_local else 0)
