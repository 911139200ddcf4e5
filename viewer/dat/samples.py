"""Small example records of every type, built in code (no retail bytes).

Used by the DAT tests and ``bench/dat_index.py``; other layers may use them as starting
points for tiny databases (``AssetDatabase.from_records(sample_records())``).
"""

from __future__ import annotations

from dataclasses import replace

from viewer.dat import records as R
from viewer.dat.records import AnimationHookDir as Dir
from viewer.dat.records import Frame, Sphere

Q90 = (0.70710677, 0.0, 0.0, 0.70710677)


def sample_hooks() -> list[R.AnimationHook]:
    """One hook of every one of the 27 types, with distinct payload values (type 4 is the
    NullHook retail's unpack leaves it as)."""
    off = Frame((0.5, -1.0, 2.0), Q90)
    return [
        R.NoOpHook(Dir.Both),
        R.SoundHook(Dir.Forward, 0x0A000002),
        R.SoundTableHook(Dir.Forward, 0x0F),
        R.AttackHook(Dir.Both, 3, -0.5, 1.0, 0.5, 1.0, 2.5, 1.75),
        R.NullHook(Dir.Both, 4),  # stored AnimationDone: retail builds no hook
        R.ReplaceObjectHook(Dir.Both, 2, 0x010005E8),
        R.EtherealHook(Dir.Backward, True),
        R.TransparentPartHook(Dir.Both, 1, 0.0, 1.0, 0.5),
        R.LuminousHook(Dir.Both, 0.25, 0.75, 2.0),
        R.LuminousPartHook(Dir.Both, 4, 1.0, 0.0, 0.25),
        R.DiffuseHook(Dir.Both, 0.5, 1.0, 3.0),
        R.DiffusePartHook(Dir.Both, 5, 0.125, 0.875, 1.5),
        R.ScaleHook(Dir.Both, 2.0, 0.5),
        R.CreateParticleHook(Dir.Both, 0x3200071B, -1, off, 19),
        R.DestroyParticleHook(Dir.Both, 19),
        R.StopParticleHook(Dir.Both, 7),
        R.NoDrawHook(Dir.Both, True),
        R.DefaultScriptHook(Dir.Both),
        R.DefaultScriptPartHook(Dir.Both, 2),
        R.CallPESHook(Dir.Both, 0x3300011B, 0.75),
        R.TransparentHook(Dir.Both, 0.0, 1.0, 0.25),
        R.SoundTweakedHook(Dir.Forward, 0x0A000262, 0.7, 0.25, 1.0),
        R.SetOmegaHook(Dir.Both, (0.0, 0.0, 3.0)),
        R.TextureVelocityHook(Dir.Both, 0.5, -0.25),
        R.TextureVelocityPartHook(Dir.Both, 1, 0.125, 0.5),
        R.SetLightHook(Dir.Both, False),
        R.CreateBlockingParticleHook(Dir.Both, 0x3200078E, 0, off, 21),
    ]


def sample_physics_script(did: int = 0x33000719) -> R.PhysicsScript:
    hooks = sample_hooks()
    # stored order deliberately not time order
    data = [R.PhysicsScriptData(float((i * 7) % 5) * 0.25, h) for i, h in enumerate(hooks)]
    return R.PhysicsScript.from_hooks(did, data)


def sample_physics_script_table(did: int = 0x34000005) -> R.PhysicsScriptTable:
    S = R.ScriptAndModData
    return R.PhysicsScriptTable(did, (
        (R.PlayScript.ProjectileCollision, R.PhysicsScriptTableData((S(1.0, 0x33000109),))),
        (R.PlayScript.Launch, R.PhysicsScriptTableData(
            (S(0.0, 0x3300011B), S(0.5, 0x3300011C), S(1.0, 0x3300011D)))),
        (R.PlayScript.Explode, R.PhysicsScriptTableData(
            (S(0.0, 0x3300011E), S(0.5, 0x3300012B), S(1.0, 0x33000120)))),
        (0x1234, R.PhysicsScriptTableData(())),   # unknown PlayScript kept as a number
    ))


def sample_emitter(did: int = 0x320009C4) -> R.ParticleEmitterInfo:
    return R.ParticleEmitterInfo(
        id=did, unknown=0, emitter_type=R.EmitterType.BirthratePerSec,
        particle_type=R.ParticleType.Explode, gfxobj_id=0x01000001, hw_gfxobj_id=0x01000002,
        birthrate=0.2, max_particles=50, initial_particles=3, total_particles=0,
        total_seconds=0.0, lifespan=1.5, lifespan_rand=0.25, offset_dir=(0.0, 0.0, 1.0),
        min_offset=0.0, max_offset=0.5, a=(0.0, 0.0, 1.0), min_a=0.5, max_a=1.0,
        b=(0.0, 0.0, -9.8), min_b=1.0, max_b=1.0, c=(1.0, 0.0, 0.0), min_c=0.0, max_c=0.0,
        start_scale=0.5, final_scale=1.5, scale_rand=0.1, start_trans=0.0, final_trans=1.0,
        trans_rand=0.0, is_parent_local=False)


