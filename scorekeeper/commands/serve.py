"""Run the scorekeeper server: the HTTP API, live WebSocket views and the web page.

Every table in the database is rebuilt from its log at start. The first start creates the
organiser token, prints it once and saves it (mode 0600) next to the database, e.g.
var/organiser-token; --new-organiser-token replaces a lost one. Stop with Ctrl-C.

It holds var/scorekeeper.db.lock while it runs: a second server on the same database is
refused. --backup-to writes a backup into a folder (a USB stick) at start and every
--backup-every minutes.

Under systemd (Type=notify) it reports READY=1 once it answers, STATUS lines, watchdog pings
while its event loop is responsive, and STOPPING=1 (see docs/pi-setup.md). --feedback drives a
status LED, a buzzer and confirm/undo buttons on a Raspberry Pi's GPIO.

examples:
  scorekeeper serve                          # http://127.0.0.1:8000/
  scorekeeper serve --host 0.0.0.0 --readers serial:/dev/serial/by-id/usb-bridge
  scorekeeper serve --feedback "led=17,buzzer=27,confirm=22,undo=23"
  scorekeeper serve --backup-to /media/usb/scorekeeper --backup-every 10   # docs/backup.md
  scorekeeper serve --event /etc/scorekeeper/event.json   # a table of an event (docs/events.md)
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from scorekeeper.errors import ConfigError


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {port}")
    return port


def backup_minutes(text: str) -> float:
    """An argparse type: minutes between backups, more than 0 (fractions allowed)."""
    try:
        minutes = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 < minutes <= 7 * 24 * 60:
        raise argparse.ArgumentTypeError(
            f"minutes between backups: more than 0 and at most a week, not {text}"
        )
    return minutes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper serve``."""
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0: the whole LAN; default %(default)s)",
    )
    parser.add_argument(
        "--port", type=port_number, default=8000, help="TCP port (default %(default)s)"
    )
    parser.add_argument(
        "--db", default="var/scorekeeper.db", help="SQLite database file (default %(default)s)"
    )
    parser.add_argument(
        "--readers",
        default=None,
        metavar="SPEC",
        help="reader backend for new tables: sim, serial:/dev/..., spi:0.0",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning", "error"),
        help="log detail (default %(default)s)",
    )
    parser.add_argument(
        "--new-organiser-token",
        action="store_true",
        help="replace the organiser token (the old one stops working)",
    )
    parser.add_argument(
        "--feedback",
        nargs="?",
        const="",
        default=None,
        metavar="PINS",
        help="LED, buzzer and buttons on the Pi's GPIO (needs the [pi] extra); "
        'optional pins, default "led=17,buzzer=27,confirm=22,undo=23" '
        "(BCM numbers; off leaves a part out)",
    )
    parser.add_argument(
        "--backup-to",
        default=None,
        metavar="FOLDER",
        help="write a backup of the database into FOLDER (e.g. a folder on a "
        "USB stick) at start and every --backup-every minutes, keeping "
        "the last 3; the folder is never created (see docs/backup.md)",
    )
    parser.add_argument(
        "--event",
        default=None,
        metavar="FILE",
        help="join an event as one of its tables: FILE is the table's credentials (JSON: "
        "event, table, host, port, username, password); the table plays on its own and "
        "replicates its event games to the hub (see docs/events.md)",
    )
    parser.add_argument(
        "--event-kit",
        default=None,
        metavar="KIT",
        help="with --event: the stored kit (your copy's tags) for the event's games; "
        "default: the only kit stored for the event's game",
    )
    parser.add_argument(
        "--bots",
        action="store_true",
        help="with --event: bots play each game the hub sends, on simulated readers "
        "(make event-demo; the hub must give the demo kit: hub serve --demo-kits)",
    )
    parser.add_argument(
        "--bots-pace",
        type=float,
        default=0.05,
        metavar="SECONDS",
        help="with --bots: seconds between two actions of the bots (default %(default)s)",
    )
    parser.add_argument(
        "--backup-every",
        type=backup_minutes,
        default=None,
        metavar="MINUTES",
        help="minutes between backups with --backup-to (default 10)",
    )


def announce(
    url: str,
    token: str | None,
    token_file: str | os.PathLike[str] | None,
    terminal: bool | None = None,
) -> None:
    """Tell the person who started the server where it is and where the organiser token is.

    A new token itself is printed only when standard output is a terminal (``terminal``, by
    default ``sys.stdout.isatty()``): under systemd, or piped to a file, the output lands in
    the journal or a log that outlives the moment and that others may read, so then only the
    token file's path is printed (the file is mode 0600).
    """
    if terminal is None:
        terminal = sys.stdout.isatty()
    where = os.path.abspath(token_file) if token_file is not None else "no file (kept in memory)"
    print(f"scorekeeper: serving at {url}", flush=True)
    print(
        f"scorekeeper: organiser console at {url}console (it asks for the organiser token once)",
        flush=True,
    )
    if token is not None and terminal:
        print(
            f"scorekeeper: organiser token (shown once, also saved in {where}):\n  {token}",
            flush=True,
        )
    elif token is not None:
        print(
            f"scorekeeper: a new organiser token is saved in {where} (readable by this "
            "account only); it is not printed here, as this output may go to a log",
            flush=True,
        )
    else:
        print(f"scorekeeper: organiser token: see {where}", flush=True)


