"""Read-only inspection of the live runtime: the one read API of the renderer and the panels.

Nothing here changes the simulation. Two kinds of answer:

* for the renderer (``viewer.render.world_adapter``), typed views of the live state it
  draws from, without copies: ``drawn_objects`` (``ObjectView``: root frame, state bits,
  parts, live lights, Setup spheres), ``particle_pool`` (the pooled particle arrays,
  ``viewer.sim.particles.ParticlePool``), ``pool_emitters``, ``frame_time``,
  ``texture_offsets`` and ``collision_shapes``. The Protocols name exactly what may be read;
  readers never write through them;
* for panels and traces, plain data (dicts, lists, tuples, numpy copies) and the panels'
  frozen view-models (``EmitterView``, ``ObjectSummary``, ``StateTransition``).
"""

from __future__ import annotations

import dataclasses
import enum
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from viewer.dat.records.hooks import is_null_hook
from viewer.errors import format_did
from viewer.sim.frame import Frame
from viewer.sim.hooks import HOOK_NAMES, hook_type_of
from viewer.sim.objdesc import drawn_surfaces, part_textures
from viewer.sim.particles import (
    GR_TYPES,
    I_NUM,
    I_STOPPED,
    I_TOTAL_EMITTED,
    ParticleEmitter,
    ParticlePool,
    particle_law,
)
from viewer.sim.physobj import FP_NAMES, PhysicsObj
from viewer.sim.script_table import get_script
from viewer.sim.state import PhysicsState, state_hex
from viewer.sim.world import PS_HIDDEN, PS_UNHIDE


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
    objdesc: object | None  # ObjDesc surfaces (read with ``part_surfaces``)


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
    translucency: float
    luminosity: float
    diffuse: float
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
    """The UV offset each GfxObj's mesh draws with, per GfxObj DID: what
    CPhysics::UpdateTexVelocity 0x00509820 last wrote through CGfxObj::TexVelocity
    0x005341D0 (kept after AddGfxVelocity 0x00509B60 removes the GfxObj's entry)."""
    return {int(gid): (float(u), float(v)) for gid, (u, v) in world.gfx_uv_delta.items()}


@dataclass(frozen=True)
class Look:
    """How one object (``part`` -1) or one of its parts is drawn now: the values the
    renderer draws from and ``trace --looks`` prints (one source for both).

    ``translucency`` / ``luminosity`` / ``diffuse``: the object's m_translucency etc. on
    the -1 line; the part's material channels on a part line (a CLOAKED owner's part
    translucency is not drawn: 0). ``uv_offset``: the TextureVelocity offset the part's
    GfxObj's mesh last took (CGfxObj::TexVelocity 0x005341D0: one per GfxObj, kept after
    the velocity stops; the root has none of its own: [0, 0]). ``nodraw``: not drawn:
    Hidden, NoDraw (also set on the children of a Hidden parent by set_hidden 0x00514C60
    and by the NoDraw hook via set_nodraw 0x0050FCA0), or the part's draw_state bit
    (CPhysicsPart::SetTranslucency 0x0050E670). ``scale``: the object's m_scale (the -1
    line only). ``gfxobj`` / ``textures`` (part lines, when read with the world): the
    GfxObj drawn and the SurfaceTexture DID on each of its surfaces in surface order (0: a
    solid colour), after ObjDesc part and texture changes (viewer.sim.objdesc)."""

    part: int
    translucency: float
    luminosity: float
    diffuse: float
    uv_offset: tuple[float, float]
    nodraw: bool
    scale: float | None = None
    gfxobj: int | None = None
    textures: tuple[int, ...] | None = None


def part_surfaces(part: PartView):
    """The part's private surfaces as drawn after an ObjDesc (``objdesc.DrawnSurface``
    per surface index: Surface, SurfaceTexture, palette), or None while it draws its
    GfxObj's own surfaces."""
    return drawn_surfaces(part)


