"""ObjDesc applied to an object's parts (viewer/sim/objdesc.py), one test per retail
function: unpacking, palettes, SetPart, SetTextureMap, SetPalette / UsePalette, the
"from default" restore, and the translucency re-applied afterwards."""

from __future__ import annotations

import dataclasses

import numpy as np
import sim_builders as B

from viewer.dat import samples
from viewer.dat.records import Palette, PixelFormat, RenderSurface, Surface, SurfaceTexture
from viewer.dat.records import SurfaceType as ST
from viewer.sim import inspect
from viewer.sim import objdesc as O

SETUP = 0x02000001
GFX_A, GFX_B = 0x01000011, 0x01000012
SURF_TEX, SURF_SOLID = 0x08000011, 0x08000012
TEX_P, TEX_Q = 0x05000011, 0x05000012          # INDEX16 textures
RS_P, RS_Q = 0x06000011, 0x06000012
PAL_BASE, PAL_RED, PAL_SMALL = 0x04000011, 0x04000012, 0x04000013


def _pal(did, n, argb):
    return Palette(did, tuple(argb(i) for i in range(n)))


def _db():
    db = B.MemoryDB({SETUP: dataclasses.replace(B.setup(SETUP, parts=3),
                                                parts=(GFX_A, GFX_A, GFX_B))})
    db.add(GFX_A, dataclasses.replace(samples.sample_gfxobj(GFX_A), did_degrade=None,
                                      surfaces=(SURF_TEX, SURF_SOLID)))
    db.add(GFX_B, dataclasses.replace(samples.sample_gfxobj(GFX_B), did_degrade=None,
                                      surfaces=(SURF_SOLID,)))
    db.add(SURF_TEX, Surface(ST.Base1Image, TEX_P, 0, None, 0.0, 0.0, 1.0))
    db.add(SURF_SOLID, Surface(ST.Base1Solid, None, None, 0xFF808080, 0.0, 0.0, 1.0))
    for tex, rs in ((TEX_P, RS_P), (TEX_Q, RS_Q)):
        db.add(tex, SurfaceTexture(tex, 0, 2, (rs,)))
        db.add(rs, RenderSurface(rs, 0, 2, 1, PixelFormat.INDEX16,
                                 np.array([0, 100], "<u2").tobytes(), PAL_BASE))
    db.add(PAL_BASE, _pal(PAL_BASE, 2048, lambda i: 0xFF000000 | i))
    db.add(PAL_RED, _pal(PAL_RED, 2048, lambda i: 0xFFFF0000 | i))
    db.add(PAL_SMALL, _pal(PAL_SMALL, 256, lambda i: 0xFF000000 | (i << 8)))
    return db


def _world():
    w = B.world(_db().records)
    obj = w.create_object(1, SETUP)
    return w, obj


def test_ObjDesc_UnPack_0x005ABCF0_units_of_8_and_zero_count_is_256_units():
    d = O.ObjDesc.unpack(PAL_BASE, [(PAL_RED, 3, 2), (PAL_RED, 0, 0)], [], [])
    # the second (offset 0, 2048 entries) replaces the first (Subpalette::replaces)
    assert d.subpalettes == (O.Subpalette(PAL_RED, 0, 2048),)
    d = O.ObjDesc.unpack(PAL_BASE, [(PAL_RED, 3, 2), (PAL_SMALL, 4, 1)], [], [])
    assert d.subpalettes == (O.Subpalette(PAL_RED, 24, 16), O.Subpalette(PAL_SMALL, 32, 8))


def test_ObjDesc_AddSubpalette_0x005AB970_a_full_palette_supersedes_later_ranges():
    d = O.ObjDesc.unpack(PAL_BASE, [(PAL_RED, 0, 0), (PAL_SMALL, 1, 1)], [], [])
    assert d.subpalettes == (O.Subpalette(PAL_RED, 0, 2048),)


def test_RemoveDuplicateTextureMapChange_0x005AB6B0_same_part_and_old_texture():
    d = O.ObjDesc.unpack(0, [], [(0, TEX_P, TEX_Q), (1, TEX_P, TEX_Q), (0, TEX_P, TEX_P)], [])
    assert d.texture_changes == (O.TextureMapChange(1, TEX_P, TEX_Q),
                                 O.TextureMapChange(0, TEX_P, TEX_P))
    assert d.palette == 0  # no subpalettes: no base palette on the wire


