"""The synthetic asset library: named DIDs of every record in ``synthetic_portal.dat``.

The DAT is written by ``python -m viewer.synthetic.generate`` with our own DAT writer in the
retail layout (no retail bytes). Code and tests name assets by these constants
(``synthetic.SETUP_ARROW``), never by bare numbers; ``assets_synthetic/MANIFEST.md`` (generated)
lists every DID, its type, what it exercises and which test uses it.

DID ranges follow retail: 0x01 GfxObj, 0x02 Setup, 0x03 Animation,
0x04 Palette, 0x05 SurfaceTexture, 0x06 RenderSurface, 0x08 Surface, 0x09 MotionTable,
0x0A Wave, 0x11 GfxObjDegradeInfo, 0x20 SoundTable, 0x32 ParticleEmitterInfo,
0x33 PhysicsScript, 0x34 PhysicsScriptTable. Synthetic DIDs start at 0x...0100 in each range;
seven PhysicsScripts sit at 0x33000Fxx because retail uses their 0x330001xx numbers (the
retail projectile scripts). The retail stand-ins (``retail_shaped.py``: the named
projectiles' Setups, tables, scripts and emitters at their retail DIDs, synthetic content)
are the only synthetic records at retail DIDs.
"""

from __future__ import annotations

from viewer import resources as _resources

#: The repository root when running from a checkout (the generator reads tests/ there).
ROOT = _resources.CHECKOUT
try:
    #: The library's folder: the package data ``viewer.assets_synthetic`` or, in a checkout,
    #: ``assets_synthetic/`` (viewer.resources).
    ASSETS_DIR = _resources.assets_dir()
except _resources.ResourceError:  # a broken install: the paths below do not exist, and
    ASSETS_DIR = _resources.CHECKOUT / "assets_synthetic"  # their users say so in one line
#: The generated synthetic portal DAT (committed).
SYNTHETIC_DAT = ASSETS_DIR / "synthetic_portal.dat"
#: The scenario ``./run`` and ``vfxviewer`` (no arguments) open.
DEFAULT_SCENARIO = ASSETS_DIR / "default.scenario.json"
MANIFEST = ASSETS_DIR / "MANIFEST.md"
#: A tour of the library: every particle type, every texture format, the hook scripts.
GALLERY_SCENARIO = ASSETS_DIR / "gallery.scenario.json"
#: The ten named retail projectiles (presets, at their retail DIDs) fired at a wall.
NAMED_PROJECTILES_SCENARIO = ASSETS_DIR / "named_projectiles.scenario.json"
#: A stress scene: 500 emitters, over 100k live particles from the first frame.
STRESS_SCENARIO = ASSETS_DIR / "stress.scenario.json"
#: The ObjDesc demo: a clothing part swap, a subpalette recolour, a texture change.
OBJDESC_SCENARIO = ASSETS_DIR / "objdesc.scenario.json"

# --------------------------------------------------------------------------------------------
# Textures: five procedural shapes in every pixel format (textures.py draws them).
# RenderSurface 0x0600SF0I / SurfaceTexture 0x0500SF0I / gallery Surface 0x0800SF0I /
# gallery GfxObj 0x0100SF0I where S = 1 + shape index and I = format index (hex).
# --------------------------------------------------------------------------------------------
SHAPES = ("spark", "glow", "smoke", "ring", "streak")

#: PixelFormat names drawn for every shape (the formats retail particle data uses).
MAIN_FORMATS = ("A8R8G8B8", "R8G8B8", "A8", "DXT1", "DXT3", "DXT5", "P8", "INDEX16")
#: Further formats the reader decodes, drawn for the glow shape only.
EXTRA_FORMATS = ("X8R8G8B8", "R5G6B5", "X1R5G5B5", "A1R5G5B5", "A4R4G4B4", "X4R4G4B4",
                 "A8B8G8R8", "X8B8G8R8", "CUSTOM_A8B8G8R8", "CUSTOM_B8G8R8",
                 "CUSTOM_LSCAPE_R8G8B8", "CUSTOM_LSCAPE_ALPHA", "R3G3B2", "A8R3G3B2", "L8",
                 "A8L8", "A4L4", "CUSTOM_RAW_JPEG")
ALL_FORMATS = MAIN_FORMATS + EXTRA_FORMATS


def _texture_key(shape: str, fmt: str) -> int:
    return ((1 + SHAPES.index(shape)) << 12) | ALL_FORMATS.index(fmt)


