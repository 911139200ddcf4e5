"""Where the window opens and how big: never larger than the screen's work area (the
screen less the task bars and docks the desktop keeps), the size and place the user left
it at on that screen last time (``window.json`` in the settings folder, per screen), and
never off-screen (a remembered place on a screen that is gone, or now smaller, is moved
back inside).

``place`` is the rule (plain numbers, tested alone); ``screens`` asks the window toolkit
(pyglet) for the screens and their work areas; ``WindowMemory`` reads and writes the file.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import sys
from dataclasses import dataclass
from pathlib import Path

DEFAULT_SIZE = (1400, 860)
MIN_SIZE = (480, 320)
#: room kept for the window's title bar and frame when a desktop draws one (the size
#: asked for is the inside of the window)
FRAME = (16, 40)


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


@dataclass(frozen=True)
class Screen:
    key: str          # "WxH+X+Y": what the memory is kept under
    rect: Rect        # the whole screen, desktop coordinates (top-left origin)
    area: Rect        # its work area
    framed: bool      # a window manager draws frames (keep FRAME free)


def screen_key(rect: Rect) -> str:
    return f"{rect.w}x{rect.h}+{rect.x}+{rect.y}"


def place(want, screen: Screen, saved: dict | None = None) -> tuple[int, int, int, int]:
    """(x, y, w, h) of the window's inside: ``want`` (the size asked for, or the default)
    or the ``saved`` size and place, made to fit the work area (less the frame when the
    desktop draws one) and moved inside it; with no saved place, centred."""
    area = screen.area
    fw, fh = FRAME if screen.framed else (0, 0)
    room_w, room_h = max(area.w - fw, 1), max(area.h - fh, 1)
    size = want
    if saved and _pair(saved.get("size")) is not None:
        size = _pair(saved["size"])
    w = max(min(int(size[0]), room_w), min(MIN_SIZE[0], room_w))
    h = max(min(int(size[1]), room_h), min(MIN_SIZE[1], room_h))
    pos = _pair(saved.get("position")) if saved else None
    if pos is None:
        x, y = area.x + (room_w - w) // 2 + fw // 2, area.y + (room_h - h) // 2 + fh - fw // 2
    else:
        x, y = int(pos[0]), int(pos[1])
    # inside the work area, the frame's top included
    x = min(max(x, area.x + fw // 2), area.x + area.w - w - fw // 2)
    y = min(max(y, area.y + fh - fw // 2), area.y + area.h - h - fw // 2)
    return x, y, w, h


def _pair(value) -> tuple[int, int] | None:
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return int(value[0]), int(value[1])
    return None


def pick_screen(screens: list[Screen], memory: dict) -> Screen:
    """The screen used last when it is still there, else the first (the default)."""
    last = memory.get("last")
    return next((s for s in screens if s.key == last), screens[0])


def screen_at(screens: list[Screen], x: float, y: float) -> Screen | None:
    return next((s for s in screens if s.rect.contains(x, y)), None)


class WindowMemory:
    """``window.json``: {"last": screen key, "screens": {key: {"size", "position"}}}.
    A missing or damaged file is an empty memory; one that cannot be written is left."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.data: dict = {"screens": {}}
        if path is None:
            return
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and isinstance(data.get("screens"), dict):
            self.data = data

    def saved(self, screen: Screen) -> dict | None:
        entry = self.data["screens"].get(screen.key)
        return entry if isinstance(entry, dict) else None

    def remember(self, screen: Screen, x: int, y: int, w: int, h: int) -> None:
        self.data["last"] = screen.key
        self.data["screens"][screen.key] = {"size": [int(w), int(h)],
                                            "position": [int(x), int(y)]}
        if self.path is None:
            return
        with contextlib.suppress(OSError):
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            Path(self.path).write_text(json.dumps(self.data, indent=1), encoding="utf-8")


# --- the toolkit's screens ----------------------------------------------------------------
def screens() -> list[Screen]:
    """pyglet's screens (the default first) with their work areas; [] when pyglet has no
    display to ask."""
    try:
        import pyglet

        display = pyglet.display.get_display()
        found = display.get_screens()
        default = display.get_default_screen()
    except Exception:  # noqa: BLE001 - no display: the window toolkit says so itself
        return []
    out: list[Screen] = []
    desktop = _desktop_work_area(display)
    for s in [default, *found]:   # the default first; each screen once
        rect = Rect(int(s.x), int(s.y), int(s.width), int(s.height))
        if any(o.key == screen_key(rect) for o in out):
            continue
        area, framed = _work_area(rect, desktop)
        out.append(Screen(screen_key(rect), rect, area, framed))
    return out


def _work_area(rect: Rect, desktop) -> tuple[Rect, bool]:
    """The screen's part of the desktop's work area (None: the whole screen, no frame)."""
    if desktop is None:
        return rect, False
    x0, y0 = max(rect.x, desktop.x), max(rect.y, desktop.y)
    x1 = min(rect.x + rect.w, desktop.x + desktop.w)
    y1 = min(rect.y + rect.h, desktop.y + desktop.h)
    if x1 - x0 < MIN_SIZE[0] or y1 - y0 < MIN_SIZE[1]:
        return rect, True
    return Rect(x0, y0, x1 - x0, y1 - y0), True


def _desktop_work_area(display) -> Rect | None:
    """The desktop's work area from the platform: X11 ``_NET_WORKAREA`` (set by a window
    manager; none under a bare X server), Windows ``SPI_GETWORKAREA``; None elsewhere or
    when there is none (the whole screen then)."""
    if sys.platform.startswith("win"):
        return _windows_work_area()
    xdisplay = getattr(display, "_display", None)
    if xdisplay is None:
        return None
    try:
        return _x11_work_area(xdisplay)
    except Exception:  # noqa: BLE001 - an X server without the property or Xlib quirks
        return None


def _x11_work_area(xdisplay) -> Rect | None:
    from pyglet.libs.x11 import xlib

    atom = xlib.XInternAtom(xdisplay, b"_NET_WORKAREA", True)
    if not atom:
        return None
    root = xlib.XDefaultRootWindow(xdisplay)
    actual_type, fmt = xlib.Atom(), ctypes.c_int()
    count, left = ctypes.c_ulong(), ctypes.c_ulong()
    data = ctypes.POINTER(ctypes.c_ubyte)()
    if xlib.XGetWindowProperty(xdisplay, root, atom, 0, 4, False, xlib.AnyPropertyType,
                               ctypes.byref(actual_type), ctypes.byref(fmt),
                               ctypes.byref(count), ctypes.byref(left),
                               ctypes.byref(data)) != 0 or not data:
        return None
    try:
        if fmt.value != 32 or count.value < 4:
            return None
        longs = ctypes.cast(data, ctypes.POINTER(ctypes.c_long))   # format 32: C longs
        x, y, w, h = (int(longs[i]) for i in range(4))
    finally:
        xlib.XFree(data)
    return Rect(x, y, w, h) if w > 0 and h > 0 else None


def _windows_work_area() -> Rect | None:
    try:
        from ctypes import wintypes

        r = wintypes.RECT()
        if not ctypes.windll.user32.SystemParametersInfoW(0x0030, 0, ctypes.byref(r), 0):
            return None   # SPI_GETWORKAREA
    except (AttributeError, OSError):
        return None
    return Rect(r.left, r.top, r.right - r.left, r.bottom - r.top)
