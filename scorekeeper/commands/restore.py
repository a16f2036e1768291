"""Put a backup back as the database. The server must be stopped first.

The backup is checked before anything changes (a SQLite file, SQLite's quick_check, a
scorekeeper store, every table's log readable). Nothing is deleted: the current database and
its -wal, -shm and marker files are renamed to <name>.before-restore-<date>-<time>. It asks
before it replaces a database that holds tables or kits (--yes: do not ask).

examples:
  sudo systemctl stop scorekeeper
  sudo -u scorekeeper /opt/scorekeeper/venv/bin/scorekeeper restore \\
      /media/usb/scorekeeper-20261201-230312.db --db /var/lib/scorekeeper/scorekeeper.db
  sudo systemctl start scorekeeper
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper restore``."""
    parser.add_argument("src", metavar="SRC", help="the backup file to put back")
    parser.add_argument(
        "--db",
        default="var/scorekeeper.db",
        help="the database to replace (default %(default)s; the service's: "
        "/var/lib/scorekeeper/scorekeeper.db)",
    )
    parser.add_argument(
        "--yes",
        action="store_true",
        help="do not ask before replacing a database (needed without a terminal)",
    )


def run(args: argparse.Namespace) -> int:
    """Check the backup, ask, restore, and say what came back and where the old files went."""
    from scorekeeper.errors import ScorekeeperError
    from scorekeeper.store.backup import Contents, check_store, current_contents, restore
    from scorekeeper.store.lock import DatabaseLock

    lock = DatabaseLock(args.db).acquire(doing="restore")
    try:
        incoming = check_store(args.src, quiet=True)
        now = current_contents(args.db)
        if isinstance(now, Contents) and not now.tables and not now.kits:
            now = None  # an empty store (a first start): nothing is lost by replacing it
        if now is not None and not args.yes:
            held = now.words() if isinstance(now, Contents) else f"unreadable: {now}"
            question = (
                f"replace {args.db} ({held}) with {args.src} ({incoming.words()})? "
                "The current files are moved aside, not deleted"
            )
            if not sys.stdin.isatty():
                raise ScorekeeperError(
                    f"not confirmed: there is no terminal to ask on; add "
                    f"--yes to replace {args.db} ({held}) with {args.src}"
                )
            answer = input(f"{question}. [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("nothing changed")
                return 1
        done = restore(args.db, args.src, lock=lock)
    finally:
        lock.release()
    print(f"restored {done.source} into {done.db}: {done.contents.words()}")
    for table in done.contents.tables:
        print(f"  {table.table_id} {table.name!r}: {table.inputs:,} inputs")
    if done.moved:
        print("the database it replaced was moved aside (nothing was deleted):")
        for old, new in done.moved:
            print(f"  {old} -> {new}")
    else:
        print(f"there was no database at {done.db} before")
    print("start the server again: sudo systemctl start scorekeeper (or scorekeeper serve)")
    return 0
