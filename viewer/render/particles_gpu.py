"""The particle pass on the GPU: birth states in GPU buffers, the laws in a compute shader.

The CPU path (``particles.prepare``) evaluates every live particle with numpy each frame.
Here the work per frame on the CPU does not grow with live particles:

* ``particle_snapshot(pool)`` (GL-free, taken when the SceneInput is built, writing nothing
  in the pool) names the slots born, killed or re-stamped by the latest tick (the pool's
  ``DirtySlots`` log, which the simulation seals at the end of each tick) and copies the
  small per-emitter table (last visible update time, parent frame, parent-local, drawn,
  GfxObj, emitter origin);
* ``GpuParticlePass.prepare(snapshot, eye)`` keeps its own cursor into that log and
  scatters only the rows it lacks into a birth-state buffer indexed like the pool's slots,
  uploads the emitter table, then runs two compute shaders: ``particle_eval`` (the twelve
  laws of ``Particle::Update`` 0x0051C290 from ``particle_laws.glsl``, scale /
  translucency, the shared or own CYpt and heading, the degrade entry and batch, the sort
  key; each workgroup then sorts its run of slots: blocks in shared memory, merged inside
  the workgroup) and ``particle_sort`` (one merge of up to 16 runs) by batch, CYpt far to
  near, emitter row, slot: the order the CPU's stable sorts give; the last step writes
  the instance rows ``shaders/particle.vert.glsl`` reads, in draw order. The only read
  back is a count and a largest CYpt per possible batch (a few dozen integers). A frame
  costs two dispatches at any size on a software rasteriser (``sort_plan``; one up to
  1024 slots), and a frame's births go up as plain buffer writes.

Compute shaders need OpenGL 4.3; ``GpuParticlePass.create`` returns None without them and
the renderer keeps the CPU path.
"""

from __future__ import annotations

import functools
import struct
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
SORT_BLOCK = 1024      # BLOCK of particle_order.glsl (sorted in shared memory)
SORT_LOCAL = 512       # local_size_x of particle_eval and particle_sort
MIN_SORT = SORT_BLOCK  # the smallest sorted length (a power of two)
SENTINEL = 0xFFFFFFFF
MAX_WAYS = 16          # sorted runs one merge pass joins at most
DIRECT_RUNS = 32       # changed slots in fewer runs than this: buffer writes, no dispatch
# GL_RENDERER names of software rasterisers: compute shaders run on the CPU cores there
SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast")
_NO_ROWS = np.zeros((0, INSTANCE_FLOATS), np.float32)   # the GPU pass's rows stay on the GPU
_NO_ROWS.flags.writeable = False


# ---------------------------------------------------------------------------------------
# GL-free: what a SceneInput carries
# ---------------------------------------------------------------------------------------
def _split_time(t) -> tuple[np.ndarray, np.ndarray]:
    """A float64 time as two float32 parts (hi + lo), so differences keep their precision."""
    t = np.asarray(t, np.float64)
    hi = t.astype(np.float32)
    return hi, (t - hi.astype(np.float64)).astype(np.float32)


# where the pool's state columns 1..25 (acc, lifespan, start origin, offset, a, b, c, start
# rotation, start / final scale and translucency) go in a Birth row
_BIRTH_COLUMNS = np.r_[2:7, 8:11, 12:15, 16:19, 20:23, 24:32]


def pack_births(pool, idx) -> np.ndarray:
    """The Birth rows (particle_eval.comp.glsl) of pool slots ``idx``, float32 (D, 32)."""
    idx = np.asarray(idx, np.int64)
    st = pool.state[idx]
    out = np.zeros((idx.size, BIRTH_FLOATS), np.float32)
    out[:, _BIRTH_COLUMNS] = st[:, 1:]
    out[:, 0], out[:, 1] = _split_time(st[:, 0])
    ints = out.view(np.int32)
    ints[:, 7] = pool.ptype[idx]
    ints[:, 11] = np.maximum(pool.emitter[idx], 0)
    ints[:, 15] = pool.slot[idx]
    ints[:, 19] = pool.alive[idx]
    return out


