"""``vfxviewer`` / ``vfxviewer open DAT [--scenario FILE]``: the interactive viewer
(docs/cli.md section 8). With no DAT it opens the synthetic default assets and scenario."""

from __future__ import annotations

import argparse
import os

from viewer import bounds
from viewer.commands.dat_args import DAT_HELP
from viewer.commands.output import nonempty_path
from viewer.commands.screenshot import parse_size
from viewer.commands.selection import bounded


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dat", nargs="?", help=DAT_HELP + " (default: the synthetic assets)")
    parser.add_argument("--scenario", help="scenario JSON (docs/cli.md section 4)")
    parser.add_argument("--size", type=parse_size, default=None,
                        help="window WxH (default: as left last time on this screen, else "
                             "1400x860; at most the screen's work area)")
    parser.add_argument("--screenshot", default=os.environ.get("VFXVIEWER_SCREENSHOT"),
                        help="save the window to this PNG after --screenshot-after frames, "
                             "then exit (env VFXVIEWER_SCREENSHOT)")
    parser.add_argument("--screenshot-after", type=bounded(bounds.VIEWER_FRAMES, integer=True),
                        default=os.environ.get("VFXVIEWER_SCREENSHOT_AFTER", "30"),
                        help=f"frames before --screenshot ({bounds.VIEWER_FRAMES.span()})")
    parser.add_argument("--window", default="pyglet", help="moderngl-window backend")
    parser.add_argument("--paused", action="store_true", help="do not start playing")
    parser.add_argument("--actions", help="JSON list of {frame, command, ...} to apply "
                                          "(drives the window from scripts and tests)")
    parser.add_argument("--dump-state", type=nonempty_path,
                        help="write what the viewer shows at exit (JSON)")


def run(args: argparse.Namespace) -> int:
    import sys

    from viewer.commands.overwrite import check_outputs
    from viewer.commands.screenshot import opened_inputs
    # written when the window closes: a path that cannot be is said now
    if check_outputs("vfxviewer open", [("--screenshot", args.screenshot),
                                        ("--dump-state", args.dump_state)],
                     opened_inputs(args)) is None:
        return 2

    if (sys.platform.startswith("linux") and not os.environ.get("DISPLAY")
            and not os.environ.get("WAYLAND_DISPLAY")):
        print("vfxviewer: no display (DISPLAY is unset); for a headless render use "
              "`vfxviewer screenshot --out FILE.png`", file=sys.stderr)
        return 1

    from viewer.app import load_actions, run_window
    from viewer.ui.session import plan_session

    actions = load_actions(args.actions)
    from viewer import audio_out
    audio_out.use_device()   # the default audio device, or silence when there is none
    # the scenario read and the DATs opened (headers checked) now: bad input is exit 1;
    # their directories are read once the window shows (progress bar, Cancel)
    plan = plan_session(args.dat, args.scenario)
    db = plan.open_database()
    return run_window(args.size, screenshot=args.screenshot,
                      screenshot_after=args.screenshot_after, window_backend=args.window,
                      actions=actions, dump_state=args.dump_state,
                      opening=(plan, db, not args.paused))
