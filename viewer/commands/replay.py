"""``vfxviewer replay CAPTURE [--guid 0x...] [--dat DAT] [--json]`` (contract section 7).

Prints one line per decoded message of the kinds in wire.md section 4, in capture time:
JSON Lines with ``--json``, a readable line otherwise. With ``--dat`` the captured objects and
effects are handed to the viewer's playback (``viewer.wire.replay.replay_events``) when that is
available; without a GUI it prints the scenario events as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys

from viewer.errors import WireError
from viewer.wire.pipeline import ReplayStats, iter_messages
from viewer.wire.replay import message_json, message_text, replay_events, wants


def _int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("capture", help="pcap or pcapng capture of an Asheron's Call session")
    parser.add_argument("--guid", type=_int, default=None,
                        help="only messages naming this object (decimal or 0x hex)")
    parser.add_argument("--dat", default=None,
                        help="client DAT: play the captured objects and effects")
    parser.add_argument("--json", action="store_true", help="JSON Lines output")
    parser.add_argument("--all", action="store_true",
                        help="also list messages outside the decoded set")
    parser.add_argument("--stats", action="store_true",
                        help="print transport and decode counters on stderr at the end")


def run(args: argparse.Namespace) -> int:
    if args.dat is not None:
        return _run_playback(args)
    stats = ReplayStats()
    out = sys.stdout
    for item in iter_messages(args.capture, stats):
        if item.message is None and not args.all:
            continue
        if not wants(item.message, args.guid):
            continue
        if args.json:
            out.write(json.dumps(message_json(item), allow_nan=False) + "\n")
        else:
            out.write(message_text(item) + "\n")
    if stats.capture.records == 0:
        raise WireError("capture holds no packets", file=args.capture)
    if args.stats:
        print(json.dumps(stats.as_dict()), file=sys.stderr)
        for line in stats.first_errors:
            print(line, file=sys.stderr)
    return 0


def _run_playback(args: argparse.Namespace) -> int:
    timeline = replay_events(args.capture, args.guid)
    try:  # the runtime/GUI side owns playback; until it exists, print the timeline
        from viewer.commands.replay_playback import play  # type: ignore
    except ModuleNotFoundError:
        play = None
    if play is not None:
        return int(play(args, timeline) or 0)
    for obj in timeline["objects"]:
        print(json.dumps({"object": obj}, allow_nan=False))
    for ev in timeline["events"]:
        print(json.dumps(ev, allow_nan=False))
    return 0
