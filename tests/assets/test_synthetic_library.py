"""The synthetic asset library (issue 4): the committed DAT is exactly what the generator
writes, every record round-trips through our codecs, and the edge cases the manifest
promises are really in the data."""

from __future__ import annotations

import json
import math

import pytest

from viewer import synthetic as S
from viewer.dat.container import DatFile
from viewer.dat.records import (
    AnimationHookType,
    CreateBlockingParticleHook,
    CreateParticleHook,
    EmitterType,
    NullHook,
    ParticleType,
    PlayScript,
    ReplaceObjectHook,
    decode,
    encode,
)
from viewer.synthetic import generate as G


@pytest.fixture(scope="module")
def library():
    return G.build_library()


@pytest.fixture(scope="module")
def dat():
    with DatFile(S.SYNTHETIC_DAT) as f:
        yield f


@pytest.fixture(scope="module")
def records(dat):
    return {did: decode(did, dat.read(did), file=str(S.SYNTHETIC_DAT)) for did in dat.dids()}


def test_committed_dat_is_byte_identical_to_a_fresh_generation(library):
    assert S.SYNTHETIC_DAT.read_bytes() == G.build_dat_bytes(library), (
        "assets_synthetic/synthetic_portal.dat is stale: run python -m viewer.synthetic.generate")


def test_generation_is_deterministic(tmp_path, library):
    first = G.build_dat_bytes(library)
    assert G.build_dat_bytes(G.build_library()) == first
    paths = G.generate(tmp_path, root=S.ROOT)
    assert paths["dat"].read_bytes() == first
    for kind, committed in (("scenario", S.DEFAULT_SCENARIO), ("gallery", S.GALLERY_SCENARIO)):
        assert json.loads(paths[kind].read_text()) == json.loads(committed.read_text()), (
            f"{committed.name} is stale: regenerate")


def test_dat_is_small():
    assert S.SYNTHETIC_DAT.stat().st_size < 1_000_000


def test_every_record_decodes_and_reencodes_to_identical_bytes(dat, records):
    for did in dat.dids():
        assert encode(records[did]) == dat.read(did), f"0x{did:08X}"


def test_the_dat_holds_exactly_the_library(dat, library):
    from viewer.dat.records import ITERATION_DID
    assert set(dat.dids()) == {a.did for a in library.assets} | {ITERATION_DID}


def test_every_named_constant_is_a_record(records):
    for name in dir(S):
        value = getattr(S, name)
        if name.startswith(("GFX_", "SETUP_", "ANIM_", "MTABLE_", "WAVE_", "STABLE_", "EMIT_",
                            "PES_", "PST_", "SURFACE_", "DEGRADE_")) and isinstance(value, int):
            assert value in records, name
    for group in (S.RENDER_SURFACES, S.SURFACE_TEXTURES, S.GALLERY_SURFACES, S.GALLERY_GFXOBJS,
                  S.PALETTES_P8, S.PALETTES_INDEX16, S.EMIT_BY_PARTICLE_TYPE):
        assert set(group.values()) <= set(records)


def test_every_referenced_did_exists(records):
    """No dangling references: meshes, textures, emitters, scripts, tables, animations."""
    def check(did, what):
        assert did == 0 or did in records, f"{what} -> 0x{did:08X} missing"

    for did, r in records.items():
        kind = type(r).__name__
        if kind == "GfxObj":
            for s in r.surfaces:
                check(s, f"GfxObj 0x{did:08X} surface")
            if r.did_degrade is not None:
                check(r.did_degrade, "did_degrade")
        elif kind == "Surface" and r.orig_texture_id is not None:
            check(r.orig_texture_id, "Surface texture")
        elif kind == "SurfaceTexture":
            for t in r.textures:
                check(t, "SurfaceTexture level")
        elif kind == "RenderSurface" and r.default_palette_id is not None:
            check(r.default_palette_id, "palette")
        elif kind == "Setup":
            for p in r.parts:
                check(p, "Setup part")
            for d in (r.default_animation, r.default_script, r.default_motion_table,
                      r.default_sound_table, r.default_script_table):
                check(d, f"Setup 0x{did:08X} default")
        elif kind == "ParticleEmitterInfo":
            check(r.gfxobj_id, "gfxobj_id")
            check(r.hw_gfxobj_id, "hw_gfxobj_id")
        elif kind == "PhysicsScriptTable":
            for _, data in r.entries:
                for s in data.scripts:
                    check(s.script_id, "table script")
        elif kind == "PhysicsScript":
            for d in r.script_data:
                h = d.hook
                for field in ("emitter_info_id", "pes_id", "wave_id", "gfxobj_id"):
                    if hasattr(h, field):
                        check(getattr(h, field), f"PES 0x{did:08X} {field}")
        elif kind == "MotionTable":
            for _, md in r.cycles + r.modifiers:
                for a in md.anims:
                    check(a.anim_id, "cycle anim")
            for _, inner in r.links:
                for _, md in inner:
                    for a in md.anims:
                        check(a.anim_id, "link anim")


