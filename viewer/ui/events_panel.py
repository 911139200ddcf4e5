"""Events: the scenario's timed events in the order they play (time, then as stored), as
Niagara's debugger and Effekseer list what a timeline holds. Each row can be selected (its
object becomes the selected one), jumped to (the timeline seeks to its time), edited (its
time, a typed effect's intensity, or the event's JSON as the scenario file holds it) and
deleted; edits and deletes are scenario edits on the session's undo history
(``c.EditEvent`` / ``c.DeleteEvent``, ``viewer/ui/session.py``). A typed effect whose
intensity is not finite (``nan``, ``inf``) is flagged: retail plays nothing for ``nan``.

``event_rows`` is the GL-free model; ``draw_events_panel`` draws.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from viewer.dat.names import play_script_label
from viewer.ui import commands as c
from viewer.ui.script_table_panel import format_intensity, parse_intensity
from viewer.ui.widgets import button_width, same_line_if_fits, text_wrapped

NOT_FINITE = (1.0, 0.6, 0.3, 1.0)


@dataclass(frozen=True)
class EventRow:
    index: int          # in scenario.events (what EditEvent / DeleteEvent name)
    t: float
    object: int
    kind: str
    summary: str        # "Launch (0x04) at intensity nan"
    flag: str = ""      # why the row is marked ("nan: retail plays nothing"), or ""


def _value_text(ev) -> str:
    value = ev.value
    if ev.kind == "play":
        return f"{play_script_label(value)} at intensity {format_intensity(ev.intensity)}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"0x{value & 0xFFFFFFFF:08X}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(", ", ": "))
    return str(value)


def event_flag(ev) -> str:
    """Why an event deserves a look: a typed effect at a non-finite intensity."""
    if ev.kind != "play" or math.isfinite(ev.intensity):
        return ""
    if math.isnan(ev.intensity):
        return "intensity nan: every compare fails, retail plays nothing"
    return (f"intensity {format_intensity(ev.intensity)}: above every mod, retail plays "
            f"nothing" if ev.intensity > 0 else
            f"intensity {format_intensity(ev.intensity)}: the first entry plays")


def event_rows(scenario) -> list[EventRow]:
    """The scenario's events in play order (time, then stored order, as the runner
    applies them)."""
    if scenario is None:
        return []
    order = sorted(range(len(scenario.events)), key=lambda i: (scenario.events[i].t, i))
    return [EventRow(i, float(ev.t), int(ev.object), ev.kind, _value_text(ev), event_flag(ev))
            for i in order for ev in (scenario.events[i],)]


def timeline_marks(scenario) -> tuple[tuple[float, str, bool], ...]:
    """(t, label, flagged) of each event for the Timeline's events lane."""
    return tuple((r.t, f"{r.t:.3f} s  object {r.object} {r.kind} {r.summary}"
                  + (f"  ({r.flag})" if r.flag else ""), bool(r.flag))
                 for r in event_rows(scenario))


@dataclass
class EventsPanelState:
    """UI-only: the selected event and what its edit fields hold."""
    selected: int | None = None      # index in scenario.events
    shown: object = None             # the raw event the fields were filled from
    t: float = 0.0
    intensity: str = ""
    json_text: str = ""
    problem: str = ""
    extra: dict = field(default_factory=dict)


def edited_event(raw: dict, t: float, intensity_text: str | None) -> dict:
    """``raw`` with a new time and (a typed effect or a launch) intensity; a ValueError
    naming the field when the intensity is no number."""
    out = dict(raw)
    out["t"] = float(t)
    if intensity_text is not None and ("play" in raw or "launch" in raw):
        value = parse_intensity(intensity_text)
        if value is None:
            raise ValueError(f"intensity {intensity_text.strip()!r} is not a number "
                             f"(nan, inf, -inf accepted)")
        key = "intensity"
        if "launch" in raw:
            out["launch"] = {**raw["launch"], key: _json_number(value)}
        else:
            out[key] = _json_number(value)
    return out


def _json_number(x: float):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return float(x)


def _fill(state: EventsPanelState, ev) -> None:
    state.shown = ev.raw
    state.t = float(ev.t)
    raw = ev.raw
    intensity = raw.get("launch", {}).get("intensity", 1.0) if "launch" in raw else \
        raw.get("intensity", 1.0)
    state.intensity = str(intensity)
    state.json_text = json.dumps(raw)
    state.problem = ""


