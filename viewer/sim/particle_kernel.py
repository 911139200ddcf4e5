"""The compiled emitter update: ``ParticleManager::UpdateParticles`` 0x0051B800 for one
manager's emitters in one call (numba), over the pool's emitter table.

The Python methods of ``ParticleEmitter`` (``update``, ``emit``, ``_kill_due``,
``should_emit``, ``stop_emitter``, ``_freeze_persistent_ages``) are the reference; these
functions do the same per emitter, in the same order, with the same floating-point
operations in the same order, so a run gives the same random draws, the same pool slots and
the same birth states bit for bit (a parity test runs both). The random source is passed as
``RetailRandom.kernel_state()`` (seed, idum2, iy, draws, the 32-entry table).

numba compiles the sequential parts numpy cannot vectorise: the ran2 stream (each draw
depends on the last) and Particle::Init per birth. Compiled once per process on first use
(``viewer.sim.particles`` imports this module lazily), cached on disk where a cache folder is
writable, compiled in memory otherwise.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from viewer.sim.frame import quat_rotate
from viewer.sim.particles import (
    EPS,
    EXPLODE,
    F_A,
    F_B,
    F_BIRTHRATE,
    F_C,
    F_CREATION,
    F_CYPT,
    F_DEGRADE,
    F_FINAL_SCALE,
    F_FINAL_TRANS,
    F_HO,
    F_LAST_EMIT,
    F_LAST_UPDATE,
    F_LEO,
    F_LIFESPAN,
    F_LIFESPAN_RAND,
    F_MAX_A,
    F_MAX_B,
    F_MAX_C,
    F_MAX_OFFSET,
    F_MIN_A,
    F_MIN_B,
    F_MIN_C,
    F_MIN_OFFSET,
    F_NEXT_DEATH,
    F_OFFSET_DIR,
    F_PO,
    F_PQ,
    F_SCALE_RAND,
    F_START_SCALE,
    F_START_TRANS,
    F_TOTAL_SECONDS,
    F_TRANS_RAND,
    I_BASE,
    I_DEGRADED,
    I_ETYPE,
    I_HINT,
    I_INFO_MAX,
    I_MAX,
    I_NUM,
    I_PERSISTENT,
    I_PTYPE,
    I_STOPPED,
    I_TOTAL_EMITTED,
    I_TOTAL_PARTICLES,
    IMPLODE,
    LOCAL_VELOCITY,
    PARABOLIC_LVGA,
    PARABOLIC_LVGAGR,
    PARABOLIC_LVLA,
    PARABOLIC_LVLALR,
    PI_F32,
    SWARM,
)

INF = math.inf


def _jit(fn):
    """``njit(cache=True)``, or without the disk cache where numba finds no writable cache
    folder (an installed package in a read-only site-packages and no user cache)."""
    try:
        return numba.njit(cache=True)(fn)
    except RuntimeError:
        return numba.njit(cache=False)(fn)


# -- Random::rand 0x0042C4C0 (ran2), the state as int64[36] ---------------------------------
# The Schrage steps of RetailRandom.rand, a*s - m*(s // q) (+m when negative), are (a*s) mod m
# exactly for 0 < s < m (r = m - a*q < q); 0 < s < m always holds (a prime modulus and
# seeds in range), and iy >= 1, so unsigned 64-bit arithmetic gives the same numbers with
# the divisions by constants as plain multiply-shifts (no floor-division sign fix-ups): this
# chain is most of an emitter update's time.
_U = np.uint64


@_jit
def _rand(r):
    s = (_U(40014) * _U(r[0])) % _U(2147483563)
    v = (_U(40692) * _U(r[1])) % _U(2147483399)
    r[0] = np.int64(s)
    r[1] = np.int64(v)
    j = np.int64(_U(r[2]) // _U(67108862)) + 4
    iy = r[j] - np.int64(v)
    r[j] = np.int64(s)
    if iy < 1:
        iy += 2147483562
    r[2] = iy
    r[3] += 1
    x = iy * 4.656613057391769e-10
    return x if x < 0.99999988 else 0.99999988


@_jit
def _roll(r, lower, upper):
    """Random::RollDice(float, float) 0x0042C600: no draw when the bounds are equal."""
    if lower == upper:
        return lower
    if upper < lower:
        lower, upper = upper, lower
    return _rand(r) * (upper - lower) + lower


@_jit
def _clamp(v, lo, hi):
    if v < lo:
        return lo
    return hi if hi < v else v  # Python's min(v, hi)


_quat_rotate = _jit(quat_rotate)  # the same function the Python path calls, compiled


# -- the pool -------------------------------------------------------------------------------
@_jit
def _release(idx, alive, emitter, free_stack, free_n, dirty, nd):
    alive[idx] = False
    emitter[idx] = -1
    free_stack[free_n] = idx
    dirty[nd] = idx
    return free_n + 1, nd + 1


# -- ShouldEmitParticle 0x0051C8B0 / StopEmitter 0x0051C230 / RecordParticleEmission --------
@_jit
def _should_emit(row, now, ef, ei, row_origin):
    total = ei[row, I_TOTAL_PARTICLES]
    if not ((total <= 0 or ei[row, I_TOTAL_EMITTED] < total)
            and ei[row, I_NUM] < ei[row, I_INFO_MAX]):
        return False
    etype = ei[row, I_ETYPE]
    if etype & 1:  # BirthratePerSec: Timer.cur_time, strict
        return now - ef[row, F_LAST_EMIT] > ef[row, F_BIRTHRATE]
    if etype & 2:  # BirthratePerMeter: birthrate^2 < |delta|^2
        dx = row_origin[row, 0] - ef[row, F_LEO]
        dy = row_origin[row, 1] - ef[row, F_LEO + 1]
        dz = row_origin[row, 2] - ef[row, F_LEO + 2]
        br = ef[row, F_BIRTHRATE]
        return br * br < dx * dx + dy * dy + dz * dz
    return False


@_jit
def _stop_emitter(row, pt, ef, ei):
    """StopEmitter 0x0051C230 (negative TotalParticles stops at once)."""
    if ei[row, I_STOPPED]:
        return
    ts = ef[row, F_TOTAL_SECONDS]
    if ts > 0.0 and ef[row, F_CREATION] + ts < pt:
        ei[row, I_STOPPED] = 1
    total = ei[row, I_TOTAL_PARTICLES]
    if total != 0 and ei[row, I_TOTAL_EMITTED] >= total:
        ei[row, I_STOPPED] = 1


@_jit
def _counted(row, pt, ef, ei, row_origin):
    """The bookkeeping of a birth (EmitParticle) or a phantom (RecordParticleEmission
    0x0051C870)."""
    ei[row, I_NUM] += 1
    ei[row, I_TOTAL_EMITTED] += 1
    ef[row, F_LEO] = row_origin[row, 0]
    ef[row, F_LEO + 1] = row_origin[row, 1]
    ef[row, F_LEO + 2] = row_origin[row, 2]
    ef[row, F_LAST_EMIT] = pt


# -- EmitParticle 0x0051D010 / Particle::Init 0x0051C930 --------------------------------------
@_jit
def _emit(row, pt, r, ef, ei, row_origin, slot_idx, slot_death, state, alive, emitter,
          slot_of, ptype_of, orientation, free_stack, free_n, dirty, nd):
    """One birth; returns (born, free_n, nd). No free slot: nothing, no draw."""
    base = ei[row, I_BASE]
    m = ei[row, I_MAX]
    s = ei[row, I_HINT]
    while s < m and slot_idx[base + s] >= 0:
        s += 1
    if s >= m:
        return False, free_n, nd
    ei[row, I_HINT] = s + 1
    # argument evaluation order of EmitParticle (right to left)
    lifespan = (_rand(r) * 2.0 - 1.0) * ef[row, F_LIFESPAN_RAND] + ef[row, F_LIFESPAN]
    lifespan = lifespan if lifespan > 0.0 else 0.0  # Python's max(0.0, x)
    final_trans = _clamp((_rand(r) * 2.0 - 1.0) * ef[row, F_TRANS_RAND]
                         + ef[row, F_FINAL_TRANS], 0.0, 1.0)
    start_trans = _clamp((_rand(r) * 2.0 - 1.0) * ef[row, F_TRANS_RAND]
                         + ef[row, F_START_TRANS], 0.0, 1.0)
    final_scale = _clamp((_rand(r) * 2.0 - 1.0) * ef[row, F_SCALE_RAND]
                         + ef[row, F_FINAL_SCALE], 0.1, 10.0)
    start_scale = _clamp((_rand(r) * 2.0 - 1.0) * ef[row, F_SCALE_RAND]
                         + ef[row, F_START_SCALE], 0.1, 10.0)
    k = _rand(r) * (ef[row, F_MAX_C] - ef[row, F_MIN_C]) + ef[row, F_MIN_C]
    c0x, c0y, c0z = ef[row, F_C] * k, ef[row, F_C + 1] * k, ef[row, F_C + 2] * k
    k = _rand(r) * (ef[row, F_MAX_B] - ef[row, F_MIN_B]) + ef[row, F_MIN_B]
    b0x, b0y, b0z = ef[row, F_B] * k, ef[row, F_B + 1] * k, ef[row, F_B + 2] * k
    k = _rand(r) * (ef[row, F_MAX_A] - ef[row, F_MIN_A]) + ef[row, F_MIN_A]
    a0x, a0y, a0z = ef[row, F_A] * k, ef[row, F_A + 1] * k, ef[row, F_A + 2] * k
    # GetRandomOffset 0x005174A0: z, y, x draws; small -> zero with no 4th draw
    rz = _roll(r, -1.0, 1.0)
    ry = _roll(r, -1.0, 1.0)
    rx = _roll(r, -1.0, 1.0)
    dx, dy, dz = ef[row, F_OFFSET_DIR], ef[row, F_OFFSET_DIR + 1], ef[row, F_OFFSET_DIR + 2]
    kk = dx * rx + dy * ry + dz * rz
    ex, ey, ez = rx - dx * kk, ry - dy * kk, rz - dz * kk
    n = math.sqrt(ex * ex + ey * ey + ez * ez)
    if n < EPS:
        o0x = o0y = o0z = 0.0
    else:
        lo, hi = ef[row, F_MIN_OFFSET], ef[row, F_MAX_OFFSET]
        mag = _roll(r, 0.0, 1.0) * (hi - lo) + lo
        o0x, o0y, o0z = ex / n * mag, ey / n * mag, ez / n * mag

    # ParticlePool.allocate
    free_n -= 1
    idx = free_stack[free_n]
    alive[idx] = True
    orientation[idx, 0] = 1.0
    orientation[idx, 1] = 0.0
    orientation[idx, 2] = 0.0
    orientation[idx, 3] = 0.0
    dirty[nd] = idx
    nd += 1

    q = (ef[row, F_PQ], ef[row, F_PQ + 1], ef[row, F_PQ + 2], ef[row, F_PQ + 3])
    hx, hy, hz = ef[row, F_HO], ef[row, F_HO + 1], ef[row, F_HO + 2]
    ox, oy, oz = _quat_rotate(q, (hx + o0x, hy + o0y, hz + o0z))
    ax, ay, az = a0x, a0y, a0z
    bx, by, bz = b0x, b0y, b0z
    cx, cy, cz = c0x, c0y, c0z
    t = ei[row, I_PTYPE]
    # Particle::Init: retail's case fall-through per type
    if t == LOCAL_VELOCITY or t == PARABOLIC_LVGA or t == PARABOLIC_LVGAGR or t == SWARM:  # noqa: SIM109
        ax, ay, az = _quat_rotate(q, (a0x, a0y, a0z))
    elif t == EXPLODE:
        ra = _roll(r, -PI_F32, PI_F32)
        po = _roll(r, -PI_F32, PI_F32)
        vx = math.cos(ra) * c0x * math.cos(po)
        vy = math.sin(ra) * c0y * math.cos(po)
        vz = math.sin(po) * c0z
        nn = math.sqrt(vx * vx + vy * vy + vz * vz)
        if nn < EPS:
            cx = cy = cz = 0.0
        else:
            cx, cy, cz = vx / nn, vy / nn, vz / nn
    elif t == IMPLODE:
        ox, oy, oz = ox * c0x, oy * c0y, oz * c0z
        cx, cy, cz = ox, oy, oz
    elif t == PARABOLIC_LVLA:
        ax, ay, az = _quat_rotate(q, (a0x, a0y, a0z))
        bx, by, bz = _quat_rotate(q, (b0x, b0y, b0z))
    elif t == PARABOLIC_LVLALR:
        ax, ay, az = _quat_rotate(q, (a0x, a0y, a0z))
        bx, by, bz = _quat_rotate(q, (b0x, b0y, b0z))
        cx, cy, cz = _quat_rotate(q, (c0x, c0y, c0z))
    st = state[idx]
    st[0] = pt
    st[1] = 0.0
    st[2] = lifespan
    st[3] = ef[row, F_PO]
    st[4] = ef[row, F_PO + 1]
    st[5] = ef[row, F_PO + 2]
    st[6], st[7], st[8] = ox, oy, oz
    st[9], st[10], st[11] = ax, ay, az
    st[12], st[13], st[14] = bx, by, bz
    st[15], st[16], st[17] = cx, cy, cz
    st[18], st[19], st[20], st[21] = q[0], q[1], q[2], q[3]
    st[22], st[23], st[24], st[25] = start_scale, final_scale, start_trans, final_trans
    emitter[idx] = row
    slot_of[idx] = s
    ptype_of[idx] = t
    slot_idx[base + s] = idx
    key = pt + lifespan
    slot_death[base + s] = key
    if key < ef[row, F_NEXT_DEATH]:
        ef[row, F_NEXT_DEATH] = key
    _counted(row, pt, ef, ei, row_origin)
    return True, free_n, nd


# -- KillParticle 0x0051C1E0 for every due slot -----------------------------------------------
@_jit
def _kill_due(row, pt, ef, ei, slot_idx, slot_death, state, alive, emitter, free_stack,
              free_n, dirty, nd):
    """Frees every slot whose lifetime reached its lifespan, in the order of the Python
    path's death heap: (death time, slot)."""
    thr = pt + 1e-9
    if not (ef[row, F_NEXT_DEATH] <= thr):
        return free_n, nd, 0
    base = ei[row, I_BASE]
    m = ei[row, I_MAX]
    cand = np.empty(m, np.int64)
    keys = np.empty(m, np.float64)
    nc = 0
    nxt = INF
    for s in range(m):
        i = slot_idx[base + s]
        if i < 0:
            continue
        key = slot_death[base + s]
        if key <= thr and state[i, 1] + pt - state[i, 0] >= state[i, 2]:
            cand[nc] = s
            keys[nc] = key
            nc += 1
        elif key < nxt:
            nxt = key
    ef[row, F_NEXT_DEATH] = nxt
    if nc == 0:
        return free_n, nd, 0
    order = np.argsort(keys[:nc], kind="mergesort")  # stable: ties stay in slot order
    for j in range(nc):
        s = cand[order[j]]
        i = slot_idx[base + s]
        slot_idx[base + s] = -1
        if s < ei[row, I_HINT]:
            ei[row, I_HINT] = s
        ei[row, I_NUM] -= 1
        free_n, nd = _release(i, alive, emitter, free_stack, free_n, dirty, nd)
    return free_n, nd, nc


