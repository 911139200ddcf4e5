"""Tiny scenes shared by the golden-image tests and bench/render.py (hand-built records)."""

from __future__ import annotations

import math

import numpy as np

from tests.render.fakes import (
    FakeDB,
    GfxObjDegradeInfo,
    GfxObjInfo,
    checker_a8r8g8b8,
    cube_gfxobj,
    grid_gfxobj,
    quad_gfxobj,
    solid_surface,
    textured_surface,
)
from viewer.render.camera import Camera
from viewer.render.scene_input import MeshInstance, ParticleArrays, SceneInput, frame_matrix

A8R8G8B8 = 0x15
CUBE = 0x01000001
QUAD = 0x01000002          # XZ quad, no degrade table (mode 1)
QUAD_BB = 0x01000003       # XZ quad with a degrade table: mode 2 billboard
FLOOR = 0x01000004
BACKDROP = 0x01000005
FLOOR_FINE = 0x01000006     # tessellated floor for per-vertex lighting
BLEND_QUADS = {}           # name -> GfxObj DID

BLEND_SURFACES = {
    # name: (surface type, pixel colour ARGB, surface translucency)
    "opaque": (0x2, 0xFFFF8000, 0.0),
    "alpha": (0x2 | 0x100, 0x80FF8000, 0.0),
    "additive": (0x2 | 0x10000, 0xFF804000, 0.0),
    "alpha_additive": (0x2 | 0x100 | 0x10000, 0x80FF8000, 0.0),
    "clipmap": (0x4, None, 0.0),
    "translucent": (0x2, 0xFFFF8000, 0.5),
    "alpha_blue": (0x2 | 0x100, 0x800030FF, 0.0),
}


def build_db() -> FakeDB:
    db = FakeDB()
    textured_surface(db, 0x08000001, 0x06000001, A8R8G8B8, 8, 8, checker_a8r8g8b8())
    db.add(CUBE, cube_gfxobj(CUBE, 0x08000001))
    solid_surface(db, 0x08000002, 0xFF40C0FF, luminosity=1.0)
    db.add(QUAD, quad_gfxobj(QUAD, 0x08000002))
    db.add(0x11000001, GfxObjDegradeInfo(0x11000001, (GfxObjInfo(QUAD_BB, 2, 0.0, 100.0, 1000.0),)))
    db.add(QUAD_BB, quad_gfxobj(QUAD_BB, 0x08000002, degrade=0x11000001))
    solid_surface(db, 0x08000003, 0xFF606060)
    db.add(FLOOR, quad_gfxobj(FLOOR, 0x08000003, plane="xy", size=4.0))
    db.add(FLOOR_FINE, grid_gfxobj(FLOOR_FINE, 0x08000003, size=4.0, n=16))
    solid_surface(db, 0x08000004, 0xFF3050A0, luminosity=1.0)
    db.add(BACKDROP, quad_gfxobj(BACKDROP, 0x08000004, size=3.0))
    for i, (name, (st, argb, trans)) in enumerate(BLEND_SURFACES.items()):
        sdid, rs, gdid = 0x08000100 + i, 0x06000100 + i, 0x01000100 + i
        if argb is None:  # clipmap: checker of alpha 0 / 255
            data = checker_a8r8g8b8(8, 8, 0xFFFF8000, 0x00FF8000)
        else:
            data = np.full(64, argb, "<u4").tobytes()
        textured_surface(db, sdid, rs, A8R8G8B8, 8, 8, data, surface_type=st,
                         translucency=trans, luminosity=1.0)
        db.add(gdid, quad_gfxobj(gdid, sdid, size=1.6))
        BLEND_QUADS[name] = gdid
    return db


def front_camera(distance=4.0, target=(0.0, 0.0, 0.0)) -> Camera:
    """Looking along +Y from -Y (the side XZ quads face)."""
    return Camera(target=target, distance=distance, yaw=math.radians(-90.0), pitch=0.0,
                  fov_y_deg=50.0)


def oblique_camera(distance=4.0, target=(0.0, 0.0, 0.0)) -> Camera:
    return Camera(target=target, distance=distance, yaw=math.radians(-60.0),
                  pitch=math.radians(30.0), fov_y_deg=50.0)


def mesh(did, origin=(0, 0, 0), quat=(1, 0, 0, 0), **kw) -> MeshInstance:
    return MeshInstance(did, frame_matrix(origin, quat), **kw)


def particle_arrays(positions, gfx, *, scales=None, trans=None, emitter_origins=None):
    pos = np.asarray(positions, np.float64).reshape(-1, 3)
    n = len(pos)
    return ParticleArrays(pos, np.tile([1.0, 0, 0, 0], (n, 1)),
                          np.ones(n) if scales is None else np.asarray(scales, float),
                          np.zeros(n) if trans is None else np.asarray(trans, float),
                          np.full(n, gfx, np.uint32), np.zeros(n, np.int32),
                          np.zeros((1, 3)) if emitter_origins is None
                          else np.asarray(emitter_origins, float))


def scene(meshes=(), particles=None, lights=()) -> SceneInput:
    return SceneInput(list(meshes), particles or ParticleArrays.empty(), list(lights))
