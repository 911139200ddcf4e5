"""Where ImGui keeps its layout (a user config dir, never the repo) and the default docked
layout used on first run and by headless screenshots (which never read or write an ini)."""

from __future__ import annotations

from pathlib import Path

from viewer import userdirs

APP_DIR_NAME = userdirs.APP_DIR_NAME

# Window names (ImGui ids) docked by the default layout.
LEFT = ("Assets", "Object", "Camera", "Launch", "Capture")
# (Stats sits at the bottom: five tabs do not fit the right dock at 1280 wide uncut)
RIGHT = ("Script Table", "Emitters", "Hidden / UnHide", "Reference")
BOTTOM = ("Timeline", "###Errors", "Stats", "Events")
CENTER = ("Viewport",)
# The tab brought to the front in each node of the default layout (Viewport last: focused).
FRONT = ("Timeline", "Assets", "Script Table", "Viewport")
# A saved layout keeps its tabs, but the Timeline is always brought to the front.
SAVED_FRONT = ("Timeline", "Viewport")


def user_config_dir() -> Path:
    """The user's settings folder on this OS (``viewer.userdirs.config_dir``: on Linux
    $XDG_CONFIG_HOME/vfxviewer, else ~/.config/vfxviewer; %APPDATA%\\vfxviewer on Windows;
    ~/Library/Application Support/vfxviewer on macOS); created when a file is written."""
    return userdirs.config_dir()


def default_ini_path() -> Path:
    return user_config_dir() / "imgui.ini"


BOTTOM_RATIO = 0.28
LEFT_MIN, RIGHT_MIN = 330.0, 390.0   # pixels: the side panels' controls and tab titles
#                                      fit at 1280 wide


def side_widths(width: float) -> tuple[float, float]:
    """Widths of the left and right docks in the default layout: 22% and 27% of the
    window, at least LEFT_MIN / RIGHT_MIN, and never more than 60% of it together."""
    left = max(0.22 * width, LEFT_MIN)
    right = max(0.27 * width, RIGHT_MIN)
    scale = min(1.0, 0.6 * width / (left + right))
    return left * scale, right * scale


def _checked(w) -> bool:
    """A window the fit check looks at: shown this frame, not the dockspace's host, the
    main menu bar, a tooltip or a popup (menus size themselves to their items)."""
    from imgui_bundle import imgui

    skip = (imgui.WindowFlags_.tooltip | imgui.WindowFlags_.popup
            | imgui.WindowFlags_.child_menu)
    return (w.active and not w.hidden and not w.collapsed and not (w.flags & skip)
            and not w.name.startswith(("WindowOverViewport", "##MainMenuBar"))
            and w.dock_node_as_host is None)


class FitCheck:
    """The fit check of the laid-out frames (a debug and test tool): ``with FitCheck() as
    fit:`` run frames, then ``fit.problems()`` lists each item cut by its window's visible
    edge, each table whose columns are squeezed and each dock tab whose title is cut.

    While active it wraps ``imgui.begin_table`` to note every table begun (ImGui keeps no
    list of them) and, with ``open_trees``, opens every tree node and collapsing header so
    their rows are laid out (and checked) too.

    A window: ImGui extends its used content size (``content_size``) by the rectangle of
    every item laid out in it, so content wider or taller than its visible region means
    an item is cut there. A panel (a top-level window) must fit sideways: scrolling
    sideways does not count; taller content is fine when its vertical scrollbar shows.
    A child window that shows its own scrollbar on that axis (a table with ScrollX /
    ScrollY, a list) is fine: it says where the rest is.
    A table without ScrollX fits its columns into its width (``EndTable`` squeezes them,
    cutting their contents): the width its columns need (``columns_auto_fit_width``)
    must fit its outer rectangle."""

    TREES = ("tree_node", "tree_node_ex", "collapsing_header")

    def __init__(self, open_trees: bool = True) -> None:
        self.open_trees = open_trees
        self.tables: dict[int, str] = {}     # table id -> "window/str_id"
        self._saved: dict = {}

    def __enter__(self) -> FitCheck:
        from imgui_bundle import imgui

        names = ("begin_table",) + (self.TREES if self.open_trees else ())
        self._saved = {n: getattr(imgui, n) for n in names}
        begin_table = self._saved["begin_table"]

        def recorded_begin_table(str_id, *args, **kwargs):
            shown = begin_table(str_id, *args, **kwargs)
            if shown:
                table = imgui.internal.get_current_table()
                window = imgui.internal.get_current_window()
                self.tables[table.id_] = f"{window.name}/{str_id}"
            return shown
        imgui.begin_table = recorded_begin_table
        for name in self.TREES if self.open_trees else ():
            imgui_fn = self._saved[name]

            def opened(*args, _fn=imgui_fn, **kwargs):
                imgui.set_next_item_open(True, imgui.Cond_.always)
                return _fn(*args, **kwargs)
            setattr(imgui, name, opened)
        return self

    def __exit__(self, *exc) -> None:
        from imgui_bundle import imgui

        for name, fn in self._saved.items():
            setattr(imgui, name, fn)

    def problems(self) -> list[str]:
        """After a frame: the cut items, squeezed tables and cut tab titles, one line
        each (empty: everything shown fits)."""
        return cut_windows() + self.squeezed_tables() + cut_tab_titles()

    def squeezed_tables(self) -> list[str]:
        from imgui_bundle import imgui

        out = []
        frame = imgui.get_frame_count()
        for table_id, name in self.tables.items():
            t = imgui.internal.table_find_by_id(table_id)
            if t is None or t.last_frame_active < frame - 1:
                continue   # not shown in the last frame (another tab in front)
            if t.flags & imgui.TableFlags_.scroll_x:
                continue
            need, have = t.columns_auto_fit_width, t.outer_rect.get_width()
            if need > have + 1.0:
                out.append(f"table {name}: columns need {need:.0f} px in {have:.0f}")
        return out


