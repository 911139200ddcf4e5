"""viewer/dat never imports GL, ImGui, sim, wire, render or ui (docs/DEVELOPING.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import viewer.dat

FORBIDDEN = ("moderngl", "imgui", "imgui_bundle", "glm", "viewer.sim", "viewer.wire",
             "viewer.render", "viewer.ui", "viewer.app", "viewer.commands")


def test_dat_layer_imports_only_what_it_may():
    root = Path(viewer.dat.__file__).parent
    bad = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                if any(n == f or n.startswith(f + ".") for f in FORBIDDEN):
                    bad.append(f"{path.name}: {n}")
    assert bad == []