# -- UpdateParticles 0x0051D180, culled persistent branch --------------------------------------
@_jit
def _freeze_persistent_ages(row, pt, ef, ei, em_time, slot_idx, slot_death, state, dirty,
                            nd):
    """Every birthtime := now, lifetimes not advanced."""
    base = ei[row, I_BASE]
    tv = em_time[row]
    nxt = INF
    for s in range(ei[row, I_MAX]):
        i = slot_idx[base + s]
        if i < 0:
            continue
        d = tv - state[i, 0]
        if d <= 0.0:  # np.maximum(0.0, d): NaN stays NaN
            d = 0.0
        state[i, 1] += d
        state[i, 0] = pt
        key = pt - state[i, 1] + state[i, 2]
        slot_death[base + s] = key
        if key < nxt:
            nxt = key
        dirty[nd] = i
        nd += 1
    ef[row, F_NEXT_DEATH] = nxt
    return nd


# -- ParticleEmitter::Destroy 0x0051CDB0 -------------------------------------------------------
@_jit
def _destroy(row, ef, ei, slot_idx, alive, emitter, free_stack, free_n, dirty, nd):
    base = ei[row, I_BASE]
    n = 0
    for s in range(ei[row, I_MAX]):
        i = slot_idx[base + s]
        if i >= 0:
            slot_idx[base + s] = -1
            free_n, nd = _release(i, alive, emitter, free_stack, free_n, dirty, nd)
            n += 1
    ei[row, I_NUM] = 0
    ei[row, I_HINT] = 0
    ef[row, F_NEXT_DEATH] = INF
    return free_n, nd, n


