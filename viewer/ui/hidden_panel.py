"""Hidden / UnHide panel: the selected object's PhysicsState bits as toggles (each toggle
is a set_state event at the current time, CPhysicsObj::set_state 0x00514DD0), the Hidden
and UnHide scripts its table resolves (set_hidden 0x00514C60 resolves at intensity 1.0),
its children's NoDraw, and the log of state transitions with the scripts they played."""

from __future__ import annotations

from viewer.errors import format_did
from viewer.sim.inspect import ObjectSummary, StateTransition, state_bit_rows
from viewer.ui import commands as c
from viewer.ui.widgets import checkbox_width, text_wrapped


def toggle_state(obj_id: int, state: int, bit: int) -> c.SetState:
    return c.SetState(obj_id, (state ^ bit) & 0xFFFFFFFF)


def draw_hidden_panel(obj: ObjectSummary | None,
                      transitions: list[StateTransition]) -> list[c.Command]:
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Hidden / UnHide", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        if obj is None:
            imgui.text_disabled("No object selected.")
            return out
        text_wrapped(imgui, f"Object {obj.id}: state 0x{obj.state:08X}"
                           f"{'  HIDDEN' if obj.hidden else ''}")
        imgui.text("Hidden script: "
                   f"{format_did(obj.hidden_script) if obj.hidden_script else 'none'}")
        imgui.text("UnHide script: "
                   f"{format_did(obj.unhide_script) if obj.unhide_script else 'none'}")
        if obj.children:
            for child, part, nodraw in obj.children:
                text_wrapped(imgui, f"child {child} on part {part}: "
                                   f"NoDraw {'on' if nodraw else 'off'}")
        else:
            imgui.text_disabled("No children.")
        if imgui.tree_node_ex("PhysicsState bits", imgui.TreeNodeFlags_.default_open):
            _state_bits(imgui, obj, out)
            imgui.tree_pop()
        imgui.separator()
        imgui.text("Transitions")
        for tr in transitions:
            scripts = ", ".join(f"{n} {format_did(d) if d else 'none'}" for n, d in tr.scripts)
            text_wrapped(imgui, f"{tr.t:7.3f} s  0x{tr.state:08X}  "
                               f"{'hidden' if tr.hidden else 'shown'}"
                               f"{'  ' + scripts if scripts else ''}")
    finally:
        imgui.end()
    return out


def _state_bits(imgui, obj: ObjectSummary, out: list[c.Command]) -> None:
    """One checkbox per PhysicsState bit, two to a row where both fit (a second column
    at half the width), else one."""
    rows = state_bit_rows(obj.state)
    start = imgui.get_cursor_pos_x()
    half = imgui.get_content_region_avail().x / 2
    gap = imgui.get_style().item_spacing.x
    for i, (name, bit, on) in enumerate(rows):
        label = f"{name}##{bit}"
        if i % 2 and checkbox_width(imgui, rows[i - 1][0]) + gap <= half \
                and checkbox_width(imgui, name) <= half:
            imgui.same_line(start + half)
        changed, _ = imgui.checkbox(label, on)
        if changed:
            out.append(toggle_state(obj.id, obj.state, bit))
