"""Layers only import downwards (docs/ARCHITECTURE.md): the import graph drawn from the code
by ``python -m scripts.layers`` holds, and its checker catches what it must."""

from __future__ import annotations

from scripts import layers
from scripts.layers import Import, violations


def test_every_import_in_viewer_points_down_its_layers():
    assert violations(layers.imports()) == []


def test_every_unit_of_the_package_has_a_layer():
    assert set(layers.graph(layers.imports())) <= set(layers.LAYERS)


def test_dat_imports_no_gl_imgui_sim_wire_render_or_ui():
    for module in ("moderngl", "imgui_bundle.imgui", "glm", "viewer.sim.world",
                   "viewer.wire.replay", "viewer.render.renderer", "viewer.ui.session",
                   "viewer.app", "viewer.commands.render"):
        assert violations([Import("dat", "viewer/dat/x.py", 1, module)]), module


def test_sim_never_draws_and_render_never_reaches_past_the_inspection_api():
    assert violations([Import("sim", "viewer/sim/x.py", 3, "moderngl")])
    assert violations([Import("sim", "viewer/sim/x.py", 3, "viewer.render.renderer")])
    assert violations([Import("render", "viewer/render/x.py", 4, "viewer.sim.world.World")])
    assert violations([Import("render", "viewer/render/x.py", 4, "viewer.ui.session")])
    assert not violations([Import("render", "viewer/render/x.py", 4,
                                  "viewer.sim.inspect.drawn_objects")])


def test_graph_and_dot_name_the_units():
    g = layers.graph(layers.imports())
    assert "sim" in g["render"] and "render" not in g["sim"]
    dot = layers.format_dot(g)
    assert dot.startswith("digraph") and '"render" -> "sim";' in dot
