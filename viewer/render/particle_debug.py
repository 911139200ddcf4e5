"""Emitter debugging (VIEW settings only): one RGB tint per drawn particle that replaces
its lit colour, velocity lines for one emitter's particles, and the bounding box of each
emitter's live particles. All read the pool and never
write it, so the simulation and every trace stay exactly as without them. GL-free numpy over
the pool's arrays, never a loop over particles.

Modes: ``none`` (retail's own colour), ``emitter`` (the emitter row hashed to a hue),
``age`` (lifetime / lifespan as a ramp from green, just born, to red, at its end),
``type`` (the ParticleType's entry of a fixed palette).
"""

from __future__ import annotations

import numpy as np

from viewer.sim.particles import particle_law

PARTICLE_COLOURS = ("none", "emitter", "age", "type")
GOLDEN = 0.6180339887498949   # consecutive emitter rows get well separated hues

# one colour per ParticleType (0 Unknown .. 13 LocalVelocity), repeated beyond
TYPE_PALETTE = np.array([
    (0.6, 0.6, 0.6), (1.0, 0.2, 0.2), (0.2, 1.0, 0.2), (0.2, 0.4, 1.0), (1.0, 1.0, 0.2),
    (1.0, 0.2, 1.0), (0.2, 1.0, 1.0), (1.0, 0.6, 0.1), (0.6, 0.2, 1.0), (0.1, 0.6, 0.3),
    (1.0, 0.6, 0.7), (0.6, 0.4, 0.2), (1.0, 1.0, 1.0), (0.3, 0.7, 1.0)], np.float32)


def hue_rgb(h: np.ndarray) -> np.ndarray:
    """Fully saturated colours of hues ``h`` in [0, 1) (HSV with s = v = 1), (N, 3)."""
    k = (np.asarray(h, np.float64)[:, None] * 6.0 + np.array([5.0, 3.0, 1.0])) % 6.0
    return (1.0 - np.clip(np.minimum(k, 4.0 - k), 0.0, 1.0)).astype(np.float32)


def emitter_tints(rows: np.ndarray) -> np.ndarray:
    return hue_rgb((np.asarray(rows, np.float64) * GOLDEN) % 1.0)


def age_tints(lifetime: np.ndarray, lifespan: np.ndarray) -> np.ndarray:
    span = np.asarray(lifespan, np.float64)
    f = np.clip(np.asarray(lifetime, np.float64) / np.where(span > 0.0, span, 1.0), 0.0, 1.0)
    f = np.where(span > 0.0, f, 1.0)
    return np.stack([f, 1.0 - f, np.zeros_like(f)], axis=1).astype(np.float32)


def type_tints(ptype: np.ndarray) -> np.ndarray:
    return TYPE_PALETTE[np.asarray(ptype, np.int64) % len(TYPE_PALETTE)]


def particle_tints(pool, live: np.ndarray, rows: np.ndarray, mode: str) -> np.ndarray | None:
    """Tints of pool indices ``live`` (evaluated; ``rows`` their emitter rows) for ``mode``;
    None for ``none``."""
    if mode == "none":
        return None
    if mode == "emitter":
        return emitter_tints(rows)
    if mode == "age":
        return age_tints(pool.lifetime[live], pool.lifespan[live])
    if mode == "type":
        return type_tints(pool.ptype[live])
    raise ValueError(f"particle colour {mode!r}: not one of {', '.join(PARTICLE_COLOURS)}")


VELOCITY_SECONDS = 0.25   # a velocity line is where the particle heads in this long
_H = 1.0 / 1024.0         # central-difference step (exact for the polynomial laws)


def particle_velocities(pool, idx: np.ndarray) -> np.ndarray:
    """World velocities (N, 3) of live pool indices ``idx`` at their evaluated lifetime:
    the central difference of their type's law (Particle::Update 0x0051C290), whose parent
    frame is constant and drops out. Unknown types (no position law): zero."""
    idx = np.asarray(idx, np.int64)
    out = np.zeros((idx.size, 3))
    types = pool.ptype[idx]
    for ptype in np.unique(types).tolist():     # one pass per ParticleType present
        m = types == ptype
        sel = idx[m]
        S = pool.state[sel]
        t = pool.lifetime[sel]
        zero = np.zeros((sel.size, 3))
        q = np.tile(np.array([1.0, 0.0, 0.0, 0.0]), (sel.size, 1))
        args = (zero, q, S[:, 6:9], S[:, 9:12], S[:, 12:15], S[:, 15:18])
        ahead, _ = particle_law(int(ptype), t + _H, *args)
        behind, _ = particle_law(int(ptype), t - _H, *args)
        if ahead is not None:
            out[m] = (ahead - behind) / (2.0 * _H)
    return out


def emitter_live_rows(pool, row: int) -> np.ndarray:
    """The live pool indices of emitter row ``row``: from its own slot list (one emitter's
    particles, never the pool), else by comparing the pool's emitter column."""
    em = pool.row_emitter[row] if 0 <= row < len(pool.row_emitter) else None
    slots = getattr(em, "slots", None)
    if slots is None:
        return np.flatnonzero(pool.alive & (pool.emitter == int(row)))
    slots = np.asarray(slots, np.int64)
    return slots[slots >= 0]


def velocity_lines(pool, row: int, seconds: float = VELOCITY_SECONDS) -> np.ndarray:
    """(N, 2, 3) segments from each live particle of emitter row ``row`` along its
    velocity (``seconds`` of travel). Evaluates that emitter's rows only (nothing when the
    pool is evaluated already at this version)."""
    idx = emitter_live_rows(pool, row)
    if idx.size == 0:
        return np.zeros((0, 2, 3))
    pool.evaluate_rows(idx)
    pos = pool.position[idx]
    return np.stack([pos, pos + particle_velocities(pool, idx) * seconds], axis=1)


def particle_bounds(pool, rows=None) -> np.ndarray:
    """(E, 2, 3) min / max corners of the live particles of each emitter row in ``rows``
    (None: every emitter with live particles), in row order; rows with no live particle
    are left out. Given rows, only their particles are evaluated."""
    if rows is None:
        live = pool.evaluate()
    else:
        live = np.concatenate([np.zeros(0, np.int64)] +
                              [emitter_live_rows(pool, int(r)) for r in rows])
        pool.evaluate_rows(live)
    em = pool.emitter[live].astype(np.int64)
    if live.size == 0:
        return np.zeros((0, 2, 3))
    order, inverse = np.unique(em, return_inverse=True)
    pos = np.asarray(pool.position[live], np.float64)
    lo = np.full((order.size, 3), np.inf)
    hi = np.full((order.size, 3), -np.inf)
    np.minimum.at(lo, inverse, pos)
    np.maximum.at(hi, inverse, pos)
    return np.stack([lo, hi], axis=1)


__all__ = ["PARTICLE_COLOURS", "VELOCITY_SECONDS", "age_tints", "emitter_live_rows",
           "emitter_tints", "hue_rgb", "particle_bounds", "particle_tints", "particle_velocities",
           "type_tints", "velocity_lines"]
