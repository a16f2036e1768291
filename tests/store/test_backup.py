"""Backups of a live store (SQLite's backup API) and restores: what they copy, what they refuse,
what they never delete; the database lock; the server's periodic backup."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from scorekeeper.core.table import TableConfig
from scorekeeper.errors import StoreError
from scorekeeper.service.backups import PeriodicBackup
from scorekeeper.store import Store, sqlite_url
from scorekeeper.store.backup import (
    backup,
    backup_name,
    backup_order,
    backup_pattern,
    check_store,
    restore,
)
from scorekeeper.store.lock import DatabaseBusy, DatabaseLock
from scorekeeper.store.marker import marker_path

CONFIG = TableConfig(game="fake", seats=("ann", "bob"), layout={"r1": "hand"}, name="Friday")

# A Store in another process appends to table t1 until the stop file appears, writing each
# acknowledged seq to a file (after append returned: the record is committed).
APPENDER = """
import sys, time
from pathlib import Path
from scorekeeper.core.table import TableConfig
from scorekeeper.store import Store
db, acked, stop = sys.argv[1:4]
store = Store("sqlite:///" + db)
table = store.create_table(TableConfig(game="fake", seats=("ann", "bob"), name="live"))
with open(acked, "w") as out:
    n = 0
    while not Path(stop).exists():
        n = store.append(table, {"kind": "sighting", "n": n + 1, "talon": "H7r" * 20})
        out.write(f"{n}\\n")
        out.flush()
        time.sleep(0.002)
store.close()
"""


def log_rows(path: Path) -> list[tuple[int, str]]:
    """(seq, record text) of table t1 in the SQLite file ``path`` alone, read-only."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(
            "SELECT seq, record FROM log WHERE table_id = 't1' ORDER BY seq"
        ).fetchall()
    except sqlite3.DatabaseError:  # the file alone may not even hold the log table yet
        return []
    finally:
        conn.close()


def acked(path: Path) -> int:
    """The last seq the appender reported acknowledged (complete lines only)."""
    lines = path.read_text().split("\n")[:-1] if path.exists() else []
    return int(lines[-1]) if lines else 0


def wait_acked(path: Path, at_least: int, proc: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 20
    while (n := acked(path)) < at_least:
        assert proc.poll() is None, f"the appender exited with {proc.returncode}"
        assert time.monotonic() < deadline, f"only {n} appends acknowledged in 20 s"
        time.sleep(0.01)
    return n


def make_store(db: Path, inputs: int, name: str = "Friday") -> None:
    with Store(sqlite_url(str(db))) as store:
        table = store.create_table(TableConfig(game="fake", seats=("ann", "bob"), name=name))
        for n in range(inputs):
            store.append(table, {"kind": "sighting", "n": n + 1, "talon": "H7r"})


def test_backup_while_another_process_appends_holds_every_acknowledged_input(
    tmp_path: Path,
) -> None:
    db = tmp_path / "var" / "sk.db"
    db.parent.mkdir()
    acked_file, stop = tmp_path / "acked.txt", tmp_path / "stop"
    proc = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(db), str(acked_file), str(stop)],
        cwd=Path(__file__).parents[2],
    )
    try:
        before = wait_acked(acked_file, 60, proc)
        # Those inputs are only in the WAL: no checkpoint has run, the main file alone (what a
        # plain copy of sk.db would keep) lacks them.
        alone = tmp_path / "copied-alone.db"
        shutil.copyfile(db, alone)
        assert len(log_rows(alone)) < before
        assert Path(f"{db}-wal").stat().st_size > 0
        calls: list[tuple[int, int]] = []
        # Small steps with pauses: the copy spans many appends of the other process.
        done = backup(
            db,
            tmp_path / "usb",
            step_pages=1,
            pause=0.02,
            progress=lambda d, t: calls.append((d, t)),
        )
        during = acked(acked_file)
    finally:
        stop.touch()
        assert proc.wait(20) == 0
    assert done.path == tmp_path / "usb"
    assert len(calls) > 3 and calls[-1][0] == calls[-1][1]
    assert during > before, "the other process was not appending during the backup"
    rows = log_rows(done.path)
    seqs = [seq for seq, _ in rows]
    # Every input acknowledged before the backup began is in it, and the copy is one snapshot:
    # a gap-free prefix of the log (what came during the copy may or may not be in it).
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= before
    assert all('"talon": "' in text for _seq, text in rows)
    # A single file, checked, readable as a store (its chained checksums verify).
    assert not Path(f"{done.path}-wal").exists()
    assert done.contents.tables[0].inputs == len(seqs)
    with Store(sqlite_url(str(done.path))) as store:
        assert [s for s, _ in store.records("t1")] == seqs
    # The live database was only read: its full log is intact and longer.
    assert len(log_rows(db)) == acked(acked_file)


