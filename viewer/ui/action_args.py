"""The arguments of an ``--actions`` entry, checked when the file is read.

Each command's fields are typed (``viewer/ui/commands.py``); an entry whose argument has the
wrong type, is not finite, or lies outside the documented range (``viewer/bounds.py``) is
refused with one line naming the entry and the field (``actions[0].t: ...``) before the
viewer starts. An intensity is the one number that may be anything, ``nan`` included (the
retail table lookup answers every value, as in a scenario's ``play`` events).
"""

from __future__ import annotations

from dataclasses import MISSING, fields

from viewer import bounds
from viewer.errors import ScenarioError

#: field -> range, for every command that has the field (``speed`` is a launch's only)
_FIELD_BOUNDS = {
    "t": bounds.EVENT_TIME, "start": bounds.EVENT_TIME, "end": bounds.EVENT_TIME,
    "capture_t": bounds.EVENT_TIME, "scenario_t": bounds.EVENT_TIME,
    "volume": bounds.UNIT_FRACTION, "opacity": bounds.UNIT_FRACTION,
    "split": bounds.UNIT_FRACTION,
    "offset": bounds.REFERENCE_OFFSET, "rate": bounds.REFERENCE_RATE,
    "fps": bounds.REFERENCE_FPS,
    "origin": bounds.POSITION, "target": bounds.POSITION, "velocity": bounds.VELOCITY,
}
_CLASS_FIELD_BOUNDS = {("LaunchProjectile", "speed"): bounds.LAUNCH_SPEED}
#: a number with no range of its own is still a finite 32-bit float (a camera drag, a
#: playback speed the timeline clamps, a step count)
_ANY_FLOAT = bounds.F32
#: ids and DIDs are unsigned 32-bit, a step count or direction signed
_INTEGER = bounds.Bound("integer", -0xFFFFFFFF, 0xFFFFFFFF, "", "a 32-bit value", integer=True)
_CROP = (bounds.CROP_ORIGIN, bounds.CROP_ORIGIN, bounds.CROP_SIZE, bounds.CROP_SIZE)


def _number(value, bound: bounds.Bound, *, integer: bool = False) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{value!r} is not a number"
    if integer and not isinstance(value, int):
        return f"{value!r} is not an integer"
    return bound.problem(value)


def _problem(cls_name: str, name: str, kind: str, value) -> str | None:
    """Why ``value`` cannot be field ``name`` (annotated ``kind``) of ``cls_name``."""
    optional = kind.endswith(" | None")
    if optional:
        if value is None:
            return None
        kind = kind[: -len(" | None")]
    bound = _CLASS_FIELD_BOUNDS.get((cls_name, name), _FIELD_BOUNDS.get(name, _ANY_FLOAT))
    if name == "intensity":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{value!r} is not a number"
        return None
    if kind == "float":
        return _number(value, bound)
    if kind == "int":
        return _number(value, _INTEGER, integer=True)
    if kind == "bool":
        return None if isinstance(value, bool) else f"{value!r} is not true or false"
    if kind == "dict":
        return None if isinstance(value, dict) else f"{value!r} is not a JSON object"
    if kind == "str":
        if not isinstance(value, str):
            return f"{value!r} is not text"
        return bounds.text_problem(value) if name == "path" else None
    if kind.startswith("tuple["):
        parts = kind[len("tuple["):-1].split(", ")
        if not isinstance(value, (list, tuple)):
            return f"{value!r} is not a list"
        if parts[-1] == "...":
            return next((p for v in value if (p := _problem(cls_name, name, parts[0], v))),
                        None)
        if len(value) != len(parts):
            return f"expected {len(parts)} values, not {len(value)}"
        for i, (part, v) in enumerate(zip(parts, value, strict=True)):
            if name == "crop":
                p = _number(v, _CROP[i], integer=True)
            elif part == "float":
                p = _number(v, bound)
            else:
                p = _problem(cls_name, name, part, v)
            if p:
                return f"[{i}]: {p}"
        return None
    return None             # "object", "str | int": the command itself checks them


def command_args_problem(cls, args: dict) -> tuple[str, str] | None:
    """``(field, reason)`` for the first argument of command class ``cls`` that is out of
    type or range, else None (unknown or missing fields are left to the constructor)."""
    for f in fields(cls):
        if f.name in args:
            p = _problem(cls.__name__, f.name, str(f.type), args[f.name])
            if p:
                name = f.name
                while p.startswith("["):      # an element: actions[0].velocity[1]
                    at = p.index("]: ") + 1
                    name, p = name + p[:at], p[at + 2:]
                return name, p
    return None


def command_class(name) -> type | None:
    """The command class an actions entry names (``"Seek"``), or None: only the commands
    of viewer/ui/commands.py, never another name of that module."""
    from viewer.ui import commands as c
    cls = getattr(c, name, None) if isinstance(name, str) and name[:1].isupper() else None
    ok = isinstance(cls, type) and issubclass(cls, c.Command) and cls is not c.Command
    return cls if ok else None


def command_names() -> list[str]:
    from viewer.ui import commands as c
    return sorted(n for n in dir(c) if command_class(n) is not None)


def parse_action(item, at: str, frames: int) -> tuple[int, object]:
    """One ``--actions`` entry ``{"frame": N, "command": NAME, FIELD: VALUE...}`` at field
    path ``at`` (``actions[0]``) as ``(frame, command)``; ``frames``: the frame bound. Each
    problem is a ScenarioError naming the entry and the key: a missing ``frame`` or
    ``command``, an unknown command or field, a value of the wrong type or range; a
    ``"0x..."`` string is an integer (ASCII digits, viewer.bounds.int_text) where the field
    is one."""
    if not isinstance(item, dict):
        raise ScenarioError(f"{at}: expected a JSON object {{\"frame\": N, \"command\": "
                            f"NAME, ...}}, got {item!r}")
    for key in ("frame", "command"):
        if key not in item:
            raise ScenarioError(f'{at}: needs "{key}"')
    frame = item["frame"]
    # a frame the viewer reaches: the run lasts one frame past the last action
    if isinstance(frame, bool) or not isinstance(frame, int) or not 0 <= frame < frames:
        raise ScenarioError(f"{at}: frame must be an integer in 0..{frames - 1}, not "
                            f"{frame!r}")
    name = item["command"]
    cls = command_class(name)
    if cls is None:
        raise ScenarioError(f"{at}.command: unknown command {name!r} (one of "
                            f"{', '.join(command_names())})")
    takes = {f.name: f for f in fields(cls)}
    args = {k: v for k, v in item.items() if k not in ("frame", "command")}
    for key, value in args.items():
        if key not in takes:
            raise ScenarioError(f"{at}.{key}: unknown field of {name} (it takes "
                                f"{', '.join(takes) or 'none'})")
        kind = str(takes[key].type)
        if isinstance(value, str) and value.lower().startswith("0x") \
                and ("int" in kind or kind == "object"):  # Select's key: a DID too
            try:
                args[key] = bounds.int_text(value)
            except ValueError:
                raise ScenarioError(f"{at}.{key}: not an integer: {value!r}") from None
    bad = command_args_problem(cls, args)
    if bad is not None:
        raise ScenarioError(f"{at}.{bad[0]}: {bad[1]}")
    missing = [f.name for f in takes.values() if f.name not in args
               and f.default is MISSING and f.default_factory is MISSING]
    if missing:
        raise ScenarioError(f"{at}: {name} needs {', '.join(map(repr, missing))}")
    try:
        return frame, cls(**args)
    except (TypeError, ValueError) as err:  # the command's own checks
        raise ScenarioError(f"{at}: {name}: {err}") from None
