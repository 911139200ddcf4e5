"""``vfxviewer screenshot --out FILE.png [--size WxH] [DAT] [--scenario FILE]``: renders
the viewer (3D view and panels) headless on EGL to a PNG."""

from __future__ import annotations

import argparse
from pathlib import Path


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WxH, got {text!r}") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {w}x{h} out of range 16..8192")
    return w, h


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dat", nargs="?", help="DAT file (default: the synthetic assets)")
    parser.add_argument("--scenario", help="scenario JSON (contract section 4)")
    parser.add_argument("--out", required=True, help="PNG to write")
    parser.add_argument("--size", type=parse_size, default=(1280, 720), help="WxH pixels")
    parser.add_argument("--frames", type=int, default=4,
                        help="viewer frames to run before capturing (layout settles)")
    parser.add_argument("--time", type=float, default=None,
                        help="simulation time to show (seconds; default: the start)")


def run(args: argparse.Namespace) -> int:
    from PIL import Image

    from viewer.app import render_headless
    from viewer.ui.session import open_session

    session = open_session(args.dat, args.scenario)
    setup = None
    if args.time is not None and session is not None:
        from viewer.ui.commands import Seek

        def setup(app, t=args.time):
            app.controller.apply(Seek(t))
    img = render_headless(args.size, frames=args.frames, session=session, setup=setup)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(img, "RGBA").save(out)
    print(out)
    return 0
