"""Run a whole event by itself: 12 bot-played tables, three seated rounds, final standings.

It starts a private PostgreSQL and Mosquitto, creates the event, runs its hub and one table
server per table (each with its own database; bots play every game on simulated readers), and
acts as the organiser and the players: registration, check-in on their phones, seating, the
round timer, each player confirming their table's result. On the way the broker is restarted
(round 1) and the hub is killed and started again (round 2). At the end the standings the hub
serves are checked against a fresh computation from every table's own log. Exit code 0 when
they are equal, 1 when not.

Everything lives in var/event-demo/ (cleared at start; the programs' logs are in its logs/).
The projector's address is printed, and opened in a browser when there is a display.

examples:
  scorekeeper event-demo                          # make event-demo
  scorekeeper event-demo --game arcanum --tables 6 --rounds 2
  scorekeeper event-demo --option max_rounds=2   # shorter games of Angels & Demons
  scorekeeper event-demo --keep                   # keep serving at the end, until Ctrl-C
  scorekeeper event-demo --pace 0.5 --no-browser  # slower bots, nothing opened
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from scorekeeper.commands.serve import port_number
from scorekeeper.games import DEFAULT_GAME


def _count(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"give {low} to {high}, not {value}")
        return value

    return parse


def _pace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"the pace is 0 to 10 seconds, not {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper event-demo``."""
    parser.add_argument(
        "--tables", type=_count(1, 40), default=12, help="tables (default %(default)s)"
    )
    parser.add_argument(
        "--rounds", type=_count(1, 10), default=3, help="seated rounds (default %(default)s)"
    )
    parser.add_argument(
        "--game", default=DEFAULT_GAME, help="the game every table plays (default "
        "%(default)s)"
    )  # fmt: skip
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option every table plays with (repeatable), e.g. max_rounds=2",
    )
    parser.add_argument(
        "--pace",
        type=_pace,
        default=0.05,
        help="seconds between two actions of a table's bots (default %(default)s)",
    )
    parser.add_argument(
        "--port", type=port_number, default=8100, help="the hub's port (default %(default)s; "
        "another free one when it is taken)"
    )  # fmt: skip
    parser.add_argument(
        "--dir", default="var/event-demo", help="where everything lives (cleared at start)"
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open the projector")
    parser.add_argument(
        "--keep", action="store_true", help="keep serving after the end, until Ctrl-C"
    )
    parser.add_argument(
        "--no-faults",
        action="store_true",
        help="no broker restart and no hub kill on the way",
    )


def run(args: argparse.Namespace) -> int:
    from scorekeeper.event.demo import DemoOptions, EventDemo
    from scorekeeper.games import find_game

    game = find_game(args.game)  # UnknownGame in words before anything starts
    options = DemoOptions(
        tables=args.tables,
        rounds=args.rounds,
        game=game.id,
        options=tuple(args.option),
        pace=args.pace,
        folder=Path(args.dir),
        port=args.port,
        browser=not args.no_browser,
        keep=args.keep,
        faults=not args.no_faults,
    )
    return EventDemo(options).run()
