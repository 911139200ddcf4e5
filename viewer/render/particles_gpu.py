"""The particle pass on the GPU: birth states in GPU buffers, the laws in a compute shader.

The CPU path (``particles.prepare``) evaluates every live particle with numpy each frame.
Here the work per frame on the CPU does not grow with live particles:

* ``particle_snapshot(pool)`` (GL-free, taken when the SceneInput is built) packs only the
  slots born, killed or re-stamped since the previous snapshot of that pool (the pool's
  ``DirtySlots`` log) plus the small per-emitter table (last visible update time, parent
  frame, parent-local, drawn, GfxObj, emitter origin);
* ``GpuParticlePass.prepare(snapshot, eye)`` scatters those rows into a birth-state buffer
  indexed like the pool's slots, uploads the emitter table, then runs three compute
  shaders: ``particle_eval`` (the twelve laws of ``Particle::Update`` 0x0051C290 from
  ``particle_laws.glsl``, scale / translucency, the shared or own CYpt and heading, the
  degrade entry and batch, the sort key), ``particle_sort`` (a merge sort by batch, CYpt far
  to near, emitter row, slot: the order the CPU's stable sorts give) and ``particle_gather``
  (the instance rows ``shaders/particle.vert.glsl`` reads, in draw order). The only read
  back is a count and a largest CYpt per possible batch (a few dozen integers).

Compute shaders need OpenGL 4.3; ``GpuParticlePass.create`` returns None without them and
the renderer keeps the CPU path.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from viewer.render.particles import (
    DEGRADE_DISTANCE,
    DEGRADE_MUL,
    INSTANCE_FLOATS,
    Batch,
    PreparedParticles,
    degrade_tables,
    degrade_thresholds,
    particle_distance_2dsq,
)
from viewer.render.programs import shader_source

BIRTH_FLOATS = 32      # struct Birth in particle_eval.comp.glsl
EMITTER_FLOATS = 16    # struct Emitter
EVAL_FLOATS = 16       # struct Evaluated
SORT_RUN = 16          # RUN of particle_sort.comp.glsl
MIN_SORT = SORT_RUN    # the smallest sorted length (a power of two)
SENTINEL = 0xFFFFFFFF


# ---------------------------------------------------------------------------------------
# GL-free: what a SceneInput carries
# ---------------------------------------------------------------------------------------
def _split_time(t) -> tuple[np.ndarray, np.ndarray]:
    """A float64 time as two float32 parts (hi + lo), so differences keep their precision."""
    t = np.asarray(t, np.float64)
    hi = t.astype(np.float32)
    return hi, (t - hi.astype(np.float64)).astype(np.float32)


def pack_births(pool, idx) -> np.ndarray:
    """The Birth rows (particle_eval.comp.glsl) of pool slots ``idx``, float32 (D, 32)."""
    idx = np.asarray(idx, np.int64)
    st = pool.state[idx]
    out = np.zeros((idx.size, BIRTH_FLOATS), np.float32)
    ints = out.view(np.int32)
    out[:, 0], out[:, 1] = _split_time(st[:, 0])
    out[:, 2:4] = st[:, 1:3]                 # acc, lifespan
    out[:, 4:7] = st[:, 3:6]                 # start origin
    ints[:, 7] = pool.ptype[idx]
    out[:, 8:11] = st[:, 6:9]                # offset
    ints[:, 11] = np.maximum(pool.emitter[idx], 0)
    out[:, 12:15] = st[:, 9:12]              # a
    ints[:, 15] = pool.slot[idx]
    out[:, 16:19] = st[:, 12:15]             # b
    ints[:, 19] = pool.alive[idx]
    out[:, 20:23] = st[:, 15:18]             # c
    out[:, 24:28] = st[:, 18:22]             # start rotation
    out[:, 28:32] = st[:, 22:26]             # start/final scale, start/final translucency
    return out


@dataclass(frozen=True)
class ParticleSnapshot:
    """The pool as the GPU pass needs it at one frame (GL-free; see module docstring).

    ``index``/``rows``: the slots changed between log chunks ``seq_from`` and ``seq_to`` of
    the pool's DirtySlots ``serial`` and their packed birth rows. The per-emitter arrays are
    copies (rows ``0..n_rows``). ``pool`` is the live pool, read only to catch a renderer up
    that missed snapshots while the pool is still at ``seq_to``.
    """

    serial: int
    seq_from: int
    seq_to: int
    capacity: int
    live: int
    index: np.ndarray
    rows: np.ndarray
    em_time: np.ndarray
    em_origin: np.ndarray
    em_quat: np.ndarray
    em_parent_local: np.ndarray
    row_gfx: np.ndarray
    row_origin: np.ndarray
    row_drawn: np.ndarray
    pool: object

    @property
    def n_rows(self) -> int:
        return int(self.em_time.shape[0])


def particle_snapshot(pool) -> ParticleSnapshot:
    """Take the pool's next snapshot: O(changed slots + emitter rows), never O(live)."""
    seq_from, seq_to, idx = pool.dirty.take()
    if idx is None:  # the log lost that history: every live slot, on an empty mirror
        seq_from, idx = 0, np.flatnonzero(pool.alive)
    n = len(pool.row_emitter)
    return ParticleSnapshot(pool.dirty.serial, seq_from, seq_to, pool.capacity,
                            int(pool.live_count), idx, pack_births(pool, idx),
                            pool.em_time[:n].copy(), pool.em_origin[:n].copy(),
                            pool.em_quat[:n].copy(), pool.em_parent_local[:n].copy(),
                            pool.row_gfx[:n].copy(), pool.row_origin[:n].copy(),
                            pool.row_drawn[:n].copy(), pool)


