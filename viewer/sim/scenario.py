"""Scenario files (contracts/cli.md section 4) and the runner that plays them.

A scenario names DATs, a seed, the render-frame clock (``fps``), a duration, objects and
timed events. ``ScenarioRunner`` builds a ``World`` and steps it one render frame at a
time: events due at or before the frame time are applied first (in file order for equal
times), then the world ticks (CPhysics::UseTime decides whether objects update). An optional
``"viewer": [x, y, z]`` places the viewer for the particle distance cull (default origin).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from viewer.errors import ScenarioError
from viewer.sim.animation.commands import CATALOGS, resolve_command
from viewer.sim.clock import FrameClock, as_time
from viewer.sim.collision import world_from_scenario
from viewer.sim.projectile import LaunchSpec, ProjectileHarness
from viewer.sim.script_table import play_script_number
from viewer.sim.state import parse_state, state_hex
from viewer.sim.world import World

EVENT_KINDS = ("play_script", "play", "set_state", "motion", "create", "destroy",
               "set_velocity", "set_hidden", "launch")


def _did(value, what: str, file=None) -> int:
    if isinstance(value, bool):
        raise ScenarioError(f"{what}: not a DID: {value!r}", file=file)
    if isinstance(value, int):
        return value & 0xFFFFFFFF
    try:
        return int(str(value), 0) & 0xFFFFFFFF
    except ValueError:
        raise ScenarioError(f"{what}: not a DID: {value!r}", file=file) from None


def _vec3(value, what: str, file=None) -> tuple[float, float, float]:
    try:
        v = tuple(float(c) for c in value)
    except (TypeError, ValueError):
        raise ScenarioError(f"{what}: expected [x, y, z], got {value!r}", file=file) from None
    if len(v) != 3:
        raise ScenarioError(f"{what}: expected [x, y, z], got {value!r}", file=file)
    return v


def parse_float(value) -> float:
    """Floats, with "nan", "inf", "-inf" accepted as strings (contract conventions)."""
    if isinstance(value, str):
        return float(value.strip())
    return float(value)


@dataclass
class ScenarioObject:
    id: int
    setup: int
    table: int | None = None
    table_given: bool = False
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    heading_deg: float = 0.0
    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)
    omega: tuple[float, float, float] | None = None
    state: int | None = None
    scale: float | None = None
    translucency: float | None = None
    default_script: int = 0
    default_intensity: float = 0.0
    parent: int | None = None
    parent_part: int = -1
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "setup": f"0x{self.setup:08X}"}
        if self.table_given:
            d["table"] = None if not self.table else f"0x{self.table:08X}"
        d["position"] = list(self.position)
        d["heading_deg"] = self.heading_deg
        d["velocity"] = list(self.velocity)
        if self.omega is not None:
            d["omega"] = list(self.omega)
        if self.state is not None:
            d["state"] = state_hex(self.state)
        if self.scale is not None:
            d["scale"] = self.scale
        if self.translucency is not None:
            d["translucency"] = self.translucency
        if self.default_script:
            d["default_script"] = self.default_script
            d["default_intensity"] = self.default_intensity
        if self.parent is not None:
            d["parent"] = self.parent
            d["parent_part"] = self.parent_part
        d.update(self.extra)
        return d


@dataclass
class ScenarioEvent:
    t: float
    object: int
    kind: str
    value: Any
    intensity: float = 1.0
    raw: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return dict(self.raw)


@dataclass
class Scenario:
    dat: list[str] = field(default_factory=list)
    seed: int = 0
    fps: float = 60.0
    seconds: float = 5.0
    objects: list[ScenarioObject] = field(default_factory=list)
    events: list[ScenarioEvent] = field(default_factory=list)
    world: list = field(default_factory=list)
    path: Path | None = None
    extra: dict = field(default_factory=dict)

    # -- load / save ---------------------------------------------------------------------------
    @staticmethod
    def from_json(data: dict, path: str | Path | None = None) -> Scenario:
        file = str(path) if path is not None else None
        if not isinstance(data, dict):
            raise ScenarioError("a scenario is a JSON object", file=file)
        sc = Scenario(path=Path(path) if path is not None else None)
        dat = data.get("dat", [])
        sc.dat = [dat] if isinstance(dat, str) else list(dat)
        try:
            sc.seed = int(data.get("seed", 0))
            sc.fps = float(data.get("fps", 60))
            sc.seconds = float(data.get("seconds", 5.0))
        except (TypeError, ValueError) as err:
            raise ScenarioError(f"seed/fps/seconds: {err}", file=file) from None
        if not sc.fps > 0 or not math.isfinite(sc.fps):
            raise ScenarioError(f"fps must be positive, not {sc.fps!r}", file=file)
        sc.world = list(data.get("world") or [])
        known = {"dat", "seed", "fps", "seconds", "objects", "events", "world"}
        sc.extra = {k: v for k, v in data.items() if k not in known}
        ids = set()
        for i, o in enumerate(data.get("objects") or []):
            if not isinstance(o, dict) or "id" not in o or "setup" not in o:
                raise ScenarioError(f"objects[{i}]: needs \"id\" and \"setup\"", file=file)
            obj = ScenarioObject(int(o["id"]), _did(o["setup"], f"objects[{i}].setup", file))
            if obj.id in ids:
                raise ScenarioError(f"objects[{i}]: duplicate id {obj.id}", file=file)
            ids.add(obj.id)
            if "table" in o:
                obj.table_given = True
                obj.table = None if o["table"] in (None, 0, "0") else _did(o["table"], f"objects[{i}].table", file)
            if "position" in o:
                obj.position = _vec3(o["position"], f"objects[{i}].position", file)
            obj.heading_deg = float(o.get("heading_deg", 0.0))
            if "velocity" in o:
                obj.velocity = _vec3(o["velocity"], f"objects[{i}].velocity", file)
            if "omega" in o:
                obj.omega = _vec3(o["omega"], f"objects[{i}].omega", file)
            if "state" in o:
                try:
                    obj.state = parse_state(o["state"])
                except ValueError:
                    raise ScenarioError(f"objects[{i}].state: not a number: {o['state']!r}",
                                        file=file) from None
            if "scale" in o:
                obj.scale = float(o["scale"])
            if "translucency" in o:
                obj.translucency = float(o["translucency"])
            if "default_script" in o:
                obj.default_script = play_script_number(o["default_script"])
                obj.default_intensity = parse_float(o.get("default_intensity", 0.0))
            if "parent" in o:
                obj.parent = int(o["parent"])
                obj.parent_part = int(o.get("parent_part", -1))
            known_o = {"id", "setup", "table", "position", "heading_deg", "velocity", "omega",
                       "state", "scale", "translucency", "default_script", "default_intensity",
                       "parent", "parent_part"}
            obj.extra = {k: v for k, v in o.items() if k not in known_o}
            sc.objects.append(obj)
        for i, e in enumerate(data.get("events") or []):
            sc.events.append(_parse_event(e, i, file))
        return sc

    @staticmethod
    def load(path: str | Path) -> Scenario:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise ScenarioError(f"cannot read scenario: {err.strerror}", file=str(path)) from None
        except json.JSONDecodeError as err:
            raise ScenarioError(f"not JSON: {err.msg} (line {err.lineno})", file=str(path),
                                offset=err.pos) from None
        return Scenario.from_json(data, path)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"dat": list(self.dat), "seed": self.seed, "fps": self.fps,
                             "seconds": self.seconds,
                             "objects": [o.to_json() for o in self.objects],
                             "events": [e.to_json() for e in self.events]}
        if self.world:
            d["world"] = self.world
        d.update(self.extra)
        return d

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    def dat_paths(self) -> list[Path]:
        """``dat`` paths are relative to the scenario file."""
        base = self.path.parent if self.path is not None else Path(".")
        return [p if p.is_absolute() else base / p for p in (Path(d) for d in self.dat)]


def _motion(value, e: dict, i: int, file) -> int:
    """[animation] A motion event's command: full 32-bit value or a name in the catalog
    ("ace-modern", the default, or "retail-2013" via the event's "catalog")."""
    name = e.get("catalog", "ace-modern")
    if name not in CATALOGS:
        raise ScenarioError(f"events[{i}].catalog: unknown catalog {name!r} "
                            f"({', '.join(CATALOGS)})", file=file)
    try:
        return resolve_command(value, CATALOGS[name], file=file)
    except ScenarioError as err:
        raise ScenarioError(f"events[{i}].{err.message}", file=file) from None


def _holding(parent, location, child_id: int):
    """[animation] CPhysicsObj::add_child(obj, where) 0x0050F870: the parent Setup's holding
    location (a ParentLocation name or number; CSetup::GetHoldingLocation 0x005213F0) gives
    the part and the frame."""
    from viewer.dat.records.common import ParentLocation
    from viewer.sim.poses import holding_location
    try:
        if isinstance(location, str):
            text = location.strip()
            where = int(text, 0) if text[:1].isdigit() else int(ParentLocation[text])
        else:
            where = int(location)
    except (KeyError, ValueError, TypeError):
        raise ScenarioError(f"object {child_id}: unknown parent_location {location!r}") from None
    found = holding_location(parent.setup, int(where)) if parent.setup is not None else None
    if found is None:
        raise ScenarioError(f"object {child_id}: parent {parent.id}'s Setup has no holding "
                            f"location {location!r}", did=parent.setup_did)
    return found


def _parse_event(e, i: int, file) -> ScenarioEvent:
    if not isinstance(e, dict) or "t" not in e:
        raise ScenarioError(f"events[{i}]: needs \"t\"", file=file)
    try:
        t = float(e["t"])
    except (TypeError, ValueError):
        raise ScenarioError(f"events[{i}].t: not a number: {e['t']!r}", file=file) from None
    obj = int(e.get("object", 1))
    for kind in EVENT_KINDS:
        if kind in e:
            value = e[kind]
            intensity = 1.0
            try:
                if kind == "play_script":
                    value = _did(value, f"events[{i}].play_script", file)
                elif kind == "play":
                    value = play_script_number(value)
                    intensity = parse_float(e.get("intensity", 1.0))
                elif kind == "set_state":
                    value = parse_state(value)
                elif kind == "motion":  # a full 32-bit command or a catalog name
                    value = _motion(value, e, i, file)
                    intensity = parse_float(e.get("speed", 1.0))
                elif kind == "set_velocity":
                    value = _vec3(value, f"events[{i}].set_velocity", file)
                elif kind == "launch":  # [physics] viewer/sim/projectile.py
                    try:
                        value = LaunchSpec.parse(value, e.get("intensity"))
                    except ScenarioError as err:
                        raise ScenarioError(f"events[{i}].{err.message}", file=file) from None
            except ValueError as err:
                raise ScenarioError(f"events[{i}].{kind}: {err}", file=file) from None
            return ScenarioEvent(t, obj, kind, value, intensity, dict(e))
    raise ScenarioError(f"events[{i}]: no known action ({', '.join(EVENT_KINDS)})", file=file)


class ScenarioRunner:
    """Plays a Scenario on a World, one render frame per ``step_frame()``."""

    def __init__(self, scenario: Scenario, db, *, world: World | None = None) -> None:
        self.scenario = scenario
        self.db = db
        self.world = world if world is not None else World(db, seed=scenario.seed)
        self.clock = FrameClock(scenario.fps)
        self._events = sorted(enumerate(scenario.events), key=lambda ie: (ie[1].t, ie[0]))
        self._next_event = 0
        self._started = False
        # [physics] the scenario's collision shapes and the projectile launch harness
        self.world.collision.shapes = world_from_scenario(
            scenario.world, file=str(scenario.path) if scenario.path else None).shapes
        self.harness = ProjectileHarness(self.world)
        if "viewer" in scenario.extra:  # optional: where the viewer (camera) stands, for
            # the particle distance cull (ShouldDrawParticles 0x0050FE60); default origin
            self.world.viewer_position = _vec3(scenario.extra["viewer"], "viewer")

    @property
    def time(self) -> float:
        return float(self.clock.now)

    def snapshot(self) -> ScenarioRunner:
        """An independent copy (database and listeners shared) to restore or scrub from."""
        import copy
        w = self.world
        return copy.deepcopy(self, {id(self.db): self.db, id(w.db): w.db,
                                    id(w.listeners): w.listeners})

    @property
    def frame(self) -> int:
        return self.clock.frame

    def _create_objects(self) -> None:
        w = self.world
        for o in self.scenario.objects:
            w.create_object(o.id, o.setup, position=o.position, heading_deg=o.heading_deg,
                            velocity=o.velocity, omega=o.omega, state=o.state,
                            table=o.table, from_desc=o.extra.get("desc") is not False,
                            default_script_type=o.default_script,
                            default_script_intensity=o.default_intensity, scale=o.scale,
                            translucency=o.translucency)
        for o in self.scenario.objects:
            if o.parent is not None:
                if o.parent not in w.objects:
                    raise ScenarioError(f"object {o.id}: parent {o.parent} does not exist")
                parent = w.objects[o.parent]
                if "parent_location" in o.extra:  # [animation] a Setup holding location
                    part, frame = _holding(parent, o.extra["parent_location"], o.id)
                    w.attach_child(w.objects[o.id], parent, part, frame)
                else:
                    w.attach_child(w.objects[o.id], parent, o.parent_part)

    def _apply(self, ev: ScenarioEvent) -> None:
        w = self.world
        if ev.kind == "create":
            spec = dict(ev.value) if isinstance(ev.value, dict) else {}
            spec.setdefault("id", ev.object)
            so = Scenario.from_json({"objects": [spec]}).objects[0]
            w.create_object(so.id, so.setup, position=so.position, heading_deg=so.heading_deg,
                            velocity=so.velocity, omega=so.omega, state=so.state,
                            table=so.table, default_script_type=so.default_script,
                            default_script_intensity=so.default_intensity, scale=so.scale)
            return
        obj = w.objects.get(ev.object)
        if obj is None:
            raise ScenarioError(f"event at t={ev.t}: object {ev.object} does not exist")
        if ev.kind == "play_script":
            w.play_script(obj, ev.value, user=True)
        elif ev.kind == "play":
            w.play_typed(obj, ev.value, ev.intensity)
        elif ev.kind == "set_state":
            w.set_state(obj, ev.value)
        elif ev.kind == "motion":
            w.do_motion(obj, ev.value, ev.intensity)
        elif ev.kind == "destroy":
            w.remove_object(obj.id)
        elif ev.kind == "set_velocity":
            w.set_velocity(obj, ev.value)
        elif ev.kind == "launch":
            self.harness.launch(obj, ev.value)
        elif ev.kind == "set_hidden":
            # as a State message: set_state 0x00514DD0 calls set_hidden only on a change
            bit = 0x4000  # PhysicsState.Hidden
            w.set_state(obj, obj.state | bit if ev.value else obj.state & ~bit)

    def step_frame(self) -> bool:
        """Advance one render frame (the first call runs frame 0 at t = 0). Returns
        whether objects updated this frame."""
        file = str(self.scenario.path) if self.scenario.path is not None else None
        if not self._started:
            self._started = True
            self.world.time = Fraction(0)
            try:
                self._create_objects()
            except ScenarioError as err:
                raise err.located(file=file) from err
        else:
            self.clock.advance()
        now = self.clock.now
        self.world.time = now
        self.world.timer_now = float(now)
        while self._next_event < len(self._events):
            index, ev = self._events[self._next_event]
            if as_time(ev.t) > now:
                break
            self._next_event += 1
            try:
                self._apply(ev)
            except ScenarioError as err:
                raise ScenarioError(f"events[{index}]: {err.message}", file=err.file or file,
                                    did=err.did, offset=err.offset) from err
        self.harness.step(now)  # [physics] server messages due (impact answer, delete)
        return self.world.tick(now)

    def run(self, seconds: float | None = None) -> None:
        """Step frames until the frame time reaches ``seconds`` (inclusive)."""
        end = as_time(self.scenario.seconds if seconds is None else seconds)
        if not self._started:
            self.step_frame()
        while self.clock.now + 1 / self.clock.fps <= end:
            self.step_frame()
