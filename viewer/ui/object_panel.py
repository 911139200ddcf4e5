"""Object panel: the selected object's Setup, table (and the chooser that sets it:
viewer/ui/table_chooser.py), default script, lights, parts with their poses; play a typed
effect with an intensity; play a motion command."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.bounds import int_text
from viewer.errors import format_did
from viewer.sim.inspect import ObjectSummary
from viewer.ui import commands as c
from viewer.ui.script_table_panel import format_intensity, parse_intensity
from viewer.ui.widgets import button_width, same_line_if_fits, text_wrapped


@dataclass
class ObjectPanelState:
    play_text: str = "Launch"
    intensity_text: str = "0.5"
    motion_text: str = "0x10000153"
    table_query: str = ""   # the table chooser's search


def play_commands(obj_id: int, state: ObjectPanelState) -> list[c.Command]:
    """The "Play effect" button: a typed effect (name or number) with the typed intensity;
    a name or intensity that is none is reported (never silence)."""
    from viewer.sim.script_table import play_script_number

    intensity = parse_intensity(state.intensity_text)
    if intensity is None:
        return [c.ReportProblem(f"Play effect: intensity {state.intensity_text.strip()!r} is "
                                f"not a number (nan, inf and -inf are allowed)")]
    try:
        number = play_script_number(state.play_text)
    except ValueError:
        return [c.ReportProblem(f"Play effect: {state.play_text.strip()!r} is not a "
                                f"PlayScript type (a name such as Launch, or a number)")]
    return [c.PlayTyped(obj_id, number, intensity)]


def motion_commands(obj_id: int, state: ObjectPanelState) -> list[c.Command]:
    try:
        return [c.PlayMotion(obj_id, int_text(state.motion_text))]  # ASCII (viewer.bounds)
    except ValueError:
        return [c.ReportProblem(f"Do motion: {state.motion_text.strip()!r} is not a motion "
                                f"number (hex 0x... or decimal)")]


def draw_object_panel(objects: list[ObjectSummary], selected: int | None,
                      state: ObjectPanelState, table_choice=None) -> list[c.Command]:
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Object", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        if not objects:
            imgui.text_disabled("No objects: load a Setup from the asset browser.")
            return out
        for o in objects:
            if imgui.selectable(f"object {o.id}  {format_did(o.setup_did)}", o.id == selected)[0]:
                out.append(c.Select("object", o.id))
        obj = next((o for o in objects if o.id == selected), None)
        if obj is None:
            return out
        imgui.separator()
        table_row = None
        if table_choice is not None and table_choice.object == obj.id:
            from viewer.ui.table_chooser import draw_table_chooser

            def table_row():   # the table and its chooser in place of the plain line
                out.extend(draw_table_chooser(imgui, table_choice, state))
        _object_summary(imgui, obj, table_row)
        imgui.separator()
        _object_actions(imgui, obj, state, out)
    finally:
        imgui.end()
    return out


def _rows(imgui, label: str, rows, *, open_first: bool = False) -> None:
    """A tree node of text rows (wrapped at the panel's edge)."""
    if open_first:
        shown = imgui.tree_node_ex(label, imgui.TreeNodeFlags_.default_open)
    else:
        shown = imgui.tree_node(label)
    if shown:
        for row in rows:
            text_wrapped(imgui, row)
        imgui.tree_pop()


def _object_summary(imgui, obj: ObjectSummary, table_row=None) -> None:
    """Setup, table (``table_row`` draws it with its chooser), DefaultScript, position;
    the script queue, tweens, lights, parts."""
    imgui.text(f"Setup {format_did(obj.setup_did)}")
    imgui.text(f"Table {format_did(obj.table_did) if obj.table_did else 'none'}")
    if table_row is not None:
        table_row()
    imgui.text(f"Default script "
               f"{format_did(obj.default_script) if obj.default_script else 'none'}")
    text_wrapped(imgui, f"Lights {obj.lights}   position ({obj.position[0]:.2f}, "
                       f"{obj.position[1]:.2f}, {obj.position[2]:.2f})")
    _rows(imgui, f"Script queue ({len(obj.queue_rows)})###queue", obj.queue_rows,
          open_first=True)
    if obj.tween_rows:
        _rows(imgui, f"Tweens ({len(obj.tween_rows)})###tweens", obj.tween_rows)
    if obj.light_rows:
        _rows(imgui, f"Lights ({len(obj.light_rows)})", obj.light_rows)
    quats = obj.part_orientations or ((1.0, 0.0, 0.0, 0.0),) * len(obj.parts)
    _rows(imgui, f"Parts ({len(obj.parts)})",
          [f"{index:3d} {format_did(gfx)} ({origin[0]:.3f}, {origin[1]:.3f}, "
           f"{origin[2]:.3f}) q({q[0]:.3f}, {q[1]:.3f}, {q[2]:.3f}, {q[3]:.3f})"
           for (index, gfx, origin), q in zip(obj.parts, quats)])


def _object_actions(imgui, obj: ObjectSummary, state: ObjectPanelState,
                    out: list[c.Command]) -> None:
    """Play a typed effect at an intensity; do a motion (hints, not side labels, so the
    rows fit a narrow dock)."""
    imgui.set_next_item_width(120)
    _, state.play_text = imgui.input_text_with_hint("##play", "PlayScript", state.play_text)
    imgui.same_line()
    imgui.set_next_item_width(64)
    _, state.intensity_text = imgui.input_text_with_hint("##intensity", "intensity",
                                                         state.intensity_text)
    same_line_if_fits(imgui, button_width(imgui, "Play effect"))
    if imgui.button("Play effect"):
        out.extend(play_commands(obj.id, state))
    imgui.set_next_item_width(120 + 64 + imgui.get_style().item_spacing.x)
    _, state.motion_text = imgui.input_text_with_hint("##motion", "motion", state.motion_text)
    same_line_if_fits(imgui, button_width(imgui, "Do motion"))
    if imgui.button("Do motion"):
        out.extend(motion_commands(obj.id, state))


__all__ = ["ObjectPanelState", "draw_object_panel", "format_intensity", "motion_commands",
           "play_commands"]
