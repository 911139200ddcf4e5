"""Where ImGui keeps its layout (a user config dir, never the repo) and the default docked
layout used on first run and by headless screenshots (which never read or write an ini)."""

from __future__ import annotations

import os
from pathlib import Path

APP_DIR_NAME = "vfxviewer"

# Window names (ImGui ids) docked by the default layout.
LEFT = ("Assets", "Object", "Camera", "Launch", "Capture")
RIGHT = ("Script Table", "Emitters", "Hidden / UnHide", "Stats", "Reference")
BOTTOM = ("Timeline", "###Errors")
CENTER = ("Viewport",)
# The tab brought to the front in each node of the default layout (Viewport last: focused).
FRONT = ("Timeline", "Assets", "Script Table", "Viewport")
# A saved layout keeps its tabs, but the Timeline is always brought to the front.
SAVED_FRONT = ("Timeline", "Viewport")


def user_config_dir() -> Path:
    """$XDG_CONFIG_HOME/vfxviewer, else ~/.config/vfxviewer (created on demand)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_DIR_NAME


def default_ini_path() -> Path:
    return user_config_dir() / "imgui.ini"


BOTTOM_RATIO = 0.28
LEFT_MIN, RIGHT_MIN = 330.0, 380.0   # pixels: the side panels' controls fit at 1280 wide


def side_widths(width: float) -> tuple[float, float]:
    """Widths of the left and right docks in the default layout: 22% and 27% of the
    window, at least LEFT_MIN / RIGHT_MIN, and never more than 60% of it together."""
    left = max(0.22 * width, LEFT_MIN)
    right = max(0.27 * width, RIGHT_MIN)
    scale = min(1.0, 0.6 * width / (left + right))
    return left * scale, right * scale


def overflowing_windows() -> list[tuple[str, float, float]]:
    """Debug check of the laid-out frame: (window, content width, visible width) of every
    shown window whose items are wider than it and that cannot scroll sideways (an item
    cut by the window's edge, out of reach). Call after a frame."""
    from imgui_bundle import imgui

    out = []
    for w in imgui.get_current_context().windows:
        if not w.active or w.hidden or w.name.startswith("WindowOverViewport"):
            continue
        content, visible = w.content_size_ideal.x, w.content_region_rect.get_width()
        scrolls = bool(w.flags & imgui.WindowFlags_.horizontal_scrollbar) or w.scrollbar_x
        if content > visible + 1.0 and not scrolls:
            out.append((w.name, float(content), float(visible)))
    return out


def build_default_layout(dockspace_id: int, size) -> None:
    """Split the dockspace into left / centre / right / bottom and dock the known windows.
    Call once, when the dockspace has no layout yet."""
    from imgui_bundle import imgui

    internal = imgui.internal
    internal.dock_builder_remove_node(dockspace_id)
    internal.dock_builder_add_node(dockspace_id, internal.DockNodeFlagsPrivate_.dock_space)
    internal.dock_builder_set_node_size(dockspace_id, imgui.ImVec2(*size))
    split = internal.dock_builder_split_node_py  # -> (id, id at dir, id at opposite)
    w = max(float(size[0]), 1.0)
    _, bottom, rest = split(dockspace_id, imgui.Dir.down, BOTTOM_RATIO)
    left_w, right_w = side_widths(w)
    _, left, rest = split(rest, imgui.Dir.left, left_w / w)
    _, right, center = split(rest, imgui.Dir.right, right_w / (w - left_w))
    for names, node in ((LEFT, left), (RIGHT, right), (BOTTOM, bottom), (CENTER, center)):
        for name in names:
            internal.dock_builder_dock_window(name, node)
    internal.dock_builder_finish(dockspace_id)


def bring_to_front(names) -> None:
    """Select each named window's tab in its dock node (SetWindowFocus does not switch
    dock tabs in this ImGui version), focusing the last."""
    from imgui_bundle import imgui

    for name in names:
        window = imgui.internal.find_window_by_name(name)
        if window is None:
            continue
        node = window.dock_node
        if node is not None and node.tab_bar is not None:
            node.tab_bar.next_selected_tab_id = window.tab_id
        imgui.set_window_focus(name)