# -- ParticleManager::UpdateParticles 0x0051B800 --------------------------------------------
TOUCH_BLOCK = 16


@_jit
def _touch(rows, k0, k1, ef, ei, em_time, em_origin, em_quat, row_origin, slot_idx,
           slot_death, state, free_stack, free_n):
    """Read one value of every cache line the updates of rows[k0:k1] will use (their table
    rows, their next free slot, the particle rows the next births take) in a loop whose
    loads do not wait on each other, so the memory system fetches them together; the
    updates themselves are a serial chain (each draw waits on the last) that would wait on
    each line in turn. Returns a sum nothing reads. Changes nothing."""
    sink = 0.0
    for k in range(k0, k1):
        row = rows[k]
        for c in range(0, ef.shape[1], 8):
            sink += ef[row, c]
        sink += ei[row, 0] + ei[row, ei.shape[1] - 1]
        sink += em_time[row] + em_origin[row, 0] + em_quat[row, 0] + row_origin[row, 0]
        base = ei[row, I_BASE]
        hint = ei[row, I_HINT]
        if base >= 0 and hint < ei[row, I_MAX]:
            sink += slot_death[base + hint] + slot_idx[base + hint]
    for j in range(min(k1 - k0, free_n)):
        i = free_stack[free_n - 1 - j]
        for c in range(0, state.shape[1], 8):
            sink += state[i, c]
    return sink


