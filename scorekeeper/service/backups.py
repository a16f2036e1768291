"""The server's periodic backup: ``scorekeeper serve --backup-to /media/usb --backup-every 10``.

One backup when the server starts and one every N minutes after, each a dated file in the
folder (``scorekeeper-20261201-230312.db``), keeping the last ``keep``. It runs in its own
thread through ``scorekeeper.store.backup`` (a read-only connection, SQLite's backup API in
small steps with a pause between them), so the tables never wait for it: the log keeps its own
connection, and a WAL reader never blocks the writer.

A round that fails (the USB stick pulled out, full, read-only) is logged as a structured
warning, shown to the organiser (``words()``, in the console) and tried again at the next
round; the server goes on serving. The folder is never created: an absent stick must not
turn into backups written onto the SD card under its mount point.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store.backup import (
    BackupInfo,
    backup,
    backup_order,
    backup_pattern,
    free_backup_name,
)

log = logging.getLogger("scorekeeper.backup")

KEEP = 3
# Small steps with a pause: the SD card and the store's lock-free WAL go to the log first.
STEP_PAGES = 64
PAUSE = 0.005


class _Stopped(ScorekeeperError, RuntimeError):
    """Raised from the copy's progress callback when the server stops mid-backup.

    Not an OSError: ``backup`` would report that as a failed write."""


class PeriodicBackup:
    """Backs up ``db`` into ``folder`` at start and every ``every`` seconds, in a thread."""

    def __init__(
        self,
        db: str | os.PathLike[str],
        folder: str | os.PathLike[str],
        every: float,
        *,
        keep: int = KEEP,
        pause: float = PAUSE,
        step_pages: int = STEP_PAGES,
    ) -> None:
        if every <= 0:
            raise ValueError("the backup period must be more than 0 minutes")
        self.db = Path(db)
        self.folder = Path(folder)
        self.every = every
        self.keep = max(1, keep)
        self.pause = pause
        self.step_pages = step_pages
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.rounds = 0
        self.last_ok: BackupInfo | None = None
        self.last_ok_at: datetime | None = None
        self.last_error: str | None = None  # the latest round's failure; None once one works
        self.last_error_at: datetime | None = None

    # -- the thread -----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the thread: a backup now, then one every period until ``stop``."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._loop, name="scorekeeper-backup", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the thread; a backup under way is abandoned (its ``.tmp`` file removed)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)

    def _loop(self) -> None:
        due = time.monotonic()
        while not self._stop.is_set():
            self.run_once()
            due += self.every
            # A round that took longer than the period is followed at once, not piled up.
            due = max(due, time.monotonic())
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return

    # -- one round ------------------------------------------------------------------------------

    def run_once(self) -> BackupInfo | None:
        """Write one backup and drop the older ones; None (logged, kept for ``words``) on a
        failure. Never raises: the server must not stop for a backup."""
        began = datetime.now()
        try:
            name = free_backup_name(self.db, self.folder, began)
            done = backup(
                self.db,
                self.folder / name,
                pause=self.pause,
                step_pages=self.step_pages,
                progress=self._check_stop,
            )
        except _Stopped:
            return None
        except Exception as exc:  # any failure: say it, and try again next round
            text = str(exc) or type(exc).__name__
            with self._lock:
                self.rounds += 1
                self.last_error, self.last_error_at = text, began
            log.warning(
                "backup failed; the next round tries again",
                extra={
                    "event": "backup_failed",
                    "backup_to": str(self.folder),
                    "error": text,
                    "next_try_s": round(self.every, 1),
                },
            )
            return None
        removed = self._prune()
        with self._lock:
            self.rounds += 1
            self.last_ok, self.last_ok_at = done, began
            self.last_error = self.last_error_at = None
        log.info(
            "backup written",
            extra={
                "event": "backup_written",
                "path": str(done.path),
                "tables": len(done.contents.tables),
                "inputs": done.contents.inputs,
                "bytes": done.contents.size,
                "seconds": round(done.seconds, 3),
                "removed_old": removed,
            },
        )
        return done

    def _check_stop(self, _done: int, _total: int) -> None:
        if self._stop.is_set():
            raise _Stopped

    def _prune(self) -> int:
        """Remove this database's dated backups in the folder beyond the newest ``keep``."""
        pattern = backup_pattern(self.db)
        try:
            found = [m for n in os.listdir(self.folder) if (m := pattern.match(n))]
        except OSError:
            return 0
        names = [m.group(0) for m in sorted(found, key=backup_order)]
        removed = 0
        for name in names[: -self.keep]:
            with contextlib.suppress(OSError):
                (self.folder / name).unlink()
                removed += 1
        return removed

    # -- what the organiser sees ----------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """The latest round for the console: ``ok``, ``words`` and the facts behind them."""
        with self._lock:
            ok = self.last_error is None
            out: dict[str, Any] = {
                "to": str(self.folder),
                "every_minutes": self.every / 60,
                "ok": ok,
                "words": self._words(),
            }
            if self.last_ok is not None and self.last_ok_at is not None:
                out["last"] = {
                    "at": self.last_ok_at.isoformat(timespec="seconds"),
                    "path": str(self.last_ok.path),
                    "tables": len(self.last_ok.contents.tables),
                    "inputs": self.last_ok.contents.inputs,
                }
            if self.last_error is not None and self.last_error_at is not None:
                out["error"] = {
                    "at": self.last_error_at.isoformat(timespec="seconds"),
                    "text": self.last_error,
                }
            return out

    def words(self) -> str:
        """One line for people: the last backup, or the failure and what happens next."""
        with self._lock:
            return self._words()

    def _words(self) -> str:
        last = ""
        if self.last_ok is not None and self.last_ok_at is not None:
            last = f"Last backup {self.last_ok_at:%H:%M} to {self.last_ok.path}"
        if self.last_error is not None and self.last_error_at is not None:
            again = f"it is tried again every {_minutes(self.every)}"
            before = f" ({last[0].lower()}{last[1:]})" if last else " (none written yet)"
            return (
                f"Backup to {self.folder} failed at {self.last_error_at:%H:%M}: "
                f"{self.last_error}; {again}{before}"
            )
        return last or f"First backup to {self.folder} under way"


def _minutes(seconds: float) -> str:
    minutes = seconds / 60
    if minutes >= 1 and minutes == int(minutes):
        return f"{int(minutes)} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} seconds" if minutes < 1 else f"{minutes:.1f} minutes"
