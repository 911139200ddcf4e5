"""What the retail client's End-of-Retail (September 2013) DAT files are known to hold.

Every number here is a fact about the installed retail ``client_portal.dat``, pinned by an
audit of the retail files (the End-of-Retail DAT facts of docs/cli.md section 9); ``vfxviewer
audit`` checks a user's DATs against exactly this list, and the named projectile presets
read their Setup and PhysicsScriptTable from it. No retail bytes are here: only DIDs,
numbers and the length + SHA-256 of a few records. Edit nothing without a new audit of the
retail files.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.dat.records.common import AnimationHookType as HT
from viewer.dat.records.common import PlayScript as PS

SOURCE = "retail End-of-Retail DAT audit (docs/cli.md section 9)"


# --------------------------------------------------------------------------------------------
# 11: the projectile WCIDs (weenie Setup DID and PhysicsEffectTable DID) and 11.1 their
# collision spheres: exactly one ordinary sphere each, no cylinder spheres.
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Projectile:
    wcid: int
    name: str
    setup: int
    table: int | None               # None: no PhysicsScriptTable in the weenie template
    sphere_origin: tuple[float, float, float]
    sphere_radius: float


PROJECTILES: tuple[Projectile, ...] = (
    Projectile(300, "Arrow", 0x02000124, 0x3400002B, (0.0, 0.0, 0.0), 0.10),
    Projectile(305, "Quarrel", 0x0200012A, 0x3400002B, (0.0, 0.0, 0.0), 0.10),
    Projectile(7276, "Acid Stream", 0x020003F6, 0x34000082, (0.0, 0.0, 0.0), 0.10),
    Projectile(7277, "Flame Bolt", 0x0200040D, 0x34000005, (0.0, 0.0, 0.0), 0.10),
    Projectile(7278, "Force Bolt", 0x0200087D, None, (0.0, -0.165, 0.1045), 0.102),
    Projectile(7279, "Frost Bolt", 0x020003F4, 0x34000080, (0.0, 0.0, 0.0), 0.10),
    Projectile(7280, "Lightning Bolt", 0x02000880, 0x34000081, (0.0, 0.0, 0.0), 0.15),
    Projectile(7281, "Shockwave", 0x020003FA, None, (0.0, 0.0, 0.0), 0.10),
    Projectile(7282, "Whirling Blade", 0x020003FC, None, (0.0, 0.0, 0.0), 0.10),
    Projectile(23144, "Tusker Fist", 0x02000EAE, None, (0.0, 0.0, 0.0), 0.10),
)
PROJECTILES_BY_NAME: dict[str, Projectile] = {p.name: p for p in PROJECTILES}
#: How far a stored sphere value may lie from the audited (printed) value.
SPHERE_TOLERANCE = 5e-4


# --------------------------------------------------------------------------------------------
# 11.2 the projectile tables: the pinned entries in stored order, each (PlayScript,
# ((mod, script), ...)); the PlayScripts that must be absent; what the scripts of an entry
# contain (hook types found in the script or the scripts it calls; a tuple means any one).
# --------------------------------------------------------------------------------------------
SOUND_HOOKS = (HT.Sound, HT.SoundTable, HT.SoundTweaked)


@dataclass(frozen=True)
class TableFacts:
    did: int
    name: str
    entries: tuple[tuple[PS, tuple[tuple[float, int], ...]], ...]
    absent: tuple[PS, ...] = ()
    contents: tuple[tuple[PS, tuple], ...] = ()


_SPELL_CONTENTS = ((PS.ProjectileCollision, (HT.SetLight,)),
                   (PS.Launch, (HT.CreateParticle, SOUND_HOOKS)),
                   (PS.Explode, (HT.CreateParticle, SOUND_HOOKS)))


def _spell(did: int, name: str, launch: int, explode: int) -> TableFacts:
    return TableFacts(did, name, ((PS.ProjectileCollision, ((1.0, 0x33000109),)),
                                  (PS.Launch, ((1.0, launch),)),
                                  (PS.Explode, ((1.0, explode),))), (), _SPELL_CONTENTS)


PROJECTILE_TABLES: tuple[TableFacts, ...] = (
    TableFacts(0x3400002B, "Arrow/Quarrel", (
        (PS.Create, ((1.0, 0x33000719),)),
        (PS.Destroy, ((1.0, 0x33000233),)),
        (PS.DisappearDestroy, ((1.0, 0x33000302),))), absent=(PS.Launch, PS.Explode)),
    TableFacts(0x34000005, "Flame", (
        (PS.ProjectileCollision, ((1.0, 0x33000109),)),
        (PS.Launch, ((0.0, 0x3300011B), (0.5, 0x3300011C), (1.0, 0x3300011D))),
        (PS.Explode, ((0.0, 0x3300011E), (0.5, 0x3300012B), (1.0, 0x33000120)))),
        contents=_SPELL_CONTENTS),
    _spell(0x34000080, "Frost", 0x330008BF, 0x33000119),
    _spell(0x34000081, "Lightning", 0x330008C0, 0x3300013E),
    _spell(0x34000082, "Acid", 0x330008C2, 0x33000132),
)


@dataclass(frozen=True)
class DefaultScriptFacts:
    """Tusker Fist has no table; its Setup's DefaultScript plays at creation."""

    name: str
    setup: int
    script: int
    hooks: tuple[HT, ...]           # the script's hooks (any order), all at time 0
    emitter: int                    # the CreateParticle's ParticleEmitterInfo
    part: int                       # ... and its part index


