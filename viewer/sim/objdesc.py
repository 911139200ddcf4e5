"""ObjDesc: the visual description a CreateObject or an ObjDescEvent (0xF625) carries, and
how retail applies it to an object's parts.

An ObjDesc replaces parts' GfxObjs (AnimPartChange), replaces SurfaceTextures on parts'
surfaces (TextureMapChange) and recolours paletted textures through a palette built from a
base palette and subpalette ranges (Subpalette). The retail chain, ported here:

* ``ObjDesc.unpack`` (ObjDesc::UnPack 0x005ABCF0): subpalette offset and count arrive in
  units of 8 entries, a count of 0 means 256 units (Subpalette::UnPack 0x005ADAB0); a full
  2048-entry subpalette at offset 0 supersedes later partial ones and replaces earlier
  ones (ObjDesc::AddSubpalette 0x005AB970); a texture change for the same part and old
  texture replaces the earlier one (RemoveDuplicateTextureMapChange 0x005AB6B0);
* ``do_objdesc_changes_from_default`` (SmartBox::UpdateVisualDesc 0x00451F40 ->
  ACCObjectMaint::SetVisualDesc 0x00557660 -> CPhysicsObj::DoObjDescChangesFromDefault
  0x0050F9B0 -> CPartArray::DoObjDescChangesFromDefault 0x00519480): every part's palette
  restored and the part array's palettes dropped, then ``do_objdesc_changes``
  (CPartArray::DoObjDescChanges 0x00519210): SetPart, SetTextureMap, SetPalette, then
  InitObjDescChanges; the object's translucency is then re-applied to the parts
  (CPhysicsObj::DoObjDescChanges 0x0050FA30). Part GfxObjs and textures are *not* restored
  by the "from default" step: a later ObjDesc changes only what it names;
* palettes: a Palette of 256 colours is widened at load to 2048 by repeating each colour 8
  times (Palette::InitLoad 0x0053E060); a modified palette copies 2048 entries of the base
  palette then each subpalette's range from the subpalette's own palette at the same
  indices (Palette::makeModifiedPalette 0x0053E3C0, Palette::Modify 0x0053E160); a
  paletted texture (P8, INDEX16) looks each texel's index up in it directly, indices below
  8 transparent on a clip-map surface (ImgTex::CopyIntoData 0x0053EC60).

A part keeps the GfxObj's own surfaces until an ObjDesc touches them; then it holds private
copies (``CustomSurface``, CPhysicsPart::CopySurfaces 0x0050D6A0) whose drawn texture and
palette the renderer reads through ``viewer.sim.inspect``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from viewer.dat.pixels import runtime_palette
from viewer.dat.records import GfxObj, Palette, RenderSurface, Surface, SurfaceTexture

SUBPALETTE_UNIT = 8          # Subpalette::UnPack: offset and count * 8
PALETTE_COLORS = 2048        # Palette::makeModifiedPalette: Palette(2048)
_TEXTURED = 0x6              # SurfaceType Base1Image | Base1ClipMap
_CLIPMAP = 0x4
_PALETTED_FORMATS = (0x29, 0x65)  # P8, INDEX16
HANDLER_LOADED = 1           # SurfaceHandlerEnum: a surface loaded from the DAT
HANDLER_CUSTOM = 2           # a private copy an ObjDesc may change
HANDLER_COPIED = 4           # a copy of a loaded surface, not changed yet


# --- the description ---------------------------------------------------------------------
@dataclass(frozen=True)
class Subpalette:
    """One palette range: ``num_colors`` entries from ``offset`` (entries, not units)
    taken from palette ``palette``."""

    palette: int
    offset: int
    num_colors: int

    def replaces(self, change: Subpalette) -> bool:
        """Subpalette::replaces 0x005AD830."""
        return ((self.offset == change.offset and self.num_colors == change.num_colors)
                or (self.offset == 0 and self.num_colors == PALETTE_COLORS))

    def supercedes(self, change: Subpalette) -> bool:
        """Subpalette::supercedes 0x005AD870."""
        return (self.offset == 0 and self.num_colors == PALETTE_COLORS
                and (change.offset != 0 or change.num_colors != PALETTE_COLORS))


@dataclass(frozen=True)
class TextureMapChange:
    part_index: int
    old_texture: int
    new_texture: int


@dataclass(frozen=True)
class AnimPartChange:
    part_index: int
    gfxobj: int


@dataclass(frozen=True)
class ObjDesc:
    """The description as retail holds it after unpacking (lists in application order)."""

    palette: int = 0
    subpalettes: tuple[Subpalette, ...] = ()
    texture_changes: tuple[TextureMapChange, ...] = ()
    anim_part_changes: tuple[AnimPartChange, ...] = ()

    @classmethod
    def unpack(cls, palette: int, subpalettes, texture_changes, anim_part_changes) -> ObjDesc:
        """ObjDesc::UnPack 0x005ABCF0 from the wire's values: ``subpalettes`` as
        (palette, offset units, count units), ``texture_changes`` as (part, old, new),
        ``anim_part_changes`` as (part, gfxobj)."""
        subs: list[Subpalette] = []
        for pal, offset, count in subpalettes:
            # Subpalette::UnPack 0x005ADAB0: units of 8, a count of 0 is 256 units
            _add_subpalette(subs, Subpalette(int(pal), int(offset) * SUBPALETTE_UNIT,
                                             (int(count) or 256) * SUBPALETTE_UNIT))
        texs: list[TextureMapChange] = []
        for part, old, new in texture_changes:
            # RemoveDuplicateTextureMapChange 0x005AB6B0: same part and old texture
            _add_change(texs, TextureMapChange(int(part), int(old), int(new)),
                        lambda t, c: (t.part_index, t.old_texture) == (c.part_index,
                                                                       c.old_texture))
        parts: list[AnimPartChange] = []
        for part, gfxobj in anim_part_changes:
            # RemoveDuplicateAnimPartChange 0x005AB720: the same part, whatever its GfxObj
            # (its test, the folded ContentProfile::operator== 0x006AFEB0, compares the
            # first field only: part_index)
            _add_change(parts, AnimPartChange(int(part), int(gfxobj)),
                        lambda t, c: t.part_index == c.part_index)
        return cls(int(palette) if subs else 0, tuple(subs), tuple(texs), tuple(parts))

    @classmethod
    def from_wire(cls, od) -> ObjDesc:
        """From ``viewer.wire.descs.ObjDesc``."""
        return cls.unpack(od.base_palette or 0,
                          [(s.palette, s.offset, s.num_colors) for s in od.subpalettes],
                          [(t.part_index, t.old_texture, t.new_texture)
                           for t in od.texture_changes],
                          [(a.part_index, a.gfxobj) for a in od.anim_part_changes])

    @property
    def empty(self) -> bool:
        return not (self.subpalettes or self.texture_changes or self.anim_part_changes)


def _add_change(changes: list, change, duplicate) -> None:
    """ObjDesc::AddTextureMapChange 0x005ABA10 / ObjDesc::AddAnimPartChange 0x005ABA80: the
    first listed change ``duplicate`` of the new one is removed, then the new one is appended
    (at most 255)."""
    for k, t in enumerate(changes):
        if duplicate(t, change):
            del changes[k]
            break
    if len(changes) < 255:
        changes.append(change)


def _add_subpalette(subs: list[Subpalette], new: Subpalette) -> None:
    """ObjDesc::AddSubpalette 0x005AB970: dropped when a listed one supersedes it, else the
    listed ones it replaces are removed (RemoveDuplicateSubpalette 0x005AB640) and it is
    appended (at most 255)."""
    if any(s.supercedes(new) for s in subs):
        return
    subs[:] = [s for s in subs if not new.replaces(s)]
    if len(subs) < 255:
        subs.append(new)


# --- palettes ------------------------------------------------------------------------------
@dataclass
class RuntimePalette:
    """A palette as the client holds it: its DID and its ARGB colours (u32 0xAARRGGBB)."""

    did: int
    colors: np.ndarray
    key: bytes = b""

    def seal(self) -> RuntimePalette:
        """Fix the content key (the renderer's cache key) once the colours are final."""
        self.key = hashlib.blake2b(self.colors.tobytes(), digest_size=12).digest()
        return self


def _record(world, did: int, what: str, cls):
    """A record of type ``cls`` or None; an absent or wrong-typed one is traced as
    ``missing`` once here (retail's DBObj::Get -> null)."""
    if not did:
        return None
    rec = world._get(int(did), what)
    if rec is None:
        return None
    if not isinstance(rec, cls):
        world.missing(what, int(did), found=type(rec).__name__)  # named by the referrer
        return None
    return rec


def load_palette(world, did: int) -> RuntimePalette | None:
    """DBObj::Get of a Palette, then Palette::InitLoad 0x0053E060: 256 colours become 2048,
    each repeated 8 times."""
    rec = _record(world, did, "Palette", Palette)
    if rec is None:
        return None
    return RuntimePalette(int(did), runtime_palette(rec.colors)).seal()


def palette_modify(world, pal: RuntimePalette, sub_did: int, offset: int,
                   num_colors: int) -> bool:
    """Palette::Modify 0x0053E160: entries [offset, offset + num_colors) from palette
    ``sub_did`` at the same indices. Fails for DID 0, a range past this palette, or an
    absent palette; a range past the *source* palette's colours fails too (ours: retail
    reads past that array)."""
    if not sub_did or offset + num_colors > len(pal.colors):
        return False
    src = load_palette(world, sub_did)
    if src is None or offset + num_colors > len(src.colors):
        return False
    pal.colors[offset:offset + num_colors] = src.colors[offset:offset + num_colors]
    return True


def make_modified_palette(world, pal_id: int, subs) -> RuntimePalette | None:
    """Palette::makeModifiedPalette 0x0053E3C0: one full subpalette at offset 0 is that
    palette itself; otherwise a new 2048-entry palette named ``pal_id``: the base palette's
    2048 entries, then every subpalette in order (any failure: no palette)."""
    if not pal_id:
        return None
    subs = list(subs)
    if len(subs) == 1 and subs[0].offset == 0 and subs[0].num_colors == PALETTE_COLORS:
        return load_palette(world, subs[0].palette)
    pal = RuntimePalette(int(pal_id), np.zeros(PALETTE_COLORS, np.uint32))
    if not palette_modify(world, pal, pal_id, 0, PALETTE_COLORS):
        return None
    for s in subs:
        if not palette_modify(world, pal, s.palette, s.offset, s.num_colors):
            return None
    return pal.seal()


# --- surfaces --------------------------------------------------------------------------------
def _texture_palette(world, tex_did: int) -> tuple[bool, int, bool]:
    """(found, default palette DID, paletted) of a SurfaceTexture (ImgTex): its source level
    0 RenderSurface's format and default palette (ImgTex::m_pPalette)."""
    stex = _record(world, tex_did, "SurfaceTexture", SurfaceTexture)
    if stex is None or not stex.textures:
        return False, 0, False
    rs = _record(world, int(stex.textures[0]), "RenderSurface", RenderSurface)
    if rs is None:
        return False, 0, False
    paletted = int(rs.format) in _PALETTED_FORMATS
    return True, int(rs.default_palette_id or 0) if paletted else 0, paletted


@dataclass
class CustomSurface:
    """A part's private CSurface (CSurface::CSurface(copy) 0x00536100) and what it draws.

    ``base1map``: the SurfaceTexture bound (0: none); ``base1pal``: the palette the next
    InitEnd combines with; ``drawn_palette``: the palette the bound paletted texture was
    combined with (None for an unpaletted one)."""

    surface_did: int
    type: int
    handler: int
    orig_texture_id: int
    orig_palette_id: int
    indexed_texture_id: int = 0
    base1map: int = 0
    paletted: bool = False
    base1pal: RuntimePalette | None = None
    drawn_palette: RuntimePalette | None = None

    @property
    def texture(self) -> int:
        """The SurfaceTexture drawn (0 for a solid colour or a released texture)."""
        return self.base1map if self.type & _TEXTURED else 0

    def use_palette(self, pal: RuntimePalette | None) -> bool:
        """CSurface::UsePalette 0x00535F20."""
        if self.handler == HANDLER_COPIED:
            self.handler = HANDLER_CUSTOM
        if self.handler == HANDLER_CUSTOM and pal is not None:
            self.base1pal = pal
            return True
        return False

    def restore_palette(self) -> bool:
        """CSurface::RestorePalette 0x00535F60: the bound texture's own palette; a
        combined (paletted) texture and an unpaletted one have none."""
        if not self.base1map:
            return False
        self.base1pal = None
        return True

    def use_texture_map(self, texture_id: int) -> bool:
        """CSurface::UseTextureMap 0x005362E0 (force_if_null 0)."""
        if self.handler == HANDLER_COPIED:
            self.handler = HANDLER_CUSTOM
        if self.handler != HANDLER_CUSTOM or not self.base1map:
            return False
        if not self.type & _TEXTURED:
            self.type = 2
        self.indexed_texture_id = int(texture_id)
        self.base1pal = None
        return True

    def init_end(self, world, init_type: int = 0) -> None:
        """CSurface::InitEnd 0x00536400: bind the (indexed or original) texture; a paletted
        one takes its default palette unless one is set, and is combined with it, or
        released when there is none."""
        tex = self.indexed_texture_id or self.orig_texture_id
        if not tex:
            self.base1map, self.paletted = 0, False
        elif self.type & _TEXTURED:
            found, pal_did, paletted = _texture_palette(world, tex)
            if found:
                self.base1map, self.paletted = tex, paletted
                if pal_did:
                    self.indexed_texture_id = tex
                    if self.base1pal is None:
                        self.base1pal = load_palette(world, pal_did)
                        if init_type in (1, 2) and self.base1pal is not None:
                            self.orig_palette_id = pal_did
            elif init_type == 4:
                self.base1map, self.paletted = 0, False
        self.drawn_palette = None
        if self.base1map and self.paletted and init_type != 2:
            if self.base1pal is None:
                self.base1map, self.paletted = 0, False  # no palette: the texture is dropped
            else:
                self.drawn_palette = self.base1pal  # ImgTex::CreateCombinedTexture


def loaded_surface(world, did: int) -> CustomSurface | None:
    """A Surface as CSurface::Serialize 0x005365F0 leaves it (handler 1, InitEnd with
    SurfaceInitLoading: a paletted texture's default palette becomes orig_palette_id)."""
    rec = _record(world, did, "Surface", Surface)
    if rec is None:
        return None
    s = CustomSurface(int(did), int(rec.type), HANDLER_LOADED, int(rec.orig_texture_id or 0),
                      int(rec.orig_palette_id or 0))
    s.init_end(world, 1)
    return s


def copy_surface(s: CustomSurface) -> CustomSurface:
    """CSurface::CSurface(copy) 0x00536100: a loaded surface's copy gets handler 4."""
    return CustomSurface(s.surface_did, s.type,
                         HANDLER_COPIED if s.handler == HANDLER_LOADED else s.handler,
                         s.orig_texture_id, s.orig_palette_id, s.indexed_texture_id,
                         s.base1map, s.paletted, s.base1pal, s.drawn_palette)


def gfxobj_surfaces(world, gfxobj_did: int) -> list[CustomSurface] | None:
    """The GfxObj's own surfaces as loaded (None when the GfxObj is absent)."""
    gfx = _record(world, gfxobj_did, "GfxObj", GfxObj)
    if gfx is None:
        return None
    out = []
    for sid in gfx.surfaces:
        s = loaded_surface(world, int(sid))
        out.append(s if s is not None else CustomSurface(int(sid), 0, HANDLER_LOADED, 0, 0))
    return out


def determine_base_pal(surfaces: list[CustomSurface]) -> int:
    """CPhysicsPart::DetermineBasePal 0x0050DC80: the first surface's non-zero
    orig_palette_id, else 0."""
    for s in surfaces:
        if s.orig_palette_id:
            return s.orig_palette_id
    return 0


# --- parts -----------------------------------------------------------------------------------
@dataclass
class PartLook:
    """An ObjDesc's state on one part (CPhysicsPart's surfaces, shiftPal and
    original_palette_id); ``surfaces`` None: the GfxObj's own (not copied)."""

    surfaces: list[CustomSurface] | None = None
    shift_pal: RuntimePalette | None = None
    original_palette_id: int | None = None   # None: not determined yet


def _look(part) -> PartLook:
    if part.objdesc is None:
        part.objdesc = PartLook()
    return part.objdesc


def copy_surfaces(world, part) -> bool:
    """CPhysicsPart::CopySurfaces 0x0050D6A0."""
    look = _look(part)
    if look.surfaces is None:
        shared = gfxobj_surfaces(world, part.gfxobj_id)
        if shared is None:
            return False
        look.surfaces = [copy_surface(s) for s in shared]
    return True


def original_palette_id(world, part) -> int:
    look = _look(part)
    if look.original_palette_id is None:
        look.original_palette_id = determine_base_pal(
            gfxobj_surfaces(world, part.gfxobj_id) or [])
    return look.original_palette_id


def part_set_part(world, part, gfxobj_id: int) -> bool:
    """CPhysicsPart::SetPart 0x0050E700 -> CPhysicsPart::SetGfxObjArray 0x0050E2E0: the
    GfxObj (absent: the part is kept), its own surfaces, DetermineBasePal, and the shiftPal
    again."""
    shared = gfxobj_surfaces(world, gfxobj_id) if gfxobj_id else None
    if shared is None:
        return False
    world.taking_up_gfxobj()  # a GfxObj let go and taken up again: a fresh mesh
    look = _look(part)
    look.surfaces = None  # RestoreSurfaces
    part.gfxobj_id = int(gfxobj_id)
    look.original_palette_id = determine_base_pal(shared)  # from the surfaces just loaded
    if look.shift_pal is not None:
        part_use_palette(world, part, look.shift_pal)
    return True


def part_set_texture_map(world, part, old_tex: int, new_tex: int) -> bool:
    """CPhysicsPart::SetTextureMap 0x0050DE30: every surface whose original texture is
    ``old_tex`` takes ``new_tex`` (the first refusal fails the change)."""
    if not new_tex or not copy_surfaces(world, part):
        return False
    for s in _look(part).surfaces:
        if s.orig_texture_id == old_tex and not s.use_texture_map(new_tex):
            return False
    return True


def part_use_palette(world, part, pal: RuntimePalette | None) -> bool:
    """CPhysicsPart::UsePalette 0x0050DED0: every surface takes the palette; it becomes
    the part's shiftPal."""
    if pal is None or not copy_surfaces(world, part):
        return False
    look = _look(part)
    for s in look.surfaces:
        s.use_palette(pal)
    look.shift_pal = pal
    return True


def part_restore_palette(part) -> None:
    """CPhysicsPart::RestorePalette 0x0050D5B0 (a GfxObj's own surfaces: nothing to undo)."""
    look = part.objdesc
    if look is None:
        return
    for s in look.surfaces or ():
        s.restore_palette()
    look.shift_pal = None


def part_init_objdesc_changes(world, part) -> bool:
    """CPhysicsPart::InitObjDescChanges 0x0050E3B0: the shiftPal again, then InitEnd on
    every surface (the GfxObj's own ones resolve as loaded: nothing changes)."""
    look = part.objdesc
    if look is None:
        return True
    if look.shift_pal is not None:
        part_use_palette(world, part, look.shift_pal)
    for s in look.surfaces or ():
        s.init_end(world, 0)
    return True


# --- the part array --------------------------------------------------------------------------
def set_part(world, obj, changes) -> bool:
    """CPartArray::SetPart 0x00518580."""
    ok = True
    for c in changes:
        p = obj.part(c.part_index)
        if p is None or not part_set_part(world, p, c.gfxobj):
            ok = False
    return ok


def set_texture_map(world, obj, changes) -> bool:
    """CPartArray::SetTextureMap 0x005185E0."""
    ok = True
    for c in changes:
        p = obj.part(c.part_index)
        if p is None or not part_set_texture_map(world, p, c.old_texture, c.new_texture):
            ok = False
    return ok


def set_palette(world, obj, pal_id: int, subs) -> bool:
    """CPartArray::SetPalette 0x00518E10: the first free palette slot takes the modified
    palette (a slot already named ``pal_id`` is modified in place); every part whose
    original palette is ``pal_id`` uses it."""
    n = len(obj.parts)
    if obj.pals is None:  # CPartArray::InitPals 0x005181C0
        obj.pals = [None] * n
    if not pal_id:
        return False
    slot = 0
    while slot < n:
        pal = obj.pals[slot]
        if pal is None:
            pal = obj.pals[slot] = make_modified_palette(world, pal_id, subs)
            if pal is not None:
                break
        elif pal.did == pal_id and all(
                palette_modify(world, pal, s.palette, s.offset, s.num_colors) for s in subs):
            pal.seal()
            break
        slot += 1
    if slot >= n:
        return False
    for p in obj.parts:
        if original_palette_id(world, p) == pal_id:
            part_use_palette(world, p, obj.pals[slot])
    return True


def do_objdesc_changes(world, obj, desc: ObjDesc) -> bool:
    """CPartArray::DoObjDescChanges 0x00519210."""
    ok, changed = True, False
    if desc.anim_part_changes:
        ok = set_part(world, obj, desc.anim_part_changes) and ok
        changed = True
    if desc.texture_changes:
        ok = set_texture_map(world, obj, desc.texture_changes) and ok
        changed = True
    if desc.subpalettes:
        ok = set_palette(world, obj, desc.palette, desc.subpalettes) and ok
        changed = True
    if changed:  # CPartArray::InitObjDescChanges 0x00518540
        for p in obj.parts:
            part_init_objdesc_changes(world, p)
    return ok


def do_objdesc_changes_from_default(world, obj, desc: ObjDesc | None) -> bool:
    """CPhysicsObj::DoObjDescChangesFromDefault 0x0050F9B0 ->
    CPartArray::DoObjDescChangesFromDefault 0x00519480: restore every part's palette, drop
    the part array's palettes (CPartArray::DestroyPals 0x00518210), apply ``desc``; then
    the object's translucency is applied to its parts again."""
    for p in obj.parts:
        part_restore_palette(p)
    obj.pals = None
    ok = do_objdesc_changes(world, obj, desc) if desc is not None else True
    if obj.translucency != 0.0:
        obj.set_translucency_internal(obj.translucency)
    return ok


# --- what is drawn ----------------------------------------------------------------------------
@dataclass(frozen=True)
class DrawnSurface:
    """One surface of a part with private surfaces: the Surface record it copies, the
    SurfaceTexture bound (0: none) and the palette combined with it (None: unpaletted)."""

    surface_did: int
    texture: int
    palette: np.ndarray | None = field(default=None, compare=False)
    palette_key: bytes = b""
    clipmap: bool = False


def drawn_surfaces(part) -> tuple[DrawnSurface, ...] | None:
    """The part's private surfaces as drawn, or None while it draws its GfxObj's own."""
    look = part.objdesc
    if look is None or look.surfaces is None:
        return None
    out = []
    for s in look.surfaces:
        pal = s.drawn_palette
        out.append(DrawnSurface(s.surface_did, s.texture, None if pal is None else pal.colors,
                                b"" if pal is None else pal.key, bool(s.type & _CLIPMAP)))
    return tuple(out)


def part_textures(world, part) -> tuple[int, ...]:
    """The SurfaceTexture DID drawn on each of the part's surfaces (0: none), in surface
    order."""
    look = part.objdesc
    if look is not None and look.surfaces is not None:
        return tuple(s.texture for s in look.surfaces)
    return tuple(s.texture for s in gfxobj_surfaces_quiet(world, part.gfxobj_id))


def gfxobj_surfaces_quiet(world, gfxobj_did: int) -> list[CustomSurface]:
    """``gfxobj_surfaces`` for reading only: an absent record gives nothing and traces
    nothing (the runtime traces what it needs when it needs it)."""
    db = world.db
    try:
        gfx = db.get(int(gfxobj_did))
    except Exception:  # noqa: BLE001 - absent or undecodable: nothing to show
        return []
    if not isinstance(gfx, GfxObj):
        return []
    out = []
    for sid in gfx.surfaces:
        try:
            rec = db.get(int(sid))
        except Exception:  # noqa: BLE001
            rec = None
        if not isinstance(rec, Surface) or not int(rec.type) & _TEXTURED:
            out.append(CustomSurface(int(sid), 0, HANDLER_LOADED, 0, 0))
        else:
            tex = int(rec.orig_texture_id or 0)
            out.append(CustomSurface(int(sid), int(rec.type), HANDLER_LOADED, tex, 0,
                                     base1map=tex))
    return out


# --- the scenario form ------------------------------------------------------------------------
_SCENARIO_KEYS = {"palette", "subpalettes", "textures", "parts"}
_ENTRY_KEYS = {"subpalettes": ("palette", "offset", "length"),
               "textures": ("part", "old", "new"), "parts": ("part", "gfxobj")}


def parse_objdesc(f, value, at: str) -> ObjDesc:
    """A scenario ``objdesc`` (docs/cli.md section 4) read with the scenario's field
    readers ``f``: ``palette``, ``subpalettes`` [{palette, offset, length}] (offset and
    length in units of 8 entries, 0..255, a length of 0 meaning 256 units, as on the wire),
    ``textures`` [{part, old, new}], ``parts`` [{part, gfxobj}]; part indices 0..255 (a u8
    on the wire). Unknown keys are errors naming them."""
    f.object(value, at)
    unknown = [k for k in value if k not in _SCENARIO_KEYS]
    if unknown:
        raise f.fail(f"{at}.{unknown[0]}", "unknown key (an objdesc takes "
                     f"{', '.join(sorted(_SCENARIO_KEYS))})")
    rows = {}
    for name, keys in _ENTRY_KEYS.items():
        rows[name] = []
        for i, entry in enumerate(f.list(value.get(name), f"{at}.{name}")):
            where = f"{at}.{name}[{i}]"
            f.object(entry, where)
            bad = [k for k in entry if k not in keys]
            if bad or any(k not in entry for k in keys):
                raise f.fail(f"{where}.{bad[0]}" if bad else where,
                             f"an entry takes exactly {', '.join(keys)}")
            rows[name].append(tuple(
                f.did(entry[k], f"{where}.{k}") if k in ("palette", "old", "new", "gfxobj")
                else f.int(entry[k], f"{where}.{k}", lo=0, hi=255) for k in keys))
    palette = f.did(value["palette"], f"{at}.palette") if "palette" in value else 0
    if rows["subpalettes"] and not palette:
        raise f.fail(f"{at}.palette", "subpalettes need the base palette they modify")
    return ObjDesc.unpack(palette, rows["subpalettes"], rows["textures"], rows["parts"])

