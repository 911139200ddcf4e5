"""Particles, emitters and the per-owner ParticleManager (docs/retail-rules.md, Particles and
emitters).

Particle state lives in one pooled set of numpy arrays (``ParticlePool``) shared by every
emitter, and each emitter's bookkeeping (times, counts, flags, CYpt, its info's numbers, its
slots) in the pool's emitter table. The update runs on one of two paths that give the same
run bit for bit: the Python methods of ``ParticleEmitter`` (the reference: work only for
births and deaths, a heap of death times and a heap of free slots per emitter), or
``viewer.sim.particle_kernel`` (numba), one compiled call per ParticleManager over its
emitters' rows, which a pool switches to once it is busy (``KERNEL``). On either path a
culled persistent emitter re-stamps every live slot (O(live) per culled update).
Positions, scales and translucencies are a pure function of a particle's stored birth state,
the time of its emitter's last visible update and (parent-local emitters) the parent frame
at that update, so ``ParticlePool.evaluate`` computes all of them at once, vectorised over
slots grouped by ParticleType (the twelve laws of ``Particle::Update`` 0x0051C290).
"""

from __future__ import annotations

import gc
import heapq
import importlib.util
import math
import os
from collections.abc import Callable
from typing import ClassVar

import numpy as np

from viewer import userdirs
from viewer.sim.frame import EPS, Frame, quat_rotate

FLT_MAX = 3.4028234663852886e38
DEFAULT_DEGRADE_DISTANCE = 100.0  # CPhysicsPart::GetMaxDegradeDistance 0x0050D510, no table
FIRST_AUTO_EMITTER_ID = 0xFFFF0000  # ParticleManager::ParticleManager 0x0051B5D0
PI_F32 = 3.1415927

# ParticleType numbers
STILL, LOCAL_VELOCITY, PARABOLIC_LVGA, PARABOLIC_LVGAGR = 1, 2, 3, 4
SWARM, EXPLODE, IMPLODE = 5, 6, 7
PARABOLIC_LVLA, PARABOLIC_LVLALR, PARABOLIC_GVGA, PARABOLIC_GVGAGR = 8, 9, 10, 11
GLOBAL_VELOCITY = 12
GR_TYPES = (PARABOLIC_LVGAGR, PARABOLIC_LVLALR, PARABOLIC_GVGAGR)
IDENTITY_Q = (1.0, 0.0, 0.0, 0.0)

# The emitter update runs either as the Python methods of ParticleEmitter (the reference)
# or as the compiled kernel (viewer.sim.particle_kernel, numba); both give the same run bit
# for bit, so a pool may switch at any update. "auto": a pool switches to the kernel once it
# holds KERNEL_MIN_EMITTERS emitters (numba's fixed cost, ~75 MB of LLVM and a compile or
# cache load, is worth it only for busy scenes); "1": from the start; "0": never. Read when a
# pool is made (the environment variable VIEWER_PARTICLE_KERNEL sets it); without numba the
# Python path runs.
KERNEL = os.environ.get("VIEWER_PARTICLE_KERNEL", "auto")
KERNEL_MIN_EMITTERS = 32
# ... or once KERNEL_MIN_LIVE particles are live or about to be born (InitialParticles): the
# synthetic scenes peak at 78-259 live and never load numba; a scene starting with
# thousands of births takes the compiled path after its first ~1,000 (switch_when_busy)
KERNEL_MIN_LIVE = 1024
_KERNEL = None
# ``ParticlePool.evaluate`` likewise: the numpy evaluation (the reference) or the compiled one
# (viewer.sim.particle_eval_kernel, the same numbers bit for bit). "auto": compiled when one
# call evaluates EVAL_KERNEL_MIN_LIVE particles or more (numpy costs ~0.2-0.5 us a particle,
# the compiled pass ~0.02 us: at 4,096 live numpy is ~1-2 ms a frame, below it numba's
# import is not worth it); "1": always; "0": never. The same switch as the update's.
EVAL_KERNEL_MIN_LIVE = 4096


def kernel_mode() -> str:
    """"0", "1" or "auto" for a new pool."""
    mode = str(KERNEL)
    if mode == "0" or importlib.util.find_spec("numba") is None:
        return "0"
    return "1" if mode == "1" else "auto"


def kernel():
    """The compiled update module, imported (and compiled, or loaded from numba's cache) on
    first use, once per process.

    Its functions are compiled here, on empty input, and then every object alive is moved
    out of the cyclic garbage collector's reach (``gc.freeze``, after a collection, so no
    garbage is kept): numba leaves ~100k long-lived objects (typing and LLVM state) that
    each full collection would otherwise walk again, a 100-150 ms pause that lands inside
    whichever tick allocates past the threshold."""
    global _KERNEL
    if _KERNEL is None:
        userdirs.use_numba_cache_dir()
        from viewer.sim import particle_kernel as K
        from viewer.sim.rng import RetailRandom
        pool = ParticlePool(capacity=1, emitter_capacity=1)
        none = np.zeros(0, dtype=np.int64)
        K.update_rows(none, np.zeros(0), np.zeros(0), RetailRandom().kernel_state(), pool.ef,
                      pool.ei, pool.em_time, pool.em_origin, pool.em_quat, pool.row_origin,
                      pool.row_drawn, pool.slot_idx, pool.slot_death, pool.state, pool.alive,
                      pool.emitter, pool.slot, pool.ptype, pool.orientation, pool.free_stack,
                      pool.free_n, pool._dirty_buf, np.zeros(0, dtype=np.bool_), True)
        K.emit_n(0, 0, 0.0, RetailRandom().kernel_state(), pool.ef, pool.ei, pool.row_origin,
                 pool.slot_idx, pool.slot_death, pool.state, pool.alive, pool.emitter,
                 pool.slot, pool.ptype, pool.orientation, pool.free_stack, pool.free_n,
                 pool._dirty_buf)
        gc.collect()
        gc.freeze()
        _KERNEL = K
    return _KERNEL


_SETTLED: set[str] = set()


def settle_compiled(name: str) -> None:
    """Called after each call of a lazily compiled function (numba compiles on a function's
    first call): the first time for ``name``, collect, then move every live object, the
    typing and LLVM state numba just left among them, out of the cyclic collector's full
    collections (``gc.freeze``, as ``kernel()`` does on load), so a later full collection
    does not walk them again and pause a frame; later calls only look ``name`` up."""
    if name not in _SETTLED:
        _SETTLED.add(name)
        gc.collect()
        gc.freeze()


def eval_kernel():
    """The compiled evaluation module (compiled or loaded from numba's cache on the first
    import, once per process)."""
    from viewer.sim import particle_eval_kernel
    return particle_eval_kernel


def jit(fn):
    """``numba.njit`` for the compiled evaluation and the renderer's prepare kernel, with
    numpy's division semantics (x / 0 gives inf or nan, as the numpy reference does, instead
    of raising), cached on disk where numba finds a writable cache folder, compiled in
    memory otherwise (the cache folder: ``viewer.userdirs.use_numba_cache_dir``). Imports
    numba: only those lazily imported modules call it."""
    userdirs.use_numba_cache_dir()
    import numba
    try:
        return numba.njit(cache=True, error_model="numpy")(fn)
    except RuntimeError:
        return numba.njit(cache=False, error_model="numpy")(fn)


def use_eval_kernel(mode: str, n: int) -> bool:
    """Whether an evaluation of ``n`` particles runs compiled under ``mode`` (a pool's
    ``kernel_mode()``)."""
    return mode == "1" or (mode == "auto" and n >= EVAL_KERNEL_MIN_LIVE)


# ---------------------------------------------------------------------------------------
# Vectorised quaternion helpers (w, x, y, z), rows are particles
# ---------------------------------------------------------------------------------------
def quat_mul_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    aw, ax, ay, az = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    bw, bx, by, bz = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    return np.stack((aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw), axis=1)


def sq_norm_rows(v: np.ndarray) -> np.ndarray:
    """|v|^2 of each row of an (N, 3) array, added as (x^2 + z^2) + y^2: the order
    ``np.einsum("ij,ij->i", v, v)`` adds in on x86-64 (two float64 lanes), written out so
    the compiled paths (``particle_eval_kernel``, the renderer's prepare kernel) add in the
    same order on every machine."""
    return (v[:, 0] * v[:, 0] + v[:, 2] * v[:, 2]) + v[:, 1] * v[:, 1]


