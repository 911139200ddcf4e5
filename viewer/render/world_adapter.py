"""Build a SceneInput from the simulation's World (read only).

Objects: every PhysicsObj part becomes a MeshInstance (its world frame, gfxobj_scale,
translucency / luminosity / diffuse channels); Hidden and NoDraw objects and parts whose
draw_state bit is set are marked hidden (`CPhysicsObj::set_hidden` 0x00514C60,
`CPhysicsPart::SetTranslucency` 0x0050E670). Lights come from the objects' live light list,
which the runtime keeps only while LIGHTING_ON is set (`set_state` 0x00514DD0 /
`set_lights` 0x0050FCF0, the SetLight hook drives the same state).

Everything is read through ``viewer.sim.inspect`` (the typed read API); nothing here writes
to the runtime.

Particles: the runtime's pooled arrays (``ParticlePool``) are read with numpy indexing; the
only Python work is one small table per emitter row (HwGfxObj DID, emitter object origin,
culled flag), never per particle.
"""

from __future__ import annotations

import numpy as np

from viewer.render.lights import scene_light
from viewer.render.particle_debug import particle_tints
from viewer.render.particles import prepare_kernel
from viewer.render.particles_gpu import particle_snapshot
from viewer.render.scene_input import (
    MeshInstance,
    Overlays,
    ParticleArrays,
    SceneInput,
    SphereOverlay,
    frame_matrix,
)
from viewer.sim import inspect
from viewer.sim.frame import quat_rotate
from viewer.sim.inspect import ObjectView
from viewer.sim.particles import ParticlePool, settle_compiled, use_eval_kernel


def object_meshes(obj: ObjectView,
                  uv_offsets: dict[int, tuple[float, float]] | None = None) -> list[MeshInstance]:
    """One MeshInstance per part with a GfxObj, its material channels, UV offset and
    hidden flag from ``inspect.object_looks`` (what ``trace --looks`` prints)."""
    looks = inspect.object_looks(obj, uv_offsets or {})[1:]
    out = []
    for p, look in zip(obj.parts, looks, strict=True):
        if not p.gfxobj_id:
            continue
        lum, dif = look.luminosity, look.diffuse
        out.append(MeshInstance(
            int(p.gfxobj_id), frame_matrix(p.frame.origin, p.frame.orientation),
            tuple(float(c) for c in p.gfxobj_scale), look.translucency,
            # the private material copy exists only off the defaults
            None if lum == 0.0 else lum, None if dif == 1.0 else dif,
            look.uv_offset, int(obj.id), int(p.index), look.nodraw,
            inspect.part_surfaces(p)))
    return out


# the arrays last built per pool (by DirtySlots serial): a paused viewer asks for the same
# pool state every frame; (serial, ticks, version, colour) names that state, since every
# change to what is drawn happens in a tick or bumps the pool's version
_ARRAYS_MEMO: dict[int, tuple[tuple, ParticleArrays]] = {}
_MEMO_POOLS = 2


def particle_arrays(pool: ParticlePool, colour: str = "none") -> ParticleArrays:
    """Every drawn particle of the pool, emitter by emitter in slot order; ``colour``: the
    View > Particle colour mode whose tints ride along (``particle_colour``). The same
    object again while the pool has not changed (no tick, no version bump), so a paused
    frame neither evaluates nor copies the pool and the renderer keeps its upload."""
    log = pool.dirty
    key = (log.ticks, pool.version, colour)
    hit = _ARRAYS_MEMO.get(log.serial)
    if hit is not None and hit[0] == key:
        return hit[1]
    arrays = _particle_arrays(pool, colour)
    _ARRAYS_MEMO.pop(log.serial, None)
    while len(_ARRAYS_MEMO) >= _MEMO_POOLS:
        _ARRAYS_MEMO.pop(next(iter(_ARRAYS_MEMO)))
    _ARRAYS_MEMO[log.serial] = (key, arrays)
    return arrays


