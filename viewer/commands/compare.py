"""``vfxviewer compare [DAT] (--scenario FILE | --setup DID ...) --reference REC [...]``

Renders the scenario headless, exactly as ``vfxviewer render`` does, and sets each frame
beside the reference recording's frame at the same timeline time (offset and rate from the
options, from the scenario's ``"reference"`` entry, or found with ``--align``). Writes the
per-frame figures (``--csv``, ``--json``: frame, t, recording time, mean absolute difference,
SSIM) and the composed comparison (``--out``: .mp4, .gif, a folder of PNGs, or a .png of the
last frame) in one of the view modes.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import deque
from pathlib import Path

import numpy as np

from viewer import bounds
from viewer.commands import render as render_cmd
from viewer.commands.output import nonempty_path, writing, written
from viewer.commands.selection import bounded, usage_error
from viewer.errors import ScenarioError, ViewerError
from viewer.sim.mixer import SAMPLE_RATE


def _crop(text: str):
    from viewer.compare.reference import Crop
    try:
        x, y, w, h = (bounds.int_text(v, hex_ok=False) for v in str(text).split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--crop takes x,y,w,h, not {text!r}") from None
    if not (bounds.CROP_ORIGIN.contains(x) and bounds.CROP_ORIGIN.contains(y)
            and bounds.CROP_SIZE.contains(w) and bounds.CROP_SIZE.contains(h)):
        raise argparse.ArgumentTypeError(
            f"--crop {text!r}: x and y must be in {bounds.CROP_ORIGIN.span()}, width and "
            f"height in {bounds.CROP_SIZE.span()}")
    return Crop(x, y, w, h)


ALIGN_MODES = ("motion", "audio")


class _AlignAction(argparse.Action):
    """``--align [motion|audio]``: the value is optional, so argparse hands it whatever word
    follows. A word that is not a mode is the DAT positional written after the flag
    (``compare --align DAT ...``): the mode is motion and the word goes back to ``dat``
    (``take_align_dat`` once parsing is done)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        if values is None or values in ALIGN_MODES:
            setattr(namespace, self.dest, values or "motion")
            return
        setattr(namespace, self.dest, "motion")
        namespace.align_dat = values


def take_align_dat(args, prog: str) -> bool:
    """Puts a DAT that followed ``--align`` into ``args.dat``; False (after the usage line)
    when a DAT was also given in its own place, or the word is a plain word naming no file
    (a misspelt mode, ``--align motoin``)."""
    word = vars(args).pop("align_dat", None)
    if word is None:
        return True
    if args.dat is not None or (word.isalpha() and not Path(word).exists()):
        usage_error(prog, f"argument --align: invalid choice: {word!r} (choose from "
                    f"{', '.join(map(repr, ALIGN_MODES))}, or give an existing DAT)")
        return False
    args.dat = word
    return True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    render_cmd.add_arguments(parser)
    for action in parser._actions:  # --out is optional here: figures alone are fine
        if action.dest == "out":
            action.required = False
            action.help = "comparison video (.mp4/.gif), PNG folder, or last frame .png"
    parser.add_argument("--reference", help="recording: a video file or a folder of images "
                        "(default: the scenario's \"reference\" entry)")
    parser.add_argument("--reference-fps", type=bounded(bounds.REFERENCE_FPS),
                        help="frame rate of an image-folder recording (30)")
    parser.add_argument("--offset", type=bounded(bounds.REFERENCE_OFFSET),
                        help="recording seconds at timeline t = 0 (scenario or 0)")
    parser.add_argument("--rate", type=bounded(bounds.REFERENCE_RATE),
                        help="recording seconds per timeline second (scenario or 1)")
    parser.add_argument("--align", nargs="?", action=_AlignAction, metavar="motion|audio",
                        help="find the offset that best lines the recording up: by its "
                        "motion (the default) or by its sound (cross-correlated with the "
                        "scenario's sound track)")
    parser.add_argument("--crop", type=_crop, help="x,y,w,h of the recording to compare")
    parser.add_argument("--mode", default="side_by_side",
                        choices=["side_by_side", "overlay", "wipe", "onion", "difference"])
    parser.add_argument("--opacity", type=bounded(bounds.UNIT_FRACTION), default=0.5,
                        help="overlay opacity (0..1)")
    parser.add_argument("--split", type=bounded(bounds.UNIT_FRACTION), default=0.5,
                        help="wipe split (0..1)")
    parser.add_argument("--csv", type=nonempty_path, help="write per-frame figures as CSV")
    parser.add_argument("--json", dest="json_out", type=nonempty_path,
                        help="write per-frame figures as JSON")