def local_rotate_rows(q: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Frame::rotate 0x004525B0 per row: grotate(R.w), i.e. q <- q * q_d(w); rows with
    |w|^2 < EPS^2 keep q (Frame::grotate 0x005357A0)."""
    n2 = sq_norm_rows(w)
    spin = n2 >= EPS * EPS
    out = q.copy()
    if not spin.any():
        return out
    ws = w[spin]
    theta = np.sqrt(n2[spin])
    s = np.sin(theta / 2.0) / theta
    qd = np.column_stack((np.cos(theta / 2.0), ws * s[:, None]))
    r = quat_mul_rows(q[spin], qd)
    r /= np.linalg.norm(r, axis=1)[:, None]
    out[spin] = r
    return out


def particle_law(ptype: int, t: np.ndarray, P: np.ndarray, Q: np.ndarray, O: np.ndarray,
                 a: np.ndarray, b: np.ndarray, c: np.ndarray):
    """Particle::Update 0x0051C290 for rows of one ParticleType.

    ``t`` lifetimes (N,), ``P``/``Q`` parent frame origin (N,3) and rotation (N,4), ``O``
    offsets, ``a``/``b``/``c`` the particle vectors. Returns ``(positions, rotations)``;
    rotations is None for the types that leave the part rotation untouched (identity).
    Unknown types (0, 13+) return None positions: the position is left untouched.
    """
    tt = t[:, None]
    if ptype == STILL:
        return P + O, None
    if ptype in (LOCAL_VELOCITY, GLOBAL_VELOCITY):
        return P + O + tt * a, None
    if ptype in (PARABOLIC_LVGA, PARABOLIC_LVLA, PARABOLIC_GVGA):
        return P + O + tt * a + 0.5 * tt * tt * b, None
    if ptype in GR_TYPES:
        # copy of the parent frame, origin += O + t a + 1/2 t^2 b, then rotate(F, t c):
        # a LOCAL-axis spin, and the parent rotation is kept (LVLALR rotates c twice).
        pos = P + O + tt * a + 0.5 * tt * tt * b
        return pos, local_rotate_rows(Q, tt * c)
    if ptype == SWARM:
        pos = np.empty_like(P)
        pos[:, 0] = P[:, 0] + O[:, 0] + t * a[:, 0] + c[:, 0] * np.cos(b[:, 0] * t)
        pos[:, 1] = P[:, 1] + O[:, 1] + t * a[:, 1] + c[:, 1] * np.sin(b[:, 1] * t)
        pos[:, 2] = P[:, 2] + O[:, 2] + t * a[:, 2] + c[:, 2] * np.cos(b[:, 2] * t)
        return pos, None
    if ptype == EXPLODE:
        # a.x on every axis and an extra a.z on z only (Particle::Update 0x0051C290)
        ax = a[:, 0]
        pos = np.empty_like(P)
        pos[:, 0] = P[:, 0] + O[:, 0] + (t * b[:, 0] + c[:, 0] * ax) * t
        pos[:, 1] = P[:, 1] + O[:, 1] + (t * b[:, 1] + c[:, 1] * ax) * t
        pos[:, 2] = P[:, 2] + O[:, 2] + (t * b[:, 2] + c[:, 2] * ax + a[:, 2]) * t
        return pos, None
    if ptype == IMPLODE:
        k = np.cos(a[:, 0] * t)[:, None]
        return P + O + k * c + tt * tt * b, None  # t^2 b without the 1/2
    return None, None


# ---------------------------------------------------------------------------------------
# Which slots changed (for consumers that mirror the pool, e.g. a GPU copy of birth states)
# ---------------------------------------------------------------------------------------
_SERIALS = iter(range(1, 1 << 62))


class DirtySlots:
    """A log of the pool slots born, killed or re-stamped, in sealed chunks.

    The pool marks a slot whenever its stored birth state or liveness changes (allocate,
    release, the culled persistent re-stamp). The simulation owns the log: ``seal()`` closes
    the pending marks into chunk ``seq + 1``, and ``end_tick()`` (the last step of every
    ``World.tick``) seals and remembers in ``tick_start`` where the chunks of the latest tick
    begin. Readers never write it: a consumer (the GPU particle pass) keeps its own cursor
    ``(serial, seq)`` and asks ``since(seq)`` (read only) for every slot marked after chunk
    ``seq`` (None when that history was dropped: the consumer copies the whole pool
    instead), plus ``pending_slots()`` for marks not sealed yet. ``serial`` is new for every
    pool object (a copy or unpickled pool gets a fresh one and a first chunk holding all its
    live slots), so a consumer starting from an empty mirror at seq 0 can always catch up.
    The log keeps about ``limit`` slot numbers; older chunks are dropped. Plain ints and
    numpy, no GL.
    """

    def __init__(self, initial=None, limit: int = 4096) -> None:
        self.serial = next(_SERIALS)
        self.seq = 0
        self.first = 0          # chunks up to this seq were dropped
        self.limit = limit
        self._chunks: list[tuple[int, np.ndarray]] = []
        self._logged = 0
        self._pending: list[int] = []
        self._pending_arrays: list[np.ndarray] = []
        # the chunks after tick_start are the latest tick's (and anything marked since);
        # tick_end is the seq the latest end_tick() sealed to
        self.tick_start = 0
        self.tick_end = 0
        self.ticks = 0          # end_tick() calls: what a reader caching per tick keys on
        if initial is not None and len(initial):
            # ascending, no repeats (np.flatnonzero's): already what seal() makes of marks
            self._append_chunk(np.asarray(initial, dtype=np.int64).ravel())

    def mark(self, idx: int) -> None:
        pending = self._pending
        pending.append(idx)
        if len(pending) >= self.limit:   # nobody takes (the CPU path): stay bounded
            self.seal()

    def mark_many(self, idxs) -> None:
        self.mark_array(np.asarray(idxs, dtype=np.int64).ravel())

    def mark_array(self, arr: np.ndarray) -> None:
        """``mark_many`` for a 1-D int64 array the log may keep (not written later)."""
        pending = self._pending_arrays
        pending.append(arr)
        if len(pending) >= 64:
            self.seal()

    @property
    def pending(self) -> bool:
        return bool(self._pending or self._pending_arrays)

    def seal(self) -> int:
        """Close the pending marks into a new chunk; returns the current seq."""
        if not self.pending:
            return self.seq
        parts = self._pending_arrays + [np.asarray(self._pending, dtype=np.int64)]
        chunk = np.unique(np.concatenate(parts))
        self._pending, self._pending_arrays = [], []
        return self._append_chunk(chunk)

    def _append_chunk(self, chunk: np.ndarray) -> int:
        """Chunk ``seq + 1`` (sorted, unique slots); older chunks past ``limit`` go."""
        self.seq += 1
        self._chunks.append((self.seq, chunk))
        self._logged += chunk.size
        while self._logged > self.limit and len(self._chunks) > 1:
            seq, old = self._chunks.pop(0)
            self._logged -= old.size
            self.first = seq
        return self.seq

    def since(self, seq: int) -> np.ndarray | None:
        """Slots marked after chunk ``seq`` (sorted, unique); None if that history is gone
        or ``seq`` is ahead of the log."""
        if seq < self.first or seq > self.seq:
            return None
        parts = [c for s, c in self._chunks if s > seq]
        if not parts:
            return np.zeros(0, dtype=np.int64)
        return parts[0] if len(parts) == 1 else np.unique(np.concatenate(parts))

    def pending_slots(self) -> np.ndarray:
        """The marks not sealed into a chunk yet (read only; usually empty between ticks)."""
        if not self.pending:
            return np.zeros(0, dtype=np.int64)
        return np.unique(np.concatenate(
            self._pending_arrays + [np.asarray(self._pending, dtype=np.int64)]))

    def end_tick(self) -> None:
        """The simulation's step at the end of every tick: seal, and keep where this tick's
        chunks start (``tick_start``: what a per-frame snapshot packs)."""
        start = self.tick_end
        self.seal()
        self.tick_start, self.tick_end = start, self.seq
        self.ticks += 1


# ---------------------------------------------------------------------------------------
# The emitter table: one row per emitter (the pool's emitter row), read and written by the
# Python reference path through ParticleEmitter's properties and by the compiled kernel
# (viewer.sim.particle_kernel) directly.
# ---------------------------------------------------------------------------------------
# float64 columns (``ParticlePool.ef``)
F_LAST_UPDATE, F_LAST_EMIT, F_CREATION, F_CYPT, F_DEGRADE = 0, 1, 2, 3, 4
F_LEO = 5            # last_emit_offset (3): the emitter origin at the last emission
F_PO = 8             # the current parent frame origin (3) ...
F_PQ = 11            # ... and rotation (4)
F_HO = 15            # the hook offset origin (3)
F_NEXT_DEATH = 18    # the earliest death time of a live slot (inf: none)
F_BIRTHRATE, F_TOTAL_SECONDS, F_LIFESPAN, F_LIFESPAN_RAND = 19, 20, 21, 22
F_OFFSET_DIR, F_MIN_OFFSET, F_MAX_OFFSET = 23, 26, 27
F_A, F_MIN_A, F_MAX_A = 28, 31, 32
F_B, F_MIN_B, F_MAX_B = 33, 36, 37
F_C, F_MIN_C, F_MAX_C = 38, 41, 42
F_START_SCALE, F_FINAL_SCALE, F_SCALE_RAND = 43, 44, 45
F_START_TRANS, F_FINAL_TRANS, F_TRANS_RAND = 46, 47, 48
EF_WIDTH = 49
# int64 columns (``ParticlePool.ei``)
I_NUM, I_TOTAL_EMITTED, I_STOPPED, I_DEGRADED, I_PERSISTENT = 0, 1, 2, 3, 4
I_MAX = 5            # slots (max(0, MaxParticles))
I_INFO_MAX = 6       # MaxParticles as the info has it (ShouldEmitParticle compares with it)
I_TOTAL_PARTICLES, I_ETYPE, I_PTYPE = 7, 8, 9
I_BASE = 10          # the emitter's first entry in slot_idx / slot_death
I_HINT = 11          # no free slot below this one
EI_WIDTH = 12
# the columns both update paths keep alike (F_NEXT_DEATH and I_HINT are the kernel's own
# bookkeeping, like slot_death)
EMITTER_TABLE_STATE = ([c for c in range(EF_WIDTH) if c != F_NEXT_DEATH],
                       [c for c in range(EI_WIDTH) if c != I_HINT])


# ---------------------------------------------------------------------------------------
# The pool
# ---------------------------------------------------------------------------------------
class ParticlePool:
    """Numpy arrays for every particle of every emitter, plus per-emitter rows.

    Particle arrays (index = pool index): ``alive``, ``emitter`` (emitter row), ``slot``
    (the emitter's slot number), ``ptype``, ``birth``, ``acc``, ``lifespan``,
    ``start_origin``/``start_quat`` (the parent frame at birth), ``offset``, ``a``, ``b``,
    ``c``, ``start_scale``, ``final_scale``, ``start_trans``, ``final_trans``.
    After ``evaluate()``: ``position`` (N,3), ``orientation`` (N,4), ``scale``, ``trans``,
    ``lifetime`` for the live rows.

    Emitter rows: ``row_emitter[row]`` is the ParticleEmitter; ``em_time`` its last visible
    update (PhysicsTimer), ``em_origin``/``em_quat`` the parent frame then; ``ef``/``ei``
    the emitter table (the F_*/I_* columns); ``slot_idx``/``slot_death`` each emitter's
    slots (pool index or -1, death time) from its ``I_BASE``.

    Free pool indices are a stack (``free_stack[:free_n]``, the next one on top); growing
    puts the new indices beneath the free ones, so an allocation order never depends on when
    the pool grew (the compiled path grows before a batch of births).

    ``kernel``: this pool's emitters are updated by the compiled kernel (else by the Python
    reference methods); ``auto_kernel``: switch once busy (``switch_when_busy``).
    """

    def __init__(self, capacity: int = 256, emitter_capacity: int = 64) -> None:
        mode = kernel_mode()
        self.eval_mode = mode
        self.kernel = mode == "1"
        self.auto_kernel = mode == "auto"
        self.capacity = 0
        self.free_stack = np.zeros(0, dtype=np.int64)
        self.free_n = 0
        self._alloc_particles(capacity)
        self.row_emitter: list[ParticleEmitter | None] = []
        self._free_rows: list[int] = []
        self.row_live = np.zeros(emitter_capacity, dtype=bool)  # a row with an emitter
        self.ef = np.zeros((emitter_capacity, EF_WIDTH))
        self.ei = np.zeros((emitter_capacity, EI_WIDTH), dtype=np.int64)
        self.slot_idx = np.full(256, -1, dtype=np.int64)
        self.slot_death = np.full(256, np.inf)
        self._slot_top = 0
        self._free_segments: dict[int, list[int]] = {}
        self._dirty_buf = np.zeros(256, dtype=np.int64)
        self.em_time = np.zeros(emitter_capacity)
        self.em_origin = np.zeros((emitter_capacity, 3))
        self.em_quat = np.tile(np.array([1.0, 0.0, 0.0, 0.0]), (emitter_capacity, 1))
        self.em_parent_local = np.zeros(emitter_capacity, dtype=bool)
        # what the renderer reads per emitter row, kept current where the sim changes it so
        # drawing never walks the emitters in Python: the particle GfxObj, the emitter
        # object's origin, and whether its particles are drawn (not NoDraw while culled)
        self.row_gfx = np.zeros(emitter_capacity, dtype=np.uint32)
        self.row_origin = np.zeros((emitter_capacity, 3))
        self.row_drawn = np.zeros(emitter_capacity, dtype=bool)
        self.live_count = 0
        self.version = 0
        self._evaluated = -1
        self.dirty = DirtySlots(limit=max(4096, self.capacity))
        self._queue: list = []

    # -- particles ---------------------------------------------------------------------
    # Birth state: one float64 row per particle (a birth is a single row write); the named
    # fields are column views of it.
    COLUMNS: ClassVar[dict] = {"birth": 0, "acc": 1, "lifespan": 2,
                               "start_origin": slice(3, 6), "offset": slice(6, 9),
                               "a": slice(9, 12), "b": slice(12, 15), "c": slice(15, 18),
                               "start_quat": slice(18, 22), "start_scale": 22,
                               "final_scale": 23, "start_trans": 24, "final_trans": 25}
    WIDTH = 26

    def _alloc_particles(self, capacity: int) -> None:
        old = self.capacity

        def grow(name, shape, dtype=np.float64, fill=0.0):
            arr = np.full((capacity,) + shape, fill, dtype=dtype)
            if old:
                arr[:old] = getattr(self, name)
            setattr(self, name, arr)
        grow("alive", (), bool, False)
        grow("emitter", (), np.int32, -1)
        grow("slot", (), np.int32, -1)
        grow("ptype", (), np.int16, 0)
        grow("state", (self.WIDTH,))
        for name in ("scale", "trans", "lifetime"):
            grow(name, ())
        grow("position", (3,))
        grow("orientation", (4,))
        self.state[old:, 18] = 1.0  # start_quat w
        self.orientation[old:, 0] = 1.0
        self._make_views()
        # new indices beneath the free ones, popped lowest first once those are used
        stack = np.empty(capacity, dtype=np.int64)
        grown = capacity - old
        stack[:grown] = np.arange(capacity - 1, old - 1, -1)
        stack[grown:grown + self.free_n] = self.free_stack[:self.free_n]
        self.free_stack = stack
        self.free_n += grown
        self.capacity = capacity
        if hasattr(self, "dirty"):
            self.dirty.limit = max(4096, capacity)

    def _make_views(self) -> None:
        for name, col in self.COLUMNS.items():
            setattr(self, name, self.state[:, col])

    # a copy (deepcopy, pickle) must rebuild the column views over ITS state array
    def __getstate__(self) -> dict:
        d = self.__dict__.copy()
        for name in self.COLUMNS:
            d.pop(name, None)
        d.pop("dirty", None)
        return d

    def __setstate__(self, d: dict) -> None:
        d.setdefault("_queue", [])
        self.__dict__.update(d)
        self._make_views()
        # a new pool object: a new dirty-log serial whose first chunk is every live slot
        self.dirty = DirtySlots(np.flatnonzero(self.alive), limit=max(4096, self.capacity))

    def nbytes(self) -> int:
        """The bytes of the pool's tables (what a copy of the pool moves)."""
        return sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))

    def presize(self, capacity: int) -> None:
        """Grow at once to the doubling step at or above ``capacity`` (nothing when the pool
        is that large already). Where growth happens never changes which index a particle
        gets (new indices go beneath the free ones)."""
        size = self.capacity
        while size < capacity:
            size = max(256, size * 2)
        if size > self.capacity:
            if self._queue:
                self.flush()
            self._alloc_particles(size)

    def reserve(self, n: int) -> None:
        """At least ``n`` free indices (grown as ``allocate`` would grow when empty)."""
        if self._queue:
            self.flush()
        while self.free_n < n:
            self._alloc_particles(max(256, self.capacity * 2))

    def allocate(self) -> int:
        if self._queue:
            self.flush()
        if not self.free_n:
            self._alloc_particles(max(256, self.capacity * 2))
        self.free_n -= 1
        idx = int(self.free_stack[self.free_n])
        self.alive[idx] = True
        # a new particle's part starts unrotated: the non-GR laws never write a rotation,
        # so the slot must not keep its previous occupant's
        self.orientation[idx] = IDENTITY_Q
        self.live_count += 1
        self.version += 1
        self.dirty.mark(idx)
        return idx

    def release(self, idx: int) -> None:
        if self._queue:
            self.flush()
        self.alive[idx] = False
        self.emitter[idx] = -1
        self.free_stack[self.free_n] = idx
        self.free_n += 1
        self.live_count -= 1
        self.version += 1
        self.dirty.mark(idx)

    def release_many(self, idxs) -> None:
        if self._queue:
            self.flush()
        arr = np.asarray(idxs, dtype=np.int64).ravel()
        if not arr.size:
            return
        self.alive[arr] = False
        self.emitter[arr] = -1
        self.free_stack[self.free_n:self.free_n + arr.size] = arr
        self.free_n += arr.size
        self.live_count -= arr.size
        self.version += 1
        self.dirty.mark_many(arr)

    # -- emitter rows -------------------------------------------------------------------
    def add_row(self, emitter) -> int:
        """A row for a new emitter: what the renderer reads (``init_emitter_row`` then
        fills a ParticleEmitter's table row)."""
        if self._queue:
            self.flush()  # a finished emitter's row is free again before the next one
        if self._free_rows:
            row = self._free_rows.pop()
            self.row_emitter[row] = emitter
        else:
            row = len(self.row_emitter)
            self.row_emitter.append(emitter)
            if row >= len(self.em_time):
                n = len(self.em_time) * 2
                self.em_time = np.resize(self.em_time, n)
                self.em_origin = np.resize(self.em_origin, (n, 3))
                self.em_quat = np.resize(self.em_quat, (n, 4))
                self.em_parent_local = np.resize(self.em_parent_local, n)
                self.row_gfx = np.resize(self.row_gfx, n)
                self.row_origin = np.resize(self.row_origin, (n, 3))
                self.row_drawn = np.resize(self.row_drawn, n)
                self.row_live = np.resize(self.row_live, n)
                self.ef = np.resize(self.ef, (n, EF_WIDTH))
                self.ei = np.resize(self.ei, (n, EI_WIDTH))
        info = emitter.info
        self.em_parent_local[row] = bool(info.is_parent_local)
        self.row_gfx[row] = int(info.hw_gfxobj_id)
        self.row_origin[row] = emitter.frame.origin
        self.row_drawn[row] = not emitter.nodraw
        self.row_live[row] = True
        self.ei[row] = 0
        self.ei[row, I_BASE] = -1  # no slots
        return row

    def init_emitter_row(self, row: int, emitter: ParticleEmitter, timer_now: float,
                         degrade_distance: float) -> None:
        """The table row of a new emitter (ParticleEmitter::ParticleEmitter 0x0051C7E0 and
        SetInfo 0x0051CE90): its info, its constructor state and its slots."""
        info = emitter.info
        ef = self.ef[row]
        ef[:] = 0.0
        ef[[F_LAST_UPDATE, F_LAST_EMIT, F_CREATION]] = timer_now
        ef[F_CYPT] = FLT_MAX
        ef[F_DEGRADE] = degrade_distance
        ef[F_PO:F_PO + 3] = emitter.parent_frame.origin
        ef[F_PQ:F_PQ + 4] = emitter.parent_frame.orientation
        ef[F_HO:F_HO + 3] = emitter.parent_offset.origin  # its rotation is never used
        ef[F_NEXT_DEATH] = np.inf
        ef[F_BIRTHRATE] = float(info.birthrate)
        ef[F_TOTAL_SECONDS] = float(info.total_seconds)
        ef[F_LIFESPAN] = float(info.lifespan)
        ef[F_LIFESPAN_RAND] = float(info.lifespan_rand)
        ef[F_OFFSET_DIR:F_OFFSET_DIR + 3] = _vec(info.offset_dir)
        ef[F_MIN_OFFSET], ef[F_MAX_OFFSET] = float(info.min_offset), float(info.max_offset)
        for col, vec, lo, hi in ((F_A, info.a, info.min_a, info.max_a),
                                 (F_B, info.b, info.min_b, info.max_b),
                                 (F_C, info.c, info.min_c, info.max_c)):
            ef[col:col + 3] = _vec(vec)
            ef[col + 3], ef[col + 4] = float(lo), float(hi)
        ef[F_START_SCALE] = float(info.start_scale)
        ef[F_FINAL_SCALE] = float(info.final_scale)
        ef[F_SCALE_RAND] = float(info.scale_rand)
        ef[F_START_TRANS] = float(info.start_trans)
        ef[F_FINAL_TRANS] = float(info.final_trans)
        ef[F_TRANS_RAND] = float(info.trans_rand)
        ei = self.ei[row]
        ei[:] = 0
        ei[I_PERSISTENT] = emitter.persistent
        ei[I_MAX] = emitter.max_particles
        ei[I_INFO_MAX] = int(info.max_particles)
        ei[I_TOTAL_PARTICLES] = int(info.total_particles)
        ei[I_ETYPE] = int(info.emitter_type)
        ei[I_PTYPE] = emitter.ptype
        ei[I_BASE] = self._alloc_slots(emitter.max_particles)

    def _alloc_slots(self, n: int) -> int:
        """``n`` consecutive entries of slot_idx / slot_death (all free); a freed run of the
        same length is reused."""
        runs = self._free_segments.get(n)
        if runs:
            base = runs.pop()
        else:
            base = self._slot_top
            if base + n > len(self.slot_idx):
                size = max(2 * len(self.slot_idx), base + n)
                self.slot_idx = np.concatenate(
                    (self.slot_idx, np.full(size - len(self.slot_idx), -1, dtype=np.int64)))
                self.slot_death = np.concatenate(
                    (self.slot_death, np.full(size - len(self.slot_death), np.inf)))
            self._slot_top = base + n
        self.slot_idx[base:base + n] = -1
        self.slot_death[base:base + n] = np.inf
        return base

    def remove_row(self, row: int) -> None:
        if self._queue:
            self.flush()
        self.row_emitter[row] = None
        self.row_drawn[row] = False
        self.row_live[row] = False
        self._free_rows.append(row)
        if self.ei[row, I_BASE] >= 0:
            self._free_segments.setdefault(int(self.ei[row, I_MAX]), []).append(
                int(self.ei[row, I_BASE]))
            self.ei[row, I_BASE] = -1
        self.version += 1

    def switch_when_busy(self, births: int = 0) -> None:
        """``auto``: take the compiled path once the pool is busy: KERNEL_MIN_EMITTERS
        emitters, or KERNEL_MIN_LIVE live particles counting ``births`` about to come.
        Asked before each manager's update and before each emitter's InitialParticles
        births, so a scene that starts with many births (the stress scene: 500 emitters x
        200 at t = 0, on every loop) makes them compiled rather than one Python call each
        (~100,000 births: seconds)."""
        if self.auto_kernel and not self.kernel and (
                self.emitter_count >= KERNEL_MIN_EMITTERS
                or self.live_count + births >= KERNEL_MIN_LIVE):
            self.use_kernel(True)

    def use_kernel(self, on: bool) -> None:
        """Switch the emitter update path. Both keep each live slot's death time in
        slot_death; the Python path also has each emitter's heaps (free slots, deaths), the
        kernel a first-free-slot hint and the next death time per emitter. A switch builds
        the other side's from the slot table: the same slots and times either way."""
        on = bool(on)
        if on == self.kernel:
            return
        self.flush()
        self.kernel = on
        for em in self.row_emitter:
            if not isinstance(em, ParticleEmitter):
                continue
            if on:
                self.ei[em.row, I_HINT] = 0
                self.ef[em.row, F_NEXT_DEATH] = -np.inf  # the next update scans
                del em._deaths, em._free_slots
            else:
                base = int(self.ei[em.row, I_BASE])
                slots = em.slots
                live = np.flatnonzero(slots >= 0)
                em._deaths = list(zip(self.slot_death[base + live].tolist(), live.tolist(),
                                      slots[live].tolist()))
                heapq.heapify(em._deaths)
                em._free_slots = np.flatnonzero(slots < 0).tolist()  # ascending: a heap

    # -- the compiled update: one call per tick ---------------------------------------------
    # While ``defer`` is set (World.tick's object loops, on the compiled path) a manager's
    # UpdateParticles is queued (``_queue``: manager, its rows, times), and the queue runs
    # as ONE compiled call (``flush``) before anything could tell: the next draw of the
    # random source (``RetailRandom.set_barrier``), the next event (World.emit), any
    # particle allocated or released, any emitter row added or removed, and any call on a
    # queued manager (its emitters, frames, stop, destroy, another update). Each queued
    # update touches only its own emitters' rows, the particle slots and the random
    # source, so in between nothing else reads what it writes: the same run bit for bit,
    # as if each had run when queued.
    defer = False

    def queue_update(self, manager: ParticleManager, entry: tuple, rng,
                     physics_time: float, timer_now: float) -> None:
        queue = self._queue
        if queue and queue[0][2] is not rng:
            self.flush()
        if not queue:
            rng.set_barrier(self.flush)
        queue.append((manager, entry, rng, physics_time, timer_now))
        manager._queued = self
        if not self.defer:
            self.flush()

    def flush(self) -> None:
        """Run the queued managers' updates (in queue order, one compiled call), then their
        finished emitters' removals and events in the same order."""
        queue = self._queue
        if not queue:
            return
        self._queue = []
        rng = queue[0][2]
        rng._barrier = None
        if len(queue) == 1:
            manager, entry, _, pt, now = queue[0]
            manager._queued = None
            rows, marks = entry[1], entry[2]
            n = len(rows)
            pts, nows = np.full(n, pt), np.full(n, now)
        else:
            for e in queue:
                e[0]._queued = None
            entries = [e[1] for e in queue]
            counts = [len(e[1]) for e in entries]
            rows = np.concatenate([e[1] for e in entries])
            marks = sum(e[2] for e in entries)
            pts = np.repeat(np.array([e[3] for e in queue]), counts)
            nows = np.repeat(np.array([e[4] for e in queue]), counts)
        result = np.empty(len(rows), dtype=np.bool_)
        if not self.update_rows(rows, rng, pts, nows, marks, result, destroy=True):
            return
        # the finished emitters: removed from their manager, reported, their rows freed
        # (their particles are already freed, where the manager's walk frees them)
        start = 0
        for manager, entry, _, _, _ in queue:
            n = len(entry[1])
            part = result[start:start + n]
            start += n
            if part.all():
                continue
            order = entry[0]
            for k in np.flatnonzero(~part).tolist():
                eid, em = order[k]
                manager._remove(eid)
                manager._event("finished", em, eid, em.info_did, em.part_index)
                em._retire()

    def update_rows(self, rows: np.ndarray, rng, pts: np.ndarray, nows: np.ndarray,
                    marks: int, result: np.ndarray, destroy: bool) -> int:
        """The compiled UpdateParticles of the emitters in ``rows`` (in that order, row
        ``k`` at PhysicsTimer ``pts[k]`` and Timer ``nows[k]``): each one's answer into
        ``result``; returns how many answered false. ``marks``: at least the rows plus
        their slots. ``destroy``: an emitter answering false has its particles freed at
        once (the manager's walk)."""
        if self.free_n < len(rows):
            self.reserve(len(rows))  # at most one birth per emitter update
        dirty = self._dirty_buf
        if len(dirty) < marks:
            dirty = self.dirty_buffer(marks)
        self.free_n, n_dirty, births, deaths, finished, _ = (_KERNEL or kernel()).update_rows(
            rows, pts, nows, rng.kernel_state(), self.ef, self.ei,
            self.em_time, self.em_origin, self.em_quat, self.row_origin, self.row_drawn,
            self.slot_idx, self.slot_death, self.state, self.alive, self.emitter, self.slot,
            self.ptype, self.orientation, self.free_stack, self.free_n, dirty, result, destroy)
        self.live_count += births - deaths
        self.version += 1
        if n_dirty:
            self.dirty.mark_array(dirty[:n_dirty].copy())
        return finished

    def dirty_buffer(self, n: int) -> np.ndarray:
        """Scratch room for ``n`` slot marks of one compiled call."""
        if len(self._dirty_buf) < n:
            self._dirty_buf = np.zeros(max(n, 2 * len(self._dirty_buf)), dtype=np.int64)
        return self._dirty_buf

    @property
    def emitter_count(self) -> int:
        return len(self.row_emitter) - len(self._free_rows)

    # -- evaluation -----------------------------------------------------------------------
    def evaluate(self, force: bool = False) -> np.ndarray:
        """Compute position/orientation/scale/trans/lifetime of every live particle at its
        emitter's last visible update. Returns the live pool indices (ascending)."""
        if self._queue:
            self.flush()
        live = np.flatnonzero(self.alive)
        self._live = live
        if not force and self._evaluated == self.version:
            return live
        self._evaluate(live)
        self._evaluated = self.version
        return live

    def evaluate_rows(self, idx) -> None:
        """Evaluate only pool indices ``idx`` (live ones): what an inspector or a picked
        particle needs when the renderer evaluates on the GPU. O(len(idx))."""
        if self._queue:
            self.flush()
        idx = np.asarray(idx, dtype=np.int64)
        if self._evaluated != self.version and idx.size:
            self._evaluate(idx)

    def _evaluate(self, live: np.ndarray) -> None:
        if live.size == 0:
            return
        if use_eval_kernel(self.eval_mode, live.size):
            eval_kernel().evaluate(self, live)
            settle_compiled("evaluate")
        else:
            self._evaluate_numpy(live)

    def _evaluate_numpy(self, live: np.ndarray) -> None:
        """The reference evaluation, vectorised over the rows of each ParticleType."""
        rows = self.emitter[live]
        head = self.state[live, 0:3]  # birth, acc, lifespan
        t = head[:, 1] + self.em_time[rows] - head[:, 0]
        self.lifetime[live] = t
        types = self.ptype[live]
        counts = np.bincount(types)
        for ptype in np.flatnonzero(counts):
            if counts[ptype] == live.size:
                sel, ts, rs = live, t, rows
            else:
                m = types == ptype
                sel, ts, rs = live[m], t[m], rows[m]
            gr = int(ptype) in GR_TYPES
            S = self.state[sel, 3:22 if gr else 18]  # one gather of the needed columns
            P = S[:, 0:3]
            Q = S[:, 15:19] if gr else None
            local = self.em_parent_local[rs]
            if local.any():  # parent-local: the parent's frame at the last update
                P[local] = self.em_origin[rs[local]]
                if gr:
                    Q[local] = self.em_quat[rs[local]]
            pos, rot = particle_law(int(ptype), ts, P, Q, S[:, 3:6], S[:, 6:9], S[:, 9:12],
                                    S[:, 12:15])
            if pos is not None:
                self.position[sel] = pos
            if rot is not None:
                self.orientation[sel] = rot
        span = head[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            f = np.where(t < span, t / np.where(span == 0.0, 1.0, span), 1.0)
        st = self.state[live, 22:26]  # start/final scale, start/final trans
        self.scale[live] = st[:, 0] + (st[:, 1] - st[:, 0]) * f
        self.trans[live] = st[:, 2] + (st[:, 3] - st[:, 2]) * f

    def mark_dirty(self) -> None:
        self.version += 1


# ---------------------------------------------------------------------------------------
# ParticleEmitter
# ---------------------------------------------------------------------------------------
def _clamp(v: float, lo: float, hi: float) -> float:
    return lo if v < lo else (min(v, hi))


def _vec(v) -> tuple[float, float, float]:
    return (float(v[0]), float(v[1]), float(v[2]))


class _Column:
    """A ParticleEmitter attribute kept in its row of the pool's emitter table (so the
    compiled update reads and writes it); after the emitter is destroyed (row -1) it reads
    the values it had then."""

    def __init__(self, table: str, col: int, kind) -> None:
        self.table, self.col, self.kind = table, col, kind

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, em, owner=None):
        if em is None:
            return self
        row = em.row
        if row < 0:
            return em._detached[self.name]
        return self.kind(getattr(em.pool, self.table)[row, self.col])

    def __set__(self, em, value) -> None:
        if em.row < 0:
            em._detached[self.name] = self.kind(value)
        else:
            getattr(em.pool, self.table)[em.row, self.col] = value


