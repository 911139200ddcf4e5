"""Script table inspector: every PlayScript entry of a PhysicsScriptTable in stored order,
an intensity (slider, and a text input that accepts nan / inf / -inf), and which entry
retail picks for it, or "none" and why.

The pick itself is ``viewer.sim.script_table`` (PhysicsScriptTable::GetScript 0x00521E40,
PhysicsScriptTableData::GetScript 0x00521A20); this module only explains its answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from viewer.bounds import float_text
from viewer.dat.names import play_script_label
from viewer.errors import format_did
from viewer.sim.script_table import NO_SCRIPT, as_f32, select_script
from viewer.ui import commands as c
from viewer.ui.widgets import text_wrapped, text_wrapped_disabled


def parse_intensity(text: str) -> float | None:
    """A float from the input box; ``nan``, ``inf``, ``-inf`` (any case) included.
    None when it is not a number."""
    try:  # ASCII digits only, as everywhere (viewer.bounds.float_text)
        return float_text(text.strip())
    except ValueError:
        return None


def format_intensity(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(float(x))


def slider_shows(x: float) -> tuple[float, str]:
    """(the slider's position, its ImGui format): a value ``%.4f`` spells exactly shows
    so; any other (``nan``, ``inf``, ``1e-09``, ``0.123456``) shows the exact value as
    typed, the knob at the nearest end of 0..1 (``nan`` at 0)."""
    if math.isfinite(x) and float(f"{x:.4f}") == float(x):
        return float(x), "%.4f"
    pos = 0.0 if math.isnan(x) else min(max(float(x), 0.0), 1.0)
    return pos, format_intensity(x).replace("%", "%%")


def played_notice(insp: TableInspection, object_id: int, t: float) -> str:
    """What "Play on object" did, said at once: the event added and retail's pick."""
    picked = format_did(insp.script_id) if insp.script_id else "none"
    return (f"Played {play_script_label(insp.play_script)} on object {object_id} at "
            f"intensity {format_intensity(insp.intensity)}, t = {t:.3f} s: retail picks "
            f"{picked} ({insp.reason})")


@dataclass(frozen=True)
class EntryRow:
    play_script: int
    name: str             # PlayScript name and number: "Launch (0x04)"
    index: int            # position within this PlayScript's list (stored order)
    mod: float
    script_id: int
    picked: bool


@dataclass(frozen=True)
class TableInspection:
    table_id: int | None
    play_script: int
    intensity: float            # as typed
    intensity_f32: float        # as the client holds it
    rows: tuple[EntryRow, ...]  # every entry of every type, stored order
    picked_index: int | None    # within the selected type's list
    script_id: int              # what retail returns (0 = none)
    reason: str


@dataclass(frozen=True)
class _Pos:
    """A stand-in table entry whose script id is its position (built once, not per frame:
    a dataclass defined in the function cost ~13 ms of every viewer frame)."""
    mod: float
    script_id: int


def _picked_index(entries, intensity: float) -> int | None:
    """Which stored entry select_script chose: ask it again over stand-in entries whose
    script ids are positions, so duplicate or zero script ids stay unambiguous."""
    got = select_script([_Pos(e.mod, i + 1) for i, e in enumerate(entries)], intensity)
    return None if got == NO_SCRIPT else got - 1


def inspect_table(table, play_script: int, intensity: float) -> TableInspection:
    """Explain retail's pick for (``table``, ``play_script``, ``intensity``)."""
    x32 = as_f32(intensity)
    data = None
    if table is not None:
        for key, d in table.entries:
            if int(key) == int(play_script) and data is None:
                data = d   # first stored entry wins for a duplicated key (0x00521E40)
    picked = None if data is None else _picked_index(data.scripts, intensity)
    rows = () if table is None else _entry_rows(table, play_script, picked)
    script = NO_SCRIPT if data is None else select_script(data.scripts, intensity)
    reason = _pick_reason(table, data, play_script, x32, picked)
    return TableInspection(None if table is None else int(table.id), int(play_script),
                           float(intensity), x32, rows, picked, int(script), reason)


def _entry_rows(table, play_script: int, picked: int | None) -> tuple[EntryRow, ...]:
    """Every (type, mod, script) entry in stored order; ``picked`` marks the chosen row
    of the first entry stored for ``play_script``."""
    rows: list[EntryRow] = []
    seen_selected = False
    for key, d in table.entries:
        is_sel = int(key) == int(play_script) and not seen_selected
        for i, e in enumerate(d.scripts):
            rows.append(EntryRow(int(key), play_script_label(key), i,
                                 float(e.mod), int(e.script_id), is_sel and picked == i))
        seen_selected = seen_selected or is_sel
    return tuple(rows)


def _pick_reason(table, data, play_script: int, x32: float, picked: int | None) -> str:
    """Why retail picked what it did (or nothing), in one sentence."""
    name = play_script_label(play_script)
    if table is None:
        return "no PhysicsScriptTable: none"
    if data is None:
        return (f"the table has no entry for {name} (PhysicsScriptTable::GetScript "
                f"0x00521E40 returns 0): none")
    if not data.scripts:
        return f"{name} has an empty list: none"
    if math.isnan(x32):
        return ("intensity is NaN: every compare is unordered, so no entry matches "
                "(0x00521A3B jnp): none")
    if picked is None:
        top = max((e.mod for e in data.scripts if not math.isnan(e.mod)), default=math.nan)
        return (f"intensity {format_intensity(x32)} is above every entry's mod "
                f"(largest {top:g}); no fallback: none")
    e = data.scripts[picked]
    return (f"entry {picked}: the first in stored order with mod {e.mod:g} >= "
            f"{format_intensity(x32)} (0x00521A20) -> {format_did(e.script_id)}")


@dataclass(frozen=True)
class ScriptTableView:
    table: object | None           # PhysicsScriptTable record
    play_script: int
    intensity: float
    object_id: int | None = None   # to play the typed effect on
    text: str | None = None        # the input box's text while editing
    time: float = 0.0              # the time shown (where Play on object adds its event)


def draw_script_table_panel(view: ScriptTableView, state: dict) -> list[c.Command]:
    """``state`` keeps the input box's text between frames (UI-only state)."""
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Script Table", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        if view.table is None:
            text_wrapped_disabled(imgui, "No PhysicsScriptTable on the selected object "
                                         "(the Object panel's Set table gives it one).")
            return out
        insp = inspect_table(view.table, view.play_script, view.intensity)
        imgui.text(f"Table {format_did(view.table.id)}: {len(view.table.entries)} types")
        _type_combo(imgui, view, out)
        _intensity_inputs(imgui, view, state, out)
        picked_col = imgui.ImVec4(0.35, 1.0, 0.45, 1.0)
        imgui.text("Retail picks: ")
        imgui.same_line()
        imgui.text_colored(picked_col if insp.script_id else imgui.ImVec4(1, 0.7, 0.3, 1),
                           format_did(insp.script_id) if insp.script_id else "none")
        text_wrapped(imgui, insp.reason)
        if view.object_id is not None and imgui.button("Play on object"):
            out.append(c.PlayTyped(view.object_id, int(view.play_script), view.intensity))
            state["played"] = played_notice(insp, view.object_id, view.time)
            state["toast"] = state["played"]
        if state.get("played"):
            text_wrapped(imgui, state["played"], picked_col if insp.script_id
                         else imgui.ImVec4(1, 0.7, 0.3, 1))
        _entries_table(imgui, view, insp, out)
    finally:
        imgui.end()
    return out


def _type_combo(imgui, view: ScriptTableView, out: list[c.Command]) -> None:
    keys = [int(k) for k, _ in view.table.entries]
    labels = [play_script_label(k) for k in keys]
    current = keys.index(view.play_script) if view.play_script in keys else -1
    imgui.set_next_item_width(220)
    changed, idx = imgui.combo("PlayScript", max(current, 0), labels)
    if changed and 0 <= idx < len(keys):
        out.append(c.Select("play_script", keys[idx]))


def _intensity_inputs(imgui, view: ScriptTableView, state: dict,
                      out: list[c.Command]) -> None:
    """The intensity slider (finite values) and the exact text box (nan / inf too)."""
    shown, fmt = slider_shows(view.intensity)
    imgui.set_next_item_width(220)
    changed, v = imgui.slider_float("Intensity", shown, 0.0, 1.0, fmt)
    if changed:
        out.append(c.SetIntensity(v))
        state["text"] = format_intensity(v)
    text = state.get("text", format_intensity(view.intensity))
    imgui.set_next_item_width(220)
    changed, text = imgui.input_text("Exact (nan, inf ok)", text)
    state["text"] = text
    if changed:
        value = parse_intensity(text)
        if value is not None:
            out.append(c.SetIntensity(value))
    if parse_intensity(text) is None:
        imgui.text_colored(imgui.ImVec4(1, 0.5, 0.4, 1), "not a number")


def _entries_table(imgui, view: ScriptTableView, insp: TableInspection,
                   out: list[c.Command]) -> None:
    """Every entry in stored order, the picked one highlighted; other types dimmed with a
    button to inspect them."""
    flags = imgui.TableFlags_.borders | imgui.TableFlags_.row_bg | \
        imgui.TableFlags_.scroll_y | imgui.TableFlags_.sizing_fixed_fit
    if not imgui.begin_table("entries", 4, flags):
        return
    for name in ("PlayScript", "#", "mod", "script"):
        imgui.table_setup_column(name)
    imgui.table_headers_row()
    for row in insp.rows:
        imgui.table_next_row()
        if row.picked:
            imgui.table_set_bg_color(imgui.TableBgTarget_.row_bg1,
                                     imgui.get_color_u32(imgui.ImVec4(0.2, 0.5, 0.25, 1)))
        dim = row.play_script != view.play_script
        cells = (row.name, str(row.index), f"{row.mod:g}", format_did(row.script_id))
        for text_cell in cells:
            imgui.table_next_column()
            if dim:
                imgui.text_disabled(text_cell)
            else:
                imgui.text(text_cell)
        if dim:   # another type: a button to inspect that one
            imgui.same_line()
            if imgui.small_button(f"show##{row.play_script}_{row.index}"):
                out.append(c.Select("play_script", row.play_script))
    imgui.end_table()
