"""A Setup as a glTF 2.0 document (``vfxviewer export``, docs/cli.md section 13).

* Nodes: one root node, then one node per Setup part (its children, in Setup part order).
  The root carries the only change of axes: Asheron's Call is right-handed, Z up, +Y
  forward, in metres; glTF is right-handed, Y up, +Z forward, in metres. The root's rotation
  (180 degrees about (0, 1, 1) / sqrt 2) maps AC (x, y, z) to glTF (-x, z, y), so every part
  node keeps AC's own numbers: its translation and rotation are exactly the part frames the
  simulation computes (``trace --poses``), quaternions reordered (w, x, y, z) -> (x, y, z, w).
* Rest pose: each part node's translation / rotation / scale is the Setup's placement frame
  (Resting 0x65, else Default 0: CPhysicsObj::InitObjectEnd 0x0050FFE0 ->
  CPartArray::SetPlacementFrame 0x005193D0) and the part's DefaultScale.
* Meshes: the renderer's own triangulation (viewer.render.meshes.triangulate_gfxobj: retail's
  fan order and sides), one primitive per surface; materials from the renderer's Surface
  resolution (viewer.render.meshes.surface_material: colour, translucency, luminosity, the
  SurfaceTexture's RenderSurface with its palette) with the texture as a PNG inside the
  binary. Blend modes glTF cannot say (additive) are written as BLEND.
* Animation: the part frames of every render frame of a one-object scenario played through
  the same frame loop as ``trace --poses`` (viewer.sim.scenario.ScenarioRunner), as LINEAR
  translation and rotation channels (quaternions normalised and sign-continuous), plus
  scale channels when a part's drawn scale changes.
"""

from __future__ import annotations

import io
import math
import struct
from dataclasses import dataclass, replace

import numpy as np
import pygltflib as G
from PIL import Image

from viewer.dat import records as R
from viewer.render.degrade import select_level
from viewer.render.meshes import surface_material, triangulate_gfxobj, typed_record
from viewer.sim.animation.controller import find_placement_frame
from viewer.sim.clock import last_frame
from viewer.sim.poses import as_frame
from viewer.sim.scenario import Scenario, ScenarioRunner

#: the root node's rotation (x, y, z, w): AC (x, y, z) -> glTF (-x, z, y)
Z_UP_TO_Y_UP = (0.0, math.sqrt(0.5), math.sqrt(0.5), 0.0)

FLOAT = 5126                    # componentType
ARRAY_BUFFER = 34962            # bufferView target of vertex attributes
LINEAR, REPEAT, CLAMP_TO_EDGE = 9729, 10497, 33071


# -- poses ---------------------------------------------------------------------------------------
@dataclass
class PoseSamples:
    """Every part's frame at every render frame: ``times`` (F,), ``translation`` (F, P, 3),
    ``rotation`` (F, P, 4) as glTF (x, y, z, w), ``scale`` (F, P, 3); all float32."""

    label: str
    times: np.ndarray
    translation: np.ndarray
    rotation: np.ndarray
    scale: np.ndarray


class AnimationAsDefault:
    """The database with one Setup read as if ``animation`` were its DefaultAnimation and it
    had no motion table: the object then plays that Animation as CPartArray::InitDefaults
    0x00518980 plays a Setup's DefaultAnimation (every frame, 30 fps, looping), where a motion
    table's default state would have replaced it (MotionTableManager::initialize_state
    0x0051C030). Everything else is read through."""

    def __init__(self, db, setup_did: int, animation: int) -> None:
        self._db = db
        self._setup_did = int(setup_did)
        self._animation = int(animation)
        self._setup = None

    def get(self, did: int):
        if int(did) != self._setup_did:
            return self._db.get(did)
        if self._setup is None:
            self._setup = replace(self._db.get(did), default_animation=self._animation,
                                  default_motion_table=0)
        return self._setup

    def __contains__(self, did: int) -> bool:
        return did in self._db


