"""Export a running or finished game as JSON (public while it is played: no hidden cards).

While a table is being played the export is the public one: counts, never the identity of a
hidden card. Once the table has ended it is the full one; --organiser always exports everything
(the whole log, every card), for the organiser's archive.

examples:
  scorekeeper export t1                       # to standard output
  scorekeeper export t1 --out game.json --organiser
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scorekeeper.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper export``."""
    parser.add_argument("table_id", metavar="TABLE_ID", help="the table to export, e.g. t1")
    parser.add_argument(
        "--db", default="var/scorekeeper.db", help="SQLite database file (default %(default)s)"
    )
    parser.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    parser.add_argument(
        "--organiser", action="store_true", help="export everything, hidden cards included"
    )


def run(args: argparse.Namespace) -> int:
    """Write the export; 0 on success (errors exit 2 through the CLI)."""
    from scorekeeper.errors import StoreError
    from scorekeeper.service.hub import store_class
    from scorekeeper.store.export import export_game

    db = Path(args.db)
    if "://" not in args.db and not db.exists():
        raise StoreError(f"{db}: no such database (give the server's file with --db)")
    store = store_class()(args.db if "://" in args.db else f"sqlite:///{db}")
    try:
        data = export_game(store, args.table_id, audience="organiser" if args.organiser else None)
    finally:
        store.close()
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
    return 0
