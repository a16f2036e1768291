"""The server lock: one exclusive ``flock`` on ``<db>.lock`` while a program owns a database.

``scorekeeper serve`` holds it for its whole life, so a second server on the same database is
refused in words instead of both appending to one log; ``scorekeeper restore`` takes the same
lock, so a database is never swapped under a running server. The kernel drops a ``flock`` when
its holder dies (even by SIGKILL or a power cut), so a stale lock file never blocks a start:
the file itself is left in place on purpose (removing it would let a second program lock a
new file while the first still holds the old one).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from scorekeeper.errors import StoreError

STOP_SERVICE = "stop the server first: sudo systemctl stop scorekeeper (or Ctrl-C where it runs)"


def lock_path(db: str | os.PathLike[str]) -> Path:
    """Where the lock of database file ``db`` lives: ``<db>.lock`` beside it."""
    path = Path(db)
    return path.with_name(path.name + ".lock")


class DatabaseBusy(StoreError):
    """Another live process holds the database's lock; ``pid`` is its process id (0: unknown)."""

    def __init__(self, message: str, pid: int) -> None:
        super().__init__(message)
        self.pid = pid


class DatabaseLock:
    """An exclusive lock on a database file, held from ``acquire`` to ``release``.

    ``acquire`` never waits: it raises DatabaseBusy naming the holder's pid when another
    process has it. Use as a context manager or call ``release`` (safe to call twice).
    """

    def __init__(self, db: str | os.PathLike[str]) -> None:
        self.db = Path(db)
        self.path = lock_path(db)
        self._fd: int | None = None

    def acquire(self, *, doing: str = "server") -> DatabaseLock:
        """Take the lock, or raise DatabaseBusy (``doing``: ``server``, ``restore``, for the
        message); StoreError when the lock file cannot be made at all."""
        if self._fd is not None:
            return self
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise StoreError(
                f"{self.path}: cannot make the lock file: {exc.strerror or exc}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            who = f" (pid {pid})" if pid else ""
            if doing == "server":
                raise DatabaseBusy(
                    f"another scorekeeper server is using {self.db}{who}; "
                    "stop it first, or give this one another --db",
                    pid,
                ) from None
            raise DatabaseBusy(
                f"a scorekeeper server is using {self.db}{who}: {STOP_SERVICE}", pid
            ) from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"{self.path}: cannot lock it: {exc.strerror or exc}") from None
        if os.geteuid() == 0:
            # Run as root (sudo): the file must stay usable by the service's own user.
            with contextlib.suppress(OSError):
                st = self.path.parent.stat()
                os.fchown(fd, st.st_uid, st.st_gid)
        # The holder's pid, for the refusal another program prints (a hint only: the flock is
        # what excludes, not the file's content).
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    @property
    def held(self) -> bool:
        """True between ``acquire`` and ``release``."""
        return self._fd is not None

    def release(self) -> None:
        """Let the lock go (the file stays). Safe to call twice."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> DatabaseLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_pid(fd: int) -> int:
    """The pid the holder wrote into the lock file, or 0 when it cannot be read."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return 0
    return int(text) if text.isdigit() else 0
