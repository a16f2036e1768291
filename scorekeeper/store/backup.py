"""Backups of a live store, and putting one back (``scorekeeper backup`` / ``restore``).

A copy of ``var/scorekeeper.db`` alone is not a backup: in WAL mode the latest inputs live in
``var/scorekeeper.db-wal`` until a checkpoint folds them into the main file. ``backup`` reads
the database through SQLite itself (read-only, so the live file is never written), which sees
the WAL, and copies it with SQLite's online backup API in small steps inside one read
transaction: the copy is the database as it stood when the backup began, while the server
keeps appending (WAL readers never block the writer). The copy is written beside the target
as ``<target>.tmp``, made a single file (journal mode DELETE: no -wal beside it), fsync'd,
checked (``PRAGMA quick_check``, a scorekeeper store) and only then renamed over the target.

``restore`` checks a backup first (SQLite, quick_check, a scorekeeper store, every table's log
readable through ``Store.records``), moves the current database files aside (nothing is
deleted), copies the backup in and lets the marker beside the database describe it.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from scorekeeper.errors import StoreError
from scorekeeper.store.durable import fsync_file, fsync_folder
from scorekeeper.store.lock import DatabaseLock

# Pages copied per step of the backup API (4 KiB pages: 1 MiB a step). Between steps the
# copier may pause, so that a backup running inside the server leaves the SD card to the log.
STEP_PAGES = 256
STAMP = "%Y%m%d-%H%M%S"
_HEADER = b"SQLite format 3\x00"
# What makes a SQLite file a scorekeeper store (scorekeeper.store.models).
_STORE_TABLES = ("tables", "log", "meta", "kits")
# The files of one database: the main file, SQLite's WAL and shared-memory index, and the
# marker beside it (scorekeeper.store.marker: the store's identity and last acknowledged seqs).
DB_SUFFIXES = ("", "-wal", "-shm", ".marker")

Progress = Callable[[int, int], None]  # (pages copied, pages in all)


@dataclass(frozen=True, slots=True)
class TableCount:
    """One table of a store, as a backup or a restore reports it."""

    table_id: str
    name: str
    inputs: int  # records in its log


@dataclass(frozen=True, slots=True)
class Contents:
    """What a checked store holds: its tables (oldest first), kits and size in bytes."""

    tables: tuple[TableCount, ...]
    size: int
    kits: int = 0

    @property
    def inputs(self) -> int:
        """Log records over all tables."""
        return sum(t.inputs for t in self.tables)

    def words(self) -> str:
        """``3 tables, 1,204 inputs`` (or ``no tables``)."""
        if not self.tables:
            return "no tables"
        n = len(self.tables)
        return f"{n} table{'s' if n != 1 else ''}, {self.inputs:,} inputs"


@dataclass(frozen=True, slots=True)
class BackupInfo:
    """A backup written: where, what it holds, how long it took."""

    path: Path
    contents: Contents
    seconds: float


@dataclass(frozen=True, slots=True)
class RestoreInfo:
    """A restore done: what came in, and where the database it replaced went."""

    db: Path
    source: Path
    contents: Contents
    moved: tuple[tuple[Path, Path], ...]  # (old name, new name) of each file moved aside


def megabytes(size: int) -> str:
    """A size for people: ``2.1 MB``, ``840 kB``."""
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{max(1, round(size / 1e3))} kB"


def backup_name(db: str | os.PathLike[str], when: datetime | None = None) -> str:
    """The file name of a backup of ``db`` written into a folder: ``scorekeeper-<stamp>.db``."""
    stamp = (when or datetime.now()).strftime(STAMP)
    return f"{Path(db).stem}-{stamp}.db"


def free_backup_name(db: str | os.PathLike[str], folder: Path, when: datetime | None = None) -> str:
    """``backup_name``, or with ``-2``, ``-3``... when a backup of the same second is already
    in ``folder`` (rounds less than a second apart must not write over each other)."""
    base = backup_name(db, when)
    name, n = base, 1
    while (folder / name).exists():
        n += 1
        name = f"{base.removesuffix('.db')}-{n}.db"
    return name


def backup_pattern(db: str | os.PathLike[str]) -> re.Pattern[str]:
    """Matches the names ``backup_name`` and ``free_backup_name`` give (to keep the last few
    in a folder); ``backup_order`` sorts them oldest first."""
    return re.compile(rf"^{re.escape(Path(db).stem)}-(\d{{8}}-\d{{6}})(?:-(\d+))?\.db$")


def backup_order(match: re.Match[str]) -> tuple[str, int]:
    """The sort key of a name ``backup_pattern`` matched: its time, then its number."""
    return match.group(1), int(match.group(2) or 1)


def backup_target(
    db: str | os.PathLike[str], dest: str | os.PathLike[str], when: datetime | None = None
) -> Path:
    """Where a backup to ``dest`` goes: into it with a dated name when it is a folder (or
    ends with ``/``), else ``dest`` itself."""
    path = Path(dest)
    if path.is_dir() or str(dest).endswith(os.sep):
        return path / free_backup_name(db, path, when)
    return path


def backup(
    db: str | os.PathLike[str],
    dest: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
    pause: float = 0.0,
    step_pages: int | None = None,
    when: datetime | None = None,
) -> BackupInfo:
    """Back up the live database ``db`` to ``dest`` (a file, or a folder for a dated name).

    Consistent while a server appends, and it includes what is still only in the WAL.
    ``progress`` is told (pages copied, pages in all) after each step of ``step_pages``
    (default ``STEP_PAGES``); ``pause`` seconds are slept between steps (the server's periodic
    backup: the log's fsyncs go first). StoreError in plain words when the database cannot be
    read, the target cannot be written or the copy does not check out; the target is then
    untouched (only ``<target>.tmp`` may be left).
    """
    began = time.monotonic()
    db_path = Path(db)
    target = backup_target(db_path, dest, when)
    if not db_path.is_file():
        raise StoreError(f"there is no database at {db_path} (check --db)")
    if _same_file(db_path, target):
        raise StoreError(f"{target} is the database itself: back up to another file or folder")
    folder = target.parent
    if not folder.is_dir():
        raise StoreError(
            f"cannot back up to {target}: the folder {folder} does not exist "
            "(is the USB stick plugged in and mounted?)"
        )
    tmp = target.with_name(target.name + ".tmp")
    try:
        with _open_read_only(db_path) as source:
            _copy(
                source,
                tmp,
                progress=progress,
                pause=pause,
                step_pages=step_pages or STEP_PAGES,
                what=f"back up {db_path} to {target}",
            )
        fsync_file(tmp)
        contents = check_store(tmp, quiet=True)
        os.replace(tmp, target)
        fsync_folder(folder)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, StoreError):
            raise
        raise StoreError(f"cannot write the backup {target}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return BackupInfo(target, contents, time.monotonic() - began)


def check_store(
    path: str | os.PathLike[str], *, label: str | None = None, quiet: bool = False
) -> Contents:
    """Check that ``path`` is a sound scorekeeper store and say what it holds.

    Read-only. StoreError naming ``label`` (default: the path) when it is not a SQLite file,
    fails ``PRAGMA quick_check`` or lacks a scorekeeper store's tables and schema version.
    ``quiet``: nothing writes to the file meanwhile (its lock is held), so a file without a
    -wal is read as it lies, leaving no empty -wal and -shm files behind.
    """
    where = label or str(path)
    file = Path(path)
    try:
        with file.open("rb") as fh:
            head = fh.read(len(_HEADER))
        size = file.stat().st_size
    except OSError as exc:
        raise StoreError(f"cannot read {where}: {exc.strerror or exc}") from None
    if size == 0:
        raise StoreError(f"{where} is empty: it is not a scorekeeper backup")
    if head != _HEADER:
        raise StoreError(f"{where} is not a SQLite database (wrong file, or damaged)")
    immutable = quiet and not Path(f"{file}-wal").exists()
    try:
        with _open_read_only(file, immutable=immutable) as conn:
            problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                first = "; ".join(problems[:3])
                raise StoreError(f"{where} is damaged (SQLite's quick_check: {first})")
            names = {
                str(row[0])
                for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            missing = [t for t in _STORE_TABLES if t not in names]
            if missing:
                raise StoreError(
                    f"{where} is a SQLite database but not a scorekeeper store "
                    f"(no {', '.join(missing)} table)"
                )
            version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if version is None:
                raise StoreError(
                    f"{where} is not a scorekeeper store (no schema_version in its meta table)"
                )
            rows = conn.execute(
                "SELECT t.id, t.name, (SELECT count(*) FROM log l WHERE l.table_id = t.id) "
                "FROM tables t ORDER BY t.created_at, length(t.id), t.id"
            ).fetchall()
            kits = int(conn.execute("SELECT count(*) FROM kits").fetchone()[0])
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read {where}: {_plain(exc)}") from None
    tables = tuple(TableCount(str(i), str(n or i), int(c or 0)) for i, n, c in rows)
    return Contents(tables, size, kits)


def read_logs(path: str | os.PathLike[str], *, label: str | None = None) -> None:
    """Read every table's whole log through ``Store.records`` (which checks each record, and
    the chain of record checksums): StoreError naming the table and record that is damaged.

    This opens the file with the Store, which may write to it (its WAL mode): use it on a copy.
    """
    from scorekeeper.store.store import Store, sqlite_url

    where = label or str(path)
    try:
        store = Store(sqlite_url(str(path)))
    except StoreError as exc:
        raise StoreError(f"{where} cannot be opened as a store: {exc}") from None
    try:
        for table_id in store.table_ids():
            for _seq, _record in store.records(table_id):
                pass
    except StoreError as exc:
        raise StoreError(f"{where} has a damaged log: {exc}") from None
    finally:
        store.close()


def restore(
    db: str | os.PathLike[str],
    src: str | os.PathLike[str],
    *,
    lock: DatabaseLock | None = None,
    when: datetime | None = None,
) -> RestoreInfo:
    """Put the backup ``src`` back as the database ``db``; nothing is deleted.

    ``src`` is copied (backup API) to ``<db>.restore.tmp`` and checked there: quick_check, a
    scorekeeper store, every table's log readable. Only then are the current ``db``, its
    -wal, -shm and marker moved aside to ``<db>.before-restore-<stamp>`` names, the checked copy
    renamed to ``db``, and the marker made to describe it (``marker.adopt``). Holds the
    database's lock throughout (``lock``, or one taken here): DatabaseBusy while a server runs.
    """
    db_path = Path(db)
    src_path = Path(src)
    own = lock is None
    held = lock if lock is not None else DatabaseLock(db_path)
    held.acquire(doing="restore")
    try:
        if not src_path.is_file():
            raise StoreError(f"there is no backup at {src_path}")
        if _same_file(db_path, src_path):
            raise StoreError(f"{src_path} is the database itself: give a backup to restore")
        check_store(src_path, quiet=True)  # a wrong file is said before anything is written
        db_path.parent.mkdir(parents=True, exist_ok=True)
        staging = db_path.with_name(db_path.name + ".restore.tmp")
        _remove_db_files(staging)  # a previous, interrupted restore's copy
        try:
            with _open_read_only(src_path) as source:
                _copy(
                    source,
                    staging,
                    progress=None,
                    pause=0.0,
                    step_pages=STEP_PAGES,
                    what=f"copy {src_path}",
                )
            read_logs(staging, label=str(src_path))
            _single_file(staging)
            fsync_file(staging)
            _match_owner(staging, db_path.parent)
            contents = check_store(staging, label=str(src_path), quiet=True)
            moved = _move_aside(db_path, when or datetime.now())
            os.replace(staging, db_path)
            fsync_folder(db_path.parent)
        finally:
            _remove_db_files(staging)
        from scorekeeper.store.marker import adopt

        adopt(db_path)
        marker = db_path.with_name(db_path.name + ".marker")
        if marker.exists():
            _match_owner(marker, db_path.parent)
    finally:
        if own:
            held.release()
    return RestoreInfo(db_path, src_path, contents, moved)


def current_contents(db: str | os.PathLike[str]) -> Contents | str | None:
    """What the database ``db`` holds now (for the question before a restore replaces it):
    None when there is no such file or it is empty, a sentence when it cannot be read."""
    path = Path(db)
    try:
        if path.stat().st_size == 0 and not Path(f"{path}-wal").exists():
            return None
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be read: {exc.strerror or exc}"
    try:
        return check_store(path, quiet=True)
    except StoreError as exc:
        return str(exc)


# -- plumbing ----------------------------------------------------------------------------------


@contextlib.contextmanager
def _open_read_only(path: Path, *, immutable: bool = False) -> Iterator[sqlite3.Connection]:
    """A read-only connection to ``path`` (a live WAL database included: SQLite reads its -wal).

    Read-only: the live database is never written, and closing this connection never
    checkpoints it. ``immutable``: the file is read as it lies, without SQLite's locks or a
    -shm file (only for a file that nothing writes meanwhile and that has no -wal).
    """
    uri = f"file:{_uri_path(path.resolve())}?mode=ro" + ("&immutable=1" if immutable else "")
    try:
        conn = sqlite3.connect(
            uri, uri=True, timeout=10.0, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {_plain(exc)}") from None
    try:
        yield conn
    finally:
        conn.close()


def _uri_path(path: Path) -> str:
    """``path`` quoted for a SQLite ``file:`` URI (``?``, ``#`` and ``%`` in names)."""
    from urllib.parse import quote

    return quote(str(path), safe="/")


def _copy(
    source: sqlite3.Connection,
    dest: Path,
    *,
    progress: Progress | None,
    pause: float,
    step_pages: int,
    what: str,
) -> None:
    """Copy ``source`` into the new file ``dest`` with the backup API, in steps of
    ``step_pages`` inside one read transaction, then make ``dest`` a single file."""
    with contextlib.suppress(FileNotFoundError):
        dest.unlink()
    try:
        target = sqlite3.connect(str(dest), isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot {what}: {_plain(exc)}") from None
    try:
        # One read transaction around every step: the snapshot stays the one it began with,
        # so appends by the server meanwhile neither get half copied nor restart the copy
        # (a writer in WAL mode is never blocked by a reader).
        source.execute("BEGIN")
        source.execute("SELECT count(*) FROM sqlite_master").fetchone()

        def step(_status: int, remaining: int, total: int) -> None:
            if progress is not None:
                progress(total - remaining, total)
            if pause > 0 and remaining > 0:
                time.sleep(pause)

        source.backup(target, pages=max(1, step_pages), progress=step)
        source.execute("ROLLBACK")
        # The copy's header still says WAL (copied from the live file); a backup is one file.
        target.execute("PRAGMA journal_mode=DELETE").fetchone()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot {what}: {_plain(exc)}") from None
    finally:
        target.close()


def _single_file(path: Path) -> None:
    """Fold ``path``'s WAL (the Store's check opened it in WAL mode) back into it."""
    try:
        conn = sqlite3.connect(str(path), isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot finish the copy {path}: {_plain(exc)}") from None
    if Path(f"{path}-wal").exists():
        raise StoreError(f"cannot finish the copy {path}: its WAL would not fold back in")


def _move_aside(db: Path, when: datetime) -> tuple[tuple[Path, Path], ...]:
    """Rename the database's present files to ``<db>.before-restore-<stamp>`` (+ the same
    suffixes: the old database and its WAL stay a pair SQLite can open together)."""
    present = [db.with_name(db.name + s) for s in DB_SUFFIXES]
    present = [p for p in present if p.exists()]
    if not present:
        return ()
    stamp = when.strftime(STAMP)
    for n in range(1, 100):
        base = f"{db.name}.before-restore-{stamp}" + (f"-{n}" if n > 1 else "")
        names = [(p, db.with_name(base + p.name[len(db.name) :])) for p in present]
        if not any(new.exists() for _old, new in names):
            break
    else:
        raise StoreError(f"cannot move {db} aside: too many earlier restores at {stamp}")
    moved: list[tuple[Path, Path]] = []
    for old, new in names:
        try:
            os.rename(old, new)
        except OSError as exc:
            done = ", ".join(f"{a.name} -> {b.name}" for a, b in moved) or "none"
            raise StoreError(
                f"cannot move {old} aside to {new}: {exc.strerror or exc} "
                f"(moved so far: {done}); nothing was deleted"
            ) from None
        moved.append((old, new))
    fsync_folder(db.parent)
    return tuple(moved)


def _remove_db_files(path: Path) -> None:
    """Remove a scratch database of ours with its -wal, -shm, -journal and marker."""
    for suffix in ("", "-wal", "-shm", "-journal", ".marker"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _match_owner(path: Path, like: Path) -> None:
    """Run as root (``sudo scorekeeper restore``), give ``path`` the owner of ``like`` (the
    database's folder): a file left to root would keep the service's user from opening it."""
    if os.geteuid() != 0:
        return
    with contextlib.suppress(OSError):
        st = like.stat()
        os.chown(path, st.st_uid, st.st_gid)


def _plain(exc: sqlite3.Error) -> str:
    """A SQLite error in words, with what it usually means."""
    text = str(exc).strip() or type(exc).__name__
    low = text.lower()
    if "not a database" in low or "malformed" in low:
        return f"{text} (the file is damaged or is not a scorekeeper database)"
    if "unable to open" in low or "readonly" in low or "read-only" in low:
        return f"{text} (check that the file and its folder exist and can be read and written)"
    if "disk i/o" in low:
        return f"{text} (the disk or USB stick failed or was removed)"
    if "full" in low:
        return f"{text} (the disk or USB stick is full)"
    return text
