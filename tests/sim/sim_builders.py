"""Tiny in-memory records for runtime tests, built from the DAT record types (no retail
bytes): a Setup, PhysicsScripts, PhysicsScriptTables and ParticleEmitterInfos."""

from __future__ import annotations

from viewer.dat.records.animation import AnimationFrame
from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.common import GfxObjFlags, SetupFlags, Sphere
from viewer.dat.records.gfxobj import GfxObj, VertexArray
from viewer.dat.records.hooks import (
    CallPESHook,
    CreateBlockingParticleHook,
    CreateParticleHook,
    DestroyParticleHook,
    StopParticleHook,
)
from viewer.dat.records.particle_emitter import ParticleEmitterInfo
from viewer.dat.records.physics_script import (
    PhysicsScript,
    PhysicsScriptData,
    PhysicsScriptTable,
    PhysicsScriptTableData,
    ScriptAndModData,
)
from viewer.dat.records.setup import LightInfo, Setup
from viewer.dat.records.sound import Wave
from viewer.errors import DatError

GFX = 0x01000001


def gfxobj(did=GFX):
    """An empty GfxObj (no surfaces, no vertices): enough for the runtime, which only
    needs the record to be there (a part's or a particle's GfxObj)."""
    return GfxObj(did, GfxObjFlags(0), (), VertexArray(1, ()), None, None, (0.0, 0.0, 0.0),
                  None, None, None)


def wave(did):
    """A Wave record: 8-bit mono PCM at 11,025 Hz, 0.1 s of silence."""
    import struct
    header = struct.pack("<HHIIHHH", 1, 1, 11025, 11025, 1, 8, 0)
    return Wave(did, header, bytes([128]) * 1103)


class MemoryDB:
    """Anything with a typed ``get(did)``: the runtime's only need of a database. It holds
    the GfxObj ``GFX`` every builder's Setup part and emitter draws unless told otherwise
    (``records`` may replace it, or map it to None to leave it out)."""

    def __init__(self, records: dict | None = None) -> None:
        self.records = {GFX: gfxobj(), **dict(records or {})}
        self.records = {k: v for k, v in self.records.items() if v is not None}

    def add(self, did: int, record) -> int:
        self.records[did] = record
        return did

    def get(self, did: int):
        try:
            return self.records[did]
        except KeyError:
            raise DatError("no such DID in the in-memory database", did=did) from None


def setup(did=0x02000001, parts=1, *, default_script=0, default_script_table=0, lights=0,
          spheres=(), placement=None, default_scale=None):
    frames = placement or [RFrame((float(i), 0.0, 0.0)) for i in range(parts)]
    flags = SetupFlags(SetupFlags.HasDefaultScale if default_scale else 0)
    return Setup(did, flags, tuple([GFX] * parts), None,
                 tuple(default_scale) if default_scale else None, (), (),
                 ((0x65, AnimationFrame(tuple(frames))),), (), tuple(spheres), 1.0, 1.0,
                 0.0, 0.0, Sphere((0, 0, 0), 1.0), Sphere((0, 0, 0), 1.0),
                 tuple(LightInfo(0, RFrame((0.0, 0.0, 1.0)), 0xFFFFFFFF, 1.0, 5.0, 0.0)
                       for _ in range(lights)),
                 0, default_script, 0, 0, default_script_table)


def script(did, *entries):
    """entries: (start_time, hook) in stored order."""
    return PhysicsScript.from_hooks(did, [PhysicsScriptData(float(t), h) for t, h in entries])


def table(did, mapping):
    """mapping: {play_script: [(mod, script_did), ...]} in stored order."""
    return PhysicsScriptTable(did, tuple(
        (k, PhysicsScriptTableData(tuple(ScriptAndModData(float(m), s) for m, s in v)))
        for k, v in mapping.items()))


def emitter_info(did=0x32000001, *, emitter_type=1, particle_type=1, birthrate=0.1,
                 max_particles=10, initial_particles=0, total_particles=0, total_seconds=0.0,
                 lifespan=1.0, lifespan_rand=0.0, offset_dir=(0.0, 0.0, 0.0), min_offset=0.0,
                 max_offset=0.0, a=(0.0, 0.0, 0.0), min_a=1.0, max_a=1.0, b=(0.0, 0.0, 0.0),
                 min_b=1.0, max_b=1.0, c=(0.0, 0.0, 0.0), min_c=1.0, max_c=1.0,
                 start_scale=1.0, final_scale=1.0, scale_rand=0.0, start_trans=0.0,
                 final_trans=0.0, trans_rand=0.0, is_parent_local=False, hw_gfxobj_id=GFX):
    return ParticleEmitterInfo(did, 0, emitter_type, particle_type, GFX, hw_gfxobj_id,
                               birthrate, max_particles, initial_particles, total_particles,
                               total_seconds, lifespan, lifespan_rand, offset_dir, min_offset,
                               max_offset, a, min_a, max_a, b, min_b, max_b, c, min_c, max_c,
                               start_scale, final_scale, scale_rand, start_trans, final_trans,
                               trans_rand, is_parent_local)


def create(info, part=-1, logical=0, offset=(0.0, 0.0, 0.0), blocking=False):
    cls = CreateBlockingParticleHook if blocking else CreateParticleHook
    return cls(0, info, part, RFrame(offset), logical)


def destroy(logical):
    return DestroyParticleHook(0, logical)


def stop(logical):
    return StopParticleHook(0, logical)


def callpes(did, pause):
    return CallPESHook(0, did, pause)


def world(records: dict | None = None, seed: int = 0):
    from viewer.sim.world import World
    w = World(MemoryDB(records), seed=seed)
    w.events = []
    return w


def run_frames(w, frames: int, fps: int = 30, start: int = 1):
    """Tick the world on an fps clock for ``frames`` frames starting at frame ``start``."""
    from fractions import Fraction
    for k in range(start, start + frames):
        w.tick(Fraction(k, fps))
    return start + frames


def events(w, kind: str, **match):
    return [e for e in w.events if e["event"] == kind
            and all(e.get(k) == v for k, v in match.items())]
