"""MotionCommand catalogs: names, full 32-bit values, wire reconstruction.

A MotionCommand's top byte is its class: 0x80 style, 0x40 substate
(cycle), 0x20 modifier, 0x10 action; the low 16 bits are what the wire carries.

Two catalogs are kept side by side, behind one interface:

* ``ACE_MODERN`` (the runtime default): ACE's ``MotionCommand`` enum, which matches the DATs
  in use. From ``SnowAngelState`` on its low words are 3 above the 2013 client's
  (``SnowAngelState`` 0x43000118 here, 0x43000115 in 2013).
* ``RETAIL_2013``: the Sept 2013 client's ``command_ids[408]`` paired with
  ``command_strings[408]``. Retail rebuilds a wire value by indexing that table.

``reconstruct_full_command(wire)`` maps a 16-bit wire value to the full command; when more
than one command of a catalog shares a low word, the lower class byte wins
(Action 0x10 < SubState 0x41 < Style 0x80 ...). 0 means no entry.
"""

from __future__ import annotations

from viewer.bounds import int_text
from viewer.errors import ScenarioError
from viewer.sim.animation.command_tables import ACE_MODERN_TEXT, RETAIL_2013_TEXT

# Command classes (high bits), CMotionTable::GetObjectSequence 0x00522860.
STYLE_BIT = 0x80000000
SUBSTATE_BIT = 0x40000000
MODIFIER_BIT = 0x20000000
ACTION_BIT = 0x10000000


def _parse(text: str) -> tuple[tuple[str, int], ...]:
    out = []
    for line in text.split("\n"):
        line = line.strip()
        if line:
            name, value = line.split()
            out.append((name, int(value, 16)))
    return tuple(out)


def _class_byte(command: int) -> int:
    return (command >> 24) & 0xFF


class CommandCatalog:
    """One name <-> value catalog with 16-bit wire reconstruction."""

    def __init__(self, name: str, entries: tuple[tuple[str, int], ...]) -> None:
        self.name = name
        self.entries = entries
        self._by_name: dict[str, int] = {}
        self._by_lower: dict[str, int] = {}
        self._names: dict[int, str] = {}
        self._wire: dict[int, int] = {}
        for n, v in entries:
            self._by_name.setdefault(n, v)
            self._by_lower.setdefault(n.lower(), v)
            self._names.setdefault(v, n)
            lo = v & 0xFFFF
            old = self._wire.get(lo)
            # Collisions: the lower class byte wins (resolved once, at build time).
            if old is None or _class_byte(v) < _class_byte(old):
                self._wire[lo] = v

    def __repr__(self) -> str:
        return f"CommandCatalog({self.name!r}, {len(self.entries)} commands)"

    def command(self, name: str) -> int | None:
        """Full command for a name (exact, then case-insensitive); None if unknown."""
        v = self._by_name.get(name)
        if v is None:
            v = self._by_lower.get(name.lower())
        return v

    def name_of(self, command: int) -> str | None:
        return self._names.get(command & 0xFFFFFFFF)

    def reconstruct_full_command(self, wire: int) -> int:
        """Full 32-bit command from a 16-bit wire value; 0 if no entry matches."""
        return self._wire.get(wire & 0xFFFF, 0)


ACE_MODERN = CommandCatalog("ace-modern", _parse(ACE_MODERN_TEXT))
RETAIL_2013 = CommandCatalog("retail-2013", _parse(RETAIL_2013_TEXT))
DEFAULT_CATALOG = ACE_MODERN

CATALOGS = {ACE_MODERN.name: ACE_MODERN, RETAIL_2013.name: RETAIL_2013}

# Retail's well-known commands (identical in both catalogs).
READY = 0x41000003
NON_COMBAT = 0x8000003D


def resolve_command(value, catalog: CommandCatalog | None = None, *,
                    file: str | None = None) -> int:
    """A scenario ``motion`` value as a full 32-bit command.

    Accepts an int or a numeric string (decimal or 0x hex) holding the full command, a
    16-bit wire value (<= 0xFFFF, reconstructed through the catalog), or a catalog name.
    Raises ScenarioError for anything else.
    """
    cat = catalog or DEFAULT_CATALOG
    number: int | None = None
    if isinstance(value, bool):
        raise ScenarioError(f"motion: expected a command or a name, got {value!r}", file=file)
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        try:
            number = int_text(text)  # ASCII digits only (viewer.bounds)
        except ValueError:
            cmd = cat.command(text)
            if cmd is None:
                raise ScenarioError(f"motion: unknown command name {value!r} in the "
                                    f"{cat.name} catalog", file=file) from None
            return cmd
    else:
        raise ScenarioError(f"motion: expected a command or a name, got {value!r}", file=file)
    if number < 0 or number > 0xFFFFFFFF:
        raise ScenarioError(f"motion: command {value!r} is not a 32-bit value", file=file)
    if number <= 0xFFFF:
        full = cat.reconstruct_full_command(number)
        if full == 0:
            raise ScenarioError(f"motion: wire value 0x{number:04X} is not in the {cat.name} "
                                f"catalog", file=file)
        return full
    return number
