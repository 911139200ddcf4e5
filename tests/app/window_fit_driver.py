"""Run under ``xvfb-run``: open the real window as a user does (no --size), then bring each
dock's tabs to the front in turn and run layout.FitCheck in the real window, noting any
shown window that reaches past the display. ``python window_fit_driver.py REPORT.json
[X Y W H]`` (a window manager's work area to set first: workarea_driver.py) writes
{"display", "rounds", "problems", "off_screen"}."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from imgui_bundle import imgui

from viewer.app.window import run_window
from viewer.ui import layout
from viewer.ui.session import plan_session

SETTLE = 8     # frames before the first round (the opening job, the layout)
PER_ROUND = 3  # frames each round shows before it is checked


def _rounds() -> list[list[str]]:
    docks = (layout.LEFT, layout.RIGHT, layout.BOTTOM)
    return [[d[k] for d in docks if k < len(d)] for k in range(max(len(d) for d in docks))]


def _off_screen(display) -> list[str]:
    out = []
    for w in imgui.get_current_context().windows:
        if (not (w.active and not w.hidden) or w.name.startswith("##")
                or w.flags & imgui.WindowFlags_.child_window):   # panels, not their insides
            continue
        x0, y0 = w.pos.x, w.pos.y
        x1, y1 = x0 + w.size.x, y0 + w.size.y
        if x0 < -0.5 or y0 < -0.5 or x1 > display[0] + 0.5 or y1 > display[1] + 0.5:
            out.append(f"{w.name}: ({x0:.0f}, {y0:.0f})-({x1:.0f}, {y1:.0f})")
    return out


def main(report_path: str) -> int:
    rounds = _rounds()
    report = {"display": None, "rounds": 0, "problems": [], "off_screen": []}
    fit = layout.FitCheck()

    def setup(app):
        frame = app.frame
        fit.__enter__()

        def checked_frame(*args, **kwargs):
            out = frame(*args, **kwargs)
            n = app.frame_count - SETTLE
            if n >= 0 and n % PER_ROUND == 0:
                k = n // PER_ROUND
                if k > 0 and k <= len(rounds):    # the round shown: checked
                    report["rounds"] = k
                    report["display"] = list(app.display_size)
                    report["problems"] += [f"{rounds[k - 1]}: {p}" for p in fit.problems()]
                    report["off_screen"] += _off_screen(app.display_size)
                if k < len(rounds):
                    layout.bring_to_front(rounds[k])
            return out
        app.frame = checked_frame

    plan = plan_session()
    rc = run_window(None, setup=setup, opening=(plan, plan.open_database(), False),
                    screenshot=str(Path(report_path).with_suffix(".png")),
                    screenshot_after=SETTLE + PER_ROUND * len(rounds) + 1)
    fit.__exit__(None, None, None)
    Path(report_path).write_text(json.dumps(report, indent=1))
    return rc


if __name__ == "__main__":
    if len(sys.argv) == 6:
        from workarea_driver import set_work_area
        set_work_area(*(int(v) for v in sys.argv[2:]))
    sys.exit(main(sys.argv[1]))
