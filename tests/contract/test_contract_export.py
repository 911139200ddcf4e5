"""Contract section 13: ``vfxviewer export DAT... --setup DID [--animation DID | --motion CMD]
--out FILE.glb``. The GLB is read back with pygltflib: one node per Setup part under the one
root node that turns AC's Z-up into glTF's Y-up, a mesh per part with the renderer's
triangles, PNG textures with the renderer's pixels, and animation keys that are the part
frames ``trace --poses`` prints, frame for frame. The Khronos glTF validator (npm
``gltf-validator``, installed into .venv by ./test's bootstrap) finds no error."""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pygltflib
import pytest

from tests.bounded import run_bounded
from viewer import synthetic as S
from viewer.dat import records as R
from viewer.dat.container import DatFile
from viewer.dat.database import AssetDatabase
from viewer.dat.writer import write_dat

from .conftest import ROOT, SYN, assert_input_failure, assert_usage_error, write_scenario

HUMANOID = f"0x{S.SETUP_HUMANOID:08X}"
WALK = f"0x{S.MOTION_WALK_FORWARD:08X}"
VALIDATOR = ROOT / ".venv" / "gltf-validator" / "node_modules" / "gltf-validator"
VALIDATE_JS = Path(__file__).resolve().parent / "gltf_validate.js"
_TYPES = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def export(cli, tmp_path: Path, *argv, name="out.glb"):
    out = tmp_path / name
    r = cli("export", SYN, *argv, "--out", out)
    assert r.rc == 0, r
    return pygltflib.GLTF2.load_binary(str(out)), out


def accessor(g, index: int) -> np.ndarray:
    """The float values of accessor ``index`` as (count, components)."""
    acc = g.accessors[index]
    view = g.bufferViews[acc.bufferView]
    assert acc.componentType == pygltflib.FLOAT and view.byteStride in (None, 0)
    raw = g.binary_blob()[view.byteOffset + (acc.byteOffset or 0):][:view.byteLength]
    return np.frombuffer(raw, np.float32, acc.count * _TYPES[acc.type]).reshape(acc.count, -1)


def part_nodes(g) -> list:
    root = g.nodes[g.scenes[g.scene].nodes[0]]
    return [g.nodes[i] for i in root.children]


def retail_triangles(gfx) -> int:
    """Triangles retail's ConstructMesh 0x0059DFA0 builds: a fan of n - 2 per polygon side,
    two sides for sides_type 1 (mirrored) and 2 (own negative surface)."""
    return sum((len(p.vertex_ids) - 2) * (2 if int(p.sides_type) in (1, 2) else 1)
               for p in gfx.polygons or () if len(p.vertex_ids) >= 3)


def channels(g) -> dict[tuple[int, str], np.ndarray]:
    """(node, path) -> the sampler's output keys, after checking each input is the shared
    LINEAR frame clock."""
    (anim,) = g.animations
    out = {}
    for ch in anim.channels:
        sampler = anim.samplers[ch.sampler]
        assert sampler.interpolation == "LINEAR"
        out[ch.target.node, ch.target.path] = accessor(g, sampler.output)
    return out


def key_times(g) -> np.ndarray:
    (anim,) = g.animations
    inputs = {s.input for s in anim.samplers}
    assert len(inputs) == 1
    return accessor(g, inputs.pop())[:, 0]


def trace_poses(cli, *argv) -> dict[tuple[float, int], dict]:
    r = cli("trace", SYN, *argv, "--poses")
    assert r.rc == 0, r
    return {(ev["t"], ev["part"]): ev for ev in r.json_lines()
            if ev["event"] == "pose" and ev["owner"] == 1 and ev["part"] >= 0}


def assert_key_is_pose(g, node: int, k: int, pose: dict) -> None:
    """Key ``k`` of a part node is trace's pose: the same origin, the same rotation (glTF's
    (x, y, z, w) of trace's (w, x, y, z), up to the sign the keys keep continuous)."""
    ch = channels(g)
    np.testing.assert_allclose(ch[node, "translation"][k], pose["origin"], atol=2e-6)
    w, x, y, z = pose["orientation"]
    q = ch[node, "rotation"][k]
    sign = 1.0 if float(np.dot(q, [x, y, z, w])) >= 0 else -1.0
    np.testing.assert_allclose(q, sign * np.array([x, y, z, w]), atol=2e-6)


