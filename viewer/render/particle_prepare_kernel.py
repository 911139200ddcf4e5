"""The particle pass's per-frame CPU work for busy pools, compiled (numba): the pool's drawn
rows in emitter-then-slot order (``world_adapter._particle_arrays``) and the instance rows,
sort keys and batches (``particles.prepare``).

The numpy code in those modules is the reference; these functions compute the same rows with
the same float64 operations in the same order, and the same draw order: per batch key, far
to near by CYpt, equal CYpt in row order (both numpy sorts there are stable; here one stable
LSD radix sort over the CYpt bits, then a stable counting sort over the batch keys). A
parity test runs random frames through both and compares the bytes.

Used once a frame draws ``EVAL_KERNEL_MIN_LIVE`` particles or more (the switch of
``viewer.sim.particles``), so small scenes never load numba; imported lazily.
"""

from __future__ import annotations

import math

import numpy as np

from viewer.sim.particles import jit

_RADIX_BITS = 11
_RADIX = 1 << _RADIX_BITS
_NAN_KEY = np.uint64(1 << 63)          # after every finite CYpt (numpy sorts nan last)
_LOW63 = np.uint64((1 << 63) - 1)


class Scratch:
    """Arrays the compiled frame reuses frame to frame (112 bytes a particle): a fresh
    ~11 MB a frame at 100k particles costs thousands of page faults, several ms on a
    virtual machine. Made half again as large as a frame needs when too small, and again
    when a compiled frame needs less than a quarter of them (no lasting peak)."""

    def __init__(self) -> None:
        self.size = -1

    def get(self, n: int):
        if n > self.size or (n < self.size // 4 and self.size > 65536):
            size = max(n + n // 2, 1024)
            self.ints = np.empty((5, size), np.int64)
            self.uints = np.empty((2, size), np.uint64)
            self.cypt = np.empty(size)
            self.rec = np.empty((size, 12), np.float32)
            self.size = size
        return self.ints, self.uints, self.cypt, self.rec


SCRATCH = Scratch()


@jit
def _counting_pass(src, keys, lo, shift, mask, size, dst):
    """One stable counting-sort pass of the indices ``src`` by the digit
    ``((keys[i] - lo) >> shift) & mask`` (``size`` values) into ``dst``. Returns False, and
    writes nothing, when every digit is the same (the pass would keep the order)."""
    count = np.zeros(size + 1, np.int64)
    for k in range(src.size):
        count[np.int64(((keys[src[k]] - lo) >> shift) & mask) + 1] += 1
    for d in range(count.size):
        if count[d] == src.size:
            return False
    for d in range(1, count.size):
        count[d] += count[d - 1]
    for k in range(src.size):
        i = src[k]
        d = np.int64(((keys[i] - lo) >> shift) & mask)
        dst[count[d]] = i
        count[d] += 1
    return True


@jit
def drawn_slot_order(live, emitter, slot, row_drawn, ints):
    """``live`` (ascending pool indices) without the rows of emitters not drawn, ordered by
    (emitter row, slot): ``np.lexsort((slot, rows))`` of the kept ones (both stable). The
    result is a view of the scratch ``ints`` (2, >= live.size)."""
    a = ints[0]
    b = ints[1]
    n = 0
    lo_s, hi_s, hi_r = 0, 0, 0
    for k in range(live.size):
        i = live[k]
        r = emitter[i]
        if row_drawn[r]:
            a[n] = i
            s = slot[i]
            if n == 0 or s < lo_s:
                lo_s = s
            if n == 0 or s > hi_s:
                hi_s = s
            if r > hi_r:
                hi_r = r
            n += 1
    a = a[:n]
    b = b[:n]
    # LSD: slot (the minor key), then emitter row
    if n > 0 and _counting_pass(a, slot, lo_s, 0, -1, hi_s - lo_s + 1, b):
        a, b = b, a
    if n > 0 and _counting_pass(a, emitter, 0, 0, -1, hi_r + 1, b):
        a, b = b, a
    return a


@jit
def _sort_run(dep, idx, lo, hi):
    """Sort ``dep[lo:hi]`` (carrying ``idx``) stably: insertion for short runs, numba's
    merge sort (stable) for long unsorted ones (a run of equal CYpts is left as it is)."""
    ordered = True
    for k in range(lo + 1, hi):
        if dep[k] < dep[k - 1]:
            ordered = False
            break
    if ordered:
        return
    if hi - lo <= 32:
        for k in range(lo + 1, hi):
            v = dep[k]
            x = idx[k]
            m = k - 1
            while m >= lo and dep[m] > v:
                dep[m + 1] = dep[m]
                idx[m + 1] = idx[m]
                m -= 1
            dep[m + 1] = v
            idx[m + 1] = x
        return
    sub = np.argsort(dep[lo:hi], kind="mergesort")
    dep[lo:hi] = dep[lo:hi][sub]
    idx[lo:hi] = idx[lo:hi][sub]


@jit
def _depth_key_order(depth, key, max_key, idx, idx2, dep2):
    """The indices 0..n-1 sorted by (key, depth), ties in index order, returned in ``idx``
    or ``idx2`` (scratch of n entries each, like ``dep2``; ``depth`` is permuted too). A
    stable LSD radix sort over the high 32 depth bits (digits every value shares skipped;
    each pass carries the depths along with the indices), each run of equal high bits then
    sorted stably by the whole depth (runs are short: CYpts a few ulps apart, or equal),
    then a stable counting sort by key."""
    n = depth.size
    for k in range(n):
        idx[k] = k
    if n == 0:
        return idx
    passes = (32 + _RADIX_BITS - 1) // _RADIX_BITS
    mask = np.uint64(_RADIX - 1)
    high = np.uint64(32)
    hist = np.zeros((passes, _RADIX), np.int64)
    for j in range(n):
        d = depth[j] >> high
        for p in range(passes):
            hist[p, np.int64((d >> np.uint64(p * _RADIX_BITS)) & mask)] += 1
    dep = depth
    off = np.empty(_RADIX, np.int64)
    for p in range(passes):
        shift = np.uint64(32 + p * _RADIX_BITS)
        if hist[p, np.int64((dep[0] >> shift) & mask)] == n:
            continue  # one digit value: the pass keeps the order
        total = 0
        for d in range(_RADIX):
            off[d] = total
            total += hist[p, d]
        for k in range(n):
            v = dep[k]
            d = np.int64((v >> shift) & mask)
            o = off[d]
            off[d] = o + 1
            dep2[o] = v
            idx2[o] = idx[k]
        idx, idx2 = idx2, idx
        dep, dep2 = dep2, dep
    start = 0
    for k in range(1, n + 1):
        if k == n or (dep[k] >> high) != (dep[start] >> high):
            if k - start > 1:
                _sort_run(dep, idx, start, k)
            start = k
    count = np.zeros(max_key + 2, np.int64)
    for j in range(n):
        count[key[j] + 1] += 1
    for d in range(1, count.size):
        count[d] += count[d - 1]
    for k in range(n):
        i = idx[k]
        o = count[key[i]]
        count[key[i]] = o + 1
        idx2[o] = i
    return idx2


def gather_rows(order, position, orientation, scale, trans, emitter, row_gfx):
    """The pool's evaluated rows ``order`` as ParticleArrays' columns (one compiled pass
    into arrays numpy allocates: numpy asks for huge pages on large ones, which a busy
    frame faults in ~500x less often than numba's own allocations)."""
    n = order.size
    out = (np.empty((n, 3)), np.empty((n, 4)), np.empty(n), np.empty(n),
           np.empty(n, row_gfx.dtype), np.empty(n, np.int32))
    _gather_rows(order, position, orientation, scale, trans, emitter, row_gfx, *out)
    return out


@jit
def _gather_rows(order, position, orientation, scale, trans, emitter, row_gfx, pos, quat, sc,
                 tr, gfx, rows):
    for k in range(order.size):
        i = order[k]
        for c in range(3):
            pos[k, c] = position[i, c]
        for c in range(4):
            quat[k, c] = orientation[i, c]
        sc[k] = scale[i]
        tr[k] = trans[i]
        r = emitter[i]
        rows[k] = r
        gfx[k] = row_gfx[r]


@jit
def visible_gfx_runs(trans, gfx):
    """The values of the runs of equal GfxObj among the rows drawn (translucency != 1):
    what ``unique_runs`` takes its unique over."""
    out = np.empty(trans.size, gfx.dtype)
    k = 0
    for i in range(trans.size):
        if trans[i] != 1.0 and (k == 0 or gfx[i] != out[k - 1]):
            out[k] = gfx[i]
            k += 1
    return out[:k]


@jit
def _maximum(a, b):
    """np.maximum for a b that is not nan: a nan a stays nan."""
    return a if (a >= b or a != a) else b


@jit
def prepare_rows(pos, quat, scale, trans, gfx, emitter, origins, eye, d2sq, degrade_distance,
                 gfx_ids, sort_center, thr, valid, modes, drawn_rank, n_entries, ints, uints,
                 cypt, rec, rows, inst):
    """``particles.prepare`` after its per-GfxObj tables: fills ``rows[:nv]`` (the drawn
    input rows in draw order) and ``inst[:nv]`` (their instance rows, float32), returns (nv,
    batch keys, starts, counts, far depths). ``ints`` (5, n), ``uints`` (2, n), ``cypt``
    (n,), ``rec`` (n, 12) float32: scratch."""
    n = trans.size
    vis = ints[0]
    nv = 0
    for i in range(n):
        if trans[i] != 1.0:  # CPhysicsPart::SetTranslucency 0x0050E670: 1.0 hides the part
            vis[nv] = i
            nv += 1
    key = ints[1]
    depth = uints[0, :nv]
    e0, e1, e2 = eye[0], eye[1], eye[2]
    g = 0
    last = gfx[0]
    max_key = 0
    for j in range(nv):
        i = vis[j]
        if j == 0 or gfx[i] != last:
            last = gfx[i]
            g = np.searchsorted(gfx_ids, last)
        e = emitter[i]
        # CPhysicsObj::UpdateViewerDistance 0x00510B30: far emitters share its origin
        dx = origins[e, 0] - e0
        dy = origins[e, 1] - e1
        s = scale[i]
        if dx * dx + dy * dy >= d2sq:
            h0, h1, h2 = origins[e, 0], origins[e, 1], origins[e, 2]
        else:
            h0 = pos[i, 0] + sort_center[g, 0] * s
            h1 = pos[i, 1] + sort_center[g, 1] * s
            h2 = pos[i, 2] + sort_center[g, 2] * s
        for c3 in range(3):
            rec[j, c3] = pos[i, c3]
        for c4 in range(4):
            rec[j, 3 + c4] = quat[i, c4]
        rec[j, 7] = s
        t = trans[i]
        if t != 0.0:  # the private material's alpha 1 - t, clamped; else -1 = vertex alpha
            al = 1.0 - t
            rec[j, 8] = 0.0 if al < 0.0 else (1.0 if al > 1.0 else al)
        else:
            rec[j, 8] = -1.0
        rec[j, 9], rec[j, 10], rec[j, 11] = h0, h1, h2
        r0, r1, r2 = h0 - e0, h1 - e1, h2 - e2
        c = math.sqrt(r0 * r0 + r2 * r2 + r1 * r1) + 0.0  # sq_norm_rows' order; -0 -> +0
        cypt[j] = c
        # GfxObjDegradeInfo::get_degrade 0x0051E4B0
        d = _maximum(c / _maximum(s, 1e-6) - degrade_distance, 0.0)
        level = n_entries[g] - 1
        for lv in range(thr.shape[1]):
            if d < thr[g, lv] and valid[g, lv]:
                level = lv
                break
        mode = min(max(modes[g, level], 0), 7)
        k = (drawn_rank[g, level] * 8 + mode) * 2 + (1 if trans[i] > 0.0 else 0)
        key[j] = k
        if k > max_key:
            max_key = k
    # far to near: the complement of the (non-negative) CYpt's bits; nan last
    bits = cypt[:nv].view(np.uint64)
    for j in range(nv):
        depth[j] = _NAN_KEY if cypt[j] != cypt[j] else _LOW63 - bits[j]
    a = _depth_key_order(depth, key, max_key, ints[2, :nv], ints[3, :nv], uints[1, :nv])
    skey = ints[4]
    n_batches = 0
    for r in range(nv):
        skey[r] = key[a[r]]
        if r == 0 or skey[r] != skey[r - 1]:
            n_batches += 1
    ukeys = np.empty(n_batches, np.int64)
    starts = np.empty(n_batches, np.int64)
    counts = np.zeros(n_batches, np.int64)
    far_depth = np.empty(n_batches)
    nb = -1
    for r in range(nv):
        j = a[r]
        rows[r] = vis[j]
        for c in range(12):
            inst[r, c] = rec[j, c]
        if r == 0 or skey[r] != skey[r - 1]:
            nb += 1
            ukeys[nb] = skey[r]
            starts[nb] = r
            far_depth[nb] = cypt[j]
        counts[nb] += 1
    return nv, ukeys, starts, counts, far_depth


@jit
def facing_indices(rows, eye, planes, reach, alt, full, short, has_short, corners, billboard,
                   cull, f_min, f_max, stretch, cos_min, clearance, min_px, out):
    """``particles.row_indices(particles.row_classes(...))`` in one pass: the index list of
    a batch's instance rows (the same float64 operations in the same order, so the same
    classes), written to ``out``; returns its length. ``short``: the layout's facing
    pattern, when ``has_short`` (it may be empty: a one-sided billboard facing away)."""
    n = rows.shape[0]
    nf = full.shape[0]
    ns = short.shape[0]
    emax = max(max(abs(eye[0]), abs(eye[1])), abs(eye[2]))
    w = 0
    for i in range(n):
        px = np.float64(rows[i, 0])
        py = np.float64(rows[i, 1])
        pz = np.float64(rows[i, 2])
        scale = abs(np.float64(rows[i, 7]))
        if billboard:
            rq = scale * reach * 1.0
        else:
            qw = np.float64(rows[i, 3])
            qx = np.float64(rows[i, 4])
            qy = np.float64(rows[i, 5])
            qz = np.float64(rows[i, 6])
            qq = qw * qw + qx * qx + qy * qy + qz * qz
            rq = scale * reach * (qq + abs(1.0 - qq))
        ex = px - eye[0]
        ey = py - eye[1]
        ez = pz - eye[2]
        dist = math.sqrt(ex * ex + ey * ey + ez * ez)
        big = max(max(abs(px), abs(py)), abs(pz))
        slack = 1e-6 * (big + rq + emax)
        margin = rq * 1.001 + 10.0 * slack + 1e-4 * dist
        outside = False
        inside = True
        for k in range(6):
            d = (px * planes[0, k] + py * planes[1, k]) + (pz * planes[2, k] + planes[3, k])
            if d < -margin:
                outside = True
            if not d > margin:
                inside = False
        if outside:
            continue
        facing = False
        if billboard and cull and has_short and inside:
            hx = np.float64(rows[i, 9])
            hy = np.float64(rows[i, 10])
            hz = np.float64(rows[i, 11])
            rx = hx - eye[0]
            ry = hy - eye[1]
            rz = hz - eye[2]
            cypt = math.sqrt(rx * rx + ry * ry + rz * rz)
            ox = px - hx
            oy = py - hy
            oz = pz - hz
            ext = math.sqrt(ox * ox + oy * oy + oz * oz) + rq
            clear = cypt * cos_min - ext
            dmin = cypt - ext
            dmax = cypt + ext
            if cypt > 0.0 and cypt * cos_min >= clearance * ext + 1e3 * slack:
                alt_px = (alt * scale * f_min) * (clear / dmax) * dmin / (dmax * dmax * stretch)
                err_px = 4.0 * f_max * stretch * slack / dmin
                facing = alt_px >= min_px + err_px
        base = np.uint32(i * corners)
        if facing:
            for j in range(ns):
                out[w] = base + short[j]
                w += 1
        else:
            for j in range(nf):
                out[w] = base + full[j]
                w += 1
    return w
