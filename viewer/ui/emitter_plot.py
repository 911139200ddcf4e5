"""Alive and emitted particle counts over time per emitter (the emitter debugger's plot,
Niagara / Effekseer style): recorded from the frames the viewer shows, drawn with ImPlot
in the Emitters panel and, on the timeline's own time axis, above the Timeline's tracks.
A view tool only: it reads ``viewer.sim.inspect`` rows and never
changes the simulation. The model is GL-free; ``draw_counts_plot`` draws."""

from __future__ import annotations

import numpy as np


class EmitterCounts:
    """{emitter handle: {frame: (t, alive, emitted)}} for one scenario generation (an
    edit, an undo or a new session starts over: the counts would no longer match)."""

    def __init__(self) -> None:
        self.generation: object = None
        self.series: dict[int, dict[int, tuple[float, int, int]]] = {}
        # per plot (its title): the emitters it drew last and its axes' limits then
        # ((x0, x1, y0, y1)); another set of emitters fits the axes to them again
        self.drawn: dict[str, tuple[int, ...]] = {}
        self.limits: dict[str, tuple[float, float, float, float]] = {}

    def refit(self, title: str, handles) -> bool:
        """Whether the plot ``title`` fits its axes to its lines this frame: the first
        time, and whenever it shows other emitters than it drew last (a zoom the user made
        on one emitter would leave another's lines off the plot)."""
        key = tuple(int(h) for h in handles)
        if self.drawn.get(title) == key:
            return False
        self.drawn[title] = key
        return True

    def record(self, generation, frame: int, t: float, emitters) -> None:
        if generation != self.generation:
            self.generation, self.series = generation, {}
        for em in emitters:
            self.series.setdefault(int(em.handle), {})[int(frame)] = (
                float(t), int(em.alive), int(em.emitted))

    def arrays(self, handle: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(t, alive, emitted) of one emitter in frame order (empty when unseen)."""
        rows = [v for _, v in sorted(self.series.get(int(handle), {}).items())]
        if not rows:
            empty = np.zeros(0, np.float64)
            return empty, empty, empty
        a = np.asarray(rows, np.float64)
        return a[:, 0].copy(), a[:, 1].copy(), a[:, 2].copy()


def draw_counts_plot(counts: EmitterCounts, handles, now: float, *,
                     title: str = "Counts over time", height: float = 180,
                     duration: float | None = None) -> None:
    """Inside the current window: a collapsing ``title`` ImPlot with alive and emitted
    lines for each of ``handles`` and a line at the current time; ``duration``: the x axis
    is the whole timeline, 0 to ``duration`` seconds (as on the Timeline)."""
    from imgui_bundle import imgui, implot

    if not handles or not imgui.collapsing_header(title):
        return
    if counts.refit(title, handles):
        implot.set_next_axes_to_fit()
    if implot.begin_plot("##emitter_counts", imgui.ImVec2(-1, height)):
        try:
            implot.setup_axes("t (s)", "particles")
            if duration is not None and duration > 0:
                implot.setup_axis_limits(implot.ImAxis_.x1, 0.0, float(duration),
                                         implot.Cond_.always)
            for h in handles:
                t, alive, emitted = counts.arrays(h)
                if len(t):
                    implot.plot_line(f"alive {h}", t, alive)
                    implot.plot_line(f"emitted {h}", t, emitted)
            implot.plot_inf_lines("now", np.array([float(now)]))
            r = implot.get_plot_limits()
            counts.limits[title] = (r.x.min, r.x.max, r.y.min, r.y.max)
        finally:
            implot.end_plot()


__all__ = ["EmitterCounts", "draw_counts_plot"]
