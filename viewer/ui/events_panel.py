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

import numpy as np

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
    """Why an event deserves a look: a typed effect at a non-finite intensity, said as
    retail's table lookup answers it (PhysicsScriptTableData::GetScript 0x00521A20: nan
    fails every compare, +inf is above every mod, -inf takes the first entry)."""
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


class EventMarks:
    """The Timeline's events lane: each event's time and whether it is flagged, as arrays
    (a scenario may hold a million events), its label built only when asked (a hover)."""

    def __init__(self, scenario) -> None:
        events = [] if scenario is None else scenario.events
        self._events = list(events)
        self.t = np.fromiter((float(e.t) for e in events), np.float64, len(events))
        self.flagged = np.fromiter((e.kind == "play" and not math.isfinite(e.intensity)
                                    for e in events), bool, len(events))
        self._columns: tuple = (None, [])   # ((width, duration), columns()): per resize

    def __len__(self) -> int:
        return len(self._events)

    def label(self, i: int) -> str:
        ev = self._events[int(i)]
        flag = event_flag(ev)
        return (f"{ev.t:.3f} s  object {ev.object} {ev.kind} {_value_text(ev)}"
                + (f"  ({flag})" if flag else ""))

    def columns(self, width: float, duration: float) -> list[tuple[int, bool]]:
        """(pixel column, flagged) of each diamond the lane draws ``width`` pixels wide for
        ``duration`` seconds, one per column and kind, left to right; worked out again only
        when the width or the duration changes (a million events: 0.8 s each time)."""
        key = (float(width), float(duration))
        if self._columns[0] != key:
            cols = np.round(np.clip(self.t / duration, 0.0, 1.0) * width).astype(np.int64)
            marks = np.unique(cols * 2 + self.flagged)   # sorted by column, then kind
            self._columns = (key, list(zip((marks >> 1).tolist(),
                                           (marks & 1).astype(bool).tolist())))
        return self._columns[1]

    def near(self, t: float, tolerance: float, most: int = 6) -> list[int]:
        """Indices of the events within ``tolerance`` seconds of ``t``, nearest first."""
        idx = np.flatnonzero(np.abs(self.t - t) <= tolerance)
        return idx[np.argsort(np.abs(self.t[idx] - t), kind="stable")][:most].tolist()


def timeline_marks(scenario) -> EventMarks:
    """The scenario's events for the Timeline's events lane."""
    return EventMarks(scenario)


@dataclass
class EventsPanelState:
    """UI-only: the selected event and what its edit fields hold."""
    selected: int | None = None      # index in scenario.events
    rows_memo: tuple = (None, [])    # (the scenario's key, event_rows): built once per edit
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


def draw_events_panel(scenario, now: float, state: EventsPanelState,
                      key=None) -> list[c.Command]:
    """The list, and under it the selected event's edit fields. ``key`` names the
    scenario as it is now (the rows are built again when it changes; None: every
    frame)."""
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Events", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        if key is None or state.rows_memo[0] != key:
            state.rows_memo = (key, event_rows(scenario))
        rows = state.rows_memo[1]
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
    clipper = imgui.ListClipper()
    clipper.begin(len(rows))
    while clipper.step():   # only the rows on screen are submitted (a million events)
        for k in range(clipper.display_start, clipper.display_end):
            _event_row(imgui, rows[k], now, state, out)
    imgui.end_table()


def _event_row(imgui, r: EventRow, now: float, state: EventsPanelState, out) -> None:
    """One row: its time (selectable; "<" at the time shown), object, kind, value."""
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


__all__ = ["EventMarks", "EventRow", "EventsPanelState", "draw_events_panel", "edited_event",
           "event_flag", "event_rows", "timeline_marks"]