def object_looks(obj: ObjectView, offsets: dict[int, tuple[float, float]],
                 world=None) -> list[Look]:
    """The object's look (part -1) then each part's, in part order. ``offsets``:
    ``texture_offsets(world)``; with ``world`` the part lines name their GfxObj and
    textures."""
    state = int(obj.state)
    hidden_obj = bool(state & (PhysicsState.Hidden | PhysicsState.NoDraw))
    cloaked = bool(state & PhysicsState.Cloaked)  # a cloaked part's translucency is not drawn
    out = [Look(-1, float(obj.translucency), float(obj.luminosity), float(obj.diffuse),
                (0.0, 0.0), hidden_obj, float(obj.scale))]
    for p in obj.parts:
        uv = offsets.get(int(p.gfxobj_id), (0.0, 0.0))
        out.append(Look(int(p.index), 0.0 if cloaked else float(p.translucency),
                        float(p.luminosity), float(p.diffuse), (float(uv[0]), float(uv[1])),
                        hidden_obj or (bool(p.hidden) and not cloaked),
                        None, *_part_drawn(world, p)))
    return out


def _part_drawn(world, p) -> tuple[int | None, tuple[int, ...] | None]:
    if world is None:
        return None, None
    if p.objdesc is None or p.objdesc.surfaces is None:  # the GfxObj's own: memoised
        try:
            memo = _SHARED_TEXTURES.setdefault(world.db, {})
        except TypeError:  # a database that takes no weak reference: no memo
            memo = {}
        tex = memo.get(int(p.gfxobj_id))
        if tex is None:
            tex = memo[int(p.gfxobj_id)] = part_textures(world, p)
        return int(p.gfxobj_id), tex
    return int(p.gfxobj_id), part_textures(world, p)


# database -> {GfxObj DID: its surfaces' SurfaceTextures}, for parts drawing their own
_SHARED_TEXTURES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def collision_shapes(world) -> list[dict]:
    """The projectile harness's world shapes (``CollisionWorld.describe``) as plain dicts."""
    return list(world.collision.describe())


def did_str(did) -> str | None:
    return None if not did else format_did(int(did))


def state_bits(state: int) -> list[str]:
    return [b.name for b in PhysicsState if state & b.value]


def owners(world) -> list[int]:
    return list(world.objects)


def object_origin(world, obj_id: int) -> tuple[float, float, float] | None:
    """A live object's root position, or None when it is not in the world now."""
    obj = world.objects.get(obj_id)
    return None if obj is None else tuple(float(v) for v in obj.frame.origin)


def object_facing(world, obj_id: int) -> tuple[tuple[float, float, float],
                                                tuple[float, float, float]] | None:
    """(root position, the frame's +Y in world space: the way it faces) of a live object,
    or None when it is not in the world now."""
    obj = world.objects.get(obj_id)
    if obj is None:
        return None
    frame = obj.frame
    return (tuple(float(v) for v in frame.origin),
            tuple(float(v) for v in frame.local_to_global_vec((0.0, 1.0, 0.0))))


def object_bounds(world, obj_id: int) -> tuple[tuple[float, float, float], float] | None:
    """(root position, Setup selection-sphere radius; 1 without a Setup) of a live object."""
    obj = world.objects.get(obj_id)
    if obj is None:
        return None
    radius = 1.0 if obj.setup is None else float(obj.setup.selection_sphere.radius)
    return tuple(obj.frame.origin), radius


def script_table(world, obj_id: int | None):
    """The PhysicsScriptTable record of a live object (None: no object, or no table)."""
    obj = world.objects.get(obj_id)
    return None if obj is None else obj.table


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
        # a NULL hook (stored type 4 / unknown) has no type: it ends the script
        hooks = [{"time": float(d.start_time),
                  "type": None if is_null_hook(d.hook) else HOOK_NAMES.get(hook_type_of(d.hook))}
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
            slots = em.live_slots()
            idx = np.array([i for _, i in slots], dtype=np.int64)
            pool = world.pool
            pool.evaluate_rows(idx)
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


# --- panel view-models: emitters --------------------------------------------------------------
@dataclass(frozen=True)
class ParticleRow:
    slot: int
    age: float
    lifespan: float
    position: tuple[float, float, float]
    scale: float
    translucency: float
    # what the drawing adds to the position: the particle's orientation (w, x, y, z) and
    # the GfxObj it is drawn with (its emitter's HwGfxObj); a pick and the selection ring
    # take the drawn mesh's centre from them (0: none known)
    orientation: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 0.0)
    gfxobj: int = 0