def test_manifest_lists_every_did(library):
    text = S.MANIFEST.read_text(encoding="utf-8")
    for a in library.assets:
        assert f"| 0x{a.did:08X} | {a.type_name} |" in text, a.name


# ---------------------------------------------------------------------------------------------
# The shapes the issue asks for
# ---------------------------------------------------------------------------------------------

def test_arrow_setup_has_one_sphere_radius_0_10_at_the_origin(records):
    arrow = records[S.SETUP_ARROW]
    assert len(arrow.spheres) == 1 and arrow.cylspheres == ()
    assert arrow.spheres[0].center == (0.0, 0.0, 0.0)
    assert arrow.spheres[0].radius == pytest.approx(0.10, abs=1e-7)


def test_bolt_setup_sphere_is_offset_like_force_bolt(records):
    bolt = records[S.SETUP_BOLT]
    assert len(bolt.spheres) == 1
    assert bolt.spheres[0].center == pytest.approx((0.0, -0.165, 0.1045), abs=1e-7)
    assert bolt.spheres[0].radius == pytest.approx(0.102, abs=1e-7)
    assert len(bolt.lights) == 1 and bolt.default_script == S.PES_BOLT_DEFAULT


def test_humanoid_has_parts_placements_and_motion_table(records):
    h = records[S.SETUP_HUMANOID]
    assert len(h.parts) == len(S.HUMANOID_PARTS) >= 8
    assert h.parent_index is not None and h.parent_index[0] == 0xFFFFFFFF
    assert {int(k) for k, _ in h.placement_frames} == {0, 0x65}
    assert h.default_motion_table == S.MTABLE_HUMANOID
    assert h.default_script_table == S.PST_HUMANOID


def test_lantern_is_static_with_light_and_default_script(records):
    lantern = records[S.SETUP_LANTERN]
    assert lantern.default_script == S.PES_LANTERN_DEFAULT and len(lantern.lights) == 1
    cone = lantern.lights[0].cone_angle
    assert cone == pytest.approx(-431602080.0)  # 0xCDCDCDCD as retail leaves it
    assert lantern.default_animation == S.ANIM_LANTERN_SWING


def test_attach_points_setup_has_holding_and_connection_points(records):
    s = records[S.SETUP_ATTACH_POINTS]
    assert len(s.holding_locations) >= 3 and len(s.connection_points) >= 1


def test_recall_animation_creates_emitter_19_on_part_minus_1_at_frame_16(records):
    anim = records[S.ANIM_HUMANOID_RECALL]
    creates = [(i, h) for i, f in enumerate(anim.part_frames) for h in f.hooks
               if isinstance(h, CreateParticleHook)]
    assert len(creates) == 1
    frame_index, hook = creates[0]
    assert frame_index == S.RECALL_EMITTER_FRAME == 16
    assert hook.part_index == -1 and hook.emitter_id == S.RECALL_EMITTER_LOGICAL_ID == 19
    assert hook.emitter_info_id == S.EMIT_RECALL
    assert hook.offset.origin == (0.0, 0.0, 0.0)
    sound_frames = [i for i, f in enumerate(anim.part_frames) for h in f.hooks
                    if h.hook_type in (AnimationHookType.SoundTweaked,
                                       AnimationHookType.SoundTable)]
    assert [i for i in sound_frames if i > 16] == list(S.RECALL_SOUND_FRAMES)