def pose_scenario(setup_did: int, *, motion: int | None, fps: float, seconds: float):
    """The one-object scenario the export plays: object 1 of Setup ``setup_did`` at the
    origin, and ``motion`` (a full command) at t = 0 when given."""
    events = [] if motion is None else [{"t": 0.0, "object": 1, "motion": int(motion)}]
    return Scenario.from_json({"fps": fps, "seconds": seconds, "events": events,
                               "objects": [{"id": 1, "setup": f"0x{setup_did:08X}"}]})


def sample_poses(db, setup_did: int, *, motion: int | None = None,
                 animation: int | None = None, fps: float = 30.0, seconds: float = 5.0,
                 notes=None) -> PoseSamples:
    """Run the scenario (``pose_scenario``; ``animation`` through ``AnimationAsDefault``)
    and keep each part's frame after every render frame, frame 0 at t = 0 included: the
    values ``trace --poses`` prints for the frames that update. ``notes``: called with each
    ``missing`` and ``motion`` event of the run."""
    source = db if animation is None else AnimationAsDefault(db, setup_did, animation)
    runner = ScenarioRunner(pose_scenario(setup_did, motion=motion, fps=fps,
                                          seconds=seconds), source)
    if notes is not None:
        runner.world.observers.append(
            lambda ev: notes(ev) if ev.get("event") in ("missing", "motion") else None)
    count = last_frame(fps, seconds) + 1
    parts = len(db.get(setup_did).parts)
    times = np.zeros(count, np.float32)
    origin = np.zeros((count, parts, 3), np.float32)
    wxyz = np.zeros((count, parts, 4), np.float64)
    scale = np.ones((count, parts, 3), np.float32)
    for k, (t, world) in enumerate(runner.frames()):
        times[k] = float(t)
        obj = world.objects.get(1)
        if obj is None:  # gone (never, for this scenario): hold the last pose
            origin[k], wxyz[k], scale[k] = origin[k - 1], wxyz[k - 1], scale[k - 1]
            continue
        for p in obj.parts:
            origin[k, p.index] = p.frame.origin
            wxyz[k, p.index] = p.frame.orientation
            scale[k, p.index] = p.gfxobj_scale
    label = (f"Animation 0x{animation:08X}" if animation is not None
             else f"motion 0x{motion:08X}" if motion is not None else "rest")
    return PoseSamples(label, times, origin, continuous_xyzw(wxyz), scale)


def continuous_xyzw(wxyz: np.ndarray) -> np.ndarray:
    """(F, P, 4) (w, x, y, z) quaternions as glTF's (x, y, z, w) float32: each normalised
    (a zero one is the identity), each frame's sign chosen so that it is on the same side
    as the frame before (q and -q are one rotation; LINEAR interpolation between opposite
    signs would turn the long way round)."""
    q = np.asarray(wxyz, np.float64)[..., [1, 2, 3, 0]]
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    q = np.where(n > 0, q / np.where(n > 0, n, 1.0), np.array([0.0, 0.0, 0.0, 1.0]))
    if len(q) > 1:
        dots = np.sum(q[1:] * q[:-1], axis=-1)
        flips = np.cumprod(np.where(dots < 0, -1.0, 1.0), axis=0)
        q[1:] *= flips[..., None]
    return q.astype(np.float32)


# -- the binary buffer ---------------------------------------------------------------------------
class _Blob:
    """The GLB's one buffer: bufferViews and accessors appended as they are made."""

    def __init__(self, gltf) -> None:
        self.gltf = gltf
        self.data = bytearray()

    def view(self, raw: bytes, target: int | None = None) -> int:
        self.data.extend(b"\0" * (-len(self.data) % 4))
        self.gltf.bufferViews.append(G.BufferView(buffer=0, byteOffset=len(self.data),
                                                  byteLength=len(raw), target=target))
        self.data.extend(raw)
        return len(self.gltf.bufferViews) - 1

    def accessor(self, values: np.ndarray, kind: str, *, target: int | None = None,
                 bounds: bool = False) -> int:
        """A float accessor of ``values`` ((N,) or (N, k)); ``bounds``: with min / max (the
        glTF rule for POSITION and animation inputs)."""
        v = np.ascontiguousarray(values, np.float32)
        acc = G.Accessor(bufferView=self.view(v.tobytes(), target), componentType=FLOAT,
                         count=len(v), type=kind)
        if bounds:
            flat = v.reshape(len(v), -1)
            acc.min = [float(c) for c in flat.min(axis=0)]
            acc.max = [float(c) for c in flat.max(axis=0)]
        self.gltf.accessors.append(acc)
        return len(self.gltf.accessors) - 1


