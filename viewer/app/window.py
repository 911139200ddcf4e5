"""The real window (moderngl-window, pyglet by default): the frame loop, scripted actions
and the window's input events forwarded to ImGui.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from pathlib import Path

import moderngl_window as mglw
import numpy as np
from PIL import Image

from viewer.app import window_place
from viewer.app.headless import session_state
from viewer.app.viewer_app import ViewerApp
from viewer.errors import ScenarioError, UsageError
from viewer.media import save_image
from viewer.ui import layout
from viewer.ui.imgui_backend import build_keymap


def run_window(size=None, *, session=None, screenshot: str | None = None,
               screenshot_after: int = 30, setup=None, window_backend: str = "pyglet",
               actions=(), dump_state: str | None = None, opening=None) -> int:
    """Open the real window (moderngl-window, pyglet by default) and run until closed.

    ``screenshot``: after ``screenshot_after`` frames, save the window's framebuffer to this
    PNG and exit (used by the Xvfb test; also ``VFXVIEWER_SCREENSHOT`` /
    ``VFXVIEWER_SCREENSHOT_AFTER``). ``opening``: (SessionPlan, its opened DATs, play) to
    read and show once the window is up (``ViewerApp.open_later``: progress, Cancel);
    ``actions`` wait while it (or any long work) runs.

    ``size``: the window's inside (None: the size left last time on this screen, else
    window_place.DEFAULT_SIZE); either way at most the screen's work area, at the place
    left last time (never off-screen), remembered at the end (window_place)."""
    placing = _Placing(size, window_backend)
    window_cls = window_class(window_backend)
    wnd = window_cls(title="AC VFX Viewer", size=placing.size, resizable=True, vsync=True,
                     gl_version=(3, 3), aspect_ratio=None, visible=placing.screen is None)
    placing.show(wnd)
    mglw.activate_context(window=wnd)
    extra = None
    if window_backend == "pyglet":
        # pyglet is the default window backend's toolkit, loaded only when that backend
        # opens a real window (headless runs and the other backends never need it)
        import pyglet.window.key as extra
    app = ViewerApp(wnd.ctx, display_size=wnd.size, ini_path=layout.default_ini_path(),
                    session=session, keymap=build_keymap(wnd.keys, extra))
    app.job_budget = 0.05   # the window keeps drawing (progress, Cancel) during long work
    if setup is not None:
        setup(app)
    if opening is not None:
        plan, db, play = opening
        app.open_later(plan, "startup", None, db=db, play=play)
    _bind_window_events(wnd, app)
    last = time.perf_counter()
    rc = 0
    pending = sorted(actions, key=lambda a: a[0])
    min_dt = _frame_interval(os.environ.get("VFXVIEWER_MAX_FPS"))
    title = None
    try:
        while not wnd.is_closing and not app.should_close:
            now = time.perf_counter()
            if now - last < min_dt:          # VFXVIEWER_MAX_FPS: a slow machine, for tests
                time.sleep(min_dt - (now - last))
                now = time.perf_counter()
            dt, last = now - last, now
            if app.title() != title:
                title = wnd.title = app.title()
            while pending and pending[0][0] <= app.frame_count and app.job is None \
                    and not app.controller.view.export_requests:
                app.controller.apply(pending.pop(0)[1], "actions")
            wnd.use()
            app.frame(dt, display_size=wnd.size, target=wnd.fbo,
                      framebuffer_scale=wnd.pixel_ratio)
            if app.frame_count == SETTLED_FRAME:
                placing.settled(wnd)
            if screenshot and app.frame_count >= screenshot_after:
                data = wnd.fbo.read(viewport=(0, 0, *wnd.buffer_size), components=3)
                img = np.frombuffer(data, np.uint8).reshape(wnd.buffer_size[1],
                                                            wnd.buffer_size[0], 3)[::-1]
                # under a partial name, renamed when whole (viewer.media.save_image)
                save_image(Image.fromarray(np.ascontiguousarray(img), "RGB"), screenshot)
                placing.remember(wnd)   # before close: a closed window has no place
                wnd.close()
                break
            wnd.swap_buffers()
    finally:
        placing.remember(wnd)
        if dump_state:
            Path(dump_state).write_text(json.dumps(session_state(app), indent=1))
        app.release()
        wnd.destroy()
    return rc


class _Placing:
    """The window's size and place (viewer/app/window_place.py) for the pyglet backend:
    worked out before the window exists (it opens hidden, is placed, then shown) and
    remembered when it closes. Other backends keep their own placing."""

    def __init__(self, size, backend: str) -> None:
        want = tuple(size) if size is not None else window_place.DEFAULT_SIZE
        self.size = want
        self.screen = None
        self.screens: list = []
        self.remembered = False
        self.offset = (0, 0)   # where the desktop put the window minus where it was asked
        self.memory = window_place.WindowMemory(layout.user_config_dir() / "window.json")
        if backend != "pyglet":
            return
        self.screens = window_place.screens()
        if not self.screens:
            return
        self.screen = window_place.pick_screen(self.screens, self.memory.data)
        saved = self.memory.saved(self.screen)
        if size is not None and saved is not None:   # --size: its size at the saved place
            saved = {"position": saved.get("position")}
        self.place = window_place.place(want, self.screen, saved)
        self.size = self.place[2:]

    def show(self, wnd) -> None:
        if self.screen is None:
            return
        wnd.position = self.place[:2]
        wnd.visible = True

    def settled(self, wnd) -> None:
        """Once the desktop has placed the window: how far from the place asked for (a
        window manager that places the frame where the inside was asked for moves the
        inside down by its title bar); remembered places are corrected by it, so the
        window does not creep down a title bar each time it opens."""
        if self.screen is None:
            return
        with contextlib.suppress(Exception):   # a window already gone: no offset
            x, y = wnd.position
            dx, dy = x - self.place[0], y - self.place[1]
            if abs(dx) <= window_place.FRAME[1] and abs(dy) <= 2 * window_place.FRAME[1]:
                self.offset = (dx, dy)

    def remember(self, wnd) -> None:
        """Keep the window's size and place for its screen (once: before it closes)."""
        if self.screen is None or self.remembered:
            return
        self.remembered = True
        try:
            x, y = wnd.position
            w, h = wnd.size
        except Exception:  # noqa: BLE001 - a window already gone: remembered before
            return
        screen = window_place.screen_at(self.screens, x + w / 2, y + h / 2) or self.screen
        self.memory.remember(screen, x - self.offset[0], y - self.offset[1], w, h)


