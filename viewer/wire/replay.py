"""Capture replay in plain forms: JSON lines (docs/cli.md section 7) and scenario events.

* ``message_json(item)`` - one decoded message as the JSON object ``vfxviewer replay --json``
  prints: ``t`` (seconds from the first packet), ``opcode`` (hex), ``dir``, ``name`` and the
  decoded fields (GUIDs, DIDs, states and flags as ``0x`` + 8 hex digits, NaN as ``"nan"``).
* ``message_text(item)`` - the same on one readable line.
* ``replay_events(path, guid=None)`` - runs the object-event layer (``smartbox``) over the
  capture and returns ``{"objects": [...], "events": [...], "stats": {...}}`` in the scenario
  vocabulary of docs/cli.md section 4, for the runtime to build a timeline from.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np

from viewer.wire.descs import PhysicsDesc, Position
from viewer.wire.messages import (
    CreateObject,
    Message,
    ObjDescEvent,
    PlayerCreate,
    PlayScriptId,
    PlayScriptType,
    SetState,
)
from viewer.wire.pipeline import Decoded, ReplayStats, iter_messages
from viewer.wire.smartbox import Apply, SmartBox

# Integer fields written as 0x + 8 hex digits (GUIDs, DIDs, bit sets).
HEX_FIELDS = frozenset({
    "guid", "parent_guid", "child_guid", "target_guid", "sticky_object", "script_did",
    "setup", "motion_table", "sound_table", "physics_script_table", "state", "flags", "bits",
    "header", "header2", "obj_desc_bits", "item_type", "icon", "base_palette", "palette",
    "old_texture", "new_texture", "gfxobj", "cell", "intensity_bits", "container_guid",
    "wielder_guid", "house_owner_guid", "monarch_guid", "pet_owner_guid", "icon_overlay",
    "icon_underlay", "animframe_id", "placement_id", "bitmember", "checksum",
    "current_style", "forward_command", "sidestep_command", "turn_command",
})
F64_FIELDS = frozenset({"cooldown_duration"})


def f32_json(v: float):
    """A float32 value as the shortest decimal that reads back to it; NaN/inf as strings."""
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(str(np.float32(v)))


def f64_json(v: float):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def hex32(v: int) -> str:
    return f"0x{v & 0xFFFFFFFF:08X}"


def to_json(value, name: str = ""):
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return hex32(value) if name in HEX_FIELDS else value
    if isinstance(value, float):
        return f64_json(value) if name in F64_FIELDS else f32_json(value)
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if dataclasses.is_dataclass(value):
        return {f.name: to_json(getattr(value, f.name), f.name)
                for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        if name == "fields":  # WeenieDesc optional fields: (name, value) pairs
            return {k: to_json(v, k) for k, v in value}
        return [to_json(v, name) for v in value]
    return value


def message_json(item: Decoded) -> dict:
    out = {"t": round(item.t, 6), "opcode": f"0x{item.opcode:04X}", "dir": item.dir}
    if item.wrapper is not None:
        out["wrapper"] = f"0x{item.wrapper:04X}"
    msg = item.message
    if msg is None:
        out["name"] = None
        out["size"] = item.size
        return out
    out["name"] = type(msg).NAME
    out.update(to_json(msg))
    return out


def message_text(item: Decoded) -> str:
    msg = item.message
    head = f"{item.t:10.6f} {item.dir} 0x{item.opcode:04X}"
    if msg is None:
        return f"{head} ({item.size} bytes, not decoded)"
    name = type(msg).NAME
    if isinstance(msg, PlayScriptType):
        return (f"{head} {name} guid={hex32(msg.guid)} type=0x{msg.script_type:X} "
                f"intensity={f32_json(msg.intensity)} bits={hex32(msg.intensity_bits)}")
    if isinstance(msg, CreateObject):
        p = msg.physics
        parts = [f"{head} {name} guid={hex32(msg.guid)} name={msg.weenie.name!r}"]
        for label, v in (("setup", p.setup), ("table", p.physics_script_table),
                         ("mtable", p.motion_table)):
            if v is not None:
                parts.append(f"{label}={hex32(v)}")
        parts.append(f"state={hex32(p.state)} instance={p.instance_ts}")
        return " ".join(parts)
    fields = []
    body = getattr(msg, "body", None) or getattr(msg, "raw_motion_state", None)
    if body is not None:  # a short motion summary: the present, non-empty fields
        inner = getattr(body, "state", None) or body
        for f in dataclasses.fields(inner):
            v = getattr(inner, f.name)
            if v is not None and f.name != "actions" and not dataclasses.is_dataclass(v):
                fields.append(f"{f.name}={to_json(v, f.name)}")
        if getattr(inner, "actions", ()):
            fields.append(f"actions={len(inner.actions)}")
    for f in dataclasses.fields(msg):
        v = getattr(msg, f.name)
        if dataclasses.is_dataclass(v) or isinstance(v, (tuple, bytes)) and len(str(v)) > 60:
            continue
        j = to_json(v, f.name)
        fields.append(f"{f.name}={j}")
    return f"{head} {name} " + " ".join(fields)


def wants(msg: Message | None, guid: int | None) -> bool:
    return guid is None or (msg is not None and guid in msg.guids())


# ----------------------------------------------------------------------------------------
# scenario events


def _object_entry(t: float, msg: CreateObject, generation: int) -> dict:
    p: PhysicsDesc = msg.physics
    pos: Position | None = p.position
    return {
        "id": msg.guid,
        "guid": hex32(msg.guid),
        "name": msg.weenie.name,
        "setup": None if p.setup is None else hex32(p.setup),
        "table": None if p.physics_script_table is None else hex32(p.physics_script_table),
        "motion_table": None if p.motion_table is None else hex32(p.motion_table),
        "position": None if pos is None else [f32_json(v) for v in pos.origin],
        "orientation": None if pos is None else [f32_json(v) for v in pos.orientation],
        "cell": None if pos is None else hex32(pos.cell),
        "velocity": None if p.velocity is None else [f32_json(v) for v in p.velocity],
        "state": hex32(p.state),
        "created_at": round(t, 6),
        "generation": generation,
        "physics_desc": to_json(p),
        "objdesc": to_json(msg.objdesc),
    }


def _event(a: Apply) -> dict | None:
    base = {"t": round(a.t, 6), "object": a.guid}
    if a.received is not None:  # held until its object existed; applied at ``t``
        base["received"] = round(a.received, 6)
    kind = a.kind
    if kind == "create":
        return {**base, "create": a.generation}
    if kind == "delete":
        return {**base, "delete": True}
    if kind == "set_state":
        return {**base, "set_state": hex32(a.detail[0])}
    if kind == "play_script":
        return {**base, "play_script": hex32(a.detail[0])}
    if kind == "play":
        stype, intensity, bits = a.detail
        return {**base, "play": stype, "intensity": f32_json(intensity),
                "intensity_bits": hex32(bits)}
    if kind == "position":
        mode, pos, vel, placement = a.detail
        return {**base, "position": [f32_json(v) for v in pos.origin],
                "orientation": [f32_json(v) for v in pos.orientation], "cell": hex32(pos.cell),
                "mode": mode, "velocity": None if vel is None else [f32_json(v) for v in vel],
                "placement": placement}
    if kind == "vector":
        vel, omega = a.detail
        return {**base, "vector": {"velocity": [f32_json(v) for v in vel],
                                   "omega": [f32_json(v) for v in omega]}}
    if kind == "movement":
        return {**base, "movement": to_json(a.detail[0]), "autonomous": a.detail[1]}
    if kind == "parent":
        parent, location, placement = a.detail
        return {**base, "parent": parent, "location": location, "placement": placement}
    if kind == "pickup":
        return {**base, "pickup": True}
    if kind == "objdesc":
        return {**base, "objdesc": to_json(a.detail[0])}
    return None


def replay_events(path: str | Path, guid: int | None = None, *,
                  include_uncreated: bool = True) -> dict:
    """The capture as object entries and time-ordered events for the scenario builder.

    Objects come from accepted CreateObjects (setup, table, PhysicsDesc, position, state);
    events are what the object-event layer applied, in capture time. A capture that starts
    mid-session (no 0xF746) is replayed as if the player were already known. With
    ``include_uncreated`` the effect and state packets of GUIDs never created in the capture
    (left queued by retail's rules) are still listed, on object entries whose setup and table
    are ``null`` and ``"created": false``.
    """
    stats = ReplayStats()
    items = [i for i in iter_messages(path, stats) if i.message is not None]
    has_player = any(isinstance(i.message, PlayerCreate) for i in items)
    box = SmartBox(require_player=has_player)
    objects: dict[int, dict] = {}
    events: list[dict] = []
    for item in items:
        for a in box.dispatch(item.t, item.message):
            if guid is not None and a.guid != guid:
                continue
            if a.kind == "create":
                objects[a.guid] = _object_entry(a.t, a.message, a.generation)
            ev = _event(a)
            if ev is not None:
                events.append(ev)
    if include_uncreated:
        for g, queue in box.pending.items():
            if (guid is not None and g != guid) or g in box.generations:
                continue
            evs = []
            for t, msg in queue:
                if isinstance(msg, PlayScriptType):
                    evs.append({"t": round(t, 6), "object": g, "play": msg.script_type,
                                "intensity": f32_json(msg.intensity),
                                "intensity_bits": hex32(msg.intensity_bits)})
                elif isinstance(msg, PlayScriptId):
                    evs.append({"t": round(t, 6), "object": g,
                                "play_script": hex32(msg.script_did)})
                elif isinstance(msg, SetState):
                    evs.append({"t": round(t, 6), "object": g, "set_state": hex32(msg.state)})
                elif isinstance(msg, ObjDescEvent):
                    evs.append({"t": round(t, 6), "object": g,
                                "objdesc": to_json(msg.objdesc)})
            if evs:
                objects[g] = {"id": g, "guid": hex32(g), "name": None, "setup": None,
                              "table": None, "position": None, "state": None,
                              "created": False}
                events.extend(evs)
    events.sort(key=lambda e: e["t"])  # stable: same-time events keep dispatch order
    return {"objects": list(objects.values()), "events": events,
            "stats": {**stats.as_dict(), "smartbox": vars(box.stats)}}


# ----------------------------------------------------------------------------------------
# a contract-section-4 scenario the simulation can play


def heading_deg(orientation) -> float:
    """Heading of a Z-axis rotation quaternion (w, x, y, z): 0 = +Y, clockwise (the
    compass heading of Frame::set_heading 0x00535E40)."""
    w, _x, _y, z = orientation
    return round((-math.degrees(2.0 * math.atan2(z, w))) % 360.0, 4)


def world_xyz(pos: Position) -> tuple[float, float, float]:
    """Landblock-local origin to one continuous frame: X = lbx * 192 + x, Y = lby * 192 + y."""
    lbx, lby = (pos.cell >> 24) & 0xFF, (pos.cell >> 16) & 0xFF
    return (lbx * 192.0 + pos.origin[0], lby * 192.0 + pos.origin[1], pos.origin[2])


def capture_scenario(path: str | Path, guid: int | None = None, *,
                     dat: list[str] | None = None,
                     stand_in: tuple[int, int | None] | None = None) -> dict:
    """The capture as a scenario (docs/cli.md section 4) for the simulation: every object
    created in the capture (or only ``guid``) appears at its capture time with the Setup,
    PhysicsScriptTable (``null`` when the PhysicsDesc has none: the network table replaces the
    Setup's even when absent: CPhysicsObj::set_description 0x00514F40), state, velocity and
    position of its CreateObject; its accepted F754 / F755 / SetState events play at capture
    time, DeleteObject destroys it. Positions are metres relative to the first placed object so
    the scene sits near the origin. Objects never created in the capture (no Setup known) are
    left out, and so are objects that never enter the world: retail calls ``enter_world`` only
    for a PhysicsDesc with a position cell and no parent (SmartBox::HandleCreateObject
    0x00454C80); contained and wielded items are not drawn in the world (parenting is not
    expressed here yet).

    ``stand_in`` = (setup, table) gives objects the capture never created (a capture that
    starts mid-session) a stand-in body, marked ``"stand_in": true``, created at t = 0 at the
    origin, so their captured effects can still be watched; nothing about that body is from
    the capture."""
    timeline = replay_events(path, guid, include_uncreated=stand_in is not None)
    creates = _capture_creates(timeline["objects"], stand_in)
    events = _capture_events(timeline["events"], creates)
    last = max((e["t"] for e in events), default=0.0)
    return {"dat": list(dat or []), "seed": 0, "fps": 60, "seconds": round(last + 2.0, 3),
            "objects": [], "events": events, "capture": str(path)}


def objdesc_spec(od: dict) -> dict:
    """A decoded ObjDesc (``to_json`` form) in the scenario's ``objdesc`` form (docs/cli.md
    section 4): offsets and counts stay in the wire's units of 8 palette entries."""
    out: dict = {}
    if od.get("subpalettes"):
        out["palette"] = od["base_palette"]
        out["subpalettes"] = [{"palette": s["palette"], "offset": s["offset"],
                               "length": s["num_colors"]} for s in od["subpalettes"]]
    if od.get("texture_changes"):
        out["textures"] = [{"part": t["part_index"], "old": t["old_texture"],
                            "new": t["new_texture"]} for t in od["texture_changes"]]
    if od.get("anim_part_changes"):
        out["parts"] = [{"part": a["part_index"], "gfxobj": a["gfxobj"]}
                        for a in od["anim_part_changes"]]
    return out


def _enters_world(obj: dict) -> bool:
    """A created object with a Setup whose PhysicsDesc has a position cell and no parent
    (SmartBox::HandleCreateObject 0x00454C80 calls enter_world only then)."""
    pd = obj["physics_desc"]
    return not (obj["setup"] is None or pd["position"] is None or pd["parent"] is not None
                or int(pd["position"]["cell"], 16) == 0)


def _create_spec(obj: dict, pos: Position, anchor) -> dict:
    """The scenario object of one CreateObject, ``anchor`` (the first placed object's
    continuous origin) at the scenario's origin."""
    pd = obj["physics_desc"]
    spec = {"id": obj["id"], "setup": obj["setup"], "table": obj["table"],
            "state": obj["state"], "guid": obj["guid"], "name": obj["name"]}
    spec["position"] = [round(a - b, 4) for a, b in zip(world_xyz(pos), anchor)]
    spec["heading_deg"] = heading_deg(pos.orientation)
    if pd["velocity"] is not None:
        spec["velocity"] = pd["velocity"]
    if pd["scale"] is not None:
        spec["scale"] = pd["scale"]
    objdesc = objdesc_spec(obj.get("objdesc") or {})
    if objdesc:  # CreateObject's visual description (applied at creation)
        spec["objdesc"] = objdesc
    if pd["default_script"] is not None:
        spec["default_script"] = pd["default_script"]
        spec["default_intensity"] = (pd["default_script_intensity"]
                                     if pd["default_script_intensity"] is not None else 0.0)
    return spec


def _capture_creates(objects: list[dict], stand_in) -> dict[int, dict]:
    """Object id -> its scenario object: the ones that enter the world, and with
    ``stand_in`` the never-created ones on a stand-in body."""
    anchor = None
    creates: dict[int, dict] = {}
    for obj in objects:
        if obj.get("created") is False:
            if stand_in is not None:
                creates[obj["id"]] = {"id": obj["id"], "setup": hex32(stand_in[0]),
                                      "table": None if stand_in[1] is None
                                      else hex32(stand_in[1]),
                                      "guid": obj["guid"], "stand_in": True}
            continue
        if not _enters_world(obj):
            continue
        p = obj["physics_desc"]["position"]
        pos = Position(int(p["cell"], 16), tuple(p["origin"]), tuple(p["orientation"]))
        if anchor is None:
            anchor = world_xyz(pos)
        creates[obj["id"]] = _create_spec(obj, pos, anchor)
    return creates


def _capture_events(timeline_events: list[dict], creates: dict[int, dict]) -> list[dict]:
    """Scenario events: stand-ins created at t = 0; each generation created (the previous
    one destroyed first), deleted objects destroyed, and the effect and state events of
    live objects as captured."""
    events: list[dict] = []
    live: set[int] = set()
    for oid, spec in creates.items():
        if spec.get("stand_in"):
            live.add(oid)
            events.append({"t": 0.0, "object": oid, "create": spec})
    for ev in timeline_events:
        oid = ev["object"]
        if oid not in creates:
            continue
        base = {"t": ev["t"], "object": oid}
        if "create" in ev:
            if oid in live:  # a new generation replaces the old one
                events.append({**base, "destroy": True})
            live.add(oid)
            events.append({**base, "create": creates[oid]})
        elif "delete" in ev:
            if oid in live:
                live.discard(oid)
                events.append({**base, "destroy": True})
        elif oid in live and ("play" in ev or "play_script" in ev or "set_state" in ev):
            events.append(dict(ev))
        elif oid in live and "objdesc" in ev:  # ObjDescEvent 0xF625
            events.append({**base, "objdesc": objdesc_spec(ev["objdesc"])})
    return events
