"""Shared value types and enums of the DAT records.

Enum fields hold the IntEnum member when the value is known and the plain ``int`` when it
is not: unknown values are kept, never rejected (``as_enum``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from viewer.dat.binary import Reader, Writer

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]  # (w, x, y, z), as stored on disk


@dataclass(frozen=True, slots=True)
class Frame:
    """AFrame: origin (x, y, z) then orientation (w, x, y, z); AFrame::UnPack 0x005A9FB0."""

    origin: Vec3 = (0.0, 0.0, 0.0)
    orientation: Quat = (1.0, 0.0, 0.0, 0.0)

    @staticmethod
    def read(r: Reader) -> Frame:
        v = r.frame7("Frame")
        return Frame((v[0], v[1], v[2]), (v[3], v[4], v[5], v[6]))

    def write(self, w: Writer) -> None:
        w.fmt("7f", *self.origin, *self.orientation)


IDENTITY_FRAME = Frame()


@dataclass(frozen=True, slots=True)
class Sphere:
    center: Vec3
    radius: float

    @staticmethod
    def read(r: Reader) -> Sphere:
        v = r.sphere()
        return Sphere((v[0], v[1], v[2]), v[3])

    def write(self, w: Writer) -> None:
        w.sphere(self.center, self.radius)


@dataclass(frozen=True, slots=True)
class CylSphere:
    """CCylSphere::UnPack 0x0053A960: low_point, radius, height (20 bytes)."""

    low_point: Vec3
    radius: float
    height: float

    @staticmethod
    def read(r: Reader) -> CylSphere:
        v = r.fmt("5f", "CylSphere")
        return CylSphere((v[0], v[1], v[2]), v[3], v[4])

    def write(self, w: Writer) -> None:
        w.fmt("5f", *self.low_point, self.radius, self.height)


@dataclass(frozen=True, slots=True)
class Plane:
    normal: Vec3
    d: float


def as_enum(cls: type[enum.IntEnum], value: int):
    """The enum member if known, else the number itself (unknown values are kept)."""
    try:
        return cls(value)
    except ValueError:
        return value


class AnimationHookType(enum.IntEnum):
    NoOp = 0
    Sound = 1
    SoundTable = 2
    Attack = 3
    AnimationDone = 4
    ReplaceObject = 5
    Ethereal = 6
    TransparentPart = 7
    Luminous = 8
    LuminousPart = 9
    Diffuse = 10
    DiffusePart = 11
    Scale = 12
    CreateParticle = 13
    DestroyParticle = 14
    StopParticle = 15
    NoDraw = 16
    DefaultScript = 17
    DefaultScriptPart = 18
    CallPES = 19
    Transparent = 20
    SoundTweaked = 21
    SetOmega = 22
    TextureVelocity = 23
    TextureVelocityPart = 24
    SetLight = 25
    CreateBlockingParticle = 26


class AnimationHookDir(enum.IntEnum):
    Unknown = -2
    Backward = -1
    Both = 0
    Forward = 1


class EmitterType(enum.IntEnum):
    Unknown = 0
    BirthratePerSec = 1
    BirthratePerMeter = 2


class ParticleType(enum.IntEnum):
    Unknown = 0
    Still = 1
    LocalVelocity = 2
    ParabolicLVGA = 3
    ParabolicLVGAGR = 4
    Swarm = 5
    Explode = 6
    Implode = 7
    ParabolicLVLA = 8
    ParabolicLVLALR = 9
    ParabolicGVGA = 10
    ParabolicGVGAGR = 11
    GlobalVelocity = 12
    NumParticleType = 13


class SurfaceType(enum.IntFlag):
    Base1Solid = 0x1
    Base1Image = 0x2
    Base1ClipMap = 0x4
    Translucent = 0x10
    Diffuse = 0x20
    Luminous = 0x40
    Alpha = 0x100
    InvAlpha = 0x200
    Additive = 0x10000
    Detail = 0x20000
    Gouraud = 0x10000000
    Stippled = 0x40000000
    Perspective = 0x80000000


class PixelFormat(enum.IntEnum):
    UNKNOWN = 0x00
    R8G8B8 = 0x14
    A8R8G8B8 = 0x15
    X8R8G8B8 = 0x16
    R5G6B5 = 0x17
    X1R5G5B5 = 0x18
    A1R5G5B5 = 0x19
    A4R4G4B4 = 0x1A
    R3G3B2 = 0x1B
    A8 = 0x1C
    A8R3G3B2 = 0x1D
    X4R4G4B4 = 0x1E
    A2B10G10R10 = 0x1F
    A8B8G8R8 = 0x20
    X8B8G8R8 = 0x21
    A2R10G10B10 = 0x23
    A8P8 = 0x28
    P8 = 0x29
    L8 = 0x32
    A8L8 = 0x33
    A4L4 = 0x34
    V8U8 = 0x3C
    L6V5U5 = 0x3D
    X8L8V8U8 = 0x3E
    Q8W8V8U8 = 0x3F
    V16U16 = 0x40
    A2W10V10U10 = 0x43
    D16_LOCKABLE = 0x46
    D32 = 0x47
    D15S1 = 0x49
    D24S8 = 0x4B
    D24X8 = 0x4D
    D24X4S4 = 0x4F
    D16 = 0x50
    VERTEXDATA = 0x64
    INDEX16 = 0x65
    INDEX32 = 0x66
    CUSTOM_R8G8B8A8 = 0xF0
    CUSTOM_A8B8G8R8 = 0xF1
    CUSTOM_B8G8R8 = 0xF2
    CUSTOM_LSCAPE_R8G8B8 = 0xF3
    CUSTOM_LSCAPE_ALPHA = 0xF4
    CUSTOM_RAW_JPEG = 0x1F4
    DXT1 = 0x31545844
    DXT2 = 0x32545844
    YUY2 = 0x32595559
    DXT3 = 0x33545844
    DXT4 = 0x34545844
    DXT5 = 0x35545844
    G8R8_G8B8 = 0x42475247
    R8G8_B8G8 = 0x47424752
    UYVY = 0x59565955
    INVALID = 0x7FFFFFFF


class TextureType(enum.IntEnum):
    Undefined = 1
    Texture2D = 2
    Texture3D = 3
    Cube = 4
    Movie2D = 5


class SetupFlags(enum.IntFlag):
    HasParent = 0x1
    HasDefaultScale = 0x2
    AllowFreeHeading = 0x4
    HasPhysicsBSP = 0x8


class GfxObjFlags(enum.IntFlag):
    HasPhysics = 0x1
    HasDrawing = 0x2
    Unknown = 0x4
    HasDIDDegrade = 0x8


class AnimationFlags(enum.IntFlag):
    PosFrames = 0x1
    HasHooks = 0x2


class MotionDataFlags(enum.IntFlag):
    HasVelocity = 0x1
    HasOmega = 0x2


# Names with "None" in them need the functional API.
StipplingType = enum.IntFlag("StipplingType", [("None", 0x0), ("Positive", 0x1),
                                               ("Negative", 0x2), ("NoPos", 0x4),
                                               ("NoNeg", 0x8), ("NoUVs", 0x14)])
StipplingType.__module__ = __name__

#: sides_type of a polygon (ACE CullMode names).
CullMode = enum.IntEnum("CullMode", [("Landblock", 0), ("None", 1), ("Clockwise", 2),
                                     ("CounterClockwise", 3)])
CullMode.__module__ = __name__

ParentLocation = enum.IntEnum("ParentLocation", [
    ("None", 0), ("RightHand", 1), ("LeftHand", 2), ("Shield", 3), ("Belt", 4), ("Quiver", 5),
    ("Heraldry", 6), ("Mouth", 7), ("LeftWeapon", 8), ("LeftUnarmed", 9)])
ParentLocation.__module__ = __name__


class Placement(enum.IntEnum):
    Default = 0
    RightHandCombat = 1
    RightHandNonCombat = 2
    LeftHand = 3
    Belt = 4
    Quiver = 5
    Shield = 6
    LeftWeapon = 7
    LeftUnarmed = 8
    SpecialCrossbowBolt = 0x33
    MissileFlight = 0x34
    Resting = 0x65
    Other = 0x66
    Hook = 0x67
    Random1 = 0x79
    Random2 = 0x7A
    Random3 = 0x7B
    Random4 = 0x7C
    Random5 = 0x7D
    Random6 = 0x7E
    Random7 = 0x7F
    Random8 = 0x80
    Random9 = 0x81
    Random10 = 0x82


_PLAY_SCRIPT_NAMES = """
Invalid Test1 Test2 Test3 Launch Explode AttribUpRed AttribDownRed AttribUpOrange
AttribDownOrange AttribUpYellow AttribDownYellow AttribUpGreen AttribDownGreen AttribUpBlue
AttribDownBlue AttribUpPurple AttribDownPurple SkillUpRed SkillDownRed SkillUpOrange
SkillDownOrange SkillUpYellow SkillDownYellow SkillUpGreen SkillDownGreen SkillUpBlue
SkillDownBlue SkillUpPurple SkillDownPurple SkillDownBlack HealthUpRed HealthDownRed
HealthUpBlue HealthDownBlue HealthUpYellow HealthDownYellow RegenUpRed RegenDownRed RegenUpBlue
RegenDownBlue RegenUpYellow RegenDownYellow ShieldUpRed ShieldDownRed ShieldUpOrange
ShieldDownOrange ShieldUpYellow ShieldDownYellow ShieldUpGreen ShieldDownGreen ShieldUpBlue
ShieldDownBlue ShieldUpPurple ShieldDownPurple ShieldUpGrey ShieldDownGrey EnchantUpRed
EnchantDownRed EnchantUpOrange EnchantDownOrange EnchantUpYellow EnchantDownYellow
EnchantUpGreen EnchantDownGreen EnchantUpBlue EnchantDownBlue EnchantUpPurple
EnchantDownPurple VitaeUpWhite VitaeDownBlack VisionUpWhite VisionDownBlack
SwapHealth_Red_To_Yellow SwapHealth_Red_To_Blue SwapHealth_Yellow_To_Red
SwapHealth_Yellow_To_Blue SwapHealth_Blue_To_Red SwapHealth_Blue_To_Yellow TransUpWhite
TransDownBlack Fizzle PortalEntry PortalExit BreatheFlame BreatheFrost BreatheAcid
BreatheLightning Create Destroy ProjectileCollision SplatterLowLeftBack SplatterLowLeftFront
SplatterLowRightBack SplatterLowRightFront SplatterMidLeftBack SplatterMidLeftFront
SplatterMidRightBack SplatterMidRightFront SplatterUpLeftBack SplatterUpLeftFront
SplatterUpRightBack SplatterUpRightFront SparkLowLeftBack SparkLowLeftFront SparkLowRightBack
SparkLowRightFront SparkMidLeftBack SparkMidLeftFront SparkMidRightBack SparkMidRightFront
SparkUpLeftBack SparkUpLeftFront SparkUpRightBack SparkUpRightFront PortalStorm Hide UnHide
Hidden DisappearDestroy SpecialState1 SpecialState2 SpecialState3 SpecialState4 SpecialState5
SpecialState6 SpecialState7 SpecialState8 SpecialState9 SpecialState0 SpecialStateRed
SpecialStateOrange SpecialStateYellow SpecialStateGreen SpecialStateBlue SpecialStatePurple
SpecialStateWhite SpecialStateBlack LevelUp EnchantUpGrey EnchantDownGrey WeddingBliss
EnchantUpWhite EnchantDownWhite CampingMastery CampingIneptitude DispelLife DispelCreature
DispelAll BunnySmite BaelZharonSmite WeddingSteele RestrictionEffectBlue RestrictionEffectGreen
RestrictionEffectGold LayingofHands AugmentationUseAttribute AugmentationUseSkill
AugmentationUseResistances AugmentationUseOther BlackMadness AetheriaLevelUp
AetheriaSurgeDestruction AetheriaSurgeProtection AetheriaSurgeRegeneration
AetheriaSurgeAffliction AetheriaSurgeFestering HealthDownVoid RegenDownVoid SkillDownVoid
DirtyFightingHealDebuff DirtyFightingAttackDebuff DirtyFightingDefenseDebuff
DirtyFightingDamageOverTime
""".split()  # noqa: SIM905

#: PlayScript (client PScriptType), the PhysicsScriptTable keys; values 0x00..0xAD.
PlayScript = enum.IntEnum("PlayScript", [(n, i) for i, n in enumerate(_PLAY_SCRIPT_NAMES)])
PlayScript.__module__ = __name__
assert PlayScript.DirtyFightingDamageOverTime == 0xAD and PlayScript.Hidden == 0x76
