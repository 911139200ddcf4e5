"""Run under ``xvfb-run``: start the viewer, wait for its window, send it keys with
xdotool, wait for the viewer to exit. ``python xdriver.py PLAN.json``; the plan is
``{"viewer": [args of "python -m viewer open"], "env": {...}, "steps": [...]}`` with steps
``["sleep", s]``, ``["key", "ctrl+s", ...]`` (xdotool key names, one press each),
``["type", "text"]``. Prints the viewer's exit code last."""

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


def main(plan_path: str) -> int:
    plan = json.loads(Path(plan_path).read_text())
    env = dict(os.environ, **plan.get("env", {}))
    viewer = subprocess.Popen([sys.executable, "-m", "viewer", "open", *plan["viewer"]],
                              env=env)
    try:
        wid = xdotool("search", "--sync", "--onlyvisible", "--name", ".").split()[0]
        xdotool("windowfocus", "--sync", wid)
        xdotool("mousemove", "--window", wid, "5", "5")   # over the menu bar, not a panel
        for step in plan["steps"]:
            if step[0] == "sleep":
                time.sleep(float(step[1]))
            elif step[0] == "key":
                xdotool("key", "--delay", str(plan.get("key_delay_ms", 12)), *step[1:])
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
