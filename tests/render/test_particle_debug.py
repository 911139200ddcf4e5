"""Emitter debugging view settings (viewer/render/particle_debug.py): the tint of each
particle for every View > Particle colour mode, and the velocity lines of one emitter's
particles. GL-free; they read the pool and never write it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from viewer.render.particle_debug import (
    GOLDEN,
    TYPE_PALETTE,
    hue_rgb,
    particle_tints,
    particle_velocities,
    velocity_lines,
)
from viewer.render.world_adapter import particle_arrays
from viewer.sim.particles import LOCAL_VELOCITY, PARABOLIC_LVGA, STILL, ParticlePool


def _emitter(handle):
    info = SimpleNamespace(is_parent_local=False, hw_gfxobj_id=0x01000001)
    return SimpleNamespace(handle=handle, owner_id=1, info=info, nodraw=False,
                           frame=SimpleNamespace(origin=(0, 0, 0)))


def tiny_pool():
    """Two emitter rows; row 0: a still particle and a LocalVelocity one, row 1: a
    ParabolicLVGA one. Emitter time 1 s; lifespans 4 s, 2 s, 0 s (no span: at its end)."""
    pool = ParticlePool(capacity=8, emitter_capacity=4)
    rows = [pool.add_row(_emitter(10)), pool.add_row(_emitter(11))]
    pool.em_time[:2] = 1.0
    for row, ptype, span, a, b in ((0, STILL, 4.0, (0, 0, 0), (0, 0, 0)),
                                   (0, LOCAL_VELOCITY, 2.0, (1, 2, 3), (0, 0, 0)),
                                   (1, PARABOLIC_LVGA, 0.0, (1, 0, 0), (0, 0, -2))):
        i = pool.allocate()
        pool.emitter[i], pool.slot[i], pool.ptype[i] = rows[row], i, ptype
        pool.birth[i], pool.lifespan[i] = 0.0, span
        pool.a[i], pool.b[i] = a, b
        pool.start_quat[i] = (1, 0, 0, 0)
    return pool


def test_none_mode_has_no_tints():
    pool = tiny_pool()
    assert particle_arrays(pool).tints is None
    assert particle_arrays(pool, "none").tints is None


def test_emitter_mode_hashes_the_row_to_a_hue():
    arrays = particle_arrays(tiny_pool(), "emitter")
    assert list(arrays.emitter) == [0, 0, 1]
    assert np.allclose(arrays.tints[0], (1.0, 0.0, 0.0))       # row 0: hue 0, red
    assert np.array_equal(arrays.tints[0], arrays.tints[1])     # same emitter, same colour
    assert np.allclose(arrays.tints[2], hue_rgb(np.array([GOLDEN]))[0])
    assert not np.allclose(arrays.tints[2], arrays.tints[0])


def test_age_mode_ramps_green_to_red_over_the_lifespan():
    arrays = particle_arrays(tiny_pool(), "age")
    # lifetimes 1 s of spans 4 s, 2 s, and 0 s (treated as at its end)
    assert np.allclose(arrays.tints, [(0.25, 0.75, 0.0), (0.5, 0.5, 0.0), (1.0, 0.0, 0.0)])


def test_type_mode_uses_the_particle_type_palette():
    arrays = particle_arrays(tiny_pool(), "type")
    assert np.array_equal(arrays.tints, TYPE_PALETTE[[STILL, LOCAL_VELOCITY, PARABOLIC_LVGA]])
    assert len({tuple(c) for c in TYPE_PALETTE.tolist()}) == len(TYPE_PALETTE)


def test_unknown_mode_is_an_error():
    pool = tiny_pool()
    with pytest.raises(ValueError, match="particle colour 'rainbow'"):
        particle_tints(pool, pool.evaluate(), pool.emitter[pool.evaluate()], "rainbow")


def test_tints_follow_the_solo_mute_filter():
    from viewer.ui.emitter_filter import EmitterFilter, filter_particles
    pool = tiny_pool()
    arrays = particle_arrays(pool, "emitter")
    shown = filter_particles(arrays, pool.row_emitter, EmitterFilter(solo=("emitter", 11)))
    assert shown.count == 1 and np.array_equal(shown.tints, arrays.tints[2:])


def test_velocities_are_the_laws_derivatives_Particle_Update_0x0051C290():
    pool = tiny_pool()
    live = pool.evaluate()
    v = particle_velocities(pool, live)
    # still: 0; LocalVelocity: a; ParabolicLVGA at t = 1: a + t b
    assert np.allclose(v, [(0, 0, 0), (1, 2, 3), (1, 0, -2)], atol=1e-9)


def test_velocity_lines_of_one_emitter_row_and_no_write():
    pool = tiny_pool()
    pool.evaluate()    # what every frame's particle_arrays does; the lines evaluate no more
    before = pool.state.copy(), pool.lifetime.copy()
    seg = velocity_lines(pool, 0, seconds=0.5)
    assert seg.shape == (2, 2, 3)
    assert np.allclose(seg[:, 0], pool.position[pool.evaluate()[:2]])
    assert np.allclose(seg[1, 1] - seg[1, 0], (0.5, 1.0, 1.5))
    assert velocity_lines(pool, 3).shape == (0, 2, 3)
    assert np.array_equal(pool.state, before[0]) and np.array_equal(pool.lifetime, before[1])
