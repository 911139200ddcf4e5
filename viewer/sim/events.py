"""Trace events as JSON Lines (docs/cli.md section 5).

Events are plain dicts produced through ``World.emit``; this module writes them: DID
fields as ``0x`` + 8 upper-case hex digits, NaN and infinities as ``"nan"``, ``"inf"``,
``"-inf"``, tuples as lists, keys in the order they were set. The same run gives the same
bytes.
"""

from __future__ import annotations

import json
import math

import numpy as np

from viewer.errors import format_did

DID_KEYS = frozenset({"script", "source", "info", "table", "setup", "did", "wave", "by"})


def _value(key, v):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, np.integer)):
        if key in DID_KEYS:
            return format_did(int(v)) if int(v) else None
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f):
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    if isinstance(v, np.ndarray):
        return [_value(None, x) for x in v.tolist()]
    if isinstance(v, (list, tuple)):
        return [_value(None, x) for x in v]
    if isinstance(v, dict):
        return {k: _value(k, x) for k, x in v.items()}
    return str(v)


def jsonable(event: dict) -> dict:
    return {k: _value(k, v) for k, v in event.items()}


def to_line(event: dict) -> str:
    return json.dumps(jsonable(event), ensure_ascii=False, allow_nan=False)
