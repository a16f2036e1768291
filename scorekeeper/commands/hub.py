"""Run an event: many tables, one hub (docs/events.md).

Each table's Pi plays its own game (scorekeeper serve --event FILE) and replicates its log
over MQTT; the hub keeps the event in PostgreSQL: players, rounds, pods, results, standings,
and serves the organiser's console, the projector and the public standings.

  scorekeeper hub create spring --name "Spring open" --game arcanum --tables 12 \\
      --db postgresql+psycopg://scorekeeper@localhost/events --dir /etc/scorekeeper/spring
        # the event, its tables' broker users, the Mosquitto password file, ACL and config,
        # one credentials file per table (FOLDER/tables/3.json: copy it to table 3's Pi)
        # and the organiser token (printed once, saved 0600 in FOLDER/organiser-token)
  scorekeeper hub serve spring --db postgresql+psycopg://... --dir /etc/scorekeeper/spring
        # the hub: http://127.0.0.1:8100/ (console), /projector, /standings
  scorekeeper hub serve spring ... --hub-number 2 --port 8101
        # a second hub process on the same database and broker: it shares the tables' work
"""

from __future__ import annotations

import argparse
import logging
import sys
from fractions import Fraction
from pathlib import Path

from scorekeeper.commands.serve import port_number
from scorekeeper.errors import ConfigError

TOKEN_FILE = "organiser-token"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = sub.add_parser("create", help="create an event, its tables and broker files")
    create.add_argument("event", help="the event's short id (letters, digits, dashes)")
    create.add_argument("--name", default="", help="the event's name as players read it")
    create.add_argument("--game", required=True, help="the game every table plays")
    create.add_argument(
        "--tables", required=True, help="how many tables (12: tables 1 to 12) or their names"
    )
    create.add_argument("--broker-host", default="localhost", help="where tables find the broker")
    create.add_argument("--broker-port", type=port_number, default=1883)
    create.add_argument(
        "--points",
        default="4-3-2-1",
        help='tournament points by rank: "4-3-2-1", "5-3-2-1", '
        '"win-draw-loss" (default %(default)s)',
    )
    create.add_argument(
        "--tie-breaks",
        default=None,
        help="tie-breaks in order, from game_points, table_share, opponents, head_to_head",
    )
    create.add_argument("--pod-size", type=int, default=None, help="the preferred pod size")
    create.add_argument(
        "--no-confirmations",
        action="store_true",
        help="results are final without players confirming them on their phones",
    )
    create.add_argument("--bye-points", default="0", help="tournament points for a bye")
    create.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option every table plays with (repeatable), e.g. max_rounds=2",
    )
    serve = sub.add_parser("serve", help="run the hub of an event")
    serve.add_argument("event", help="the event's short id")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=port_number, default=8100)
    serve.add_argument("--hub-number", type=int, default=1, help="this hub process's number")
    serve.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    serve.add_argument(
        "--demo-kits",
        action="store_true",
        help="give every game the demo's made-up tags, for tables played by bots "
        "(scorekeeper serve --bots; make event-demo)",
    )
    for each in (create, serve):
        each.add_argument(
            "--db",
            default="var/event.db",
            help="the event database: a PostgreSQL URL for a real event "
            "(postgresql+psycopg://user@host/db), or a SQLite file to try it out",
        )
        each.add_argument(
            "--dir",
            required=True,
            metavar="FOLDER",
            help="the event's broker files and credentials (created by create)",
        )


def table_names(text: str) -> list[str]:
    if text.isdigit():  # numbered tables: 1, 2, ... ("Table 3" on every screen)
        count = int(text)
        if not 1 <= count <= 500:
            raise ConfigError("an event has 1 to 500 tables")
        return [str(n) for n in range(1, count + 1)]
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise ConfigError("give the number of tables or their names")
    return names


def run(args: argparse.Namespace) -> int:
    if args.action == "create":
        return _create(args)
    return _serve(args)


def _create(args: argparse.Namespace) -> int:
    from scorekeeper.commands.simulate import _options as game_options
    from scorekeeper.event.broker_files import EventBroker, hash_password, table_user
    from scorekeeper.event.hub_service import EventHub
    from scorekeeper.games import find_game
    from scorekeeper.service.tokens import write_secret_file

    game = find_game(args.game)
    options = game_options(args.option, game.id)  # ConfigError before anything is written
    tables = table_names(args.tables)
    folder = Path(args.dir)
    broker = EventBroker.generate(args.event, tables, host=args.broker_host, port=args.broker_port)
    hub = EventHub(args.db, args.event)
    try:
        hub.db.create_event(args.event, args.name or args.event, game.id)
        for table in tables:
            user = table_user(args.event, table)
            hub.db.add_table(args.event, table, user, hash_password(broker.passwords[user]))
        tie_breaks = args.tie_breaks.split(",") if args.tie_breaks else None
        hub.open(
            options=options,
            points=args.points,
            tie_breaks=tie_breaks,
            preferred=args.pod_size,
            confirmations=not args.no_confirmations,
            bye_points=Fraction(args.bye_points),
        )
        broker.write(folder)
        token = hub.db.new_token(args.event, "organiser")
        write_secret_file(folder / TOKEN_FILE, token + "\n")
        # For systemd/scorekeeper-hub@.service (EnvironmentFile): the database URL may hold
        # a password, so the file is the service user's alone.
        write_secret_file(
            folder / "hub.env",
            f"SCOREKEEPER_EVENT_DB={args.db}\nSCOREKEEPER_HUB_NUMBER=1\n"
            "SCOREKEEPER_HUB_PORT=8100\n",
        )
    finally:
        hub.stop()
    print(f"event {args.event}: {game.name}, {len(tables)} tables")
    print(f"broker files and each table's credentials: {folder.resolve()}")
    print(f"  add {folder.resolve() / 'mosquitto.conf'} to Mosquitto's conf.d (docs/events.md)")
    print(f"  copy {folder.resolve() / 'tables'}/<table>.json to each table's Pi")
    if sys.stdout.isatty():
        print(f"organiser token (shown once): {token}")
    print(f"organiser token saved in {folder.resolve() / TOKEN_FILE} (mode 0600)")
    return 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from scorekeeper.event.api import create_event_app
    from scorekeeper.event.broker_files import read_credentials
    from scorekeeper.event.collections_policy import keep_full_collections_short
    from scorekeeper.event.hub_service import BrokerLogin, EventHub, Kits

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s %(message)s")
    creds = read_credentials(Path(args.dir) / "hub.json")
    broker = BrokerLogin(
        str(creds["host"]), int(creds["port"]), str(creds["username"]), str(creds["password"])
    )
    kits: Kits | None = None
    if args.demo_kits:  # the bots' module only where bots play
        from scorekeeper.event.table_bots import bot_kit

        kits = bot_kit
    hub = EventHub(args.db, args.event, broker=broker, hub_number=args.hub_number, kits=kits)
    keep_full_collections_short()  # a hub's heap only grows: see the module
    hub.start()
    print(f"event hub {args.event}: http://{args.host}:{args.port}/", flush=True)
    print(f"  projector: http://{args.host}:{args.port}/projector", flush=True)
    try:
        uvicorn.run(
            create_event_app(hub),
            host=args.host,
            port=args.port,
            log_config=None,
            log_level=args.log_level,
            server_header=False,
        )
    finally:
        hub.stop()
    return 0