def test_motion_table_links_ready_to_the_recall_action(records):
    mt = records[S.MTABLE_HUMANOID]
    ready_key = G.motion_key(S.STYLE_NON_COMBAT, S.MOTION_READY)
    assert ready_key == 0x003D0003
    links = dict(mt.links)[ready_key]
    recall = dict(links)[S.MOTION_RECALL]
    assert recall.anims[0].anim_id == S.ANIM_HUMANOID_RECALL
    assert recall.anims[0].framerate == pytest.approx(9.96)
    walk = dict(mt.cycles)[G.motion_key(S.STYLE_NON_COMBAT, S.MOTION_WALK_FORWARD)]
    assert records[walk.anims[0].anim_id].pos_frames is not None   # root motion


def test_every_particle_and_emitter_type_is_present(records):
    infos = [r for r in records.values() if type(r).__name__ == "ParticleEmitterInfo"]
    assert {int(i.particle_type) for i in infos} >= set(range(1, 13))
    assert {int(i.emitter_type) for i in infos} == {0, 1, 2}
    assert {i.is_parent_local for i in infos} == {True, False}
    assert any(i.total_particles for i in infos) and any(i.total_seconds for i in infos)
    assert any(i.initial_particles > i.max_particles for i in infos)
    assert any(i.hw_gfxobj_id == 0 for i in infos)
    for pt, did in S.EMIT_BY_PARTICLE_TYPE.items():
        assert records[did].particle_type == ParticleType(pt)
    assert records[S.EMIT_TRAIL_PER_METER].emitter_type == EmitterType.BirthratePerMeter


def _resolve(table, play_script, intensity):
    """PhysicsScriptTableData::GetScript 0x00521A20 over the decoded data."""
    data = table.get(play_script)
    if data is None or math.isnan(intensity):
        return 0
    for s in data.scripts:
        if intensity <= s.mod:
            return s.script_id
    return 0


def test_flame_table_thresholds(records):
    t = records[S.PST_FLAME]
    assert [int(k) for k, _ in t.entries] == [PlayScript.ProjectileCollision, PlayScript.Launch,
                                              PlayScript.Explode]
    assert _resolve(t, PlayScript.Launch, 0.0) == S.PES_LAUNCH_SMALL
    assert _resolve(t, PlayScript.Launch, 0.5) == S.PES_LAUNCH_TRAIL
    assert _resolve(t, PlayScript.Launch, 0.7) == S.PES_LAUNCH_LARGE
    assert _resolve(t, PlayScript.Explode, 1.0) == S.PES_EXPLODE
    assert _resolve(t, PlayScript.ProjectileCollision, 1.0) == S.PES_COLLISION_FLASH


def test_unsorted_table_keeps_stored_mod_order(records):
    t = records[S.PST_UNSORTED]
    launch = t.get(PlayScript.Launch)
    assert [s.mod for s in launch.scripts] == [1.0, 0.25, 0.5]
    assert _resolve(t, PlayScript.Launch, 0.3) == S.PES_LAUNCH_LARGE
    assert _resolve(t, PlayScript.Test1, 5.0) == S.PES_DIFFUSE      # +inf threshold
    assert [int(k) for k, _ in t.entries].count(PlayScript.Test1) == 2


def test_hidden_unhide_pair_at_mod_1(records):
    t = records[S.PST_HUMANOID]
    assert _resolve(t, PlayScript.Hidden, 1.0) == S.PES_HIDDEN
    assert _resolve(t, PlayScript.UnHide, 1.0) == S.PES_UNHIDE


def test_unsorted_script_is_stored_out_of_time_order_and_sorted_as_retail_qsort(records):
    pes = records[S.PES_UNSORTED]
    stored = [d.start_time for d in pes.stored_script_data]
    assert stored != sorted(stored)
    assert [d.start_time for d in pes.script_data] == sorted(stored)
    quarter = [d.hook.hook_type for d in pes.script_data if d.start_time == 0.25]
    # stored Luminous@0.25 before Diffuse@0.25; the CRT shortsort (worked by hand in
    # tests/dat/test_dat_qsort_order.py's manner) puts Diffuse first
    assert quarter == [AnimationHookType.Diffuse, AnimationHookType.Luminous]