class ParticleEmitter:
    """ParticleEmitter. ``frame`` is the emitter object's world frame
    (the parent frame combined with the hook offset): it decides BirthratePerMeter distance
    and the viewer distance ``cypt``. ``parent_frame`` is the owner root (part -1) or the
    part's current world frame; particles are born in it.

    The mutable state (times, counts, flags, cypt, slots) lives in the pool's emitter table
    row ``row``; the attributes below read and write it."""

    # ParticleEmitter::ParticleEmitter 0x0051C7E0 sets these (ParticlePool.add_row)
    last_update_time = _Column("ef", F_LAST_UPDATE, float)
    last_emit_time = _Column("ef", F_LAST_EMIT, float)
    creation_time = _Column("ef", F_CREATION, float)
    cypt = _Column("ef", F_CYPT, float)
    degrade_distance = _Column("ef", F_DEGRADE, float)
    num_particles = _Column("ei", I_NUM, int)
    total_emitted = _Column("ei", I_TOTAL_EMITTED, int)
    stopped = _Column("ei", I_STOPPED, bool)
    _DETACHED = ("last_update_time", "last_emit_time", "creation_time", "cypt",
                 "degrade_distance", "num_particles", "total_emitted", "stopped",
                 "degraded_out", "last_emit_offset")

    def __init__(self, pool: ParticlePool, info, info_did: int, owner_id: int,
                 part_index: int, offset: Frame, logical_id: int, handle: int,
                 timer_now: float, degrade_distance: float) -> None:
        self.pool = pool
        self.info = info
        self.info_did = info_did
        self.owner_id = owner_id
        self.part_index = part_index
        self.parent_offset = offset
        self.logical_id = logical_id
        self.handle = handle
        self.persistent = (int(info.total_particles) == 0 and float(info.total_seconds) == 0.0)
        self.max_particles = max(0, int(info.max_particles))
        self.ptype = int(info.particle_type)
        self.row = -1
        self._detached: dict = {"degraded_out": False}  # until it has its row
        self._frame = Frame()
        self._parent_frame = Frame()
        self._placed = False
        if not pool.kernel:  # the Python reference path's heaps
            self._free_slots: list[int] = list(range(self.max_particles))
            self._deaths: list[tuple[float, int, int]] = []  # (death time, slot, pool index)
        # the table row: the constructor's times (timer_now), no particles, not stopped,
        # cypt FLT_MAX (CPhysicsObj::CPhysicsObj 0x005123F0), the emitter
        # object's origin before parenting (0,0,0) as the last emission offset (SetInfo
        # 0x0051CE90)
        row = pool.add_row(self)
        pool.init_emitter_row(row, self, timer_now, degrade_distance)
        self.row = row

    # -- attachment (CPhysicsObj::UpdateChild 0x00512D50) --------------------------------
    def set_parent_frame(self, parent: Frame) -> None:
        if parent == self._parent_frame and self._placed:
            return  # unchanged pose: the emitter frame is still valid
        self._placed = True
        self.parent_frame = parent
        self.frame = parent.combine(self.parent_offset)

    # The emitter object's origin, its NoDraw-while-culled flag and the parent frame are
    # mirrored into the pool's row tables as they change, so neither the renderer nor the
    # compiled update walks the emitters.
    @property
    def frame(self) -> Frame:
        return self._frame

    @frame.setter
    def frame(self, value: Frame) -> None:
        self._frame = value
        if self.row >= 0:
            self.pool.row_origin[self.row] = value.origin

    @property
    def parent_frame(self) -> Frame:
        return self._parent_frame

    @parent_frame.setter
    def parent_frame(self, value: Frame) -> None:
        self._parent_frame = value
        if self.row >= 0:
            ef = self.pool.ef[self.row]
            ef[F_PO:F_PO + 3] = value.origin
            ef[F_PQ:F_PQ + 4] = value.orientation

    @property
    def degraded_out(self) -> bool:
        if self.row < 0:
            return self._detached["degraded_out"]
        return bool(self.pool.ei[self.row, I_DEGRADED])

    @degraded_out.setter
    def degraded_out(self, value: bool) -> None:
        if self.row < 0:
            self._detached["degraded_out"] = bool(value)
            return
        self.pool.ei[self.row, I_DEGRADED] = bool(value)
        self.pool.row_drawn[self.row] = not value

    @property
    def last_emit_offset(self) -> tuple[float, float, float]:
        if self.row < 0:
            return self._detached["last_emit_offset"]
        return tuple(self.pool.ef[self.row, F_LEO:F_LEO + 3].tolist())

    @last_emit_offset.setter
    def last_emit_offset(self, value) -> None:
        if self.row < 0:
            self._detached["last_emit_offset"] = tuple(value)
        else:
            self.pool.ef[self.row, F_LEO:F_LEO + 3] = value

    @property
    def slots(self):
        """slot -> pool index (-1: free): a view of the emitter's slot table."""
        if self.row < 0:
            return np.full(self.max_particles, -1, dtype=np.int64)
        base = int(self.pool.ei[self.row, I_BASE])
        return self.pool.slot_idx[base:base + self.max_particles]

    @property
    def nodraw(self) -> bool:
        """SetNoDraw on the emitter object's live parts: hidden while culled."""
        return self.degraded_out

    # -- ShouldEmitParticle ---------------------------------------------------------------
    def should_emit(self, timer_now: float) -> bool:
        """ParticleEmitter::ShouldEmitParticle 0x0051C8B0 / ParticleEmitterInfo 0x00517420."""
        info = self.info
        total = int(info.total_particles)
        if not ((total <= 0 or self.total_emitted < total)
                and self.num_particles < int(info.max_particles)):
            return False
        etype = int(info.emitter_type)
        if etype & 1:  # BirthratePerSec: Timer.cur_time, strict
            return timer_now - self.last_emit_time > float(info.birthrate)
        if etype & 2:  # BirthratePerMeter: birthrate^2 < |delta|^2 (spec 13.1: GDLE reading)
            o = self.frame.origin
            d = (o[0] - self.last_emit_offset[0], o[1] - self.last_emit_offset[1],
                 o[2] - self.last_emit_offset[2])
            br = float(info.birthrate)
            return br * br < d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
        return False

    def stop_emitter(self, physics_time: float) -> None:
        """ParticleEmitter::StopEmitter 0x0051C230 (negative TotalParticles stops at
        once)."""
        if self.stopped:
            return
        info = self.info
        ts = float(info.total_seconds)
        if ts > 0.0 and self.creation_time + ts < physics_time:
            self.stopped = True
        total = int(info.total_particles)
        if total != 0 and self.total_emitted >= total:
            self.stopped = True

    def record_emission(self, physics_time: float) -> None:
        """RecordParticleEmission 0x0051C870: counts a birth without a particle (a
        phantom: num_particles never comes back down for it)."""
        self.num_particles += 1
        self.total_emitted += 1
        self.last_emit_offset = self.frame.origin
        self.last_emit_time = physics_time

    # -- EmitParticle 0x0051D010 / Particle::Init 0x0051C930 -----------------------------
    def emit(self, rng, physics_time: float) -> int | None:
        if not self._free_slots:
            return None
        slot = heapq.heappop(self._free_slots)
        info = self.info
        # argument evaluation order of EmitParticle (right to left);
        # RollDice(-1, 1) is rand() * 2 - 1 and RollDice(0, 1) is rand(), as 0x0042C600
        rand = rng.rand
        lifespan = max(0.0, (rand() * 2.0 - 1.0) * info.lifespan_rand + info.lifespan)
        final_trans = _clamp((rand() * 2.0 - 1.0) * info.trans_rand + info.final_trans, 0.0, 1.0)
        start_trans = _clamp((rand() * 2.0 - 1.0) * info.trans_rand + info.start_trans, 0.0, 1.0)
        final_scale = _clamp((rand() * 2.0 - 1.0) * info.scale_rand + info.final_scale, 0.1, 10.0)
        start_scale = _clamp((rand() * 2.0 - 1.0) * info.scale_rand + info.start_scale, 0.1, 10.0)
        k = rand() * (info.max_c - info.min_c) + info.min_c
        cv = info.c
        c0 = (cv[0] * k, cv[1] * k, cv[2] * k)
        k = rand() * (info.max_b - info.min_b) + info.min_b
        bv = info.b
        b0 = (bv[0] * k, bv[1] * k, bv[2] * k)
        k = rand() * (info.max_a - info.min_a) + info.min_a
        av = info.a
        a0 = (av[0] * k, av[1] * k, av[2] * k)
        offset0 = self._random_offset(rng)

        pool = self.pool
        idx = pool.allocate()
        parent = self.parent_frame
        q = parent.orientation
        ho = self.parent_offset.origin  # the hook offset's rotation is never used
        offset = quat_rotate(q, (ho[0] + offset0[0], ho[1] + offset0[1], ho[2] + offset0[2]))
        a, b, c = a0, b0, c0
        t = self.ptype
        # Particle::Init: retail's case fall-through per type
        if t in (LOCAL_VELOCITY, PARABOLIC_LVGA, PARABOLIC_LVGAGR, SWARM):
            a = quat_rotate(q, a0)
        elif t == EXPLODE:
            ra = rng.roll_dice(-PI_F32, PI_F32)
            po = rng.roll_dice(-PI_F32, PI_F32)
            cv = (math.cos(ra) * c0[0] * math.cos(po), math.sin(ra) * c0[1] * math.cos(po),
                  math.sin(po) * c0[2])
            n = math.sqrt(cv[0] * cv[0] + cv[1] * cv[1] + cv[2] * cv[2])
            c = (0.0, 0.0, 0.0) if n < EPS else (cv[0] / n, cv[1] / n, cv[2] / n)
        elif t == IMPLODE:
            offset = (offset[0] * c0[0], offset[1] * c0[1], offset[2] * c0[2])
            c = offset
        elif t == PARABOLIC_LVLA:
            a = quat_rotate(q, a0)
            b = quat_rotate(q, b0)
        elif t == PARABOLIC_LVLALR:
            a = quat_rotate(q, a0)
            b = quat_rotate(q, b0)
            c = quat_rotate(q, c0)
        po, pq = parent.origin, q
        pool.state[idx] = (physics_time, 0.0, lifespan, po[0], po[1], po[2],
                           offset[0], offset[1], offset[2], a[0], a[1], a[2],
                           b[0], b[1], b[2], c[0], c[1], c[2], pq[0], pq[1], pq[2], pq[3],
                           start_scale, final_scale, start_trans, final_trans)
        pool.emitter[idx] = self.row
        pool.slot[idx] = slot
        pool.ptype[idx] = t
        self.slots[slot] = idx
        key = physics_time + lifespan
        heapq.heappush(self._deaths, (key, slot, idx))
        pool.slot_death[pool.ei[self.row, I_BASE] + slot] = key  # for a switch to the kernel
        self.num_particles += 1
        self.total_emitted += 1
        self.last_emit_offset = self.frame.origin
        self.last_emit_time = physics_time
        return slot

    def _random_offset(self, rng):
        """GetRandomOffset 0x005174A0: z, y, x draws; project out the (unnormalised)
        offset_dir; small -> zero with no 4th draw."""
        info = self.info
        rz = rng.roll_dice(-1.0, 1.0)
        ry = rng.roll_dice(-1.0, 1.0)
        rx = rng.roll_dice(-1.0, 1.0)
        dx, dy, dz = _vec(info.offset_dir)
        k = dx * rx + dy * ry + dz * rz
        d = (rx - dx * k, ry - dy * k, rz - dz * k)
        n = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
        if n < EPS:
            return (0.0, 0.0, 0.0)
        lo, hi = float(info.min_offset), float(info.max_offset)
        mag = rng.roll_dice(0.0, 1.0) * (hi - lo) + lo
        return (d[0] / n * mag, d[1] / n * mag, d[2] / n * mag)

    # -- deaths -------------------------------------------------------------------------
    def _kill_due(self, physics_time: float) -> None:
        """KillParticle 0x0051C1E0 for every slot whose lifetime reached its lifespan."""
        pool = self.pool
        deaths = self._deaths
        kept = []
        freed = []
        while deaths and deaths[0][0] <= physics_time + 1e-9:
            key, slot, idx = heapq.heappop(deaths)
            if pool.acc[idx] + physics_time - pool.birth[idx] >= pool.lifespan[idx]:
                freed.append(idx)
                self.slots[slot] = -1
                heapq.heappush(self._free_slots, slot)
                self.num_particles -= 1
            else:
                kept.append((key, slot, idx))
        for item in kept:
            heapq.heappush(deaths, item)
        if freed:
            pool.release_many(freed)

    def _freeze_persistent_ages(self, physics_time: float) -> None:
        """ParticleEmitter::UpdateParticles 0x0051D180, culled persistent branch: every
        birthtime := now, lifetimes not advanced (numpy over the slots)."""
        slots = np.asarray(self.slots, dtype=np.int64)
        live_slots = np.flatnonzero(slots >= 0)
        if live_slots.size == 0:
            return
        pool = self.pool
        idx = slots[live_slots]
        tv = pool.em_time[self.row]
        pool.acc[idx] += np.maximum(0.0, tv - pool.birth[idx])
        pool.birth[idx] = physics_time
        death = physics_time - pool.acc[idx] + pool.lifespan[idx]
        self._deaths = list(zip(death.tolist(), live_slots.tolist(), idx.tolist()))
        pool.slot_death[pool.ei[self.row, I_BASE] + live_slots] = death
        heapq.heapify(self._deaths)
        pool.dirty.mark_many(idx)  # re-stamped birth states
        pool.mark_dirty()

    # -- UpdateParticles 0x0051D180 -------------------------------------------------------
    def should_draw(self) -> bool:
        """CPhysicsObj::ShouldDrawParticles 0x0050FE60: CYpt == degrade distance draws."""
        return not (self.cypt > self.degrade_distance)

    def update(self, rng, physics_time: float, timer_now: float) -> bool:
        if self.info is None:
            return False
        if self.pool.kernel:
            self.pool.flush()
            rows = np.array([self.row], dtype=np.int64)
            result = np.empty(1, dtype=np.bool_)
            self.pool.update_rows(rows, rng, np.array([float(physics_time)]),
                                  np.array([float(timer_now)]), self.max_particles + 1,
                                  result, destroy=False)
            return bool(result[0])
        if not self.should_draw():
            if not self.degraded_out:
                self.degraded_out = True  # SetNoDraw(1) on the live parts
            if not self.persistent:
                self.last_update_time = physics_time
                self._kill_due(physics_time)  # ages keep running while culled
                if self.stopped:
                    return self.num_particles != 0
                if self.should_emit(timer_now):
                    self.record_emission(physics_time)
                self.stop_emitter(physics_time)
                return True
            self._freeze_persistent_ages(physics_time)
            self.last_update_time = physics_time
            return True
        if self.degraded_out:
            self.degraded_out = False
        pool = self.pool
        pool.em_time[self.row] = physics_time
        pool.em_origin[self.row] = self.parent_frame.origin
        pool.em_quat[self.row] = self.parent_frame.orientation
        pool.mark_dirty()
        self._kill_due(physics_time)
        result = True
        if self.stopped:
            result = self.num_particles != 0
        else:
            if self.should_emit(timer_now):
                self.emit(rng, physics_time)
            self.stop_emitter(physics_time)
        self.last_update_time = physics_time
        return result

    def init_end(self, rng, physics_time: float, timer_now: float) -> None:
        """ParticleEmitter::InitEnd 0x0051D400: creation time, then InitialParticles births
        that bypass ShouldEmitParticle (a birth without a free slot is dropped uncounted)."""
        self.creation_time = timer_now
        pool = self.pool
        pool.em_time[self.row] = physics_time
        pool.em_origin[self.row] = self.parent_frame.origin
        pool.em_quat[self.row] = self.parent_frame.orientation
        count = max(0, int(self.info.initial_particles))
        if not count:
            return
        pool.switch_when_busy(min(count, self.max_particles))
        if not pool.kernel:
            for _ in range(count):
                self.emit(rng, physics_time)
            return
        k = min(count, self.max_particles)  # no birth without a free slot
        pool.reserve(k)
        dirty = pool.dirty_buffer(k)
        pool.free_n, births = kernel().emit_n(
            self.row, count, float(physics_time), rng.kernel_state(), pool.ef, pool.ei,
            pool.row_origin, pool.slot_idx, pool.slot_death, pool.state, pool.alive,
            pool.emitter, pool.slot, pool.ptype, pool.orientation, pool.free_stack,
            pool.free_n, dirty)
        if births:
            pool.live_count += births
            pool.version += 1
            pool.dirty.mark_many(dirty[:births].copy())

    def destroy(self) -> None:
        """ParticleEmitter::Destroy 0x0051CDB0: every live particle goes at once."""
        if self.row < 0:
            return
        slots = self.slots
        self.pool.release_many(slots[slots >= 0])  # in slot order
        slots[:] = -1
        if not self.pool.kernel:
            self._deaths.clear()
        self.num_particles = 0
        self._retire()

    def _retire(self) -> None:
        """Leave the table: the last values stay readable, the row is freed."""
        self._detached = {name: getattr(self, name) for name in self._DETACHED}
        row, self.row = self.row, -1
        self.pool.remove_row(row)

    def live_slots(self) -> list[tuple[int, int]]:
        """(slot, pool index) of the live particles in slot order."""
        slots = self.slots
        live = np.flatnonzero(slots >= 0)
        return list(zip(live.tolist(), slots[live].tolist()))


