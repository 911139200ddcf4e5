"""glTF export into Blender (issue 29 item 4): exports the synthetic humanoid walking and the
textured mannequin with ``vfxviewer export``, imports each GLB into Blender headless
(``blender -b --factory-startup --python-expr ...``, Blender's own glTF importer) and prints
what arrived: every object with its parent, mesh triangles and world position at the first
frame, the images with their sizes, and every action's F-curves with their key counts.

Needs ``blender`` on PATH (Debian: ``apt-get install blender``; not a dependency of the
viewer, not part of ./test). Debian's Blender 3.4 importer guesses flat / smooth shading
with a NumPy alias that NumPy 1.24 removed, so the import asks for smooth shading (the
GLB's normals are kept either way).

Run: ``.venv/bin/python bench/export_blender.py [--blender PATH] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer import synthetic as S
from viewer.cli import main as vfxviewer

#: runs inside Blender: import sys.argv[-1] and print what arrived, one "BLENDER" line each
IMPORT = r"""
import sys, bpy
path = sys.argv[-1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path, import_shading='SMOOTH')
scene = bpy.context.scene
scene.frame_set(int(scene.frame_start))
def say(*a):
    print("BLENDER", *a, flush=True)
say("file", path, "frames", scene.frame_start, "..", scene.frame_end)
for o in sorted(bpy.data.objects, key=lambda o: o.name):
    tris = sum(len(p.vertices) - 2 for p in o.data.polygons) if o.type == 'MESH' else 0
    loc = tuple(round(c, 3) for c in o.matrix_world.translation)
    mats = [s.material.name for s in o.material_slots if s.material] if o.type == 'MESH' else []
    say("object", repr(o.name), o.type, "parent", repr(o.parent.name if o.parent else None),
        "triangles", tris, "world", loc, "materials", mats)
for im in bpy.data.images:
    if im.size[0]:
        say("image", repr(im.name), "size", tuple(im.size), "packed", bool(im.packed_file))
for a in bpy.data.actions:
    curves = {}
    for fc in a.fcurves:
        curves.setdefault(fc.data_path, set()).add(len(fc.keyframe_points))
    say("action", repr(a.name), {k: sorted(v) for k, v in curves.items()})
"""


def export(out: Path, *argv: str) -> float:
    t0 = time.perf_counter()
    rc = vfxviewer(["export", str(S.SYNTHETIC_DAT), *argv, "--out", str(out)])
    if rc != 0:
        raise SystemExit(f"export failed ({rc})")
    return time.perf_counter() - t0


def blender_import(blender: str, glb: Path) -> list[str]:
    p = subprocess.run([blender, "-b", "--factory-startup", "--python-expr", IMPORT, "--",
                        str(glb)], capture_output=True, text=True, timeout=600, check=False)
    lines = [ln[len("BLENDER "):] for ln in p.stdout.splitlines() if ln.startswith("BLENDER ")]
    if p.returncode != 0 or not lines or "Error" in p.stderr:
        print(p.stdout[-3000:], p.stderr[-3000:], sep="\n")
        raise SystemExit(f"blender import of {glb} failed ({p.returncode})")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blender", default=shutil.which("blender"))
    ap.add_argument("--keep", type=Path, help="write the GLBs here (default: a temp folder)")
    args = ap.parse_args()
    if not args.blender:
        raise SystemExit("blender not found (Debian: apt-get install blender)")
    version = subprocess.run([args.blender, "--version"], capture_output=True, text=True,
                             check=False).stdout.splitlines()[:1]
    print("blender:", *version)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        cases = [
            ("humanoid_walk.glb", ["--setup", f"0x{S.SETUP_HUMANOID:08X}", "--motion",
                                   f"0x{S.MOTION_WALK_FORWARD:08X}", "--seconds", "2"]),
            ("mannequin.glb", ["--setup", f"0x{S.SETUP_MANNEQUIN:08X}"]),
        ]
        for name, argv in cases:
            glb = folder / name
            seconds = export(glb, *argv)
            print(f"\n== {name}: vfxviewer export {' '.join(argv)} "
                  f"({seconds:.2f} s, {glb.stat().st_size:,d} bytes)")
            t0 = time.perf_counter()
            for line in blender_import(args.blender, glb):
                print(line)
            print(f"(blender import and report: {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