def sample_setup(did: int = 0x02000124) -> R.Setup:
    pf = R.AnimationFrame((Frame(), Frame((0.0, 0.0, 0.5), Q90)), ())
    return R.Setup(
        id=did, flags=R.SetupFlags(0x7), parts=(0x01000001, 0x01000002),
        parent_index=(0xFFFFFFFF, 0), default_scale=((1.0, 1.0, 1.0), (0.532, 0.532, 0.532)),
        holding_locations=((R.ParentLocation.RightHand, R.LocationType(1, Frame())),),
        connection_points=(),
        placement_frames=((R.Placement.Default, pf),
                          (R.Placement.MissileFlight,
                           R.AnimationFrame(pf.frames, (R.NoOpHook(Dir.Both),)))),
        cylspheres=(R.CylSphere((0.0, 0.0, 0.0), 0.3, 1.2),),
        spheres=(Sphere((0.0, -0.165, 0.1045), 0.102),),
        height=0.878, radius=0.5269661, step_up_height=0.3612, step_down_height=0.25,
        sorting_sphere=Sphere((0.0, 0.0, 0.4), 0.5),
        selection_sphere=Sphere((0.0, 0.0, 0.4), 0.6),
        lights=(R.LightInfo(0, Frame((0.0, 0.0, 1.0)), 0xFFFFCC88, 1.5, 4.0,
                            -431602080.0),),
        default_animation=0, default_script=0x33000D77, default_motion_table=0x09000001,
        default_sound_table=0x20000001, default_script_table=0x3400002B)


def sample_setup_minimal(did: int = 0x02000108) -> R.Setup:
    """No optional parts at all: flags 0 -> parent_index and default_scale are None."""
    return replace(sample_setup(did), flags=R.SetupFlags(0), parent_index=None,
                   default_scale=None, lights=(), cylspheres=())


def sample_animation(did: int = 0x030009BF) -> R.Animation:
    hooks = sample_hooks()
    frames = []
    for i in range(3):
        frames.append(R.AnimationFrame(
            (Frame((0.0, 0.0, 0.1 * i)), Frame((0.1 * i, 0.0, 0.0), Q90)),
            tuple(hooks[i * 9:(i + 1) * 9])))
    return R.Animation(did, R.AnimationFlags.PosFrames | R.AnimationFlags.HasHooks, 2,
                       tuple(Frame((0.0, 0.05 * i, 0.0)) for i in range(3)), tuple(frames))


def sample_gfxobj(did: int = 0x010005E8) -> R.GfxObj:
    verts = tuple(R.SWVertex(i, (float(i & 1), float(i >> 1), 0.0), (0.0, 0.0, 1.0),
                             ((float(i & 1), float(i >> 1)),)) for i in range(4))
    poly = R.Polygon(0, R.StipplingType(0), R.CullMode(2), 0, 0, (0, 1, 3, 2), (0, 0, 0, 0),
                     (0, 0, 0, 0))
    poly2 = R.Polygon(1, R.StipplingType(0x4), R.CullMode(1), 0, 0, (0, 1, 2), None, None)
    return R.GfxObj(
        id=did, flags=R.GfxObjFlags(0xB), surfaces=(0x080001B8,),
        vertex_array=R.VertexArray(1, verts), physics_polygons=(poly2,),
        physics_bsp=R.physics_leaf_bsp((0.5, 0.5, 0.0), 0.75, (0,)), sort_center=(0.5, 0.5, 0.0),
        polygons=(poly, poly2), drawing_bsp=R.drawing_leaf_bsp(), did_degrade=0x11000001)


def sample_degrade(did: int = 0x11000001) -> R.GfxObjDegradeInfo:
    return R.GfxObjDegradeInfo(did, (R.GfxObjInfo(0x010005E8, 1, 0.0, 0.0, 25.0),
                                     R.GfxObjInfo(0x010005E9, 1, 25.0, 50.0, 100.0)))


def sample_motion_table(did: int = 0x09000202) -> R.MotionTable:
    md = R.MotionData(0, R.MotionDataFlags(0x3), (R.AnimData(0x030009BF, 0, -1, 9.96),),
                      (0.0, 1.0, 0.0), (0.0, 0.0, 0.5))
    md0 = R.MotionData(1, R.MotionDataFlags(0), (R.AnimData(0x03000001, 2, 5, -30.0),
                                                 R.AnimData(0x03000002, 0, -1, 30.0)),
                       None, None)
    return R.MotionTable(did, 0x8000003D, ((0x8000003D, 0x41000003),),
                         ((0x003D0003, md0),), ((0x003D0005, md),),
                         ((0x003D0003, ((0x10000153, md), (0x41000003, md0))),))