def texture_combinations() -> list[tuple[str, str]]:
    """Every (shape, format) pair the library draws, in DID order."""
    out = [(s, f) for s in SHAPES for f in MAIN_FORMATS]
    out += [("glow", f) for f in EXTRA_FORMATS]
    return sorted(out, key=lambda sf: _texture_key(*sf))


#: (shape, PixelFormat name) -> DIDs of the RenderSurface / SurfaceTexture / gallery Surface /
#: gallery GfxObj (a billboard quad textured with it).
RENDER_SURFACES = {k: 0x06000000 | _texture_key(*k) for k in texture_combinations()}
SURFACE_TEXTURES = {k: 0x05000000 | _texture_key(*k) for k in texture_combinations()}
GALLERY_SURFACES = {k: 0x08000000 | _texture_key(*k) for k in texture_combinations()}
GALLERY_GFXOBJS = {k: 0x01000000 | _texture_key(*k) for k in texture_combinations()}

# Palettes (0x04): one ramp per shape for P8 (256 colours) and INDEX16 (2048 colours).
PALETTES_P8 = {s: 0x04000101 + i for i, s in enumerate(SHAPES)}
PALETTES_INDEX16 = {s: 0x04000201 + i for i, s in enumerate(SHAPES)}

#: SurfaceTexture whose source-level list repeats one RenderSurface (as EoR 0x050023BF does).
SURFACE_TEXTURE_REPEATED = 0x05000100

# --------------------------------------------------------------------------------------------
# Surfaces (0x08) used by the particle quads and meshes.
# --------------------------------------------------------------------------------------------
SURFACE_SPARK_ADDITIVE = 0x08000101        # Base1Image | Additive (ONE/ONE: never fades)
SURFACE_GLOW_ALPHA_ADDITIVE = 0x08000102   # Base1Image | Alpha | Additive (SRCALPHA/ONE)
SURFACE_SMOKE_TRANSLUCENT = 0x08000103     # Base1Image | Alpha | Translucent, translucency 0.35
SURFACE_RING_LUMINOUS = 0x08000104         # Base1Image | Luminous | Additive, luminosity 1
SURFACE_STREAK_CLIPMAP = 0x08000105        # Base1ClipMap, P8 texture (alpha test)
SURFACE_SPARK_AUTO_TRANSLUCENT = 0x08000106  # translucency 0.5 without the Translucent bit
SURFACE_RING_INVALPHA = 0x08000107         # Base1Image | InvAlpha
SURFACE_SOLID_SKIN = 0x08000201
SURFACE_SOLID_CLOTH = 0x08000202
SURFACE_SOLID_METAL = 0x08000203
SURFACE_SOLID_WOOD = 0x08000204
SURFACE_SOLID_LANTERN_GLASS = 0x08000205   # Base1Solid | Luminous | Translucent
SURFACE_SOLID_BOLT_CORE = 0x08000206       # Base1Solid | Luminous
SURFACE_SOLID_BACK_FACE = 0x08000207       # the back-face surface of the double-sided quad

# --------------------------------------------------------------------------------------------
# GfxObjDegradeInfo (0x11): billboard modes for particle quads.
# --------------------------------------------------------------------------------------------
# Each GfxObj with a DIDDegrade has its own table: an entry names the mesh drawn at that
# distance (the renderer draws the entry's GfxObj), so level 0 names the quad itself.
DEGRADE_QUAD_RING = 0x11000101       # degrade_mode 1: mesh keeps its own frame
DEGRADE_QUAD_SPARK = 0x11000102      # degrade_mode 2: full camera-facing billboard
DEGRADE_QUAD_SPARK_AXIS_X = 0x11000103  # degrade_mode 3: axis-locked around local X
DEGRADE_QUAD_SPARK_AXIS_Y = 0x11000104  # degrade_mode 4: axis-locked around local Y
DEGRADE_QUAD_STREAK = 0x11000105     # degrade_mode 5: axis-locked around local Z
DEGRADE_THREE_LEVELS = 0x11000106    # smoke: 3 entries, degrade distance = entries[n-2].max_dist
DEGRADE_TWO_LEVELS = 0x11000107      # 2 entries: degrade distance = entries[0].max_dist
DEGRADE_QUAD_GLOW = 0x11000108
DEGRADE_QUAD_AUTO_TRANSLUCENT = 0x11000109
DEGRADE_QUAD_INVALPHA = 0x1100010A
DEGRADE_LANTERN_FLAME = 0x1100010B
# One table per billboard mode (aliases).
DEGRADE_MODE1_NONE = DEGRADE_QUAD_RING
DEGRADE_MODE2_BILLBOARD = DEGRADE_QUAD_SPARK
DEGRADE_MODE3_AXIS_X = DEGRADE_QUAD_SPARK_AXIS_X
DEGRADE_MODE4_AXIS_Y = DEGRADE_QUAD_SPARK_AXIS_Y
DEGRADE_MODE5_AXIS_Z = DEGRADE_QUAD_STREAK

