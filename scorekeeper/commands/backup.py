"""Back up the database, also while the server is running: a copy you can restore.

Copying var/scorekeeper.db alone is NOT a backup: the latest inputs may still be only in
var/scorekeeper.db-wal beside it. This command reads the database through SQLite (which sees
the -wal file) and writes one checked file. DEST is a file, or a folder (the file is then
called scorekeeper-<date>-<time>.db). Put it back with `scorekeeper restore`.

examples:
  scorekeeper backup /media/usb/      # writes /media/usb/scorekeeper-20261201-230312.db
  scorekeeper backup friday.db --db /var/lib/scorekeeper/scorekeeper.db
"""

from __future__ import annotations

import argparse
import sys

# Stores larger than this (in 4 KiB pages: about 10 MB) show their progress while copied.
PROGRESS_FROM_PAGES = 2560


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorekeeper backup``."""
    parser.add_argument(
        "dest", metavar="DEST", help="backup file, or a folder for a dated file name"
    )
    parser.add_argument(
        "--db",
        default="var/scorekeeper.db",
        help="the database to back up (default %(default)s; the service's: "
        "/var/lib/scorekeeper/scorekeeper.db)",
    )


class _Progress:
    """Prints ``copying: 40% of 52.3 MB`` on stderr every 10% for a big store."""

    def __init__(self) -> None:
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        if total < PROGRESS_FROM_PAGES or total <= 0:
            return
        tenth = done * 10 // total
        if tenth > self.shown:
            self.shown = tenth
            print(
                f"copying: {tenth * 10}% of about {total * 4096 / 1e6:.0f} MB",
                file=sys.stderr,
                flush=True,
            )


def run(args: argparse.Namespace) -> int:
    """Write the backup and say what it holds."""
    from scorekeeper.store.backup import backup, megabytes

    done = backup(args.db, args.dest, progress=_Progress())
    print(
        f"backed up {args.db} to {done.path}: {done.contents.words()}, "
        f"{megabytes(done.contents.size)}, checked (SQLite quick_check: ok) "
        f"in {done.seconds:.1f} s"
    )
    for table in done.contents.tables:
        print(f"  {table.table_id} {table.name!r}: {table.inputs:,} inputs")
    print(f"restore it with: scorekeeper restore {done.path} --db {args.db}")
    return 0
