"""The compiled evaluation of every live particle: ``ParticlePool._evaluate_numpy`` (the
twelve ParticleType laws of ``Particle::Update`` 0x0051C290, scale and translucency) fused
into one pass over the live slots (numba).

The numpy evaluation in ``viewer.sim.particles`` is the reference. This module does the same
per particle with the same float64 operations in the same order (``particle_law``,
``local_rotate_rows``, ``quat_mul_rows``, ``sq_norm_rows``, numpy's row norm), so the
positions, rotations, scales and translucencies are identical bit for bit; a parity test
runs random pools through both. No fast-math: LLVM keeps IEEE order and contracts no
multiply-add; ``math.sin``/``cos``/``sqrt`` are the C library's, as numpy's float64 ufuncs.

``ParticlePool`` imports this module lazily, only once a pool evaluates
``EVAL_KERNEL_MIN_LIVE`` live particles at once (see ``viewer.sim.particles``), so small
scenes never load numba. Compiled once per process, cached on disk where numba finds a
writable cache folder, compiled in memory otherwise.
"""

from __future__ import annotations

import math

import numpy as np

from viewer.sim.frame import EPS, quat_mul
from viewer.sim.particles import (
    EXPLODE,
    GLOBAL_VELOCITY,
    IMPLODE,
    LOCAL_VELOCITY,
    PARABOLIC_GVGA,
    PARABOLIC_GVGAGR,
    PARABOLIC_LVGA,
    PARABOLIC_LVGAGR,
    PARABOLIC_LVLA,
    PARABOLIC_LVLALR,
    STILL,
    SWARM,
    jit,
)

EPS2 = EPS * EPS


_quat_mul = jit(quat_mul)  # the Hamilton product quat_mul_rows computes, same order


@jit
def evaluate_rows(live, state, ptype, emitter, em_time, em_origin, em_quat, em_parent_local,
                  position, orientation, scale, trans, lifetime):
    """``ParticlePool._evaluate_numpy(live)``: writes position / orientation (GR types
    only) / scale / trans / lifetime of the pool indices ``live``. Unknown types (0, 13+)
    leave the position untouched, the non-GR types the rotation (Particle::Update
    0x0051C290)."""
    for k in range(live.size):
        i = live[k]
        row = emitter[i]
        t = state[i, 1] + em_time[row] - state[i, 0]
        lifetime[i] = t
        pt = ptype[i]
        local = em_parent_local[row]
        # P: the birth parent frame origin, or (parent-local) the parent's at the update
        if local:
            p0, p1, p2 = em_origin[row, 0], em_origin[row, 1], em_origin[row, 2]
        else:
            p0, p1, p2 = state[i, 3], state[i, 4], state[i, 5]
        o0, o1, o2 = state[i, 6], state[i, 7], state[i, 8]
        a0, a1, a2 = state[i, 9], state[i, 10], state[i, 11]
        b0, b1, b2 = state[i, 12], state[i, 13], state[i, 14]
        c0, c1, c2 = state[i, 15], state[i, 16], state[i, 17]
        if pt == STILL:
            position[i, 0] = p0 + o0
            position[i, 1] = p1 + o1
            position[i, 2] = p2 + o2
        elif pt in (LOCAL_VELOCITY, GLOBAL_VELOCITY):
            position[i, 0] = p0 + o0 + t * a0
            position[i, 1] = p1 + o1 + t * a1
            position[i, 2] = p2 + o2 + t * a2
        elif pt in (PARABOLIC_LVGA, PARABOLIC_LVLA, PARABOLIC_GVGA, PARABOLIC_LVGAGR,
                    PARABOLIC_LVLALR, PARABOLIC_GVGAGR):
            h = 0.5 * t * t
            position[i, 0] = p0 + o0 + t * a0 + h * b0
            position[i, 1] = p1 + o1 + t * a1 + h * b1
            position[i, 2] = p2 + o2 + t * a2 + h * b2
            if pt in (PARABOLIC_LVGAGR, PARABOLIC_LVLALR, PARABOLIC_GVGAGR):
                # local_rotate_rows(Q, t c): Frame::rotate 0x004525B0 / grotate 0x005357A0
                if local:
                    q = (em_quat[row, 0], em_quat[row, 1], em_quat[row, 2], em_quat[row, 3])
                else:
                    q = (state[i, 18], state[i, 19], state[i, 20], state[i, 21])
                w0, w1, w2 = t * c0, t * c1, t * c2
                n2 = w0 * w0 + w2 * w2 + w1 * w1  # sq_norm_rows' order
                if n2 >= EPS2:
                    theta = math.sqrt(n2)
                    s = math.sin(theta / 2.0) / theta
                    r = _quat_mul(q, (math.cos(theta / 2.0), w0 * s, w1 * s, w2 * s))
                    # np.linalg.norm over a row: ((r0^2 + r1^2) + r2^2) + r3^2
                    nrm = math.sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3])
                    q = (r[0] / nrm, r[1] / nrm, r[2] / nrm, r[3] / nrm)
                orientation[i, 0] = q[0]
                orientation[i, 1] = q[1]
                orientation[i, 2] = q[2]
                orientation[i, 3] = q[3]
        elif pt == SWARM:
            position[i, 0] = p0 + o0 + t * a0 + c0 * math.cos(b0 * t)
            position[i, 1] = p1 + o1 + t * a1 + c1 * math.sin(b1 * t)
            position[i, 2] = p2 + o2 + t * a2 + c2 * math.cos(b2 * t)
        elif pt == EXPLODE:
            # a.x on every axis and an extra a.z on z only
            position[i, 0] = p0 + o0 + (t * b0 + c0 * a0) * t
            position[i, 1] = p1 + o1 + (t * b1 + c1 * a0) * t
            position[i, 2] = p2 + o2 + (t * b2 + c2 * a0 + a2) * t
        elif pt == IMPLODE:
            kc = math.cos(a0 * t)
            tt = t * t  # t^2 b without the 1/2
            position[i, 0] = p0 + o0 + kc * c0 + tt * b0
            position[i, 1] = p1 + o1 + kc * c1 + tt * b1
            position[i, 2] = p2 + o2 + kc * c2 + tt * b2
        span = state[i, 2]
        if t < span:
            f = t / (1.0 if span == 0.0 else span)
        else:
            f = 1.0
        s0 = state[i, 22]
        scale[i] = s0 + (state[i, 23] - s0) * f
        t0 = state[i, 24]
        trans[i] = t0 + (state[i, 25] - t0) * f


def evaluate(pool, live: np.ndarray) -> None:
    """``evaluate_rows`` over the pool's arrays."""
    evaluate_rows(live, pool.state, pool.ptype, pool.emitter, pool.em_time, pool.em_origin,
                  pool.em_quat, pool.em_parent_local, pool.position, pool.orientation,
                  pool.scale, pool.trans, pool.lifetime)