@dataclass(frozen=True)
class EmitterView:
    handle: int
    owner: int
    part: int
    offset: tuple[float, float, float]
    logical_id: int
    info_did: int
    info: object | None            # ParticleEmitterInfo record
    state: str                     # running / stopped / finished
    alive: int
    emitted: int
    total: int                     # info.total_particles (0: unlimited)
    origin: tuple[float, float, float]
    particles: tuple[ParticleRow, ...] = ()
    detail: tuple[str, ...] = ()   # culling / degrade / persistence (viewer.sim.inspect)


def emitter_state(stopped: bool, alive: int, destroyed: bool = False) -> str:
    """running until stopped; stopped while particles live; finished when none are left
    (or the emitter was destroyed)."""
    if destroyed or (stopped and alive == 0):
        return "finished"
    return "stopped" if stopped else "running"


def _v3(v) -> tuple[float, float, float]:
    return (float(v[0]), float(v[1]), float(v[2]))


def live_emitters(world, with_particles: bool | int = False) -> list[EmitterView]:
    """Every live emitter of every object, by object id then logical id. Particle rows
    for all emitters (``True``) or only the emitter with that handle (an int): building
    rows is per-particle Python, so panels ask only for the one they show."""
    if world is None:
        return []
    pool = world.pool
    if with_particles is True:
        pool.evaluate()
    found = []
    for obj_id in sorted(world.objects):
        pm = world.objects[obj_id].particle_manager
        if pm is not None:
            found += [(obj_id, logical, em)
                      for logical, em in sorted(pm.emitters(), key=lambda p: p[0])]
    counts = _emitter_counts(pool, [em for _, _, em in found])
    out = []
    for (obj_id, logical, em), (alive, emitted, stopped) in zip(found, counts):
        rows = ()
        wanted = with_particles is True or (
            with_particles is not False and int(with_particles) == int(em.handle))
        if wanted:
            if with_particles is not True:  # one emitter: evaluate its rows only
                pool.evaluate_rows([i for _, i in em.live_slots()])
            gfx = int(pool.row_gfx[em.row]) if em.row >= 0 else 0
            rows = tuple(ParticleRow(slot, float(pool.lifetime[i]), float(pool.lifespan[i]),
                                     _v3(pool.position[i]), float(pool.scale[i]),
                                     float(pool.trans[i]),
                                     tuple(float(q) for q in pool.orientation[i]), gfx)
                         for slot, i in em.live_slots())
        detail = ()
        if wanted:
            detail = _emitter_detail(world, obj_id, em.handle)
        out.append(EmitterView(
            handle=int(em.handle), owner=int(em.owner_id), part=int(em.part_index),
            offset=_v3(em.parent_offset.origin), logical_id=int(logical),
            info_did=int(em.info_did), info=em.info,
            state=emitter_state(bool(stopped), alive), alive=alive, emitted=emitted,
            total=int(em.info.total_particles),
            origin=_v3(em.frame.origin), particles=rows, detail=detail))
    return out


@dataclass(frozen=True)
class ParticleHistory:
    """One live particle's attributes over its life, sampled at lifetimes ``t`` from its
    birth to its lifespan (``particle_history``)."""
    t: np.ndarray               # (N,) seconds since its birth
    position: np.ndarray        # (N, 3) world
    velocity: np.ndarray        # (N, 3) world metres per second
    scale: np.ndarray           # (N,)
    alpha: np.ndarray           # (N,) 1 - translucency
    age: float                  # its lifetime now
    lifespan: float


_DT = 1.0 / 1024.0   # central-difference step of the velocity (exact for the polynomial laws)


