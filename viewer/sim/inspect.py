"""Read-only inspection of the live runtime: the one read API of the renderer and the panels.

Nothing here changes the simulation. Two kinds of answer:

* for the renderer (``viewer.render.world_adapter``), typed views of the live state it
  draws from, without copies: ``drawn_objects`` (``ObjectView``: root frame, state bits,
  parts, live lights, Setup spheres), ``particle_pool`` (the pooled particle arrays,
  ``viewer.sim.particles.ParticlePool``), ``pool_emitters``, ``frame_time``,
  ``texture_offsets`` and ``collision_shapes``. The Protocols name exactly what may be read;
  readers never write through them;
* for panels and traces, plain data (dicts, lists, tuples, numpy copies).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from viewer.errors import format_did
from viewer.sim.frame import Frame
from viewer.sim.hooks import HOOK_NAMES, hook_type_of
from viewer.sim.particles import ParticleEmitter, ParticlePool
from viewer.sim.physobj import FP_NAMES, PhysicsObj
from viewer.sim.state import PhysicsState, state_hex


# --- the renderer's read API ----------------------------------------------------------------
class PartView(Protocol):
    """One CPhysicsPart as drawn: GfxObj, world frame, drawable scale, material channels,
    draw_state hidden bit (``viewer.sim.physobj.PartState``)."""

    index: int
    gfxobj_id: int
    frame: Frame
    gfxobj_scale: tuple[float, float, float]
    translucency: float
    luminosity: float
    diffuse: float
    hidden: bool


class LightView(Protocol):
    """A live Setup light: its LightInfo record and its world frame now."""

    index: int
    info: object
    world: Frame


class ObjectView(Protocol):
    """What the renderer reads of a CPhysicsObj (``viewer.sim.physobj.PhysicsObj``)."""

    id: int
    state: int
    frame: Frame
    scale: float
    setup: object | None          # the Setup record (spheres, sorting_sphere, ...)
    parts: Sequence[PartView]


def drawn_objects(world) -> list[ObjectView]:
    """Every object of the object table, in creation order."""
    return list(world.objects.values())


def live_lights(obj: PhysicsObj) -> list[LightView]:
    """The object's lights as they stand: the runtime keeps the list only while LIGHTING_ON
    is set (``set_lights`` 0x0050FCF0), so the state bit decides whether they shine."""
    if not obj.state & PhysicsState.Lighting:
        return []
    return list(obj.lights or ())


def particle_pool(world) -> ParticlePool:
    """The pooled particle arrays of every emitter (read with numpy indexing)."""
    return world.pool


def pool_emitters(world) -> list[ParticleEmitter]:
    """The live emitters in pool-row order (the order ``ParticlePool.row_*`` index)."""
    return [em for em in world.pool.row_emitter if em is not None]


def frame_time(world) -> float:
    """Timer.cur_time of the frame being drawn, in seconds."""
    return float(world.time)


def texture_offsets(world) -> dict[int, tuple[float, float]]:
    """CPhysics::UpdateTexVelocity 0x00509820: the accumulated UV offset per GfxObj DID."""
    return {int(gid): (float(e[2]), float(e[3])) for gid, e in world.texture_velocity.items()}


def collision_shapes(world) -> list[dict]:
    """The projectile harness's world shapes (``CollisionWorld.describe``) as plain dicts."""
    return list(world.collision.describe())


def did_str(did) -> str | None:
    return None if not did else format_did(int(did))


def state_bits(state: int) -> list[str]:
    return [b.name for b in PhysicsState if state & b.value]


def owners(world) -> list[int]:
    return list(world.objects)


def object_summary(obj: PhysicsObj) -> dict:
    return {
        "id": obj.id, "setup": did_str(obj.setup_did), "table": did_str(obj.table_did),
        "state": state_hex(obj.state), "bits": state_bits(obj.state),
        "hidden": obj.hidden, "nodraw": obj.nodraw, "active": obj.active,
        # created static (landblock-style) and animated by animate_static_object 0x00513DF0
        "static_animating": obj.static_animating,
        "origin": tuple(obj.frame.origin), "orientation": tuple(obj.frame.orientation),
        "velocity": tuple(obj.velocity), "omega": tuple(obj.omega), "scale": obj.scale,
        "translucency": obj.translucency, "luminosity": obj.luminosity,
        "diffuse": obj.diffuse,
        "default_script": (obj.default_script_type, obj.default_script_intensity),
        "parts": [part_summary(p) for p in obj.parts],
        "lights": lights(obj),
        "children": [(link.child.id, link.part_index) for link in obj.children],
        "parent": obj.parent.id if obj.parent is not None else None,
        "queue": script_queue(obj),
        "tweens": tweens(obj),
        "emitters": emitters(obj),
        "motion": obj.motion.describe() if hasattr(obj.motion, "describe") else None,
    }