# --------------------------------------------------------------------------------------------
# GfxObjs (0x01)
# --------------------------------------------------------------------------------------------
GFX_QUAD_SPARK = 0x01000101          # XZ-plane quad, additive spark, mode-2 billboard
GFX_QUAD_GLOW = 0x01000102           # XZ-plane quad, alpha-additive glow, mode-2 billboard
GFX_QUAD_SMOKE = 0x01000103          # XZ-plane quad, translucent smoke, three degrade levels
GFX_QUAD_RING = 0x01000104           # XY-plane (flat) quad, luminous ring, mode 1
GFX_QUAD_STREAK = 0x01000105         # XZ-plane quad, clip-mapped streak, axis-Z billboard
GFX_QUAD_SPARK_AXIS_X = 0x01000106   # XY-plane quad, axis-X billboard (mode 3 turns Z)
GFX_QUAD_SPARK_AXIS_Y = 0x01000107   # YZ-plane quad, axis-Y billboard (mode 4 turns X)
GFX_QUAD_NO_DEGRADE = 0x01000108     # no HasDIDDegrade: mode 1, degrade distance 100
GFX_QUAD_TWO_LEVELS = 0x01000109     # two degrade levels
GFX_QUAD_AUTO_TRANSLUCENT = 0x0100010A
GFX_QUAD_INVALPHA = 0x0100010B
GFX_QUAD_DOUBLE_SIDED = 0x0100010C   # sides_type 2 (own neg surface/UVs, front winding) + 1
GFX_SHARD = 0x01000201               # tetrahedron particle mesh (not a billboard)
GFX_CUBE_SMALL = 0x01000202          # textured 0.1 m cube particle mesh
GFX_HUMANOID_PELVIS = 0x01000301
GFX_HUMANOID_TORSO = 0x01000302
GFX_HUMANOID_HEAD = 0x01000303
GFX_HUMANOID_UPPER_ARM = 0x01000304
GFX_HUMANOID_FOREARM = 0x01000305
GFX_HUMANOID_THIGH = 0x01000306
GFX_HUMANOID_SHIN = 0x01000307
GFX_ARROW = 0x01000401               # shaft along +Y with a metal head
GFX_BOLT = 0x01000402                # luminous octahedron
GFX_LANTERN_BODY = 0x01000403        # wooden frame, with physics polygons + physics BSP
GFX_LANTERN_FLAME = 0x01000404       # glow billboard part
GFX_MARKER = 0x01000405              # small cube: host object for emitter tests
GFX_RACK = 0x01000406                # base of the attachment-point Setup
GFX_SCROLL_PLANE = 0x01000407        # 2 m smoke plane for TextureVelocity

# --------------------------------------------------------------------------------------------
# Setups (0x02)
# --------------------------------------------------------------------------------------------
SETUP_ARROW = 0x02000101        # one sphere, radius 0.10 at the origin (as retail's)
SETUP_BOLT = 0x02000102         # one sphere (0, -0.165, 0.1045) r 0.102, a light, DefaultScript
SETUP_HUMANOID = 0x02000103     # 11 parts, parent indices, placements, motion table, table
SETUP_LANTERN = 0x02000104      # static, Setup light, DefaultScript, DefaultAnimation, scales
SETUP_ATTACH_POINTS = 0x02000105  # holding locations and connection points for children
SETUP_MARKER = 0x02000106       # one small part, no spheres: emitter host
SETUP_SCROLL_PLANE = 0x02000107  # TextureVelocity target
SETUP_TEXTURE_GALLERY = 0x02000108  # one part per gallery quad: every texture format
SETUP_NULL_HOOKS = 0x02000109   # one part, DefaultAnimation ANIM_NULL_HOOKS

