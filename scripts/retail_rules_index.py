"""Rewrite the function index of docs/retail-rules.md from the citations in viewer/.

Every ported retail branch cites its retail function and address in a comment or docstring
(``# CPhysicsObj::set_state 0x00514DD0``). This script collects those citations, groups them
by subsystem (the module they are in) and replaces the part of docs/retail-rules.md between
the index markers with one table per subsystem: function, address, where we follow it.

Usage: python scripts/retail_rules_index.py [--check]
(--check: exit 1 when the document's index is not what the code cites now.)
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "retail-rules.md"
BEGIN, END = "<!-- index:begin -->", "<!-- index:end -->"

#: ``Class::method 0x00XXXXXX`` or a bare ``Function 0x00XXXXXX`` (call parentheses allowed)
CITATION = re.compile(r"\b((?:[A-Za-z_][A-Za-z0-9_]*::)?~?[A-Za-z_][A-Za-z0-9_]*)"
                      r"(?:\([^)]*\))?`{0,2}\s+(0x00[0-9A-F]{6})\b")
#: words that precede an address without naming a function
NOT_A_NAME = {"at", "and", "or", "of", "to", "by", "as", "in", "the", "x86", "see", "address",
              "from", "with", "is", "also", "via", "case", "call", "calls", "e", "g", "i",
              "ctor", "assignment", "retail", "below", "where", "after", "before", "tests",
              "expected", "invalid", "magic"}
#: the retail client's code starts above this address; smaller values are constants
CODE_START = 0x00401000

#: subsystem title -> module path prefixes (first match wins)
GROUPS: list[tuple[str, tuple[str, ...]]] = [
    ("DAT container and record codecs", ("viewer/dat/", "viewer/synthetic/")),
    ("Frame clock, random source and object state", (
        "viewer/sim/clock.py", "viewer/sim/rng.py", "viewer/sim/state.py",
        "viewer/sim/frame.py")),
    ("Scripts, script tables and hooks", (
        "viewer/sim/script_table.py", "viewer/sim/script_manager.py", "viewer/sim/hooks.py",
        "viewer/commands/resolve.py", "viewer/ui/script_table_panel.py")),
    ("Particles and emitters", ("viewer/sim/particles.py",)),
    ("Animation and motion", ("viewer/sim/animation/", "viewer/sim/poses.py")),
    ("Physics, collision and projectiles", (
        "viewer/sim/physics.py", "viewer/sim/collision.py", "viewer/sim/projectile.py")),
    ("Objects and the world loop", ("viewer/sim/",)),
    ("Network messages and object events", ("viewer/wire/",)),
    ("Rendering and camera", ("viewer/render/",)),
    ("Viewer panels", ("viewer/ui/", "viewer/")),
]


def _group(path: str) -> str:
    for title, prefixes in GROUPS:
        if path.startswith(prefixes):
            return title
    return GROUPS[-1][0]


def citations() -> dict[str, dict[tuple[str, str], set[str]]]:
    """subsystem -> (function, address) -> our modules citing it."""
    found: dict[str, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
    best_name: dict[str, str] = {}
    rows: list[tuple[str, str, str]] = []
    for path in sorted((ROOT / "viewer").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for m in CITATION.finditer(path.read_text(encoding="utf-8")):
            name, addr = m.group(1), m.group(2)
            if name.lower() in NOT_A_NAME or int(addr, 16) < CODE_START:
                continue
            rows.append((name, addr, rel))
            # prefer the qualified spelling of a function for its address
            if addr not in best_name or ("::" in name and "::" not in best_name[addr]):
                best_name[addr] = name
    for name, addr, rel in rows:
        found[_group(rel)][(best_name.get(addr, name), addr)].add(rel)
    return found


def render_index() -> str:
    found = citations()
    out = [BEGIN, ""]
    for title, _ in GROUPS:
        entries = found.get(title)
        if not entries:
            continue
        out += [f"### {title}", "", "| retail function | address | followed in |", "|---|---|---|"]
        for (name, addr), mods in sorted(entries.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            where = ", ".join(f"`{m.removeprefix('viewer/')}`" for m in sorted(mods))
            out.append(f"| `{name}` | `{addr}` | {where} |")
        out.append("")
    out.append(END)
    return "\n".join(out)


def main(argv: list[str]) -> int:
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + render_index() + tail
    if "--check" in argv:
        if new != text:
            print(f"{DOC}: function index is out of date; run {Path(__file__).name}",
                  file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