def _reference(args, sc):
    from viewer.compare.reference import ReferenceTrack
    from viewer.sim.scenario import _Fields
    fields = _Fields(str(sc.path) if sc.path else None)
    entry = fields.object(sc.extra.get("reference") or {}, "reference")
    path = args.reference or (fields.path(entry["path"], "reference.path")
                              if entry.get("path") else None)
    if not path:
        raise ScenarioError("give --reference REC or a scenario \"reference\" entry")
    if not args.reference and sc.path is not None and not Path(path).is_absolute():
        path = str(Path(sc.path).parent / path)
    crop = args.crop if args.crop is not None else _entry_crop(entry, sc)
    offset = (args.offset if args.offset is not None
              else _entry_number(entry, "offset", 0.0, bounds.REFERENCE_OFFSET, sc))
    rate = (args.rate if args.rate is not None
            else _entry_number(entry, "rate", 1.0, bounds.REFERENCE_RATE, sc))
    track = ReferenceTrack.load(path, fps=args.reference_fps, offset=offset, rate=rate,
                                crop=crop)
    if crop is not None:
        _check_crop(track, crop, given=args.crop is not None, sc=sc)
    return track


def _check_crop(track, crop, *, given: bool, sc) -> None:
    """The crop lies wholly inside the recording's frames (its first frame's size), checked
    before any rendering: a ``--crop`` outside is bad usage (exit 2), a scenario's
    ``reference.crop`` a malformed field (exit 1) naming the scenario."""
    from viewer.errors import UsageError
    w, h = track.size       # the recording's own pixels (its frames may decode smaller)
    if crop.x + crop.w <= w and crop.y + crop.h <= h:
        return
    text = ",".join(str(v) for v in crop.to_json())
    what = (f"lies {'partly ' if crop.x < w and crop.y < h else ''}outside the "
            f"{w}x{h} recording {track.path}")
    if given:
        raise UsageError(f"--crop {text} {what}")
    raise ScenarioError(f"reference.crop: [{text}] {what}",
                        file=str(sc.path) if sc.path else None)


def _entry_number(entry: dict, key: str, default: float, bound, sc) -> float:
    """A number of the scenario's ``"reference"`` entry inside its documented range."""
    from viewer.sim.scenario import _Fields
    return _Fields(str(sc.path) if sc.path else None).bounded(
        entry.get(key, default), f"reference.{key}", bound)


def _entry_crop(entry: dict, sc):
    value = entry.get("crop")
    if value is None:
        return None
    try:
        return _crop(",".join(str(v) for v in value) if isinstance(value, list) else "")
    except argparse.ArgumentTypeError as err:
        raise ScenarioError(f"reference.crop: {err}",
                            file=str(sc.path) if sc.path else None) from None


class FrameComparer:
    """Compares rendered frames one at a time, as they come: ``add(t, image)`` returns the
    composed comparison frame and appends that frame's figures to ``rows``. Holds no frame
    but the few the onion view blends, so memory does not grow with the frame count."""

    def __init__(self, track, *, mode="side_by_side", view_opts=None) -> None:
        self.track = track
        self.mode = mode
        self.view_opts = dict(view_opts or {})
        self.rows: list[dict] = []
        self._history: deque[np.ndarray] = deque(maxlen=3)

    def add(self, t: float, image: np.ndarray) -> np.ndarray:
        from viewer.compare.metrics import frame_figures
        from viewer.compare.views import compose
        rgb = image[..., :3]
        ref = self.track.frame_at(t, size=(rgb.shape[1], rgb.shape[0]))
        row = {"frame": len(self.rows), "t": round(float(t), 6),
               "recording_t": round(self.track.recording_time(t), 6)}
        if ref is None:
            row.update(mad=None, ssim=None)
            ref = np.zeros_like(rgb)
        else:
            row.update({key: round(v, 6) for key, v in frame_figures(rgb, ref).items()})
        self.rows.append(row)
        opts = dict(self.view_opts)
        if self.mode == "onion":
            opts["previous"] = list(self._history)[::-1]
        composed = compose(self.mode, rgb, ref, **opts)
        self._history.append(rgb)
        return composed


def compare_frames(render_times, rendered, track, *, mode="side_by_side", align=False,
                   view_opts=None):
    """Figures and composed frames for rendered frames against a reference track.
    Returns ``(rows, composed, offset)``."""
    from viewer.compare.align import estimate_offset
    if align:
        track.offset, _ = estimate_offset(np.asarray(render_times), rendered, track)
    comparer = FrameComparer(track, mode=mode, view_opts=view_opts)
    composed = [comparer.add(t, image) for t, image in zip(render_times, rendered)]
    return comparer.rows, composed, track.offset