# Humanoid part indices (Setup part order).
HUMANOID_PARTS = ("pelvis", "torso", "head", "l_upper_arm", "l_forearm", "r_upper_arm",
                  "r_forearm", "l_thigh", "l_shin", "r_thigh", "r_shin")

# --------------------------------------------------------------------------------------------
# Animations (0x03) and the humanoid MotionTable (0x09)
# --------------------------------------------------------------------------------------------
ANIM_HUMANOID_IDLE = 0x03000101
ANIM_HUMANOID_WALK = 0x03000102     # PosFrames: root motion forward
ANIM_HUMANOID_RECALL = 0x03000103   # frame 16: CreateParticle EMIT_RECALL on part -1, id 19
ANIM_HOOK_DIRECTIONS = 0x03000104   # hooks with Forward / Backward / Both directions
ANIM_LANTERN_SWING = 0x03000105     # lantern DefaultAnimation
ANIM_HUMANOID_READY_TO_WALK = 0x03000106  # short link animation
ANIM_NULL_HOOKS = 0x03000107        # stored AnimationDone / unknown-type hooks (never run)

MTABLE_HUMANOID = 0x09000101

STYLE_NON_COMBAT = 0x8000003D
MOTION_READY = 0x41000003
MOTION_WALK_FORWARD = 0x45000005
MOTION_TURN_RIGHT = 0x6500000D
#: LifestoneRecall in ACE's numbering; the recall-like action.
MOTION_RECALL = 0x10000153
RECALL_EMITTER_LOGICAL_ID = 19
RECALL_EMITTER_FRAME = 16
RECALL_SOUND_FRAMES = (24, 32, 40)
RECALL_FRAMERATE = 9.96

# --------------------------------------------------------------------------------------------
# Sounds: Waves (0x0A) and the humanoid SoundTable (0x20)
# --------------------------------------------------------------------------------------------
WAVE_CHIME = 0x0A000101
WAVE_WHOOSH = 0x0A000102
WAVE_BOOM = 0x0A000103
#: One Wave per further WAVEFORMATEX form the retail files use (22050 Hz mono).
WAVE_TONE_PCM16 = 0x0A000110     # PCM 16-bit: 0.2 s 660 Hz tone
WAVE_CLICK_ADPCM = 0x0A000111    # MS ADPCM (0x0002): 0.1 s click train
WAVE_TONE_IMA = 0x0A000112       # IMA ADPCM (0x0011): 0.2 s 880 Hz tone
WAVE_TONE_MP3 = 0x0A000113       # MP3 (0x0055): 0.3 s 330 Hz tone
#: (name, format tag, bits, seconds, what) of those Waves, generated by synthetic/audio.py
WAVE_FORMS = (("WAVE_TONE_PCM16", 0x0001, 16, 0.2, 660.0),
              ("WAVE_CLICK_ADPCM", 0x0002, 16, 0.1, 0.0),
              ("WAVE_TONE_IMA", 0x0011, 16, 0.2, 880.0),
              ("WAVE_TONE_MP3", 0x0055, 16, 0.3, 330.0))
SOUND_SAMPLE_RATE = 22050
STABLE_HUMANOID = 0x20000101
#: Sound enum keys (client SoundType) used in the table and SoundTable hooks.
SOUND_TYPE_LAUNCH = 0x5F     # Sound_Launch
SOUND_TYPE_EXPLODE = 0x60    # Sound_Explode
SOUND_TYPE_RECALL = 0x51     # Sound_LifestoneOn

