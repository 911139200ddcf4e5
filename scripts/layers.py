"""Draw the import graph of ``viewer/`` from the code and check that layers only import down.

Every module of the package belongs to one unit (``viewer/<unit>/...`` or the top-level
``viewer/<unit>.py``). ``LAYERS`` says which units each unit may import; ``EXTERNAL_FORBIDDEN``
keeps GL and ImGui out of the GL-free layers; ``RENDER_READS`` names the only sim modules the
renderer reads (the inspection API, frame maths, the particle pool type). Imports are read
with ``ast`` (both top-level and function-local ones), nothing is imported.

Usage (from the repository root):
    python -m scripts.layers            # the unit graph, one line per unit, lowest first
    python -m scripts.layers --dot      # the same graph in Graphviz DOT (| dot -Tsvg)
    python -m scripts.layers --check    # exit 1 and list every import that runs upwards
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "viewer"

#: unit -> the units it may import, lowest layer first (docs/ARCHITECTURE.md "Layers")
LAYERS: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "inputs": frozenset({"errors"}),
    "bounds": frozenset(),
    "resources": frozenset({"errors"}),
    "userdirs": frozenset(),
    "dat": frozenset({"errors", "inputs"}),
    "wire": frozenset({"errors", "inputs"}),
    "media": frozenset({"errors", "inputs"}),
    "compare": frozenset({"errors", "media"}),
    "sim": frozenset({"errors", "inputs", "bounds", "dat", "userdirs"}),
    "synthetic": frozenset({"errors", "resources", "dat", "sim"}),
    "audio_out": frozenset({"errors", "dat", "sim"}),
    "render": frozenset({"errors", "bounds", "resources", "dat", "sim"}),
    "ui": frozenset({"errors", "inputs", "bounds", "resources", "dat", "sim", "render", "compare",
                     "media", "synthetic", "audio_out", "userdirs"}),
    "app": frozenset({"errors", "inputs", "bounds", "resources", "dat", "wire", "media", "compare",
                      "sim", "synthetic", "render", "ui", "audio_out", "userdirs"}),
    "commands": frozenset({"errors", "inputs", "bounds", "resources", "dat", "wire", "media",
                           "compare", "sim", "synthetic", "render", "ui", "app",
                           "audio_out", "userdirs"}),
    "cli": frozenset({"errors", "commands"}),
    "__main__": frozenset({"cli"}),
    "__init__": frozenset(),
}

GL = ("moderngl", "moderngl_window", "pyglet", "glcontext")
IMGUI = ("imgui_bundle", "imgui")
#: third-party packages a unit must never import
EXTERNAL_FORBIDDEN: dict[str, tuple[str, ...]] = {
    "errors": GL + IMGUI, "inputs": GL + IMGUI, "bounds": GL + IMGUI,
    "resources": GL + IMGUI, "userdirs": GL + IMGUI,
    "dat": GL + IMGUI + ("glm",),
    "wire": GL + IMGUI, "media": GL + IMGUI, "compare": GL + IMGUI,
    "sim": GL + IMGUI, "synthetic": GL + IMGUI, "render": IMGUI, "audio_out": GL + IMGUI,
}
#: the sim modules the renderer may read: the inspection API and plain data types / maths
RENDER_READS = ("viewer.sim.inspect", "viewer.sim.frame", "viewer.sim.particles")


@dataclass(frozen=True)
class Import:
    unit: str          # the importing unit
    path: str          # file, relative to the repository root
    line: int
    module: str        # the imported module (absolute)


def unit_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _absolute(node: ast.ImportFrom, path: Path) -> str | None:
    if node.level == 0:
        return node.module
    base = list(path.relative_to(ROOT).with_suffix("").parts)[:-node.level]
    return ".".join(base + ([node.module] if node.module else []))


def imports(package: Path = PACKAGE) -> list[Import]:
    """Every import statement under ``package``, in file and line order."""
    out = []
    for path in sorted(package.rglob("*.py")):
        unit = unit_of(path)
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), rel)):
            if isinstance(node, ast.Import):
                out.extend(Import(unit, rel, node.lineno, a.name) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                module = _absolute(node, path)
                if module:   # ``from a.b import c``: a.b.c (a module or a name in one)
                    out.extend(Import(unit, rel, node.lineno, f"{module}.{a.name}")
                               for a in node.names)
    return sorted(out, key=lambda i: (i.path, i.line, i.module))


def graph(found: list[Import]) -> dict[str, set[str]]:
    """unit -> the viewer units it imports."""
    g: dict[str, set[str]] = defaultdict(set)
    for imp in found:
        g[imp.unit]
        parts = imp.module.split(".")
        if parts[0] == "viewer" and len(parts) > 1 and parts[1] != imp.unit:
            g[imp.unit].add(parts[1])
    return g


def violations(found: list[Import]) -> list[str]:
    """One line per import that breaks the layering, naming file and line."""
    bad = []
    for imp in found:
        parts = imp.module.split(".")
        where = f"{imp.path}:{imp.line}: {imp.unit} imports {imp.module}"
        if parts[0] == "viewer" and len(parts) > 1 and parts[1] != imp.unit:
            allowed = LAYERS.get(imp.unit)
            if allowed is None:
                bad.append(f"{where} (unit {imp.unit!r} has no layer in scripts/layers.py)")
            elif parts[1] not in allowed:
                bad.append(f"{where} (an upward import)")
            elif imp.unit == "render" and parts[1] == "sim" and not any(
                    imp.module == m or imp.module.startswith(m + ".") for m in RENDER_READS):
                bad.append(f"{where} (the renderer reads the sim through "
                           f"{', '.join(RENDER_READS)} only)")
        elif parts[0] in EXTERNAL_FORBIDDEN.get(imp.unit, ()):
            bad.append(f"{where} (GL / ImGui outside the layers that draw)")
    return bad


def _order(g: dict[str, set[str]]) -> list[str]:
    """Units lowest first (by layer table order, unknown units last)."""
    rank = {u: i for i, u in enumerate(LAYERS)}
    return sorted(g, key=lambda u: (rank.get(u, len(rank)), u))


def format_text(g: dict[str, set[str]]) -> str:
    return "\n".join(f"{u:>10} -> {', '.join(_order({d: set() for d in g[u]})) or '-'}"
                     for u in _order(g))


def format_dot(g: dict[str, set[str]]) -> str:
    lines = ["digraph viewer_layers {", "  rankdir=BT;", "  node [shape=box];"]
    for u in _order(g):
        lines.extend(f'  "{u}" -> "{d}";' for d in _order({d: set() for d in g[u]}))
    lines.append("}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.layers", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--dot", action="store_true", help="print Graphviz DOT")
    ap.add_argument("--check", action="store_true", help="exit 1 on an upward import")
    args = ap.parse_args(argv)
    found = imports()
    if args.check:
        bad = violations(found)
        for line in bad:
            print(line)
        print(f"{len(bad)} layering violation(s)" if bad else "layers hold")
        return 1 if bad else 0
    g = graph(found)
    print(format_dot(g) if args.dot else format_text(g))
    return 0


if __name__ == "__main__":
    sys.exit(main())