@dataclass(frozen=True)
class ParticleSnapshot:
    """The pool as the GPU pass needs it at one frame (GL-free; see module docstring).

    Taken without writing anything in the pool: ``serial``/``seq_to`` are the pool's
    DirtySlots serial and sealed seq, ``seq_from`` the seq its latest tick started from
    (``DirtySlots.tick_start``; 0 with ``index`` every live slot when that history was
    dropped), ``pending`` the marks not sealed yet. ``index``/``rows``: the slots changed
    after chunk ``seq_from`` (and the pending ones) and their packed birth rows, read from
    the pool only when a consumer needs them (``pack()`` reads them at once, for a scene
    drawn after its pool has moved on). The per-emitter arrays are copies (rows
    ``0..n_rows``). A consumer keeps its own cursor ``(serial, seq)`` and catches up from
    ``pool`` when it is behind ``seq_from`` (``GpuParticlePass.sync``).
    """

    serial: int
    seq_from: int
    seq_to: int
    capacity: int
    live: int
    pending: np.ndarray
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

    @functools.cached_property
    def index(self) -> np.ndarray:
        """The slots changed after chunk ``seq_from`` (every live slot when it is 0 and the
        log no longer starts there), with the pending marks."""
        warn_if_stale(self)
        log = self.pool.dirty
        idx = log.since(self.seq_from) if log.serial == self.serial else None
        if idx is None:
            return np.flatnonzero(self.pool.alive)
        if self.pending.size:
            idx = np.union1d(idx, self.pending)
        return idx

    @functools.cached_property
    def rows(self) -> np.ndarray:
        return pack_births(self.pool, self.index)

    def pack(self) -> ParticleSnapshot:
        """Read ``index`` and ``rows`` from the pool now (it is at this snapshot)."""
        _ = self.rows
        return self


def particle_snapshot(pool) -> ParticleSnapshot:
    """The pool's snapshot for this frame, read only: O(emitter rows + pending marks), never
    O(live); the changed rows are packed when a consumer asks for them."""
    log = pool.dirty
    seq_from = log.tick_start if log.tick_start >= log.first else 0
    n = len(pool.row_emitter)
    return ParticleSnapshot(log.serial, seq_from, log.seq, pool.capacity,
                            int(pool.live_count), log.pending_slots(),
                            pool.em_time[:n].copy(), pool.em_origin[:n].copy(),
                            pool.em_quat[:n].copy(), pool.em_parent_local[:n].copy(),
                            pool.row_gfx[:n].copy(), pool.row_origin[:n].copy(),
                            pool.row_drawn[:n].copy(), pool)


def software_rasteriser(ctx, names=SOFTWARE_RENDERERS) -> bool:
    """Whether ``ctx`` renders on the CPU (its GL_RENDERER names one of ``names``)."""
    renderer = str(ctx.info.get("GL_RENDERER", "")).lower()
    return any(name in renderer for name in names)


