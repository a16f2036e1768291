"""``scorekeeper backup`` and ``restore`` around a real ``scorekeeper serve`` process, the
server's lock, and ``serve --backup-to --backup-every`` (the periodic backup to a USB stick)."""

from __future__ import annotations

import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.api.procs import free_port, start_cli, stop, wait_http

DB = "var/scorekeeper.db"
REFUSED = "tag +talon 04DEADBEEF0000"  # an unknown tag: refused, and logged with its seq


def cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m scorekeeper ARGS`` to its end, stdin not a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", *args],
        cwd=cwd,
        text=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def log_seqs(path: Path) -> list[int]:
    """The log's seqs of table t1 in the SQLite file ``path`` alone (its -wal not read)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        return [
            r[0] for r in conn.execute("SELECT seq FROM log WHERE table_id = 't1' ORDER BY seq")
        ]
    except sqlite3.DatabaseError:  # the file alone may not even hold the log table yet
        return []
    finally:
        conn.close()


def post_inputs(base: str, org: dict[str, str], tid: str, n: int) -> list[int]:
    """Send ``n`` inputs; the seqs the server acknowledged (each logged before its answer)."""
    seqs = []
    for _ in range(n):
        r = httpx.post(f"{base}/api/tables/{tid}/inputs", headers=org, json={"input": REFUSED})
        assert r.status_code == 200, r.text
        seqs.append(int(r.json()["seq"]))
    return seqs


def test_backup_while_serving_then_restore_after_the_server_stopped(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_cli(["serve", "--port", str(port), "--db", DB], tmp_path)
    db = tmp_path / DB
    try:
        wait_http(f"{base}/healthz", proc)
        org = {"Authorization": f"Bearer {(tmp_path / 'var/organiser-token').read_text().strip()}"}
        r = httpx.post(
            f"{base}/api/tables",
            headers=org,
            json={"game": "angels-and-demons", "seats": 2, "start": True},
        )
        tid = r.json()["id"]
        acked = post_inputs(base, org, tid, 30)
        assert acked == list(range(1, 31))
        # They are in the -wal file only: the database file alone (a plain copy) lacks them.
        assert len(log_seqs(db)) < 30 and Path(f"{db}-wal").stat().st_size > 0
        # Inputs keep arriving while the backup runs.
        more: list[int] = []
        done = threading.Event()

        def keep_playing() -> None:
            while not done.is_set():
                more.extend(post_inputs(base, org, tid, 1))

        player = threading.Thread(target=keep_playing)
        player.start()
        try:
            (tmp_path / "usb").mkdir()
            out = cli(["backup", "usb/", "--db", DB], tmp_path)
        finally:
            done.set()
            player.join(10)
        assert out.returncode == 0, out.stderr
        made = re.search(
            r"backed up var/scorekeeper.db to (usb/scorekeeper-\d{8}-\d{6}\.db): "
            r"1 table, (\d+) inputs",
            out.stdout,
        )
        assert made, out.stdout
        backup = tmp_path / made.group(1)
        seqs = log_seqs(backup)
        assert seqs[:30] == acked and seqs == list(range(1, len(seqs) + 1))
        assert int(made.group(2)) == len(seqs)
        assert f"  t1 'Table 1': {len(seqs)} inputs" in out.stdout

        # The running server holds the database: a restore and a second server are refused.
        out = cli(["restore", str(backup), "--db", DB, "--yes"], tmp_path)
        assert out.returncode == 2
        assert (
            f"a scorekeeper server is using {DB} (pid {proc.pid}): stop the server first: "
            "sudo systemctl stop scorekeeper"
        ) in out.stderr
        out = cli(["serve", "--port", str(free_port()), "--db", DB], tmp_path)
        assert out.returncode == 2
        assert f"another scorekeeper server is using {DB} (pid {proc.pid})" in out.stderr
        later = post_inputs(base, org, tid, 5)
    finally:
        assert stop(proc, signal.SIGINT) in (0, 130)
    assert later[-1] == 30 + len(more) + 5

    # Without a terminal to ask on, a database with tables is not replaced without --yes.
    before = sorted(p.name for p in db.parent.iterdir())
    out = cli(["restore", str(backup), "--db", DB], tmp_path)
    assert out.returncode == 2 and "not confirmed" in out.stderr and "--yes" in out.stderr
    assert sorted(p.name for p in db.parent.iterdir()) == before
    out = cli(["restore", str(backup), "--db", DB, "--yes"], tmp_path)
    assert out.returncode == 0, out.stderr
    assert f"restored {backup} into {DB}: 1 table, {len(seqs)} inputs" in out.stdout
    assert f"  t1 'Table 1': {len(seqs)} inputs" in out.stdout
    aside = re.search(
        r"  var/scorekeeper.db -> (var/scorekeeper.db.before-restore-\d{8}-\d{6})\n", out.stdout
    )
    assert aside, out.stdout
    assert f"  var/scorekeeper.db.marker -> {aside.group(1)}.marker" in out.stdout
    # The database it replaced keeps all it had (its WAL went aside with it).
    old = sqlite3.connect(tmp_path / aside.group(1))
    assert old.execute("SELECT count(*) FROM log").fetchone()[0] == later[-1]
    old.close()

    # The server starts on the restored database (its marker follows it) with the backup's log.
    proc = start_cli(["serve", "--port", str(port), "--db", DB], tmp_path)
    try:
        wait_http(f"{base}/healthz", proc)
        assert httpx.get(f"{base}/api/tables/{tid}").json()["inputs"] == len(seqs)
        assert httpx.get(f"{base}/api/tables", headers=org).status_code == 200
    finally:
        assert stop(proc, signal.SIGTERM) in (0, 130, -15)


def test_restore_into_an_empty_place_asks_nothing_and_refuses_a_wrong_file(tmp_path: Path) -> None:
    wrong = tmp_path / "notes.txt"
    wrong.write_text("shopping list\n" * 100)
    out = cli(["restore", "notes.txt", "--db", DB], tmp_path)
    assert out.returncode == 2
    assert "notes.txt is not a SQLite database (wrong file, or damaged)" in out.stderr
    assert not (tmp_path / DB).exists()
    out = cli(["backup", "copy.db", "--db", DB], tmp_path)
    assert out.returncode == 2 and f"there is no database at {DB}" in out.stderr


def test_serve_backs_up_every_period_and_says_when_the_stick_is_gone(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    usb = tmp_path / "usb"
    usb.mkdir()
    proc = start_cli(
        ["serve", "--port", str(port), "--db", DB, "--backup-to", "usb", "--backup-every", "0.005"],
        tmp_path,
    )  # 0.3 s
    try:
        wait_http(f"{base}/healthz", proc)
        org = {"Authorization": f"Bearer {(tmp_path / 'var/organiser-token').read_text().strip()}"}
        tid = httpx.post(
            f"{base}/api/tables",
            headers=org,
            json={"game": "angels-and-demons", "seats": 2, "start": True},
        ).json()["id"]
        acked = post_inputs(base, org, tid, 10)
        deadline = time.monotonic() + 20
        while not any(len(log_seqs(p)) >= 10 for p in usb.glob("scorekeeper-*.db")):
            assert time.monotonic() < deadline, "no backup with the 10 inputs in 20 s"
            time.sleep(0.1)
        shutil.rmtree(usb)  # the stick is pulled out
        stderr = tmp_path / "stderr.txt"
        while "event=backup_failed" not in stderr.read_text():
            assert time.monotonic() < deadline, "no failed round logged"
            time.sleep(0.1)
        status = httpx.get(f"{base}/api/backup", headers=org).json()
        assert status["ok"] is False
        assert status["words"].startswith("Backup to usb failed at ")
        assert "is the USB stick plugged in" in status["words"]
        # The tables carry on meanwhile.
        assert post_inputs(base, org, tid, 3) == [acked[-1] + 1, acked[-1] + 2, acked[-1] + 3]
        usb.mkdir()
        while not any(len(log_seqs(p)) == 13 for p in usb.glob("scorekeeper-*.db")):
            assert time.monotonic() < deadline, "no backup after the stick came back"
            time.sleep(0.1)
        status = httpx.get(f"{base}/api/backup", headers=org).json()
        assert status["ok"] is True and status["words"].startswith("Last backup ")
        assert httpx.get(f"{base}/api/backup").status_code == 401
    finally:
        assert stop(proc, signal.SIGINT) in (0, 130)
    assert len(list(usb.glob("scorekeeper-*.db"))) <= 3
    assert not list(usb.glob("*.tmp"))
    printed = (tmp_path / "stdout.txt").read_text()
    assert "a backup now and every 0.005 minutes to usb (the last 3 kept)" in printed


def test_backup_every_needs_a_folder(tmp_path: Path) -> None:
    out = cli(["serve", "--port", str(free_port()), "--db", DB, "--backup-every", "5"], tmp_path)
    assert out.returncode == 2
    assert "--backup-every needs --backup-to FOLDER" in out.stderr
    out = cli(["serve", "--db", DB, "--backup-to", "usb", "--backup-every", "0"], tmp_path)
    assert out.returncode == 2 and "more than 0" in out.stderr


def make_db(path: Path, inputs: int) -> None:
    from scorekeeper.core.table import TableConfig
    from scorekeeper.store import Store, sqlite_url

    with Store(sqlite_url(str(path))) as store:
        table = store.create_table(TableConfig(game="fake", seats=("ann", "bob")))
        for n in range(inputs):
            store.append(table, {"kind": "sighting", "n": n})


def test_backup_shows_progress_for_a_big_store(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    from scorekeeper import cli
    from scorekeeper.commands import backup as command

    db = tmp_path / "sk.db"
    make_db(db, 50)
    monkeypatch.setattr(command, "PROGRESS_FROM_PAGES", 1)  # this small store counts as big
    monkeypatch.setattr("scorekeeper.store.backup.STEP_PAGES", 2)
    assert cli.main(["backup", str(tmp_path / "b.db"), "--db", str(db)]) == 0
    out = capsys.readouterr()
    steps = re.findall(r"copying: (\d+)% of about \d+ MB", out.err)
    assert steps[-1] == "100" and len(steps) >= 3, out.err
    assert [int(s) for s in steps] == sorted({int(s) for s in steps})  # each tenth once
    assert f"backed up {db} to {tmp_path / 'b.db'}: 1 table, 50 inputs" in out.out


def test_restore_asks_and_a_no_changes_nothing(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    from scorekeeper import cli

    db = tmp_path / "var" / "sk.db"
    make_db(db, 7)
    assert cli.main(["backup", str(tmp_path / "b.db"), "--db", str(db)]) == 0
    make_db(db, 3)  # a second table: the database moved on
    before = sorted(p.name for p in db.parent.iterdir())
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda q: asked.append(q) or "n")
    capsys.readouterr()
    assert cli.main(["restore", str(tmp_path / "b.db"), "--db", str(db)]) == 1
    assert asked == [
        f"replace {db} (2 tables, 10 inputs) with {tmp_path / 'b.db'} (1 table, "
        "7 inputs)? The current files are moved aside, not deleted. [y/N] "
    ]
    assert capsys.readouterr().out == "nothing changed\n"
    assert sorted(p.name for p in db.parent.iterdir()) == sorted([*before, "sk.db.lock"])
    monkeypatch.setattr("builtins.input", lambda q: "y")
    assert cli.main(["restore", str(tmp_path / "b.db"), "--db", str(db)]) == 0
    assert "restored" in capsys.readouterr().out