# -- structure ---------------------------------------------------------------------------------
def test_humanoid_with_a_motion_one_node_and_mesh_per_part_keys_per_frame(cli, tmp_path):
    g, _ = export(cli, tmp_path, "--setup", HUMANOID, "--motion", WALK, "--seconds", "1")
    db = AssetDatabase([SYN])
    setup = db.get(S.SETUP_HUMANOID)
    nodes = part_nodes(g)
    assert len(nodes) == len(setup.parts) == 11
    for i, (node, gid) in enumerate(zip(nodes, setup.parts)):
        assert node.extras["part"] == i and node.extras["gfxobj"] == f"0x{gid:08X}"
        mesh = g.meshes[node.mesh]
        triangles = sum(g.accessors[p.attributes.POSITION].count for p in mesh.primitives) // 3
        assert triangles == retail_triangles(db.get(gid)) > 0
    times = key_times(g)
    assert len(times) == 31                           # frames 0..30 of 1 s at 30 fps
    np.testing.assert_allclose(times, np.arange(31) / 30.0, atol=1e-6)
    ch = channels(g)
    for node in g.nodes[0].children:
        assert len(ch[node, "translation"]) == len(ch[node, "rotation"]) == 31
        q = ch[node, "rotation"]
        np.testing.assert_allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-6)
        assert np.all(np.sum(q[1:] * q[:-1], axis=1) >= 0)  # sign-continuous


