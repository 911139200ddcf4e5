"""Run under ``xvfb-run``: give the root window a ``_NET_WORKAREA`` (as a window manager
with a top bar does), then run ``python -m viewer open ARGS...``; exits with its status.
``python workarea_driver.py X Y W H -- ARGS...``."""

from __future__ import annotations

import ctypes
import subprocess
import sys


def set_work_area(x: int, y: int, w: int, h: int) -> None:
    import pyglet
    from pyglet.libs.x11 import xlib

    dpy = pyglet.display.get_display()._display
    values = (ctypes.c_long * 4)(x, y, w, h)   # format 32: C longs
    xlib.XChangeProperty(dpy, xlib.XDefaultRootWindow(dpy),
                         xlib.XInternAtom(dpy, b"_NET_WORKAREA", False),
                         xlib.XInternAtom(dpy, b"CARDINAL", False), 32,
                         xlib.PropModeReplace, ctypes.cast(values, ctypes.POINTER(
                             ctypes.c_ubyte)), 4)
    xlib.XSync(dpy, False)


if __name__ == "__main__":
    cut = sys.argv.index("--")
    set_work_area(*(int(v) for v in sys.argv[1:cut]))
    sys.exit(subprocess.run([sys.executable, "-m", "viewer", "open", *sys.argv[cut + 1:]],
                            check=False).returncode)
