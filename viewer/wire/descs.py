"""The three descriptions a CreateObject carries: ObjDesc, PhysicsDesc, PublicWeenieDesc.

``PhysicsDesc::UnPack`` 0x0051DDD0 reads them in the order below. Absent optional
values stay ``None``; a present zero stays zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.wire.motion import MovementBody, read_movement_body
from viewer.wire.reader import Reader

# PhysicsDescFlags
PD_CSETUP = 0x1
PD_MTABLE = 0x2
PD_VELOCITY = 0x4
PD_ACCELERATION = 0x8
PD_OMEGA = 0x10
PD_PARENT = 0x20
PD_CHILDREN = 0x40
PD_OBJSCALE = 0x80
PD_FRICTION = 0x100
PD_ELASTICITY = 0x200
PD_TIMESTAMPS = 0x400
PD_STABLE = 0x800
PD_PETABLE = 0x1000
PD_DEFAULT_SCRIPT = 0x2000
PD_DEFAULT_SCRIPT_INTENSITY = 0x4000
PD_POSITION = 0x8000
PD_MOVEMENT = 0x10000
PD_ANIMFRAME_ID = 0x20000
PD_TRANSLUCENCY = 0x40000

# PhysicsTimeStamp indices
POSITION_TS = 0
MOVEMENT_TS = 1
STATE_TS = 2
VECTOR_TS = 3
TELEPORT_TS = 4
SERVER_CONTROLLED_MOVE_TS = 5
FORCE_POSITION_TS = 6
OBJDESC_TS = 7
INSTANCE_TS = 8
TIMESTAMP_NAMES = ("position", "movement", "state", "vector", "teleport",
                   "server_controlled_move", "force_position", "objdesc", "instance")


@dataclass(frozen=True, slots=True)
class Position:
    """objcell_id, landblock-local origin (x, y, z), orientation (w, x, y, z)."""
    cell: int
    origin: tuple[float, float, float]
    orientation: tuple[float, float, float, float]

    @classmethod
    def read(cls, r: Reader) -> Position:
        v = r.position()
        return cls(v[0], v[1:4], v[4:8])


@dataclass(frozen=True, slots=True)
class Subpalette:
    palette: int
    offset: int
    num_colors: int


@dataclass(frozen=True, slots=True)
class TextureChange:
    part_index: int
    old_texture: int
    new_texture: int


@dataclass(frozen=True, slots=True)
class AnimPartChange:
    part_index: int
    gfxobj: int


@dataclass(frozen=True, slots=True)
class ObjDesc:
    version: int
    base_palette: int | None      # present only when there are subpalettes
    subpalettes: tuple[Subpalette, ...]
    texture_changes: tuple[TextureChange, ...]
    anim_part_changes: tuple[AnimPartChange, ...]


def read_objdesc(r: Reader) -> ObjDesc:
    version = r.u8("ObjDesc version")
    n_sub = r.u8("ObjDesc num_subpalettes")
    n_tex = r.u8("ObjDesc num_texture_changes")
    n_anim = r.u8("ObjDesc num_anim_part_changes")
    base = r.packed_dword(0x04000000, "ObjDesc base_palette") if n_sub else None
    subs = tuple(Subpalette(r.packed_dword(0x04000000, "subpalette"), r.u8("subpalette offset"),
                            r.u8("subpalette num_colors")) for _ in range(n_sub))
    texs = tuple(TextureChange(r.u8("texture part"), r.packed_dword(0x05000000, "old texture"),
                               r.packed_dword(0x05000000, "new texture")) for _ in range(n_tex))
    anims = tuple(AnimPartChange(r.u8("anim part"), r.packed_dword(0x01000000, "anim gfxobj"))
                  for _ in range(n_anim))
    r.align4("ObjDesc align4")
    return ObjDesc(version, base, subs, texs, anims)


@dataclass(frozen=True, slots=True)
class PhysicsDesc:
    flags: int
    state: int
    movement: bytes | None                 # raw movement buffer (MOVEMENT, n > 0)
    movement_body: MovementBody | None     # that buffer parsed
    autonomous_movement: int | None        # only when n > 0
    animframe_id: int | None
    position: Position | None
    motion_table: int | None
    sound_table: int | None
    physics_script_table: int | None
    setup: int | None
    parent: tuple[int, int] | None          # (parent guid, location id)
    children: tuple[tuple[int, int], ...] | None
    scale: float | None
    friction: float | None
    elasticity: float | None
    translucency: float | None
    velocity: tuple[float, float, float] | None
    acceleration: tuple[float, float, float] | None
    omega: tuple[float, float, float] | None
    default_script: int | None
    default_script_intensity: float | None
    timestamps: tuple[int, ...]             # 9 stamps, POSITION_TS .. INSTANCE_TS

    @property
    def instance_ts(self) -> int:
        return self.timestamps[INSTANCE_TS]


# the u32 DIDs after the position, and the optional values after the children, in wire order
_PD_IDS = ((PD_MTABLE, "motion_table"), (PD_STABLE, "sound_table"),
           (PD_PETABLE, "physics_script_table"), (PD_CSETUP, "setup"))
_PD_TAIL = ((PD_OBJSCALE, "f32", "scale"), (PD_FRICTION, "f32", "friction"),
            (PD_ELASTICITY, "f32", "elasticity"), (PD_TRANSLUCENCY, "f32", "translucency"),
            (PD_VELOCITY, "vec3", "velocity"), (PD_ACCELERATION, "vec3", "acceleration"),
            (PD_OMEGA, "vec3", "omega"), (PD_DEFAULT_SCRIPT, "u32", "default_script"),
            (PD_DEFAULT_SCRIPT_INTENSITY, "f32", "default_script_intensity"))


def read_physics_desc(r: Reader) -> PhysicsDesc:
    # PhysicsDesc::UnPack 0x0051DDD0: the field order is not the bit order.
    flags = r.u32("PhysicsDesc flags")
    state = r.u32("PhysicsDesc state")
    movement, body, autonomous, animframe = _read_pd_motion(r, flags)
    position = Position.read(r) if flags & PD_POSITION else None
    mtable, stable, petable, setup = [r.u32(f"PhysicsDesc {name}") if flags & bit else None
                                      for bit, name in _PD_IDS]
    parent = (r.u32("parent guid"), r.u32("parent location")) if flags & PD_PARENT else None
    children = None
    if flags & PD_CHILDREN:
        count = r.u32("PhysicsDesc children count")
        r.need(8 * count, "PhysicsDesc children")
        children = tuple((r.u32(), r.u32()) for _ in range(count))
    tail = [getattr(r, kind)(f"PhysicsDesc {name}") if flags & bit else None
            for bit, kind, name in _PD_TAIL]
    r.need(18, "PhysicsDesc timestamps")
    stamps = tuple(r.u16() for _ in range(9))
    r.align4("PhysicsDesc align4")
    return PhysicsDesc(flags, state, movement, body, autonomous, animframe, position, mtable,
                       stable, petable, setup, parent, children, *tail, stamps)


def _read_pd_motion(r: Reader, flags: int):
    """(movement buffer, its parsed body, autonomous_movement, animframe_id): a movement
    buffer when PD_MOVEMENT is set, else an animframe id when PD_ANIMFRAME_ID is."""
    if flags & PD_MOVEMENT:
        n = r.u32("PhysicsDesc movement length")
        if n <= 0:
            return None, None, None, None
        start = r.pos
        movement = r.raw(n, "PhysicsDesc movement buffer")
        # Parsed as its own sub-stream; align4 inside counts from the message start.
        sub = Reader(r.data, start, start + n, base=r.base, what="PhysicsDesc movement")
        body = read_movement_body(sub)
        return movement, body, r.u32("PhysicsDesc autonomous_movement"), None
    if flags & PD_ANIMFRAME_ID:
        return None, None, None, r.u32("PhysicsDesc animframe_id")
    return None, None, None, None


@dataclass(frozen=True, slots=True)
class WeenieDesc:
    """PublicWeenieDesc: the header fields, then every optional field in wire order."""
    header: int
    name: str
    wcid: int
    icon: int
    item_type: int
    obj_desc_bits: int
    header2: int | None
    fields: tuple[tuple[str, object], ...]  # (name, value) of each present optional field

    def get(self, name: str, default=None):
        for key, value in self.fields:
            if key == name:
                return value
        return default


# (header word, bit, name, kind) in wire order (the WeenieDesc list)
_WEENIE_FIELDS = (
    (1, 0x00000001, "plural_name", "str"),
    (1, 0x00000002, "items_capacity", "u8"),
    (1, 0x00000004, "containers_capacity", "u8"),
    (1, 0x00000100, "ammo_type", "u16"),
    (1, 0x00000008, "value", "u32"),
    (1, 0x00000010, "useability", "u32"),
    (1, 0x00000020, "use_radius", "f32"),
    (1, 0x00080000, "target_type", "u32"),
    (1, 0x00000080, "ui_effects", "u32"),
    (1, 0x00000200, "combat_use", "u8"),
    (1, 0x00000400, "structure", "u16"),
    (1, 0x00000800, "max_structure", "u16"),
    (1, 0x00001000, "stack_size", "u16"),
    (1, 0x00002000, "max_stack_size", "u16"),
    (1, 0x00004000, "container_guid", "u32"),
    (1, 0x00008000, "wielder_guid", "u32"),
    (1, 0x00010000, "valid_locations", "u32"),
    (1, 0x00020000, "current_wielded_location", "u32"),
    (1, 0x00040000, "priority", "u32"),
    (1, 0x00100000, "radar_blip_color", "u8"),
    (1, 0x00800000, "radar_behavior", "u8"),
    (1, 0x08000000, "pscript", "u16"),
    (1, 0x01000000, "workmanship", "f32"),
    (1, 0x00200000, "burden", "u16"),
    (1, 0x00400000, "spell_id", "u16"),
    (1, 0x02000000, "house_owner_guid", "u32"),
    (1, 0x04000000, "house_restrictions", "restrictions"),
    (1, 0x20000000, "hook_item_types", "u32"),
    (1, 0x00000040, "monarch_guid", "u32"),
    (1, 0x10000000, "hook_type", "u16"),
    (1, 0x40000000, "icon_overlay", "icon"),
    (2, 0x00000001, "icon_underlay", "icon"),
    (1, 0x80000000, "material_type", "u32"),
    (2, 0x00000002, "cooldown_id", "u32"),
    (2, 0x00000004, "cooldown_duration", "f64"),
    (2, 0x00000008, "pet_owner_guid", "u32"),
)
BF_INCLUDES_SECOND_HEADER = 0x04000000


def read_weenie_desc(r: Reader) -> WeenieDesc:
    header = r.u32("WeenieDesc header")
    name = r.string16l("WeenieDesc name")
    wcid = r.packed_dword(0, "WeenieDesc wcid")
    icon = r.packed_dword(0x06000000, "WeenieDesc icon")
    item_type = r.u32("WeenieDesc item_type")
    bits = r.u32("WeenieDesc obj_desc_bits")
    r.align4("WeenieDesc align4")
    header2 = r.u32("WeenieDesc header2") if bits & BF_INCLUDES_SECOND_HEADER else None
    fields: list[tuple[str, object]] = []
    for word, bit, fname, kind in _WEENIE_FIELDS:
        h = header if word == 1 else (header2 or 0)
        if not h & bit:
            continue
        what = "WeenieDesc " + fname
        if kind == "str":
            value: object = r.string16l(what)
        elif kind == "u8":
            value = r.u8(what)
        elif kind == "u16":
            value = r.u16(what)
        elif kind == "u32":
            value = r.u32(what)
        elif kind == "f32":
            value = r.f32(what)
        elif kind == "f64":
            value = r.f64(what)
        elif kind == "icon":
            value = r.packed_dword(0x06000000, what)
        else:  # house restrictions: version, bitmask, monarch, (count u16, buckets u16) table
            version, bitmask, monarch = r.u32(what), r.u32(what), r.u32(what)
            count = r.u16(what + " count")
            r.u16(what + " buckets")
            r.need(8 * count, what + " table")
            table = tuple((r.u32(), r.u32()) for _ in range(count))
            value = (version, bitmask, monarch, table)
        fields.append((fname, value))
    r.align4("WeenieDesc final align4")
    return WeenieDesc(header, name, wcid, icon, item_type, bits, header2, tuple(fields))
