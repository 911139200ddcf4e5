"""Records to JSON-ready values (docs/cli.md section 2).

snake_case field names as the records have them; DIDs as ``"0x%08X"`` strings; enums by
name (flag sets as ``"A|B"``, unknown bits appended in hex, an unknown enum value stays a
number); absent optional values as ``null``; lists in stored order; NaN and infinities as
``"nan"``, ``"inf"``, ``"-inf"``; raw byte blobs (pixels, audio, BSP trees) as
``{"size": n, "sha256": "..."}``. ``record_json(did, record)`` adds ``"type"``,
``"record_type"`` and ``"did"``.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import math
import struct

import numpy as np

from viewer.dat import records as R
from viewer.errors import format_did

#: int fields (or tuples of ints) that hold DIDs
DID_FIELDS = frozenset({
    "id", "parts", "surfaces", "wave_id", "emitter_info_id", "gfxobj_id", "hw_gfxobj_id",
    "pes_id", "script_id", "anim_id", "default_animation", "default_script",
    "default_motion_table", "default_sound_table", "default_script_table", "orig_texture_id",
    "orig_palette_id", "textures", "default_palette_id", "did_degrade",
    "default_gfx_object_id", "default_pes_object_id", "gfx_obj_id",
})


#: float fields stored as f64 on disk; every other float is an f32
F64_FIELDS = frozenset({"start_time", "birthrate", "total_seconds", "lifespan",
                        "lifespan_rand", "tick_size", "light_tick_size", "zero_time_of_year",
                        "length"})
_F32 = struct.Struct("<f")

#: int fields retail types as an enum that the records keep as a plain int: printed by name
#: (docs/cli.md section 2), an unknown value stays a number
INT_ENUM_FIELDS = {"vertex_type": {0: "Unknown", 1: "CSWVertex"}}  # VertexType (i32)


def json_float(x: float, f64: bool = False):
    """NaN / infinities as strings; an f32 value as its shortest f32 spelling (0.7, not
    0.699999988079071), which converts back to the identical f32."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if not f64:
        try:
            exact = _F32.unpack(_F32.pack(x))[0] == x
        except OverflowError:
            exact = False
        if exact:
            return float(np.format_float_positional(np.float32(x), unique=True, trim="0"))
    return x


def enum_name(v) -> str | int:
    """Name of an enum member; ``A|B`` for flags (unknown bits in hex); int if unknown."""
    if isinstance(v, enum.Flag):
        cls = type(v)
        value = int(v)
        try:
            exact = cls._value2member_map_.get(value)
        except AttributeError:  # pragma: no cover
            exact = None
        if exact is not None and exact._name_:
            return exact._name_
        names, rest = [], value
        for m in cls:
            mv = int(m)
            if mv and mv & (mv - 1) == 0 and rest & mv:
                names.append(m._name_)
                rest &= ~mv
        if rest:
            names.append(f"0x{rest:X}")
        return "|".join(names) if names else "0"
    if isinstance(v, enum.Enum):
        return v.name
    return v


def _did(v):
    if v is None:
        return None
    if isinstance(v, (tuple, list)):
        return [_did(x) for x in v]
    return format_did(int(v))


def _blob(b: bytes) -> dict:
    return {"size": len(b), "sha256": hashlib.sha256(b).hexdigest()}


def _pairs(items, key_name: str, value_name: str, key_fn=enum_name) -> list:
    return [{key_name: key_fn(k), value_name: to_jsonable(v)} for k, v in items]


def _hex(v: int) -> str:
    return format_did(int(v))  # motion commands and styles share the DID spelling


def _null_hook(h) -> dict:
    """A stored hook retail builds nothing for: ``"hook": null`` plus what is stored."""
    return {"hook": None, "hook_type": h.type_name, "type_number": h.type_number,
            "direction": enum_name(h.direction)}