def sample_surface_image() -> R.Surface:
    return R.Surface(R.SurfaceType.Base1Image, 0x05001A9A, 0, None, 0.0, 0.0, 0.80078125)


def sample_surface_solid() -> R.Surface:
    return R.Surface(R.SurfaceType.Base1Solid, None, None, 0xFF6F3916, 0.0, 0.0, 1.0)


def sample_surface_texture(did: int = 0x050023BF) -> R.SurfaceTexture:
    return R.SurfaceTexture(did, 0, R.TextureType.Texture2D, (0x06005731, 0x06005731))


def sample_render_surface(did: int = 0x06000164) -> R.RenderSurface:
    w = h = 4
    data = bytes((x * 40, y * 40, 200, 255)[c] for y in range(h) for x in range(w)
                 for c in (2, 1, 0, 3))   # A8R8G8B8: bytes B, G, R, A
    return R.RenderSurface(did, 6, w, h, R.PixelFormat.A8R8G8B8, data, None)


def sample_render_surface_p8(did: int = 0x06007364) -> R.RenderSurface:
    return R.RenderSurface(did, 4, 4, 2, R.PixelFormat.P8, bytes(range(8)), 0x0400007E)


def sample_palette(did: int = 0x0400007E) -> R.Palette:
    return R.Palette(did, tuple(0xFF000000 | (i * 0x010203) for i in range(256)))


def sample_sound_table(did: int = 0x20000001) -> R.SoundTable:
    root = R.SoundTableData(0, (R.SoundEntry(0, 0.0, 1.0, 1.0),), (
        R.SoundTableData(0x0F, (R.SoundEntry(0x0A000262, 0.7, 1.0, 1.0),), ()),
        R.SoundTableData(0x75, (R.SoundEntry(0x0A000002, 0.5, 0.5, 0.8),
                                R.SoundEntry(0x0A000003, 0.5, 0.5, 0.9)), ()),
    ))
    return R.SoundTable(did, root)


def sample_wave(did: int = 0x0A000002) -> R.Wave:
    fmt = bytes.fromhex("0100" "0100" "11560000" "11560000" "0100" "0800" "0000")
    return R.Wave(did, fmt, bytes(range(256)) * 2)


def sample_region(did: int = 0x13000000) -> R.Region:
    ld = R.region.LandDefs(255, 255, 24.0, 192, 8, 200.0, 1000.0, 5.0,
                           tuple(float(i) for i in range(256)))
    gt = R.region.GameTime(0.0, 10, 7620.0, 360, "P.Y.",
                           (R.region.TimeOfDay(0.0, True, "Darktide"),
                            R.region.TimeOfDay(0.5, False, "Dawnsong")),
                           ("Snowreap", "Coldeve"), (R.region.Season(0, "Winter"),))
    sky = R.SkyDesc(0.1, 0.01, (R.DayGroup(1.0, "Sunny", (
        R.SkyObject(0.0, 1.0, 0.0, 360.0, 0.0, 0.01, 0x01000F00, 0x33000001, 0),
        R.SkyObject(0.25, 0.75, 90.0, 270.0, 0.0, 0.0, 0x01000F01, 0, 1)), (
        R.SkyTimeOfDay(0.0, 0.5, 90.0, 45.0, 0xFFFFFFFF, 0.3, 0xFF808080, 50.0, 300.0,
                       0xFF404040, 1, (R.SkyObjectReplace(0, 0x01000F02, 0.0, 0.5, 1.0, 1.0),)),
    )),))
    return R.Region(did, 1, 3, "Dereth", ld, gt, 0x10 | 0x1, sky, b"\x01\x02\x03\x04tail")


def sample_records() -> dict[int, object]:
    """One of everything, keyed by DID (Surfaces under 0x08 DIDs)."""
    recs = [sample_gfxobj(), sample_setup(), sample_setup_minimal(), sample_animation(),
            sample_palette(), sample_surface_texture(), sample_render_surface(),
            sample_render_surface_p8(), sample_motion_table(), sample_wave(),
            sample_degrade(), sample_region(), sample_sound_table(), sample_emitter(),
            sample_physics_script(), sample_physics_script_table()]
    out: dict[int, object] = {r.id: r for r in recs}
    out[0x080001B8] = sample_surface_image()
    out[0x08000219] = sample_surface_solid()
    return out
