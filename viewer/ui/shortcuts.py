"""Global keyboard shortcuts (when no text field has the keyboard):
Space play / pause, Left / Right step one frame, Home back to the start,
Page Up / Page Down previous / next hook, Ctrl+S save the scenario (asks for a path)."""

from __future__ import annotations

from viewer.ui import commands as c

KEYS = ("space", "left_arrow", "right_arrow", "home", "page_up", "page_down", "s")


def shortcut_commands(pressed: frozenset[str], ctrl: bool = False) -> list[c.Command]:
    """Pure mapping from the keys pressed this frame to commands (tested without GL)."""
    out: list[c.Command] = []
    if ctrl:
        return out   # Ctrl+S is handled by the app (it opens the path prompt)
    if "space" in pressed:
        out.append(c.TogglePlay())
    if "left_arrow" in pressed:
        out.append(c.Step(-1))
    if "right_arrow" in pressed:
        out.append(c.Step(1))
    if "home" in pressed:
        out.append(c.Restart())
    if "page_up" in pressed:
        out.append(c.JumpHook(-1))
    if "page_down" in pressed:
        out.append(c.JumpHook(1))
    return out


def read_pressed() -> tuple[frozenset[str], bool]:
    """The shortcut keys ImGui saw pressed this frame (repeat on for stepping), and Ctrl."""
    from imgui_bundle import imgui

    io = imgui.get_io()
    if io.want_text_input:
        return frozenset(), False
    pressed = set()
    for name in KEYS:
        if imgui.is_key_pressed(getattr(imgui.Key, name), repeat=name.endswith("arrow")):
            pressed.add(name)
    return frozenset(pressed), bool(io.key_ctrl)