# --------------------------------------------------------------------------------------------
# ParticleEmitterInfos (0x32)
# --------------------------------------------------------------------------------------------
#: One emitter per ParticleType 1..12 (Still .. GlobalVelocity): 0x32000100 + type.
EMIT_BY_PARTICLE_TYPE = {pt: 0x32000100 + pt for pt in range(1, 13)}
EMIT_TRAIL_PER_METER = 0x32000201   # BirthratePerMeter trail (Launch, intensity 0.5)
EMIT_EXPLODE_SPARKS = 0x32000202    # Explode, initial burst, TotalParticles
EMIT_EXPLODE_SMOKE = 0x32000203     # ParabolicGVGA rising smoke, TotalSeconds
EMIT_EXPLODE_RING = 0x32000204      # one growing flat ring
EMIT_COLLISION_FLASH = 0x32000205   # one short glow
EMIT_RECALL = 0x32000206            # swirling parent-local recall cloud
EMIT_LANTERN_FLAME = 0x32000207     # persistent parent-local flame
EMIT_BLOCKING = 0x32000208          # persistent sparks for blocking-create tests
EMIT_UNKNOWN_EMITTER_TYPE = 0x32000209  # EmitterType 0: only its initial particles
EMIT_NO_HW_GFXOBJ = 0x3200020A      # hw_gfxobj_id 0: emitter creation fails
EMIT_TOTAL_PARTICLES = 0x3200020B   # stops after 10 births
EMIT_TOTAL_SECONDS = 0x3200020C     # stops 1.5 s after creation
EMIT_INITIAL_BURST = 0x3200020D     # 20 initial particles into 12 slots (excess dropped)
EMIT_RANDOM_RANGES = 0x3200020E     # wide lifespan/scale/trans/offset/A/B/C ranges
EMIT_TRAIL_PARENT_LOCAL = 0x3200020F  # the trail, but parent-local
EMIT_TRAIL_SMALL = 0x32000210       # Launch, intensity 0
EMIT_TRAIL_LARGE = 0x32000211       # Launch, intensity 1
EMIT_BOLT_CORE = 0x32000212         # persistent glow on the bolt
EMIT_ARROW_GLINT = 0x32000213
EMIT_ARROW_PUFF = 0x32000214
EMIT_STRESS_GLOW = 0x32000215       # stress: 200 initial LocalVelocity glows, persistent
EMIT_STRESS_SWARM = 0x32000216      # stress: 200 initial Swarm sparks, persistent
EMIT_STRESS_SHARDS = 0x32000217     # stress: 200 initial spinning shards (LVGAGR), persistent

# --------------------------------------------------------------------------------------------
# PhysicsScripts (0x33)
# --------------------------------------------------------------------------------------------
PES_LAUNCH_SMALL = 0x33000101       # flame table Launch, Mod 0
PES_LAUNCH_TRAIL = 0x33000102       # flame table Launch, Mod 0.5
PES_LAUNCH_LARGE = 0x33000103       # flame table Launch, Mod 1
PES_EXPLODE_SMALL = 0x33000104      # flame table Explode, Mod 0
PES_EXPLODE_MEDIUM = 0x33000105     # flame table Explode, Mod 0.5
PES_EXPLODE = 0x33000106            # flame table Explode, Mod 1: multi-emitter, Stop, Destroy
PES_COLLISION_FLASH = 0x33000107    # SetLight on, flash, SetLight off
PES_CALLPES_CHAIN = 0x33000108      # CallPES with a maximum pause, and an immediate one
PES_CHAIN_LINK_A = 0x33000F09
PES_CHAIN_LINK_B = 0x3300010A
PES_BLOCKING = 0x3300010B           # CreateBlockingParticle with a live logical id
PES_UNSORTED = 0x3300010C           # hooks stored out of time order (and equal times)
PES_LUMINOUS = 0x3300010D
PES_DIFFUSE = 0x3300010E
PES_TRANSPARENT = 0x3300010F
PES_SCALE = 0x33000110
PES_SET_OMEGA = 0x33000111
PES_TEXTURE_VELOCITY = 0x33000112
PES_NODRAW = 0x33000113
PES_SOUND = 0x33000114              # Sound, SoundTweaked, SoundTable
PES_HIDDEN = 0x33000115
PES_UNHIDE = 0x33000116
PES_LANTERN_DEFAULT = 0x33000117    # the lantern Setup's DefaultScript
PES_ALL_HOOKS = 0x33000118          # one hook of each of the 27 types
PES_EMPTY = 0x33000F19              # no entries
PES_EMITTER_GALLERY = 0x3300011A    # every ParticleType emitter side by side
PES_DEFAULT_SCRIPT = 0x33000F1B     # DefaultScript and DefaultScriptPart hooks
PES_PART_HOOKS = 0x33000F1C         # *Part hooks, including an out-of-range part index
PES_BOLT_DEFAULT = 0x33000F1D       # the bolt Setup's DefaultScript (persistent core glow)
PES_REPLACE_LOGICAL = 0x33000F1E    # CreateParticle twice with one logical id (replace)
PES_EMITTER_LIMITS = 0x3300011F     # TotalParticles/TotalSeconds/Initial/ranges/unknown/no-hw
PES_ARROW_CREATE = 0x33000F20
PES_ARROW_DESTROY = 0x33000121
PES_ARROW_DISAPPEAR = 0x33000122
PES_STRESS = 0x33000123             # ten stress emitters around the object
PES_NULL_ANIMATION_DONE = 0x33000124  # stored AnimationDone at 0.3 s ends the script
PES_NULL_UNKNOWN = 0x33000125         # an unknown hook type at 0.2 s ends the script
#: a hook type number outside retail's UnPackHook switch (stored header only)
UNKNOWN_HOOK_TYPE = 0x63

