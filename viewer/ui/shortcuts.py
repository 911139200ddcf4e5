"""Keyboard shortcuts, one action per key press whatever the frame rate.

The window's key callbacks queue every press (:class:`KeyPress`, in order, with its
modifiers); each frame the app hands the queue to :func:`press_actions`, so ten presses
between two slow frames are ten steps (ImGui's per-frame ``IsKeyPressed`` sees at most one
press of a key per frame). A key held down repeats through ImGui's own typematic rate
(:func:`held_repeats`).

Timeline keys (only while the Viewport or the Timeline has focus, or no window has, and
never while a text field has the keyboard): Space play / pause, Left / Right step one frame,
Home back to the start, Page Up / Page Down previous / next hook.
Everywhere but in a text field: Ctrl+Z undo, Ctrl+Shift+Z (or Ctrl+Y) redo, Ctrl+S save,
Ctrl+Q quit (asks when there are unsaved changes). Esc never quits: it closes the open
prompt or dialog, else gives the keyboard back to the Viewport (a text field handles its
own Esc)."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.ui import commands as c

# imgui.Key names of the timeline keys, and their commands
TIMELINE_KEYS = {
    "space": c.TogglePlay(), "left_arrow": c.Step(-1), "right_arrow": c.Step(1),
    "home": c.Restart(), "page_up": c.JumpHook(-1), "page_down": c.JumpHook(1),
}
REPEATING = ("left_arrow", "right_arrow")   # keys that repeat while held
# windows whose focus lets the timeline keys act (None: no window has focus)
TIMELINE_FOCUS = (None, "Viewport", "Timeline")

# app-level actions (not commands): the app runs them
SAVE, QUIT, ESCAPE = "save", "quit", "escape"


@dataclass(frozen=True)
class KeyPress:
    key: str            # imgui.Key attribute name ("right_arrow", "z", "escape")
    ctrl: bool = False
    shift: bool = False
    alt: bool = False


def press_actions(presses, *, text_input: bool, focus: str | None) -> list:
    """The commands (and app actions SAVE / QUIT / ESCAPE) for queued presses, in order.
    ``text_input``: a text field has the keyboard (it takes every key); ``focus``: the
    name of the focused window (its root), None when none has focus."""
    out: list = []
    timeline = focus in TIMELINE_FOCUS
    for p in presses:
        if text_input:
            continue
        if p.ctrl and not p.alt:
            if p.key == "z":
                out.append(c.Redo() if p.shift else c.Undo())
            elif p.key == "y":
                out.append(c.Redo())
            elif p.key == "s":
                out.append(SAVE)
            elif p.key == "q":
                out.append(QUIT)
            continue
        if p.key == "escape":
            out.append(ESCAPE)
        elif timeline and not p.alt and p.key in TIMELINE_KEYS:
            out.append(TIMELINE_KEYS[p.key])
    return out


def held_repeats(*, text_input: bool, focus: str | None) -> list[c.Command]:
    """Steps for the arrow keys held past ImGui's repeat delay this frame (the first
    press comes from the queue)."""
    from imgui_bundle import imgui

    if text_input or focus not in TIMELINE_FOCUS:
        return []
    io = imgui.get_io()
    out = []
    for name in REPEATING:
        key = getattr(imgui.Key, name)
        held = imgui.internal.get_key_data(key).down_duration
        if imgui.is_key_down(key) and held > io.key_repeat_delay:
            n = imgui.get_key_pressed_amount(key, io.key_repeat_delay, io.key_repeat_rate)
            out.extend([TIMELINE_KEYS[name]] * n)
    return out


def focused_window() -> str | None:
    """The name of the root window that has keyboard focus (None: none)."""
    from imgui_bundle import imgui

    window = imgui.get_current_context().nav_window
    if window is None:
        return None
    root = window.root_window or window
    return root.name.split("###")[0].split("##")[0]
