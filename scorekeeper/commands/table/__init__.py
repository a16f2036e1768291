"""The organiser's console for a running server: create, start, watch, undo, correct, pair.

It talks HTTP to a running 'scorekeeper serve' (see docs/server.md) with the organiser token:
--token TOKEN, or else the token file next to the server's database (--db, default
var/scorekeeper.db: var/organiser-token). A table is run step by step in docs/tables.md.

examples:
  scorekeeper table list
  scorekeeper table create --game angels-and-demons --seats "Ann,Bea,Cid" \\
                           --layout mat.yaml --kit club-copy --readers serial:/dev/ttyUSB0 --start
  scorekeeper table show t1                      # what it waits for, scores, prompts, feed
  scorekeeper table show t1 --seat 2 --json      # what seat 2's phone sees, as JSON
  scorekeeper table input t1 "+talon H1b1"       # feed an input a reader missed
  scorekeeper table undo t1                      # take back the last accepted input (asks)
  scorekeeper table correct t1 "-talon H2b1"     # replace the last accepted input (a misread)
  scorekeeper table undo t1 --yes                # without asking (a script)
  scorekeeper table decide t1 1 waiting yes      # answer a prompt for seat 1 (or: organiser)
  scorekeeper table pause t1 / start t1 / end t1
  scorekeeper table archive t1 / unarchive t1    # hide a finished table (its log stays)
  scorekeeper table delete t1 --yes              # an ended or archived table, log and all
  scorekeeper table pair t1 2                    # a pairing code for seat 2's phone
  scorekeeper table --server http://192.168.1.20:8000 list

exit status:
  0  done (an input: accepted)
  1  the server said no (its own words are printed), an input was refused (its rule, reason
     and hint are printed), or no server answers at --server
  2  bad arguments, a layout or kit file with an error (file:line), or no organiser token
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from scorekeeper.commands.table.client import (
    DEFAULT_DB,
    DEFAULT_SERVER,
    Client,
    ConsoleError,
    _add_common,
    connect,
    organiser_token,
    positive_seconds,
    with_client,
)
from scorekeeper.commands.table.create import _ask_options, _create
from scorekeeper.commands.table.manage import _archive, _delete, _pair, _status, _unpair
from scorekeeper.commands.table.play import _after_verdict, _decide, _input, _undo
from scorekeeper.commands.table.show import _answer_words, _input_words, _list, _show
from scorekeeper.games import game_ids

# What other modules and tests import from ``scorekeeper.commands.table`` (the command is a
# package of modules, one per kind of action; these names stay importable from here).
__all__ = [
    "ACTIONS",
    "DEFAULT_DB",
    "DEFAULT_SERVER",
    "Client",
    "ConsoleError",
    "_add_common",
    "_after_verdict",
    "_answer_words",
    "_ask_options",
    "_input_words",
    "add_arguments",
    "connect",
    "organiser_token",
    "positive_seconds",
    "run",
    "with_client",
]

FEED_LINES = 10


def _seats(text: str) -> int | list[str]:
    """``--seats``: a player count (``3``) or the players' names (``Ann,Bea,Cid``)."""
    value = text.strip()
    if value.isdigit():
        return int(value)
    names = [name.strip() for name in value.split(",")]
    if not value or any(not name for name in names):
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither a number of players nor names separated by commas "
            '(e.g. 3 or "Ann,Bea,Cid")'
        )
    return names


