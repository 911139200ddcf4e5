"""Names for numbers: record types by DID range, PlayScript types, hook types, particle and
emitter types, each shown as ``Name (number)`` wherever a panel or a command lists them, and
read back from a name (case-insensitive) for searches.

The enums themselves are in ``records/common.py`` (the client's ``PScriptType``,
``AnimationHookType``, ``ParticleType``, ``EmitterType``); this module only formats and
parses. GL-free, no sim.
"""

from __future__ import annotations

import enum

from viewer.dat.records import RECORD_CLASSES
from viewer.dat.records.common import AnimationHookType, EmitterType, ParticleType, PlayScript

#: DID top byte -> record type name (retail's DID ranges; 0x06 and 0x07 both RenderSurface):
#: the decoders' own table, ``records.RECORD_CLASSES``, by class name.
TYPE_NAMES: dict[int, str] = {top: cls.__name__ for top, cls in RECORD_CLASSES.items()}


def type_name(did: int) -> str:
    """The record type a DID names by its range (``type 0xNN`` for a range without one)."""
    top = (did >> 24) & 0xFF
    return TYPE_NAMES.get(top, f"type 0x{top:02X}")


def _label(cls: type[enum.IntEnum], value, width: int | None = None) -> str:
    """``Name (number)``; a number the enum does not know as ``cls.__name__ number``."""
    number = int(value)
    try:
        name = cls(number).name
    except ValueError:
        name = None
    shown = f"0x{number:0{width}X}" if width else str(number)
    return f"{name} ({shown})" if name else f"{cls.__name__} {shown}"


def play_script_label(value) -> str:
    """``Launch (0x04)``; an unknown number as ``PlayScript 0x1234``."""
    return _label(PlayScript, value, 2)


def hook_type_label(value) -> str:
    """``CreateParticle (13)``; an unknown number as ``AnimationHookType 99``."""
    return _label(AnimationHookType, value)


def hook_type_label_of(name: str) -> str:
    """A hook type named as trace names it (``CallPES``) with its number beside
    (``CallPES (19)``); a name the enum does not know as it is."""
    member = AnimationHookType.__members__.get(name)
    return name if member is None else hook_type_label(member)


def particle_type_label(value) -> str:
    return _label(ParticleType, value)


def emitter_type_label(value) -> str:
    return _label(EmitterType, value)


def _lookup(cls: type[enum.IntEnum], text: str) -> list[int]:
    """Members whose name is ``text`` (case-insensitive), else those whose name starts
    with it; [] for an empty text."""
    t = text.strip().lower()
    if not t:
        return []
    exact = [int(m) for m in cls if m.name.lower() == t]
    return exact or [int(m) for m in cls if m.name.lower().startswith(t)]


def play_scripts_named(text: str) -> list[int]:
    """PlayScript numbers a search text names (``launch``; ``AttribUp`` gives all six)."""
    return _lookup(PlayScript, text.removeprefix("PS_").removeprefix("ps_"))


def hook_types_named(text: str) -> list[int]:
    """Hook type numbers a search text names (``CallPES``; ``CreateP`` gives one; a
    ``Hook`` suffix as in the record classes is accepted)."""
    t = text.strip()
    if t.lower().endswith("hook"):
        t = t[:-4]
    return _lookup(AnimationHookType, t)


__all__ = ["TYPE_NAMES", "emitter_type_label", "hook_type_label", "hook_type_label_of",
           "hook_types_named",
           "particle_type_label", "play_script_label", "play_scripts_named", "type_name"]
