"""The selected particle's attributes over its life (the emitter debugger's particle
plot): position, speed, scale and alpha from its birth to its lifespan, read through
``viewer.sim.inspect.particle_history`` (never changing the simulation), drawn with ImPlot
under the Emitters panel's particle table, a line at its age now."""

from __future__ import annotations

import numpy as np

from viewer.sim.inspect import particle_history


def draw_particle_history(world, key, height: float = 130.0) -> None:
    """Inside the current window: a collapsing "Particle history" with two small plots,
    position (x, y, z) and speed, then scale and alpha, over the particle's life."""
    from imgui_bundle import imgui, implot

    if key is None or not imgui.collapsing_header("Particle history"):
        return
    hist = particle_history(world, int(key[0]), int(key[1]))
    if hist is None:
        imgui.text_disabled("The particle is gone.")
        return
    imgui.text(f"particle {key[1]} of emitter {key[0]}: age {hist.age:.3f} s of "
               f"{hist.lifespan:.3f} s")
    now = np.array([hist.age])
    speed = np.linalg.norm(hist.velocity, axis=1)
    for title, lines in (
            ("##where", (("x", hist.position[:, 0]), ("y", hist.position[:, 1]),
                         ("z", hist.position[:, 2]), ("speed", speed))),
            ("##looks", (("scale", hist.scale), ("alpha", hist.alpha)))):
        implot.set_next_axes_to_fit()   # each particle's own ranges
        if implot.begin_plot(title, imgui.ImVec2(-1, height)):
            try:
                implot.setup_axes("age (s)", "")
                for label, ys in lines:
                    implot.plot_line(label, hist.t, np.ascontiguousarray(ys, np.float64))
                implot.plot_inf_lines("now", now)
            finally:
                implot.end_plot()


__all__ = ["draw_particle_history"]