# ---------------------------------------------------------------------------------------
# ParticleManager
# ---------------------------------------------------------------------------------------
class ParticleManager:
    """One per owner (created on first use). Storage mirrors retail's LongNIHash with two
    buckets, ``(id ^ id >> 16) % 2``, new entries prepended (LongNIHash::add 0x005198C0);
    UpdateParticles 0x0051B800 walks bucket 0 then 1, newest first.

    On the compiled path an update may be queued (``ParticlePool.queue_update``): while
    ``_queued`` (the pool) is set, every method that reads or changes the emitters runs the
    queue first."""

    _queued = None

    def __init__(self, owner_id: int, emit: Callable[[dict], None]) -> None:
        self.owner_id = owner_id
        self.emit_event = emit
        self.buckets: tuple[list, list] = ([], [])
        self.next_emitter_id = FIRST_AUTO_EMITTER_ID
        self._order = None  # (emitters in update order, rows, dirty marks, pool)
        self._placed_in = None  # (root, part frames) of the last set_parent_frames

    @staticmethod
    def _bucket(emitter_id: int) -> int:
        return ((emitter_id ^ (emitter_id >> 16)) & 0xFFFFFFFF) % 2

    def _settle(self) -> None:
        """Run this manager's queued update (and the rest of the queue) now."""
        if self._queued is not None:
            self._queued.flush()

    def emitters(self) -> list[tuple[int, ParticleEmitter]]:
        self._settle()
        return list(self.buckets[0]) + list(self.buckets[1])

    def __len__(self) -> int:
        self._settle()
        return len(self.buckets[0]) + len(self.buckets[1])

    def find(self, emitter_id: int) -> ParticleEmitter | None:
        self._settle()
        for eid, em in self.buckets[self._bucket(emitter_id)]:
            if eid == emitter_id:
                return em
        return None

    def _remove(self, emitter_id: int) -> ParticleEmitter | None:
        self._settle()
        bucket = self.buckets[self._bucket(emitter_id)]
        for i, (eid, em) in enumerate(bucket):
            if eid == emitter_id:
                del bucket[i]
                self._order = None
                return em
        return None

    def _event(self, action: str, em: ParticleEmitter | None, logical_id: int, info: int,
               part: int, handle=None, **extra) -> None:
        ev = {"event": "emitter", "action": action, "owner": self.owner_id,
              "logical_id": logical_id, "info": info, "part": part,
              "handle": em.handle if em is not None else handle}
        ev.update(extra)
        self.emit_event(ev)

    def add(self, emitter_id: int, emitter: ParticleEmitter) -> int:
        self._settle()
        if emitter_id == 0:
            emitter_id = self.next_emitter_id  # ParticleManager::CreateParticleEmitter 0x0051B6C0
            self.next_emitter_id = (self.next_emitter_id + 1) & 0xFFFFFFFF
        emitter.logical_id = emitter_id
        self.buckets[self._bucket(emitter_id)].insert(0, (emitter_id, emitter))
        self._order = self._placed_in = None
        return emitter_id

    def replace_existing(self, emitter_id: int) -> None:
        """CreateParticleEmitter: a live emitter with the same nonzero id is destroyed first
        (even if the new one then fails)."""
        self._settle()
        if emitter_id == 0:
            return
        old = self._remove(emitter_id)
        if old is not None:
            self._event("replaced", old, emitter_id, old.info_did, old.part_index)
            old.destroy()

    def stop(self, emitter_id: int) -> bool:
        """StopParticleEmitter 0x0051B7B0: 0 or unknown -> no-op."""
        self._settle()
        if emitter_id == 0:
            return False
        em = self.find(emitter_id)
        if em is None:
            return False
        em.stopped = True
        self._event("stopped", em, emitter_id, em.info_did, em.part_index)
        return True

    def destroy(self, emitter_id: int) -> bool:
        """DestroyParticleEmitter 0x0051B770: removed and deleted at once."""
        self._settle()
        if emitter_id == 0:
            return False
        em = self._remove(emitter_id)
        if em is None:
            return False
        self._event("destroyed", em, emitter_id, em.info_did, em.part_index)
        em.destroy()
        return True

    def update_particles(self, rng, physics_time: float, timer_now: float) -> None:
        """ParticleManager::UpdateParticles 0x0051B800: every emitter's UpdateParticles,
        bucket 0 then 1, newest first; one that answers false is removed, reported
        ("finished") and destroyed."""
        entry = self._order
        if entry is not None and self._queued is None:
            pool = entry[3]
            queue = pool._queue
            # a busy tick's path: one more update queued behind the others
            if queue and pool.defer and pool.kernel and queue[-1][2] is rng:
                queue.append((self, entry, rng, float(physics_time), float(timer_now)))
                self._queued = pool
                return
        if self._queued is not None:  # updated twice before the queue ran
            self._queued.flush()
        if not (self.buckets[0] or self.buckets[1]):
            return
        pool = (self.buckets[0] or self.buckets[1])[0][1].pool
        pool.switch_when_busy()
        if pool.kernel:
            self._update_compiled(pool, rng, physics_time, timer_now)
            return
        # the Python reference path (viewer.sim.particle_kernel does the same compiled)
        for b in (0, 1):
            for eid, em in list(self.buckets[b]):
                if not em.update(rng, physics_time, timer_now):
                    self._remove(eid)
                    self._event("finished", em, eid, em.info_did, em.part_index)
                    em.destroy()

    def _update_compiled(self, pool: ParticlePool, rng, physics_time: float,
                         timer_now: float) -> None:
        """The same walk over the emitters' table rows, queued for the pool's compiled call
        (run at once unless the pool defers: ``ParticlePool.flush``); the events and row
        releases of finished emitters follow in the same order (nothing in between reads
        them: the kernel frees their particles where the Python path would)."""
        entry = self._order
        if entry is None:
            order = self.emitters()
            rows = np.array([em.row for _, em in order], dtype=np.int64)
            marks = len(order) + sum(em.max_particles for _, em in order)
            entry = self._order = (order, rows, marks, pool)
        pool.queue_update(self, entry, rng, float(physics_time), float(timer_now))

    def set_parent_frames(self, root: Frame, part_frames: list[Frame]) -> None:
        self._settle()  # a queued update reads the parent frames it was queued with
        # the same root and part frames as last time, and no emitter added since: every
        # emitter already has its parent frame (set_parent_frame would return at once)
        placed = self._placed_in
        if placed is not None and _same_frame(root, placed[0]):
            old = placed[1]
            if len(old) == len(part_frames):
                for a, b in zip(part_frames, old):
                    if not _same_frame(a, b):
                        break
                else:
                    return
        for _, em in self.emitters():
            em.set_parent_frame(parent_frame_for(em.part_index, root, part_frames))
        self._placed_in = (root, list(part_frames))

    def destroy_all(self) -> None:
        """The owner's teardown (CPhysicsObj::destroy_particle_manager 0x00510D50)."""
        self._settle()
        for eid, em in self.emitters():
            self._event("destroyed", em, eid, em.info_did, em.part_index, reason="owner")
            em.destroy()
        self.buckets = ([], [])
        self._order = None