def test_all_hooks_script_has_every_hook_type_and_both_packed_did_forms(records):
    pes = records[S.PES_ALL_HOOKS]
    assert {int(d.hook.hook_type) for d in pes.script_data} == set(range(27))
    # the stored AnimationDone is the last entry: as a NULL hook it ends the script, so
    # every other hook still runs
    assert isinstance(pes.script_data[-1].hook, NullHook)
    replaces = [d.hook for d in pes.script_data if isinstance(d.hook, ReplaceObjectHook)]
    assert {h.gfxobj_id - 0x01000000 > 0x3FFF for h in replaces} == {True, False}
    blocking = [i for i, d in enumerate(pes.stored_script_data)
                if isinstance(d.hook, CreateBlockingParticleHook)]
    assert blocking and blocking[0] + 1 < len(pes.stored_script_data)


def test_blocking_script_reuses_a_live_logical_id(records):
    pes = records[S.PES_BLOCKING]
    ids = [d.hook.emitter_id for d in pes.script_data
           if isinstance(d.hook, CreateBlockingParticleHook)]
    assert ids.count(7) >= 3 and 0 in ids


def test_scripts_cover_the_requested_hook_kinds(records):
    kinds = {int(d.hook.hook_type) for r in records.values()
             if type(r).__name__ == "PhysicsScript" and r.id != S.PES_ALL_HOOKS
             for d in r.script_data if not isinstance(d.hook, NullHook)}
    wanted = {AnimationHookType.Luminous, AnimationHookType.Diffuse,
              AnimationHookType.Transparent, AnimationHookType.Scale, AnimationHookType.SetOmega,
              AnimationHookType.TextureVelocity, AnimationHookType.NoDraw,
              AnimationHookType.Sound, AnimationHookType.SetLight, AnimationHookType.CallPES,
              AnimationHookType.StopParticle, AnimationHookType.DestroyParticle}
    assert {int(k) for k in wanted} <= kinds
    chain = records[S.PES_CALLPES_CHAIN]
    assert max(d.hook.pause for d in chain.script_data
               if d.hook.hook_type == AnimationHookType.CallPES) > 0.0002


# ---------------------------------------------------------------------------------------------
# The default scenario (contract section 4)
# ---------------------------------------------------------------------------------------------

def _check_scenario(path, records) -> dict:
    """Contract section 4: DIDs as 0x%08X strings naming records, known objects, known
    PlayScript names, times inside the run, ``dat`` relative to the scenario file."""
    sc = json.loads(path.read_text(encoding="utf-8"))
    assert [(path.parent / p).resolve() for p in sc["dat"]] == [S.SYNTHETIC_DAT.resolve()]
    assert isinstance(sc["seed"], int) and sc["fps"] > 0 and sc["seconds"] > 0
    ids = {o["id"] for o in sc["objects"]}
    for o in sc["objects"]:
        assert int(o["setup"], 16) in records and o["setup"] == f"0x{int(o['setup'], 16):08X}"
        if "table" in o:
            assert type(records[int(o["table"], 16)]).__name__ == "PhysicsScriptTable"
    for e in sc["events"]:
        assert e["object"] in ids and 0 <= e["t"] <= sc["seconds"]
        if "play" in e:
            assert e["play"] in PlayScript.__members__
        if "play_script" in e:
            assert type(records[int(e["play_script"], 16)]).__name__ == "PhysicsScript"
    return sc


def test_gallery_scenario_follows_the_contract(records):
    sc = _check_scenario(S.GALLERY_SCENARIO, records)
    assert int(sc["objects"][0]["setup"], 16) == S.SETUP_TEXTURE_GALLERY
    gallery = records[S.SETUP_TEXTURE_GALLERY]
    assert set(gallery.parts) == set(S.GALLERY_GFXOBJS.values())


def test_default_scenario_follows_the_contract(records):
    sc = _check_scenario(S.DEFAULT_SCENARIO, records)
    setups = {int(o["setup"], 16) for o in sc["objects"]}
    assert {S.SETUP_HUMANOID, S.SETUP_LANTERN, S.SETUP_BOLT} <= setups
    motions = [e for e in sc["events"] if "motion" in e]
    assert motions and int(motions[0]["motion"], 16) == S.MOTION_RECALL
    plays = {e["play"] for e in sc["events"] if "play" in e}
    assert {"Launch", "Explode"} <= plays


