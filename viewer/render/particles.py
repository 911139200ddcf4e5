"""The particle pass: every live particle, one draw per batch and surface subset.

A particle is an ordinary part of its emitter object: its HwGfxObj mesh
scaled by gfxobj_scale, oriented by the degrade mode of the GfxObjDegradeInfo entry chosen for
its distance, alpha 1 - translucency (its private material) or, at t == 0, the surface's
vertex alpha (materials.diffuse_alpha), blending from the surface bits only.

CPU work per frame is numpy over the runtime's pooled arrays, never a Python loop over
particles or emitters: distances, degrade levels and batch keys are vectorised, batches come
from one ``lexsort`` + ``unique``, the instance data is built with one ``concatenate`` and
uploaded with one texture write. Python loops run only over distinct GfxObjs and batches.
The draws pull their vertices (``ParticlePass``, ``CornerTable``,
``shaders/particle.vert.glsl``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from viewer.render import materials
from viewer.render.scene_input import ParticleArrays
from viewer.sim.particles import kernel_mode, settle_compiled, sq_norm_rows, use_eval_kernel

INSTANCE_FLOATS = 12          # pos 3, quat 4, scale 1, alpha 1, heading point 3
INSTANCE_STRIDE = INSTANCE_FLOATS * 4

# Render::s_rDegradeDistance default and the steady-state degrade multiplier
# m = +1 reached by Render::CalcDegLevel 0x0054CAF0.
DEGRADE_DISTANCE = 50.0
DEGRADE_MUL = 1.0


def compiled_frame(n: int) -> bool:
    """Whether a frame drawing ``n`` particles builds its rows with the compiled kernel
    (``viewer.render.particle_prepare_kernel``): the switch and the live-count threshold of
    the pool's compiled evaluation (``viewer.sim.particles.EVAL_KERNEL_MIN_LIVE``)."""
    return use_eval_kernel(kernel_mode(), n)


def prepare_kernel():
    """The compiled prepare module (compiled or loaded from numba's cache on the first
    import, once per process)."""
    from viewer.render import particle_prepare_kernel
    return particle_prepare_kernel


def particle_distance_2dsq(m: float = DEGRADE_MUL) -> float:
    """Render::SetDegradeLevelInternal 0x0054C3C0: (16 + 8m)^2 for m < 0, (16 + 9m)^2 else."""
    return (16.0 + 8.0 * m) ** 2 if m < 0 else (16.0 + 9.0 * m) ** 2


@dataclass
class Batch:
    gfxobj: int              # the drawn GfxObj (degrade entry's mesh)
    mode: int                # degrade_mode (1 none, 2 billboard, 3/4/5 axis locked)
    translucent: bool        # some part translucency > 0 (forces SRCALPHA on plain subsets)
    start: int               # first instance row in the uploaded buffer
    count: int
    far_depth: float         # largest CYpt in the batch (sorting between batches)


@dataclass
class PreparedParticles:
    instances: np.ndarray = field(default_factory=lambda: np.zeros((0, INSTANCE_FLOATS),
                                                                   np.float32))
    batches: list[Batch] = field(default_factory=list)
    count: int = -1          # instances drawn (the GPU pass keeps its rows on the GPU)
    tints: np.ndarray | None = None   # (count, 3) float32 per instance row, or None

    def __post_init__(self) -> None:
        if self.count < 0:
            self.count = len(self.instances)


def degrade_tables(meshes, gfx_ids):
    """Per distinct GfxObj: sort centre, degrade thresholds, modes and meshes (padded)."""
    g = len(gfx_ids)
    tables = [meshes.mesh(int(did)) for did in gfx_ids]
    k = max([len(t.degrade) for t in tables] + [1])
    sort_center = np.zeros((g, 3), np.float64)
    ideal = np.zeros((g, k))
    min_d = np.zeros((g, k))
    max_d = np.zeros((g, k))
    valid = np.zeros((g, k), bool)
    modes = np.ones((g, k), np.int64)
    drawn = np.zeros((g, k), np.int64)
    count = np.ones(g, np.int64)
    for i, (did, mesh) in enumerate(zip(gfx_ids, tables)):
        sort_center[i] = mesh.sort_center
        if not mesh.degrade:  # no table: mode 1, the GfxObj itself
            drawn[i, 0] = int(did)
            continue
        count[i] = len(mesh.degrade)
        for j, e in enumerate(mesh.degrade):
            drawn[i, j] = int(e.gfxobj_id)
            modes[i, j] = int(e.degrade_mode)
            ideal[i, j], min_d[i, j], max_d[i, j] = e.ideal_dist, e.min_dist, e.max_dist
            valid[i, j] = True
        drawn[i, len(mesh.degrade):] = drawn[i, len(mesh.degrade) - 1]
        modes[i, len(mesh.degrade):] = modes[i, len(mesh.degrade) - 1]
    return sort_center, ideal, min_d, max_d, valid, modes, drawn, count


