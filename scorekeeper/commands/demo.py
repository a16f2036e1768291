"""Run a live, bot-played table on simulated readers, and serve it like a real one.

Bots play a seeded game of the chosen game; every move is performed as tags laid on and lifted
off simulated readers, so the demo runs the real reader -> table -> referee -> log -> WebSocket
path. Open the printed URL to watch. Ctrl-C stops; running the demo again resumes the same game
from its log, and the bots follow the table when the organiser undoes or corrects a move. When a
game ends, a new table with the next seed starts about 15 s later. --new ends the current demo
table and deals a fresh game (nothing is deleted: the old table stays, ended, with its log).

examples:
  scorekeeper demo                            # http://127.0.0.1:8000/, one action per second
  scorekeeper demo --pace 0.2 --seats 3 --seed 7
  scorekeeper demo --new                      # start afresh (make demo DEMO_ARGS=--new)
  scorekeeper demo --host 0.0.0.0             # reachable from phones on the network
"""

from __future__ import annotations

import argparse

from scorekeeper.commands.serve import port_number
from scorekeeper.games import DEFAULT_GAME


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper demo``."""
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="seconds between physical actions (default %(default)s)",
    )
    parser.add_argument("--seats", type=int, default=4, help="players (default %(default)s)")
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the first game (default %(default)s)"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default %(default)s)"
    )
    parser.add_argument(
        "--port", type=port_number, default=8000, help="TCP port (default %(default)s)"
    )
    parser.add_argument(
        "--db", default="var/demo.db", help="SQLite database file (default %(default)s)"
    )
    parser.add_argument("--game", default=DEFAULT_GAME, help="game to play (default %(default)s)")
    parser.add_argument(
        "--next-game-after",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help="pause between a finished game and the next (default %(default)s)",
    )
    parser.add_argument(
        "--new", action="store_true", help="end the current demo table and deal a fresh game"
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning", "error"),
        help="log detail (default %(default)s)",
    )


def run(args: argparse.Namespace) -> int:
    """Prepare the demo table, start the bots and serve until Ctrl-C."""
    from scorekeeper.api.logs import setup_logging

    setup_logging(args.log_level)
    from scorekeeper.api.server import ensure_port_free, run_server
    from scorekeeper.commands.serve import announce
    from scorekeeper.errors import ConfigError
    from scorekeeper.service.demo import DemoDriver
    from scorekeeper.service.hub import Hub

    if args.pace < 0:
        raise ConfigError("--pace must not be negative")
    from scorekeeper.store.lock import DatabaseLock

    ensure_port_free(args.host, args.port)
    # As serve does: a second demo (or a server) on this database is refused in words, never
    # two programs appending to one log.
    db_lock = DatabaseLock(args.db).acquire()
    try:
        hub = Hub.open(args.db)
    except BaseException:
        db_lock.release()
        raise
    hub.listen = (args.host, args.port)  # pairing draws QR codes only for a reachable address
    driver = DemoDriver(
        hub,
        game=args.game,
        seats=args.seats,
        seed=args.seed,
        pace=args.pace,
        next_game_after=args.next_game_after,
        on_table=lambda t, s: print(f"scorekeeper demo: table {t}, seed {s}", flush=True),
    )
    try:
        token = hub.tokens.ensure_organiser_token(hub.token_file)
        host = f"[{args.host}]" if ":" in args.host else args.host
        current = driver.prepare(new=args.new)
        announce(f"http://{host}:{args.port}/", token, hub.token_file)
        print(
            f"scorekeeper demo: watch table {current.table_id} at "
            f"http://{host}:{args.port}/#{current.table_id}",
            flush=True,
        )
        game = f" GAME={args.game}" if args.game != DEFAULT_GAME else ""
        print(
            f"scorekeeper demo: to start afresh, stop with Ctrl-C and run 'make demo{game} "
            "DEMO_ARGS=--new' (or 'scorekeeper demo --new'): the current table ends and a "
            "new game is dealt; nothing needs deleting",
            flush=True,
        )
        driver.start()
        run_server(hub, args.host, args.port, args.log_level, on_shutdown=[driver.stop])
    finally:
        driver.stop()
        hub.close()
        db_lock.release()
    return 0