def _special(obj):
    """Per-type shapes for (key, value) tuples; None when the generic path applies."""
    if isinstance(obj, R.NullHook):
        return _null_hook(obj)
    if isinstance(obj, R.PhysicsScriptData) and isinstance(obj.hook, R.NullHook):
        return {"start_time": json_float(obj.start_time, f64=True), **_null_hook(obj.hook)}
    if isinstance(obj, R.PhysicsScriptTable):
        return {"id": _did(obj.id),
                "entries": [{"play_script": enum_name(k),
                             "scripts": to_jsonable(d.scripts)} for k, d in obj.entries]}
    if isinstance(obj, R.PhysicsScript):
        return {"id": _did(obj.id), "length": json_float(obj.length, f64=True),
                "script_data": to_jsonable(obj.script_data),
                "stored_script_data": to_jsonable(obj.stored_script_data)}
    if isinstance(obj, R.Setup):
        d = _generic(obj)
        d["holding_locations"] = _pairs(obj.holding_locations, "key", "location")
        d["connection_points"] = _pairs(obj.connection_points, "key", "location")
        d["placement_frames"] = _pairs(obj.placement_frames, "key", "frame")
        return d
    if isinstance(obj, R.MotionTable):
        return {"id": _did(obj.id), "default_style": _hex(obj.default_style),
                "style_defaults": [{"style": _hex(k), "default_substate": _hex(v)}
                                   for k, v in obj.style_defaults],
                "cycles": _pairs(obj.cycles, "key", "motion_data", _hex),
                "modifiers": _pairs(obj.modifiers, "key", "motion_data", _hex),
                "links": [{"key": _hex(k), "targets": _pairs(inner, "to_motion", "motion_data",
                                                            _hex)}
                          for k, inner in obj.links]}
    if isinstance(obj, R.RenderSurface):  # the record's own name: image_size
        d = {}
        for k, v in _generic(obj).items():
            if k == "source_data":
                d["image_size"] = len(obj.source_data)
            d[k] = v
        return d
    if isinstance(obj, R.Iteration):
        return {"count": obj.count, "tokens": [list(t) for t in obj.tokens],
                "iterations": obj.iterations()}
    return None


def _generic(obj) -> dict:
    out: dict = {}
    if isinstance(obj, R.AnimationHook):
        out["hook_type"] = enum_name(obj.hook_type)
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if f.name in DID_FIELDS and not isinstance(v, (bytes, bytearray)):
            out[f.name] = _did(v)
        elif f.name in INT_ENUM_FIELDS and type(v) is int:
            out[f.name] = INT_ENUM_FIELDS[f.name].get(v, v)
        elif f.name in F64_FIELDS and isinstance(v, float):
            out[f.name] = json_float(v, f64=True)
        else:
            out[f.name] = to_jsonable(v)
    return out


def to_jsonable(obj):
    """Any record or record part -> plain JSON types."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, enum.Enum):
        return enum_name(obj)
    if isinstance(obj, int):
        return obj
    if isinstance(obj, float):
        return json_float(obj)
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return _blob(bytes(obj))
    if isinstance(obj, (tuple, list)):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if dataclasses.is_dataclass(obj):
        special = _special(obj)
        return special if special is not None else _generic(obj)
    if hasattr(obj, "item"):      # numpy scalar
        return to_jsonable(obj.item())
    raise TypeError(f"cannot convert {type(obj).__name__} to JSON")


def record_json(did: int, record) -> dict:
    """The ``dat show`` object: type and DID first, then the record's fields.

    ``"type"`` names the record type, except where the record has a field of that name (a
    Surface's SurfaceType): the record's field wins there (docs/cli.md section
    2), so ``"record_type"`` always names the record type."""
    body = to_jsonable(record)
    out = {"type": type(record).__name__, "record_type": type(record).__name__,
           "did": format_did(did)}
    out.update(body)
    return out


def dumps(value, **kwargs) -> str:
    """json.dumps that refuses raw NaN (they must already be strings)."""
    return json.dumps(value, allow_nan=False, ensure_ascii=False, **kwargs)