def warn_if_stale(snap: ParticleSnapshot) -> None:
    """Reading ``snap.pool`` stands for the snapshot only while the pool has not changed
    since it was taken; say so when it has (an out-of-order render of an old scene)."""
    log = snap.pool.dirty
    if log.serial != snap.serial or log.seq != snap.seq_to or (
            log.pending and not snap.pending.size):
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
        self.scatter_prog = ctx.compute_shader(shader_source("particle_scatter.comp.glsl"))
        self.serial = None
        self.seq = 0
        self.capacity = 0
        self.padded = 0
        self._bufs: dict[str, object] = {}
        self._gfx_key = None
        self._gfx = None
        self._uniform_cache: dict = {}
        self.sort_ways = MAX_WAYS  # runs a merge dispatch joins at most (tests lower it)
        # sort_plan: merges inside workgroups, two dispatches a frame, on a software
        # rasteriser; single blocks and more merge dispatches on a GPU
        self.merge_in_workgroups = software_rasteriser(ctx)
        self._rows_key = None     # the emitter rows' GfxObjs / drawn flags of _row_tables
        self._rows = None
        self._layout_key = None   # what _layout was made for (None: a buffer was replaced)
        self._layout = None
        self.row_writes = 0       # uploads of changed birth rows (tests count them)
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
        self._layout_key = None   # the bindings name the old buffer
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
        """Put ``rows`` at slots ``index`` (ascending, as the log and ``flatnonzero`` give
        them) of the birth-state buffer: a few runs of consecutive slots (a frame's births)
        as direct writes, many with the scatter shader."""
        n = int(index.size)
        if n == 0:
            return
        rows = np.ascontiguousarray(rows, np.float32)
        cuts = (np.flatnonzero(np.diff(index) != 1) + 1).tolist()
        if len(cuts) < DIRECT_RUNS:
            write = self._bufs["births"].write
            first = index[[0, *cuts]].tolist()
            for a, b, slot in zip([0, *cuts], [*cuts, n], first):
                write(rows[a:b], offset=slot * BIRTH_FLOATS * 4)
            self.row_writes += 1
            return
        src = self._buffer("stage_rows", rows.nbytes)
        src.write(rows)
        ix = self._buffer("stage_index", n * 4)
        ix.write(np.asarray(index, np.uint32))
        self._bufs["births"].bind_to_storage_buffer(0)
        src.bind_to_storage_buffer(9)
        ix.bind_to_storage_buffer(10)
        self._uniforms(self.scatter_prog, u_count=n)
        self.scatter_prog.run((n + 63) // 64)
        self.dispatches += 1
        self.row_writes += 1
        self.ctx.memory_barrier()

    def sync(self, snap: ParticleSnapshot) -> None:
        """Bring the birth-state mirror to ``snap`` (uploads the changed slots only). The
        cursor ``(serial, seq)`` is this pass's own; the pool is only read."""
        same = self.serial == snap.serial
        if same and self.seq == snap.seq_to and not snap.pending.size:
            return
        self._ensure_capacity(snap.capacity)
        if same and snap.seq_from <= self.seq <= snap.seq_to:
            self._write_rows(snap.index, snap.rows)      # a superset of what we lack
        elif snap.seq_from == 0:  # a chain from an empty pool: start from an empty mirror
            self._clear()
            self._write_rows(snap.index, snap.rows)
        else:  # behind the latest tick (several ticks in one frame): catch up from the pool
            pool = snap.pool
            log = pool.dirty
            warn_if_stale(snap)
            idx = log.since(self.seq) if same and log.serial == snap.serial else None
            if idx is None:
                self._clear()
                idx = np.flatnonzero(pool.alive)
            elif log.pending:
                idx = np.union1d(idx, log.pending_slots())
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

    def _row_tables(self, snap: ParticleSnapshot, m: float, degrade_distance: float):
        """``(gfx_index, levels, cand_did, cand_mode)`` for the snapshot's emitter rows (the
        GfxObj table row of each drawn row, -1 undrawn; the degrade tables; each batch
        candidate's drawn GfxObj and mode as lists), or None when no row is drawn; kept
        while the rows' GfxObjs and drawn flags, ``m`` and the degrade distance stay."""
        key = (snap.row_gfx.tobytes(), snap.row_drawn.tobytes(), m, degrade_distance)
        if key == self._rows_key:
            return self._rows
        drawn_rows = snap.row_drawn.astype(bool)
        tables = None
        if drawn_rows.any():
            gfx_ids = np.unique(snap.row_gfx[drawn_rows]).astype(np.int64)
            levels, cand_did, cand_mode = self._gfx_tables(gfx_ids, m, degrade_distance)
            gfx_index = np.where(drawn_rows, np.searchsorted(gfx_ids, snap.row_gfx), -1)
            tables = (gfx_index, levels, cand_did.tolist(), cand_mode.tolist())
        self._rows_key, self._rows = key, tables
        return tables

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

    def _frame_layout(self, em_bytes: int, n_batches: int, levels: int, m: float,
                      degrade_distance: float):
        """The frame's buffers, their bindings and the sort plan, made again only when
        the sizes, tables or a buffer change: ``(bindings, stats, instances, run, merges,
        unpack)`` (``unpack``: the stats read back as per-batch count, largest CYpt)."""
        padded = self.padded
        key = (padded, self.capacity, em_bytes, n_batches, levels, m, degrade_distance,
               self.sort_ways, self.merge_in_workgroups)
        if key == self._layout_key:
            return self._layout
        bufs = {
            0: self._bufs["births"],
            1: self._buffer("emitters", em_bytes),
            2: self._bufs["gfx_info"],
            3: self._bufs["gfx_level"],
            4: self._buffer("evals", padded * EVAL_FLOATS * 4),
            5: self._buffer("keys", padded * 16),
            6: self._buffer("vals", padded * 4),
            7: self._buffer("stats", n_batches * 8),
            # every place a drawn particle can take: no read back before the sort
            8: self._buffer("instances", padded * INSTANCE_FLOATS * 4),
            11: self._buffer("keys2", padded * 16),
            12: self._buffer("vals2", padded * 4),
        }
        run, local, merges = self.sort_plan(padded, self.sort_ways,
                                            in_workgroups=self.merge_in_workgroups)
        self._uniforms(self.eval_prog, u_capacity=self.capacity, u_levels=levels,
                       u_distance_2dsq=particle_distance_2dsq(m),
                       u_degrade_distance=float(degrade_distance), u_run=run,
                       u_stages=len(local), u_final=not merges,
                       u_plan=sum((w.bit_length() - 1) << (4 * k) for k, w in enumerate(local)))
        bindings = [(buf.mglo, binding) for binding, buf in bufs.items()]
        self._layout = (bindings, bufs, run, merges, struct.Struct("<" + "If" * n_batches))
        self._layout_key = key
        return self._layout

    # -- the frame ----------------------------------------------------------------------
    def _uniforms(self, prog, **values) -> None:
        """Set uniforms, skipping those already at that value (a program keeps them)."""
        cache = self._uniform_cache.setdefault(prog.glo, {})
        for name, value in values.items():
            held = cache.get(name)
            if held is None:
                held = cache[name] = [prog[name], None]
            elif held[1] == value:
                continue
            held[0].value = value
            held[1] = value

    def prepare(self, snap: ParticleSnapshot, eye, *, m: float = DEGRADE_MUL,
                degrade_distance: float = DEGRADE_DISTANCE) -> PreparedParticles:
        """Evaluate and sort on the GPU; returns the batches (instances stay in
        ``self.instances``). Main-thread work: the changed slots, the emitter table, two
        dispatches and one read back of the per-batch figures; the buffers, bindings and
        uniforms that stay from frame to frame are not set again."""
        self.dispatches = 0
        self.sync(snap)
        self.drawn = 0
        tables = self._row_tables(snap, float(m), float(degrade_distance)) \
            if snap.live else None
        if tables is None:
            return PreparedParticles()
        gfx_index, levels, cand_did, cand_mode = tables
        em = self._emitter_rows(snap, gfx_index)
        n_batches = 2 * len(cand_did)
        bindings, bufs, run, merges, unpack = self._frame_layout(
            em.nbytes, n_batches, levels, float(m), float(degrade_distance))
        bufs[1].write(em)
        stats = bufs[7]
        stats.clear()
        for mglo, binding in bindings:
            mglo.bind_to_storage_buffer(binding, 0, -1)
        self._uniforms(self.eval_prog, u_eye=(float(eye[0]), float(eye[1]), float(eye[2])))
        self.eval_prog.run(self.padded // run)
        self.dispatches += 1
        self.ctx.memory_barrier()
        self._merge(run, merges, (bufs[5], bufs[6]), (bufs[11], bufs[12]))
        self.instances = bufs[8]
        # the one read back: per batch the count and the largest CYpt (a few dozen ints)
        figures = unpack.unpack(stats.read(size=n_batches * 8))
        batches = []
        start = 0
        for b in range(n_batches):
            count = figures[2 * b]
            if count:
                c = b >> 1
                batches.append(Batch(cand_did[c], cand_mode[c], bool(b & 1), start, count,
                                     figures[2 * b + 1]))
                start += count
        self.drawn = start
        if not start:
            return PreparedParticles()
        return PreparedParticles(_NO_ROWS, batches, start)

    @staticmethod
    def merge_ways(runs: int, most: int = MAX_WAYS) -> list[int]:
        """The runs merged at a time by each merge for ``runs`` sorted blocks (a power of
        two): as few merges as ``most`` ways allow, the wider ones first (while the runs
        are short, their binary searches are cheap)."""
        bits = max(int(runs).bit_length() - 1, 0)
        if bits == 0:
            return []
        step = max(int(most).bit_length() - 1, 1)
        passes = -(-bits // step)
        split = [bits // passes + (1 if k < bits % passes else 0) for k in range(passes)]
        return [1 << b for b in split]

    @classmethod
    def sort_plan(cls, padded: int, ways: int = MAX_WAYS, *,
                  in_workgroups: bool = True) -> tuple[int, list[int], list[int]]:
        """How ``padded`` slots are sorted: ``(run, local, merges)``. Each workgroup of
        ``particle_eval`` sorts a run of ``run`` slots (blocks of SORT_BLOCK in shared
        memory, then merged in the workgroup by ``local`` ways), and ``particle_sort``
        merges the runs by ``merges`` ways (at most ``ways``), one dispatch each.

        ``in_workgroups`` (a software rasteriser, where each dispatch costs the main
        thread 50-100 us and the cores are few): runs as short as leave at most ``ways``
        of them, so a frame is two dispatches at any size (one up to SORT_BLOCK slots).
        Else (a GPU: dispatches are cheap, parallel workgroups are what counts) runs are
        single blocks and the merges as few as ``ways`` allow (1M slots: 3)."""
        blocks = max(padded // SORT_BLOCK, 1)
        if not in_workgroups:
            return SORT_BLOCK, [], cls.merge_ways(blocks, ways)
        run = SORT_BLOCK * max(blocks // max(ways, 1), 1)
        return run, cls.merge_ways(run // SORT_BLOCK), cls.merge_ways(padded // run, ways)

    def _merge(self, run: int, merges: list[int], src, dst) -> None:
        """Merge the sorted runs by ``merges`` ways a dispatch from ``src`` into ``dst``
        ((keys, vals) pairs: the first merge reads and writes the ones particle_eval had
        bound, later ones ping-pong); the last dispatch writes the instance rows."""
        p = self.sort_prog
        width = run
        for k, ways in enumerate(merges):
            if k:
                src[0].bind_to_storage_buffer(5)
                src[1].bind_to_storage_buffer(6)
                dst[0].bind_to_storage_buffer(11)
                dst[1].bind_to_storage_buffer(12)
            self._uniforms(p, u_width=width, u_ways=ways, u_final=k == len(merges) - 1)
            p.run(self.padded // SORT_LOCAL)
            self.ctx.memory_barrier()
            self.dispatches += 1
            src, dst = dst, src
            width *= ways

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
        for prog in (self.eval_prog, self.sort_prog, self.scatter_prog):
            prog.release()
