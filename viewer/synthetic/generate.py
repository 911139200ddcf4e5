"""Generate the synthetic asset library: ``python -m viewer.synthetic.generate [OUT_DIR]``.

Writes, deterministically (same bytes on every run and machine):

* ``assets_synthetic/synthetic_portal.dat``: every record of ``viewer.synthetic`` in the
  retail layout, encoded by our record codecs (``viewer.dat.records.encode``) and laid out by
  our DAT writer (``viewer.dat.writer.build_dat``);
* ``assets_synthetic/MANIFEST.md``: every DID, its type, what it exercises, and which tests
  use it (found by scanning ``tests/`` for the constant's name) or which issue will;
* ``assets_synthetic/default.scenario.json``: the scene ``./run`` opens (docs/cli.md section 4);
* ``assets_synthetic/gallery.scenario.json``: a tour of every texture format, particle type
  and hook script.

No retail bytes are involved: textures are drawn by ``textures.py``, meshes, animations and
effects are built here in the layouts the retail UnPack functions read.
"""

from __future__ import annotations

import json
import math
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from viewer import synthetic as S
from viewer.dat.records import (
    Animation,
    AnimationFlags,
    AnimationFrame,
    AnimationHookDir,
    AnimData,
    CylSphere,
    EmitterType,
    GfxObjDegradeInfo,
    GfxObjInfo,
    LightInfo,
    LocationType,
    MotionData,
    MotionDataFlags,
    MotionTable,
    Palette,
    ParentLocation,
    ParticleEmitterInfo,
    ParticleType,
    PhysicsScript,
    PhysicsScriptData,
    PhysicsScriptTable,
    PhysicsScriptTableData,
    PixelFormat,
    Placement,
    PlayScript,
    RenderSurface,
    ScriptAndModData,
    Setup,
    SetupFlags,
    SoundEntry,
    SoundTable,
    SoundTableData,
    Sphere,
    StipplingType,
    Surface,
    SurfaceTexture,
    SurfaceType,
    TextureType,
    Wave,
    encode,
)
from viewer.dat.records import hooks as H
from viewer.dat.writer import build_dat
from viewer.errors import format_did
from viewer.synthetic import textures as T
from viewer.synthetic.geometry import (
    IDENTITY,
    MeshBuilder,
    forward_kinematics,
    frame,
    particle_quad,
    quat_axis,
    quat_rotate,
    r6,
)

BOTH = AnimationHookDir.Both
FORWARD = AnimationHookDir.Forward
BACKWARD = AnimationHookDir.Backward
NO_PART = -1            # part index -1: the object's root frame
ANON = 0                # emitter id 0: an anonymous emitter (auto id from 0xFFFF0000)
NO_SETUP_FLAGS = SetupFlags(0)
CD_FLOAT = struct.unpack("<f", b"\xCD\xCD\xCD\xCD")[0]  # retail's uninitialised cone_angle

# Issues that will use assets no test uses yet (MANIFEST "used by" column).
ISSUE_RUNTIME = "issue 5 (runtime: scripts, tables, emitters, particles)"
ISSUE_SOUND = "issue 20 (sound: waves in each format, the sound table's choice)"
ISSUE_ANIM = "issue 6 (animation: motion tables, sequencer, poses)"
ISSUE_RENDER = "issue 7 (renderer: meshes, textures, particles, lights)"
ISSUE_PROJECTILE = "issue 11 (projectiles: physics, collision, launch harness)"
ISSUE_STRESS = "issue 18 (stress scene: GPU particles, batched emitters)"


@dataclass
class Asset:
    did: int
    name: str
    record: object
    exercises: str
    waiting: str

    @property
    def type_name(self) -> str:
        return type(self.record).__name__


@dataclass
class Library:
    assets: list[Asset] = field(default_factory=list)

    def add(self, name: str, record, exercises: str, waiting: str) -> None:
        did = getattr(S, name) if isinstance(name, str) and hasattr(S, name) else None
        rid = getattr(record, "id", None)
        if did is None:
            did = rid
        if rid is not None and rid != did:
            raise ValueError(f"{name}: record id 0x{rid:08X} differs from 0x{did:08X}")
        self.assets.append(Asset(did, name, record, exercises, waiting))

    def add_did(self, did: int, name: str, record, exercises: str, waiting: str) -> None:
        self.assets.append(Asset(did, name, record, exercises, waiting))


# =============================================================================================
# Textures, palettes, surfaces
# =============================================================================================

def _textures(lib: Library) -> None:
    for shape in S.SHAPES:
        lib.add_did(S.PALETTES_P8[shape], f"PALETTES_P8[{shape!r}]",
                    Palette(S.PALETTES_P8[shape], tuple(T.p8_palette_argb(shape))),
                    f"256-colour palette for the P8 {shape}: colours 0..31 an ARGB ramp "
                    "(alpha = k/31; widened x8 at load, texel v shows colour v // 8)",
                    ISSUE_RENDER)
        lib.add_did(S.PALETTES_INDEX16[shape], f"PALETTES_INDEX16[{shape!r}]",
                    Palette(S.PALETTES_INDEX16[shape], tuple(T.palette_argb(shape, 2048))),
                    f"2048-colour ramp for the INDEX16 {shape} (u16 indices above 255)",
                    ISSUE_RENDER)
    for shape, fmt in S.texture_combinations():
        key = (shape, fmt)
        w, h, data = T.encode(shape, fmt)
        pf = PixelFormat[fmt]
        pal = {"P8": S.PALETTES_P8[shape], "INDEX16": S.PALETTES_INDEX16[shape]}.get(fmt)
        note = {"DXT1": "BC1 blocks in both the 4-colour and the 1-bit-alpha mode",
                "P8": "u8 indices + default_palette_id", "INDEX16": "u16 indices + palette",
                "R8G8B8": "bytes B,G,R (premultiplied)", "A8": "alpha only"}.get(fmt, "")
        size = f"{w}x{h}" + (" (not square)" if w != h else "")
        lib.add_did(S.RENDER_SURFACES[key], f"RENDER_SURFACES[{key!r}]",
                    RenderSurface(S.RENDER_SURFACES[key], 6, w, h, pf, data, pal),
                    f"{shape} {size} {fmt}" + (f": {note}" if note else ""), ISSUE_RENDER)
        lib.add_did(S.SURFACE_TEXTURES[key], f"SURFACE_TEXTURES[{key!r}]",
                    SurfaceTexture(S.SURFACE_TEXTURES[key], 0, TextureType.Texture2D,
                                   (S.RENDER_SURFACES[key],)),
                    f"ImgTex -> {shape} {fmt}", ISSUE_RENDER)
        stype = SurfaceType.Base1Image
        if fmt in ("P8", "INDEX16"):
            stype = SurfaceType.Base1ClipMap
        elif fmt not in ("R8G8B8", "X8R8G8B8", "R5G6B5", "X1R5G5B5", "X4R4G4B4",
                         "X8B8G8R8", "CUSTOM_B8G8R8", "CUSTOM_LSCAPE_R8G8B8"):
            stype |= SurfaceType.Alpha
        lib.add_did(S.GALLERY_SURFACES[key], f"GALLERY_SURFACES[{key!r}]",
                    Surface(stype, S.SURFACE_TEXTURES[key], 0, None, 0.0, 0.0, 1.0),
                    f"{stype.name or int(stype)} surface of the {shape} {fmt} texture",
                    ISSUE_RENDER)
        lib.add_did(S.GALLERY_GFXOBJS[key], f"GALLERY_GFXOBJS[{key!r}]",
                    particle_quad(S.GALLERY_GFXOBJS[key], S.GALLERY_SURFACES[key]),
                    f"XZ quad (no degrade table: mode 1) showing the {shape} {fmt} texture"
                    + (" (its DID packs to the 4-byte PackedDID form)"
                       if S.GALLERY_GFXOBJS[key] - 0x01000000 > 0x3FFF else ""),
                    ISSUE_RENDER)
    spark = S.RENDER_SURFACES[("spark", "A8R8G8B8")]
    lib.add("SURFACE_TEXTURE_REPEATED",
            SurfaceTexture(S.SURFACE_TEXTURE_REPEATED, 0, TextureType.Texture2D, (spark, spark)),
            "source-level list repeating one RenderSurface (as EoR 0x050023BF)", ISSUE_RENDER)


def _surfaces(lib: Library) -> None:
    st = S.SURFACE_TEXTURES
    I, A, AD, TR, LU, CL, IA = (SurfaceType.Base1Image, SurfaceType.Alpha, SurfaceType.Additive,
                                SurfaceType.Translucent, SurfaceType.Luminous,
                                SurfaceType.Base1ClipMap, SurfaceType.InvAlpha)
    image = [
        ("SURFACE_SPARK_ADDITIVE", I | AD, st[("spark", "A8R8G8B8")], 0.0, 0.0,
         "pure Additive (ONE/ONE): material alpha has no effect, particles pop off at t=1"),
        ("SURFACE_GLOW_ALPHA_ADDITIVE", I | A | AD, st[("glow", "DXT5")], 0.0, 0.0,
         "Alpha|Additive (SRCALPHA/ONE) on a DXT5 texture: fades with translucency"),
        ("SURFACE_SMOKE_TRANSLUCENT", I | A | TR, st[("smoke", "DXT3")], 0.35, 0.0,
         "Alpha|Translucent, translucency 0.35, DXT3 texture"),
        ("SURFACE_RING_LUMINOUS", I | LU | AD, st[("ring", "INDEX16")], 0.0, 1.0,
         "Luminous|Additive, luminosity 1, INDEX16 texture with its palette"),
        ("SURFACE_STREAK_CLIPMAP", CL, st[("streak", "P8")], 0.0, 0.0,
         "Base1ClipMap alpha test on a P8 (palettised) non-square texture"),
        ("SURFACE_SPARK_AUTO_TRANSLUCENT", I | A, st[("spark", "A8R8G8B8")], 0.5, 0.0,
         "translucency 0.5 stored WITHOUT the Translucent bit (CSurface::InitEnd sets it)"),
        ("SURFACE_RING_INVALPHA", I | IA, st[("ring", "A8R8G8B8")], 0.0, 0.0,
         "InvAlpha blending (INVSRCALPHA/SRCALPHA)"),
    ]
    for name, t, tex, trans, lum, what in image:
        lib.add_did(getattr(S, name), name, Surface(t, tex, 0, None, trans, lum, 1.0), what,
                    ISSUE_RENDER)
    solid = [
        ("SURFACE_SOLID_SKIN", SurfaceType.Base1Solid, 0xFFD8A47F, 0.0, 0.0, 1.0, "skin"),
        ("SURFACE_SOLID_CLOTH", SurfaceType.Base1Solid, 0xFF2E4C8C, 0.0, 0.0, 1.0, "cloth"),
        ("SURFACE_SOLID_METAL", SurfaceType.Base1Solid, 0xFFA0A4AC, 0.0, 0.0, 0.9, "metal"),
        ("SURFACE_SOLID_WOOD", SurfaceType.Base1Solid, 0xFF6B4423, 0.0, 0.0, 1.0, "wood"),
        ("SURFACE_SOLID_LANTERN_GLASS", SurfaceType.Base1Solid | LU | TR, 0xFFFFD070, 0.3,
         1.0, 1.0, "Base1Solid|Luminous|Translucent glass, translucency 0.3"),
        ("SURFACE_SOLID_BOLT_CORE", SurfaceType.Base1Solid | LU, 0xFFFF8A2A, 0.0, 1.0, 1.0,
         "Base1Solid|Luminous bolt core"),
        ("SURFACE_SOLID_BACK_FACE", SurfaceType.Base1Solid, 0xFFB03030, 0.0, 0.0, 1.0,
         "back-face surface of the double-sided quad (neg_surface)"),
    ]
    for name, t, color, trans, lum, dif, what in solid:
        lib.add_did(getattr(S, name), name, Surface(t, None, None, color, trans, lum, dif),
                    f"solid ARGB 0x{color:08X}: {what}", ISSUE_RENDER)


# =============================================================================================
# Degrade infos and GfxObjs
# =============================================================================================

def _degrade(lib: Library, name: str, levels, what: str) -> int:
    """A GfxObjDegradeInfo: ``levels`` = (gfxobj, mode, min, ideal, max) per entry."""
    did = getattr(S, name)
    lib.add(name, GfxObjDegradeInfo(did, tuple(GfxObjInfo(*lv) for lv in levels)), what,
            ISSUE_RENDER)
    return did


def _degrades(lib: Library) -> None:
    single = [("DEGRADE_QUAD_RING", 1, S.GFX_QUAD_RING),
              ("DEGRADE_QUAD_SPARK", 2, S.GFX_QUAD_SPARK),
              ("DEGRADE_QUAD_SPARK_AXIS_X", 3, S.GFX_QUAD_SPARK_AXIS_X),
              ("DEGRADE_QUAD_SPARK_AXIS_Y", 4, S.GFX_QUAD_SPARK_AXIS_Y),
              ("DEGRADE_QUAD_STREAK", 5, S.GFX_QUAD_STREAK),
              ("DEGRADE_QUAD_GLOW", 2, S.GFX_QUAD_GLOW),
              ("DEGRADE_QUAD_AUTO_TRANSLUCENT", 2, S.GFX_QUAD_AUTO_TRANSLUCENT),
              ("DEGRADE_QUAD_INVALPHA", 2, S.GFX_QUAD_INVALPHA),
              ("DEGRADE_LANTERN_FLAME", 2, S.GFX_LANTERN_FLAME)]
    for name, mode, gfx in single:
        _degrade(lib, name, [(gfx, mode, 0.0, 25.0, 60.0)],
                 f"one level naming the quad itself, degrade_mode {mode}; particle degrade "
                 f"distance = entries[0].max_dist = 60")
    _degrade(lib, "DEGRADE_THREE_LEVELS",
             [(S.GFX_QUAD_SMOKE, 2, 0.0, 10.0, 20.0), (S.GFX_QUAD_SMOKE, 2, 20.0, 30.0, 45.0),
              (S.GFX_QUAD_NO_DEGRADE, 1, 45.0, 60.0, 80.0)],
             "3 levels (the far one a different mesh, mode 1): particle degrade distance = "
             "entries[n-2].max_dist = 45")
    _degrade(lib, "DEGRADE_TWO_LEVELS",
             [(S.GFX_QUAD_TWO_LEVELS, 2, 0.0, 5.0, 12.0),
              (S.GFX_QUAD_TWO_LEVELS, 3, 12.0, 20.0, 30.0)],
             "2 levels (mode 2 near, mode 3 far): particle degrade distance = "
             "entries[0].max_dist = 12")


