"""The arguments of an ``--actions`` entry, checked when the file is read.

Each command's fields are typed (``viewer/ui/commands.py``); an entry whose argument has the
wrong type, is not finite, or lies outside the documented range (``viewer/bounds.py``) is
refused with one line naming the entry and the field (``actions[0].t: ...``) before the
viewer starts. An intensity is the one number that may be anything, ``nan`` included (the
retail table lookup answers every value, as in a scenario's ``play`` events).
"""

from __future__ import annotations

from dataclasses import fields

from viewer import bounds

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