DEFAULT_SCRIPTS: tuple[DefaultScriptFacts, ...] = (
    DefaultScriptFacts("Tusker Fist", 0x02000EAE, 0x33000D77,
                       (HT.Scale, HT.CreateParticle, HT.SoundTable), 0x3200071B, 0),
)


# --------------------------------------------------------------------------------------------
# 11.3 the recall chain (human MotionTable, NonCombat link) and the Hidden / UnHide pairs
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RecallFacts:
    motion_table: int
    style: int                      # NonCombat
    command: int                    # the DAT's recall motion command (not an Animation DID)
    animation: int
    framerate: float
    emitter: int
    emitter_part: int               # -1: the object's root
    emitter_logical_id: int
    emitter_frame: int
    sound_frames: tuple[int, ...]   # frames holding the SoundTweaked hooks


RECALL = RecallFacts(motion_table=0x09000001, style=0x8000003D, command=0x10000153,
                     animation=0x030009BF, framerate=9.96, emitter=0x3200078E,
                     emitter_part=-1, emitter_logical_id=19, emitter_frame=16,
                     sound_frames=(16, 46, 76, 116))
FRAMERATE_TOLERANCE = 5e-3

#: Every table that holds both UnHide and Hidden: table -> (UnHide script, Hidden script),
#: each at Mod 1 (state transitions resolve at intensity 1).
HIDDEN_UNHIDE_PAIRS: dict[int, tuple[int, int]] = {
    **{t: (0x3300032F, 0x33000331) for t in (
        0x34000004, 0x34000064, 0x34000066, 0x34000076, 0x34000095, 0x340000B2,
        0x340000B4, 0x340000C9, 0x340000CA, 0x340000CB, 0x340000CD, 0x340000D1)},
    **{t: (0x330002E0, 0x330002F3) for t in (0x34000063, 0x340000A9, 0x340000B9, 0x340000BB)},
}


# --------------------------------------------------------------------------------------------
# 11.4 CreateBlocking inventory (aligned raw scan) and record identities
# --------------------------------------------------------------------------------------------
#: The PhysicsScripts holding a CreateBlockingParticle hook; no Animation holds one.
CREATE_BLOCKING_SCRIPTS: tuple[int, ...] = tuple(range(0x33000AEA, 0x33000AF8 + 1))
#: AnimationHookDir values retail stores (Both, Forward, Backward, Unknown).
HOOK_DIRECTIONS: tuple[int, ...] = (0, 1, -1, -2)


@dataclass(frozen=True)
class RecordIdentity:
    name: str
    did: int
    length: int
    sha256: str                     # upper-case hex of the record's bytes


RECORD_IDENTITIES: tuple[RecordIdentity, ...] = (
    RecordIdentity("Arrow Setup", 0x02000124, 812,
                   "630D19A9C79137F7BA90D01448B03E8F44D655FF77A4725792CB5660930A079E"),
    RecordIdentity("Quarrel Setup", 0x0200012A, 776,
                   "ED529E834CC1799B5655549200F7D1060FB62A707988E7B7D4FBED2D9C4BA0D1"),
    RecordIdentity("Force Bolt Setup", 0x0200087D, 344,
                   "B30469764673F55BCBB4F123559256299C34D819974EAB42AC476E3FEED6EAE8"),
    RecordIdentity("Flame table", 0x34000005, 88,
                   "86906B0EDDC9AA2242091EAC7A22C88FB2150F0773B6CCA1FA5E4AAEAFF2A386"),
    RecordIdentity("Recall Animation", 0x030009BF, 143560,
                   "21EF99FE5A760216AF48946B9C41D0FA7E4B94297B8DEC8B91C41BB8C7A0D02D"),
    RecordIdentity("Blocking PES", 0x33000AEA, 64,
                   "C0D75973ADB55386ED6AC860C6D08EC43862ABE8CE07AC4E942EBA31DAF61320"),
    RecordIdentity("Tusker Fist default PES", 0x33000D77, 108,
                   "9F27628BDEA6B05C95CFADD037746AB380542DF8B040265EF881B3366CB8E12E"),
)