def particle_history(world, handle: int, slot: int, samples: int = 64
                     ) -> ParticleHistory | None:
    """The attributes of particle ``slot`` of emitter ``handle`` over its whole life, from
    its birth state and its ParticleType's law (Particle::Update 0x0051C290), the same
    evaluation the pool does, at ``samples`` lifetimes; scale and translucency as the pool
    interpolates them. Read only: nothing of the pool or the world changes. A parent-local
    particle is placed on its parent's frame now (the history of that frame is not kept).
    None when no such live particle."""
    pool = world.pool
    em = next((em for obj in world.objects.values()
               if (pm := obj.particle_manager) is not None
               for _, em in pm.emitters() if int(em.handle) == int(handle)), None)
    index = None if em is None else dict(em.live_slots()).get(int(slot))
    if index is None:
        return None
    head = pool.state[index, 0:3]            # birth, accumulated, lifespan
    lifespan = float(head[2])
    age = float(head[1] + pool.em_time[pool.emitter[index]] - head[0])
    t = np.linspace(0.0, max(lifespan, age, 1e-6), max(int(samples), 2))
    ptype = int(pool.ptype[index])
    n = len(t)
    S = np.repeat(pool.state[index:index + 1, 3:22], n, axis=0)   # a copy: read only
    P, Q = S[:, 0:3], S[:, 15:19]
    row = int(pool.emitter[index])
    if pool.em_parent_local[row]:
        P[:] = pool.em_origin[row]
        if ptype in GR_TYPES:
            Q[:] = pool.em_quat[row]
    vecs = (S[:, 3:6], S[:, 6:9], S[:, 9:12], S[:, 12:15])
    pos = particle_law(ptype, t, P, Q, *vecs)[0]
    if pos is None:   # a type without a position law keeps its position
        pos = np.repeat(pool.position[index:index + 1], n, axis=0).astype(np.float64)
        vel = np.zeros((n, 3))
    else:
        ahead = particle_law(ptype, t + _DT, P, Q, *vecs)[0]
        behind = particle_law(ptype, t - _DT, P, Q, *vecs)[0]
        vel = (ahead - behind) / (2.0 * _DT)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(t < lifespan, t / (lifespan if lifespan else 1.0), 1.0)
    s0, s1, a0, a1 = (float(v) for v in pool.state[index, 22:26])
    return ParticleHistory(t, np.asarray(pos, np.float64), vel, s0 + (s1 - s0) * f,
                           1.0 - (a0 + (a1 - a0) * f), age, lifespan)


def _emitter_counts(pool, ems) -> list[tuple[int, int, bool]]:
    """(alive, emitted, stopped) of each emitter, read from the pool's emitter table in
    one gather (not three row-column lookups per emitter); a destroyed emitter (row -1)
    keeps the values it had."""
    rows = np.fromiter((em.row for em in ems), np.int64, len(ems))
    attached = rows >= 0
    table = pool.ei[rows[attached]][:, (I_NUM, I_TOTAL_EMITTED, I_STOPPED)].tolist()
    it = iter(table)
    return [(int(a), int(e), bool(s)) for a, e, s in
            (next(it) if ok else (em.num_particles, em.total_emitted, em.stopped)
             for em, ok in zip(ems, attached.tolist()))]


def _emitter_detail(world, obj_id: int, handle: int) -> tuple[str, ...]:
    for d in emitters(world.objects[obj_id]):
        if d["handle"] == handle:
            cypt = d["cypt"]
            cypt_text = "not drawn yet" if cypt > 1e30 else f"{cypt:.2f} m"
            first = (f"viewer distance (CYpt) {cypt_text}, degrade distance "
                     f"{d['degrade_distance']:g} m, {'CULLED' if d['culled'] else 'drawn'}")
            second = (f"{'persistent' if d['persistent'] else 'finite'}, max "
                      f"{d['max_particles']} particles, created {d['creation_time']:.3f} s")
            return (first, second)
    return ()


def emitter_info_fields(info) -> list[tuple[str, str]]:
    """(name, value) of every ParticleEmitterInfo field, in record order."""
    if info is None:
        return []
    rows = []
    for f in dataclasses.fields(info):
        name, value = f.name, getattr(info, f.name)
        if name.endswith("_id") or name == "id":
            text = f"0x{int(value):08X}"
        elif isinstance(value, float):
            text = f"{value:g}"
        elif isinstance(value, tuple):
            text = "(" + ", ".join(f"{float(c):g}" for c in value) + ")"
        elif isinstance(value, enum.Enum):
            text = f"{value.name} ({int(value)})"
        else:
            text = str(value)
        rows.append((name, text))
    return rows


# --- objects / Hidden-UnHide ------------------------------------------------------------------
@dataclass(frozen=True)
class ObjectSummary:
    id: int
    setup_did: int
    table_did: int
    state: int
    hidden: bool
    position: tuple[float, float, float]
    parts: tuple[tuple[int, int, tuple[float, float, float]], ...]  # (index, gfxobj, origin)
    lights: int
    children: tuple[tuple[int, int, bool], ...]   # (child id, parent part, child NoDraw)
    default_script: int
    hidden_script: int       # resolved Hidden (0x76) at intensity 1.0 (set_hidden)
    unhide_script: int       # resolved UnHide (0x75) at intensity 1.0
    part_orientations: tuple[tuple[float, float, float, float], ...] = ()  # (w, x, y, z)
    light_rows: tuple[str, ...] = ()   # one line per live light (viewer.sim.inspect.lights)
    queue_rows: tuple[str, ...] = ()   # the ScriptManager FIFO, head first
    tween_rows: tuple[str, ...] = ()   # FPHook tweens and delayed CallPES


