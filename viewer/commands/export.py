"""``vfxviewer export DAT... --setup DID [--animation DID | --motion CMD] --out FILE.glb``
(docs/cli.md section 13): a Setup as a glTF 2.0 binary (viewer/commands/gltf_export.py):
one node per part with its mesh, materials and PNG textures, the placement frame as the
rest pose, and with ``--animation`` or ``--motion`` the part frames of every render frame
(``--fps``, ``--seconds``) as animation channels, from the same frame loop as
``trace --poses``.

Bad usage (exit 2): ``--out`` not a ``.glb``, ``--fps`` / ``--seconds`` without an animation,
an output that is one of the DATs (viewer.commands.overwrite). A DID the DATs lack or of
another type, or a record that cannot be read, is one line naming file, DID and offset
(exit 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from viewer import bounds
from viewer.commands.dat_args import DATS_HELP, dat_files
from viewer.commands.output import nonempty_path, written
from viewer.commands.overwrite import check_outputs
from viewer.commands.selection import bounded, parse_did, usage_error
from viewer.errors import ViewerError

PROG = "vfxviewer export"
FPS_DEFAULT = 30.0
SECONDS_DEFAULT = 5.0


def parse_motion(text: str) -> int:
    """A motion command as a scenario ``motion`` event takes it: a full 32-bit command
    (decimal or 0x hex), a 16-bit wire value or a command name (the ace-modern catalog)."""
    from viewer.errors import ScenarioError
    from viewer.sim.animation.commands import resolve_command
    try:
        return resolve_command(str(text))
    except ScenarioError as err:
        raise argparse.ArgumentTypeError(err.message) from None


parse_motion.__name__ = "CMD"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dats", metavar="DAT", nargs="+", help=DATS_HELP)
    parser.add_argument("--setup", metavar="DID", type=parse_did, required=True,
                        help="the Setup: one glTF node per part")
    anim = parser.add_mutually_exclusive_group()
    anim.add_argument("--animation", metavar="DID", type=parse_did,
                      help="an Animation, played as the Setup's DefaultAnimation is "
                           "(30 fps, looping; the Setup's motion table left out)")
    anim.add_argument("--motion", metavar="CMD", type=parse_motion,
                      help="a motion command (full 32-bit, wire value or name) the Setup's "
                           "motion table performs at t = 0")
    parser.add_argument("--out", metavar="FILE.glb", type=nonempty_path, required=True,
                        help="the glTF binary to write")
    parser.add_argument("--fps", type=bounded(bounds.EXPORT_FPS), default=None,
                        help=f"animation keys per second (default {FPS_DEFAULT:g}; "
                             f"{bounds.EXPORT_FPS.span()})")
    parser.add_argument("--seconds", type=bounded(bounds.EXPORT_SECONDS), default=None,
                        help=f"animation length (default {SECONDS_DEFAULT:g}; "
                             f"{bounds.EXPORT_SECONDS.span()})")


def _usage(args) -> int | None:
    if Path(args.out).suffix.lower() != ".glb":
        return usage_error(PROG, f"--out {args.out}: write a glTF binary (a name ending "
                                 "in .glb)")
    if args.animation is None and args.motion is None:
        given = [o for o, v in (("--fps", args.fps), ("--seconds", args.seconds))
                 if v is not None]
        if given:
            return usage_error(PROG, f"{' and '.join(given)} sample an animation: give "
                                     "--animation or --motion")
    return None


def export_glb(db, setup_did: int, *, animation: int | None = None, motion: int | None = None,
               fps: float = FPS_DEFAULT, seconds: float = SECONDS_DEFAULT,
               warn=None) -> bytes:
    """The GLB of Setup ``setup_did`` (and its animation when one is given) on ``db``.
    ``warn``: called with one line per record the Setup or the run names that no open DAT
    holds (their parts are drawn without a mesh, their effects skipped)."""
    from viewer.commands.gltf_export import GltfBuilder, glb_bytes, sample_poses
    db.setup(setup_did)                       # "DID X is a Y, not a Setup" / not found
    if animation is not None:
        db.animation(animation)
    said: list[str] = []

    def note(ev: dict) -> None:
        line = _note_line(ev)
        if line is not None and line not in said:
            said.append(line)
            if warn is not None:
                warn(line)

    poses = None
    if animation is not None or motion is not None:
        poses = sample_poses(db, setup_did, motion=motion, animation=animation, fps=fps,
                             seconds=seconds, notes=note)
    builder = GltfBuilder(db, setup_did)
    gltf = builder.build(poses)
    for gid in builder.absent:
        note({"event": "missing", "what": "GfxObj", "did": gid, "by": setup_did})
    return glb_bytes(gltf, builder.blob.data)


def _note_line(ev: dict) -> str | None:
    """The warning a run's event gives: a record no open DAT holds (its part has no mesh,
    its effect is skipped), a motion the Setup's table does not perform."""
    if ev.get("event") == "missing":
        return (f"missing {ev.get('what')} 0x{int(ev.get('did') or 0):08X} (named by "
                f"0x{int(ev.get('by') or 0):08X}): skipped")
    if ev.get("event") == "motion" and not ev.get("applied", True):
        return (f"motion 0x{int(ev.get('command') or 0):08X} not performed: the Setup has no "
                "motion table that does it (the parts keep their pose)")
    return None


def run(args: argparse.Namespace) -> int:
    from viewer.dat.database import AssetDatabase

    bad = _usage(args)
    if bad is not None:
        return bad
    files = dat_files(args.dats)
    checked = check_outputs(PROG, [("--out", args.out)], [("DAT", p) for p in files])
    if checked is None:
        return 2
    out = checked[0]
    fps = FPS_DEFAULT if args.fps is None else args.fps
    seconds = SECONDS_DEFAULT if args.seconds is None else args.seconds
    try:
        with AssetDatabase(files) as db:
            data = export_glb(db, args.setup, animation=args.animation, motion=args.motion,
                              fps=fps, seconds=seconds,
                              warn=lambda line: print(f"vfxviewer: warning: {line}",
                                                      file=sys.stderr))
    except ViewerError as err:  # a record the Setup names: say which DATs were read
        raise err.located(file=", ".join(str(f) for f in files)) from err
    with written(out, "--out", "wb") as fh:
        fh.write(data)
    return 0