def unique_runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` for arrays made of long runs of equal
    values (a GfxObj per emitter, particles emitter by emitter): the unique over the runs'
    values only, so its cost is O(len) plus a sort of the runs, not of every value."""
    values = np.asarray(values)
    if values.size == 0:
        return np.unique(values, return_inverse=True)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    ids, run_inv = np.unique(values[starts], return_inverse=True)
    return ids, np.repeat(run_inv.reshape(-1), np.diff(np.r_[starts, values.size]))


def degrade_thresholds(ideal, min_d, max_d, m: float) -> np.ndarray:
    """GfxObjDegradeInfo::get_degrade 0x0051E4B0: an entry's distance threshold under the
    degrade multiplier m (towards max_dist for m >= 0, towards min_dist below)."""
    if m >= 0:
        return ideal + (max_d - ideal) * m
    return ideal + (ideal - min_d) * m


@np.errstate(under="ignore")  # subnormal coordinates are harmless
def prepare(arrays: ParticleArrays, eye, meshes, *, m: float = DEGRADE_MUL,
            degrade_distance: float = DEGRADE_DISTANCE) -> PreparedParticles:
    """Instance rows and batches for this frame (vectorised; see module docstring)."""
    n = arrays.count
    if n == 0:
        return PreparedParticles()
    if compiled_frame(n):
        return _prepare_compiled(arrays, eye, meshes, m, degrade_distance)
    eye = np.asarray(eye, np.float64)
    trans = np.asarray(arrays.translucencies, np.float64)
    # CPhysicsPart::SetTranslucency 0x0050E670: exactly 1.0 hides the part
    vis = np.flatnonzero(trans != 1.0)
    if vis.size == 0:
        return PreparedParticles()
    every = vis.size == n   # the usual case: no copies through an index of every row
    take = slice(None) if every else vis
    pos = np.asarray(arrays.positions, np.float64)[take]
    scale = np.asarray(arrays.scales, np.float64)[take]
    trans = trans[take]
    gfx = np.asarray(arrays.gfxobj, np.int64)[take]
    emitter_origin = np.asarray(arrays.emitter_origins, np.float64)[
        np.asarray(arrays.emitter, np.int64)[take]]

    gfx_ids, inv = unique_runs(gfx)
    (sort_center, ideal, min_d, max_d, valid, modes, drawn,
     n_entries) = degrade_tables(meshes, gfx_ids)

    # CPhysicsObj::UpdateViewerDistance 0x00510B30: beyond particle_distance_2dsq (horizontal)
    # every particle shares the emitter object's CYpt and heading; else its own from
    # part.pos + sort_center * scale.
    dxy = emitter_origin[:, :2] - eye[:2]
    far = (dxy * dxy).sum(axis=1) >= particle_distance_2dsq(m)
    own = pos + sort_center[inv] * scale[:, None]
    head = np.where(far[:, None], emitter_origin, own)
    rel = head - eye
    cypt = np.sqrt(sq_norm_rows(rel))

    # GfxObjDegradeInfo::get_degrade 0x0051E4B0: d = CYpt / scale - s_rDegradeDistance (>= 0)
    d = np.maximum(cypt / np.maximum(scale, 1e-6) - degrade_distance, 0.0)
    thr = degrade_thresholds(ideal, min_d, max_d, m)[inv]
    ok = (d[:, None] < thr) & valid[inv]  # none -> last entry
    level = np.where(ok.any(axis=1), ok.argmax(axis=1), n_entries[inv] - 1)
    mode = np.clip(modes[inv, level], 0, 7)
    translucent = trans > 0.0

    # the drawn GfxObj's rank among the table's (a superset of those drawn: the same
    # key order as ranking the drawn ones alone, without a sort of every particle)
    drawn_ids = np.unique(drawn)
    drawn_inv = np.searchsorted(drawn_ids, drawn)[inv, level]
    key = (drawn_inv.astype(np.int64) * 8 + mode) * 2 + translucent
    # Far to near, then grouped by batch key; both sorts are stable, so inside a batch equal
    # CYpt keep emitter/slot order (retail's stable insertion sort, CShadowPart 0x006B5130).
    by_depth = np.argsort(-cypt, kind="stable")
    k_sorted = key[by_depth]
    if k_sorted.size and int(k_sorted.max()) < 32768:
        k_sorted = k_sorted.astype(np.int16)  # small ints: numpy's stable sort is a radix sort
    order = by_depth[np.argsort(k_sorted, kind="stable")]
    skey = key[order]
    inst = np.empty((order.size, INSTANCE_FLOATS), np.float32)
    inst[:, 0:3] = np.take(pos, order, axis=0)
    inst[:, 3:7] = np.take(np.asarray(arrays.orientations), order if every else
                           np.take(vis, order), axis=0)
    inst[:, 7] = np.take(scale, order)
    # CPhysicsPart::SetTranslucency 0x0050E670: t != 0 gives the part a private material
    # whose alpha 1 - t replaces the vertex alpha (D3D clamps it); t == 0: -1 = vertex alpha
    t_o = np.take(trans, order)
    inst[:, 8] = np.where(t_o != 0.0, np.clip(1.0 - t_o, 0.0, 1.0), -1.0)
    inst[:, 9:12] = np.take(head, order, axis=0)
    # skey is sorted: each batch is one run of it
    starts = np.flatnonzero(np.r_[True, skey[1:] != skey[:-1]])
    ukeys = skey[starts]
    counts = np.diff(np.r_[starts, skey.size])
    far_depth = cypt[order][starts]
    tints = None if arrays.tints is None else np.take(
        np.asarray(arrays.tints, np.float32)[take], order, axis=0)
    return PreparedParticles(inst, _batches(drawn_ids, ukeys, starts, counts, far_depth),
                             tints=tints)


def _batches(drawn_ids, ukeys, starts, counts, far_depth) -> list[Batch]:
    """A Batch per run of equal keys ((drawn GfxObj rank * 8 + mode) * 2 + translucent)."""
    return [Batch(int(drawn_ids[k // 16]), int((k // 2) % 8), bool(k % 2), int(s), int(c),
                  float(fd))
            for k, s, c, fd in zip(ukeys.tolist(), starts.tolist(), counts.tolist(),
                                   far_depth.tolist())]


def _prepare_compiled(arrays: ParticleArrays, eye, meshes, m: float,
                      degrade_distance: float) -> PreparedParticles:
    """``prepare`` for busy frames: the same rows, keys, order and batches, the per-particle
    work in one compiled pass (``particle_prepare_kernel.prepare_rows``)."""
    K = prepare_kernel()
    trans = np.ascontiguousarray(arrays.translucencies, np.float64)
    gfx = np.ascontiguousarray(arrays.gfxobj, np.int64)
    runs = K.visible_gfx_runs(trans, gfx)
    if runs.size == 0:
        return PreparedParticles()
    gfx_ids = np.unique(runs)
    (sort_center, ideal, min_d, max_d, valid, modes, drawn,
     n_entries) = degrade_tables(meshes, gfx_ids)
    drawn_ids = np.unique(drawn)
    # the outputs from numpy (huge pages on large arrays: ~500x fewer page faults than
    # numba's own allocations)
    rows = np.empty(arrays.count, np.int64)
    inst = np.empty((arrays.count, INSTANCE_FLOATS), np.float32)
    nv, ukeys, starts, counts, far_depth = K.prepare_rows(
        np.ascontiguousarray(arrays.positions, np.float64),
        np.ascontiguousarray(arrays.orientations, np.float64),
        np.ascontiguousarray(arrays.scales, np.float64), trans, gfx,
        np.ascontiguousarray(arrays.emitter, np.int64),
        np.ascontiguousarray(arrays.emitter_origins, np.float64),
        np.ascontiguousarray(eye, np.float64), particle_distance_2dsq(m),
        float(degrade_distance), gfx_ids, sort_center,
        degrade_thresholds(ideal, min_d, max_d, m), valid, modes,
        np.searchsorted(drawn_ids, drawn), n_entries, *K.SCRATCH.get(arrays.count), rows,
        inst)
    settle_compiled("prepare")
    rows, inst = rows[:nv], inst[:nv]
    tints = None if arrays.tints is None else np.take(
        np.asarray(arrays.tints, np.float32), rows, axis=0)
    return PreparedParticles(inst, _batches(drawn_ids, ukeys, starts, counts, far_depth),
                             tints=tints)


INSTANCE_TEXTURE_WIDTH = 4096   # texels (particle.vert.glsl INSTANCE_SHIFT)
ROW_TEXELS = INSTANCE_FLOATS // 4
# texture units of the pulled vertex data (unit 0 is the surface's texture)
UNIT_INSTANCES, UNIT_CORNERS, UNIT_TINTS = 5, 6, 7
NEAREST = 0x2600   # GL_NEAREST filtering (texelFetch reads level 0; no mipmaps needed)


@dataclass(frozen=True)
class CornerLayout:
    """A subset's triangles for vertex pulling: ``count`` corners from corner ``first`` of
    the mesh's corner texture; ``pattern``: 3 corner indices a triangle, in the subset's
    triangle order; the corners from ``mirrored`` on are the provoking (last) corners of
    the mirrored triangles.

    ``facing``: the pattern's triangles that a camera billboard (degrade mode 2) keeps
    facing the viewer, the same triples in the same order (None: some triangle is too
    close to edge-on in the billboard frame to say, or none is ever culled); ``reach`` the
    largest corner distance from the local origin, ``alt`` the smallest altitude of a
    dropped (facing away) triangle, both in local units (``row_classes``)."""

    first: int
    count: int
    pattern: bytes            # uint32 corner indices
    mirrored: int
    facing: bytes | None = None
    reach: float = 0.0
    alt: float = 0.0
    kept: tuple = ()          # the triangles ``facing`` keeps (their order in ``pattern``)


# Billboard patterns (ours, not retail's: a draw-cost saving with the same pictures).
# Frame::set_vector_heading (particle.vert.glsl heading_frame, degrade.heading_rotation)
# turns local +Y along head - eye, away from the viewer; with culling on (RenderMeshSubset
# 0x0059CA10 CULLMODE_CW, GL ccw = front, renderer._begin_frame) a triangle survives when
# its winding normal points at the eye, so in a billboard a triangle whose local winding
# normal has -Y component over FACING_COS of its length always survives, one with +Y over
# FACING_COS never does (as long as the eye is well away from the particle: row_classes).
FACING_COS = 0.5
ROW_PATTERNS = True    # False: every row draws the full pattern (tests compare both)


def facing_pattern(positions: np.ndarray, tris: np.ndarray):
    """(kept triangles' rows of ``tris``, smallest altitude of the dropped ones) for a
    camera billboard, or None when some triangle's winding normal is within FACING_COS of
    the billboard plane or no triangle would be dropped. Degenerate triangles are kept
    (never drawn either way)."""
    p = np.asarray(positions, np.float64)[np.asarray(tris, np.int64)]
    e1, e2 = p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]
    n = np.cross(e1, e2)
    length = np.sqrt((n * n).sum(axis=1))
    flat = length == 0.0
    ny = np.where(flat, -1.0, n[:, 1] / np.where(flat, 1.0, length))
    keep = ny <= -FACING_COS
    drop = ny >= FACING_COS
    if not (keep | drop).all() or not drop.any():
        return None
    edges = np.stack([e1, e2, p[:, 2] - p[:, 1]], axis=1)
    longest = np.sqrt((edges * edges).sum(axis=2)).max(axis=1)
    return np.flatnonzero(keep), float((length[drop] / longest[drop]).min())


def _distinct_corners(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(corners in first-use order, each row's corner index); rows equal byte for byte share
    a corner (the vertex shader gives them the same output)."""
    rows = np.ascontiguousarray(rows, np.float32)
    keys = rows.view(np.dtype((np.void, rows.shape[1] * 4))).ravel()
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rows[first[order]], rank[inv.reshape(-1)].astype(np.int64)


def _flag_provoking(tris: np.ndarray, mirrored: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Corner versions so that each triangle's provoking (last) corner says whether the
    triangle is mirrored: (versions as (corner, flag) rows, unflagged first; the triangles
    over them). A corner that provokes triangles of both kinds gets two versions; the
    other corners take an existing version (mesh build time, once per GfxObj)."""
    need = {(int(c), int(m)) for c, m in zip(tris[:, 2], mirrored)}
    for c in np.unique(tris[:, :2]).tolist():
        if (c, 0) not in need and (c, 1) not in need:
            need.add((c, 0))
    versions = sorted(need, key=lambda cf: (cf[1], cf[0]))
    index = {cf: i for i, cf in enumerate(versions)}
    out = np.empty_like(tris)
    for t, ((a, b, p), m) in enumerate(zip(tris.tolist(), mirrored.tolist())):
        out[t] = [index.get((a, 0), index.get((a, 1))), index.get((b, 0), index.get((b, 1))),
                  index[(p, int(m))]]
    return np.asarray(versions, np.int64).reshape(-1, 2), out


class CornerTable:
    """A GfxObj's corners for the particle draw: one RGBA32F texture (position + u,
    normal + v a corner) and each subset's CornerLayout, keyed by the subset's first row.

    The mirrored back winding of a sides_type 1 polygon (meshes.triangulate_gfxobj: the
    same corners, normals negated) shares the front's corners: the vertex shader lights
    every corner on both sides in one loop, and a triangle takes the back side's light when
    its provoking corner is one of the subset's mirrored corners (a flat varying: only a
    corner that provokes both kinds of triangle is stored twice). So a two-sided quad's 12
    vertices are 5 vertex shader runs, while its triangles, their vertex order and the
    culling stay as they are (bit for bit the same pictures: drawing each polygon once with
    culling off and choosing the side by gl_FrontFacing sets the seen-from-behind triangles
    up from another first vertex, and llvmpipe's interpolation then rounds a few pixels
    differently)."""

    def __init__(self, ctx, data) -> None:
        from viewer.render.meshes import SIDE_MIRROR
        self.layouts: dict[int, CornerLayout] = {}
        parts = []
        total = 0
        for _, first, count in data.subsets:
            rows = np.array(data.vertices[first:first + count], np.float32)
            mirror = data.row_sides[first:first + count] == SIDE_MIRROR
            rows[mirror, 3:6] = -rows[mirror, 3:6]     # the front corner's normal (exact)
            corners, inv = _distinct_corners(rows)
            tris = inv.reshape(-1, 3)
            flags = mirror[::3]
            if flags.any():
                versions, tris = _flag_provoking(tris, flags)
                corners = corners[versions[:, 0]]
                mirrored = int((versions[:, 1] == 0).sum())
            else:
                mirrored = len(corners)
            parts.append(corners)
            face = facing_pattern(corners[:, :3], tris) if len(tris) else None
            self.layouts[first] = CornerLayout(
                total, len(corners), tris.astype(np.uint32).tobytes(), mirrored,
                None if face is None else tris[face[0]].astype(np.uint32).tobytes(),
                float(np.sqrt((corners[:, :3].astype(np.float64) ** 2).sum(axis=1)).max(
                    initial=0.0)),
                0.0 if face is None else face[1],
                () if face is None else tuple(face[0].tolist()))
            total += len(corners)
        texels = max(2 * total, 1)
        self.shift = min(12, max(0, (texels - 1).bit_length()))
        width = 1 << self.shift
        height = -(-texels // width)
        table = np.zeros((height * width, 4), np.float32)
        if total:
            c = np.concatenate(parts)
            table[:2 * total] = c[:, [0, 1, 2, 6, 3, 4, 5, 7]].reshape(-1, 4)
        self.texture = ctx.texture((width, height), 4, table.tobytes(), dtype="f4")
        self.texture.filter = (NEAREST, NEAREST)

    def release(self) -> None:
        self.texture.release()


# The rows' classes (row_classes; ours: draw-cost savings with the same pictures).
ROW_FULL, ROW_FACING, ROW_NONE = 0, 1, 2
# llvmpipe snaps window coordinates to 1/256 px and culls each triangle by the sign of its
# snapped area (a clipped triangle's pieces each by their own): moving each vertex by d
# changes twice the area by at most 4 d L + 4 d^2 (L its longest edge), so a triangle whose
# smallest altitude is over 4 d (d = 1/512 px diagonally: 0.011 px) keeps its sign.
# FACING_MIN_PX, a bound from below of that altitude, is 4.5 times it.
FACING_MIN_PX = 0.05
# the eye's distance from a dropped triangle's plane over its offset from the heading
# point: cypt * FACING_COS >= FACING_CLEARANCE * extent
FACING_CLEARANCE = 2.0


@dataclass(frozen=True)
class FacingView:
    """What ``row_classes`` needs of a frame's camera: the world-space frustum planes
    (columns: unit normal pointing inside, offset), the focal length in pixels (smallest and
    largest of x and y), the largest 1 + tan^2 of a ray inside the frustum (the perspective
    stretch of a length on screen), the eye, and whether back faces are culled."""

    planes: np.ndarray      # (4, 6) float64
    f_min: float
    f_max: float
    stretch: float
    eye: np.ndarray
    cull: bool = True


def facing_view(proj, view, viewport, eye, cull: bool = True) -> FacingView | None:
    """The FacingView of a symmetric perspective projection (camera.perspective), a rigid
    right-handed view and a viewport (w, h) in pixels; None for anything else (a mirrored
    or skewed camera: every batch then draws its full pattern for every row)."""
    proj = np.asarray(proj, np.float64)
    view = np.asarray(view, np.float64)
    w, h = int(viewport[0]), int(viewport[1])
    rot = view[:3, :3]
    if (w < 1 or h < 1 or not proj[0, 0] > 0.0 or not proj[1, 1] > 0.0
            or proj[0, 1] != 0.0 or proj[0, 2] != 0.0 or proj[0, 3] != 0.0
            or proj[1, 0] != 0.0 or proj[1, 2] != 0.0 or proj[1, 3] != 0.0
            or proj[2, 0] != 0.0 or proj[2, 1] != 0.0
            or not np.array_equal(proj[3], [0.0, 0.0, -1.0, 0.0])
            or not np.array_equal(view[3], [0.0, 0.0, 0.0, 1.0])
            or not np.allclose(rot @ rot.T, np.eye(3), rtol=0.0, atol=1e-5)
            or not np.linalg.det(rot) > 0.0):
        return None
    m = proj @ view
    planes = np.stack([m[3] + m[0], m[3] - m[0], m[3] + m[1], m[3] - m[1],
                       m[3] + m[2], m[3] - m[2]])
    norm = np.sqrt((planes[:, :3] ** 2).sum(axis=1))
    if not (norm > 0.0).all():
        return None
    fx, fy = proj[0, 0] * w / 2.0, proj[1, 1] * h / 2.0
    return FacingView(np.ascontiguousarray((planes / norm[:, None]).T), min(fx, fy),
                      max(fx, fy), 1.0 + proj[0, 0] ** -2 + proj[1, 1] ** -2,
                      np.ascontiguousarray(eye, np.float64).reshape(3), bool(cull))


def classified(batch: Batch) -> bool:
    """Whether a batch's rows go through row_classes: the draw frame is a rotation whose
    size row_classes bounds (degrade modes 3..5 rebuild theirs from columns: not those)."""
    return batch.mode not in (3, 4, 5)


@np.errstate(divide="ignore", invalid="ignore", under="ignore", over="ignore")
def row_classes(rows: np.ndarray, lay: CornerLayout, view: FacingView,
                billboard: bool) -> np.ndarray:
    """Each instance row's triangles, with the same pixels as the full pattern (ours):
    ROW_NONE, none (the row is wholly outside the frustum), ROW_FACING, ``lay.facing`` (a
    billboard with culling on: the culled triangles left out), else ROW_FULL.
    ``particle_prepare_kernel.facing_indices`` is the compiled twin (the same operations).

    A row's drawn corners lie within rq = |scale| * reach * b of its position (b = 1 for a
    billboard, whose frame is a rotation; |q|^2 + |1 - |q|^2| else, the largest stretch of
    quat_mat for a quaternion q of any length). Wholly outside a frustum plane (margins for
    float32 rounding), every triangle is rejected before rasterisation: ROW_NONE.

    A billboard's corners lie within extent = |pos - head| + rq of its heading point (the
    row's own point near, the emitter origin far: CPhysicsObj::UpdateViewerDistance
    0x00510B30), at cypt = |head - eye| from the eye, which is at -cypt along local Y from
    the heading point; so the eye's distance from a dropped triangle's plane is at least
    cypt * FACING_COS - extent: with cypt * FACING_COS >= FACING_CLEARANCE * extent the
    triangle faces away for certain, and
    every ray to it meets its plane at cos >= c = (cypt * FACING_COS - extent) / (cypt +
    extent). Such a row draws ROW_FACING when its corners are wholly inside every frustum
    plane (no clipping: llvmpipe clips at the frustum and culls each piece by its own area)
    and the dropped triangles are big enough on screen that snapping cannot flip their area
    sign: a plane maps to the screen with area scale >= f^2 c / dmax^2 and length scale <=
    f stretch / dmin (dmin, dmax = cypt -/+ extent), so a triangle of smallest altitude
    alt * |scale| keeps on screen an altitude of at least alt |scale| f c dmin / (dmax^2
    stretch), which must pass FACING_MIN_PX plus four times float32's rounding of the
    shader's vertex maths."""
    eye = view.eye
    pos = rows[:, 0:3].astype(np.float64)
    head = rows[:, 9:12].astype(np.float64)
    scale = np.abs(rows[:, 7].astype(np.float64))
    if billboard:
        bound = 1.0
    else:
        q = rows[:, 3:7].astype(np.float64)
        qq = q[:, 0] * q[:, 0] + q[:, 1] * q[:, 1] + q[:, 2] * q[:, 2] + q[:, 3] * q[:, 3]
        bound = qq + np.abs(1.0 - qq)
    rq = scale * lay.reach * bound
    pe = pos - eye
    dist = np.sqrt(pe[:, 0] * pe[:, 0] + pe[:, 1] * pe[:, 1] + pe[:, 2] * pe[:, 2])
    # float32 rounding in the shader (vertex, heading, clip position): ~16 ulp of the
    # coordinates' size; the planes come from float32 matrices (1e-4 of the distance)
    big = np.maximum(np.maximum(np.abs(pos[:, 0]), np.abs(pos[:, 1])), np.abs(pos[:, 2]))
    slack = 1e-6 * (big + rq + float(np.abs(eye).max()))
    margin = rq * 1.001 + 10.0 * slack + 1e-4 * dist
    pl = view.planes
    d = (pos[:, 0:1] * pl[0] + pos[:, 1:2] * pl[1]) + (pos[:, 2:3] * pl[2] + pl[3])
    outside = (d < -margin[:, None]).any(axis=1)
    out = np.where(outside, ROW_NONE, ROW_FULL).astype(np.int8)
    if not (billboard and view.cull and lay.facing is not None):
        return out
    inside = (d > margin[:, None]).all(axis=1)
    rel = head - eye
    cypt = np.sqrt(rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1] + rel[:, 2] * rel[:, 2])
    off = pos - head
    ext = np.sqrt(off[:, 0] * off[:, 0] + off[:, 1] * off[:, 1] + off[:, 2] * off[:, 2]) + rq
    clear = cypt * FACING_COS - ext
    dmin, dmax = cypt - ext, cypt + ext
    certain = (cypt > 0.0) & (cypt * FACING_COS >= FACING_CLEARANCE * ext + 1e3 * slack)
    alt_px = (lay.alt * scale * view.f_min) * (clear / dmax) * dmin / (dmax * dmax
                                                                      * view.stretch)
    err_px = 4.0 * view.f_max * view.stretch * slack / dmin
    out[~outside & inside & certain & (alt_px >= FACING_MIN_PX + err_px)] = ROW_FACING
    return out


def row_indices(classes: np.ndarray, lay: CornerLayout) -> np.ndarray:
    """The index list of rows of these classes, row after row (row k from the batch's
    first: k * lay.count + its pattern)."""
    full = np.frombuffer(lay.pattern, np.uint32)
    keep = np.zeros((len(classes), full.size), bool)
    keep[classes == ROW_FULL] = True
    if lay.facing is not None:
        cols = np.zeros(full.size // 3, bool)
        cols[list(lay.kept)] = True
        keep[classes == ROW_FACING] = np.repeat(cols, 3)
    base = np.arange(len(classes), dtype=np.uint32)[:, None] * np.uint32(lay.count)
    return (base + full[None, :])[keep]


class _RowTexture:
    """An RGBA32F texture INSTANCE_TEXTURE_WIDTH texels wide holding rows of texels from
    the first: grown (power-of-two heights) as rows are written."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.texture = None
        self.staging = None

    def _reserve(self, texels: int) -> int:
        """Full texture rows covering ``texels``; the texture grows to hold them."""
        rows = max(1, -(-texels // INSTANCE_TEXTURE_WIDTH))
        if self.texture is None or self.texture.height < rows:
            if self.texture is not None:
                self.texture.release()
            height = 1 << (rows - 1).bit_length()
            self.texture = self.ctx.texture((INSTANCE_TEXTURE_WIDTH, height), 4, dtype="f4")
            self.texture.filter = (NEAREST, NEAREST)
        return rows

    def write(self, texels: np.ndarray) -> None:
        """``texels`` (n, 4) float32 from the first texel on."""
        flat = np.ascontiguousarray(texels, np.float32).reshape(-1)
        n = flat.size // 4
        if n == 0:
            return
        self._reserve(n)
        full, rem = divmod(n, INSTANCE_TEXTURE_WIDTH)
        w = INSTANCE_TEXTURE_WIDTH
        if full:
            self.texture.write(memoryview(flat[:full * w * 4]), viewport=(0, 0, w, full))
        if rem:
            self.texture.write(memoryview(flat[full * w * 4:]), viewport=(0, full, rem, 1))

    def copy(self, buffer, texels: int) -> None:
        """The first ``texels`` texels from a GL buffer (whole texture rows are read: a
        buffer shorter than those goes through a staging copy)."""
        rows = self._reserve(texels)
        need = rows * INSTANCE_TEXTURE_WIDTH * 16
        src = buffer
        if buffer.size < need:
            if self.staging is None or self.staging.size < need:
                if self.staging is not None:
                    self.staging.release()
                self.staging = self.ctx.buffer(reserve=need)
            self.ctx.copy_buffer(self.staging, buffer, size=buffer.size)
            src = self.staging
        self.texture.write(src, viewport=(0, 0, INSTANCE_TEXTURE_WIDTH, rows))

    def use(self, unit: int) -> None:
        if self.texture is not None:
            self.texture.use(unit)

    def release(self) -> None:
        for obj in (self.texture, self.staging):
            if obj is not None:
                obj.release()
        self.texture = self.staging = None


class ParticlePass:
    """Holds a frame's instance rows (uploaded once) and emits one draw per (batch, subset).

    The draws pull their vertices (particle.vert.glsl): instance rows and mesh corners are
    texels, an index buffer per subset layout repeats its triangles row after row, so a
    batch is one non-instanced indexed draw (llvmpipe pays a per-instance setup for
    instanced draws, and shades every listed vertex: 12 for a two-sided quad, where the
    shared corners of CornerTable shade 4). Where the rows are on the CPU and the camera is
    known, a batch's index list is made per frame instead (row_index_list, compiled for
    busy batches): rows wholly outside the view list nothing, billboards list only the
    triangles culling keeps where that is certain (6 indices and 4 corners for a two-sided
    quad); the same triangles in the same order, so the same pixels."""

    def __init__(self, ctx, meshes, program) -> None:
        self.ctx = ctx
        self.meshes = meshes
        self.prog = program
        self.rows = _RowTexture(ctx)       # the instance rows, 3 texels each
        self.tints = _RowTexture(ctx)      # per row RGB of View > Particle colour
        self.tinted = False
        self.draw_calls = 0
        self.uploads = 0
        self.uploaded = None      # the PreparedParticles the row texture holds now
        self._indices: dict = {}  # (pattern, corner count) -> [index buffer, vao, rows]
        self.view: FacingView | None = None   # this frame's camera (None: full patterns)
        self._frame_ib = None     # this frame's row_index_list lists, one after another
        self._frame_vao_held = None
        self._frame_used = 0      # bytes of it written this frame
        self._scratch = np.zeros(0, np.uint32)
        for name, unit in (("u_instances", UNIT_INSTANCES), ("u_corners", UNIT_CORNERS),
                           ("u_tints", UNIT_TINTS)):
            member = program.get(name, None)
            if member is not None:
                member.value = unit

    def use_buffer(self, buffer, count: int) -> None:
        """Draw ``count`` instance rows of a buffer filled elsewhere (the GPU pass's
        gathered rows): copied into the row texture on the GPU side."""
        self.ctx.memory_barrier()
        self.rows.copy(buffer, count * ROW_TEXELS)
        self.tinted = False
        self.uploaded = None

    def release(self) -> None:
        """Release the textures and index buffers this pass allocated."""
        self.rows.release()
        self.tints.release()
        for ib, vao, _ in self._indices.values():
            vao.release()
            ib.release()
        self._indices.clear()
        if self._frame_ib is not None:
            self._frame_vao_held.release()
            self._frame_ib.release()
            self._frame_ib = self._frame_vao_held = None
            self._frame_used = 0
        self.uploaded = None

    def upload(self, prepared: PreparedParticles) -> None:
        data = prepared.instances
        if len(data):
            self.rows.write(np.ascontiguousarray(data, np.float32).reshape(-1, 4))
            self.uploads += 1
        self.upload_tints(prepared.tints)
        self.uploaded = prepared

    def upload_tints(self, tints) -> None:
        """The rows' View > Particle colour tints (None: retail's own colour)."""
        self.tinted = tints is not None and len(tints) > 0
        if not self.tinted:
            return
        texels = np.zeros((len(tints), 4), np.float32)
        texels[:, :3] = tints
        self.tints.write(texels)

    def draw_items(self, prepared: PreparedParticles):
        """(draw_list, depth, callable) for each batch and surface subset."""
        items = []
        for b in prepared.batches:
            mesh = self.meshes.mesh(b.gfxobj)
            for sub in mesh.subsets:
                state = sub.material.blend(part_translucent=b.translucent)
                items.append((state.draw_list, b.far_depth,
                              _Draw(self, mesh, sub, b, state)))
        return items

    def corner_table(self, mesh) -> CornerTable:
        if mesh.corners is None:
            mesh.corners = CornerTable(self.ctx, mesh.data)
        return mesh.corners

    def _index_vao(self, pattern: bytes, corners: int, rows: int):
        """The vertex array whose index buffer lists a pattern's triangles for at least
        ``rows`` rows counted from a batch's first: row * corners + pattern (so a pattern's
        buffer grows with its largest batch, not with the rows before it)."""
        key = (pattern, corners)
        held = self._indices.get(key)
        if held is None or held[2] < rows:
            if held is not None:
                held[1].release()
                held[0].release()
            cap = 1 << max(10, (rows - 1).bit_length())
            idx = (np.arange(cap, dtype=np.uint32)[:, None] * np.uint32(corners) +
                   np.frombuffer(pattern, np.uint32)[None, :])
            ib = self.ctx.buffer(idx.tobytes())
            vao = self.ctx.vertex_array(self.prog, [], index_buffer=ib, index_element_size=4)
            held = self._indices[key] = [ib, vao, cap]
        return held[1]

    def set_view(self, view: FacingView | None) -> None:
        """This frame's camera for row_classes (None: a camera facing_view does not
        handle: every row draws its full pattern); called once a frame, before its draws."""
        self.view = view
        if self._frame_used:
            self._frame_ib.orphan()
            self._frame_used = 0

    def row_index_list(self, lay: CornerLayout, batch: Batch) -> np.ndarray | None:
        """The batch's index list by row_classes (rows outside the frustum left out,
        billboards' culled triangles left out where certain), or None: every row's full
        pattern (the static buffer of _index_vao). Only rows this pass uploaded (not the
        GPU pass's buffer) and a known camera."""
        view = self.view
        if (not ROW_PATTERNS or view is None or self.uploaded is None or batch.count <= 0
                or not classified(batch)):
            return None
        rows = self.uploaded.instances[batch.start:batch.start + batch.count]
        if len(rows) != batch.count:
            return None
        billboard = batch.mode == 2
        full = len(lay.pattern) // 4
        if compiled_frame(batch.count):
            K = prepare_kernel()
            if self._scratch.size < batch.count * full:
                self._scratch = np.empty(batch.count * full + batch.count * full // 2,
                                         np.uint32)
            n = K.facing_indices(
                np.ascontiguousarray(rows, np.float32), view.eye, view.planes,
                float(lay.reach), float(lay.alt), np.frombuffer(lay.pattern, np.uint32),
                np.frombuffer(lay.facing or b"", np.uint32), lay.facing is not None,
                int(lay.count), billboard,
                view.cull, view.f_min, view.f_max, view.stretch, FACING_COS,
                FACING_CLEARANCE, FACING_MIN_PX, self._scratch)
            settle_compiled("facing")
            idx = self._scratch[:n]
        else:
            idx = row_indices(row_classes(rows, lay, view, billboard), lay)
        return None if len(idx) == batch.count * full else idx

    def _frame_vao(self, idx: np.ndarray):
        """(vertex array, first index) of ``idx`` written to this frame's index buffer."""
        need = self._frame_used + idx.nbytes
        if self._frame_ib is None or need > self._frame_ib.size:
            if self._frame_ib is not None:
                self._frame_vao_held.release()
                self._frame_ib.release()
            self._frame_ib = self.ctx.buffer(reserve=max(1 << 20, 2 * idx.nbytes))
            self._frame_vao_held = self.ctx.vertex_array(
                self.prog, [], index_buffer=self._frame_ib, index_element_size=4)
            self._frame_used = 0
        first = self._frame_used // 4
        self._frame_ib.write(idx, offset=self._frame_used)
        self._frame_used += idx.nbytes
        return self._frame_vao_held, first

    def render_batch(self, mesh, sub, batch: Batch) -> None:
        import moderngl
        table = self.corner_table(mesh)
        lay = table.layouts[sub.first]
        self.rows.use(UNIT_INSTANCES)
        table.texture.use(UNIT_CORNERS)
        if self.tinted:
            self.tints.use(UNIT_TINTS)
        prog = self.prog
        prog["u_corner0"].value = lay.first
        prog["u_corner_count"].value = lay.count
        prog["u_corner_shift"].value = table.shift
        prog["u_mirrored"].value = lay.mirrored
        prog["u_tinted"].value = self.tinted
        prog["u_mode"].value = batch.mode
        prog["u_row0"].value = batch.start
        idx = self.row_index_list(lay, batch)
        if idx is None:
            vao = self._index_vao(lay.pattern, lay.count, batch.count)
            vao.render(moderngl.TRIANGLES, vertices=batch.count * (len(lay.pattern) // 4))
        elif len(idx):
            vao, first = self._frame_vao(idx)
            vao.render(moderngl.TRIANGLES, vertices=len(idx), first=first)
        self.draw_calls += 1


class _Draw:
    __slots__ = ("batch", "mesh", "owner", "state", "sub")

    def __init__(self, owner, mesh, sub, batch, state):
        self.owner, self.mesh, self.sub, self.batch, self.state = owner, mesh, sub, batch, state


__all__ = [
    "Batch",
    "ParticlePass",
    "PreparedParticles",
    "materials",
    "particle_distance_2dsq",
    "prepare",
]