def _particle_gfxobjs(lib: Library) -> None:
    quads = [
        ("GFX_QUAD_SPARK", S.SURFACE_SPARK_ADDITIVE, 0.5, "xz", S.DEGRADE_QUAD_SPARK,
         "XZ quad, additive spark, mode-2 camera billboard"),
        ("GFX_QUAD_GLOW", S.SURFACE_GLOW_ALPHA_ADDITIVE, 0.5, "xz", S.DEGRADE_QUAD_GLOW,
         "XZ quad, alpha-additive glow, mode-2 billboard"),
        ("GFX_QUAD_SMOKE", S.SURFACE_SMOKE_TRANSLUCENT, 0.6, "xz", S.DEGRADE_THREE_LEVELS,
         "XZ quad, translucent smoke, three degrade levels"),
        ("GFX_QUAD_RING", S.SURFACE_RING_LUMINOUS, 0.5, "xy", S.DEGRADE_QUAD_RING,
         "flat XY quad (faces +Z), luminous ring, degrade_mode 1 (no billboard)"),
        ("GFX_QUAD_STREAK", S.SURFACE_STREAK_CLIPMAP, 0.4, "xz", S.DEGRADE_QUAD_STREAK,
         "XZ quad, clip-mapped streak, axis-Z (cylindrical) billboard"),
        ("GFX_QUAD_SPARK_AXIS_X", S.SURFACE_SPARK_ADDITIVE, 0.4, "xy", S.DEGRADE_QUAD_SPARK_AXIS_X,
         "XY quad, axis-X locked billboard (mode 3 turns local Z to the viewer)"),
        ("GFX_QUAD_SPARK_AXIS_Y", S.SURFACE_SPARK_ADDITIVE, 0.4, "yz", S.DEGRADE_QUAD_SPARK_AXIS_Y,
         "YZ quad, axis-Y locked billboard (mode 4 turns local X to the viewer)"),
        ("GFX_QUAD_NO_DEGRADE", S.SURFACE_GLOW_ALPHA_ADDITIVE, 0.4, "xz", None,
         "no HasDIDDegrade: degrade mode 1 and particle degrade distance 100"),
        ("GFX_QUAD_TWO_LEVELS", S.SURFACE_GLOW_ALPHA_ADDITIVE, 0.4, "xz", S.DEGRADE_TWO_LEVELS,
         "two degrade levels (cull distance 12)"),
        ("GFX_QUAD_AUTO_TRANSLUCENT", S.SURFACE_SPARK_AUTO_TRANSLUCENT, 0.4, "xz",
         S.DEGRADE_QUAD_AUTO_TRANSLUCENT, "surface whose Translucent bit is set only at load"),
        ("GFX_QUAD_INVALPHA", S.SURFACE_RING_INVALPHA, 0.5, "xz", S.DEGRADE_QUAD_INVALPHA,
         "InvAlpha surface"),
    ]
    for name, surf, size, plane, deg, what in quads:
        lib.add(name, particle_quad(getattr(S, name), surf, size=size, plane=plane,
                                    degrade=deg), what, ISSUE_RENDER)

    # Double-sided quad: polygon 0 sides_type 2 (own back surface and neg UVs), polygon 1
    # sides_type 1 (back mirrors front). Two UV sets per vertex.
    m = MeshBuilder()
    h = 0.3
    pts = [(-h, 0.0, -h), (h, 0.0, -h), (h, 0.0, h), (-h, 0.0, h)]
    uvs = [((0.0, 1.0), (1.0, 1.0)), ((1.0, 1.0), (0.0, 1.0)), ((1.0, 0.0), (0.0, 0.0)),
           ((0.0, 0.0), (1.0, 0.0))]
    vids = [m.vertex(p, (0.0, -1.0, 0.0), uv) for p, uv in zip(pts, uvs)]
    m.polygon(vids, surface=0, sides=2, neg_surface=1, neg_uv=(1, 1, 1, 1))
    pts2 = [(p[0] + 0.7, p[1], p[2]) for p in pts]
    vids2 = [m.vertex(p, (0.0, -1.0, 0.0), uv) for p, uv in zip(pts2, uvs)]
    m.polygon(vids2, surface=0, sides=1)
    lib.add("GFX_QUAD_DOUBLE_SIDED",
            m.gfxobj(S.GFX_QUAD_DOUBLE_SIDED,
                     (S.GALLERY_SURFACES[("ring", "A8R8G8B8")], S.SURFACE_SOLID_BACK_FACE),
                     bsp="bpol", plane=(0.0, -1.0, 0.0, 0.0)),
            "sides_type 2 (neg_surface + neg_uv_indices, 2 UV sets, stippling 0) beside "
            "sides_type 1; retail's mesh build keeps the front winding for the neg side, so "
            "it is culled from behind and coplanar with the front (ConstructMesh 0x0059DFA0)",
            ISSUE_RENDER)

    m = MeshBuilder()
    s = 0.12
    a, b, c, d = (s, s, s), (s, -s, -s), (-s, s, -s), (-s, -s, s)
    m.triangles([(a, b, c), (a, d, b), (a, c, d), (b, d, c)],
                stippling=StipplingType.NoPos | StipplingType.NoNeg)
    lib.add("GFX_SHARD", m.gfxobj(S.GFX_SHARD, (S.SURFACE_SOLID_BOLT_CORE,)),
            "tetrahedron particle mesh: stippling NoPos|NoNeg, vertices with no UVs, solid "
            "surface",
            ISSUE_RENDER)
    m = MeshBuilder()
    m.box((0.1, 0.1, 0.1), surface=0)
    lib.add("GFX_CUBE_SMALL",
            m.gfxobj(S.GFX_CUBE_SMALL, (S.GALLERY_SURFACES[("smoke", "R8G8B8")],)),
            "textured 0.1 m cube particle mesh (rotating particle types)", ISSUE_RENDER)


# Humanoid joints: rest positions (object space, Z up, facing +Y), parents, part meshes.
HUMANOID_REST = [(0.0, 0.0, 0.95), (0.0, 0.0, 1.03), (0.0, 0.0, 1.50), (-0.24, 0.0, 1.44),
                 (-0.24, 0.0, 1.14), (0.24, 0.0, 1.44), (0.24, 0.0, 1.14), (-0.1, 0.0, 0.90),
                 (-0.1, 0.0, 0.46), (0.1, 0.0, 0.90), (0.1, 0.0, 0.46)]
HUMANOID_PARENTS = [-1, 0, 1, 1, 3, 1, 5, 0, 7, 0, 9]
HUMANOID_PART_GFX = [S.GFX_HUMANOID_PELVIS, S.GFX_HUMANOID_TORSO, S.GFX_HUMANOID_HEAD,
                     S.GFX_HUMANOID_UPPER_ARM, S.GFX_HUMANOID_FOREARM,
                     S.GFX_HUMANOID_UPPER_ARM, S.GFX_HUMANOID_FOREARM, S.GFX_HUMANOID_THIGH,
                     S.GFX_HUMANOID_SHIN, S.GFX_HUMANOID_THIGH, S.GFX_HUMANOID_SHIN]


def _object_gfxobjs(lib: Library) -> None:
    parts = [
        ("GFX_HUMANOID_PELVIS", (0.32, 0.18, 0.16), (0.0, 0.0, 0.0), S.SURFACE_SOLID_CLOTH),
        ("GFX_HUMANOID_TORSO", (0.38, 0.22, 0.44), (0.0, 0.0, 0.22), S.SURFACE_SOLID_CLOTH),
        ("GFX_HUMANOID_HEAD", (0.20, 0.22, 0.24), (0.0, 0.0, 0.13), S.SURFACE_SOLID_SKIN),
        ("GFX_HUMANOID_UPPER_ARM", (0.10, 0.10, 0.30), (0.0, 0.0, -0.15),
         S.SURFACE_SOLID_CLOTH),
        ("GFX_HUMANOID_FOREARM", (0.09, 0.09, 0.30), (0.0, 0.0, -0.15), S.SURFACE_SOLID_SKIN),
        ("GFX_HUMANOID_THIGH", (0.13, 0.13, 0.44), (0.0, 0.0, -0.22), S.SURFACE_SOLID_CLOTH),
        ("GFX_HUMANOID_SHIN", (0.11, 0.11, 0.44), (0.0, 0.0, -0.22), S.SURFACE_SOLID_WOOD),
    ]
    for name, size, center, surf in parts:
        m = MeshBuilder()
        m.box(size, center)
        lib.add(name, m.gfxobj(getattr(S, name), (surf,)),
                f"humanoid part box {size[0]}x{size[1]}x{size[2]} m about its joint",
                ISSUE_RENDER)

    m = MeshBuilder()
    m.box((0.02, 0.8, 0.02), (0.0, 0.0, 0.0), surface=0)
    m.box((0.05, 0.12, 0.05), (0.0, 0.46, 0.0), surface=1)
    lib.add("GFX_ARROW", m.gfxobj(S.GFX_ARROW, (S.SURFACE_SOLID_WOOD, S.SURFACE_SOLID_METAL)),
            "arrow: 0.8 m shaft along +Y and a metal head (two surfaces)", ISSUE_PROJECTILE)

    m = MeshBuilder()
    r = 0.12
    px, nx, py, ny, pz, nz = (r, 0, 0), (-r, 0, 0), (0, r, 0), (0, -r, 0), (0, 0, r), (0, 0, -r)
    tris = [(px, py, pz), (py, nx, pz), (nx, ny, pz), (ny, px, pz),
            (py, px, nz), (nx, py, nz), (ny, nx, nz), (px, ny, nz)]
    m.triangles([tuple(tuple(float(c) for c in p) for p in t) for t in tris])
    lib.add("GFX_BOLT", m.gfxobj(S.GFX_BOLT, (S.SURFACE_SOLID_BOLT_CORE,)),
            "luminous octahedron (flat-shaded triangles)", ISSUE_PROJECTILE)

    m = MeshBuilder()
    m.box((0.22, 0.22, 0.03), (0.0, 0.0, -0.36), surface=0)       # base
    m.box((0.22, 0.22, 0.03), (0.0, 0.0, -0.02), surface=0)       # lid
    m.box((0.16, 0.16, 0.30), (0.0, 0.0, -0.19), surface=1)       # glass
    lib.add("GFX_LANTERN_BODY",
            m.gfxobj(S.GFX_LANTERN_BODY, (S.SURFACE_SOLID_WOOD, S.SURFACE_SOLID_LANTERN_GLASS),
                     physics=True),
            "lantern body hanging below its pivot; HasPhysics: physics polygons (stippling "
            "NoUVs) and a physics LEAF BSP", ISSUE_RENDER)
    lib.add("GFX_LANTERN_FLAME",
            particle_quad(S.GFX_LANTERN_FLAME, S.SURFACE_GLOW_ALPHA_ADDITIVE, size=0.25,
                          degrade=S.DEGRADE_LANTERN_FLAME),
            "billboard Setup part (degrade_mode 2 applies to parts too)", ISSUE_RENDER)
    m = MeshBuilder()
    m.box((0.12, 0.12, 0.12), (0.0, 0.0, 0.06), surface=0)
    lib.add("GFX_MARKER", m.gfxobj(S.GFX_MARKER, (S.SURFACE_SOLID_METAL,)),
            "small cube marking an emitter host", ISSUE_RUNTIME)
    m = MeshBuilder()
    m.box((0.1, 0.1, 1.9), (0.0, 0.0, 0.95), surface=0)           # post
    m.box((0.06, 0.6, 0.06), (0.0, 0.3, 1.85), surface=0)         # arm along +Y
    m.box((0.5, 0.5, 0.05), (0.0, 0.0, 0.025), surface=0)         # foot
    lib.add("GFX_RACK", m.gfxobj(S.GFX_RACK, (S.SURFACE_SOLID_WOOD,)),
            "post with an arm: lantern post and attachment rack", ISSUE_RENDER)
    m = MeshBuilder()
    m.face([(-1.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 0.0, 2.0), (-1.0, 0.0, 2.0)],
           (0.0, -1.0, 0.0), sides=1,
           uvs=((0.0, 2.0), (2.0, 2.0), (2.0, 0.0), (0.0, 0.0)))
    lib.add("GFX_SCROLL_PLANE",
            m.gfxobj(S.GFX_SCROLL_PLANE, (S.GALLERY_SURFACES[("smoke", "A8R8G8B8")],),
                     bsp="bpol", plane=(0.0, -1.0, 0.0, 0.0)),
            "2x2 m plane with UVs 0..2 for TextureVelocity; stippling NoNeg like every "
            "single-sided synthetic polygon (stippling > 0: WRAP texture addressing, so the "
            "UVs tile and scroll)", ISSUE_RENDER)


# =============================================================================================
# Setups
# =============================================================================================