def warn_if_stale(snap: ParticleSnapshot) -> None:
    """Reading ``snap.pool`` stands for the snapshot only while the pool has not changed
    since it was taken; say so when it has (an out-of-order render of an old scene)."""
    log = snap.pool.dirty
    if log.serial != snap.serial or log.seq != snap.seq_to or log.pending:
        warnings.warn("particle snapshot rendered out of order after its pool moved on; "
                      "drawing the pool's current state", stacklevel=3)


# ---------------------------------------------------------------------------------------
# GL
# ---------------------------------------------------------------------------------------
class GpuParticlePass:
    """Mirror of one pool's birth states on the GPU plus the per-frame compute passes."""

    @classmethod
    def create(cls, ctx, meshes):
        """The GPU pass, or None when the context has no compute shaders (GL < 4.3)."""
        if getattr(ctx, "version_code", 0) < 430:
            return None
        try:
            return cls(ctx, meshes)
        except Exception as exc:  # noqa: BLE001 - a driver that refuses: the CPU path
            warnings.warn(f"GPU particles unavailable ({exc}); using the CPU path",
                          stacklevel=2)
            return None

    def __init__(self, ctx, meshes) -> None:
        self.ctx = ctx
        self.meshes = meshes
        self.eval_prog = ctx.compute_shader(shader_source("particle_eval.comp.glsl"))
        self.sort_prog = ctx.compute_shader(shader_source("particle_sort.comp.glsl"))
        self.gather_prog = ctx.compute_shader(shader_source("particle_gather.comp.glsl"))
        self.scatter_prog = ctx.compute_shader(shader_source("particle_scatter.comp.glsl"))
        self.serial = None
        self.seq = 0
        self.capacity = 0
        self.padded = 0
        self._bufs: dict[str, object] = {}
        self._gfx_key = None
        self._gfx = None
        self.dispatches = 0
        self.drawn = 0
        self.instances = None

    # -- buffers ------------------------------------------------------------------------
    def _buffer(self, name: str, nbytes: int, *, keep: bool = False):
        """A buffer of at least ``nbytes`` (power-of-two sizes); ``keep`` copies the old
        contents into a grown one and zero-fills the rest."""
        buf = self._bufs.get(name)
        nbytes = max(int(nbytes), 64)
        if buf is not None and buf.size >= nbytes:
            return buf
        size = 1 << (nbytes - 1).bit_length()
        new = self.ctx.buffer(reserve=size)
        new.clear()
        if buf is not None:
            if keep:
                self.ctx.copy_buffer(new, buf, size=buf.size)
            buf.release()
        self._bufs[name] = new
        return new

    def _ensure_capacity(self, capacity: int) -> None:
        if capacity <= self.capacity:
            return
        self._buffer("births", capacity * BIRTH_FLOATS * 4, keep=True)
        self.capacity = capacity
        self.padded = max(MIN_SORT, 1 << (capacity - 1).bit_length())

    def _clear(self) -> None:
        births = self._bufs.get("births")
        if births is not None:
            births.clear()
        self.serial, self.seq = None, 0

    def _write_rows(self, index: np.ndarray, rows: np.ndarray) -> None:
        n = int(index.size)
        if n == 0:
            return
        src = self._buffer("stage_rows", rows.nbytes)
        src.write(np.ascontiguousarray(rows, np.float32).tobytes())
        ix = self._buffer("stage_index", n * 4)
        ix.write(np.ascontiguousarray(index, np.uint32).tobytes())
        self._bufs["births"].bind_to_storage_buffer(0)
        src.bind_to_storage_buffer(9)
        ix.bind_to_storage_buffer(10)
        self.scatter_prog["u_count"].value = n
        self.scatter_prog.run((n + 63) // 64)
        self.dispatches += 1
        self.ctx.memory_barrier()

    def sync(self, snap: ParticleSnapshot) -> None:
        """Bring the birth-state mirror to ``snap`` (uploads the changed slots only)."""
        if (self.serial, self.seq) == (snap.serial, snap.seq_to):
            return
        self._ensure_capacity(snap.capacity)
        if self.serial == snap.serial and self.seq == snap.seq_from:
            self._write_rows(snap.index, snap.rows)
        elif snap.seq_from == 0:  # a chain from an empty pool: start from an empty mirror
            self._clear()
            self._write_rows(snap.index, snap.rows)
        else:
            pool = snap.pool
            log = pool.dirty
            warn_if_stale(snap)
            idx = log.since(self.seq) if self.serial == log.serial else None
            if idx is None:
                self._clear()
                idx = np.flatnonzero(pool.alive)
            self._ensure_capacity(pool.capacity)
            self._write_rows(idx, pack_births(pool, idx))
        self.serial, self.seq = snap.serial, snap.seq_to

    # -- per-frame tables ---------------------------------------------------------------
    def _gfx_tables(self, gfx_ids: np.ndarray, m: float, degrade_distance: float):
        key = (gfx_ids.tobytes(), float(m), float(degrade_distance))
        if key == self._gfx_key:
            return self._gfx
        sort_center, ideal, min_d, max_d, valid, modes, drawn, n_entries = degrade_tables(
            self.meshes, gfx_ids)
        thr = degrade_thresholds(ideal, min_d, max_d, m)
        g, k = thr.shape
        modes = np.clip(modes, 0, 7)
        # candidates (drawn GfxObj, mode) ordered as the CPU's batch keys: by DID, then mode
        cand_keys, cand = np.unique(drawn * 8 + modes, return_inverse=True)
        cand = cand.reshape(g, k)
        info = np.zeros((g, 4), np.float32)
        info[:, 0:3] = sort_center
        info[:, 3] = n_entries
        level = np.zeros((g, k, 4), np.float32)
        level[:, :, 0] = thr
        level[:, :, 1] = valid
        level[:, :, 2] = cand
        self._buffer("gfx_info", info.nbytes).write(info.tobytes())
        self._buffer("gfx_level", level.nbytes).write(level.tobytes())
        self._gfx_key = key
        self._gfx = (k, cand_keys // 8, cand_keys % 8)
        return self._gfx

    def _emitter_rows(self, snap: ParticleSnapshot, gfx_index: np.ndarray) -> np.ndarray:
        n = snap.n_rows
        out = np.zeros((max(n, 1), EMITTER_FLOATS), np.float32)
        ints = out.view(np.int32)
        out[:n, 0], out[:n, 1] = _split_time(snap.em_time)
        out[:n, 2] = snap.em_parent_local
        out[:n, 3] = snap.row_drawn
        out[:n, 4:7] = snap.em_origin
        ints[:n, 7] = gfx_index
        out[:n, 8:12] = snap.em_quat
        out[:n, 12:15] = snap.row_origin
        return out

    # -- the frame ----------------------------------------------------------------------
    def prepare(self, snap: ParticleSnapshot, eye, *, m: float = DEGRADE_MUL,
                degrade_distance: float = DEGRADE_DISTANCE) -> PreparedParticles:
        """Evaluate, sort and gather on the GPU; returns the batches (instances stay in
        ``self.instances``)."""
        self.sync(snap)
        self.drawn = 0
        drawn_rows = snap.row_drawn.astype(bool)
        if snap.live == 0 or not drawn_rows.any():
            return PreparedParticles()
        gfx_ids = np.unique(snap.row_gfx[drawn_rows]).astype(np.int64)
        levels, cand_did, cand_mode = self._gfx_tables(gfx_ids, m, degrade_distance)
        gfx_index = np.where(drawn_rows, np.searchsorted(gfx_ids, snap.row_gfx), -1)
        em = self._emitter_rows(snap, gfx_index)
        n_batches = 2 * len(cand_did)
        padded = self.padded
        bufs = {
            1: self._buffer("emitters", em.nbytes),
            4: self._buffer("evals", padded * EVAL_FLOATS * 4),
            5: self._buffer("keys", padded * 16),
            6: self._buffer("vals", padded * 4),
            7: self._buffer("stats", n_batches * 8),
        }
        bufs[1].write(em.tobytes())
        bufs[7].write(np.zeros(2 * n_batches, np.uint32).tobytes())
        self._bufs["births"].bind_to_storage_buffer(0)
        for binding, buf in bufs.items():
            buf.bind_to_storage_buffer(binding)
        self._bufs["gfx_info"].bind_to_storage_buffer(2)
        self._bufs["gfx_level"].bind_to_storage_buffer(3)
        p = self.eval_prog
        p["u_capacity"].value = self.capacity
        p["u_padded"].value = padded
        p["u_levels"].value = levels
        p["u_eye"].value = tuple(float(c) for c in eye)
        p["u_distance_2dsq"].value = particle_distance_2dsq(m)
        p["u_degrade_distance"].value = float(degrade_distance)
        p.run((padded + 255) // 256)
        self.dispatches = 1
        self.ctx.memory_barrier()
        sorted_vals = self._sort(padded, bufs[5], bufs[6])
        stats = np.frombuffer(bufs[7].read(size=n_batches * 8), np.uint32).reshape(-1, 2)
        counts = stats[:, 0].astype(np.int64)
        total = int(counts.sum())
        self.drawn = total
        if total == 0:
            return PreparedParticles()
        inst = self._buffer("instances", total * INSTANCE_FLOATS * 4)
        inst.bind_to_storage_buffer(8)
        bufs[4].bind_to_storage_buffer(4)
        sorted_vals.bind_to_storage_buffer(6)
        g = self.gather_prog
        g["u_count"].value = total
        g.run((total + 255) // 256)
        self.dispatches += 1
        self.ctx.memory_barrier()
        self.instances = inst
        starts = np.cumsum(counts) - counts
        far = stats[:, 1].copy().view(np.float32)
        batches = [Batch(int(cand_did[b // 2]), int(cand_mode[b // 2]), bool(b % 2),
                         int(starts[b]), int(counts[b]), float(far[b]))
                   for b in np.flatnonzero(counts).tolist()]
        return PreparedParticles(np.zeros((0, INSTANCE_FLOATS), np.float32), batches, total)

    def _sort(self, padded: int, keys, vals):
        """Sort runs of SORT_RUN in place, then merge runs pairwise, ping-ponging between
        (keys, vals) and a second pair; returns the buffer holding the sorted values."""
        p = self.sort_prog
        barrier = self.ctx.memory_barrier
        src = (keys, vals)
        dst = (self._buffer("keys2", padded * 16), self._buffer("vals2", padded * 4))
        dst[0].bind_to_storage_buffer(11)   # declared by every stage: keep them bound
        dst[1].bind_to_storage_buffer(12)
        p["u_n"].value = padded
        p["u_stage"].value = 0
        keys.bind_to_storage_buffer(5)
        vals.bind_to_storage_buffer(6)
        p.run((padded // SORT_RUN + 255) // 256)
        barrier()
        self.dispatches += 1
        p["u_stage"].value = 1
        width = SORT_RUN
        while width < padded:
            src[0].bind_to_storage_buffer(5)
            src[1].bind_to_storage_buffer(6)
            dst[0].bind_to_storage_buffer(11)
            dst[1].bind_to_storage_buffer(12)
            p["u_width"].value = width
            p.run(padded // 256)
            barrier()
            self.dispatches += 1
            src, dst = dst, src
            width *= 2
        return src[1]

    # -- tests and tools --------------------------------------------------------------------
    def read_evaluated(self) -> np.ndarray:
        """The last ``prepare``'s per-slot evaluation, float32 (capacity, 16): position,
        lifetime, rotation (w, x, y, z), scale, translucency, CYpt, alpha, heading point."""
        buf = self._bufs["evals"]
        data = np.frombuffer(buf.read(size=self.capacity * EVAL_FLOATS * 4), np.float32)
        return data.reshape(self.capacity, EVAL_FLOATS)

    def read_instances(self) -> np.ndarray:
        if not self.drawn:
            return np.zeros((0, INSTANCE_FLOATS), np.float32)
        data = self.instances.read(size=self.drawn * INSTANCE_FLOATS * 4)
        return np.frombuffer(data, np.float32).reshape(self.drawn, INSTANCE_FLOATS)

    def release(self) -> None:
        for buf in self._bufs.values():
            buf.release()
        self._bufs.clear()
        for prog in (self.eval_prog, self.sort_prog, self.gather_prog, self.scatter_prog):
            prog.release()