def write_figures(rows, csv_path=None, json_path=None, *, offset=0.0, rate=1.0) -> None:
    if csv_path:
        with written(csv_path, "--csv", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=["frame", "t", "recording_t", "mad", "ssim"])
            w.writeheader()
            w.writerows(rows)
    if json_path:
        from viewer.sim.events import jsonable
        # contract conventions: NaN and infinities are the strings "nan", "inf", "-inf"
        with written(json_path, "--json") as fh:
            json.dump(jsonable({"offset": offset, "rate": rate, "frames": rows}), fh,
                      indent=1, allow_nan=False)


def run(args) -> int:
    """Renders the scenario and compares it frame by frame as the frames come (nothing
    keeps them). Aligning needs the whole rendering first (its sound, or a thumbnail of
    each frame), so ``--align`` renders twice: once to find the offset, once to compare."""
    from viewer.dat.database import AssetDatabase
    from viewer.media import FrameWriter
    from viewer.render.context import headless_context
    from viewer.sim.mixer import SoundCapture
    if not take_align_dat(args, "vfxviewer compare"):
        return 2
    sc, paths = render_cmd.prepare(
        args, "vfxviewer compare", outputs=[("--csv", args.csv), ("--json", args.json_out)],
        inputs=[("reference", args.reference)], scenario_reference=args.reference is None)
    if sc is None:
        return 2
    track = _reference(args, sc)
    fps = float(sc.fps)
    out_sound = bool(args.out) and not args.no_audio
    view_opts = {"overlay": {"opacity": args.opacity},
                 "wipe": {"split": args.split}}.get(args.mode, {})
    comparer = FrameComparer(track, mode=args.mode, view_opts=view_opts)
    writer = None
    sound = None
    ctx = headless_context()
    db = AssetDatabase(paths)
    try:
        def render(on_frame, capture) -> int:
            try:
                return render_cmd.render_frames(sc, args, ctx, on_frame, db=db,
                                                capture=capture)
            except ViewerError as err:
                raise err.located(file=", ".join(paths)) from err

        capture = SoundCapture() if args.align == "audio" or out_sound else None
        if args.align is not None:
            from viewer.compare.align import align_audio, estimate_offset_of_thumbnails, thumbnail
            thumbs: list[np.ndarray] = []
            n = render((lambda rgba: thumbs.append(thumbnail(rgba)))
                       if args.align == "motion" else (lambda rgba: None), capture)
            if args.align == "audio":
                sound = capture.track(db, fps) if n else None
                track.offset = align_audio(track.path,
                                           sound if sound is not None else np.zeros(0),
                                           SAMPLE_RATE, rate=track.rate)
            elif thumbs:
                track.offset, _ = estimate_offset_of_thumbnails(
                    [k / fps for k in range(n)], thumbs, track)
            thumbs.clear()
            # the sounds are known: render only pictures; a track not needed to align is
            # mixed after them (decoding its Waves while the second render runs would raise
            # the peak memory with every distinct Wave the scenario plays)
            heard, capture = (capture if sound is None else None), None
        else:
            heard = None
        if args.out:
            with writing(args.out, "--out"):
                writer = FrameWriter(args.out, fps=fps)

        def on_frame(rgba: np.ndarray) -> None:
            # the target's pixels are reused for the next frame: keep a copy
            composed = comparer.add(len(comparer.rows) / fps, rgba.copy())
            if writer is not None:
                with writing(args.out, "--out"):
                    writer.write(composed)

        n = render(on_frame, capture)
        heard = capture if capture is not None else heard
        if heard is not None and n:
            sound = heard.track_blocks(db, fps)     # mixed as the writer writes it
        write_figures(comparer.rows, args.csv, args.json_out, offset=track.offset,
                      rate=track.rate)
        if writer is not None:
            with writing(args.out, "--out"):
                if sound is not None and out_sound:
                    writer.set_audio(sound, SAMPLE_RATE)
                writer.close()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    finally:
        ctx.release()
        db.close()
    rows, offset = comparer.rows, track.offset
    valid = [r["mad"] for r in rows if r["mad"] is not None]
    summary = {"frames": len(rows), "offset": round(offset, 6), "rate": track.rate,
               "mean_mad": round(float(np.mean(valid)), 6) if valid else None,
               "worst_frame": (max((r for r in rows if r["mad"] is not None),
                                   key=lambda r: r["mad"])["frame"] if valid else None)}
    from viewer.sim.events import to_line
    print(to_line(summary))
    return 0