def _same_frame(a: Frame, b: Frame) -> bool:
    """``a == b`` for two Frames (the dataclass' comparison, without its tuples)."""
    return a is b or (a.origin == b.origin and a.orientation == b.orientation)


def parent_frame_for(part_index: int, root: Frame, part_frames: list[Frame]) -> Frame:
    """UpdateChild 0x00512D50: part_index >= num_parts (unsigned, so -1 too) -> the root."""
    if 0 <= part_index < len(part_frames):
        return part_frames[part_index]
    return root


def max_degrade_distance(db, gfxobj_did: int) -> float:
    """CPhysicsPart::GetMaxDegradeDistance 0x0050D510 / get_max_degrade_distance 0x0051E2D0:
    100 without a degrade table; else entries[0].max_dist for <= 2 entries, else
    entries[n-2].max_dist."""
    gfx = db.get(gfxobj_did)
    degrade_did = getattr(gfx, "did_degrade", None)
    if not degrade_did:
        return DEFAULT_DEGRADE_DISTANCE
    info = db.get(degrade_did)
    entries = getattr(info, "degrades", ())
    if not entries:
        return DEFAULT_DEGRADE_DISTANCE
    if len(entries) <= 2:
        return float(entries[0].max_dist)
    return float(entries[-2].max_dist)