def test_RemoveDuplicateAnimPartChange_0x005AB720_same_part_whatever_its_gfxobj():
    """Its test (ContentProfile::operator== 0x006AFEB0, folded) compares part_index only:
    a later change of a part drops the earlier one, the new one goes last."""
    d = O.ObjDesc.unpack(0, [], [], [(0, GFX_A), (1, GFX_A), (0, GFX_B), (1, GFX_A)])
    assert d.anim_part_changes == (O.AnimPartChange(0, GFX_B), O.AnimPartChange(1, GFX_A))
    # AddAnimPartChange 0x005ABA80: at most 255 kept
    many = O.ObjDesc.unpack(0, [], [], [(i, GFX_A) for i in range(300)])
    assert len(many.anim_part_changes) == 255


def test_Palette_InitLoad_0x0053E060_256_colours_widen_to_2048():
    w, _ = _world()
    pal = O.load_palette(w, PAL_SMALL)
    assert len(pal.colors) == 2048
    assert pal.colors[8 * 5] == pal.colors[8 * 5 + 7] == 0xFF000000 | (5 << 8)


def test_Palette_makeModifiedPalette_0x0053E3C0_base_then_ranges_at_the_same_indices():
    w, _ = _world()
    pal = O.make_modified_palette(w, PAL_BASE, [O.Subpalette(PAL_RED, 16, 8),
                                                O.Subpalette(PAL_SMALL, 24, 8)])
    assert pal.did == PAL_BASE
    assert pal.colors[15] == 0xFF000000 | 15 and pal.colors[16] == 0xFFFF0000 | 16
    assert pal.colors[23] == 0xFFFF0000 | 23
    assert pal.colors[24] == 0xFF000000 | (3 << 8)  # widened index 24 -> colour 3
    assert pal.colors[32] == 0xFF000000 | 32
    # one full range at offset 0: that palette itself
    assert O.make_modified_palette(w, PAL_BASE, [O.Subpalette(PAL_RED, 0, 2048)]).did == PAL_RED
    # Palette::Modify 0x0053E160: a failing range fails the whole palette
    assert O.make_modified_palette(w, PAL_BASE, [O.Subpalette(0x04000099, 0, 8)]) is None
    assert O.make_modified_palette(w, 0, [O.Subpalette(PAL_RED, 0, 8)]) is None


def test_CSurface_InitEnd_0x00536400_loaded_paletted_surface_takes_its_texture_palette():
    w, _ = _world()
    s = O.loaded_surface(w, SURF_TEX)
    assert s.orig_palette_id == PAL_BASE  # SurfaceInitLoading: the texture's default palette
    assert s.texture == TEX_P and s.drawn_palette.did == PAL_BASE


def test_CPartArray_SetPart_0x00518580_replaces_the_gfxobj_and_keeps_the_pose():
    w, obj = _world()
    before = obj.parts[0].frame
    assert O.set_part(w, obj, [O.AnimPartChange(0, GFX_B)])
    assert obj.parts[0].gfxobj_id == GFX_B and obj.parts[0].frame == before
    # an absent GfxObj or a part past the Setup fails and leaves the part (retail: SetPart 0)
    assert not O.set_part(w, obj, [O.AnimPartChange(1, 0x01000099)])
    assert obj.parts[1].gfxobj_id == GFX_A
    assert any(e["event"] == "missing" and e["did"] == 0x01000099 for e in w.events)
    assert not O.set_part(w, obj, [O.AnimPartChange(7, GFX_B)])


def test_CPhysicsPart_SetGfxObjArray_0x0050E2E0_loads_the_new_surfaces_once():
    """DetermineBasePal 0x0050DC80 reads the surfaces SetPart just loaded: a Surface no DAT
    holds is traced once per swap, not once per reading."""
    w, obj = _world()
    gone = 0x08000099
    w.db.add(0x01000013, dataclasses.replace(samples.sample_gfxobj(0x01000013),
                                             did_degrade=None, surfaces=(gone, SURF_TEX)))
    w.events = []
    assert O.set_part(w, obj, [O.AnimPartChange(0, 0x01000013)])
    assert [e["did"] for e in w.events if e["event"] == "missing"] == [gone]
    assert obj.parts[0].objdesc.original_palette_id == PAL_BASE


