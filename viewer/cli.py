"""Command line: ``vfxviewer`` (reference: docs/cli.md).

Each subcommand lives in ``viewer/commands/<name>.py`` with ``add_arguments(parser)`` and
``run(args) -> int``; this module only registers them, so layers can grow their commands
without touching each other. Exit status: 0 success, 1 input failure (one line on stderr),
2 bad usage.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from viewer.errors import UsageError, ViewerError

DESCRIPTION = ("Retail-exact viewer for the visual effects and projectiles of the Asheron's "
               "Call retail client. With no command it opens the interactive viewer on the "
               "synthetic default assets.")
EPILOG = ("Reference: docs/cli.md (every command, its output and the scenario file) and "
          "docs/retail-rules.md (the retail rules the runtime follows) in the source "
          "repository. Exit status: 0 success, 1 bad input (one line on stderr), 2 bad usage.")

# (command path, module under viewer.commands, help)
COMMANDS: list[tuple[tuple[str, ...], str, str]] = [
    (("dat", "ls"), "dat_ls", "list the files in a DAT container"),
    (("dat", "show"), "dat_show", "decode one record as JSON"),
    (("dat", "verify"), "dat_verify", "decode every record and account for every byte"),
    (("resolve",), "resolve", "resolve a typed effect through a PhysicsScriptTable"),
    (("trace",), "trace", "run the simulation headless and print JSON Lines"),
    (("render",), "render", "render headless to PNG, PNG sequence or MP4"),
    (("replay",), "replay", "read a packet capture and print its object and effect events"),
    (("screenshot",), "screenshot", "render the viewer (3D view and panels) to a PNG"),
    (("open",), "open_viewer", "open the interactive viewer on a DAT"),
    (("compare",), "compare", "compare a scenario's rendering with a recording"),
    (("audit",), "audit", "check DAT files against the retail End-of-Retail facts"),
    (("xref",), "xref", "what a record uses and what uses it, across the DATs"),
    (("export",), "export", "a Setup and its animation as a glTF 2.0 binary (.glb)"),
    (("gallery",), "gallery", "render every PhysicsScript to thumbnails and an index.html"),
]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # bad usage -> exit 2, one line
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="vfxviewer", description=DESCRIPTION, epilog=EPILOG)
    top = parser.add_subparsers(dest="command", parser_class=_Parser)
    groups: dict[str, argparse._SubParsersAction] = {}
    for path, module_name, help_text in COMMANDS:
        try:
            module = importlib.import_module(f"viewer.commands.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"viewer.commands.{module_name}":
                raise
            continue  # not built yet
        if len(path) == 1:
            sub = top.add_parser(path[0], help=help_text)
        else:
            if path[0] not in groups:
                group_parser = top.add_parser(path[0], help=f"{path[0]} subcommands")
                groups[path[0]] = group_parser.add_subparsers(dest=f"{path[0]}_command",
                                                              parser_class=_Parser,
                                                              required=True)
            sub = groups[path[0]].add_parser(path[1], help=help_text)
        module.add_arguments(sub)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line; Ctrl-C (SIGINT) and SIGTERM end it with one line and exit 130 /
    143, after the outputs half written are removed (viewer/commands/interrupts.py)."""
    from viewer.commands.interrupts import Terminated, stop_on_signals, stopped_message
    try:
        with stop_on_signals():
            return _main(argv)
    except (KeyboardInterrupt, Terminated) as exc:
        line, status = stopped_message(exc)
        print(f"vfxviewer: {line}", file=sys.stderr)
        return status


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_run", None) is None:
        if args.command is None:
            args = parser.parse_args(["open"] if "open" in _registered(parser) else [])
            if getattr(args, "_run", None) is None:
                parser.print_help()
                return 2
        else:
            parser.print_help()
            return 2
    from viewer.commands.dat_args import say_dat_set_notes
    say_dat_set_notes()   # a folder given as a DAT: the retail members it lacks, once
    try:
        return int(args._run(args) or 0)
    except UsageError as err:  # bad usage found once the inputs were open: exit 2
        print(f"{parser.prog} {args.command}: error: {err.message}", file=sys.stderr)
        return 2
    except ViewerError as err:
        print(f"vfxviewer: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except OSError as err:  # a write only the device could refuse (/dev/full): one line
        where = f"{err.filename}: " if err.filename else ""
        print(f"vfxviewer: {where}{err.strerror or err}", file=sys.stderr)
        return 1
    finally:
        say_dat_set_notes(False)   # this run only (main may be called again in process)


def _registered(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


if __name__ == "__main__":
    sys.exit(main())