def test_each_degrade_table_starts_with_the_mesh_that_owns_it(records):
    """The renderer draws the chosen degrade entry's GfxObj, so level 0 must be the owner and
    no table may be shared by two meshes (a shared table would swap their meshes)."""
    owners: dict[int, int] = {}
    for did, r in records.items():
        if type(r).__name__ == "GfxObj" and r.did_degrade is not None:
            assert r.did_degrade not in owners, f"0x{r.did_degrade:08X} shared"
            owners[r.did_degrade] = did
            assert records[r.did_degrade].degrades[0].gfxobj_id == did
            for level in records[r.did_degrade].degrades:
                assert level.gfxobj_id in records
    modes = {int(e.degrade_mode) for d in owners for e in records[d].degrades}
    assert modes == {1, 2, 3, 4, 5}


def _gfxobjs(records):
    from viewer.dat.records import GfxObj
    return {did: r for did, r in records.items() if isinstance(r, GfxObj)}


def test_synthetic_polygons_wind_counter_clockwise_about_their_normal_as_retail(records):
    """Retail draws the side a polygon's vertices run counter-clockwise around (the
    right-hand-rule normal of CPolygon::make_plane 0x005383D0; RenderMeshSubset 0x0059CA10
    culls D3DCULL_CW). Every synthetic drawing polygon winds so about its vertex normals."""
    import numpy as np
    checked = 0
    for did, g in _gfxobjs(records).items():
        verts = g.vertex_array.vertices
        for p in g.polygons:
            pts = np.asarray([verts[i].origin for i in p.vertex_ids], np.float64)
            n = sum(np.cross(pts[k] - pts[0], pts[k + 1] - pts[0])
                    for k in range(1, len(pts) - 1))
            for i in p.vertex_ids:
                assert float(np.dot(n, verts[i].normal)) > 0, (hex(did), p.poly_id)
            checked += 1
    assert checked > 100


def test_synthetic_polygons_carry_NoNeg_unless_they_store_negative_uvs(records):
    """Retail single-sided polygons carry stippling NoNeg (0x8): no neg UVs are stored
    (CPolygon::UnPack 0x00538650), and stippling > 0 marks the surface stippled, so its
    texture WRAPs (ConstructMesh 0x0059DFA0, SetSurface 0x0059C4D0)."""
    for did, g in _gfxobjs(records).items():
        for p in g.polygons:
            if int(p.sides_type) == 2 and p.neg_uv_indices is not None:
                assert int(p.stippling) & 0x8 == 0, hex(did)
            else:
                assert int(p.stippling) & 0x8, (hex(did), p.poly_id)


def test_scroll_plane_texture_wraps_so_texture_velocity_tiles(records):
    from viewer.render.meshes import triangulate_gfxobj
    m = triangulate_gfxobj(records[S.GFX_SCROLL_PLANE], S.GFX_SCROLL_PLANE)
    assert m.wrap == frozenset({0})
    assert m.vertices[:, 6:8].max() == 2.0     # UVs 0..2: two tiles each way


@pytest.mark.parametrize("did,mode,axis", [(S.GFX_QUAD_SPARK_AXIS_X, 3, 2),
                                           (S.GFX_QUAD_SPARK_AXIS_Y, 4, 0),
                                           (S.GFX_QUAD_STREAK, 5, 1)])
def test_axis_locked_quads_lie_in_the_plane_their_mode_turns_to_the_viewer(records, did,
                                                                          mode, axis):
    """Frame::rotate_around_axis_to_vector 0x00535A40: locked about X the local Z axis is
    turned to the viewer (prev[X] = Z), about Y local X, about Z local Y; the quad's normal
    lies along that axis so it is never seen edge-on."""
    g = records[did]
    (entry,) = records[g.did_degrade].degrades
    assert int(entry.degrade_mode) == mode
    for v in g.vertex_array.vertices:
        assert abs(v.normal[axis]) == 1.0
        assert v.origin[axis] == 0.0
