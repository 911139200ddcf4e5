"""Run under ``xvfb-run``: start the viewer, wait for its window, send it keys with
xdotool, wait for the viewer to exit. ``python xdriver.py PLAN.json``; the plan is
``{"viewer": [args of "python -m viewer open"], "env": {...}, "steps": [...]}`` with steps
``["sleep", s]``, ``["key", "ctrl+s", ...]`` (xdotool key names, one press each),
``["type", "text"]``, ``["click", x, y]`` (move there and left click at once),
``["close"]`` (the window manager's close button). Prints the
viewer's exit code last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path


def xdotool(*args: str) -> str:
    return subprocess.run(["xdotool", *args], check=True, capture_output=True,
                          text=True, timeout=60).stdout


def wm_close(wid: int) -> None:
    """What a window manager's close button sends: a WM_DELETE_WINDOW client message
    (Xlib through ctypes; Xvfb has no window manager and xdotool cannot send it)."""
    import ctypes
    import ctypes.util

    x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long,
                               ctypes.c_void_p]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]

    class ClientMessage(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong),
                    ("send_event", ctypes.c_int), ("display", ctypes.c_void_p),
                    ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                    ("format", ctypes.c_int), ("l", ctypes.c_long * 5),
                    ("pad", ctypes.c_long * 12)]   # XEvent is 24 longs

    dpy = x11.XOpenDisplay(None)
    ev = ClientMessage()
    ev.type = 33                                   # ClientMessage
    ev.window = wid
    ev.message_type = x11.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
    ev.format = 32
    ev.l[0] = x11.XInternAtom(dpy, b"WM_DELETE_WINDOW", 0)
    ev.l[1] = 0                                    # CurrentTime
    x11.XSendEvent(dpy, wid, 0, 0, ctypes.byref(ev))
    x11.XFlush(dpy)
    x11.XCloseDisplay(dpy)


def main(plan_path: str) -> int:
    plan = json.loads(Path(plan_path).read_text())
    env = dict(os.environ, **plan.get("env", {}))
    viewer = subprocess.Popen([sys.executable, "-m", "viewer", "open", *plan["viewer"]],
                              env=env, cwd=plan.get("cwd"))
    try:
        wid = xdotool("search", "--sync", "--onlyvisible", "--name", ".").split()[0]
        xdotool("windowfocus", "--sync", wid)
        xdotool("mousemove", "--window", wid, "5", "5")   # over the menu bar, not a panel
        for step in plan["steps"]:
            if step[0] == "sleep":
                time.sleep(float(step[1]))
            elif step[0] == "key":
                xdotool("key", "--delay", str(plan.get("key_delay_ms", 12)), *step[1:])
            elif step[0] == "click":   # ["click", x, y]: window pixels, left button
                # moved and clicked at once: at a slow frame rate the move, the press and
                # the release can all reach the viewer within one frame
                xdotool("mousemove", "--window", wid, str(int(step[1])), str(int(step[2])),
                        "click", "1")
            elif step[0] == "close":
                wm_close(int(wid))
            elif step[0] == "type":
                xdotool("type", "--delay", "12", step[1])
        rc = viewer.wait(timeout=plan.get("timeout", 120))
    finally:
        if viewer.poll() is None:
            viewer.kill()
    print(f"viewer exit {rc}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
