"""Error panel: every failure the viewer met, newest last; the viewer keeps running.

``ErrorLog`` is the model (GL- and ImGui-free); ``draw_error_panel`` is the view and returns
commands (only ``ClearErrors``).
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass

from viewer.errors import ViewerError, format_did
from viewer.ui.commands import ClearErrors, Command


@dataclass(frozen=True)
class ErrorEntry:
    kind: str            # the error class name: DatError, ScenarioError, ... or InternalError
    message: str         # the message without location
    file: str | None
    did: int | None
    offset: int | None
    context: str         # what the viewer was doing ("load scenario", "panel Timeline")
    count: int = 1       # identical reports fold into one entry

    @property
    def where(self) -> str:
        parts = []
        if self.file is not None:
            parts.append(self.file)
        if self.did is not None:
            parts.append(f"DID {format_did(self.did)}")
        if self.offset is not None:
            parts.append(f"offset {self.offset} (0x{self.offset:X})")
        return ": ".join(parts)

    def line(self) -> str:
        where = self.where
        text = f"{self.kind}: {where + ': ' if where else ''}{self.message}"
        if self.context:
            text = f"[{self.context}] {text}"
        return text + (f" (x{self.count})" if self.count > 1 else "")


class ErrorLog:
    """The errors shown in the error panel, oldest first, at most ``limit`` kept."""

    def __init__(self, limit: int = 200) -> None:
        self.limit = limit
        self.entries: list[ErrorEntry] = []
        self.fresh: list[ErrorEntry] = []   # new (not repeated) errors not yet toasted

    def report(self, err: BaseException, context: str = "") -> ErrorEntry:
        if isinstance(err, ViewerError):
            entry = ErrorEntry(type(err).__name__, err.message, err.file, err.did,
                               err.offset, context)
        else:  # a bug, not bad input: keep running, but show where it came from
            tb = traceback.extract_tb(err.__traceback__)
            at = f" at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
            entry = ErrorEntry("InternalError", f"{type(err).__name__}: {err}{at}",
                               None, None, None, context)
        key = (entry.kind, entry.message, entry.where, entry.context)
        for i, old in enumerate(self.entries):
            if (old.kind, old.message, old.where, old.context) == key:
                entry = ErrorEntry(**{**old.__dict__, "count": old.count + 1})
                self.entries[i] = entry   # a repeat (every frame, say) folds into one line
                return entry
        self.entries.append(entry)
        del self.entries[:-self.limit]
        self.fresh.append(entry)
        return entry

    def take_fresh(self) -> list[ErrorEntry]:
        out, self.fresh = self.fresh, []
        return out

    def clear(self) -> None:
        self.entries.clear()
        self.fresh.clear()

    def __len__(self) -> int:
        return len(self.entries)


def draw_error_panel(log: ErrorLog) -> list[Command]:
    from imgui_bundle import imgui

    commands: list[Command] = []
    title = f"Errors ({len(log)})###Errors"
    visible, _ = imgui.begin(title, None, imgui.WindowFlags_.horizontal_scrollbar)
    try:
        if visible:
            if not log.entries:
                imgui.text_disabled("No errors.")
            else:
                if imgui.small_button("Clear"):
                    commands.append(ClearErrors())
                imgui.separator()
                for i, entry in enumerate(log.entries):
                    color = (1.0, 0.45, 0.4, 1.0) if entry.kind == "InternalError" \
                        else (1.0, 0.75, 0.35, 1.0)
                    imgui.push_id(i)
                    imgui.text_colored(imgui.ImVec4(*color), entry.kind)
                    imgui.same_line()
                    imgui.text_wrapped(entry.line()[len(entry.kind) + 2:] if not entry.context
                                       else entry.line())
                    imgui.pop_id()
    finally:
        imgui.end()
    return commands


TOAST_SECONDS = 6.0
TOAST_MAX = 3


@dataclass(frozen=True)
class Notice:
    """Something the viewer did that the user should see (a toast, not an error): "Saved
    <path>"."""
    kind: str
    text: str

    def line(self) -> str:
        return self.text


class Toasts:
    """A notice per new error for a few seconds (the newest ``TOAST_MAX``), each with a
    button that brings the Errors tab to the front. GL-free model; ``draw_toasts`` draws."""

    def __init__(self) -> None:
        self.items: list[list] = []   # [entry, seconds left]

    def update(self, log: ErrorLog, dt: float) -> None:
        for item in self.items:
            item[1] -= dt
        self.items = [i for i in self.items if i[1] > 0]
        self.items += [[e, TOAST_SECONDS] for e in log.take_fresh()]
        del self.items[:-TOAST_MAX]

    def say(self, kind: str, text: str) -> None:
        """A notice toast (``Notice``): what the viewer just did."""
        self.items.append([Notice(kind, text), TOAST_SECONDS])
        del self.items[:-TOAST_MAX]

    def dismiss(self, index: int) -> None:
        del self.items[index]


def draw_toasts(toasts: Toasts, display_size) -> bool:
    """The toasts at the bottom right of the window; True when "Show Errors" was clicked."""
    from imgui_bundle import imgui

    show = False
    y = display_size[1] - 12.0
    flags = (imgui.WindowFlags_.no_decoration | imgui.WindowFlags_.always_auto_resize
             | imgui.WindowFlags_.no_saved_settings | imgui.WindowFlags_.no_focus_on_appearing
             | imgui.WindowFlags_.no_nav | imgui.WindowFlags_.no_docking)
    for k in range(len(toasts.items) - 1, -1, -1):
        entry = toasts.items[k][0]
        imgui.set_next_window_pos(imgui.ImVec2(display_size[0] - 12.0, y), imgui.Cond_.always,
                                  imgui.ImVec2(1.0, 1.0))
        imgui.set_next_window_size_constraints(imgui.ImVec2(200, 0), imgui.ImVec2(480, 400))
        imgui.set_next_window_bg_alpha(0.92)
        imgui.begin(f"##toast{id(entry)}", None, flags)
        try:
            imgui.push_text_wrap_pos(460)
            notice = isinstance(entry, Notice)
            imgui.text_colored(imgui.ImVec4(0.45, 0.9, 0.5, 1.0) if notice
                               else imgui.ImVec4(1.0, 0.45, 0.4, 1.0), entry.kind)
            imgui.text_wrapped(entry.line())
            imgui.pop_text_wrap_pos()
            if not notice:
                if imgui.small_button(f"Show Errors##{id(entry)}"):
                    show = True
                imgui.same_line()
            if imgui.small_button(f"Dismiss##{id(entry)}"):
                toasts.dismiss(k)
            y -= imgui.get_window_height() + 6.0
        finally:
            imgui.end()
    return show
