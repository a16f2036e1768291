"""``scorekeeper serve`` on a database that lost its -wal file, or lost the file itself: the
real command refuses in words, writes nothing and keeps the organiser token (issue: three of
twelve such starts used to come up as a first start with a new token)."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from scorekeeper.service import Hub
from scorekeeper.service.demo import find_world_class
from tests.api.games import find_test_game
from tests.api.procs import free_port

GAME = "angels-and-demons"


def _play(db: Path) -> tuple[str, int]:
    """A real game, 60 inputs, of which the last 40 live only in the -wal file when this
    returns (the hub is still open: the test copies the files as a crash would leave them)."""
    hub = Hub.open(db, find_game=find_test_game)
    hub.tokens.ensure_organiser_token(hub.token_file)
    table_id = hub.create_table(GAME, 3)
    hub.start(table_id)
    inputs = iter(find_world_class(GAME)(3, {}, 5).inputs())
    for _ in range(20):
        hub.submit(table_id, next(inputs))
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for _ in range(40):
        hub.submit(table_id, next(inputs))
    assert Path(f"{db}-wal").stat().st_size > 0
    return table_id, hub.inputs_seen(table_id)


def _serve(db: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", "serve", "--db", str(db), "--port", str(free_port())],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_serve_refuses_a_copy_without_its_wal_and_keeps_the_token(tmp_path: Path) -> None:
    live = tmp_path / "live" / "scorekeeper.db"
    table_id, acknowledged = _play(live)
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("scorekeeper.db", "scorekeeper.db.marker", "organiser-token"):
        shutil.copy(live.parent / name, copy / name)  # the -wal file is not copied
    token, db_before = (copy / "organiser-token").read_text(), _digest(copy / "scorekeeper.db")

    done = _serve(copy / "scorekeeper.db", tmp_path)
    assert done.returncode != 0, done.stdout
    assert "serving at" not in done.stdout and "organiser token" not in done.stdout
    assert f"table {table_id} " in done.stderr
    assert f"had {acknowledged} inputs acknowledged, the database holds 20" in done.stderr
    assert "scorekeeper restore" in done.stderr
    assert (copy / "organiser-token").read_text() == token
    assert _digest(copy / "scorekeeper.db") == db_before


def test_serve_refuses_a_missing_database_and_keeps_the_token(tmp_path: Path) -> None:
    live = tmp_path / "var" / "scorekeeper.db"
    _play(live)
    token = (live.parent / "organiser-token").read_text()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{live}{suffix}").unlink()

    done = _serve(live, tmp_path)
    assert done.returncode != 0, done.stdout
    assert "is missing or empty, but a scorekeeper server has run on it before" in done.stderr
    assert (live.parent / "organiser-token").read_text() == token
    assert not live.exists()