def test_a_wrong_typed_record_an_ObjDesc_names_is_one_missing_event_like_any_other():
    """DBObj::Get of a Palette that is another record: traced with ``found``, and a ``by``
    key as every ``missing`` event has (World.missing)."""
    w, obj = _world()
    w.events = []
    assert O.load_palette(w, SURF_TEX) is None
    assert [{k: v for k, v in e.items() if k != "t"} for e in w.events] == [
        {"event": "missing", "what": "Palette", "did": SURF_TEX, "by": None,
         "found": "Surface"}]


def test_CPhysicsPart_SetTextureMap_0x0050DE30_matches_the_original_texture():
    w, obj = _world()
    assert O.do_objdesc_changes_from_default(
        w, obj, O.ObjDesc(texture_changes=(O.TextureMapChange(1, TEX_P, TEX_Q),)))
    assert O.part_textures(w, obj.parts[1]) == (TEX_Q, 0)
    assert O.part_textures(w, obj.parts[0]) == (TEX_P, 0)  # other parts keep theirs
    # the original texture is still what a later change must name
    O.do_objdesc_changes_from_default(
        w, obj, O.ObjDesc(texture_changes=(O.TextureMapChange(1, TEX_Q, TEX_P),)))
    assert O.part_textures(w, obj.parts[1]) == (TEX_Q, 0)


def test_CPartArray_SetPalette_0x00518E10_parts_whose_original_palette_matches_use_it():
    w, obj = _world()
    desc = O.ObjDesc.unpack(PAL_BASE, [(PAL_RED, 0, 1)], [], [])
    assert O.do_objdesc_changes_from_default(w, obj, desc)
    surf = O.drawn_surfaces(obj.parts[0])
    assert surf[0].texture == TEX_P
    assert surf[0].palette[0] == 0xFFFF0000 and surf[0].palette[8] == 0xFF000008
    assert obj.parts[0].objdesc.shift_pal is obj.parts[1].objdesc.shift_pal
    # part 2's GfxObj has no paletted surface: original palette 0, untouched
    assert O.drawn_surfaces(obj.parts[2]) is None


def test_CPartArray_DoObjDescChangesFromDefault_0x00519480_palettes_restore_parts_stay():
    w, obj = _world()
    O.do_objdesc_changes_from_default(w, obj, O.ObjDesc.unpack(
        PAL_BASE, [(PAL_RED, 0, 1)], [], [(2, GFX_A)]))
    assert obj.parts[2].gfxobj_id == GFX_A
    assert O.drawn_surfaces(obj.parts[2])[0].palette[0] == 0xFFFF0000
    # a later ObjDesc naming only a texture: palettes back to the texture's own, the
    # swapped GfxObj stays (nothing restores parts)
    O.do_objdesc_changes_from_default(w, obj, O.ObjDesc(
        texture_changes=(O.TextureMapChange(0, TEX_P, TEX_Q),)))
    assert obj.parts[2].gfxobj_id == GFX_A
    assert O.drawn_surfaces(obj.parts[2])[0].palette[0] == 0xFF000000
    assert O.drawn_surfaces(obj.parts[0])[0].texture == TEX_Q


def test_CPhysicsPart_SetGfxObjArray_0x0050E2E0_a_swapped_part_keeps_the_shift_palette():
    w, obj = _world()
    O.do_objdesc_changes_from_default(w, obj, O.ObjDesc.unpack(
        PAL_BASE, [(PAL_RED, 0, 1)], [], [(0, GFX_A)]))
    assert O.drawn_surfaces(obj.parts[0])[0].palette[0] == 0xFFFF0000


def test_CPhysicsObj_DoObjDescChanges_0x0050FA30_translucency_applied_again():
    w, obj = _world()
    obj.set_translucency_internal(0.25)
    obj.parts[0].translucency = 0.0
    O.do_objdesc_changes_from_default(w, obj, O.ObjDesc(
        anim_part_changes=(O.AnimPartChange(0, GFX_B),)))
    assert obj.parts[0].translucency == 0.25


