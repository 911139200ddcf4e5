"""A tiny coherent asset set built with the real record types (no retail bytes): a textured
box Setup whose DefaultScript creates an emitter of billboarded additive quads."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from viewer.dat import records as R
from viewer.dat.records import AnimationHookDir as Dir
from viewer.dat.records import Frame
from viewer.dat.samples import sample_emitter, sample_setup_minimal
from viewer.synthetic.geometry import MeshBuilder, particle_quad

SETUP = 0x02000100
BOX = 0x01000100
QUAD = 0x01000101
EMITTER = 0x32000100
SCRIPT = 0x33000100


def _checker(w=8, h=8, c0=0xFFE0E0E0, c1=0xFF2050C0) -> bytes:
    yy, xx = np.mgrid[0:h, 0:w]
    return np.where(((xx // 2 + yy // 2) % 2) == 0, c0, c1).astype("<u4").tobytes()


def records() -> dict[int, object]:
    recs: dict[int, object] = {}
    recs[0x06000100] = R.RenderSurface(0x06000100, 6, 8, 8, R.PixelFormat.A8R8G8B8,
                                       _checker(), None)
    recs[0x06000101] = R.RenderSurface(0x06000101, 6, 8, 8, R.PixelFormat.A8R8G8B8,
                                       _checker(c0=0xFFFF9020, c1=0xFF802000), None)
    recs[0x05000100] = R.SurfaceTexture(0x05000100, 0, R.TextureType.Texture2D, (0x06000100,))
    recs[0x05000101] = R.SurfaceTexture(0x05000101, 0, R.TextureType.Texture2D, (0x06000101,))
    recs[0x08000100] = R.Surface(R.SurfaceType.Base1Image, 0x05000100, 0, None, 0.0, 0.0, 1.0)
    recs[0x08000101] = R.Surface(R.SurfaceType(0x10002), 0x05000101, 0, None, 0.0, 1.0, 1.0)
    m = MeshBuilder()
    m.box((0.6, 0.6, 0.6), center=(0.0, 0.0, 0.3))
    recs[BOX] = m.gfxobj(BOX, (0x08000100,))
    recs[0x11000100] = R.GfxObjDegradeInfo(0x11000100, (R.GfxObjInfo(QUAD, 2, 0.0, 50.0, 100.0),))
    recs[QUAD] = particle_quad(QUAD, 0x08000101, size=0.4, degrade=0x11000100)
    recs[EMITTER] = replace(sample_emitter(EMITTER), hw_gfxobj_id=QUAD, gfxobj_id=QUAD,
                            particle_type=R.ParticleType.LocalVelocity, initial_particles=4,
                            birthrate=0.05, a=(0.0, 0.0, 1.0), offset_dir=(0.0, 0.0, 1.0),
                            max_offset=0.4, min_offset=0.2, lifespan=1.0)
    hook = R.CreateParticleHook(Dir.Both, EMITTER, -1, Frame((0.0, 0.0, 0.7)), 1)
    recs[SCRIPT] = R.PhysicsScript.from_hooks(SCRIPT, [R.PhysicsScriptData(0.0, hook)])
    base = sample_setup_minimal(SETUP)
    recs[SETUP] = replace(base, parts=(BOX,),
                          placement_frames=((R.Placement.Default,
                                             R.AnimationFrame((Frame(),), ())),),
                          spheres=(), default_script=SCRIPT, default_motion_table=0,
                          default_sound_table=0, default_script_table=0)
    return recs


def write(path) -> str:
    from viewer.dat.writer import write_dat
    write_dat(path, {did: R.encode(rec) for did, rec in records().items()})
    return str(path)
