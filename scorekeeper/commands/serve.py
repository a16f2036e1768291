"""Run the scorekeeper server: the HTTP API, live WebSocket views and the web page.

Every table in the database is rebuilt from its log at start. The first start creates the
organiser token, prints it once and saves it (mode 0600) next to the database, e.g.
var/organiser-token; --new-organiser-token replaces a lost one. Stop with Ctrl-C.

examples:
  scorekeeper serve                          # http://127.0.0.1:8000/
  scorekeeper serve --host 0.0.0.0 --readers serial:/dev/serial/by-id/usb-bridge
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper serve``."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0: the whole LAN; default %(default)s)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default %(default)s)")
    parser.add_argument("--db", default="var/scorekeeper.db",
                        help="SQLite database file (default %(default)s)")
    parser.add_argument("--readers", default=None, metavar="SPEC",
                        help="reader backend for new tables: sim, serial:/dev/..., spi:0.0")
    parser.add_argument("--log-level", default="info",
                        choices=("debug", "info", "warning", "error"),
                        help="log detail (default %(default)s)")
    parser.add_argument("--new-organiser-token", action="store_true",
                        help="replace the organiser token (the old one stops working)")


def announce(url: str, token: str | None, token_file: object) -> None:
    """Tell the person who started the server where it is and, once, the organiser token."""
    print(f"scorekeeper: serving at {url}", flush=True)
    if token is not None:
        print(f"scorekeeper: organiser token (shown once, also saved in {token_file}):\n"
              f"  {token}", flush=True)
    else:
        print(f"scorekeeper: organiser token: see {token_file}", flush=True)


def run(args: argparse.Namespace) -> int:
    """Start the server and block until Ctrl-C or SIGTERM."""
    from scorekeeper.api.logs import setup_logging

    setup_logging(args.log_level)
    from scorekeeper.api.server import run_server
    from scorekeeper.service.hub import Hub

    hub = Hub.open(args.db, default_readers=args.readers)
    try:
        if args.new_organiser_token:
            token: str | None = hub.tokens.new_organiser_token(hub.token_file)
        else:
            token = hub.tokens.ensure_organiser_token(hub.token_file)
        host = f"[{args.host}]" if ":" in args.host else args.host
        announce(f"http://{host}:{args.port}/", token, hub.token_file)
        sys.stdout.flush()
        run_server(hub, args.host, args.port, args.log_level)
    finally:
        hub.close()
    return 0