def run(args: argparse.Namespace) -> int:
    """Start the server and block until Ctrl-C or SIGTERM."""
    from scorekeeper.api.logs import setup_logging

    setup_logging(args.log_level)
    feedback_config = None
    if args.feedback is not None:  # checked before anything starts: a bad spec exits 2
        from scorekeeper.pi.feedback import FeedbackConfig

        feedback_config = FeedbackConfig.parse(args.feedback)
    from scorekeeper.api.server import ensure_port_free, run_server
    from scorekeeper.pi.notify import ServiceNotify, local_url
    from scorekeeper.service.hub import Hub
    from scorekeeper.store.lock import DatabaseLock

    if args.backup_every is not None and args.backup_to is None:
        raise ConfigError("--backup-every needs --backup-to FOLDER (where the backups go)")
    creds = None
    if getattr(args, "event", None) is not None:  # read first: a bad file exits before a start
        from scorekeeper.event.table_credentials import TableCredentials

        creds = TableCredentials.read(args.event)
    if getattr(args, "bots", False) and creds is None:
        raise ConfigError("--bots plays an event's games: give the table's --event FILE too")
    notify = ServiceNotify()
    notify.notifier.status("starting: opening the database")
    ensure_port_free(args.host, args.port)
    # Held until this process ends: a second server on this database, or a restore under it,
    # is refused in words instead of two programs writing one log.
    db_lock = DatabaseLock(args.db).acquire()
    try:
        hub = Hub.open(args.db, default_readers=args.readers)
    except BaseException:
        db_lock.release()
        raise
    hub.listen = (args.host, args.port)  # pairing draws QR codes only for a reachable address
    feedback = None
    backups = None
    agent = None
    bots = None
    try:
        if creds is not None:
            agent = _start_agent(hub, creds, getattr(args, "event_kit", None))
            if args.bots:
                bots = _start_bots(hub, agent, args.bots_pace)
        if args.new_organiser_token:
            token: str | None = hub.tokens.new_organiser_token(hub.token_file)
        else:
            token = hub.tokens.ensure_organiser_token(hub.token_file)
        host = f"[{args.host}]" if ":" in args.host else args.host
        url = f"http://{host}:{args.port}/"
        announce(url, token, hub.token_file)
        sys.stdout.flush()
        if args.backup_to is not None:
            backups = _start_backups(hub, args.db, args.backup_to, args.backup_every or 10.0)
        if feedback_config is not None:
            feedback = _start_feedback(hub, args.feedback)
            if feedback is not None:
                notify.on_ready.append(lambda: feedback.set_serving(True))
        notify.start(local_url(args.host, args.port), url)
        run_server(
            hub, args.host, args.port, args.log_level, on_tick=notify.tick, on_exit=notify.stopping
        )
    finally:
        notify.close()
        if bots is not None:
            bots.stop()
        if agent is not None:
            agent.stop()
        if backups is not None:
            backups.stop()
        if feedback is not None:
            feedback.close()
        hub.close()
        db_lock.release()
    return 0


def _start_bots(hub: Any, agent: Any, pace: float) -> Any:
    """Bots play each event game the agent starts (and those running now), one action every
    ``pace`` seconds (scorekeeper/event/table_bots.py)."""
    from scorekeeper.event.table_bots import TableBots

    bots = TableBots(hub, pace)
    agent.on_game = bots.play
    playing = bots.resume(agent.prefix)
    print(f"scorekeeper: bots play this table's event games ({len(playing)} running now)")
    return bots


def _start_agent(hub: Any, creds: Any, kit: str | None = None) -> Any:
    """Join the event: the table agent replicates the event's games (the hub keeps it as
    ``hub.event_agent``, whose ``notice`` is the round timer's latest announcement)."""
    from scorekeeper.event.table_agent import TableAgent

    agent = TableAgent(hub, creds, kit=kit)
    hub.event_agent = agent
    print(
        f"scorekeeper: table {creds.table} of event {creds.event}, through the broker at "
        f"{creds.host}:{creds.port} (the table plays on when it is away)",
        flush=True,
    )
    agent.start()
    return agent


def _start_backups(hub: Any, db: str, folder: str, minutes: float) -> Any:
    """Start the periodic backup thread (one now, then every ``minutes``); the hub keeps it
    as ``hub.backups`` for the organiser console's line."""
    from scorekeeper.service.backups import KEEP, PeriodicBackup

    backups = PeriodicBackup(db, folder, minutes * 60)
    hub.backups = backups
    print(
        f"scorekeeper: a backup now and every {minutes:g} minutes to {folder} (the last "
        f"{KEEP} kept)",
        flush=True,
    )
    backups.start()
    return backups


def _start_feedback(hub: object, spec: str) -> Any:
    """The GPIO feedback, or None (with a logged error) when the GPIO cannot be used: a missing
    LED must not keep a table from being played."""
    import logging

    from scorekeeper.pi.feedback import open_feedback

    log = logging.getLogger("scorekeeper.feedback")
    return open_feedback(hub, spec, on_error=lambda text: log.error(text))