def test_the_root_node_turns_AC_Z_up_into_glTF_Y_up():
    """AC: right-handed, Z up, +Y forward. glTF: Y up, +Z forward. The root's rotation maps
    AC (x, y, z) to (-x, z, y): up to up, forward to forward, still right-handed."""
    from viewer.commands.gltf_export import Z_UP_TO_Y_UP
    x, y, z, w = Z_UP_TO_Y_UP

    def turn(v):
        u = np.array([x, y, z])
        return 2 * np.dot(u, v) * u + (w * w - np.dot(u, u)) * np.asarray(v) \
            + 2 * w * np.cross(u, v)
    np.testing.assert_allclose(turn([0, 0, 1]), [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(turn([0, 1, 0]), [0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(turn([1, 0, 0]), [-1, 0, 0], atol=1e-12)
    assert math.isclose(x * x + y * y + z * z + w * w, 1.0)


def test_rest_pose_is_the_placement_frame_and_no_animation_without_one(cli, tmp_path):
    """CPhysicsObj::InitObjectEnd 0x0050FFE0: placement Resting (0x65), else Default (0)."""
    from viewer.sim.animation.controller import find_placement_frame
    g, _ = export(cli, tmp_path, "--setup", HUMANOID)
    assert not g.animations
    af, _ = find_placement_frame(AssetDatabase([SYN]).get(S.SETUP_HUMANOID))
    g0 = g.nodes[0]
    assert g0.rotation == pytest.approx([0.0, math.sqrt(0.5), math.sqrt(0.5), 0.0])
    for node, f in zip(part_nodes(g), af.frames):
        assert node.translation == pytest.approx(list(f.origin), abs=1e-6)
        w, x, y, z = f.orientation
        assert node.rotation == pytest.approx([x, y, z, w], abs=1e-6)


# -- the pose stream ---------------------------------------------------------------------------
def test_keys_are_trace_poses_frame_for_frame(cli, tmp_path):
    """A walk: every pose trace prints (each frame that updates objects) is the key of that
    frame, the first one (t = 1/30) and the middle one (frame 15) included. Frame 0 runs no
    update (trace prints no pose for it): its key is the pose the object was created in."""
    from viewer.sim.scenario import Scenario, ScenarioRunner
    scenario = write_scenario(tmp_path / "walk.json", {
        "fps": 30, "seconds": 1, "objects": [{"id": 1, "setup": HUMANOID}],
        "events": [{"t": 0, "object": 1, "motion": WALK}]})
    poses = trace_poses(cli, "--scenario", scenario)
    g, _ = export(cli, tmp_path, "--setup", HUMANOID, "--motion", WALK, "--seconds", "1")
    nodes = g.nodes[0].children
    first = min(t for t, _ in poses)
    assert first == pytest.approx(1 / 30)
    for (t, part), pose in poses.items():
        assert_key_is_pose(g, nodes[part], round(t * 30), pose)
    ch = channels(g)
    assert (0.5, 0) in poses and not np.allclose(ch[nodes[4], "rotation"][15],
                                                 ch[nodes[4], "rotation"][1])
    runner = ScenarioRunner(Scenario.load(scenario), AssetDatabase([SYN]))
    runner.step_frame()                   # frame 0, t = 0
    for part, node in enumerate(nodes):
        f = runner.world.objects[1].parts[part].frame
        assert_key_is_pose(g, node, 0, {"origin": f.origin, "orientation": f.orientation})


def test_animation_plays_as_the_setups_DefaultAnimation(cli, tmp_path):
    """``--animation``: CPartArray::InitDefaults 0x00518980's DefaultAnimation path. The
    lantern's own DefaultAnimation traced is the export of that Animation, key for key."""
    setup = AssetDatabase([SYN]).get(S.SETUP_LANTERN)
    assert setup.default_animation == S.ANIM_LANTERN_SWING and not setup.default_motion_table
    lantern = f"0x{S.SETUP_LANTERN:08X}"
    poses = trace_poses(cli, "--setup", lantern, "--seconds", "1", "--fps", "20")
    g, _ = export(cli, tmp_path, "--setup", lantern, "--animation",
                  f"0x{S.ANIM_LANTERN_SWING:08X}", "--seconds", "1", "--fps", "20")
    assert len(key_times(g)) == 21 and g.animations[0].name == "Animation 0x03000105"
    nodes = g.nodes[0].children
    assert len(poses) == 20 * len(nodes)
    for (t, part), pose in poses.items():
        assert_key_is_pose(g, nodes[part], round(t * 20), pose)


def test_a_motion_the_table_does_not_perform_is_said_once(cli, tmp_path):
    out = tmp_path / "x.glb"
    r = cli("export", SYN, "--setup", f"0x{S.SETUP_MARKER:08X}", "--motion", WALK,
            "--seconds", "0.1", "--out", out)
    assert r.rc == 0 and out.exists(), r
    assert r.err_lines == [f"vfxviewer: warning: motion {WALK} not performed: the Setup has "
                           "no motion table that does it (the parts keep their pose)"]


# -- materials and textures ----------------------------------------------------------------------
def test_textured_setup_PNGs_hold_the_renderers_pixels(cli, tmp_path):
    """The mannequin's tunic (INDEX16 with its palette): one PNG, decoded by the renderer's
    own Surface resolution (render.meshes.surface_material), used as the base colour."""
    from PIL import Image

    from viewer.render.meshes import surface_material
    g, _ = export(cli, tmp_path, "--setup", f"0x{S.SETUP_MANNEQUIN:08X}")
    assert len(part_nodes(g)) == 2 and len(g.images) == 1
    image = g.images[0]
    assert image.mimeType == "image/png"
    view = g.bufferViews[image.bufferView]
    png = g.binary_blob()[view.byteOffset:view.byteOffset + view.byteLength]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    _, source = surface_material(AssetDatabase([SYN]), S.SURFACE_CLOTH)
    np.testing.assert_array_equal(np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")),
                                  source.rgba())
    textured = [m for m in g.materials if m.pbrMetallicRoughness.baseColorTexture]
    assert [m.name for m in textured] == [f"Surface 0x{S.SURFACE_CLOTH:08X}"]
    prims = [p for m in g.meshes for p in m.primitives
             if g.materials[p.material] is textured[0]]
    assert prims and all(p.attributes.TEXCOORD_0 is not None for p in prims)


# -- the Khronos validator -----------------------------------------------------------------------
def validate(files: list[Path]) -> list[dict]:
    """The Khronos glTF validator's report of each file, after checking it found no error
    and no warning."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the Khronos glTF validator is a JavaScript "
                    "library (./test installs it where node and npm exist)")
    assert VALIDATOR.is_dir(), (f"{VALIDATOR} missing: ./test's bootstrap installs it "
                                "(npm install --prefix .venv/gltf-validator gltf-validator)")
    p = subprocess.run([node, str(VALIDATE_JS), str(VALIDATOR), *map(str, files)],
                       capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr
    reports = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(reports) == len(files)
    for f, report in zip(files, reports):
        issues = report["issues"]
        assert issues["numErrors"] == 0, (f.name, issues["messages"])
        assert issues["numWarnings"] == 0, (f.name, issues["messages"])
    return reports


def test_khronos_gltf_validator_finds_no_error(cli, tmp_path):
    """Every pixel format (the texture gallery), a motion, an Animation, a palette."""
    files = [
        export(cli, tmp_path, "--setup", HUMANOID, "--motion", WALK, "--seconds", "1",
               name="walk.glb")[1],
        export(cli, tmp_path, "--setup", f"0x{S.SETUP_LANTERN:08X}", "--animation",
               f"0x{S.ANIM_LANTERN_SWING:08X}", "--seconds", "1", name="lantern.glb")[1],
        export(cli, tmp_path, "--setup", f"0x{S.SETUP_TEXTURE_GALLERY:08X}",
               name="gallery.glb")[1],
        export(cli, tmp_path, "--setup", f"0x{S.SETUP_MANNEQUIN:08X}", name="tunic.glb")[1],
    ]
    reports = validate(files)
    assert reports[2]["info"]["hasTextures"] and reports[0]["info"]["animationCount"] == 1


# -- bad input and bad usage ---------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["--setup", HUMANOID, "--out", "x.gltf"],                       # not a GLB
    ["--setup", HUMANOID, "--fps", "60", "--out", "x.glb"],         # fps without animation
    ["--setup", HUMANOID, "--motion", WALK, "--fps", "241", "--out", "x.glb"],
    ["--setup", HUMANOID, "--motion", WALK, "--seconds", "301", "--out", "x.glb"],
    ["--setup", HUMANOID, "--motion", "NoSuchMotion", "--out", "x.glb"],
    ["--setup", HUMANOID, "--motion", WALK, "--animation", "0x03000101", "--out", "x.glb"],
    ["--setup", HUMANOID, "--out", ""],
])
def test_bad_usage_exits_2(cli, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    assert_usage_error(cli("export", SYN, *argv))
    assert not list(tmp_path.iterdir())


def test_an_output_that_is_the_DAT_is_bad_usage_and_the_DAT_is_kept(cli, tmp_path):
    dat = tmp_path / "client_portal.dat"
    shutil.copyfile(SYN, dat)
    before = dat.read_bytes()
    link = tmp_path / "same.glb"
    link.symlink_to(dat)
    r = cli("export", dat, "--setup", HUMANOID, "--out", link)
    assert_usage_error(r)
    assert "DAT" in r.err and dat.read_bytes() == before


@pytest.mark.parametrize("argv, names", [
    (["--setup", "0x02000999"], ["0x02000999", "not found"]),
    (["--setup", f"0x{S.PES_EXPLODE:08X}"], [f"0x{S.PES_EXPLODE:08X}", "not a Setup"]),
    (["--setup", HUMANOID, "--animation", HUMANOID], [HUMANOID, "not an Animation"]),
])
def test_a_DID_the_DATs_lack_or_of_another_type_is_one_line(cli, tmp_path, argv, names):
    out = tmp_path / "x.glb"
    r = cli("export", SYN, *argv, "--out", out)
    assert_input_failure(r, "synthetic_portal.dat", *names)
    assert not out.exists()


def test_a_truncated_part_names_file_DID_and_offset(cli, tmp_path):
    with DatFile(SYN) as dat:
        recs = {e.did: dat.read_entry(e) for e in dat.entries() if e.did >> 24 != 0xFF}
    head = S.GFX_HUMANOID_HEAD
    recs[head] = recs[head][:len(recs[head]) // 2]
    path = tmp_path / "cut.dat"
    write_dat(path, recs)
    out = tmp_path / "x.glb"
    r = cli("export", path, "--setup", HUMANOID, "--out", out)
    assert_input_failure(r, "cut.dat", f"0x{head:08X}", "offset")
    assert not out.exists()
    assert R.record_class(head) is R.GfxObj


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("where", ["dat", "out"])
def test_a_named_pipe_as_DAT_or_out_is_refused_at_once(tmp_path, where):
    """Neither waits for a writer or a reader (opening an --out FIFO to probe it blocked)."""
    fifo = tmp_path / "pipe.glb"
    os.mkfifo(fifo)
    argv = (["export", fifo, "--setup", HUMANOID, "--out", tmp_path / "x.glb"]
            if where == "dat" else ["export", SYN, "--setup", HUMANOID, "--out", fifo])
    r = run_bounded(argv, timeout=60)
    assert not r.timed_out and r.rc == 1 and "Traceback" not in r.err, r
    assert str(fifo) in r.err and "named pipe, not a file" in r.err, r.err


def test_a_setup_without_parts_is_a_root_node_alone_and_still_valid(cli, tmp_path):
    """No parts: no children and no animation channels (glTF allows neither empty)."""
    from dataclasses import replace
    with DatFile(SYN) as dat:
        recs = {e.did: dat.read_entry(e) for e in dat.entries() if e.did >> 24 != 0xFF}
    marker = AssetDatabase([SYN]).get(S.SETUP_MARKER)
    (key, af), = marker.placement_frames
    empty = replace(marker, id=0x02000F01, parts=(),
                    placement_frames=((key, replace(af, frames=())),))
    recs[empty.id] = R.encode(empty)
    path = tmp_path / "empty.dat"
    write_dat(path, recs)
    files = []
    for name, extra in (("plain.glb", []), ("anim.glb", ["--animation", "0x03000105"])):
        r = cli("export", path, "--setup", "0x02000F01", *extra, "--out", tmp_path / name)
        assert r.rc == 0 and r.err == "", r
        g = pygltflib.GLTF2.load_binary(str(tmp_path / name))
        assert len(g.nodes) == 1 and not g.nodes[0].children and not g.animations
        files.append(tmp_path / name)
    validate(files)


def test_a_part_draws_its_degrade_tables_closest_level(cli, tmp_path):
    """GfxObjDegradeInfo::get_degrade 0x0051E4B0 at distance 0: the marker's GfxObj given a
    degrade table whose first level names the humanoid's head; the part's mesh is the
    head's."""
    from dataclasses import replace

    from viewer.dat.records.common import GfxObjFlags
    db = AssetDatabase([SYN])
    with DatFile(SYN) as dat:
        recs = {e.did: dat.read_entry(e) for e in dat.entries() if e.did >> 24 != 0xFF}
    table = 0x11000F01
    gfx = db.get(S.GFX_MARKER)
    recs[S.GFX_MARKER] = R.encode(replace(gfx, flags=gfx.flags | GfxObjFlags.HasDIDDegrade,
                                          did_degrade=table))
    recs[table] = R.encode(R.GfxObjDegradeInfo(table, (
        R.GfxObjInfo(S.GFX_HUMANOID_HEAD, 1, 0.0, 10.0, 20.0),
        R.GfxObjInfo(S.GFX_MARKER, 1, 20.0, 50.0, 100.0))))
    path = tmp_path / "degrade.dat"
    write_dat(path, recs)
    out = tmp_path / "x.glb"
    assert cli("export", path, "--setup", f"0x{S.SETUP_MARKER:08X}", "--out", out).rc == 0
    g = pygltflib.GLTF2.load_binary(str(out))
    (node,) = part_nodes(g)
    assert node.extras["gfxobj"] == f"0x{S.GFX_MARKER:08X}"
    assert g.meshes[node.mesh].name == f"GfxObj 0x{S.GFX_HUMANOID_HEAD:08X}"
    triangles = sum(g.accessors[p.attributes.POSITION].count
                    for p in g.meshes[node.mesh].primitives) // 3
    assert triangles == retail_triangles(db.get(S.GFX_HUMANOID_HEAD))
