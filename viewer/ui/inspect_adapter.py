"""Thin read-only adapter from the runtime (``viewer.sim.world.World``) to the panels'
view-models. Panels never touch the runtime; they get these frozen values.

Reads only documented state (PhysicsObj fields, ParticleManager.emitters(), the
ParticlePool arrays after ``evaluate()``) and the trace-shaped event log. When
``viewer.sim.inspect`` grows the same queries this module becomes a pass-through.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from viewer.sim.script_table import get_script
from viewer.sim.state import PhysicsState

PS_UNHIDE = 0x75
PS_HIDDEN = 0x76


# --- emitters -------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParticleRow:
    slot: int
    age: float
    lifespan: float
    position: tuple[float, float, float]
    scale: float
    translucency: float


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
    pool = getattr(world, "pool", None)
    if with_particles is not False and pool is not None:
        pool.evaluate()
    out = []
    for obj_id in sorted(world.objects):
        pm = world.objects[obj_id].particle_manager
        if pm is None:
            continue
        for logical, em in sorted(pm.emitters(), key=lambda p: p[0]):
            rows = ()
            wanted = with_particles is True or (
                with_particles is not False and int(with_particles) == int(em.handle))
            if wanted and pool is not None:
                rows = tuple(ParticleRow(slot, float(pool.lifetime[i]), float(pool.lifespan[i]),
                                         _v3(pool.position[i]), float(pool.scale[i]),
                                         float(pool.trans[i]))
                             for slot, i in em.live_slots())
            off = getattr(em.parent_offset, "origin", (0.0, 0.0, 0.0))
            detail = ()
            if wanted:
                detail = _emitter_detail(world, obj_id, em.handle)
            out.append(EmitterView(
                handle=int(em.handle), owner=int(em.owner_id), part=int(em.part_index),
                offset=_v3(off), logical_id=int(logical), info_did=int(em.info_did),
                info=em.info, state=emitter_state(bool(em.stopped), int(em.num_particles)),
                alive=int(em.num_particles), emitted=int(em.total_emitted),
                total=int(getattr(em.info, "total_particles", 0)),
                origin=_v3(em.frame.origin), particles=rows, detail=detail))
    return out


def _emitter_detail(world, obj_id: int, handle: int) -> tuple[str, ...]:
    from viewer.sim import inspect as sim_inspect

    for d in sim_inspect.emitters(world.objects[obj_id]):
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
    names = getattr(type(info), "__dataclass_fields__", None) or {}
    rows = []
    for name in names:
        value = getattr(info, name)
        if name.endswith("_id") or name == "id":
            text = f"0x{int(value):08X}"
        elif isinstance(value, float):
            text = f"{value:g}"
        elif isinstance(value, tuple):
            text = "(" + ", ".join(f"{float(c):g}" for c in value) + ")"
        elif hasattr(value, "name"):
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
        table = getattr(o, "table", None)
        parts = tuple((int(p.index), int(p.gfxobj_id), _v3(p.frame.origin)) for p in o.parts)
        children = tuple((int(link.child.id), int(link.part_index),
                          bool(int(link.child.state) & PhysicsState.NoDraw))
                         for link in getattr(o, "children", ()))
        setup = getattr(o, "setup", None)
        quats = tuple(tuple(float(v) for v in p.frame.orientation) for p in o.parts)
        from viewer.sim import inspect as sim_inspect
        light_rows = tuple(
            f"{li['index']}: type {li['type']} colour {li['color']} intensity "
            f"{li['intensity']:g} falloff {li['falloff']:g} at ({li['origin'][0]:.2f}, "
            f"{li['origin'][1]:.2f}, {li['origin'][2]:.2f})" for li in sim_inspect.lights(o))
        queue_rows = tuple(_queue_row(i, q) for i, q in enumerate(sim_inspect.script_queue(o)))
        tween_rows = tuple(
            f"{tw['type']}: {tw['start']:g} -> {tw['end']:g} over {tw['duration']:g} s "
            f"from {tw['created']:.3f} s" for tw in sim_inspect.tweens(o))
        out.append(ObjectSummary(
            queue_rows=queue_rows, tween_rows=tween_rows,
            part_orientations=quats, light_rows=light_rows,
            id=int(o.id), setup_did=int(getattr(o, "setup_did", 0) or 0),
            table_did=int(getattr(o, "table_did", 0) or 0), state=int(o.state),
            hidden=bool(int(o.state) & PhysicsState.Hidden), position=_v3(o.frame.origin),
            parts=parts, lights=len(getattr(o, "lights", None) or ()), children=children,
            default_script=int(getattr(setup, "default_script", 0) or 0),
            # CPhysicsObj::set_hidden 0x00514C60 resolves with intensity 1.0
            hidden_script=get_script(table, PS_HIDDEN, 1.0),
            unhide_script=get_script(table, PS_UNHIDE, 1.0)))
    return out


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


def state_bits(state: int) -> list[tuple[str, int, bool]]:
    """(name, bit, set) for every PhysicsState bit, low to high."""
    return [(m.name, int(m), bool(state & int(m))) for m in PhysicsState]


def finite(x: float) -> bool:
    return math.isfinite(x)
