"""PhysicsState and TransientState bits (CPhysicsObj::set_state 0x00514DD0)."""

from __future__ import annotations

import enum


class PhysicsState(enum.IntFlag):
    Static = 0x1
    Unused1 = 0x2
    Ethereal = 0x4
    ReportCollisions = 0x8
    IgnoreCollisions = 0x10
    NoDraw = 0x20
    Missile = 0x40
    Pushable = 0x80
    AlignPath = 0x100
    PathClipped = 0x200
    Gravity = 0x400
    Lighting = 0x800
    ParticleEmitter = 0x1000
    Unused2 = 0x2000
    Hidden = 0x4000
    ScriptedCollision = 0x8000
    HasPhysicsBsp = 0x10000
    Inelastic = 0x20000
    HasDefaultAnim = 0x40000
    HasDefaultScript = 0x80000
    Cloaked = 0x100000
    ReportAsEnvironment = 0x200000
    EdgeSlide = 0x400000
    Sledding = 0x800000
    Frozen = 0x1000000


class TransientState(enum.IntFlag):
    Contact = 0x1
    OnWalkable = 0x2
    Sliding = 0x4
    WaterContact = 0x8
    StationaryFall = 0x10
    StationaryStop = 0x20
    StationaryStuck = 0x40
    Active = 0x80


# CPhysicsObj::CPhysicsObj 0x005123F0 (assignment at 0x00512508):
# EdgeSlide | Lighting | Gravity | ReportCollisions; no Hidden.
DEFAULT_STATE = 0x00400C08

# makeParticleObject 0x00512640 ORs Static | ParticleEmitter into the default.
EMITTER_OBJECT_STATE = DEFAULT_STATE | 0x1001


def state_hex(state: int) -> str:
    return f"0x{state & 0xFFFFFFFF:08X}"
