"""Capture panel: write the 3D view over a time range to a PNG, a PNG sequence (a folder),
a GIF or an MP4, optionally with a transparent background, and the whole-viewer screenshot.

The export re-simulates deterministically (the timeline's scrub path) frame by frame, so
what is written is what a straight run shows; the app does the GL work
(``ViewerApp._export``) for the ``ExportCapture`` command this panel returns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from viewer.ui import commands as c
from viewer.ui.widgets import (
    button_width,
    checkbox_width,
    labelled_width,
    same_line_if_fits,
    text_wrapped_disabled,
)

KINDS = ("PNG (one frame)", "PNG sequence (folder)", "GIF", "MP4")
SUFFIX = {0: ".png", 1: "", 2: ".gif", 3: ".mp4"}


@dataclass
class CapturePanelState:
    path: str = "out/capture"
    kind: int = 3
    start: float = 0.0
    end: float = -1.0            # < 0: the scenario's end
    transparent: bool = False
    compare: bool = False
    window: bool = False         # the whole viewer, panels included
    last: str = ""


def export_path(path: str, kind: int) -> str:
    """``path`` with the suffix the chosen kind needs (a folder for a PNG sequence)."""
    from pathlib import PurePath
    p = PurePath(path.strip() or "out/capture")
    if p.suffix.lower() in (".png", ".gif", ".mp4"):
        p = p.with_suffix("")
    return str(p) + SUFFIX[kind]


def export_command(state: CapturePanelState, duration: float) -> c.ExportCapture:
    start = min(max(float(state.start), 0.0), duration)
    end = duration if state.end < 0 or not math.isfinite(state.end) else \
        min(max(float(state.end), start), duration)
    if state.kind == 0:
        end = start
    return c.ExportCapture(export_path(state.path, state.kind), start, end,
                           bool(state.transparent) and state.kind != 3 and not state.window,
                           bool(state.compare) and not state.window, bool(state.window))


def draw_capture_panel(duration: float | None, state: CapturePanelState,
                       has_reference: bool) -> list[c.Command]:
    from imgui_bundle import imgui

    out: list[c.Command] = []
    visible, _ = imgui.begin("Capture", None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if not visible:
            return out
        imgui.set_next_item_width(-1)
        _, state.path = imgui.input_text("##cap_path", state.path)
        imgui.set_next_item_width(200)
        _, state.kind = imgui.combo("format", state.kind, list(KINDS))
        imgui.set_next_item_width(100)
        _, state.start = imgui.input_float("from (s)", state.start, 0, 0, "%.3f")
        if state.kind != 0:
            same_line_if_fits(imgui, labelled_width(imgui, 100, "to (s, -1 end)"))
            imgui.set_next_item_width(100)
            _, state.end = imgui.input_float("to (s, -1 end)", state.end, 0, 0, "%.3f")
        _, state.window = imgui.checkbox("whole viewer (panels too)", state.window)
        if state.kind != 3 and not state.window:
            same_line_if_fits(imgui, checkbox_width(imgui, "transparent background"))
            _, state.transparent = imgui.checkbox("transparent background", state.transparent)
        if has_reference and not state.window:
            _, state.compare = imgui.checkbox("with the comparison view", state.compare)
        if duration is None:
            imgui.text_disabled("Nothing loaded.")
        elif imgui.button("Export"):
            out.append(export_command(state, duration))
        if duration is not None:
            same_line_if_fits(imgui, button_width(imgui, "Screenshot of the viewer"))
        if imgui.button("Screenshot of the viewer"):
            out.append(c.TakeScreenshot(export_path(state.path, 0)))
        if state.last:
            text_wrapped_disabled(imgui, state.last)
    finally:
        imgui.end()
    return out