def window_class(backend: str):
    """moderngl-window's window class for ``backend`` (``--window``): a name it does not
    know, or a toolkit not installed (glfw, sdl2, pyside2 are not dependencies), is one
    line naming what to install, not a traceback."""
    try:
        return mglw.get_local_window_cls(backend)
    except ImportError as err:
        missing = getattr(err, "name", None) or ""
        if missing.startswith("moderngl_window.context."):
            raise UsageError(f"--window: unknown window backend {backend!r} (pyglet, glfw, "
                             f"sdl2, pyside2, pyqt5, tk, headless)") from None
        raise UsageError(f"--window {backend}: needs the Python package {missing or backend!r}"
                         f" (pip install {missing or backend})") from None


SETTLED_FRAME = 3   # frames after which the desktop has placed the window (_Placing.settled)


def _frame_interval(max_fps) -> float:
    """Seconds per frame at most ``max_fps`` (env VFXVIEWER_MAX_FPS; unset: no limit)."""
    try:
        fps = float(max_fps) if max_fps else 0.0
    except ValueError:
        raise ScenarioError(f"VFXVIEWER_MAX_FPS must be a number, not {max_fps!r}") from None
    return 1.0 / fps if fps > 0 and math.isfinite(fps) else 0.0


def _bind_window_events(wnd, app: ViewerApp) -> None:
    inp = app.input
    # Esc never closes the viewer, and the close button asks first when there are unsaved
    # changes (ViewerApp.request_quit).
    wnd.exit_key = None
    native = getattr(wnd, "_window", None)
    if native is not None and hasattr(native, "push_handlers"):   # pyglet
        def on_close():
            app.request_quit()
            return True   # pyglet.event.EVENT_HANDLED: the window stays open
        native.push_handlers(on_close=on_close)
    buttons = {wnd.mouse.left: 0, wnd.mouse.right: 1, wnd.mouse.middle: 2}

    def mods():
        m = wnd.modifiers
        inp.modifiers(m.ctrl, m.shift, m.alt)

    def key_event(key, action, modifiers):
        inp.modifiers(modifiers.ctrl, modifiers.shift, modifiers.alt)
        inp.key(key, action == wnd.keys.ACTION_PRESS)

    def mouse_pos(x, y, dx, dy):
        inp.mouse_pos(x, y)

    def mouse_press(x, y, button):
        mods()
        inp.mouse_pos(x, y)
        if button in buttons:
            inp.mouse_button(buttons[button], True)

    def mouse_release(x, y, button):
        mods()
        inp.mouse_pos(x, y)
        if button in buttons:
            inp.mouse_button(buttons[button], False)

    wnd.key_event_func = key_event
    wnd.mouse_position_event_func = mouse_pos
    wnd.mouse_drag_event_func = mouse_pos
    wnd.mouse_press_event_func = mouse_press
    wnd.mouse_release_event_func = mouse_release
    wnd.mouse_scroll_event_func = lambda dx, dy: inp.wheel(dx, dy)
    wnd.unicode_char_entered_func = lambda ch: inp.char(ch)
    wnd.resize_func = lambda w, h: None   # the frame reads wnd.size every frame