def _option(text: str) -> tuple[str, str]:
    """``--option key=value``: one game option (the server converts the value to its type)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not key=value (e.g. mode=advanced)")
    return key.strip(), value.strip()


def _who(text: str) -> int | None:
    """The seat a decision is made for: a seat number, or ``organiser`` (None)."""
    if text.strip().lower() in ("organiser", "organizer"):
        return None
    if text.strip().isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"{text!r} is neither a seat number nor 'organiser'")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the actions of ``scorekeeper table`` and their options."""
    _add_common(parser, suppress=False)
    shared = argparse.ArgumentParser(add_help=False)
    _add_common(shared, suppress=True)
    common = [shared]
    sub = parser.add_subparsers(dest="table_command", metavar="ACTION", required=True)

    def action(name: str, help_text: str, with_json: bool = False) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=common, help=help_text, description=help_text)
        if with_json:
            p.add_argument("--json", action="store_true", help="print the server's JSON answer")
        return p

    listing = action(
        "list", "every table: status, seats and scores, what it waits for", with_json=True
    )
    listing.add_argument(
        "--archived", action="store_true", help="archived tables too (hidden by default)"
    )

    create = action("create", "create a table (and start it with --start)", with_json=True)
    create.add_argument("--game", required=True, help=f"the game id: {', '.join(game_ids())}")
    create.add_argument(
        "--seats",
        required=True,
        type=_seats,
        help='a number of players, or their names in turn order: "Ann,Bea,Cid"',
    )
    create.add_argument("--name", default="", help="the table's name (default: the game's)")
    create.add_argument(
        "--option",
        action="append",
        type=_option,
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. mode=advanced (repeat); an option that selects the game's "
        "data (a board profile...) takes an entry's name or a file",
    )
    # An option that selects a game's data (a board profile...) takes an entry's name or a
    # file: --option board=mine.yaml. Options a person must choose are asked on a terminal.
    create.add_argument("--board", metavar="NAME|FILE", help=argparse.SUPPRESS)
    create.add_argument(
        "--layout",
        metavar="FILE",
        help="a zone layout file (reader id: zone), checked here first "
        "(default: the game's default layout)",
    )
    create.add_argument(
        "--kit",
        metavar="NAME",
        help="a kit stored on the server (scorekeeper kit list), or a kit file "
        "(.yaml/.yml/.json) read and checked here",
    )
    create.add_argument(
        "--readers",
        metavar="SPEC",
        help="reader backend: sim, serial:/dev/..., spi:0.0 (default: the server's --readers)",
    )
    create.add_argument("--start", action="store_true", help="start the table at once")

    for name, help_text in (
        ("start", "start or resume a table"),
        ("pause", "pause a running table (inputs are refused meanwhile)"),
        ("end", "end a table for good (undo and corrections still work)"),
    ):
        p = action(name, help_text, with_json=True)
        p.add_argument("table_id", metavar="ID")

    for name, help_text in (
        ("archive", "archive a table that is over: hidden from the lists, log kept"),
        ("unarchive", "list an archived table again"),
    ):
        p = action(name, help_text, with_json=True)
        p.add_argument("table_id", metavar="ID")
    delete = action(
        "delete", "delete an ended or archived table and its log for good (asks)", with_json=True
    )
    delete.add_argument("table_id", metavar="ID")
    delete.add_argument("--yes", action="store_true", help="do not ask (needed without a terminal)")

    undo = action(
        "undo", "take back the last accepted input (shows which, then asks)", with_json=True
    )
    undo.add_argument("table_id", metavar="ID")
    undo.add_argument(
        "--yes",
        action="store_true",
        help="do not ask (needed without a terminal); the server still refuses "
        "if the table moved on since the preview",
    )
    for name, help_text in (
        ("input", 'force-feed one input in its one-line form, e.g. "+talon H1b1"'),
        (
            "correct",
            "replace the last accepted input with this one (a misread fixed; "
            "shows which, then asks)",
        ),
    ):
        p = action(name, help_text, with_json=True)
        p.add_argument("table_id", metavar="ID")
        p.add_argument(
            "line",
            nargs="+",
            metavar="LINE",
            help='the input, quoted: "+talon H1b1", "-meld:0 D4b1", '
            '"tag +talon 04A1B2C3D4E5F6", "decide 1 waiting yes"',
        )
        if name == "correct":
            p.add_argument(
                "--yes", action="store_true", help="do not ask (needed without a terminal)"
            )

    decide = action(
        "decide", "answer a pending prompt for a seat or as the organiser", with_json=True
    )
    decide.add_argument("table_id", metavar="ID")
    decide.add_argument(
        "who",
        metavar="SEAT|organiser",
        type=_who,
        help="the seat number that answers, or 'organiser'",
    )
    decide.add_argument("prompt", metavar="PROMPT", help="the prompt id, e.g. draw_count")
    decide.add_argument("answer", metavar="ANSWER", help="one of the prompt's answers")

    show = action(
        "show", "the organiser view of a table (or a seat's view with --seat)", with_json=True
    )
    show.add_argument("table_id", metavar="ID")
    show.add_argument("--seat", type=int, metavar="N", help="show what seat N sees instead")
    show.add_argument(
        "--feed",
        type=int,
        default=FEED_LINES,
        metavar="N",
        help=f"how many recent feed lines to show (default {FEED_LINES})",
    )

    pair = action("pair", "a single-use pairing code and URL for a seat's phone", with_json=True)
    pair.add_argument("table_id", metavar="ID")
    pair.add_argument("seat", type=int, metavar="SEAT")

    unpair = action("unpair", "withdraw every phone token of a seat (a lost phone)")
    unpair.add_argument("table_id", metavar="ID")
    unpair.add_argument("seat", type=int, metavar="SEAT")


ACTIONS: dict[str, Callable[[Client, argparse.Namespace], int]] = {
    "list": _list,
    "create": _create,
    "start": _status,
    "pause": _status,
    "end": _status,
    "undo": _undo,
    "input": _input,
    "correct": _input,
    "decide": _decide,
    "show": _show,
    "pair": _pair,
    "unpair": _unpair,
    "archive": _archive,
    "unarchive": _archive,
    "delete": _delete,
}


def run(args: argparse.Namespace) -> int:
    """Run ``scorekeeper table ACTION``; returns the exit code (see the module docstring)."""
    return with_client(args, "table", lambda client: ACTIONS[args.table_command](client, args))