def part_summary(p) -> dict:
    return {"index": p.index, "gfxobj": did_str(p.gfxobj_id), "origin": tuple(p.frame.origin),
            "orientation": tuple(p.frame.orientation), "scale": tuple(p.gfxobj_scale),
            "translucency": p.translucency, "luminosity": p.luminosity,
            "diffuse": p.diffuse, "hidden": p.hidden}


def lights(obj: PhysicsObj) -> list[dict]:
    out = []
    for ls in obj.lights or ():
        out.append({"index": ls.index, "type": int(ls.info.type),
                    "origin": tuple(ls.world.origin), "orientation": tuple(ls.world.orientation),
                    "color": f"0x{int(ls.info.color) & 0xFFFFFFFF:08X}",
                    "intensity": float(ls.info.intensity), "falloff": float(ls.info.falloff),
                    "cone_angle": float(ls.info.cone_angle)})
    return out


def script_queue(obj: PhysicsObj) -> list[dict]:
    """The owner's ScriptManager FIFO: head first, with each node's start time and, for the
    head, the index of the last fired hook and the next hook time."""
    sm = obj.script_manager
    if sm is None:
        return []
    out = []
    for i, node in enumerate(sm.queue):
        hooks = [{"time": float(d.start_time), "type": HOOK_NAMES.get(hook_type_of(d.hook))}
                 for d in node.script.script_data]
        entry = {"script": did_str(node.did), "start": node.start,
                 "length": float(node.script.length), "hooks": hooks}
        if i == 0:
            entry["hook_index"] = sm.hook_index
            entry["next_hook_time"] = sm.next_hook_time
        out.append(entry)
    return out


def tweens(obj: PhysicsObj) -> list[dict]:
    """FPHook tweens and delayed CallPES, newest first (process_hooks order)."""
    return [{"type": FP_NAMES.get(fp.hook_type, str(fp.hook_type)), "start": fp.start_value,
             "end": fp.end_value, "created": fp.time_created,
             "duration": fp.interpolation_time, "user": fp.user_data} for fp in obj.fp_hooks]


def emitters(obj: PhysicsObj) -> list[dict]:
    pm = obj.particle_manager
    if pm is None:
        return []
    out = []
    for logical, em in pm.emitters():
        out.append({"handle": em.handle, "logical_id": logical, "info": did_str(em.info_did),
                    "part": em.part_index, "particles": em.num_particles,
                    "total_emitted": em.total_emitted, "stopped": em.stopped,
                    "culled": em.degraded_out, "persistent": em.persistent,
                    "max_particles": em.max_particles, "origin": tuple(em.frame.origin),
                    "cypt": em.cypt, "degrade_distance": em.degrade_distance,
                    "creation_time": em.creation_time})
    return out


def emitter_particles(world, handle: int) -> dict | None:
    """One emitter's live particles in slot order (positions, scales, trans)."""
    for em in world.pool.row_emitter:
        if em is not None and em.handle == handle:
            world.pool.evaluate()
            slots = em.live_slots()
            idx = np.array([i for _, i in slots], dtype=np.int64)
            pool = world.pool
            return {"handle": handle, "slots": [s for s, _ in slots],
                    "positions": pool.position[idx].copy(), "scales": pool.scale[idx].copy(),
                    "trans": pool.trans[idx].copy(), "lifetimes": pool.lifetime[idx].copy()}
    return None


def totals(world) -> dict:
    return {"time": world.timer_now, "updates": world.updates,
            "objects": len(world.objects), "emitters": world.pool.emitter_count,
            "particles": world.pool.live_count,
            "queued_scripts": sum(len(o.script_manager) for o in world.objects.values()
                                  if o.script_manager is not None),
            "rng_draws": world.rng.draws}


def texture_velocities(world) -> dict[str, dict]:
    """CPhysics::texture_velocity_gids (advanced by CPhysics::UpdateTexVelocity 0x00509820):
    per GfxObj, the UV speed and the accumulated offset."""
    return {did_str(gid): {"du": e[0], "dv": e[1], "u": e[2], "v": e[3]}
            for gid, e in world.texture_velocity.items()}


def world_lights(world) -> list[dict]:
    """Every live light of every object (Lighting on), with its owner."""
    out = []
    for obj in world.objects.values():
        for light in lights(obj):
            out.append({"owner": obj.id, **light})
    return out
