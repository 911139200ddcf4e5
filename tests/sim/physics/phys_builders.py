"""In-memory projectile records for harness tests (built from the record types; no retail
bytes): the arrow-like Setup (one sphere r 0.10 at the origin), the bolt (sphere at
(0, -0.165, 0.1045) r 0.102), a flame-like table with Launch / Explode / ProjectileCollision
and a per-metre trail emitter."""

from __future__ import annotations

from viewer.dat.records.animation import AnimationFrame
from viewer.dat.records.common import Frame as RFrame
from viewer.dat.records.common import GfxObjFlags, PlayScript, SetupFlags, Sphere
from viewer.dat.records.gfxobj import GfxObj, VertexArray
from viewer.dat.records.hooks import CreateParticleHook
from viewer.dat.records.particle_emitter import ParticleEmitterInfo
from viewer.dat.records.physics_script import (
    PhysicsScript,
    PhysicsScriptData,
    PhysicsScriptTable,
    PhysicsScriptTableData,
    ScriptAndModData,
)
from viewer.dat.records.setup import Setup
from viewer.errors import DatError

GFX = 0x01000001
SETUP_ARROW = 0x02000101
SETUP_BOLT = 0x02000102
TABLE_FLAME = 0x34000101
PES_LAUNCH = 0x33000102
PES_COLLISION = 0x33000107
PES_EXPLODE = 0x33000106
EMIT_TRAIL = 0x32000201   # BirthratePerMeter (emitter type 2)
EMIT_BURST = 0x32000202


class MemoryDB:
    def __init__(self, records):
        self.records = dict(records)

    def get(self, did):
        try:
            return self.records[did]
        except KeyError:
            raise DatError("no such DID in the in-memory database", did=did) from None


def setup(did, spheres):
    return Setup(did, SetupFlags(0), (GFX,), None, None, (), (),
                 ((0x65, AnimationFrame((RFrame((0.0, 0.0, 0.0)),))),), (),
                 tuple(Sphere(c, r) for c, r in spheres), 1.0, 1.0, 0.0, 0.0,
                 Sphere((0, 0, 0), 1.0), Sphere((0, 0, 0), 1.0), (), 0, 0, 0, 0, 0)


def emitter(did, emitter_type, birthrate, initial=0):
    z = (0.0, 0.0, 0.0)
    return ParticleEmitterInfo(did, 0, emitter_type, 1, GFX, GFX, birthrate, 50, initial, 0,
                               0.0, 1.0, 0.0, z, 0.0, 0.0, z, 1.0, 1.0, z, 1.0, 1.0, z, 1.0,
                               1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, False)


def script(did, emitter_did):
    return PhysicsScript.from_hooks(
        did, [PhysicsScriptData(0.0, CreateParticleHook(0, emitter_did, -1, RFrame((0, 0, 0)),
                                                        0))])


def flame_table():
    def entry(did):
        return PhysicsScriptTableData((ScriptAndModData(1.0, did),))
    return PhysicsScriptTable(TABLE_FLAME, (
        (PlayScript.ProjectileCollision, entry(PES_COLLISION)),
        (PlayScript.Launch, entry(PES_LAUNCH)),
        (PlayScript.Explode, entry(PES_EXPLODE)),
    ))


def database():
    return MemoryDB({
        SETUP_ARROW: setup(SETUP_ARROW, [((0.0, 0.0, 0.0), 0.10)]),
        SETUP_BOLT: setup(SETUP_BOLT, [((0.0, -0.165, 0.1045), 0.102)]),
        TABLE_FLAME: flame_table(),
        PES_LAUNCH: script(PES_LAUNCH, EMIT_TRAIL),
        PES_COLLISION: script(PES_COLLISION, EMIT_BURST),
        PES_EXPLODE: script(PES_EXPLODE, EMIT_BURST),
        EMIT_TRAIL: emitter(EMIT_TRAIL, 2, 0.5),      # one particle per 0.5 m flown
        EMIT_BURST: emitter(EMIT_BURST, 1, 0.1, initial=5),
        GFX: GfxObj(GFX, GfxObjFlags(0), (), VertexArray(1, ()), None, None, (0.0, 0.0, 0.0),
                    None, None, None),    # the parts' and particles' GfxObj: present, empty
    })