def cut_windows() -> list[str]:
    """Shown windows with an item cut by their visible edge (see FitCheck)."""
    from imgui_bundle import imgui

    out = []
    for w in imgui.get_current_context().windows:
        if not _checked(w):
            continue
        content, region = w.content_size, w.content_region_rect
        child = bool(w.flags & imgui.WindowFlags_.child_window) and w.dock_node is None
        if content.x > region.get_width() + 1.0 and not (child and w.scrollbar_x):
            out.append(f"{w.name}: items {content.x:.0f} px wide in {region.get_width():.0f}")
        if content.y > region.get_height() + 1.0 and not w.scrollbar_y:
            out.append(f"{w.name}: items {content.y:.0f} px tall in {region.get_height():.0f}"
                       f" with no scrollbar")
    return out


def _tab_span(bar, tab) -> tuple[float, float]:
    """The part of a dock tab inside its tab bar (x0, x1 in display pixels; x1 <= x0: none):
    a tab bar that scrolls shows only some of its tabs."""
    x0 = bar.bar_rect.min.x + tab.offset - bar.scrolling_anim
    return max(x0, bar.bar_rect.min.x), min(x0 + tab.width, bar.bar_rect.max.x)


def cut_tab_titles() -> list[str]:
    """Dock tabs whose title is not shown whole: narrower than their title (ImGui shrinks
    tabs that do not fit and cuts their titles with an ellipsis), or scrolled partly or
    wholly out of their tab bar."""
    from imgui_bundle import imgui

    out, seen = [], set()
    for w in imgui.get_current_context().windows:
        node = w.dock_node
        if node is None or node.tab_bar is None or node.id_ in seen or not w.active:
            continue
        seen.add(node.id_)
        bar = node.tab_bar
        for i in range(len(bar.tabs)):
            tab = bar.tabs[i]
            x0, x1 = _tab_span(bar, tab)
            shown = max(0.0, min(tab.width, x1 - x0))
            if tab.window is not None and shown + 0.5 < tab.content_width:
                out.append(f"tab {tab.window.name}: {shown:.0f} px for a "
                           f"{tab.content_width:.0f} px title")
    return out


def front_tabs() -> list[str]:
    """The docked windows whose tab is selected (shown) in their dock node, by name."""
    from imgui_bundle import imgui

    out = []
    for w in imgui.get_current_context().windows:
        node = w.dock_node
        if node is not None and node.tab_bar is not None and w.active \
                and node.tab_bar.visible_tab_id == w.tab_id:
            out.append(w.name.split("###")[-1] if "###" in w.name else w.name)
    return sorted(out)


def tab_rect(name: str) -> tuple[float, float, float, float] | None:
    """Where the dock tab of window ``name`` is drawn (x0, y0, x1, y1 in display pixels,
    the visible part), or None when it is not docked."""
    from imgui_bundle import imgui

    window = imgui.internal.find_window_by_name(name)
    node = None if window is None else window.dock_node
    if node is None or node.tab_bar is None:
        return None
    bar = node.tab_bar
    for i in range(len(bar.tabs)):
        tab = bar.tabs[i]
        if tab.id_ == window.tab_id:
            x0, x1 = _tab_span(bar, tab)
            return x0, bar.bar_rect.min.y, x1, bar.bar_rect.max.y
    return None


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