def object_summaries(world) -> list[ObjectSummary]:
    if world is None:
        return []
    out = []
    for obj_id in sorted(world.objects):
        o = world.objects[obj_id]
        table = o.table
        parts = tuple((int(p.index), int(p.gfxobj_id), _v3(p.frame.origin)) for p in o.parts)
        children = tuple((int(link.child.id), int(link.part_index),
                          bool(int(link.child.state) & PhysicsState.NoDraw))
                         for link in o.children)
        quats = tuple(tuple(float(v) for v in p.frame.orientation) for p in o.parts)
        light_rows = tuple(
            f"{li['index']}: type {li['type']} colour {li['color']} intensity "
            f"{li['intensity']:g} falloff {li['falloff']:g} at ({li['origin'][0]:.2f}, "
            f"{li['origin'][1]:.2f}, {li['origin'][2]:.2f})" for li in lights(o))
        queue_rows = tuple(_queue_row(i, q) for i, q in enumerate(script_queue(o)))
        tween_rows = tuple(
            f"{tw['type']}: {tw['start']:g} -> {tw['end']:g} over {tw['duration']:g} s "
            f"from {tw['created']:.3f} s" for tw in tweens(o))
        out.append(ObjectSummary(
            queue_rows=queue_rows, tween_rows=tween_rows,
            part_orientations=quats, light_rows=light_rows,
            id=int(o.id), setup_did=int(o.setup_did), table_did=int(o.table_did),
            state=int(o.state),
            hidden=bool(int(o.state) & PhysicsState.Hidden), position=_v3(o.frame.origin),
            parts=parts, lights=len(o.lights or ()), children=children,
            default_script=_default_script(o),
            # CPhysicsObj::set_hidden 0x00514C60 resolves with intensity 1.0
            hidden_script=get_script(table, PS_HIDDEN, 1.0),
            unhide_script=get_script(table, PS_UNHIDE, 1.0)))
    return out


def _default_script(obj: PhysicsObj) -> int:
    """The Setup's DefaultScript DID (0: none, or no Setup)."""
    return 0 if obj.setup is None else int(obj.setup.default_script)


def _queue_row(i: int, q: dict) -> str:
    head = ""
    if i == 0:
        head = f", last hook {q.get('hook_index')}, next at {q.get('next_hook_time', 0.0):.3f} s"
    return (f"{q['script']} starts {q['start']:.3f} s, length {q['length']:g} s, "
            f"{len(q['hooks'])} hooks{head}")


@dataclass(frozen=True)
class StateTransition:
    t: float
    owner: int
    state: int
    hidden: bool
    scripts: tuple[tuple[str, int], ...]   # (Hidden / UnHide, resolved DID or 0)


def state_transitions(events, owner: int | None = None) -> list[StateTransition]:
    """``state`` events with the Hidden / UnHide resolutions of the same owner and time."""
    resolves: dict[tuple[float, int], list[tuple[str, int]]] = {}
    for ev in events:
        if ev.get("event") == "resolve" and int(ev.get("type", -1)) in (PS_HIDDEN, PS_UNHIDE):
            key = (float(ev.get("t", 0.0)), int(ev.get("owner", 0)))
            name = "Hidden" if int(ev["type"]) == PS_HIDDEN else "UnHide"
            resolves.setdefault(key, []).append((name, _did(ev.get("script"))))
    out = []
    for ev in events:
        if ev.get("event") != "state":
            continue
        o = int(ev.get("owner", 0))
        if owner is not None and o != owner:
            continue
        t = float(ev.get("t", 0.0))
        out.append(StateTransition(t, o, _did(ev.get("state")), bool(ev.get("hidden")),
                                   tuple(resolves.pop((t, o), ()))))
    return out


def _did(value) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return int(value, 0)
    return int(value)


def state_bit_rows(state: int) -> list[tuple[str, int, bool]]:
    """(name, bit, set) for every PhysicsState bit, low to high."""
    return [(m.name, int(m), bool(state & int(m))) for m in PhysicsState]
