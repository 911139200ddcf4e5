"""Build a SceneInput from the simulation's World (read only).

Objects: every PhysicsObj part becomes a MeshInstance (its world frame, gfxobj_scale,
translucency / luminosity / diffuse channels); Hidden and NoDraw objects and parts whose
draw_state bit is set are marked hidden (`CPhysicsObj::set_hidden` 0x00514C60,
`CPhysicsPart::SetTranslucency` 0x0050E670). Lights come from the objects' live light list,
which the runtime keeps only while LIGHTING_ON is set (`set_state` 0x00514DD0 /
`set_lights` 0x0050FCF0, the SetLight hook drives the same state).

Particles: the runtime's pooled arrays (``ParticlePool``) are read with numpy indexing; the
only Python work is one small table per emitter row (HwGfxObj DID, emitter object origin,
culled flag), never per particle.
"""

from __future__ import annotations

import numpy as np

from viewer.render.scene_input import (
    CLOAKED,
    HIDDEN,
    LIGHTING_ON,
    NODRAW,
    MeshInstance,
    Overlays,
    ParticleArrays,
    SceneInput,
    SceneLight,
    SphereOverlay,
    frame_matrix,
)


def _objects(world):
    objs = getattr(world, "objects", None)
    if objs is None:
        return []
    return list(objs.values()) if isinstance(objs, dict) else list(objs)


def _pool(world):
    for name in ("particle_pool", "pool", "particles"):
        pool = getattr(world, name, None)
        if pool is not None and hasattr(pool, "evaluate"):
            return pool
    return None


def _light(ls, owner: int) -> SceneLight:
    from viewer.render.lights import scene_light
    return scene_light(ls.info, ls.world.origin, ls.world.orientation, owner)


def object_meshes(obj, tex_velocity=None) -> list[MeshInstance]:
    hidden_obj = bool(int(obj.state) & (HIDDEN | NODRAW))
    # runtime spec 3.5.3: part translucency is ignored entirely for a CLOAKED owner
    cloaked = bool(int(obj.state) & CLOAKED)
    out = []
    for p in obj.parts:
        if not p.gfxobj_id:
            continue
        lum = float(p.luminosity)
        dif = float(p.diffuse)
        # CPhysics::UpdateTexVelocity 0x00509820 keeps one UV offset per GfxObj
        tv = (tex_velocity or {}).get(int(p.gfxobj_id))
        uv = (tv[2], tv[3]) if tv is not None else (0.0, 0.0)
        out.append(MeshInstance(
            int(p.gfxobj_id), frame_matrix(p.frame.origin, p.frame.orientation),
            tuple(float(c) for c in p.gfxobj_scale), 0.0 if cloaked else float(p.translucency),
            # the private material copy exists only off the defaults (runtime spec 10)
            None if lum == 0.0 else lum, None if dif == 1.0 else dif,
            (float(uv[0]), float(uv[1])), int(obj.id), int(p.index),
            hidden_obj or (bool(p.hidden) and not cloaked)))
    return out


def particle_arrays(pool) -> ParticleArrays:
    """Every drawn particle of the pool, emitter by emitter in slot order."""
    live = pool.evaluate()
    if live.size == 0:
        return ParticleArrays.empty()
    n_rows = len(pool.row_emitter)
    # the pool's per-row table (GfxObj, emitter origin, drawn): no walk over the emitters
    gfx = pool.row_gfx[:n_rows]
    origin = pool.row_origin[:n_rows].copy()
    drawn = pool.row_drawn[:n_rows]  # SetNoDraw on live parts while culled (review I4)
    rows = pool.emitter[live]
    keep = drawn[rows]
    live, rows = live[keep], rows[keep]
    order = np.lexsort((pool.slot[live], rows))
    live, rows = live[order], rows[order]
    return ParticleArrays(pool.position[live].copy(), pool.orientation[live].copy(),
                          pool.scale[live].copy(), pool.trans[live].copy(), gfx[rows],
                          rows.astype(np.int32), origin)


def overlays_for(obj, pool_emitters=()) -> Overlays:
    ov = Overlays()
    setup = obj.setup
    f = obj.frame
    s = float(getattr(obj, "scale", 1.0))
    from viewer.sim.frame import quat_rotate
    if setup is not None:
        for sp in getattr(setup, "spheres", ()) or ():
            c = quat_rotate(f.orientation, tuple(float(v) * s for v in sp.center))
            ov.spheres.append(SphereOverlay(tuple(f.origin[i] + c[i] for i in range(3)),
                                            float(sp.radius) * s, "collision"))
        ss = getattr(setup, "sorting_sphere", None)
        if ss is not None and ss.radius > 0:
            c = quat_rotate(f.orientation, tuple(float(v) * s for v in ss.center))
            ov.spheres.append(SphereOverlay(tuple(f.origin[i] + c[i] for i in range(3)),
                                            float(ss.radius) * s, "sorting"))
    for p in obj.parts:
        ov.part_axes.append(frame_matrix(p.frame.origin, p.frame.orientation))
    return ov


def build_scene_input(world) -> SceneInput:
    scene = SceneInput(time=float(getattr(world, "time", 0.0) or 0.0))
    for obj in _objects(world):
        scene.meshes.extend(object_meshes(obj, getattr(world, "texture_velocity", None)))
        if int(obj.state) & LIGHTING_ON and obj.lights:
            scene.lights.extend(_light(ls, int(obj.id)) for ls in obj.lights)
        ov = overlays_for(obj)
        scene.overlays.spheres.extend(ov.spheres)
        scene.overlays.part_axes.extend(ov.part_axes)
    for gid, tv in (getattr(world, "texture_velocity", None) or {}).items():
        scene.texture_offsets[int(gid)] = (float(tv[2]), float(tv[3]))
    cw = getattr(world, "collision", None)
    if cw is not None and hasattr(cw, "describe"):
        scene.overlays.collision = list(cw.describe())
    pool = _pool(world)
    if pool is not None:
        scene.particles = particle_arrays(pool)
        for em in pool.row_emitter:
            if em is not None:
                scene.overlays.emitter_anchors.append(tuple(em.frame.origin))
                r = float(getattr(em.info, "max_offset", 0.0) or 0.0)
                if r > 0:
                    scene.overlays.spheres.append(SphereOverlay(tuple(em.frame.origin), r,
                                                                "shell"))
    return scene
