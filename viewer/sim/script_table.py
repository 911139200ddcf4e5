"""PhysicsScriptTable resolution (docs/retail-rules.md, Scripts).

``PhysicsScriptTable::GetScript`` 0x00521E40 looks the type up by exact key (first stored
entry wins for duplicate keys); ``PhysicsScriptTableData::GetScript`` 0x00521A20 walks the
entries in STORED order and returns the first whose ``mod`` is >= the intensity. The x86 at
0x00521A3B (``test ah,0x41; jnp``) continues on an unordered compare, so NaN selects no
script; above every threshold selects none; -inf selects the first entry; no fallback.
"""

from __future__ import annotations

import math

import numpy as np

from viewer.bounds import int_text

NO_SCRIPT = 0


def as_f32(value: float) -> float:
    """The intensity as the client holds it (an f32 argument), NaN payload kept."""
    with np.errstate(over="ignore"):
        return float(np.float32(value))


def select_script(entries, intensity: float) -> int:
    """PhysicsScriptTableData::GetScript 0x00521A20 over ``entries`` (objects with ``mod``
    and ``script_id``) in stored order. Returns the script DID or 0."""
    x = as_f32(intensity)
    if math.isnan(x):
        return NO_SCRIPT  # 0x00521A3B: unordered compare continues the loop -> none
    for entry in entries:
        mod = as_f32(entry.mod)  # an f32 on disk
        if math.isnan(mod):
            continue  # unordered against a NaN threshold: no match either
        if x <= mod:  # equality matches (C3 set)
            return int(entry.script_id)
    return NO_SCRIPT


def get_script(table, script_type: int, intensity: float) -> int:
    """PhysicsScriptTable::GetScript 0x00521E40: 0 when the table or type is absent."""
    if table is None:
        return NO_SCRIPT
    data = table.get(int(script_type))
    if data is None:
        return NO_SCRIPT
    return select_script(data.scripts, intensity)


def play_script_number(value) -> int:
    """A PlayScript given as a name (``Launch``, ``Hidden``), a number or a numeric string."""
    if isinstance(value, bool):
        raise ValueError(f"not a PlayScript: {value!r}")  # noqa: TRY004
    if isinstance(value, int):
        return value & 0xFFFFFFFF
    text = str(value).strip()
    try:
        return int_text(text) & 0xFFFFFFFF  # ASCII digits only (viewer.bounds)
    except ValueError:
        pass
    from viewer.dat.records.common import PlayScript
    for member in PlayScript:
        if member.name.lower() == text.lower() or member.name.lower() == f"ps_{text.lower()}":
            return int(member)
    raise ValueError(f"unknown PlayScript name {text!r}")


def play_script_name(number: int) -> str | None:
    try:
        from viewer.dat.records.common import PlayScript
        return PlayScript(number).name
    except (ImportError, ValueError):
        return None