@_jit
def update_rows(rows, pts, nows, r, ef, ei, em_time, em_origin, em_quat, row_origin,
                row_drawn, slot_idx, slot_death, state, alive, emitter, slot_of, ptype_of,
                orientation, free_stack, free_n, dirty, result, destroy):
    """ParticleEmitter::UpdateParticles 0x0051D180 for ``rows`` in order: one manager's
    walk (bucket 0 then 1, newest first), or several managers' walks one after the other (a
    tick's deferred updates, ``ParticlePool.flush``), row ``k`` at PhysicsTimer ``pts[k]``
    and Timer ``nows[k]`` (its manager's update). ``result[k]`` is UpdateParticles' answer;
    with ``destroy`` an emitter answering false is destroyed here at once (its particles
    freed in slot order, as the manager's walk does before the next emitter), its event and
    row left to the caller. Returns (free_n, dirty count, births, deaths, false answers)."""
    nd = 0
    births = 0
    deaths = 0
    finished = 0
    sink = 0.0
    for k in range(rows.shape[0]):
        if k % TOUCH_BLOCK == 0:
            sink += _touch(rows, k, min(k + TOUCH_BLOCK, rows.shape[0]), ef, ei, em_time,
                           em_origin, em_quat, row_origin, slot_idx, slot_death, state,
                           free_stack, free_n)
        row = rows[k]
        pt = pts[k]
        now = nows[k]
        res = True
        if ef[row, F_CYPT] > ef[row, F_DEGRADE]:  # ShouldDrawParticles 0x0050FE60
            if not ei[row, I_DEGRADED]:
                ei[row, I_DEGRADED] = 1  # SetNoDraw(1) on the live parts
                row_drawn[row] = False
            if not ei[row, I_PERSISTENT]:
                ef[row, F_LAST_UPDATE] = pt
                free_n, nd, nk = _kill_due(row, pt, ef, ei, slot_idx, slot_death, state,
                                           alive, emitter, free_stack, free_n, dirty, nd)
                deaths += nk
                if ei[row, I_STOPPED]:
                    res = ei[row, I_NUM] != 0
                else:
                    if _should_emit(row, now, ef, ei, row_origin):
                        _counted(row, pt, ef, ei, row_origin)  # a phantom
                    _stop_emitter(row, pt, ef, ei)
            else:
                nd = _freeze_persistent_ages(row, pt, ef, ei, em_time, slot_idx, slot_death,
                                             state, dirty, nd)
                ef[row, F_LAST_UPDATE] = pt
        else:
            if ei[row, I_DEGRADED]:
                ei[row, I_DEGRADED] = 0
                row_drawn[row] = True
            em_time[row] = pt
            for j in range(3):
                em_origin[row, j] = ef[row, F_PO + j]
            for j in range(4):
                em_quat[row, j] = ef[row, F_PQ + j]
            free_n, nd, nk = _kill_due(row, pt, ef, ei, slot_idx, slot_death, state, alive,
                                       emitter, free_stack, free_n, dirty, nd)
            deaths += nk
            if ei[row, I_STOPPED]:
                res = ei[row, I_NUM] != 0
            else:
                if _should_emit(row, now, ef, ei, row_origin):
                    born, free_n, nd = _emit(row, pt, r, ef, ei, row_origin, slot_idx,
                                             slot_death, state, alive, emitter, slot_of,
                                             ptype_of, orientation, free_stack, free_n,
                                             dirty, nd)
                    births += born
                _stop_emitter(row, pt, ef, ei)
            ef[row, F_LAST_UPDATE] = pt
        result[k] = res
        if not res:
            finished += 1
        if destroy and not res:
            free_n, nd, nk = _destroy(row, ef, ei, slot_idx, alive, emitter, free_stack,
                                      free_n, dirty, nd)
            deaths += nk
    return free_n, nd, births, deaths, finished, sink


@_jit
def emit_n(row, count, pt, r, ef, ei, row_origin, slot_idx, slot_death, state, alive,
           emitter, slot_of, ptype_of, orientation, free_stack, free_n, dirty):
    """InitEnd's InitialParticles births (ParticleEmitter::InitEnd 0x0051D400): ``count``
    EmitParticle calls; once no slot is free the rest are dropped (no draw, nothing frees a
    slot in between). Returns (free_n, births)."""
    nd = 0
    births = 0
    for _ in range(count):
        born, free_n, nd = _emit(row, pt, r, ef, ei, row_origin, slot_idx, slot_death, state,
                                 alive, emitter, slot_of, ptype_of, orientation, free_stack,
                                 free_n, dirty, nd)
        if not born:
            break
        births += 1
    return free_n, births