def unit_normals(normals: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Vertex normals of unit length (glTF requires it): a stored normal normalised; a zero
    one replaced by its triangle's face normal (right-hand rule), else +Z."""
    n = np.asarray(normals, np.float64).copy()
    p = np.asarray(positions, np.float64).reshape(-1, 3, 3)
    face = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    fl = np.linalg.norm(face, axis=1, keepdims=True)
    face = np.where(fl > 1e-12, face / np.where(fl > 1e-12, fl, 1.0), [0.0, 0.0, 1.0])
    length = np.linalg.norm(n, axis=1, keepdims=True)
    n = np.where(length > 1e-6, n / np.where(length > 1e-6, length, 1.0),
                 np.repeat(face, 3, axis=0))
    return n.astype(np.float32)


# -- the document --------------------------------------------------------------------------------
class GltfBuilder:
    """One Setup's glTF: ``build(poses)`` returns the pygltflib document."""

    def __init__(self, db, setup_did: int) -> None:
        self.db = db
        self.setup_did = int(setup_did)
        self.setup = db.get(self.setup_did)
        self.gltf = G.GLTF2(asset=G.Asset(version="2.0", generator="vfxviewer export"))
        self.blob = _Blob(self.gltf)
        self._meshes: dict[int, int | None] = {}
        self._materials: dict[tuple[int, bool], tuple[int, bool]] = {}
        self._images: dict[tuple, int] = {}
        self._samplers: dict[bool, int] = {}
        self._textures: dict[tuple[int, int], int] = {}
        #: GfxObjs the Setup names that no open DAT holds (their parts have no mesh)
        self.absent: list[int] = []

    def build(self, poses: PoseSamples | None = None):
        g = self.gltf
        parts = list(self.setup.parts)
        g.nodes.append(G.Node(name=f"Setup 0x{self.setup_did:08X} (AC Z-up to glTF Y-up)",
                              rotation=list(Z_UP_TO_Y_UP)))
        rest = self.rest_pose()
        for i, gid in enumerate(parts):
            t, q, s = rest[i]
            node = G.Node(name=f"part {i} GfxObj 0x{int(gid):08X}", mesh=self.mesh(int(gid)),
                          translation=t, rotation=q,
                          extras={"part": i, "gfxobj": f"0x{int(gid):08X}"})
            if s != [1.0, 1.0, 1.0]:
                node.scale = s
            g.nodes.append(node)
        if parts:  # glTF: a node's children, an animation's channels: none or at least one
            g.nodes[0].children = list(range(1, len(g.nodes)))
        g.scenes.append(G.Scene(name="Setup", nodes=[0]))
        g.scene = 0
        if poses is not None and parts:
            self.animation(poses)
        if self.blob.data:  # a buffer only when there are bytes (one of 0 is invalid)
            g.buffers.append(G.Buffer(byteLength=len(self.blob.data)))
        return g

    def rest_pose(self) -> list[tuple[list, list, list]]:
        """(translation, rotation xyzw, scale) of each part: the Setup's placement frame
        (Resting, else Default; identity past its frames) and its DefaultScale."""
        af, _ = find_placement_frame(self.setup)
        frames = [as_frame(f) for f in af.frames] if af is not None else []
        scales = self.setup.default_scale or ()
        out = []
        for i in range(len(self.setup.parts)):
            o, q = ((frames[i].origin, frames[i].orientation) if i < len(frames)
                    else ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)))
            xyzw = continuous_xyzw(np.asarray([[q]], np.float64))[0, 0]
            s = [float(c) for c in scales[i]] if i < len(scales) else [1.0, 1.0, 1.0]
            out.append(([float(np.float32(c)) for c in o], [float(c) for c in xyzw], s))
        return out

    # -- meshes --------------------------------------------------------------------------
    def drawn_gfxobj(self, gid: int):
        """(GfxObj DID, record) a part draws up close: its degrade table's level for
        distance 0 (GfxObjDegradeInfo::get_degrade 0x0051E4B0, as the renderer picks it),
        else the GfxObj itself; None when no open DAT holds it (the renderer draws nothing:
        CPhysicsPart::SetPart 0x0050E700)."""
        if gid not in self.db or R.record_class(gid) is not R.GfxObj:
            return None
        gfx = typed_record(self.db, gid, R.GfxObj)
        deg = int(gfx.did_degrade or 0)
        if deg and deg in self.db:  # CPhysicsPart::LoadGfxObjArray 0x0050DCF0
            entries = list(typed_record(self.db, deg, R.GfxObjDegradeInfo, by=gid).degrades)
            if entries:
                close = int(entries[select_level(entries, 0.0, 1.0)].gfxobj_id)
                if close and close != gid and close in self.db:
                    return close, typed_record(self.db, close, R.GfxObj, by=deg)
        return gid, gfx

    def mesh(self, gid: int) -> int | None:
        """The mesh index of GfxObj ``gid`` (one per GfxObj, shared by the parts that name
        it), or None when it has nothing to draw."""
        if gid not in self._meshes:
            self._meshes[gid] = self._make_mesh(gid)
        return self._meshes[gid]

    def _make_mesh(self, gid: int) -> int | None:
        drawn = self.drawn_gfxobj(gid) if gid else None
        if drawn is None:
            if gid:
                self.absent.append(gid)
            return None
        did, gfx = drawn
        data = triangulate_gfxobj(gfx, did)
        surfaces = list(gfx.surfaces)
        prims = []
        for si, first, count in data.subsets:
            if count == 0:
                continue
            material, textured = self.material(int(surfaces[si]), si in data.wrap, by=did)
            rows = data.vertices[first:first + count]
            attrs = G.Attributes(
                POSITION=self.blob.accessor(rows[:, :3], "VEC3", target=ARRAY_BUFFER,
                                            bounds=True),
                NORMAL=self.blob.accessor(unit_normals(rows[:, 3:6], rows[:, :3]), "VEC3",
                                          target=ARRAY_BUFFER))
            if textured:
                attrs.TEXCOORD_0 = self.blob.accessor(rows[:, 6:8], "VEC2",
                                                      target=ARRAY_BUFFER)
            prims.append(G.Primitive(attributes=attrs, material=material, mode=4))
        if not prims:
            return None
        self.gltf.meshes.append(G.Mesh(name=f"GfxObj 0x{did:08X}", primitives=prims))
        return len(self.gltf.meshes) - 1

    # -- materials and textures ----------------------------------------------------------
    def material(self, sdid: int, wrap: bool, *, by: int) -> tuple[int, bool]:
        """(material index, textured) of Surface ``sdid`` drawn with WRAP (``wrap``) or
        CLAMP addressing."""
        key = (sdid, wrap)
        if key not in self._materials:
            self._materials[key] = self._make_material(sdid, wrap, by)
        return self._materials[key]

    def _make_material(self, sdid: int, wrap: bool, by: int) -> tuple[int, bool]:
        mat, source = surface_material(self.db, sdid, by=by)
        state = mat.blend()
        r, g, b, a = mat.color
        pbr = G.PbrMetallicRoughness(baseColorFactor=[r, g, b, a * mat.vertex_alpha()],
                                     metallicFactor=0.0, roughnessFactor=1.0)
        m = G.Material(name=f"Surface 0x{sdid:08X}", pbrMetallicRoughness=pbr,
                       doubleSided=False, extras={"surface": f"0x{sdid:08X}",
                                                  "surface_type": int(mat.surface_type)})
        texture = None
        if source is not None:
            texture = self.texture(source, wrap)
            pbr.baseColorTexture = G.TextureInfo(index=texture)
        if state.blend is None:
            m.alphaMode = "OPAQUE"
        elif state.alpha_ref is not None:   # retail's alpha test (GREATEREQUAL ref)
            m.alphaMode, m.alphaCutoff = "MASK", state.alpha_ref / 255.0
        else:
            m.alphaMode = "BLEND"
        lum = min(max(float(mat.luminosity), 0.0), 1.0)
        if lum > 0.0:
            m.emissiveFactor = [lum, lum, lum] if texture is not None else [lum * r, lum * g,
                                                                             lum * b]
            if texture is not None:
                m.emissiveTexture = G.TextureInfo(index=texture)
        self.gltf.materials.append(m)
        return len(self.gltf.materials) - 1, texture is not None

    def texture(self, source, wrap: bool) -> int:
        image = self.image(source)
        sampler = self._samplers.get(wrap)
        if sampler is None:
            mode = REPEAT if wrap else CLAMP_TO_EDGE
            self.gltf.samplers.append(G.Sampler(magFilter=LINEAR, minFilter=LINEAR,
                                                wrapS=mode, wrapT=mode))
            sampler = self._samplers[wrap] = len(self.gltf.samplers) - 1
        key = (image, sampler)
        if key not in self._textures:
            self.gltf.textures.append(G.Texture(source=image, sampler=sampler))
            self._textures[key] = len(self.gltf.textures) - 1
        return self._textures[key]

    def image(self, source) -> int:
        """The PNG of a TextureSource (top row first, as glTF's UV origin), one per
        RenderSurface and palette."""
        pal = None if source.palette is None else source.palette.tobytes()
        key = (source.did, pal)
        if key not in self._images:
            buf = io.BytesIO()
            Image.fromarray(np.ascontiguousarray(source.rgba()), "RGBA").save(buf, "PNG")
            view = self.blob.view(buf.getvalue())
            self.gltf.images.append(G.Image(name=f"RenderSurface 0x{source.did:08X}",
                                            bufferView=view, mimeType="image/png"))
            self._images[key] = len(self.gltf.images) - 1
        return self._images[key]

    # -- animation -----------------------------------------------------------------------
    def animation(self, poses: PoseSamples) -> None:
        anim = G.Animation(name=poses.label, channels=[], samplers=[])
        times = self.blob.accessor(poses.times, "SCALAR", bounds=True)
        for i in range(poses.translation.shape[1]):
            node = 1 + i
            tracks = [("translation", poses.translation[:, i], "VEC3"),
                      ("rotation", poses.rotation[:, i], "VEC4")]
            if not np.all(poses.scale[:, i] == poses.scale[0, i]):
                tracks.append(("scale", poses.scale[:, i], "VEC3"))
            for path, values, kind in tracks:
                anim.samplers.append(G.AnimationSampler(
                    input=times, output=self.blob.accessor(values, kind),
                    interpolation="LINEAR"))
                anim.channels.append(G.AnimationChannel(
                    sampler=len(anim.samplers) - 1,
                    target=G.AnimationChannelTarget(node=node, path=path)))
        self.gltf.animations.append(anim)


def glb_bytes(gltf, blob: bytes) -> bytes:
    """The document and its buffer as one GLB file (glTF 2.0 section 4.4): the header, the
    JSON chunk padded with spaces, and the BIN chunk padded with zeros, left out when the
    buffer is empty (as the format asks)."""
    js = gltf.gltf_to_json(separators=(",", ":"), indent=None).encode("utf-8")
    js += b" " * (-len(js) % 4)
    parts = [struct.pack("<I4s", len(js), b"JSON"), js]
    if blob:
        pad = -len(blob) % 4
        parts += [struct.pack("<I4s", len(blob) + pad, b"BIN\0"), blob, b"\0" * pad]
    size = 12 + sum(len(p) for p in parts)
    return b"".join([struct.pack("<4sII", b"glTF", 2, size), *parts])   # one copy of blob