def placement_record(n: int, frames=None):
    """The AnimationFrame of a placement: ``frames``, else ``n`` identity frames."""
    return AnimationFrame(tuple(frames) if frames else tuple(frame() for _ in range(n)))


def setup_record(did, parts, *, flags=NO_SETUP_FLAGS, parent_index=None, default_scale=None,
                 holding=(), connection=(), placements=None, cylspheres=(), spheres=(),
                 height=0.0, radius=0.0, step=(0.0, 0.0), sorting=((0.0, 0.0, 0.0), 0.5),
                 selection=None, lights=(), anim=0, script=0, mtable=0, stable=0, ptable=0):
    """A Setup record (its placement frames default to identity per part); the stand's
    Setups (viewer.synthetic.stand) are made with it too."""
    placements = placements or ((Placement.Default, placement_record(len(parts))),)
    selection = selection or sorting
    return Setup(did, flags, tuple(parts), parent_index, default_scale, tuple(holding),
                 tuple(connection), tuple(placements), tuple(cylspheres), tuple(spheres),
                 height, radius, step[0], step[1], Sphere(r6(sorting[0]), sorting[1]),
                 Sphere(r6(selection[0]), selection[1]), tuple(lights), anim, script, mtable,
                 stable, ptable)


def _setups(lib: Library) -> None:
    lib.add("SETUP_ARROW", setup_record(S.SETUP_ARROW, [S.GFX_ARROW],
                                        spheres=[Sphere((0.0, 0.0, 0.0), 0.10)], height=0.2,
                                        radius=0.1, sorting=((0.0, 0.0, 0.0), 0.5),
                                        ptable=S.PST_ARROW, stable=S.STABLE_HUMANOID),
            "arrow-like projectile: exactly one sphere, radius 0.10 at the origin "
            "(as retail's); PhysicsScriptTable PST_ARROW; SoundTable STABLE_HUMANOID "
            "(its Launch / Explode sounds)", ISSUE_PROJECTILE)
    bolt_light = LightInfo(0, frame((0.0, 0.0, 0.0)), 0xFFFF8A30, 1.0, 3.0, 0.0)
    lib.add("SETUP_BOLT", setup_record(S.SETUP_BOLT, [S.GFX_BOLT],
                                       spheres=[Sphere((0.0, -0.165, 0.1045), 0.102)], height=0.25,
                                       radius=0.12, lights=[bolt_light], script=S.PES_BOLT_DEFAULT,
                                       ptable=S.PST_FLAME, stable=S.STABLE_HUMANOID),
            "bolt: one OFFSET sphere (0, -0.165, 0.1045) r 0.102 (Force Bolt shape); a point "
            "light for SetLight; DefaultScript PES_BOLT_DEFAULT; table PST_FLAME; SoundTable "
            "STABLE_HUMANOID",
            ISSUE_PROJECTILE)

    rest = forward_kinematics(HUMANOID_REST, HUMANOID_PARENTS, [IDENTITY] * 11)
    rot = [IDENTITY] * 11
    rot[2] = quat_axis((0, 0, 1), 10.0)                 # Resting: head turned 10 degrees
    resting = forward_kinematics(HUMANOID_REST, HUMANOID_PARENTS, rot)
    lib.add("SETUP_HUMANOID", setup_record(
        S.SETUP_HUMANOID, HUMANOID_PART_GFX,
        flags=SetupFlags.HasParent | SetupFlags.AllowFreeHeading,
        parent_index=[p & 0xFFFFFFFF for p in HUMANOID_PARENTS],
        holding=[(ParentLocation.RightHand, LocationType(6, frame((0.0, 0.0, -0.3)))),
                 (ParentLocation.LeftHand, LocationType(4, frame((0.0, 0.0, -0.3)))),
                 (ParentLocation.Shield, LocationType(4, frame((-0.05, 0.0, -0.15),
                                                               quat_axis((0, 0, 1), 90))))],
        placements=[(Placement.Default, AnimationFrame(rest)),
                    (Placement.Resting, AnimationFrame(resting))],
        cylspheres=[CylSphere((0.0, 0.0, 0.0), 0.35, 1.8)],
        spheres=[Sphere((0.0, 0.0, 0.5), 0.35), Sphere((0.0, 0.0, 1.3), 0.35)],
        height=1.8, radius=0.35, step=(0.4, 0.4), sorting=((0.0, 0.0, 0.9), 1.0),
        selection=((0.0, 0.0, 0.9), 0.95), mtable=S.MTABLE_HUMANOID, stable=S.STABLE_HUMANOID,
        ptable=S.PST_HUMANOID),
        "11-part humanoid: parent_index (HasParent), AllowFreeHeading, holding locations, "
        "placements Default and Resting (0x65 wins; head turned 10 deg), cylsphere + 2 "
        "spheres, motion table, sound table, PST_HUMANOID", ISSUE_ANIM)

    lantern_light = LightInfo(0, frame((0.0, 0.6, 1.61)), 0xFFFFB060, 1.2, 5.0, CD_FLOAT)
    pivot = (0.0, 0.6, 1.8)
    lib.add("SETUP_LANTERN", setup_record(
        S.SETUP_LANTERN, [S.GFX_RACK, S.GFX_LANTERN_BODY, S.GFX_LANTERN_FLAME],
        flags=SetupFlags.HasDefaultScale,
        default_scale=[(1.0, 1.0, 1.0), (1.0, 1.0, 1.0), (0.8, 0.8, 0.8)],
        placements=[(Placement.Default, placement_record(3, [
            frame(), frame(pivot), frame((pivot[0], pivot[1], pivot[2] - 0.19))]))],
        cylspheres=[CylSphere((0.0, 0.0, 0.0), 0.12, 1.9)], height=1.9, radius=0.3,
        sorting=((0.0, 0.3, 1.0), 1.2), lights=[lantern_light], anim=S.ANIM_LANTERN_SWING,
        script=S.PES_LANTERN_DEFAULT),
        "static lantern: Setup light (point; cone_angle = 0xCDCDCDCD garbage as in retail), "
        "DefaultScript PES_LANTERN_DEFAULT, DefaultAnimation ANIM_LANTERN_SWING, "
        "HasDefaultScale (flame part 0.8)", ISSUE_RUNTIME)

    lib.add("SETUP_ATTACH_POINTS", setup_record(
        S.SETUP_ATTACH_POINTS, [S.GFX_RACK, S.GFX_MARKER],
        flags=SetupFlags.HasParent, parent_index=[0xFFFFFFFF, 0],
        holding=[(ParentLocation.RightHand, LocationType(0, frame((0.0, 0.6, 1.7)))),
                 (ParentLocation.LeftHand, LocationType(0, frame((0.0, 0.3, 1.7),
                                                                  quat_axis((1, 0, 0), 90)))),
                 (ParentLocation.Belt, LocationType(0, frame((0.0, 0.0, 1.0)))),
                 (ParentLocation.Quiver, LocationType(1, frame((0.0, 0.0, 0.12))))],
        connection=[(ParentLocation.Heraldry, LocationType(0, frame((0.06, 0.0, 1.4)))),
                    (ParentLocation.Mouth, LocationType(1, frame()))],
        placements=[(Placement.Default, placement_record(2, [frame(), frame((0.0, 0.0, 0.05))]))],
        height=1.9, radius=0.3, sorting=((0.0, 0.3, 1.0), 1.2)),
        "children attachment points: 4 holding locations (one on part 1, one rotated) and 2 "
        "connection points", ISSUE_RUNTIME)
    combos = S.texture_combinations()
    frames = []
    for shape, fmt in combos:
        if fmt in S.MAIN_FORMATS:
            row, col = S.SHAPES.index(shape), S.MAIN_FORMATS.index(fmt)
        else:
            k = S.EXTRA_FORMATS.index(fmt)
            row, col = len(S.SHAPES) + k // 8, k % 8
        frames.append(frame(((col - 3.5) * 0.6, 0.0, 4.6 - row * 0.6)))
    lib.add("SETUP_TEXTURE_GALLERY", setup_record(
        S.SETUP_TEXTURE_GALLERY, [S.GALLERY_GFXOBJS[k] for k in combos],
        placements=[(Placement.Default, AnimationFrame(tuple(frames)))], height=5.0,
        radius=2.5, sorting=((0.0, 0.0, 2.5), 3.5)),
        f"{len(combos)} parts, one XZ quad per (shape, pixel format): rows spark, glow, smoke, "
        "ring, streak x the 8 main formats, then the glow in every further format",
        ISSUE_RENDER)
    lib.add("SETUP_MARKER", setup_record(S.SETUP_MARKER, [S.GFX_MARKER],
                                         sorting=((0, 0, 0.06), 0.2)),
            "one small part, no spheres (no collision sweep): host for emitter tests",
            ISSUE_RUNTIME)
    lib.add("SETUP_NULL_HOOKS", setup_record(S.SETUP_NULL_HOOKS, [S.GFX_MARKER],
                                             sorting=((0, 0, 0.06), 0.2), anim=S.ANIM_NULL_HOOKS),
            "one part, DefaultAnimation ANIM_NULL_HOOKS (stored NULL hooks in its frames)",
            ISSUE_ANIM)
    lib.add("SETUP_SCROLL_PLANE", setup_record(S.SETUP_SCROLL_PLANE, [S.GFX_SCROLL_PLANE],
                                               sorting=((0, 0, 1), 1.5)),
            "target of TextureVelocity (PES_TEXTURE_VELOCITY)", ISSUE_RUNTIME)


# =============================================================================================
# Animations and the motion table
# =============================================================================================

def _pose(angles: dict[int, tuple], root=(0.0, 0.0, 0.0)):
    rot = [IDENTITY] * 11
    for part, (axis, deg) in angles.items():
        rot[part] = quat_axis(axis, deg)
    return forward_kinematics(HUMANOID_REST, HUMANOID_PARENTS, rot, root)


X = (1.0, 0.0, 0.0)
Y = (0.0, 1.0, 0.0)
Z = (0.0, 0.0, 1.0)


def _tri(k: int, n: int) -> float:
    """A triangle wave in [-1, 1] with period n frames (exact in binary floats for n=4m)."""
    p = (k % n) / n
    return 4 * p - 1 if p < 0.5 else 3 - 4 * p


def _animations(lib: Library) -> None:
    idle = []
    for k in range(12):
        s = _tri(k, 12)
        idle.append(AnimationFrame(_pose({3: (Y, 4 + 2 * s), 5: (Y, -4 - 2 * s),
                                          2: (X, 2 * s)}, (0.0, 0.0, 0.005 * s))))
    lib.add("ANIM_HUMANOID_IDLE",
            Animation(S.ANIM_HUMANOID_IDLE, AnimationFlags(0), 11, None, tuple(idle)),
            "12-frame idle cycle (breathing bob, arm sway), no PosFrames, no hooks", ISSUE_ANIM)

    walk, pos = [], []
    for k in range(16):
        s = _tri(k + 4, 16)          # +-1, legs opposite
        walk.append(AnimationFrame(_pose({7: (X, 25 * s), 8: (X, -20 * max(0.0, -s)),
                                          9: (X, -25 * s), 10: (X, -20 * max(0.0, s)),
                                          3: (X, -20 * s), 5: (X, 20 * s),
                                          4: (X, 15), 6: (X, 15)})))
        pos.append(frame((0.0, 0.075, 0.0)))
    lib.add("ANIM_HUMANOID_WALK",
            Animation(S.ANIM_HUMANOID_WALK, AnimationFlags.PosFrames, 11, tuple(pos),
                      tuple(walk)),
            "16-frame walk cycle with PosFrames: root motion +0.075 m along +Y per frame "
            "(1.2 m per cycle)", ISSUE_ANIM)

    link = []
    for k in range(4):
        f = (k + 1) / 4
        link.append(AnimationFrame(_pose({7: (X, -25 * f), 9: (X, 25 * f), 3: (X, 20 * f),
                                          5: (X, -20 * f), 4: (X, 15 * f), 6: (X, 15 * f)})))
    lib.add("ANIM_HUMANOID_READY_TO_WALK",
            Animation(S.ANIM_HUMANOID_READY_TO_WALK, AnimationFlags(0), 11, None, tuple(link)),
            "4-frame link Ready -> WalkForward (played backwards, framerate < 0, for the "
            "reverse link)", ISSUE_ANIM)

    recall = []
    for k in range(48):
        if k <= 14:
            up = k / 14
        elif k <= 40:
            up = 1.0
        else:
            up = (47 - k) / 7
        wob = _tri(k, 8) * 6 if 16 <= k <= 40 else 0.0
        hooks: list = []
        if k == S.RECALL_EMITTER_FRAME:
            hooks.append(H.CreateParticleHook(BOTH, S.EMIT_RECALL, NO_PART, frame(),
                                              S.RECALL_EMITTER_LOGICAL_ID))
            hooks.append(H.SoundTweakedHook(FORWARD, S.WAVE_CHIME, 1.0, 0.9, 0.8))
        if k in S.RECALL_SOUND_FRAMES[:2]:   # the second plays the MP3 Wave
            wave = S.WAVE_CHIME if k == S.RECALL_SOUND_FRAMES[0] else S.WAVE_TONE_MP3
            hooks.append(H.SoundTweakedHook(FORWARD, wave, 0.75, 0.9, 0.6))
        if k == S.RECALL_SOUND_FRAMES[2]:
            hooks.append(H.SoundTableHook(FORWARD, S.SOUND_TYPE_RECALL))
        recall.append(AnimationFrame(
            _pose({3: (Y, 150 * up + wob), 5: (Y, -150 * up - wob), 4: (Y, 20 * up),
                   6: (Y, -20 * up), 2: (X, 15 * up)}), tuple(hooks)))
    lib.add("ANIM_HUMANOID_RECALL",
            Animation(S.ANIM_HUMANOID_RECALL, AnimationFlags.HasHooks, 11, None, tuple(recall)),
            "48-frame recall-like action (9.96 fps in the motion table): frame 16 "
            "CreateParticle EMIT_RECALL on part -1, logical id 19, zero offset (as "
            "retail's) + SoundTweaked; SoundTweaked at 24 and 32; SoundTable at 40", ISSUE_ANIM)

    rest = _pose({})
    dirs = [(), (H.NoOpHook(BOTH),), (H.SoundTableHook(FORWARD, S.SOUND_TYPE_LAUNCH),),
            (H.SoundTableHook(BACKWARD, S.SOUND_TYPE_EXPLODE),),
            (H.CreateParticleHook(BOTH, S.EMIT_COLLISION_FLASH, 2, frame((0.0, 0.0, 0.3)), 3),
             H.CreateParticleHook(FORWARD, S.EMIT_EXPLODE_RING, NO_PART, frame(), 4),
             H.CreateParticleHook(BACKWARD, S.EMIT_EXPLODE_SPARKS, NO_PART, frame(), 5)),
            (H.SoundHook(AnimationHookDir.Unknown, S.WAVE_BOOM),), ()]
    lib.add("ANIM_HOOK_DIRECTIONS", Animation(
        S.ANIM_HOOK_DIRECTIONS, AnimationFlags.HasHooks, 11, None,
        tuple(AnimationFrame(rest, hooks) for hooks in dirs)),
        "hooks per direction: Both / Forward / Backward / Unknown (-2: never fires); "
        "several hooks in one frame keep file order", ISSUE_ANIM)

    lib.add("ANIM_NULL_HOOKS", Animation(
        S.ANIM_NULL_HOOKS, AnimationFlags.HasHooks, 1, None, (
            AnimationFrame((frame(),), ()),
            AnimationFrame((frame(),), (
                H.SoundHook(BOTH, S.WAVE_CHIME), H.NullHook(BOTH, 4),
                H.NullHook(FORWARD, S.UNKNOWN_HOOK_TYPE),
                H.SoundTableHook(BOTH, S.SOUND_TYPE_LAUNCH))),
            AnimationFrame((frame(),), (H.NullHook(BOTH, 4),)),
            AnimationFrame((frame(),), ()))),
        "stored AnimationDone (4) and unknown-type hooks in frames 1 and 2: retail adds "
        "nothing for them, so only the Sound and SoundTable of frame 1 ever run "
        "(runtime hook indices 0 and 1)", ISSUE_ANIM)

    swing, pivot = [], (0.0, 0.6, 1.8)
    for k in range(20):
        q = quat_axis(Y, 8.0 * _tri(k + 5, 20))
        off = quat_rotate(q, (0.0, 0.0, -0.19))
        swing.append(AnimationFrame((frame(), frame(pivot, q),
                                     frame((pivot[0] + off[0], pivot[1] + off[1],
                                            pivot[2] + off[2]), q))))
    lib.add("ANIM_LANTERN_SWING",
            Animation(S.ANIM_LANTERN_SWING, AnimationFlags(0), 3, None, tuple(swing)),
            "lantern DefaultAnimation (framerate 30 by default): body and flame swing 8 deg",
            ISSUE_ANIM)


