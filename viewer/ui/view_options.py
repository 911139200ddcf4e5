"""The 3D view's own settings (View menu, Camera panel): follow the selected object, the
grid and the axes, the background colour. View settings only: the simulation, the saved
scenario and every trace stay as they are. GL-free.

A comparison view (viewer/compare) draws neither grid nor axes: the recording has none and
``vfxviewer compare`` draws none, so the Difference view shows only what differs.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.errors import ScenarioError

#: background name -> RGBA (the 3D view's clear colour); "dark" is the renderer's default
BACKGROUNDS: dict[str, tuple[float, float, float, float]] = {
    "dark": (0.08, 0.08, 0.10, 1.0),
    "black": (0.0, 0.0, 0.0, 1.0),
    "grey": (0.35, 0.35, 0.37, 1.0),
    "white": (1.0, 1.0, 1.0, 1.0),
}
LAYERS = ("grid", "axes")


@dataclass
class ViewOptions:
    follow: bool = False      # the camera's target stays on the selected object
    grid: bool = True
    axes: bool = True
    background: str = "dark"

    def set_layer(self, layer: str, on: bool) -> None:
        if layer not in LAYERS:
            raise ScenarioError(f"no view layer {layer!r} (one of {', '.join(LAYERS)})")
        setattr(self, layer, bool(on))

    def set_background(self, name: str) -> None:
        if name not in BACKGROUNDS:
            raise ScenarioError(f"no background {name!r} (one of {', '.join(BACKGROUNDS)})")
        self.background = name

    def render_overrides(self, comparing: bool) -> dict:
        """RenderSettings fields these options set (``comparing``: a comparison view is
        shown: no grid, no axes)."""
        return {"show_grid": self.grid and not comparing,
                "show_axes": self.axes and not comparing,
                "background": BACKGROUNDS[self.background]}