def test_a_backup_does_not_hold_up_the_writer(tmp_path: Path) -> None:
    db = tmp_path / "sk.db"
    make_store(db, 200)
    with Store(sqlite_url(str(db))) as live:
        seqs: list[int] = []

        def append_meanwhile(done: int, total: int) -> None:
            if done < total:  # mid-copy, its read snapshot open: the log still commits
                seqs.append(live.append("t1", {"kind": "sighting", "during": done}))

        first = backup(db, tmp_path / "a.db", step_pages=2, progress=append_meanwhile)
        second = backup(db, tmp_path / "b.db")
    assert len(seqs) > 1 and seqs[0] == 201
    assert first.contents.inputs == 200  # the snapshot the copy began with
    assert second.contents.inputs == 200 + len(seqs)


def test_backup_into_a_folder_gets_a_dated_name_and_replaces_a_file_only_when_checked(
    tmp_path: Path,
) -> None:
    db = tmp_path / "var" / "scorekeeper.db"
    make_store(db, 3)
    usb = tmp_path / "usb"
    usb.mkdir()
    when = datetime(2026, 12, 1, 23, 3, 12)
    done = backup(db, usb, when=when)
    assert done.path == usb / "scorekeeper-20261201-230312.db"
    assert done.path.name == backup_name(db, when)
    assert [p.name for p in usb.iterdir()] == [done.path.name]  # no .tmp left
    assert check_store(done.path).words() == "1 table, 3 inputs"
    # A backup that cannot be written leaves the target as it was.
    target = tmp_path / "keep.db"
    target.write_bytes(b"previous backup")
    with pytest.raises(StoreError, match="there is no database at"):
        backup(tmp_path / "nothing.db", target)
    assert target.read_bytes() == b"previous backup"
    with pytest.raises(StoreError, match="is the USB stick plugged in"):
        backup(db, tmp_path / "unplugged" / "x.db")
    with pytest.raises(StoreError, match="is the database itself"):
        backup(db, db)
    assert not (tmp_path / "unplugged").exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "is empty"),
        (b"hello, this is not a database" * 200, "is not a SQLite database"),
    ],
)
def test_check_refuses_what_is_not_a_backup(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "wrong.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=words):
        check_store(path)


def test_check_refuses_other_sqlite_files_and_damaged_pages(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a scorekeeper store"):
        check_store(other)
    db = tmp_path / "sk.db"
    make_store(db, 400)
    backup(db, tmp_path / "copy.db")
    data = bytearray((tmp_path / "copy.db").read_bytes())
    page = 4096
    pages = len(data) // page
    data[page * (pages - 2) + 8 : page * (pages - 1)] = bytes(page - 8)  # a b-tree page zeroed
    (tmp_path / "copy.db").write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged|malformed"):
        check_store(tmp_path / "copy.db")


def test_restore_moves_the_current_files_aside_and_the_marker_follows(tmp_path: Path) -> None:
    db = tmp_path / "var" / "sk.db"
    make_store(db, 5)
    saved = backup(db, tmp_path / "saved.db").path
    with Store(sqlite_url(str(db))) as store:  # the database moves on past the backup
        for n in range(7):
            store.append("t1", {"kind": "sighting", "n": 100 + n})
        store.create_table(CONFIG)
    old_bytes = {p.name: p.read_bytes() for p in db.parent.iterdir() if p.name != "sk.db.lock"}
    assert marker_path(db).exists()
    done = restore(db, saved, when=datetime(2026, 12, 2, 0, 1, 2))
    assert done.contents.words() == "1 table, 5 inputs"
    base = "sk.db.before-restore-20261202-000102"
    assert {(a.name, b.name) for a, b in done.moved} >= {
        ("sk.db", base),
        ("sk.db.marker", base + ".marker"),
    }
    # Nothing deleted: every file that was there is there under its new name, unchanged
    # (a -wal or -shm goes with the database: SQLite opens the pair together).
    for old, new in done.moved:
        assert new.read_bytes() == old_bytes[old.name] or old.name.endswith("-shm")
    assert not any(p.name.endswith(".tmp") or "restore.tmp" in p.name for p in db.parent.iterdir())
    # The restored database opens, although it is behind what the old marker had seen: the
    # marker was made to describe it (without that, the Store refuses a database behind it).
    with Store(sqlite_url(str(db))) as store:
        assert store.table_ids() == ["t1"]
        assert [s for s, _ in store.records("t1")] == [1, 2, 3, 4, 5]
    # The database moved aside is still whole: 12 inputs and two tables.
    aside = db.with_name(base)
    assert len(log_rows(aside)) == 12


def test_restore_refuses_a_backup_with_an_altered_record_and_changes_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "sk.db"
    make_store(db, 20)
    saved = backup(db, tmp_path / "saved.db").path
    # One byte of one record changed, as a bit flip would: "talon" becomes "talkn". SQLite's
    # quick_check still says ok; only the records' chained checksums can tell.
    data = (tmp_path / "saved.db").read_bytes()
    at = data.index(b'"talon"')
    (tmp_path / "saved.db").write_bytes(data[: at + 4] + b"k" + data[at + 5 :])
    assert check_store(saved).words() == "1 table, 20 inputs"
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreError, match="damaged log"):
        restore(db, saved)
    # Nothing moved aside, no copy left behind (only the lock file is new).
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({*before, "sk.db.lock"})
    with Store(sqlite_url(str(db))) as store:
        assert len(list(store.records("t1"))) == 20


def test_the_lock_refuses_a_second_holder_and_restore_while_held(tmp_path: Path) -> None:
    db = tmp_path / "var" / "scorekeeper.db"
    make_store(db, 2)
    backup(db, tmp_path / "b.db")
    with DatabaseLock(db):
        with pytest.raises(DatabaseBusy) as busy:
            DatabaseLock(db).acquire()
        assert busy.value.pid == os.getpid()
        assert str(busy.value) == (
            f"another scorekeeper server is using {db} "
            f"(pid {os.getpid()}); stop it first, or give this one "
            "another --db"
        )
        with pytest.raises(
            DatabaseBusy, match="stop the server first: sudo systemctl stop scorekeeper"
        ):
            restore(db, tmp_path / "b.db")
    assert not list(tmp_path.glob("var/*before-restore*"))
    with DatabaseLock(db):  # released: free again
        pass


def wait_for(check: object, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.01)


def test_periodic_backup_keeps_the_last_three_and_tries_again_after_a_failure(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "sk.db"
    make_store(db, 4)
    usb = tmp_path / "usb"
    usb.mkdir()
    (usb / "holiday-photo.jpg").write_bytes(b"not ours")
    periodic = PeriodicBackup(db, usb, every=0.05, keep=3)
    assert periodic.words() == f"First backup to {usb} under way"
    old = [usb / f"sk-20260101-00000{n}.db" for n in range(5)]  # earlier rounds' files
    for path in old:
        shutil.copyfile(db, path)
    caplog.set_level(logging.INFO, logger="scorekeeper.backup")
    periodic.start()
    try:
        wait_for(lambda: periodic.rounds >= 3, "three rounds")
        # Finished backups only: the next round's temporary file may be there already.
        ours = sorted(p.name for p in usb.iterdir() if backup_pattern(db).match(p.name))
        # The newest three are kept: the oldest went first, others' files are left alone.
        assert len(ours) == 3 and not any(p.exists() for p in old[:3])
        assert (usb / "holiday-photo.jpg").read_bytes() == b"not ours"
        assert periodic.words().startswith("Last backup ") and str(usb) in periodic.words()
        assert periodic.status()["ok"] is True
        written = next(r for r in caplog.records if r.getMessage() == "backup written")
        assert getattr(written, "inputs") == 4  # noqa: B009 - a structured field
        # The stick is pulled out: a round fails, is logged and shown to the organiser...
        usb.rename(tmp_path / "pulled")  # at once, even while a round writes into it
        wait_for(lambda: periodic.status()["ok"] is False, "a failed round")
        warning = next(r for r in caplog.records if r.getMessage().startswith("backup failed"))
        assert warning.levelno == logging.WARNING
        assert getattr(warning, "event") == "backup_failed"  # noqa: B009
        # Pulled between rounds ("is the USB stick plugged in") or during one ("the disk or
        # USB stick failed or was removed"): either way the words name the stick.
        error = getattr(warning, "error")  # noqa: B009
        assert "is the USB stick plugged in" in error or "USB stick failed or was removed" in error
        words = periodic.words()
        assert words.startswith(f"Backup to {usb} failed at ") and "tried again every" in words
        assert "(last backup " in words
        assert not usb.exists()  # never created: backups must not land under the mount point
        # ... and once it is back, the next round writes again.
        usb.mkdir()
        wait_for(lambda: periodic.status()["ok"] is True, "a round after the stick came back")
        assert periodic.words().startswith("Last backup ")
        assert any(p.name.startswith("sk-") for p in usb.iterdir())
    finally:
        periodic.stop()
    rounds = periodic.rounds
    time.sleep(0.2)
    assert periodic.rounds == rounds  # stopped means stopped


def test_backups_in_the_same_second_are_numbered_and_pruned_in_order(tmp_path: Path) -> None:
    """Two rounds less than a second apart must not write over each other, and the newest
    are kept by time, then number (``-10`` after ``-9``; the unnumbered one first)."""
    db = tmp_path / "sk.db"
    make_store(db, 2)
    usb = tmp_path / "usb"
    usb.mkdir()
    when = datetime(2026, 1, 1, 0, 0, 1)
    first = backup(db, usb, when=when)
    second = backup(db, usb, when=when)
    assert first.path.name == "sk-20260101-000001.db"
    assert second.path.name == "sk-20260101-000001-2.db" and first.path.exists()
    for n in range(3, 11):
        shutil.copyfile(db, usb / f"sk-20260101-000001-{n}.db")
    pattern = backup_pattern(db)
    found = [m for p in usb.iterdir() if (m := pattern.match(p.name))]
    order = [m.group(0) for m in sorted(found, key=backup_order)]
    assert order[0] == "sk-20260101-000001.db" and order[-2:] == [
        "sk-20260101-000001-9.db",
        "sk-20260101-000001-10.db",
    ]
    periodic = PeriodicBackup(db, usb, every=60, keep=3)
    periodic._prune()
    assert sorted(p.name for p in usb.iterdir()) == [
        "sk-20260101-000001-10.db",
        "sk-20260101-000001-8.db",
        "sk-20260101-000001-9.db",
    ]
