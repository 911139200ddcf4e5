"""``vfxviewer screenshot --out FILE.png [--size WxH] [DAT] [--scenario FILE]``: renders
the viewer (3D view and panels) headless on EGL to a PNG (or a JPEG, ...: the picture type
from the suffix).

``--actions FILE`` applies the same JSON commands as ``vfxviewer open --actions`` before the
given frames, so a script can set up what the GUI shows (a reference recording and a
comparison view, a camera) or capture the viewer over a time range headless, e.g.
``[{"frame": 1, "command": "ExportCapture", "path": "out.gif", "start": 0, "end": 1,
"window": true}]``. Errors the viewer logged are printed on stderr; with ``--actions`` they
make the exit status 1."""

from __future__ import annotations

import argparse
from pathlib import Path

from viewer import bounds
from viewer.commands.dat_args import DAT_HELP
from viewer.commands.output import nonempty_path, writing
from viewer.commands.overwrite import check_outputs, scenario_inputs
from viewer.commands.selection import bounded, parse_size_in

parse_size = parse_size_in(bounds.VIEWER_SIZE)


def parse_out(text: str) -> str:
    """A path ending in a picture type Pillow writes in colour (.png, .jpg, ...; a type
    without alpha gets the picture set over black)."""
    import io

    from PIL import Image
    text = nonempty_path(text)
    Image.init()
    suffix = Path(text).suffix.lower()
    fmt = Image.registered_extensions().get(suffix)
    try:    # a colour pixel, in memory: refuses the 1-bit and read-only types up front
        ok = fmt in Image.SAVE and Image.new("RGB", (1, 1)).save(io.BytesIO(), format=fmt) is None
    except (OSError, ValueError, KeyError):
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError(f"{text!r}: not a picture type to write "
                                         "(use .png or .jpg)")
    return text


parse_out.__name__ = "path"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dat", nargs="?", help=DAT_HELP + " (default: the synthetic assets)")
    parser.add_argument("--scenario", help="scenario JSON (docs/cli.md section 4)")
    parser.add_argument("--out", required=True, type=parse_out,
                        help="picture to write (.png, .jpg, ...)")
    parser.add_argument("--size", type=parse_size, default=(1280, 720), help="WxH pixels")
    parser.add_argument("--frames", type=bounded(bounds.VIEWER_FRAMES, integer=True),
                        default=4, help="viewer frames to run before capturing (layout "
                        f"settles; {bounds.VIEWER_FRAMES.span()})")
    parser.add_argument("--time", type=bounded(bounds.SECONDS), default=None,
                        help="simulation time to show (seconds; default: the start)")
    parser.add_argument("--actions", help="JSON list of {frame, command, ...} to apply "
                                          "(as vfxviewer open --actions)")


def opened_inputs(args: argparse.Namespace) -> list:
    """What the viewer reads (``screenshot`` and ``open``): the DAT, the actions file, the
    scenario and the DATs and reference recording it names."""
    inputs = [("DAT", args.dat), ("actions", args.actions)]
    if args.scenario:
        from viewer.sim.scenario import Scenario
        inputs += scenario_inputs(args.scenario, Scenario.load(args.scenario),
                                  dats=not args.dat)
    return inputs


def run(args: argparse.Namespace) -> int:
    import sys

    from PIL import Image

    from viewer.app import load_actions, render_headless
    from viewer.media import save_image
    from viewer.ui.session import open_session

    checked = check_outputs("vfxviewer screenshot", [("--out", args.out)], opened_inputs(args))
    if checked is None:
        return 2
    out = checked[0]
    actions = load_actions(args.actions)
    session = open_session(args.dat, args.scenario)
    setup = None
    if args.time is not None and session is not None:
        from viewer.ui.commands import Seek

        def setup(app, t=args.time):
            app.controller.apply(Seek(t))
    frames = max(args.frames, 1 + max((f for f, _ in actions), default=0))
    errors: list[str] = []
    img = render_headless(args.size, frames=frames, session=session, setup=setup,
                          actions=actions, errors=errors)
    with writing(out, "--out"):
        save_image(Image.fromarray(img, "RGBA"), out)
    print(out)
    for line in errors:
        print(f"vfxviewer screenshot: {line}", file=sys.stderr)
    return 1 if errors and actions else 0