def test_inspect_object_looks_name_the_gfxobj_and_the_textures_drawn():
    w, obj = _world()
    looks = inspect.object_looks(obj, {}, w)
    assert looks[1].gfxobj == GFX_A and looks[1].textures == (TEX_P, 0)
    O.do_objdesc_changes_from_default(w, obj, O.ObjDesc(
        anim_part_changes=(O.AnimPartChange(0, GFX_B),),
        texture_changes=(O.TextureMapChange(1, TEX_P, TEX_Q),)))
    looks = inspect.object_looks(obj, {}, w)
    assert (looks[1].gfxobj, looks[1].textures) == (GFX_B, (0,))
    assert (looks[2].gfxobj, looks[2].textures) == (GFX_A, (TEX_Q, 0))


def _scenario(objects, events=(), seconds=0.2):
    from viewer.sim.scenario import Scenario, ScenarioRunner
    sc = Scenario.from_json({"fps": 10, "seconds": seconds, "objects": objects,
                             "events": list(events)})
    runner = ScenarioRunner(sc, _db())
    runner.run()
    return runner.world


def test_scenario_objdesc_on_an_object_and_as_a_later_event():
    swap = {"parts": [{"part": 0, "gfxobj": f"0x{GFX_B:08X}"}]}
    recolour = {"palette": f"0x{PAL_BASE:08X}",
                "subpalettes": [{"palette": f"0x{PAL_RED:08X}", "offset": 0, "length": 1}]}
    w = _scenario([{"id": 1, "setup": f"0x{SETUP:08X}", "objdesc": swap}],
                  [{"t": 0.1, "object": 1, "objdesc": recolour}])
    obj = w.objects[1]
    # the later event restores palettes only: the swap made at creation stays
    assert obj.parts[0].gfxobj_id == GFX_B
    assert O.drawn_surfaces(obj.parts[1])[0].palette[0] == 0xFFFF0000
    w = _scenario([], [{"t": 0.0, "object": 2,
                        "create": {"setup": f"0x{SETUP:08X}", "objdesc": swap}}])
    assert w.objects[2].parts[0].gfxobj_id == GFX_B


def test_scenario_objdesc_errors_name_the_field():
    import pytest

    from viewer.errors import ScenarioError
    cases = [({"parts": [{"part": 0}]}, "objects[0].objdesc.parts[0]"),
             ({"parts": [{"part": 256, "gfxobj": 1}]}, "objdesc.parts[0].part"),
             ({"colour": 1}, "objdesc.colour"),
             ({"subpalettes": [{"palette": 1, "offset": 0, "length": 1}]}, "objdesc.palette")]
    for od, where in cases:
        with pytest.raises(ScenarioError, match=where.replace("[", r"\[").replace("]", r"\]")):
            _scenario([{"id": 1, "setup": f"0x{SETUP:08X}", "objdesc": od}])


def test_Subpalette_replaces_0x005AD830_and_supercedes_0x005AD870():
    full, part = O.Subpalette(PAL_RED, 0, 2048), O.Subpalette(PAL_RED, 8, 8)
    assert full.replaces(part) and full.supercedes(part)
    assert part.replaces(O.Subpalette(PAL_SMALL, 8, 8)) and not part.replaces(full)
    assert not full.supercedes(O.Subpalette(PAL_SMALL, 0, 2048))


def test_CSurface_UseTextureMap_0x005362E0_refuses_a_surface_without_a_texture():
    """A solid-colour surface binds no texture: a change naming its (zero) original
    texture fails the part's change (CPhysicsPart::SetTextureMap returns at the refusal)."""
    w, obj = _world()
    assert not O.part_set_texture_map(w, obj.parts[2], 0, TEX_Q)
    assert O.part_textures(w, obj.parts[2]) == (0,)


def test_CPhysicsPart_RestorePalette_0x0050D5B0_an_empty_ObjDesc_keeps_the_drawn_colours():
    """From default with nothing to apply: palettes are reset for the next resolve, but
    no InitObjDescChanges runs (CPartArray::DoObjDescChanges 0x00519210 only calls it when
    something changed), so the surfaces keep drawing the recolour."""
    w, obj = _world()
    O.do_objdesc_changes_from_default(w, obj, O.ObjDesc.unpack(PAL_BASE, [(PAL_RED, 0, 1)],
                                                               [], []))
    O.do_objdesc_changes_from_default(w, obj, O.ObjDesc())
    surf = obj.parts[0].objdesc.surfaces[0]
    assert surf.base1pal is None and surf.drawn_palette.colors[0] == 0xFFFF0000
    assert obj.parts[0].objdesc.shift_pal is None and obj.pals is None
