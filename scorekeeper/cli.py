"""The ``scorekeeper`` command line: one sub-command per module in ``scorekeeper.commands``.

Sub-command modules are imported only when chosen, so ``scorekeeper --help`` and each command
start quickly on a Pi. Each module exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int`` (the exit code).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from scorekeeper import __version__
from scorekeeper.errors import ScorekeeperError

# name -> (module, one-line help). Explicit: a command exists because it is listed here.
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("scorekeeper.commands.serve", "run the server and live dashboard"),
    "demo": ("scorekeeper.commands.demo", "run a live, bot-played table on simulated readers"),
    "hub": ("scorekeeper.commands.hub", "run an event: many tables, one hub (docs/events.md)"),
    "event-demo": ("scorekeeper.commands.event_demo", "run a 12-table bot-played event by itself"),
    "enroll": ("scorekeeper.commands.enroll", "tag a physical copy of a game, card by card"),
    "kit": ("scorekeeper.commands.kit", "list, export and import kits (tag registries)"),
    "replay": ("scorekeeper.commands.replay", "run a table script and check its expectations"),
    "simulate": (
        "scorekeeper.commands.simulate",
        "play a seeded bot game and write it as a table script",
    ),
    "export": ("scorekeeper.commands.export", "export a running or finished game as JSON"),
    "table": ("scorekeeper.commands.table", "organiser console: create, start, undo, correct"),
    "mat": ("scorekeeper.commands.mat", "draw a printable zone mat (SVG at real size)"),
    "data": (
        "scorekeeper.commands.data",
        "list, show, check, import, export and save game data (board profiles...)",
    ),
    "board": ("scorekeeper.commands.board", "list, show, check and enter board profiles"),
    "doctor": (
        "scorekeeper.commands.doctor",
        "check the readers: bridge, chips, live read rates, what to fix",
    ),
    "sim": (
        "scorekeeper.commands.sim",
        "lay tags on a running table's readers (dry runs without hardware)",
    ),
    "backup": (
        "scorekeeper.commands.backup",
        "back up the database, also while the server runs (includes the -wal file)",
    ),
    "restore": (
        "scorekeeper.commands.restore",
        "put a backup back as the database (the server stopped; nothing deleted)",
    ),
}


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorekeeper",
        description="RFID companion for physical card and board games.",
    )
    parser.add_argument("--version", action="version", version=f"scorekeeper {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, (module_name, help_text) in COMMANDS.items():
        if name == chosen:
            module = importlib.import_module(module_name)
            cmd = sub.add_parser(
                name,
                help=help_text,
                description=module.__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
            module.add_arguments(cmd)
            cmd.set_defaults(_run=module.run)
        else:
            sub.add_parser(name, help=help_text)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    args = parser.parse_args(args_list)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        code = int(run(args))
        sys.stdout.flush()  # a closed pipe shows here, inside the try, not at exit
        return code
    except ScorekeeperError as exc:
        print(f"scorekeeper {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`scorekeeper ... | head`): stop quietly, as
        # Unix tools do. stdout is pointed at /dev/null so the interpreter's final flush of
        # what is still buffered cannot raise again on exit.
        _quiet_stdout()
        return 141  # 128 + SIGPIPE, what a shell reports for a tool killed by a closed pipe


def _quiet_stdout() -> None:
    """Send the rest of stdout to /dev/null (after a broken pipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
