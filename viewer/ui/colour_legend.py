"""The legend of View > Particle colour (emitter debugging): what each tint means, drawn
in the Viewport's top-left corner while a mode other than ``none`` is on. The tints are
``viewer.render.particle_debug``'s; this module only names them. ``legend_entries`` is
GL-free; ``draw_legend`` draws with ImGui's draw list."""

from __future__ import annotations

import numpy as np

from viewer.dat.names import particle_type_label
from viewer.render.particle_debug import TYPE_PALETTE, age_tints, emitter_tints

LEGEND_MAX = 8   # rows listed; more emitters or types are counted on one last row


def legend_entries(mode: str, emitter_rows=(), particle_types=()) -> list[tuple]:
    """((r, g, b) or None, label) rows for ``mode``: ``emitter_rows`` ((pool row,
    emitter handle) of the live emitters: each row's hue), ``particle_types`` (the
    ParticleTypes shown); ``age`` a ramp from birth to the end of the lifespan."""
    def rgb(a) -> tuple:
        return tuple(float(v) for v in np.asarray(a).reshape(3))

    out: list[tuple] = []
    if mode == "emitter":
        rows = sorted(emitter_rows)
        out = [(rgb(emitter_tints([row])[0]), f"emitter {handle}")
               for row, handle in rows[:LEGEND_MAX]]
        if len(rows) > LEGEND_MAX:
            out.append((None, f"+{len(rows) - LEGEND_MAX} more emitters"))
    elif mode == "age":
        out = [(rgb(age_tints([f], [1.0])[0]), label)
               for f, label in ((0.0, "just born"), (0.5, "half its lifespan"),
                                (1.0, "end of its lifespan"))]
    elif mode == "type":
        types = sorted({int(t) for t in particle_types})
        out = [(rgb(TYPE_PALETTE[t % len(TYPE_PALETTE)]), particle_type_label(t))
               for t in types[:LEGEND_MAX]]
        if len(types) > LEGEND_MAX:
            out.append((None, f"+{len(types) - LEGEND_MAX} more types"))
    return out


def draw_legend(imgui, top_left, mode: str, entries) -> None:
    """The legend over the view's top-left corner: a title, then a swatch and a label a
    row, on a dark backing."""
    if not entries:
        return
    dl = imgui.get_window_draw_list()
    line = imgui.get_text_line_height() + 2.0
    title = f"Particle colour: {mode}"
    width = max(imgui.calc_text_size(t).x for t in [title] + [lb for _, lb in entries]) + 28
    x0, y0 = top_left.x + 6.0, top_left.y + 6.0
    dl.add_rect_filled(imgui.ImVec2(x0, y0),
                       imgui.ImVec2(x0 + width, y0 + line * (len(entries) + 1) + 6.0),
                       imgui.get_color_u32(imgui.ImVec4(0.0, 0.0, 0.0, 0.75)), 3.0)
    white = imgui.get_color_u32(imgui.ImVec4(0.92, 0.92, 0.92, 1.0))
    dl.add_text(imgui.ImVec2(x0 + 4.0, y0 + 3.0), white, title)
    for k, (colour, label) in enumerate(entries):
        y = y0 + 3.0 + line * (k + 1)
        if colour is not None:
            dl.add_rect_filled(imgui.ImVec2(x0 + 4.0, y + 2.0),
                               imgui.ImVec2(x0 + 16.0, y + line - 4.0),
                               imgui.get_color_u32(imgui.ImVec4(*colour, 1.0)))
        dl.add_text(imgui.ImVec2(x0 + 22.0, y), white, label)


__all__ = ["LEGEND_MAX", "draw_legend", "legend_entries"]