def motion_key(style: int, motion: int) -> int:
    """(style << 16) | (motion & 0xFFFFFF) in u32 arithmetic (CMotionTable::UnPack 0x005238C0)."""
    return ((style << 16) | (motion & 0xFFFFFF)) & 0xFFFFFFFF


def _md(*anims, velocity=None, omega=None, bitfield=0) -> MotionData:
    flags = MotionDataFlags(0)
    if velocity is not None:
        flags |= MotionDataFlags.HasVelocity
    if omega is not None:
        flags |= MotionDataFlags.HasOmega
    return MotionData(bitfield, flags, tuple(AnimData(*a) for a in anims), velocity, omega)


def _motion_table(lib: Library) -> None:
    nc = S.STYLE_NON_COMBAT
    mt = MotionTable(
        S.MTABLE_HUMANOID, nc, ((nc, S.MOTION_READY),),
        ((motion_key(nc, S.MOTION_READY), _md((S.ANIM_HUMANOID_IDLE, 0, -1, 10.0))),
         (motion_key(nc, S.MOTION_WALK_FORWARD), _md((S.ANIM_HUMANOID_WALK, 0, -1, 16.0)))),
        ((motion_key(nc, S.MOTION_TURN_RIGHT), _md(omega=(0.0, 0.0, -1.5))),),
        ((motion_key(nc, S.MOTION_READY),
          ((S.MOTION_WALK_FORWARD, _md((S.ANIM_HUMANOID_READY_TO_WALK, 0, -1, 12.0))),
           (S.MOTION_RECALL, _md((S.ANIM_HUMANOID_RECALL, 0, -1, S.RECALL_FRAMERATE))))),
         (motion_key(nc, S.MOTION_WALK_FORWARD),
          ((S.MOTION_READY, _md((S.ANIM_HUMANOID_READY_TO_WALK, 0, -1, -12.0))),))))
    lib.add("MTABLE_HUMANOID", mt,
            "NonCombat style, default Ready; cycles Ready (idle, 10 fps) and WalkForward "
            "(16 fps); modifier TurnRight (HasOmega, no anims); links Ready->WalkForward, "
            "Ready->Recall 0x10000153 (9.96 fps), WalkForward->Ready (framerate -12)",
            ISSUE_ANIM)


# =============================================================================================
# Sounds
# =============================================================================================