# --------------------------------------------------------------------------------------------
# PhysicsScriptTables (0x34)
# --------------------------------------------------------------------------------------------
PST_FLAME = 0x34000101      # ProjectileCollision@1, Launch@0/0.5/1, Explode@0/0.5/1
PST_ARROW = 0x34000102      # Create, Destroy, DisappearDestroy @1; no Launch/Explode
PST_HUMANOID = 0x34000103   # UnHide@1 / Hidden@1 pair (and Create)
PST_UNSORTED = 0x34000104   # entries stored out of Mod order; keys out of order; a duplicate

# --------------------------------------------------------------------------------------------
# ObjDesc demo (issue 27): a mannequin whose clothing part is swapped, recoloured through
# subpalettes and retextured (viewer/sim/objdesc.py). INDEX16 cloth textures index two bands
# of their palette: the dark "warp" threads at entries 64..127 (subpalette units 8..15), the
# light "weft" threads at 128..191 (units 16..23).
# --------------------------------------------------------------------------------------------
PALETTE_CLOTH_BASE = 0x04000301     # 2048 colours: blue warp, pale grey weft, grey elsewhere
PALETTE_CLOTH_CRIMSON = 0x04000302  # 2048 colours: crimson (the warp band's recolour)
PALETTE_CLOTH_GOLD = 0x04000303     # 256 colours: gold; widened x8 at load (Palette::InitLoad)
RS_CLOTH_WEAVE = 0x06000301         # 32x32 INDEX16 checker weave, default palette CLOTH_BASE
RS_CLOTH_STRIPES = 0x06000302       # 32x32 INDEX16 stripes, same bands
TEX_CLOTH_WEAVE = 0x05000301
TEX_CLOTH_STRIPES = 0x05000302
SURFACE_CLOTH = 0x08000301          # Base1Image on TEX_CLOTH_WEAVE
GFX_TUNIC = 0x01000501              # a short tunic box (the "clothing" part)
GFX_ROBE = 0x01000502               # a long robe box that replaces it
SETUP_MANNEQUIN = 0x0200010A        # part 0 the stand, part 1 the tunic
PES_MANNEQUIN_FLAME = 0x33000F25    # a persistent flame on part 1 (it must follow the swap)
#: subpalette units (offset, length) of the two bands
CLOTH_WARP_UNITS = (8, 8)
CLOTH_WEFT_UNITS = (16, 8)

#: PhysicsState used for the default-scenario projectiles:
#: ReportCollisions | Missile | AlignPath | PathClipped | LightingOn | Inelastic.
PROJECTILE_STATE = 0x00020B48
#: CPhysicsObj::CPhysicsObj 0x005123F0 default state.
DEFAULT_STATE = 0x00400C08


def falling_arrows_scenario(n: int, seconds: float = 1.0) -> dict:
    """A scenario (JSON data) of ``n`` arrows on a 0.5 m grid 2 m up, launched up and
    sideways at t = 0 so they fall onto a ground plane side by side: the collision load of
    many movers among many objects (bench/projectiles.py, the broad phase's work test)."""
    side = max(1, round(n ** 0.5))
    events = []
    for k in range(n):
        x, y = 0.5 * (k % side), 0.5 * (k // side)
        events.append({"t": 0.0, "object": k + 1,
                       "create": {"setup": f"0x{SETUP_ARROW:08X}", "position": [x, y, 2.0],
                                  "state": f"0x{DEFAULT_STATE:08X}"}})
        events.append({"t": 0.0, "object": k + 1,
                       "launch": {"velocity": [0.5 * ((k % 3) - 1), 0.3, 2.0]}})
    return {"dat": [str(SYNTHETIC_DAT)], "seed": 0, "fps": 30, "seconds": seconds,
            "objects": [], "world": [{"plane": {"normal": [0, 0, 1], "d": 0}}],
            "events": events}
