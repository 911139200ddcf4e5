"""Scenario files (docs/cli.md section 4) and the runner that plays them.

A scenario names DATs, a seed, the render-frame clock (``fps``), a duration, objects and
timed events. ``ScenarioRunner`` builds a ``World`` and steps it one render frame at a
time; ``frames()`` is the frame loop every caller uses (the frame order is written once, in
``viewer/sim/world.py``'s docstring). An optional
``"viewer": [x, y, z]`` places the viewer for the particle distance cull (default origin).

Every field is read through the typed readers of ``_Fields``: a malformed value raises a
ScenarioError naming the file and the field path (``objects[2].heading_deg``), never a
Python exception and never a silent guess (no truncation of 1.5, no 32-bit wrap of -4).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from viewer import bounds as B
from viewer.errors import OutputError, ScenarioError, ViewerError
from viewer.sim import presets
from viewer.sim.animation.commands import CATALOGS, resolve_command
from viewer.sim.clock import FrameClock, as_time
from viewer.sim.collision import world_from_scenario
from viewer.sim.objdesc import do_objdesc_changes_from_default, parse_objdesc
from viewer.sim.projectile import LaunchSpec, ProjectileHarness
from viewer.sim.script_table import play_script_number
from viewer.sim.state import state_hex
from viewer.sim.world import World

EVENT_KINDS = ("play_script", "play", "set_state", "motion", "create", "destroy",
               "set_velocity", "set_hidden", "launch", "objdesc")

U32_MAX = 0xFFFFFFFF
#: a text value starting with one of these is a number, anything else a name
_DIGITS = tuple("0123456789")


class _Fields:
    """Typed field readers for one scenario file. Each takes the JSON value and its field
    path and returns the typed value or raises ScenarioError naming the file and path."""

    def __init__(self, file: str | None) -> None:
        self.file = file

    def fail(self, path: str, message: str) -> ScenarioError:
        return ScenarioError(f"{path}: {message}", file=self.file)

    # -- containers ----------------------------------------------------------------------------
    def list(self, value, path: str) -> list:
        """A JSON array; absent or null is empty."""
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, got {value!r}")
        return value

    def object(self, value, path: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a JSON object, got {value!r}")
        return value

    def text(self, value, path: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, f"expected a non-empty string, got {value!r}")
        return value

    def path(self, value, path: str) -> str:
        """A file path: non-empty text without a NUL or a lone surrogate."""
        text = self.text(value, path)
        problem = B.text_problem(text)
        if problem is not None:
            raise self.fail(path, f"{problem}: {text!r}")
        return text

    def count(self, items: list, path: str, bound: B.Bound) -> list:
        """A list no longer than ``bound`` allows (viewer/bounds.py)."""
        if len(items) > bound.hi:
            raise self.fail(path, f"{len(items)} entries; at most {bound.span()} "
                                  f"({bound.reason})")
        return items

    # -- integers --------------------------------------------------------------------------------
    def int(self, value, path: str, *, lo: int | None = None, hi: int | None = None,
            what: str = "an integer") -> int:
        """An integer: a JSON integer or a string in decimal (leading zeros too) or ``0x``
        hex (contract conventions). Not a bool, not a fraction (1.5 is not truncated), and
        outside [lo, hi] an error, not a wrap."""
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self.fail(path, f"not {what}: {value!r}")
        if isinstance(value, str):
            try:  # ASCII digits only, the command line's spelling too (B.int_text)
                number = B.int_text(value)
            except ValueError:
                raise self.fail(path, f"not {what}: {value!r}") from None
        else:
            number = value
        if (lo is not None and number < lo) or (hi is not None and number > hi):
            span = "0..0xFFFFFFFF (u32)" if (lo, hi) == (0, U32_MAX) else f"{lo}..{hi}"
            raise self.fail(path, f"{value!r} is out of range {span}")
        return number

    def u32(self, value, path: str, what: str = "an integer") -> int:
        return self.int(value, path, lo=0, hi=U32_MAX, what=what)

    def did(self, value, path: str) -> int:
        return self.u32(value, path, what="a DID")

    def play_script(self, value, path: str) -> int:
        """A PlayScript: a name (``Launch``, ``Hidden``) or a u32 number."""
        if isinstance(value, str) and value.strip().lstrip("+-")[:1] not in _DIGITS:
            try:
                return play_script_number(value)
            except ValueError as err:
                raise self.fail(path, str(err)) from None
        return self.u32(value, path, what="a PlayScript")

    # -- floats ----------------------------------------------------------------------------------
    def number(self, value, path: str) -> float:
        """A float, NaN and infinities included (written "nan", "inf", "-inf"): the
        intensity of a typed effect is handed to retail as is (PhysicsScriptTableData::GetScript
        0x00521A20 compares it raw)."""
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise self.fail(path, f"not a number: {value!r}")
        try:  # text: ASCII digits only, the command line's spelling too (B.float_text)
            return B.float_text(value) if isinstance(value, str) else float(value)
        except (ValueError, OverflowError):
            raise self.fail(path, f"not a number: {value!r}") from None

    def bounded(self, value, path: str, bound: B.Bound) -> float:
        """A finite float inside ``bound``, the documented range (viewer/bounds.py)."""
        x = self.number(value, path)
        problem = bound.problem(x)
        if problem is not None:
            raise self.fail(path, problem)
        return x

    def vec3(self, value, path: str, bound: B.Bound = B.POSITION
             ) -> tuple[float, float, float]:
        """[x, y, z]: three finite numbers inside ``bound`` (viewer/bounds.py)."""
        if not isinstance(value, (list, tuple)) or len(value) != 3:
            raise self.fail(path, f"expected [x, y, z], got {value!r}")
        return tuple(self.bounded(c, f"{path}[{k}]", bound)  # type: ignore[return-value]
                     for k, c in enumerate(value))

    def flag(self, value, path: str) -> bool:
        """true / false (0 and 1 read as such)."""
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise self.fail(path, f"expected true or false, got {value!r}")


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
    preset: str | None = None       # a named projectile (viewer.sim.presets)
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"id": self.id}
        if self.preset is not None:
            d["preset"] = self.preset
        d["setup"] = f"0x{self.setup:08X}"
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
        f = _Fields(file)
        if not isinstance(data, dict):
            raise ScenarioError("a scenario is a JSON object", file=file)
        sc = Scenario(path=Path(path) if path is not None else None)
        dat = data.get("dat")
        dat = [dat] if isinstance(dat, str) else f.list(dat, "dat")
        sc.dat = [f.path(d, f"dat[{k}]") for k, d in enumerate(dat)]
        sc.seed = f.int(data.get("seed", 0), "seed")  # Random::Seed takes any integer
        sc.fps = f.bounded(data.get("fps", 60), "fps", B.FPS)
        sc.seconds = f.bounded(data.get("seconds", 5.0), "seconds", B.SECONDS)
        # shapes: world_from_scenario
        sc.world = f.count(f.list(data.get("world"), "world"), "world", B.WORLD_SHAPES)
        world_from_scenario(sc.world, file=file)  # checked now; the runner builds its own
        known = {"dat", "seed", "fps", "seconds", "objects", "events", "world"}
        sc.extra = {k: v for k, v in data.items() if k not in known}
        if "viewer" in sc.extra:
            f.vec3(sc.extra["viewer"], "viewer")
        ids = set()
        objects = f.count(f.list(data.get("objects"), "objects"), "objects", B.OBJECTS)
        events = f.count(f.list(data.get("events"), "events"), "events", B.EVENTS)
        for i, o in enumerate(objects):
            obj = _parse_object(f, o, f"objects[{i}]")
            if obj.id in ids:
                raise ScenarioError(f"objects[{i}]: duplicate id {obj.id}", file=file)
            ids.add(obj.id)
            sc.objects.append(obj)
        _check_parents(sc.objects, file)
        for i, e in enumerate(events):
            sc.events.append(_parse_event(f, e, i))
        if sum(1 for e in sc.events if e.kind == "create") + len(sc.objects) > B.OBJECTS.hi:
            raise ScenarioError(f"objects and create events: more than {B.OBJECTS.span()} "
                                f"({B.OBJECTS.reason})", file=file)
        return sc

    @staticmethod
    def load(path: str | Path) -> Scenario:
        from viewer.inputs import SCENARIO_MAX_BYTES, read_text_capped
        path = Path(path)
        text = read_text_capped(path, SCENARIO_MAX_BYTES, ScenarioError, "scenario")
        data = read_json(text, str(path), "scenario")
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
        """Write the scenario to ``path``. ``dat`` paths (and a ``"reference"`` entry's
        path) are relative to the scenario file (docs/cli.md section 4), so relative ones are
        rewritten relative to the new file's folder; absolute ones stay absolute. The
        scenario in memory is unchanged (its paths stay relative to ``self.path``)."""
        path = Path(path)
        d = self.to_json()
        d["dat"] = [self._rebase(p, path) for p in self.dat]
        ref = d.get("reference")
        if isinstance(ref, dict) and isinstance(ref.get("path"), str) and ref["path"]:
            d["reference"] = {**ref, "path": self._rebase(ref["path"], path)}
        try:  # a missing folder, a path under a file, a full device: one line naming it
            path.write_text(json.dumps(d, indent=2) + "\n", encoding="utf-8")
        except OSError as err:
            raise OutputError(f"cannot write the scenario: {err.strerror or err}",
                              file=str(path)) from None

    def _rebase(self, entry: str, new_file: Path) -> str:
        """A path relative to this scenario's folder, made relative to ``new_file``'s."""
        if Path(entry).is_absolute():
            return entry
        old_base = self.path.parent if self.path is not None else Path(".")
        target = os.path.abspath(old_base / entry)
        new_base = os.path.abspath(new_file.parent)
        try:
            rel = os.path.relpath(target, new_base)
        except ValueError:  # another drive (Windows): no relative path exists
            return target
        return Path(rel).as_posix() if os.sep == "/" else rel

    def dat_paths(self) -> list[Path]:
        """``dat`` paths are relative to the scenario file."""
        base = self.path.parent if self.path is not None else Path(".")
        return [p if p.is_absolute() else base / p for p in (Path(d) for d in self.dat)]


def read_json(text: str, file: str | None, what: str):
    """Decode a JSON file's text (a scenario, an actions list; read as UTF-8 with a byte
    cap by viewer.inputs): no deeper than the documented nesting (viewer/bounds.py
    JSON_DEPTH), integers of at most Python's 4300 digits; anything else is one
    ScenarioError naming the file (and the byte offset where it is known), never a Python
    exception."""
    twice: list[str] = []
    try:
        value = json.loads(text, object_pairs_hook=lambda pairs: _json_object(pairs, twice))
    except json.JSONDecodeError as err:
        raise ScenarioError(f"not JSON: {err.msg} (line {err.lineno})", file=file,
                            offset=len(text[:err.pos].encode("utf-8"))) from None
    except RecursionError:
        value = None
        depth = B.JSON_DEPTH.hi + 1
    except ValueError as err:  # an integer literal beyond Python's 4300 digits
        raise ScenarioError(f"not JSON: {err}", file=file) from None
    else:
        depth = B.json_depth(value)
    if depth > B.JSON_DEPTH.hi:
        raise ScenarioError(f"{what} nests deeper than {B.JSON_DEPTH.span()} "
                            f"({B.JSON_DEPTH.reason})", file=file)
    if twice:  # a top-level list's items are named as the file names them: actions[0]
        where = _first_duplicate(value)
        raise ScenarioError(f"{what + where if where[:1] == '[' else where}: given twice "
                            "(a key names one value; JSON readers disagree on which one "
                            "wins)", file=file)
    return value


class _Duplicated(dict):
    """A JSON object that names a key more than once (``key``: the first repeated one)."""

    key = ""


def _json_object(pairs: list, twice: list) -> dict:
    """json.loads' object hook: a dict, marked when a key repeats (json's own reading
    keeps the last value silently)."""
    d = dict(pairs)
    if len(d) == len(pairs):
        return d
    seen: set = set()
    marked = _Duplicated(d)
    marked.key = next(k for k, _ in pairs if k in seen or seen.add(k))
    twice.append(marked.key)
    return marked


def _first_duplicate(value) -> str:
    """The field path of the first repeated key, in document order (iterative: any
    depth)."""
    stack = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, _Duplicated):
            return f"{path}.{item.key}" if path else item.key
        if isinstance(item, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k))
                         for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{k}]") for k, v in reversed(list(enumerate(item))))
    return "?"


def _motion(f: _Fields, value, e: dict, at: str) -> int:
    """[animation] A motion event's command: full 32-bit value or a name in the catalog
    ("ace-modern", the default, or "retail-2013" via the event's "catalog")."""
    name = e.get("catalog", "ace-modern")
    if not isinstance(name, str) or name not in CATALOGS:
        raise f.fail(f"{at}.catalog", f"unknown catalog {name!r} ({', '.join(CATALOGS)})")
    try:
        return resolve_command(value, CATALOGS[name], file=f.file)
    except ScenarioError as err:
        raise f.fail(at, err.message) from None


def _parent_location(f: _Fields, value, path: str) -> int:
    """[animation] A ParentLocation given by name (``RightHand``) or as a u32 number."""
    from viewer.dat.records.common import ParentLocation
    if isinstance(value, str) and value.strip()[:1] not in _DIGITS:
        try:
            return int(ParentLocation[value.strip()])
        except KeyError:
            raise f.fail(path, f"unknown parent_location {value!r}") from None
    return f.u32(value, path, what="a parent_location")


def _holding(parent, location, child_id: int):
    """[animation] CPhysicsObj::add_child(obj, where) 0x0050F870: the parent Setup's holding
    location (a ParentLocation name or number; CSetup::GetHoldingLocation 0x005213F0) gives
    the part and the frame."""
    from viewer.sim.poses import holding_location
    where = _parent_location(_Fields(None), location, f"object {child_id}: parent_location")
    found = holding_location(parent.setup, where) if parent.setup is not None else None
    if found is None:
        raise ScenarioError(f"object {child_id}: parent {parent.id}'s Setup has no holding "
                            f"location {location!r}", did=parent.setup_did)
    return found


_OBJECT_FIELDS = {"id", "setup", "table", "position", "heading_deg", "velocity", "omega",
                  "state", "scale", "translucency", "default_script", "default_intensity",
                  "parent", "parent_part", "preset"}
#: object keys kept in ``extra`` as written (docs/cli.md section 4): ``desc`` (checked here),
#: ``parent_location`` (read by _holding), ``note`` (the user's own, any value); ``guid``,
#: ``name`` and ``stand_in`` are the notes ``replay --scenario-out`` writes. Any other key is
#: an error naming it, never ignored.
_OBJECT_EXTRA = {"desc", "parent_location", "note", "guid", "name", "stand_in",
                 # ObjDesc (docs/cli.md, issue 27): read where the runtime applies it
                 "objdesc"}


def _parse_object(f: _Fields, o, at: str) -> ScenarioObject:
    """One entry of ``objects`` (or a ``create`` event's object) at field path ``at``."""
    f.object(o, at)
    named = None
    if "preset" in o:   # a named projectile: its Setup and table unless given explicitly
        named = presets.preset(o["preset"], f"{at}.preset", f.file)
    if "id" not in o or ("setup" not in o and named is None):
        raise f.fail(at, 'needs "id" and "setup" (or "preset")')
    obj = ScenarioObject(f.u32(o["id"], f"{at}.id", what="an object id"),
                         f.did(o["setup"], f"{at}.setup") if "setup" in o else named.setup)
    unknown = [k for k in o if k not in _OBJECT_FIELDS and k not in _OBJECT_EXTRA]
    if unknown:
        raise f.fail(f"{at}.{unknown[0]}", "unknown key (an object takes "
                     f"{', '.join(sorted(_OBJECT_FIELDS | _OBJECT_EXTRA))})")
    _object_table(f, o, at, obj, named)
    _object_placement(f, o, at, obj)
    _object_links(f, o, at, obj)
    obj.extra = {k: v for k, v in o.items() if k not in _OBJECT_FIELDS}
    if "desc" in o:  # "false" is text, not false: only true / false (0 / 1)
        obj.extra["desc"] = f.flag(o["desc"], f"{at}.desc")
    if "objdesc" in o:  # checked here, applied at creation (viewer.sim.objdesc)
        parse_objdesc(f, o["objdesc"], f"{at}.objdesc")
    return obj


def _object_table(f: _Fields, o, at: str, obj: ScenarioObject, named) -> None:
    """The preset's name and table, then an explicit ``table`` (null or 0: none)."""
    if named is not None:
        obj.preset = named.name
        if "table" not in o:
            obj.table_given, obj.table = True, named.table
    if "table" in o:
        obj.table_given = True
        table = o["table"]
        none = table is None or (not isinstance(table, bool) and table in (0, "0"))
        obj.table = None if none else f.did(table, f"{at}.table")  # false: not a DID


def _object_placement(f: _Fields, o, at: str, obj: ScenarioObject) -> None:
    """position, heading_deg, velocity, omega, state, scale, translucency."""
    if "position" in o:
        obj.position = f.vec3(o["position"], f"{at}.position")
    if "heading_deg" in o:
        obj.heading_deg = f.bounded(o["heading_deg"], f"{at}.heading_deg", B.F32)
    if "velocity" in o:
        obj.velocity = f.vec3(o["velocity"], f"{at}.velocity", B.VELOCITY)
    if "omega" in o:
        obj.omega = f.vec3(o["omega"], f"{at}.omega", B.VELOCITY)
    if "state" in o:
        obj.state = f.u32(o["state"], f"{at}.state", what="a state")
    if "scale" in o:
        # bounded: a zero scale makes a zero-radius sphere (calc_num_steps divides by it),
        # a tiny one a sweep of millions of steps
        obj.scale = f.bounded(o["scale"], f"{at}.scale", B.SCALE)
    if "translucency" in o:
        obj.translucency = f.bounded(o["translucency"], f"{at}.translucency", B.F32)


def _object_links(f: _Fields, o, at: str, obj: ScenarioObject) -> None:
    """default_script (+ default_intensity), parent (+ parent_part), parent_location."""
    if "default_script" in o:
        obj.default_script = f.play_script(o["default_script"], f"{at}.default_script")
        obj.default_intensity = f.number(o.get("default_intensity", 0.0),
                                         f"{at}.default_intensity")
    if "parent" in o:
        obj.parent = f.u32(o["parent"], f"{at}.parent", what="an object id")
        if obj.parent == obj.id:
            raise f.fail(f"{at}.parent", f"object {obj.id} cannot be its own parent")
        obj.parent_part = f.int(o.get("parent_part", -1), f"{at}.parent_part",
                                lo=-1, hi=0x7FFFFFFF)
    if "parent_location" in o:  # [animation] kept as written, read by _holding
        _parent_location(f, o["parent_location"], f"{at}.parent_location")
    for key, needs in (("default_intensity", "default_script"), ("parent_part", "parent"),
                       ("parent_location", "parent")):
        if key in o and needs not in o:  # it would do nothing: an error, never ignored
            raise f.fail(f"{at}.{key}", f"given without {needs!r}")


def _scenario_file(sc: Scenario) -> str | None:
    return str(sc.path) if sc.path is not None else None


def _check_parents(objects: list[ScenarioObject], file: str | None) -> None:
    """Each ``parent`` names an object earlier in the list; a self-parent, a missing
    parent, a parent cycle or a parent defined later is an error naming the field. Parents
    first means every chain is acyclic and is attached top down, so one pass over the list
    checks it (linear in the objects, whatever the chains' depth); a chain is walked only
    to word the error of a parent that comes later (a cycle or an order mistake)."""
    index = {o.id: i for i, o in enumerate(objects)}
    for i, o in enumerate(objects):
        if o.parent is None:
            continue
        at = f"objects[{i}].parent"
        if o.parent == o.id:
            raise ScenarioError(f"{at}: object {o.id} cannot be its own parent", file=file)
        if o.parent not in index:
            raise ScenarioError(f"{at}: object {o.parent} does not exist", file=file)
        j = index[o.parent]
        if j < i:
            continue
        chain, seen, cur = [o.id], {o.id}, o.parent
        while cur is not None and cur in index:
            chain.append(cur)
            if cur in seen:
                if cur == o.id:
                    raise ScenarioError(f"{at}: parent cycle "
                                        f"{' -> '.join(str(c) for c in chain)}", file=file)
                break  # a cycle further up: reported at its own objects
            seen.add(cur)
            cur = objects[index[cur]].parent
        raise ScenarioError(f"{at}: object {o.parent} is defined later (objects[{j}]); "
                            "a parent must come before its children", file=file)


def _parse_event(f: _Fields, e, i: int) -> ScenarioEvent:
    at = f"events[{i}]"
    if not isinstance(e, dict) or "t" not in e:
        raise f.fail(at, 'needs "t"')
    t = f.bounded(e["t"], f"{at}.t", B.EVENT_TIME)
    obj = f.u32(e.get("object", 1), f"{at}.object", what="an object id")
    kinds = [kind for kind in EVENT_KINDS if kind in e]
    if not kinds:
        raise f.fail(at, f"no known action ({', '.join(EVENT_KINDS)})")
    if len(kinds) > 1:
        raise f.fail(at, f"more than one action ({', '.join(kinds)})")
    kind = kinds[0]
    takes = _EVENT_KEYS | {kind} | _EVENT_KIND_KEYS.get(kind, set())
    unknown = [k for k in e if k not in takes]
    if unknown:  # "speed" on a play, "catalog" on a set_state: an error, never ignored
        raise f.fail(f"{at}.{unknown[0]}", f"unknown key (a {kind} event takes "
                     f"{', '.join(sorted(takes))})")
    value, intensity = _EVENT_VALUE[kind](f, e, e[kind], at, obj)
    return ScenarioEvent(t, obj, kind, value, intensity, dict(e))


#: every event's keys besides its action: ``note`` (the user's own, any value) and
#: ``received`` (the note ``replay --scenario-out`` writes when a held message arrived)
_EVENT_KEYS = {"t", "object", "note", "received"}
#: the keys each kind adds (docs/cli.md section 4); ``intensity_bits`` is replay's note of a
#: typed effect's raw intensity
_EVENT_KIND_KEYS = {"play": {"intensity", "intensity_bits"}, "motion": {"catalog", "speed"},
                    "launch": {"intensity"}}


# -- one reader per event kind: (f, event, value, field path of the event, object id) ->
# (value, intensity); the value's own field path is ``{at}.{kind}``
def _play_event(f: _Fields, e, value, at: str, obj: int):
    return (f.play_script(value, f"{at}.play"),
            f.number(e.get("intensity", 1.0), f"{at}.intensity"))


def _motion_event(f: _Fields, e, value, at: str, obj: int):
    # a full 32-bit command or a catalog name; speed bounded: the sequencer turns
    # speed * framerate into frame numbers and walks every frame it passes over
    # (CSequence::update_internal 0x005255D0)
    return _motion(f, value, e, at), f.bounded(e.get("speed", 1.0), f"{at}.speed",
                                               B.MOTION_SPEED)


def _create_event(f: _Fields, e, value, at: str, obj: int):
    spec = dict(f.object(value, f"{at}.create"))
    spec.setdefault("id", obj)
    _parse_object(f, spec, f"{at}.create")  # a self-parent is refused here; a parent that
    # does not exist at the event's time when it is applied (ScenarioRunner._attach)
    return value, 1.0


def _destroy_event(f: _Fields, e, value, at: str, obj: int):
    if value is not True:
        raise f.fail(f"{at}.destroy", f"expected true, got {value!r}")
    return value, 1.0


def _launch_event(f: _Fields, e, value, at: str, obj: int):
    """[physics] viewer/sim/projectile.py"""
    where = f"{at}.launch"
    event_intensity = (f.number(e["intensity"], f"{at}.intensity")
                       if "intensity" in e else None)
    for key in ("intensity", "explode_intensity"):
        if isinstance(value, dict) and key in value:
            f.number(value[key], f"{where}.{key}")
    if isinstance(value, dict) and "preset" in value:
        presets.preset(value["preset"], f"{where}.preset", f.file)
    try:
        return LaunchSpec.parse(value, event_intensity), 1.0
    except ScenarioError as err:
        raise f.fail(at, err.message) from None


_EVENT_VALUE = {
    "play_script": lambda f, e, value, at, obj: (f.did(value, f"{at}.play_script"), 1.0),
    "play": _play_event,
    "set_state": lambda f, e, value, at, obj: (f.u32(value, f"{at}.set_state",
                                                     what="a state"), 1.0),
    "motion": _motion_event,
    "create": _create_event,
    "destroy": _destroy_event,
    "set_velocity": lambda f, e, value, at, obj: (f.vec3(value, f"{at}.set_velocity",
                                                          B.VELOCITY), 1.0),
    "set_hidden": lambda f, e, value, at, obj: (f.flag(value, f"{at}.set_hidden"), 1.0),
    "launch": _launch_event,
    "objdesc": lambda f, e, value, at, obj: (parse_objdesc(f, value, f"{at}.objdesc"), 1.0),
}
assert set(_EVENT_VALUE) == set(EVENT_KINDS)


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
        self._check_presets()
        if "viewer" in scenario.extra:  # optional: where the viewer (camera) stands, for
            # the particle distance cull (ShouldDrawParticles 0x0050FE60); default origin
            self.world.viewer_position = _Fields(
                str(scenario.path) if scenario.path else None).vec3(scenario.extra["viewer"],
                                                                    "viewer")

    def _check_presets(self) -> None:
        """Every named projectile the scenario uses must be in the open DATs: one error
        naming the field and the missing DID (and a launch preset needs a fresh id)."""
        file = str(self.scenario.path) if self.scenario.path else None
        ids = {o.id for o in self.scenario.objects}
        for i, o in enumerate(self.scenario.objects):
            if o.preset is not None:
                presets.require(self.db, presets.preset(o.preset), f"objects[{i}].preset",
                                file)
        for i, ev in enumerate(self.scenario.events):
            if ev.kind == "create" and isinstance(ev.value, dict) and "preset" in ev.value:
                presets.require(self.db, presets.preset(ev.value["preset"]),
                                f"events[{i}].create.preset", file)
            if ev.kind == "launch" and ev.value.preset is not None:
                at = f"events[{i}].launch.preset"
                presets.require(self.db, presets.preset(ev.value.preset), at, file)
                if ev.object in ids:
                    raise ScenarioError(f"{at}: object {ev.object} already exists (a preset "
                                        f"launch creates its projectile)", file=file)

    @property
    def time(self) -> float:
        return float(self.clock.now)

    def snapshot(self) -> ScenarioRunner:
        """An independent copy (database and observers shared) to restore or scrub from."""
        import copy
        memo = self.world.snapshot_memo()
        memo[id(self.db)] = self.db
        return copy.deepcopy(self, memo)

    @property
    def frame(self) -> int:
        return self.clock.frame

    def _create_objects(self) -> None:
        for i, o in enumerate(self.scenario.objects):
            self._create(o, f"objects[{i}]")
            self._objdesc(o)
        for i, o in enumerate(self.scenario.objects):  # parents come first (_check_parents)
            if o.parent is not None:
                self._attach(o, f"objects[{i}]", _scenario_file(self.scenario))

    def _create(self, o: ScenarioObject, at: str) -> None:
        """World.create_object for an ``objects`` entry or a ``create`` event (field path
        ``at``); a record it cannot load (a Setup or table missing or of another type) names
        the field: ``objects[2].setup``."""
        try:
            self.world.create_object(
                o.id, o.setup, position=o.position, heading_deg=o.heading_deg,
                velocity=o.velocity, omega=o.omega, state=o.state, table=o.table,
                from_desc=o.extra.get("desc") is not False,
                default_script_type=o.default_script,
                default_script_intensity=o.default_intensity, scale=o.scale,
                translucency=o.translucency)
        except ViewerError as err:
            made = o.id in self.world.objects  # the Setup loaded: the table failed after it
            name = ("table" if made and o.table and err.did == o.table
                    else "setup" if not made and err.did == o.setup else None)
            where = f"{at}.{name}" if name else at
            raise type(err)(f"{where}: {err.message}", file=err.file, did=err.did,
                            offset=err.offset) from err

    def _attach(self, o: ScenarioObject, at: str, file: str | None) -> None:
        """An object's ``parent`` (+ ``parent_part`` or ``parent_location``), as retail's
        set_parent attaches it (CPhysicsObj::set_parent 0x00515B50)."""
        w = self.world
        if o.parent not in w.objects:
            raise ScenarioError(f"{at}.parent: object {o.parent} does not exist", file=file)
        parent = w.objects[o.parent]
        if "parent_location" in o.extra:  # [animation] a Setup holding location
            try:
                part, frame = _holding(parent, o.extra["parent_location"], o.id)
            except ScenarioError as err:  # name the field: objects[1].parent_location
                raise ScenarioError(f"{at}.parent_location: {err.message}", file=file,
                                    did=err.did) from None
            w.attach_child(w.objects[o.id], parent, part, frame, holding=True)
        elif not w.attach_child(w.objects[o.id], parent, o.parent_part):
            # add_child 0x0050F8F0 refuses a part the parent does not have
            raise ScenarioError(
                f"{at}.parent_part: object {o.parent} has {parent.num_parts} part(s); "
                f"{o.parent_part} is not -1 or one of them", file=file)

    def _apply(self, ev: ScenarioEvent) -> None:
        w = self.world
        if ev.kind == "create":
            spec = dict(ev.value) if isinstance(ev.value, dict) else {}
            spec.setdefault("id", ev.object)
            so = _parse_object(_Fields(None), spec, "create")  # checked at load
            self._create(so, "create")
            self._objdesc(so)
            if so.parent is not None:  # as an objects entry's parent, at the event's time
                self._attach(so, "create", None)
            return
        if ev.kind == "launch" and ev.value.preset is not None:
            self._create_preset(ev)
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
        elif ev.kind == "objdesc":  # an ObjDescEvent: SmartBox::UpdateVisualDesc 0x00451F40
            do_objdesc_changes_from_default(w, obj, ev.value)

    def _objdesc(self, o: ScenarioObject) -> None:
        """A created object's ObjDesc, as CreateObject's visual description is applied
        (ACCObjectMaint::SetVisualDesc 0x00557660 -> DoObjDescChangesFromDefault)."""
        if "objdesc" in o.extra:
            desc = parse_objdesc(_Fields(None), o.extra["objdesc"], "objdesc")  # checked
            do_objdesc_changes_from_default(self.world, self.world.objects[o.id], desc)

    def _create_preset(self, ev: ScenarioEvent) -> None:
        """A preset launch creates its projectile (Setup and table of the named WCID) at
        the launch point, as the server's CreateObject would, then launches it."""
        p = presets.preset(ev.value.preset)
        if ev.object in self.world.objects:
            raise ScenarioError(f"event at t={ev.t}: launch preset {p.name}: object "
                                f"{ev.object} already exists")
        self.world.create_object(ev.object, p.setup, table=p.table,
                                 position=ev.value.origin or (0.0, 0.0, 0.0))

    def step_frame(self) -> bool:
        """Advance one render frame (the first call runs frame 0 at t = 0): events due,
        then the harness, then ``World.tick`` (viewer/sim/world.py's frame order). Returns
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

    def frames(self, seconds: float | None = None) -> Iterator[tuple[Fraction, World]]:
        """THE frame loop (trace, render, compare and the GUI's playback all step through
        it): yield ``(t, world)`` after each render frame this call steps, frame 0 at
        t = 0 (when not yet started) then every 1/fps up to and including ``seconds``
        (the scenario's duration by default); ``t`` is the exact frame time."""
        last = self.clock.last_frame(self.scenario.seconds if seconds is None else seconds)
        if not self._started:
            self.step_frame()
            yield self.clock.now, self.world
        while self.clock.frame < last:
            self.step_frame()
            yield self.clock.now, self.world

    def run(self, seconds: float | None = None) -> None:
        """Step frames until the frame time reaches ``seconds`` (inclusive)."""
        for _ in self.frames(seconds):
            pass
