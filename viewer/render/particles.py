"""The particle pass: every live particle, one instanced draw per batch.

A particle is an ordinary part of its emitter object: its HwGfxObj mesh
scaled by gfxobj_scale, oriented by the degrade mode of the GfxObjDegradeInfo entry chosen for
its distance, alpha 1 - translucency (its private material) or, at t == 0, the surface's
vertex alpha (materials.diffuse_alpha), blending from the surface bits only.

CPU work per frame is numpy over the runtime's pooled arrays, never a Python loop over
particles or emitters: distances, degrade levels and batch keys are vectorised, batches come
from one ``lexsort`` + ``unique``, the instance data is built with one ``concatenate`` and
uploaded with one buffer write. Python loops run only over distinct GfxObjs and batches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from viewer.render import materials
from viewer.render.scene_input import ParticleArrays

INSTANCE_FLOATS = 12          # pos 3, quat 4, scale 1, alpha 1, heading point 3
INSTANCE_STRIDE = INSTANCE_FLOATS * 4

# Render::s_rDegradeDistance default and the steady-state degrade multiplier
# m = +1 reached by Render::CalcDegLevel 0x0054CAF0.
DEGRADE_DISTANCE = 50.0
DEGRADE_MUL = 1.0


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
    cypt = np.sqrt(np.einsum("ij,ij->i", rel, rel))

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
    batches = [Batch(int(drawn_ids[k // 16]), int((k // 2) % 8), bool(k % 2), int(s), int(c),
                     float(fd))
               for k, s, c, fd in zip(ukeys.tolist(), starts.tolist(), counts.tolist(),
                                      far_depth.tolist())]
    tints = None if arrays.tints is None else np.take(
        np.asarray(arrays.tints, np.float32)[take], order, axis=0)
    return PreparedParticles(inst, batches, tints=tints)


class ParticlePass:
    """Uploads prepared instances once per frame and emits one draw per (batch, subset)."""

    def __init__(self, ctx, meshes, program) -> None:
        self.ctx = ctx
        self.meshes = meshes
        self.prog = program
        self.buffer = None
        self.tint_buffer = None   # per-instance RGB of View > Particle colour
        self.tinted = False
        self._owned = True
        self.draw_calls = 0
        self.uploads = 0
        self.uploaded = None      # the PreparedParticles the owned buffers hold now
        self._loc = {name: program[name].location for name in
                     ("i_pos", "i_quat", "i_scale", "i_alpha", "i_head", "i_tint")}

    def use_buffer(self, buffer) -> None:
        """Draw from an instance buffer filled elsewhere (the GPU pass's gathered rows)."""
        if self.buffer is not None and self.buffer is not buffer and self._owned:
            self.buffer.release()
        self.buffer, self._owned = buffer, False
        self.tinted = False
        self.uploaded = None

    def release(self) -> None:
        """Release the instance buffer this pass allocated (one borrowed with
        ``use_buffer`` stays with its owner)."""
        if self.buffer is not None and self._owned:
            self.buffer.release()
        self.buffer = None
        if self.tint_buffer is not None:
            self.tint_buffer.release()
        self.tint_buffer = None
        self.uploaded = None

    def upload(self, prepared: PreparedParticles) -> None:
        data = prepared.instances
        nbytes = max(data.nbytes, INSTANCE_STRIDE)
        if self.buffer is None or not self._owned or self.buffer.size < nbytes:
            if self.buffer is not None and self._owned:
                self.buffer.release()
            self._owned = True
            size = 1 << max(12, (nbytes - 1).bit_length())
            self.buffer = self.ctx.buffer(reserve=size, dynamic=True)
        if data.nbytes:
            self.buffer.write(data.tobytes())
            self.uploads += 1
        self.upload_tints(prepared.tints)
        self.uploaded = prepared

    def upload_tints(self, tints) -> None:
        """The rows' View > Particle colour tints (None: retail's own colour)."""
        self.tinted = tints is not None and len(tints) > 0
        if not self.tinted:
            return
        data = np.ascontiguousarray(tints, np.float32)
        if self.tint_buffer is None or self.tint_buffer.size < data.nbytes:
            if self.tint_buffer is not None:
                self.tint_buffer.release()
            self.tint_buffer = self.ctx.buffer(
                reserve=1 << max(12, (data.nbytes - 1).bit_length()), dynamic=True)
        self.tint_buffer.write(data.tobytes())

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

    def _vao(self, mesh):
        vao = mesh.vaos.get("particle")
        if vao is None:
            vao = self.ctx.vertex_array(
                self.prog, [(mesh.vbo, "3f 3f 2f", "in_position", "in_normal", "in_uv")])
            mesh.vaos["particle"] = vao
        return vao

    def render_batch(self, mesh, sub, batch: Batch) -> None:
        import moderngl
        vao = self._vao(mesh)
        base = batch.start * INSTANCE_STRIDE
        for name, fmt, off in (("i_pos", "3f", 0), ("i_quat", "4f", 12), ("i_scale", "1f", 28),
                               ("i_alpha", "1f", 32), ("i_head", "3f", 36)):
            vao.bind(self._loc[name], "f", self.buffer, fmt, offset=base + off,
                     stride=INSTANCE_STRIDE, divisor=1)
        # untinted: i_tint reads the rows' positions (ignored), never a stale tint buffer
        tint_src, tint_off, tint_stride = ((self.tint_buffer, batch.start * 12, 12)
                                           if self.tinted else (self.buffer, base, INSTANCE_STRIDE))
        vao.bind(self._loc["i_tint"], "f", tint_src, "3f", offset=tint_off,
                 stride=tint_stride, divisor=1)
        self.prog["u_tinted"].value = self.tinted
        self.prog["u_mode"].value = batch.mode
        vao.render(moderngl.TRIANGLES, vertices=sub.count, first=sub.first,
                   instances=batch.count)
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
