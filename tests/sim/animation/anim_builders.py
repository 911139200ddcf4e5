"""Hand-built DAT records for the animation tests (our own data, in retail's layouts)."""

from __future__ import annotations

import math
import struct

from viewer.dat.records.animation import Animation, AnimationFrame
from viewer.dat.records.common import (
    AnimationFlags,
    AnimationHookDir,
    Frame,
    GfxObjFlags,
    MotionDataFlags,
    SetupFlags,
    Sphere,
)
from viewer.dat.records.gfxobj import GfxObj, VertexArray
from viewer.dat.records.hooks import CreateParticleHook, SoundHook, SoundTweakedHook
from viewer.dat.records.motion_table import AnimData, MotionData, MotionTable
from viewer.dat.records.setup import Setup
from viewer.dat.records.sound import Wave

IDENT = Frame()

# Commands (ACE-modern values; identical in retail 2013 below SnowAngelState).
NON_COMBAT = 0x8000003D
READY = 0x41000003
WALK_FORWARD = 0x45000005
LIFESTONE_RECALL = 0x10000153


def zrot(deg: float) -> tuple[float, float, float, float]:
    h = math.radians(deg) / 2.0
    return (math.cos(h), 0.0, 0.0, math.sin(h))


def part_frame(i: int, k: int) -> Frame:
    """Part i at frame k: a distinct, recognisable object-space frame."""
    return Frame((float(i), 0.1 * k, 1.0), zrot(10.0 * k))


def anim(did: int, num_parts: int, num_frames: int, *, pos=None, hooks=None,
         frames=part_frame) -> Animation:
    """``pos``: list of Frames (PosFrames) or None; ``hooks``: {frame: [hook, ...]}."""
    hooks = hooks or {}
    pfs = tuple(AnimationFrame(tuple(frames(i, k) for i in range(num_parts)),
                               tuple(hooks.get(k, ())))
                for k in range(num_frames))
    flags = AnimationFlags(0)
    if pos is not None:
        flags |= AnimationFlags.PosFrames
        pos = tuple(pos)
    if hooks:
        flags |= AnimationFlags.HasHooks
    return Animation(did, flags, num_parts, pos, pfs)


def sound(wave: int, direction=AnimationHookDir.Both) -> SoundHook:
    return SoundHook(direction, wave)


def md(*anims: tuple, velocity=None, omega=None, bitfield: int = 0) -> MotionData:
    flags = MotionDataFlags(0)
    if velocity is not None:
        flags |= MotionDataFlags.HasVelocity
    if omega is not None:
        flags |= MotionDataFlags.HasOmega
    return MotionData(bitfield, flags, tuple(AnimData(*a) for a in anims), velocity, omega)


def key(style: int, motion: int) -> int:
    return ((style << 16) | (motion & 0xFFFFFF)) & 0xFFFFFFFF


def setup(did: int, num_parts: int, *, default_animation: int = 0, motion_table: int = 0,
          placements=None, default_scale=None, holding=()) -> Setup:
    if placements is None:
        placements = ((0x65, AnimationFrame(tuple(Frame((float(i), 0.0, 0.5))
                                                  for i in range(num_parts)))),)
    flags = SetupFlags(0)
    if default_scale is not None:
        flags |= SetupFlags.HasDefaultScale
    return Setup(did, flags, tuple(0x01000000 + i for i in range(num_parts)), None,
                 default_scale, tuple(holding), (), tuple(placements), (), (), 1.8, 0.5, 0.3,
                 0.3, Sphere((0.0, 0.0, 0.9), 1.0), Sphere((0.0, 0.0, 0.9), 1.0), (),
                 default_animation, 0, motion_table, 0, 0)


class DictDB(dict):
    """``get(did)`` over a dict of records (AssetDatabase-shaped)."""

    def __init__(self, *records) -> None:
        super().__init__((r.id, r) for r in records)


# -- the humanoid of issue 6: idle cycle, walk with root motion, recall-like action --------
HUMANOID = 0x02000001
TABLE = 0x09000001
IDLE = 0x03000001
WALK = 0x03000002
IDLE_TO_WALK = 0x03000003
RECALL = 0x030009BF
RECALL_EMITTER = 0x3200078E
PARTS = 4
WALK_STEP = 0.05   # metres per walk PosFrame
RECALL_FPS = 9.96


def humanoid_records() -> DictDB:
    idle = anim(IDLE, PARTS, 8)
    walk = anim(WALK, PARTS, 10, pos=[Frame((0.0, WALK_STEP, 0.0))] * 10)
    link = anim(IDLE_TO_WALK, PARTS, 3)
    recall_hooks = {16: [CreateParticleHook(AnimationHookDir.Forward, RECALL_EMITTER, -1, IDENT,
                                            19),
                         SoundTweakedHook(AnimationHookDir.Forward, 0x0A000001, 1.0, 0.5, 1.0)]}
    for f in (46, 76, 116):
        recall_hooks[f] = [SoundTweakedHook(AnimationHookDir.Forward, 0x0A000001, 1.0, 0.5, 1.0)]
    recall = anim(RECALL, PARTS, 130, hooks=recall_hooks)
    table = MotionTable(
        TABLE, NON_COMBAT, ((NON_COMBAT, READY),),
        ((key(NON_COMBAT, READY), md((IDLE, 0, -1, 30.0))),
         (key(NON_COMBAT, WALK_FORWARD), md((WALK, 0, -1, 30.0), velocity=(0.0, 0.0, 0.0)))),
        (),
        ((key(NON_COMBAT, READY),
          ((WALK_FORWARD, md((IDLE_TO_WALK, 0, -1, 30.0))),
           (LIFESTONE_RECALL, md((RECALL, 0, -1, RECALL_FPS))))),))
    s = setup(HUMANOID, PARTS, motion_table=TABLE)
    # the parts' and the recall emitter's GfxObj, and the recall's Wave: present, empty
    gfx = GfxObj(0x01000001, GfxObjFlags(0), (), VertexArray(1, ()), None, None,
                 (0.0, 0.0, 0.0), None, None, None)
    wave = Wave(0x0A000001, struct.pack("<HHIIHHH", 1, 1, 11025, 11025, 1, 8, 0), b"\x80")
    return DictDB(idle, walk, link, recall, table, s, gfx, wave)