def _particle_arrays(pool: ParticlePool, colour: str) -> ParticleArrays:
    live = pool.evaluate()
    if live.size == 0:
        return ParticleArrays.empty()
    n_rows = len(pool.row_emitter)
    # the pool's per-row table (GfxObj, emitter origin, drawn): no walk over the emitters
    gfx = pool.row_gfx[:n_rows]
    origin = pool.row_origin[:n_rows].copy()
    drawn = pool.row_drawn[:n_rows]  # SetNoDraw on live parts while culled
    if use_eval_kernel(pool.eval_mode, live.size):  # busy: compiled, the same rows
        K = prepare_kernel()
        live = K.drawn_slot_order(live, pool.emitter, pool.slot, drawn,
                                  K.SCRATCH.get(live.size)[0])
        settle_compiled("drawn order")
        if colour != "none":
            live = live.copy()  # the scratch is reused by the next call
        pos, quat, scale, trans, gfx_rows, rows = K.gather_rows(
            live, pool.position, pool.orientation, pool.scale, pool.trans, pool.emitter, gfx)
        return ParticleArrays(pos, quat, scale, trans, gfx_rows, rows, origin,
                              particle_tints(pool, live, rows, colour))
    rows = pool.emitter[live]
    keep = drawn[rows]
    live, rows = live[keep], rows[keep]
    order = np.lexsort((pool.slot[live], rows))
    live, rows = live[order], rows[order]
    return ParticleArrays(pool.position[live].copy(), pool.orientation[live].copy(),
                          pool.scale[live].copy(), pool.trans[live].copy(), gfx[rows].copy(),
                          rows.astype(np.int32), origin,
                          particle_tints(pool, live, rows, colour))


def _world_sphere(obj: ObjectView, sphere, kind: str) -> SphereOverlay:
    """A Setup sphere (object-local, scaled with the object) at the object's frame."""
    f, s = obj.frame, float(obj.scale)
    c = quat_rotate(f.orientation, tuple(float(v) * s for v in sphere.center))
    return SphereOverlay(tuple(f.origin[i] + c[i] for i in range(3)), float(sphere.radius) * s,
                         kind)


def overlays_for(obj: ObjectView) -> Overlays:
    ov = Overlays()
    setup = obj.setup
    if setup is not None:
        ov.spheres.extend(_world_sphere(obj, sp, "collision") for sp in setup.spheres)
        if setup.sorting_sphere.radius > 0:
            ov.spheres.append(_world_sphere(obj, setup.sorting_sphere, "sorting"))
    for p in obj.parts:
        ov.part_axes.append(frame_matrix(p.frame.origin, p.frame.orientation))
    return ov


def build_scene_input(world, *, gpu_particles: bool = False,
                      particle_colour: str = "none") -> SceneInput:
    """The scene of the frame just simulated, read through ``viewer.sim.inspect``.
    ``gpu_particles``: the particles as a snapshot for the GPU pass (only the slots changed
    since the previous snapshot; ``particles_gpu.particle_snapshot``), not evaluated here."""
    scene = SceneInput(time=inspect.frame_time(world))
    scene.texture_offsets = inspect.texture_offsets(world)
    for obj in inspect.drawn_objects(world):
        scene.meshes.extend(object_meshes(obj, scene.texture_offsets))
        scene.lights.extend(scene_light(ls.info, ls.world.origin, ls.world.orientation,
                                        int(obj.id)) for ls in inspect.live_lights(obj))
        ov = overlays_for(obj)
        scene.overlays.spheres.extend(ov.spheres)
        scene.overlays.part_axes.extend(ov.part_axes)
    scene.overlays.collision = inspect.collision_shapes(world)
    pool = inspect.particle_pool(world)
    if gpu_particles and particle_colour == "none":
        scene.particle_snapshot = particle_snapshot(pool)
    else:
        scene.particles = particle_arrays(pool, particle_colour)
    for em in inspect.pool_emitters(world):
        scene.overlays.emitter_anchors.append(tuple(em.frame.origin))
        r = float(em.info.max_offset)
        if r > 0:
            scene.overlays.spheres.append(SphereOverlay(tuple(em.frame.origin), r, "shell"))
    return scene