def draw_events_panel(scenario, now: float, state: EventsPanelState) -> list[c.Command]:
    """The list, and under it the selected event's edit fields."""
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Events", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        rows = event_rows(scenario)
        if not rows:
            imgui.text_disabled("No events: play a script or an effect to add one.")
            return out
        if state.selected is not None and state.selected >= len(scenario.events):
            state.selected = None
        _events_table(imgui, rows, now, state, out)
        if state.selected is not None:
            _edit_fields(imgui, scenario.events[state.selected], state, out)
    finally:
        imgui.end()
    return out


def _events_table(imgui, rows, now: float, state: EventsPanelState, out) -> None:
    from viewer.ui.emitters_panel import scrolling_table_height

    flags = (imgui.TableFlags_.borders | imgui.TableFlags_.row_bg
             | imgui.TableFlags_.sizing_fixed_fit | imgui.TableFlags_.scroll_x
             | imgui.TableFlags_.scroll_y)
    if not imgui.begin_table("events", 4, flags,
                             imgui.ImVec2(0, scrolling_table_height(imgui, len(rows)))):
        return
    imgui.table_setup_scroll_freeze(1, 1)
    for name in ("t (s)", "object", "event", "value"):
        imgui.table_setup_column(name)
    imgui.table_headers_row()
    for r in rows:
        imgui.table_next_row()
        imgui.table_next_column()
        label = f"{r.t:.3f}{' <' if abs(r.t - now) < 1e-6 else ''}##ev{r.index}"
        if imgui.selectable(label, state.selected == r.index,
                            imgui.SelectableFlags_.span_all_columns)[0]:
            state.selected = r.index
            out.append(c.Select("object", r.object))
        if r.flag and imgui.is_item_hovered():
            imgui.set_tooltip(r.flag)
        for text in (str(r.object), r.kind, r.summary):
            imgui.table_next_column()
            if r.flag:
                imgui.text_colored(imgui.ImVec4(*NOT_FINITE), text)
            else:
                imgui.text(text)
    imgui.end_table()


def _edit_fields(imgui, ev, state: EventsPanelState, out) -> None:
    """The selected event: Jump to, Delete, its time and intensity, its JSON."""
    if state.shown is not ev.raw:
        _fill(state, ev)
    index = state.selected
    imgui.separator()
    text_wrapped(imgui, f"Event {index}: object {ev.object} {ev.kind} at {ev.t:.4f} s")
    flag = event_flag(ev)
    if flag:
        text_wrapped(imgui, flag, imgui.ImVec4(*NOT_FINITE))
    if imgui.button("Jump to"):
        out.append(c.Seek(float(ev.t)))
    same_line_if_fits(imgui, button_width(imgui, "Delete"))
    if imgui.button("Delete"):
        out.append(c.DeleteEvent(index))
        state.selected = None
        return
    imgui.set_next_item_width(120)
    _, state.t = imgui.input_float("t (s)##evt", state.t, 0.0, 0.0, "%.4f")
    takes_intensity = "play" in ev.raw or "launch" in ev.raw
    if takes_intensity:
        imgui.set_next_item_width(120)
        _, state.intensity = imgui.input_text("intensity##evi", state.intensity)
    if imgui.button("Apply##evapply"):
        try:
            raw = edited_event(ev.raw, state.t, state.intensity if takes_intensity else None)
        except ValueError as err:
            state.problem = str(err)
        else:
            out.append(c.EditEvent(index, raw))
    imgui.text("JSON")
    _, state.json_text = imgui.input_text_multiline(
        "##evjson", state.json_text, imgui.ImVec2(-1, 3 * imgui.get_text_line_height() + 8))
    if imgui.button("Apply JSON"):
        try:
            raw = json.loads(state.json_text)
            if not isinstance(raw, dict):
                raise ValueError("an event is a JSON object")
        except ValueError as err:
            state.problem = f"not an event: {err}"
        else:
            out.append(c.EditEvent(index, raw))
    if state.problem:
        text_wrapped(imgui, state.problem, imgui.ImVec4(1, 0.5, 0.4, 1))


__all__ = ["EventRow", "EventsPanelState", "draw_events_panel", "edited_event", "event_flag",
           "event_rows", "timeline_marks"]