def _wave_bytes(period: int, samples: int, decay: int) -> bytes:
    """8-bit unsigned PCM: an integer triangle wave with an integer linear decay."""
    out = bytearray()
    for i in range(samples):
        p = i % period
        tri = (4 * p - period) if 2 * p < period else (3 * period - 4 * p)   # -period..period
        amp = max(0, 100 * (samples - i * decay // 4) // samples)
        out.append(128 + tri * amp // period)
    return bytes(out)


WAVEFORMATEX_PCM8 = struct.pack("<HHIIHHH", 1, 1, 8000, 8000, 1, 8, 0)   # 18 bytes


def _sounds(lib: Library) -> None:
    for name, period, n, decay, what in (("WAVE_CHIME", 10, 1600, 4, "0.2 s chime"),
                                         ("WAVE_WHOOSH", 37, 1200, 4, "0.15 s whoosh"),
                                         ("WAVE_BOOM", 80, 2400, 4, "0.3 s boom")):
        lib.add(name, Wave(getattr(S, name), WAVEFORMATEX_PCM8, _wave_bytes(period, n, decay)),
                f"{what}: 18-byte WAVEFORMATEX (PCM 8 kHz 8-bit mono) + data", ISSUE_RUNTIME)
    from viewer.synthetic import audio
    for name, tag, bits, seconds, freq in S.WAVE_FORMS:
        rate = S.SOUND_SAMPLE_RATE
        samples = audio.source(rate, seconds, freq)
        lib.add(name, Wave(getattr(S, name), *audio.encode(samples, rate, tag, bits)),
                f"{seconds} s {'tone' if freq else 'click'}, WAVEFORMATEX tag 0x{tag:04X} "
                f"at {S.SOUND_SAMPLE_RATE} Hz mono", ISSUE_SOUND)
    # GetSound 0x00550680 picks index trunc((n - 1) * roll): with three entries the first
    # two are chosen half the time each and the third never (kept: retail's dead entry)
    root = SoundTableData(0, (SoundEntry(0, 0.0, 1.0, 1.0),), (
        SoundTableData(S.SOUND_TYPE_LAUNCH, (SoundEntry(S.WAVE_WHOOSH, 0.5, 1.0, 0.8),
                                             SoundEntry(S.WAVE_TONE_IMA, 0.5, 1.0, 0.6),
                                             SoundEntry(S.WAVE_TONE_PCM16, 0.5, 1.0, 1.0)),
                       ()),
        SoundTableData(S.SOUND_TYPE_EXPLODE, (SoundEntry(S.WAVE_BOOM, 0.6, 1.0, 1.0),
                                              SoundEntry(S.WAVE_CLICK_ADPCM, 0.6, 0.5, 1.0),
                                              SoundEntry(S.WAVE_TONE_MP3, 0.6, 1.0, 1.0)),
                       ()),
        SoundTableData(S.SOUND_TYPE_RECALL, (SoundEntry(S.WAVE_CHIME, 0.5, 0.6, 1.0),
                                             SoundEntry(S.WAVE_WHOOSH, 0.5, 0.4, 0.7)), ())))
    lib.add("STABLE_HUMANOID", SoundTable(S.STABLE_HUMANOID, root),
            "EoR-shaped recursive SoundTable: root key 0 with one empty entry; children "
            "Launch/Explode (three entries each, the third never chosen) and Recall (two: "
            "always the first, played with probability 0.6) sound types", ISSUE_SOUND)


# =============================================================================================
# Emitters
# =============================================================================================

def _kw(**kw) -> dict:
    """Keyword arguments as a dict (reads like the ParticleEmitterInfo fields they set)."""
    return kw


def _with(base: dict, **kw) -> dict:
    return {**base, **kw}


def pei(did: int, **kw) -> ParticleEmitterInfo:
    """A ParticleEmitterInfo with the constructor defaults (all zero except
    min/max of A, B, C = 1 and start/final scale = 1), overridden by ``kw``."""
    base = _kw(id=did, unknown=0, emitter_type=EmitterType.BirthratePerSec,
                particle_type=ParticleType.Still, gfxobj_id=0, hw_gfxobj_id=0, birthrate=0.1,
                max_particles=10, initial_particles=0, total_particles=0, total_seconds=0.0,
                lifespan=1.0, lifespan_rand=0.0, offset_dir=(0.0, 0.0, 0.0), min_offset=0.0,
                max_offset=0.0, a=(0.0, 0.0, 0.0), min_a=1.0, max_a=1.0, b=(0.0, 0.0, 0.0),
                min_b=1.0, max_b=1.0, c=(0.0, 0.0, 0.0), min_c=1.0, max_c=1.0,
                start_scale=1.0, final_scale=1.0, scale_rand=0.0, start_trans=0.0,
                final_trans=0.0, trans_rand=0.0, is_parent_local=False)
    gfx = kw.pop("gfx", None)
    if gfx is not None:
        base["gfxobj_id"] = base["hw_gfxobj_id"] = gfx
    base.update(kw)
    for k in ("offset_dir", "a", "b", "c"):
        base[k] = tuple(float(x) for x in base[k])
    return ParticleEmitterInfo(**base)


PT = ParticleType

_GALLERY = {
    1: _kw(gfx=S.GFX_QUAD_SPARK, offset_dir=(0, 0, 1), min_offset=0.1, max_offset=0.4,
            start_scale=0.3, final_scale=0.1),
    2: _kw(gfx=S.GFX_QUAD_GLOW, a=(0, 0, 1), min_a=0.5, max_a=1.0, is_parent_local=True,
            start_scale=0.3, final_scale=0.1),
    3: _kw(gfx=S.GFX_QUAD_SPARK, a=(0, 1, 1.5), min_a=0.8, max_a=1.2, b=(0, 0, -3)),
    4: _kw(gfx=S.GFX_SHARD, a=(0, 0, 1.5), min_a=0.8, max_a=1.2, b=(0, 0, -2), c=(0, 0, 6),
            min_c=0.5, max_c=1.5),
    5: _kw(gfx=S.GFX_QUAD_GLOW, a=(0, 0, 0.3), b=(3, 3, 2), c=(0.3, 0.3, 0.1),
            is_parent_local=True),
    6: _kw(gfx=S.GFX_QUAD_SPARK, a=(1.5, 0, 0.3), min_a=0.8, max_a=1.2, b=(0, 0, -1.5),
            c=(1, 1, 1)),
    7: _kw(gfx=S.GFX_QUAD_GLOW, a=(3, 0, 0), b=(0, 0, 0.2), c=(1, 1, 1),
            min_offset=0.5, max_offset=0.8),
    8: _kw(gfx=S.GFX_QUAD_SPARK, a=(0, 1, 1), b=(0, -1, 0)),
    9: _kw(gfx=S.GFX_SHARD, a=(0, 0.5, 1), b=(0, 0, -1), c=(0, 4, 0), is_parent_local=True),
    10: _kw(gfx=S.GFX_QUAD_SMOKE, a=(0.5, 0, 2), min_a=0.5, max_a=1.0, b=(0, 0, -2)),
    11: _kw(gfx=S.GFX_CUBE_SMALL, a=(0.3, 0, 2), b=(0, 0, -2.5), c=(0, 0, 3)),
    12: _kw(gfx=S.GFX_QUAD_STREAK, a=(0, 0, 0.8)),
}


def _emitters(lib: Library) -> None:
    for pt in range(1, 13):
        kw = _kw(birthrate=0.08, max_particles=30, lifespan=1.5, lifespan_rand=0.3,
                  start_scale=0.25, final_scale=0.15, final_trans=1.0)
        kw.update(_GALLERY[pt])
        did = S.EMIT_BY_PARTICLE_TYPE[pt]
        local = " parent-local" if kw.get("is_parent_local") else ""
        lib.add_did(did, f"EMIT_BY_PARTICLE_TYPE[{pt}]",
                    pei(did, particle_type=PT(pt), **kw),
                    f"ParticleType {pt} {PT(pt).name}{local}, BirthratePerSec 0.08",
                    ISSUE_RUNTIME)

    trail = _kw(emitter_type=EmitterType.BirthratePerMeter, particle_type=PT.Still,
                 max_particles=60, lifespan=0.6, lifespan_rand=0.1, min_offset=0.0,
                 max_offset=0.03, start_scale=0.7, final_scale=0.1, scale_rand=0.1,
                 start_trans=0.1, final_trans=1.0)
    E = [
        ("EMIT_TRAIL_PER_METER", _with(trail, gfx=S.GFX_QUAD_GLOW, birthrate=0.15),
         "BirthratePerMeter trail (0.15 m between births; world-space particles)"),
        ("EMIT_TRAIL_PARENT_LOCAL", _with(trail, gfx=S.GFX_QUAD_GLOW, birthrate=0.15,
                                         is_parent_local=True),
         "the same trail, parent-local (particles follow the projectile)"),
        ("EMIT_TRAIL_SMALL", _with(trail, gfx=S.GFX_QUAD_SPARK, birthrate=0.25, start_scale=0.45,
                                  final_scale=0.05),
         "small per-meter spark trail (Launch at intensity 0)"),
        ("EMIT_TRAIL_LARGE", _with(trail, gfx=S.GFX_QUAD_GLOW, birthrate=0.1, lifespan=0.8,
                                  start_scale=1.0, final_scale=0.15),
         "large per-meter glow trail (Launch at intensity 1)"),
        ("EMIT_BOLT_CORE", _kw(gfx=S.GFX_QUAD_GLOW, birthrate=0.05, max_particles=8,
                                lifespan=0.3, start_scale=0.8, final_scale=1.2,
                                start_trans=0.2, final_trans=1.0, is_parent_local=True),
         "persistent (TotalParticles 0, TotalSeconds 0) parent-local glow on part 0"),
        ("EMIT_EXPLODE_SPARKS", _kw(gfx=S.GFX_QUAD_SPARK, particle_type=PT.Explode,
                                     birthrate=0.01, max_particles=32, initial_particles=24,
                                     total_particles=24, lifespan=0.7, lifespan_rand=0.2,
                                     a=(3, 0, 0.5), min_a=0.6, max_a=1.2, b=(0, 0, -2),
                                     c=(1, 1, 1), start_scale=0.7, final_scale=0.2,
                                     final_trans=1.0),
         "Explode burst: InitialParticles 24 = TotalParticles 24 (no later births)"),
        ("EMIT_EXPLODE_SMOKE", _kw(gfx=S.GFX_QUAD_SMOKE, particle_type=PT.ParabolicGVGA,
                                    birthrate=0.05, max_particles=20, initial_particles=4,
                                    total_seconds=0.8, lifespan=1.4, lifespan_rand=0.3,
                                    offset_dir=(0, 0, 1), max_offset=0.3, a=(0, 0, 0.6),
                                    min_a=0.5, max_a=1.5, b=(0, 0, 0.4), start_scale=0.4,
                                    final_scale=1.4, scale_rand=0.1, start_trans=0.3,
                                    final_trans=1.0, trans_rand=0.1),
         "rising smoke, TotalSeconds 0.8, 4 initial particles"),
        ("EMIT_EXPLODE_RING", _kw(gfx=S.GFX_QUAD_RING, birthrate=1.0, max_particles=1,
                                   initial_particles=1, total_particles=1, lifespan=0.5,
                                   start_scale=0.2, final_scale=3.0, final_trans=1.0),
         "one flat ring growing 0.2 -> 3.0 (degrade_mode 1 mesh)"),
        ("EMIT_COLLISION_FLASH", _kw(gfx=S.GFX_QUAD_GLOW, birthrate=1.0, max_particles=1,
                                      initial_particles=1, total_particles=1, lifespan=0.25,
                                      start_scale=1.2, final_scale=2.0, final_trans=1.0),
         "one short flash"),
        ("EMIT_RECALL", _kw(gfx=S.GFX_QUAD_SPARK, particle_type=PT.Swarm, birthrate=0.04,
                             max_particles=50, total_seconds=3.0, lifespan=1.6,
                             lifespan_rand=0.4, max_offset=0.2, a=(0, 0, 0.5), b=(4, 4, 0),
                             c=(0.5, 0.5, 0), start_scale=0.7, final_scale=0.3,
                             scale_rand=0.1, start_trans=0.1, final_trans=1.0,
                             is_parent_local=True),
         "recall swirl (Swarm), parent-local, TotalSeconds 3"),
        ("EMIT_LANTERN_FLAME", _kw(gfx=S.GFX_QUAD_GLOW, particle_type=PT.LocalVelocity,
                                    birthrate=0.06, max_particles=14, initial_particles=3,
                                    lifespan=0.7, lifespan_rand=0.15, offset_dir=(0, 0, 1),
                                    max_offset=0.03, a=(0, 0, 0.35), min_a=0.7, max_a=1.3,
                                    start_scale=0.45, final_scale=0.1, start_trans=0.1,
                                    final_trans=1.0, is_parent_local=True),
         "persistent parent-local flame with 3 initial particles"),
        ("EMIT_BLOCKING", _kw(gfx=S.GFX_QUAD_SPARK, birthrate=0.1, max_particles=10,
                               lifespan=0.5, start_scale=0.2, final_scale=0.2),
         "persistent sparks for the blocking-create script"),
        ("EMIT_UNKNOWN_EMITTER_TYPE", _kw(gfx=S.GFX_QUAD_SPARK_AXIS_X,
                                           emitter_type=EmitterType.Unknown, max_particles=5,
                                           initial_particles=5, min_offset=0.2, max_offset=0.4,
                                           start_scale=0.3, final_scale=0.3),
         "EmitterType 0: neither &1 nor &2, so only the 5 initial particles ever appear"),
        ("EMIT_NO_HW_GFXOBJ", _kw(gfxobj_id=S.GFX_QUAD_SPARK, hw_gfxobj_id=0),
         "hw_gfxobj_id 0 (gfxobj_id set): ParticleEmitter::SetInfo fails, no emitter"),
        ("EMIT_TOTAL_PARTICLES", _kw(gfx=S.GFX_QUAD_SPARK_AXIS_Y,
                                      particle_type=PT.LocalVelocity, birthrate=0.1,
                                      max_particles=10, total_particles=10, lifespan=2.0,
                                      a=(0, 0, 0.5), start_scale=0.3, final_scale=0.3),
         "TotalParticles 10: stops after 10 births, then drains"),
        ("EMIT_TOTAL_SECONDS", _kw(gfx=S.GFX_QUAD_NO_DEGRADE, particle_type=PT.LocalVelocity,
                                    birthrate=0.1, max_particles=20, total_seconds=1.5,
                                    lifespan=1.0, a=(0, 0, 0.5), start_scale=0.3,
                                    final_scale=0.1),
         "TotalSeconds 1.5: stops 1.5 s after creation, then drains"),
        ("EMIT_INITIAL_BURST", _kw(gfx=S.GFX_QUAD_TWO_LEVELS, birthrate=1.0, max_particles=12,
                                    initial_particles=20, total_seconds=2.0, lifespan=1.5,
                                    min_offset=0.2, max_offset=0.6, start_scale=0.3,
                                    final_scale=0.3),
         "InitialParticles 20 into 12 slots: the excess is dropped but counted"),
        ("EMIT_RANDOM_RANGES", _kw(gfx=S.GFX_QUAD_AUTO_TRANSLUCENT,
                                    particle_type=PT.ParabolicGVGA, birthrate=0.05,
                                    max_particles=40, lifespan=1.0, lifespan_rand=0.9,
                                    offset_dir=(0, 0, 2), min_offset=0.0, max_offset=1.0,
                                    a=(0, 0, 1), min_a=0.1, max_a=3.0, b=(0, 0, -1),
                                    min_b=0.5, max_b=2.0, start_scale=0.3, final_scale=0.3,
                                    scale_rand=0.25, start_trans=0.5, final_trans=0.5,
                                    trans_rand=0.5),
         ("wide random ranges (lifespan, scale, trans, offset, A, B) and a NON-UNIT "
          "offset_dir (0,0,2) projected as is")),
        ("EMIT_ARROW_GLINT", _kw(gfx=S.GFX_QUAD_SPARK, max_particles=1, initial_particles=1,
                                  total_particles=1, lifespan=0.2, start_scale=0.3,
                                  final_scale=0.1),
         "one glint (arrow Create)"),
        ("EMIT_ARROW_PUFF", _kw(gfx=S.GFX_QUAD_SMOKE, particle_type=PT.ParabolicGVGA,
                                 max_particles=6, initial_particles=6, total_particles=6,
                                 lifespan=0.6, max_offset=0.1, a=(0, 0, 0.5), start_scale=0.2,
                                 final_scale=0.6, final_trans=1.0),
         "six-particle puff (arrow Destroy)"),
    ]
    for name, kw, what in E:
        lib.add(name, pei(getattr(S, name), **kw), what, ISSUE_RUNTIME)

    stress = _kw(birthrate=0.3, max_particles=260, initial_particles=200, lifespan=40.0,
                 lifespan_rand=5.0, offset_dir=(0, 0, 1), min_offset=0.2, max_offset=1.5,
                 start_scale=0.25, final_scale=0.1, start_trans=0.1, final_trans=0.9)
    for name, kw, what in (
            ("EMIT_STRESS_GLOW", _with(stress, gfx=S.GFX_QUAD_GLOW,
                                       particle_type=PT.LocalVelocity, a=(0, 0, 0.05)),
             "stress: 200 initial LocalVelocity glows, persistent, 260 slots"),
            ("EMIT_STRESS_SWARM", _with(stress, gfx=S.GFX_QUAD_SPARK, particle_type=PT.Swarm,
                                        a=(0, 0, 0.02), b=(1, 1, 0.5), c=(0.4, 0.4, 0.2)),
             "stress: 200 initial Swarm sparks, persistent, 260 slots"),
            ("EMIT_STRESS_SHARDS", _with(stress, gfx=S.GFX_SHARD,
                                         particle_type=PT.ParabolicLVGAGR, a=(0, 0, 0.05),
                                         b=(0, 0, -0.001), c=(0, 0, 1.5)),
             "stress: 200 initial spinning shards (ParabolicLVGAGR), persistent, 260 slots")):
        lib.add(name, pei(getattr(S, name), **kw), what, ISSUE_STRESS)


# =============================================================================================
# PhysicsScripts and tables
# =============================================================================================

def _cp(info, part=NO_PART, emitter_id=ANON, origin=(0.0, 0.0, 0.0), orientation=IDENTITY):
    return H.CreateParticleHook(BOTH, info, part, frame(origin, orientation), emitter_id)


def _pes(did: int, *entries) -> PhysicsScript:
    """A PhysicsScript from (start_time, hook) pairs in STORED order."""
    return PhysicsScript.from_hooks(did, [PhysicsScriptData(float(t), h) for t, h in entries])


def _scripts(lib: Library) -> None:
    st = H.SoundTableHook
    add = lib.add
    add("PES_LAUNCH_SMALL", _pes(S.PES_LAUNCH_SMALL, (0, _cp(S.EMIT_TRAIL_SMALL, emitter_id=1)),
                                 (0, st(BOTH, S.SOUND_TYPE_LAUNCH))),
        "Launch @0: small per-meter trail (logical id 1) + SoundTable", ISSUE_RUNTIME)
    add("PES_LAUNCH_TRAIL", _pes(S.PES_LAUNCH_TRAIL,
                                 (0, _cp(S.EMIT_TRAIL_PER_METER, emitter_id=1)),
                                 (0, st(BOTH, S.SOUND_TYPE_LAUNCH))),
        "Launch @0.5: per-meter trail (logical id 1, part -1) + SoundTable", ISSUE_RUNTIME)
    add("PES_LAUNCH_LARGE", _pes(S.PES_LAUNCH_LARGE,
                                 (0, _cp(S.EMIT_TRAIL_LARGE, part=0, emitter_id=1)),
                                 (0, _cp(S.EMIT_TRAIL_SMALL, emitter_id=2)),
                                 (0, st(BOTH, S.SOUND_TYPE_LAUNCH))),
        "Launch @1: two trails, one on part 0 (ids 1 and 2)", ISSUE_RUNTIME)
    add("PES_EXPLODE_SMALL", _pes(S.PES_EXPLODE_SMALL, (0, H.StopParticleHook(BOTH, 1)),
                                  (0, _cp(S.EMIT_EXPLODE_SPARKS)),
                                  (0, st(BOTH, S.SOUND_TYPE_EXPLODE))),
        "Explode @0: stop the trail, one anonymous spark burst", ISSUE_RUNTIME)
    add("PES_EXPLODE_MEDIUM", _pes(S.PES_EXPLODE_MEDIUM, (0, H.StopParticleHook(BOTH, 1)),
                                   (0, _cp(S.EMIT_EXPLODE_SPARKS, emitter_id=2)),
                                   (0, _cp(S.EMIT_EXPLODE_SMOKE, emitter_id=3)),
                                   (0, st(BOTH, S.SOUND_TYPE_EXPLODE))),
        "Explode @0.5: sparks + smoke", ISSUE_RUNTIME)
    add("PES_EXPLODE", _pes(S.PES_EXPLODE,
                            (0.0, H.StopParticleHook(BOTH, 1)),
                            (0.0, H.StopParticleHook(BOTH, 2)),
                            (0.0, H.DestroyParticleHook(BOTH, 9)),
                            (0.0, H.NoDrawHook(BOTH, True)),
                            (0.0, _cp(S.EMIT_EXPLODE_SPARKS, emitter_id=2)),
                            (0.0, _cp(S.EMIT_EXPLODE_RING, emitter_id=4)),
                            (0.05, _cp(S.EMIT_EXPLODE_SMOKE, emitter_id=3)),
                            (0.0, st(BOTH, S.SOUND_TYPE_EXPLODE)),
                            (0.4, H.DestroyParticleHook(BOTH, 4)),
                            (0.6, H.StopParticleHook(BOTH, 3))),
        "Explode @1: multi-emitter (sparks id 2 REPLACING the large trail's id 2, ring 4, "
        "smoke 3), Stop trail 1, Destroy bolt core 9, NoDraw the mesh, Destroy ring at 0.4 "
        "(cut mid-life), Stop smoke at 0.6; stored out of time order", ISSUE_RUNTIME)
    add("PES_COLLISION_FLASH", _pes(S.PES_COLLISION_FLASH, (0, H.SetLightHook(BOTH, True)),
                                    (0, _cp(S.EMIT_COLLISION_FLASH, emitter_id=5)),
                                    (0.3, H.SetLightHook(BOTH, False))),
        "ProjectileCollision: SetLight on (Setup light), flash, SetLight off at 0.3",
        ISSUE_RUNTIME)
    add("PES_CALLPES_CHAIN", _pes(S.PES_CALLPES_CHAIN, (0, _cp(S.EMIT_COLLISION_FLASH)),
                                  (0, H.CallPESHook(BOTH, S.PES_CHAIN_LINK_A, 0.75)),
                                  (0.1, H.CallPESHook(BOTH, S.PES_CHAIN_LINK_B, 0.0))),
        "CallPES with maximum pause 0.75 (random delay U(0, 0.75)) and one with pause 0 "
        "(< 0.0002: enqueued at once)", ISSUE_RUNTIME)
    add("PES_CHAIN_LINK_A", _pes(S.PES_CHAIN_LINK_A, (0, _cp(S.EMIT_EXPLODE_RING)),
                                 (0, H.CallPESHook(BOTH, S.PES_CHAIN_LINK_B, 0.3))),
        "chain link: ring + CallPES(link B, pause 0.3)", ISSUE_RUNTIME)
    add("PES_CHAIN_LINK_B", _pes(S.PES_CHAIN_LINK_B, (0, _cp(S.EMIT_COLLISION_FLASH)),
                                 (0, st(BOTH, S.SOUND_TYPE_EXPLODE))),
        "chain end: flash + sound", ISSUE_RUNTIME)
    add("PES_BLOCKING", _pes(
        S.PES_BLOCKING,
        (0.0, H.CreateBlockingParticleHook(BOTH, S.EMIT_BLOCKING, NO_PART, frame(), 7)),
        (0.5, H.CreateBlockingParticleHook(BOTH, S.EMIT_BLOCKING, NO_PART,
                                           frame((0.5, 0.0, 0.0)), 7)),
        (1.0, H.DestroyParticleHook(BOTH, 7)),
        (1.2, H.CreateBlockingParticleHook(BOTH, S.EMIT_BLOCKING, NO_PART,
                                           frame((0.0, 0.0, 0.5)), 7)),
        (1.5, H.CreateBlockingParticleHook(BOTH, S.EMIT_BLOCKING, NO_PART,
                                           frame((-0.5, 0.0, 0.0)), ANON)),
        (2.0, H.StopParticleHook(BOTH, 7))),
        "CreateBlockingParticle id 7 created; again at 0.5 while live -> blocked; Destroy 7 "
        "at 1.0; created again at 1.2; anonymous blocking create at 1.5; Stop 7 at 2.0",
        ISSUE_RUNTIME)
    add("PES_UNSORTED", _pes(S.PES_UNSORTED,
                             (1.0, st(BOTH, S.SOUND_TYPE_EXPLODE)),
                             (0.0, _cp(S.EMIT_COLLISION_FLASH)),
                             (0.5, _cp(S.EMIT_EXPLODE_RING)),
                             (0.25, H.LuminousHook(BOTH, 0.0, 1.0, 0.2)),
                             (0.5, st(BOTH, S.SOUND_TYPE_LAUNCH)),
                             (0.25, H.DiffuseHook(BOTH, 1.0, 0.5, 0.2))),
        "hooks stored out of time order (1.0, 0, 0.5, 0.25, 0.5, 0.25): sorted at unpack, "
        "equal times in retail qsort order (CRT shortsort)", ISSUE_RUNTIME)
    add("PES_LUMINOUS", _pes(S.PES_LUMINOUS, (0, H.LuminousHook(BOTH, 0.0, 1.0, 0.5)),
                             (1.0, H.LuminousHook(BOTH, 1.0, 0.0, 0.5)),
                             (2.0, H.LuminousHook(BOTH, 0.5, 0.5, 0.0))),
        "Luminous tweens 0->1, 1->0 and an immediate set (time 0 < EPS)", ISSUE_RUNTIME)
    add("PES_DIFFUSE", _pes(S.PES_DIFFUSE, (0, H.DiffuseHook(BOTH, 1.0, 0.2, 0.5)),
                            (1.0, H.DiffuseHook(BOTH, 0.2, 1.0, 0.5))),
        "Diffuse tweens", ISSUE_RUNTIME)
    add("PES_TRANSPARENT", _pes(S.PES_TRANSPARENT, (0, H.TransparentHook(BOTH, 0.0, 1.0, 1.0)),
                                (1.5, H.TransparentHook(BOTH, 1.0, 0.0, 0.5)),
                                (2.5, H.TransparentHook(BOTH, 0.0, 0.5, 0.0))),
        "Transparent: fade out to exactly 1 (hidden), back in, immediate 0.5", ISSUE_RUNTIME)
    add("PES_SCALE", _pes(S.PES_SCALE, (0, H.ScaleHook(BOTH, 2.0, 1.0)),
                          (1.5, H.ScaleHook(BOTH, 0.5, 0.5)), (2.5, H.ScaleHook(BOTH, 1.0, 0.0))),
        "Scale tweens from the CURRENT scale: 2.0 over 1 s, 0.5 over 0.5 s, 1.0 at once",
        ISSUE_RUNTIME)
    add("PES_SET_OMEGA", _pes(S.PES_SET_OMEGA, (0, H.SetOmegaHook(BOTH, (0.0, 0.0, 3.14))),
                              (2.0, H.SetOmegaHook(BOTH, (0.0, 0.0, 0.0)))),
        "SetOmega spin about Z for 2 s, then stop", ISSUE_RUNTIME)
    add("PES_TEXTURE_VELOCITY", _pes(S.PES_TEXTURE_VELOCITY,
                                     (0, H.TextureVelocityHook(BOTH, 0.5, 0.0)),
                                     (2.0, H.TextureVelocityHook(BOTH, 0.0, -0.25)),
                                     (4.0, H.TextureVelocityHook(BOTH, 0.0, 0.0))),
        "TextureVelocity u 0.5, then v -0.25 (negative: never wrapped), then (0,0) "
        "unregisters", ISSUE_RUNTIME)
    add("PES_NODRAW", _pes(S.PES_NODRAW, (0, H.NoDrawHook(BOTH, True)),
                           (1.0, H.NoDrawHook(BOTH, False))),
        "NoDraw on, off after 1 s (attached emitters unaffected)", ISSUE_RUNTIME)
    add("PES_SOUND", _pes(S.PES_SOUND, (0, H.SoundHook(BOTH, S.WAVE_CHIME)),
                          (0.3, H.SoundTweakedHook(BOTH, S.WAVE_WHOOSH, 0.5, 0.9, 0.7)),
                          (0.6, st(BOTH, S.SOUND_TYPE_RECALL))),
        "Sound (wave), SoundTweaked (probability 0.5 then priority 0.9), SoundTable",
        ISSUE_RUNTIME)
    add("PES_HIDDEN", _pes(S.PES_HIDDEN, (0, _cp(S.EMIT_EXPLODE_SMOKE)),
                           (0, st(BOTH, S.SOUND_TYPE_RECALL))),
        "played by PST_HUMANOID Hidden@1 on set_hidden(true)", ISSUE_RUNTIME)
    add("PES_UNHIDE", _pes(S.PES_UNHIDE, (0, _cp(S.EMIT_COLLISION_FLASH)),
                           (0, H.TransparentHook(BOTH, 1.0, 0.0, 0.5))),
        "played by PST_HUMANOID UnHide@1 on set_hidden(false)", ISSUE_RUNTIME)
    add("PES_LANTERN_DEFAULT", _pes(S.PES_LANTERN_DEFAULT,
                                    (0, _cp(S.EMIT_LANTERN_FLAME, part=2, emitter_id=1)),
                                    (0, H.LuminousPartHook(BOTH, 1, 0.8, 0.8, 0.0))),
        "lantern DefaultScript: persistent flame on part 2 (the scaled flame part)",
        ISSUE_RUNTIME)
    all_hooks = [
        H.NoOpHook(BOTH), H.SoundHook(BOTH, S.WAVE_CHIME),
        H.SoundTableHook(BOTH, S.SOUND_TYPE_LAUNCH),
        H.AttackHook(BOTH, 6, -0.5, 1.0, 0.5, 1.0, 1.5, 1.8), H.NullHook(BOTH, 4),
        H.ReplaceObjectHook(BOTH, 0, S.GFX_CUBE_SMALL),
        H.EtherealHook(BOTH, True), H.TransparentPartHook(BOTH, 0, 0.0, 0.5, 0.2),
        H.LuminousHook(BOTH, 0.0, 1.0, 0.2), H.LuminousPartHook(BOTH, 0, 0.0, 1.0, 0.2),
        H.DiffuseHook(BOTH, 1.0, 0.5, 0.2), H.DiffusePartHook(BOTH, 0, 1.0, 0.5, 0.2),
        H.ScaleHook(BOTH, 1.5, 0.2), _cp(S.EMIT_COLLISION_FLASH, emitter_id=11),
        H.DestroyParticleHook(BOTH, 11), H.StopParticleHook(BOTH, 12), H.NoDrawHook(BOTH, False),
        H.DefaultScriptHook(BOTH), H.DefaultScriptPartHook(BOTH, 0),
        H.CallPESHook(BOTH, S.PES_CHAIN_LINK_B, 0.0), H.TransparentHook(BOTH, 0.0, 0.2, 0.2),
        H.SoundTweakedHook(BOTH, S.WAVE_BOOM, 0.25, 0.5, 0.75),
        H.SetOmegaHook(BOTH, (0.0, 0.0, 1.0)), H.TextureVelocityHook(BOTH, 0.1, 0.0),
        H.TextureVelocityPartHook(BOTH, 0, 0.0, 0.1), H.SetLightHook(BOTH, True),
        H.CreateBlockingParticleHook(BOTH, S.EMIT_COLLISION_FLASH, NO_PART, frame(), 12),
    ]
    assert [int(h.hook_type) for h in all_hooks] == list(range(27))
    # the stored AnimationDone (a NULL hook at run time: the end of the script) goes last
    entries = [(round(0.1 * i, 1), h) for i, h in enumerate(all_hooks) if i != 4]
    entries.append((2.7, H.ReplaceObjectHook(BOTH, 0, S.GALLERY_GFXOBJS[("streak", "INDEX16")])))
    entries.append((2.8, all_hooks[4]))
    add("PES_ALL_HOOKS", _pes(S.PES_ALL_HOOKS, *entries),
        "one hook of each of the 27 types (0.1 s apart; the stored AnimationDone last, at "
        "2.8 s) + a ReplaceObject whose GfxObj DID needs the 4-byte PackedDID form; "
        "CreateBlockingParticle followed by another hook", ISSUE_RUNTIME)
    add("PES_NULL_ANIMATION_DONE", _pes(
        S.PES_NULL_ANIMATION_DONE, (0, _cp(S.EMIT_COLLISION_FLASH, emitter_id=1)),
        (0.3, H.NullHook(BOTH, 4)), (0.6, H.SoundHook(BOTH, S.WAVE_CHIME))),
        "a stored AnimationDone (type 4) at 0.3 s: retail builds no hook, so the script ends "
        "there and the Sound at 0.6 s never plays; length stays 0.6", ISSUE_RUNTIME)
    add("PES_NULL_UNKNOWN", _pes(
        S.PES_NULL_UNKNOWN, (0, H.SoundHook(BOTH, S.WAVE_CHIME)),
        (0.2, H.NullHook(FORWARD, S.UNKNOWN_HOOK_TYPE)),
        (0.5, H.SoundTableHook(BOTH, S.SOUND_TYPE_LAUNCH))),
        "an unknown hook type (header only) at 0.2 s ends the script; the SoundTable at "
        "0.5 s never plays", ISSUE_RUNTIME)
    add("PES_EMPTY", _pes(S.PES_EMPTY), "no entries (length 0; a no-op)", ISSUE_RUNTIME)
    gallery = []
    for pt in range(1, 13):
        x = ((pt - 1) % 4) * 1.5 - 2.25
        y = ((pt - 1) // 4) * 1.5
        gallery.append((0, _cp(S.EMIT_BY_PARTICLE_TYPE[pt], emitter_id=pt, origin=(x, y, 0.0))))
    add("PES_EMITTER_GALLERY", _pes(S.PES_EMITTER_GALLERY, *gallery),
        "all 12 ParticleType emitters on a 4x3 grid (logical ids 1..12)", ISSUE_RUNTIME)
    add("PES_DEFAULT_SCRIPT", _pes(S.PES_DEFAULT_SCRIPT, (0, H.DefaultScriptHook(BOTH)),
                                   (0.5, H.DefaultScriptPartHook(BOTH, 0))),
        "DefaultScript and DefaultScriptPart(0) hooks", ISSUE_RUNTIME)
    add("PES_PART_HOOKS", _pes(S.PES_PART_HOOKS,
                               (0, H.LuminousPartHook(BOTH, 2, 0.0, 1.0, 0.5)),
                               (0, H.DiffusePartHook(BOTH, 1, 1.0, 0.3, 0.5)),
                               (0.5, H.TransparentPartHook(BOTH, 3, 0.0, 0.8, 0.5)),
                               (1.0, H.TextureVelocityPartHook(BOTH, 0, 0.2, 0.0)),
                               (1.0, H.LuminousPartHook(BOTH, 99, 0.0, 1.0, 0.0)),
                               (1.5, H.TransparentPartHook(BOTH, -1, 0.0, 1.0, 0.0))),
        "*Part hooks on humanoid parts, and two with part index >= num_parts (99, -1): "
        "silent no-ops", ISSUE_RUNTIME)
    add("PES_BOLT_DEFAULT", _pes(S.PES_BOLT_DEFAULT, (0, _cp(S.EMIT_BOLT_CORE, part=0,
                                                             emitter_id=9))),
        "bolt DefaultScript: persistent core glow on part 0, logical id 9", ISSUE_RUNTIME)
    add("PES_REPLACE_LOGICAL", _pes(S.PES_REPLACE_LOGICAL, (0, _cp(S.EMIT_BLOCKING,
                                                                   emitter_id=5)),
                                    (0.5, _cp(S.EMIT_LANTERN_FLAME, emitter_id=5,
                                              origin=(0.0, 0.0, 0.3))),
                                    (1.5, H.DestroyParticleHook(BOTH, 5))),
        "CreateParticle id 5 twice: the second destroys the live one at once (replace)",
        ISSUE_RUNTIME)
    rot90 = quat_axis(Z, 90)
    add("PES_EMITTER_LIMITS", _pes(
        S.PES_EMITTER_LIMITS,
        (0, _cp(S.EMIT_TOTAL_PARTICLES, origin=(-2.0, 0.0, 0.0))),
        (0, _cp(S.EMIT_TOTAL_SECONDS, origin=(-1.0, 0.0, 0.0))),
        (0, _cp(S.EMIT_INITIAL_BURST, origin=(0.0, 0.0, 0.0))),
        (0, _cp(S.EMIT_RANDOM_RANGES, origin=(1.0, 0.0, 0.0), orientation=rot90)),
        (0, _cp(S.EMIT_UNKNOWN_EMITTER_TYPE, origin=(2.0, 0.0, 0.0))),
        (0, _cp(S.EMIT_NO_HW_GFXOBJ, emitter_id=6, origin=(3.0, 0.0, 0.0)))),
        "TotalParticles / TotalSeconds / InitialParticles overflow / random ranges (hook "
        "offset with a 90 deg quaternion that retail ignores) / EmitterType 0 / failing "
        "hw_gfxobj_id 0", ISSUE_RUNTIME)
    add("PES_ARROW_CREATE", _pes(S.PES_ARROW_CREATE, (0, _cp(S.EMIT_ARROW_GLINT, part=0))),
        "arrow table Create@1", ISSUE_PROJECTILE)
    add("PES_ARROW_DESTROY", _pes(S.PES_ARROW_DESTROY, (0, _cp(S.EMIT_ARROW_PUFF)),
                                  (0, H.NoDrawHook(BOTH, True))),
        "arrow table Destroy@1", ISSUE_PROJECTILE)
    add("PES_ARROW_DISAPPEAR", _pes(S.PES_ARROW_DISAPPEAR,
                                    (0, H.TransparentHook(BOTH, 0.0, 1.0, 0.3))),
        "arrow table DisappearDestroy@1", ISSUE_PROJECTILE)
    ring = [(2.0 * math.cos(k * math.pi / 5), 2.0 * math.sin(k * math.pi / 5), 1.0)
            for k in range(10)]
    stress = (S.EMIT_STRESS_GLOW, S.EMIT_STRESS_SWARM, S.EMIT_STRESS_SHARDS)
    add("PES_STRESS", _pes(S.PES_STRESS, *((0, _cp(stress[k % 3], origin=ring[k]))
                                           for k in range(10))),
        "ten anonymous stress emitters on a 2 m ring (2,000 initial particles)", ISSUE_STRESS)


def _tdata(*pairs) -> PhysicsScriptTableData:
    return PhysicsScriptTableData(tuple(ScriptAndModData(float(m), s) for m, s in pairs))


def _tables(lib: Library) -> None:
    P = PlayScript
    lib.add("PST_FLAME", PhysicsScriptTable(S.PST_FLAME, (
        (P.ProjectileCollision, _tdata((1, S.PES_COLLISION_FLASH))),
        (P.Launch, _tdata((0, S.PES_LAUNCH_SMALL), (0.5, S.PES_LAUNCH_TRAIL),
                          (1, S.PES_LAUNCH_LARGE))),
        (P.Explode, _tdata((0, S.PES_EXPLODE_SMALL), (0.5, S.PES_EXPLODE_MEDIUM),
                           (1, S.PES_EXPLODE))))),
        "flame-like table (stored as retail 0x34000005): ProjectileCollision@1, "
        "Launch@0/0.5/1, Explode@0/0.5/1", ISSUE_RUNTIME)
    lib.add("PST_ARROW", PhysicsScriptTable(S.PST_ARROW, (
        (P.Create, _tdata((1, S.PES_ARROW_CREATE))),
        (P.Destroy, _tdata((1, S.PES_ARROW_DESTROY))),
        (P.DisappearDestroy, _tdata((1, S.PES_ARROW_DISAPPEAR))))),
        "arrow table: Create/Destroy/DisappearDestroy@1 and NO Launch or Explode entry",
        ISSUE_RUNTIME)
    lib.add("PST_HUMANOID", PhysicsScriptTable(S.PST_HUMANOID, (
        (P.UnHide, _tdata((1, S.PES_UNHIDE))),
        (P.Hidden, _tdata((1, S.PES_HIDDEN))))),
        "UnHide@1 / Hidden@1 pair (state transitions resolve at intensity 1: equality "
        "matches)", ISSUE_RUNTIME)
    inf = float("inf")
    lib.add("PST_UNSORTED", PhysicsScriptTable(S.PST_UNSORTED, (
        (P.Explode, _tdata((0.5, S.PES_EXPLODE_MEDIUM))),
        (P.Launch, _tdata((1.0, S.PES_LAUNCH_LARGE), (0.25, S.PES_LAUNCH_SMALL),
                          (0.5, S.PES_LAUNCH_TRAIL))),
        (P.Test1, _tdata((-1.0, S.PES_LUMINOUS), (inf, S.PES_DIFFUSE))),
        (P.Test1, _tdata((1.0, S.PES_SCALE))),
        (P.Test2, _tdata()))),
        "keys stored out of order; Launch entries out of Mod order (1, 0.25, 0.5: "
        "intensity 0.3 selects the Mod-1 script); Test1 thresholds -1 and +inf; a "
        "duplicate Test1 key (first wins); Test2 with no entries", ISSUE_RUNTIME)


# =============================================================================================
# Retail stand-ins: the named projectiles at their retail DIDs (issue 17, retail_shaped.py)
# =============================================================================================

def _retail_standins(lib: Library) -> None:
    from viewer.dat import retail_facts as F
    from viewer.synthetic.retail_shaped import SCRIPT_SOURCES, standin_records

    built = {a.did: a.record for a in lib.assets}
    names = {p.setup: f"{p.name} Setup (WCID {p.wcid})" for p in F.PROJECTILES}
    names.update({t.did: f"{t.name} table" for t in F.PROJECTILE_TABLES})
    for d in F.DEFAULT_SCRIPTS:
        names[d.script] = f"{d.name} DefaultScript"
        names[d.emitter] = f"{d.name} DefaultScript emitter"
    source = {v: k for k, v in vars(S).items() if isinstance(v, int) and k.isupper()}
    for did, record in sorted(standin_records(built).items()):
        what = names.get(did) or f"script (hooks of {source.get(SCRIPT_SOURCES.get(did))})"
        lib.add_did(did, f"STANDIN[{what}]", record,
                    f"retail stand-in: {what} at its retail DID, with the audited structure "
                    f"(docs/cli.md section 9: one sphere, table entries and chains, "
                    f"DefaultScript); synthetic content", "issue 17 (named projectiles)")


# =============================================================================================
# Assembly
# =============================================================================================

ISSUE_OBJDESC = "issue 27 (ObjDesc: part swap, subpalette recolour, texture change)"


def _objdesc_assets(lib: Library) -> None:
    """The ObjDesc demo: paletted cloth textures, their palettes, a mannequin with a
    clothing part, the part that replaces it, and a flame hooked onto that part."""
    for name, kind, what in (
            ("PALETTE_CLOTH_BASE", "base", "2048 colours: blue warp band (64..127), pale "
             "grey weft band (128..191), mid grey elsewhere"),
            ("PALETTE_CLOTH_CRIMSON", "crimson", "2048-colour crimson ramp (a subpalette)"),
            ("PALETTE_CLOTH_GOLD", "gold", "256-colour gold ramp (a subpalette; widened to "
             "2048 at load, Palette::InitLoad)")):
        lib.add(name, Palette(getattr(S, name), tuple(T.cloth_palette(kind))), what,
                ISSUE_OBJDESC)
    n = T.CLOTH_SIZE
    for pattern, rs, tex in (("weave", "RS_CLOTH_WEAVE", "TEX_CLOTH_WEAVE"),
                             ("stripes", "RS_CLOTH_STRIPES", "TEX_CLOTH_STRIPES")):
        data = T.cloth_indices(pattern).astype("<u2").tobytes()
        lib.add(rs, RenderSurface(getattr(S, rs), 6, n, n, PixelFormat.INDEX16, data,
                                  S.PALETTE_CLOTH_BASE),
                f"{n}x{n} INDEX16 cloth {pattern} (warp 64..127, weft 128..191)",
                ISSUE_OBJDESC)
        lib.add(tex, SurfaceTexture(getattr(S, tex), 0, TextureType.Texture2D,
                                    (getattr(S, rs),)),
                f"ImgTex -> the {pattern} cloth", ISSUE_OBJDESC)
    lib.add("SURFACE_CLOTH", Surface(SurfaceType.Base1Image, S.TEX_CLOTH_WEAVE, 0, None,
                                     0.0, 0.0, 1.0),
            "Base1Image on the paletted weave: its original palette is the texture's",
            ISSUE_OBJDESC)
    for name, size, center, what in (
            ("GFX_TUNIC", (0.44, 0.28, 0.5), (0.0, 0.0, 0.0), "short tunic box"),
            ("GFX_ROBE", (0.56, 0.34, 1.0), (0.0, 0.0, -0.25), "long robe box that replaces "
             "the tunic (AnimPartChange)")):
        m = MeshBuilder()
        m.box(size, center)
        lib.add(name, m.gfxobj(getattr(S, name), (S.SURFACE_CLOTH,)), what, ISSUE_OBJDESC)
    lib.add("SETUP_MANNEQUIN",
            setup_record(S.SETUP_MANNEQUIN, [S.GFX_RACK, S.GFX_TUNIC],
                         placements=((Placement.Default,
                                      placement_record(2, [frame(), frame((0.0, 0.0, 1.2))])),),
                         sorting=((0.0, 0.0, 1.0), 1.2)),
            "mannequin: part 0 a stand, part 1 the clothing part an ObjDesc swaps",
            ISSUE_OBJDESC)
    lib.add("PES_MANNEQUIN_FLAME",
            _pes(S.PES_MANNEQUIN_FLAME,
                 (0, _cp(S.EMIT_LANTERN_FLAME, part=1, emitter_id=1, origin=(0.0, 0.0, 0.3)))),
            "a persistent flame on part 1: it stays on the part through the swap",
            ISSUE_OBJDESC)


def build_library() -> Library:
    lib = Library()
    for step in (_textures, _surfaces, _degrades, _particle_gfxobjs, _object_gfxobjs,
                 _setups, _animations, _motion_table, _sounds, _emitters, _scripts, _tables,
                 _retail_standins, _objdesc_assets):
        step(lib)
    seen: dict[int, str] = {}
    for a in lib.assets:
        if a.did in seen:
            raise ValueError(f"DID 0x{a.did:08X} used by {seen[a.did]} and {a.name}")
        seen[a.did] = a.name
    return lib


def build_records(lib: Library | None = None) -> dict[int, bytes]:
    lib = lib or build_library()
    return {a.did: encode(a.record) for a in lib.assets}


def build_dat_bytes(lib: Library | None = None) -> bytes:
    # date 0 and a fixed iteration keep the file byte-identical from run to run.
    return build_dat(build_records(lib), date=0, iteration=1,
                     version_string=b"ac-vfx-viewer synthetic_portal.dat (no retail data)")


# ---------------------------------------------------------------------------------------------
# Default scenario (docs/cli.md section 4)
# ---------------------------------------------------------------------------------------------

def did_str(did: int) -> str:
    return format_did(did)


#: Projectiles of the default scene: (object id, start x, impact time). Bolts fly +X at
#: 8 m/s along y = 2.0, z = 1.3 into a wall whose face is at x = 3.5.
BOLT_SPEED = 8.0
WALL_X = 3.5
BOLTS = ((3, -4.5), (4, -10.5), (5, -16.5))


def default_scenario() -> dict:
    objects = [
        {"id": 1, "setup": did_str(S.SETUP_HUMANOID), "table": did_str(S.PST_HUMANOID),
         "position": [0.0, 0.0, 0.0], "heading_deg": 0.0, "velocity": [0.0, 0.0, 0.0],
         "state": did_str(S.DEFAULT_STATE)},
        {"id": 2, "setup": did_str(S.SETUP_LANTERN), "position": [-1.8, 0.4, 0.0],
         "heading_deg": 0.0, "state": did_str(S.DEFAULT_STATE | 0x1)},
    ]
    events: list[dict] = [{"t": 0.2, "object": 1, "motion": did_str(S.MOTION_RECALL)}]
    radius = 0.102 + 0.165   # the bolt's offset sphere reaches 0.267 m ahead of its origin
    for oid, x0 in BOLTS:
        objects.append({"id": oid, "setup": did_str(S.SETUP_BOLT), "table": did_str(S.PST_FLAME),
                        "position": [x0, 2.0, 1.3], "heading_deg": 90.0,
                        "velocity": [BOLT_SPEED, 0.0, 0.0],
                        "state": did_str(S.PROJECTILE_STATE)})
        impact = round((WALL_X - radius - x0) / BOLT_SPEED, 2)
        events.append({"t": 0.0, "object": oid, "play": "Launch", "intensity": 0.5})
        events.append({"t": impact, "object": oid, "play": "Explode", "intensity": 1.0})
    events.sort(key=lambda e: (e["t"], e["object"]))
    return {
        "dat": ["synthetic_portal.dat"],
        "seed": 0,
        "fps": 30,
        "seconds": 5.0,
        "loop": True,
        "objects": objects,
        "events": events,
        "world": [{"plane": {"normal": [0, 0, 1], "d": 0}},
                  {"box": {"min": [WALL_X, 1.0, 0.0], "max": [WALL_X + 0.3, 3.0, 2.6]}}],
    }


def gallery_scenario() -> dict:
    """A tour of the library: every texture format, every particle type, the hook scripts."""
    h = did_str
    objects = [
        {"id": 1, "setup": h(S.SETUP_TEXTURE_GALLERY), "position": [0.0, 4.0, 0.0]},
        {"id": 2, "setup": h(S.SETUP_MARKER), "position": [0.0, -1.0, 0.5]},
        {"id": 3, "setup": h(S.SETUP_SCROLL_PLANE), "position": [4.5, 2.0, 0.0]},
        {"id": 4, "setup": h(S.SETUP_HUMANOID), "table": h(S.PST_HUMANOID),
         "position": [-4.0, -1.0, 0.0], "state": h(S.DEFAULT_STATE)},
        {"id": 5, "setup": h(S.SETUP_LANTERN), "position": [-5.5, 2.0, 0.0],
         "state": h(S.DEFAULT_STATE | 0x1)},
        {"id": 6, "setup": h(S.SETUP_MARKER), "position": [4.0, -2.5, 0.5]},
        {"id": 7, "setup": h(S.SETUP_BOLT), "position": [3.0, 0.0, 1.2], "state": "0x00000000"},
        {"id": 8, "setup": h(S.SETUP_ATTACH_POINTS), "position": [6.5, -1.0, 0.0]},
        {"id": 9, "setup": h(S.SETUP_ARROW), "parent": 8, "parent_location": "RightHand",
         "state": "0x00000000"},
        {"id": 10, "setup": h(S.SETUP_BOLT), "parent": 8, "parent_location": "Quiver",
         "state": "0x00000000"},
        {"id": 11, "setup": h(S.SETUP_ARROW), "parent": 4, "parent_location": "RightHand",
         "state": "0x00000000"},
    ]
    events = [
        {"t": 0.0, "object": 2, "play_script": h(S.PES_EMITTER_GALLERY)},
        {"t": 0.0, "object": 3, "play_script": h(S.PES_TEXTURE_VELOCITY)},
        {"t": 0.0, "object": 6, "play_script": h(S.PES_BLOCKING)},
        {"t": 0.0, "object": 7, "play_script": h(S.PES_SET_OMEGA)},
        {"t": 0.0, "object": 7, "play_script": h(S.PES_LUMINOUS)},
        {"t": 0.5, "object": 4, "motion": h(S.MOTION_WALK_FORWARD)},
        {"t": 1.0, "object": 4, "play_script": h(S.PES_PART_HOOKS)},
        {"t": 2.5, "object": 6, "play_script": h(S.PES_EMITTER_LIMITS)},
        {"t": 3.0, "object": 4, "motion": h(S.MOTION_READY)},
        {"t": 4.0, "object": 4, "set_state": h(S.DEFAULT_STATE | 0x4000)},
        {"t": 5.0, "object": 4, "set_state": h(S.DEFAULT_STATE)},
    ]
    return {"dat": ["synthetic_portal.dat"], "seed": 0, "fps": 30, "seconds": 6.0,
            "loop": True, "objects": objects, "events": events,
            "world": [{"plane": {"normal": [0, 0, 1], "d": 0}}]}


# ---------------------------------------------------------------------------------------------
# Named projectiles scenario (issue 17): every preset, by name, at a wall
# ---------------------------------------------------------------------------------------------

STRESS_GRID = (10, 5)     # objects along x and y, 10 emitters each: 500 emitters
STRESS_SPACING = 6.0


def stress_scenario() -> dict:
    """500 emitters (PES_STRESS on 50 markers) and 100,000 initial particles at t = 0,
    growing towards 130,000 as the persistent emitters keep emitting."""
    nx, ny = STRESS_GRID
    objects, events = [], []
    for k in range(nx * ny):
        x = (k % nx - (nx - 1) / 2) * STRESS_SPACING
        y = (k // nx - (ny - 1) / 2) * STRESS_SPACING
        objects.append({"id": k + 1, "setup": did_str(S.SETUP_MARKER), "position": [x, y, 0.0],
                        "state": did_str(S.DEFAULT_STATE)})
        events.append({"t": 0.0, "object": k + 1, "play_script": did_str(S.PES_STRESS)})
    return {"dat": ["synthetic_portal.dat"], "seed": 0, "fps": 30, "seconds": 6.0,
            "loop": True, "objects": objects, "events": events,
            "world": [{"plane": {"normal": [0, 0, 1], "d": 0}}]}


def objdesc_scenario() -> dict:
    """The ObjDesc demo: the mannequin with its flame; at 1 s the tunic becomes a robe
    (AnimPartChange); at 2 s the warp band turns crimson and the weft band gold
    (subpalettes on the texture's own palette); at 3 s the robe's weave becomes stripes
    (TextureMapChange) in the same colours."""
    h = did_str
    recolour = {"palette": h(S.PALETTE_CLOTH_BASE), "subpalettes": [
        {"palette": h(S.PALETTE_CLOTH_CRIMSON), "offset": S.CLOTH_WARP_UNITS[0],
         "length": S.CLOTH_WARP_UNITS[1]},
        {"palette": h(S.PALETTE_CLOTH_GOLD), "offset": S.CLOTH_WEFT_UNITS[0],
         "length": S.CLOTH_WEFT_UNITS[1]}]}
    return {"dat": ["synthetic_portal.dat"], "seed": 0, "fps": 30, "seconds": 4.0,
            "objects": [{"id": 1, "setup": h(S.SETUP_MANNEQUIN)}],
            "events": [
                {"t": 0.0, "object": 1, "play_script": h(S.PES_MANNEQUIN_FLAME)},
                {"t": 1.0, "object": 1,
                 "objdesc": {"parts": [{"part": 1, "gfxobj": h(S.GFX_ROBE)}]}},
                {"t": 2.0, "object": 1, "objdesc": recolour},
                {"t": 3.0, "object": 1, "objdesc": {**recolour, "textures": [
                    {"part": 1, "old": h(S.TEX_CLOTH_WEAVE),
                     "new": h(S.TEX_CLOTH_STRIPES)}]}}]}


def named_projectiles_scenario() -> dict:
    """The ten named projectiles (``"launch": {"preset": ...}``), one lane each, fired at a
    wall 8 m away: arrows and quarrels keep gravity (a ballistic arc at 25 m/s), the spells
    fly with the missile state of the default scene's bolts."""
    from viewer.dat.retail_facts import PROJECTILES

    events = []
    for k, p in enumerate(PROJECTILES):
        y = 2.0 * k - 9.0
        launch: dict = {"preset": p.name, "from": [0.0, y, 1.2], "target": [8.0, y, 1.2],
                        "speed": 25.0 if p.table == 0x3400002B else 12.0, "delay": 0.1,
                        "delete_after": 1.5}
        if p.table != 0x3400002B:
            launch["state"] = did_str(S.PROJECTILE_STATE)
        events.append({"t": round(0.1 * k, 2), "object": 101 + k, "launch": launch,
                       "intensity": 0.5})
    return {"dat": ["synthetic_portal.dat"], "seed": 0, "fps": 30, "seconds": 3.0,
            "objects": [], "events": events,
            "world": [{"plane": {"normal": [0, 0, 1], "d": 0}},
                      {"box": {"min": [8.0, -10.0, 0.0], "max": [8.2, 10.0, 3.0]}}]}


# ---------------------------------------------------------------------------------------------
# Manifest
# ---------------------------------------------------------------------------------------------

def _constant_name(name: str) -> str:
    """``RENDER_SURFACES[('spark', 'DXT1')]`` -> ``RENDER_SURFACES``."""
    return name.split("[", 1)[0]


def _scan_tests(root: Path, names: set[str]) -> dict[str, list[str]]:
    """Test files (relative paths) that mention each constant name, sorted."""
    import re
    found: dict[str, set[str]] = {n: set() for n in names}
    tests = root / "tests"
    if not tests.is_dir():
        return {n: [] for n in names}
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names))) + r")\b")
    for path in sorted(tests.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for m in set(pattern.findall(text)):
            found[m].add(path.relative_to(root).as_posix())
    return {n: sorted(v) for n, v in found.items()}


def manifest_text(lib: Library, root: Path) -> str:
    names = {_constant_name(a.name) for a in lib.assets}
    users = _scan_tests(root, names)
    lines = [
        "# Synthetic asset library: MANIFEST",
        "",
        "Generated by `python -m viewer.synthetic.generate`; do not edit. Every record of",
        "`synthetic_portal.dat` (written by our own DAT writer in the retail layout, no retail",
        "bytes), its type, what it exercises, and the tests that use it (found by scanning",
        "`tests/` for the constant's name in `viewer.synthetic`) or the issue that will.",
        "`tests/assets/` decodes and re-encodes every record below to identical bytes.",
        "",
        f"{len(lib.assets)} records.",
        "",
        "Scenarios (docs/cli.md section 4, `dat` relative to the scenario file):",
        "",
        "- `default.scenario.json`: what `./run` opens. The humanoid performs the recall-like",
        "  action (motion 0x10000153: emitter 19 on the root at frame 16, sounds later), the",
        "  lantern burns (DefaultScript, Setup light, DefaultAnimation), and three bolts launch",
        "  with per-metre trails (PST_FLAME Launch 0.5) and explode at a wall (Explode 1).",
        "- `gallery.scenario.json`: every texture format on one object, all 12 particle types,",
        "  TextureVelocity, blocking creates, emitter limits, SetOmega/Luminous, *Part hooks,",
        "  a walk and a Hidden/UnHide round trip (the held arrow follows), children attached",
        "  at holding locations.",
        "- `projectiles.scenario.json` (written by the projectile harness, issue 11) uses",
        "  SETUP_ARROW / SETUP_BOLT and their tables.",
        "- `named_projectiles.scenario.json`: the ten named retail projectiles by preset name",
        "  (`\"launch\": {\"preset\": \"Flame Bolt\", ...}`), played by the STANDIN records",
        "  at their retail DIDs.",
        "- `stress.scenario.json`: 50 markers with PES_STRESS each: 500 persistent emitters and",
        "  100,000 initial particles at t = 0 (up to 130,000 live); bench/particles.py --stress.",
        "",
        "| DID | type | name (`viewer.synthetic`) | exercises | used by |",
        "|---|---|---|---|---|",
    ]
    for a in sorted(lib.assets, key=lambda a: a.did):
        used = users.get(_constant_name(a.name), [])
        used = [u for u in used if not u.startswith("tests/assets/")] or used
        used_text = ", ".join(f"`{u}`" for u in used) if used else f"waiting: {a.waiting}"
        lines.append(f"| 0x{a.did:08X} | {a.type_name} | `{a.name}` | "
                     f"{a.exercises.replace('|', '/')} | {used_text} |")
    lines.append("")
    return "\n".join(lines)


def generate(out_dir: Path | None = None, *, root: Path | None = None) -> dict[str, Path]:
    """Write the DAT, the manifest and the default scenario; returns their paths."""
    out_dir = Path(out_dir) if out_dir is not None else S.ASSETS_DIR
    root = Path(root) if root is not None else S.ROOT
    out_dir.mkdir(parents=True, exist_ok=True)
    lib = build_library()
    paths = {"dat": out_dir / S.SYNTHETIC_DAT.name, "manifest": out_dir / S.MANIFEST.name,
             "scenario": out_dir / S.DEFAULT_SCENARIO.name,
             "gallery": out_dir / S.GALLERY_SCENARIO.name,
             "named_projectiles": out_dir / S.NAMED_PROJECTILES_SCENARIO.name,
             "stress": out_dir / S.STRESS_SCENARIO.name,
             "objdesc": out_dir / S.OBJDESC_SCENARIO.name}
    paths["dat"].write_bytes(build_dat_bytes(lib))
    paths["manifest"].write_text(manifest_text(lib, root), encoding="utf-8")
    paths["scenario"].write_text(json.dumps(default_scenario(), indent=2) + "\n",
                                 encoding="utf-8")
    paths["gallery"].write_text(json.dumps(gallery_scenario(), indent=2) + "\n",
                                encoding="utf-8")
    paths["named_projectiles"].write_text(
        json.dumps(named_projectiles_scenario(), indent=2) + "\n", encoding="utf-8")
    paths["stress"].write_text(json.dumps(stress_scenario(), indent=2) + "\n",
                               encoding="utf-8")
    paths["objdesc"].write_text(json.dumps(objdesc_scenario(), indent=2) + "\n",
                                encoding="utf-8")
    return paths


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    paths = generate(Path(argv[0]) if argv else None)
    for kind, path in paths.items():
        print(f"{kind}: {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
