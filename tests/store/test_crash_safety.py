"""Invariant 1 under kill -9: every acknowledged append survives, and nothing is corrupt.

A child process appends records and prints each seq once ``Store.append`` has returned; the parent
SIGKILLs it at a random moment, reopens the store and checks every acknowledged record.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper.core.table import TableConfig
from scorekeeper.store import Store, sqlite_url

CHILD = """
import sys
from scorekeeper.store import Store
store = Store(sys.argv[1])
table_id, run = sys.argv[2], sys.argv[3]
n = 0
while True:
    n += 1
    answer = f"{run}-{n}-" + "x" * (n % 97)
    seq = store.append(table_id, {"type": "decision", "seat": 0, "prompt": "p", "answer": answer})
    print(seq, answer, flush=True)
"""

CI_SEED = 20240611

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def run_and_kill(
    url: str, table_id: str, run: int, rng: random.Random, seed: int
) -> dict[int, str]:
    """Start the appending child, SIGKILL it at a random moment, return what it acknowledged."""
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, url, table_id, str(run)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=root,
    )
    assert child.stdout is not None
    acked: dict[int, str] = {}
    wanted = rng.randint(1, 150)
    try:
        while len(acked) < wanted:
            line = child.stdout.readline()
            if not line:
                err = child.stderr.read().decode() if child.stderr else ""
                raise AssertionError(f"seed {seed}: child stopped early: {err}")
            seq, answer = line.decode().split()
            acked[int(seq)] = answer
        time.sleep(rng.random() * 0.02)  # land the kill anywhere, mid-append included
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    for line in child.stdout.read().decode().splitlines(keepends=True):
        if line.endswith("\n"):  # a complete line was printed after its commit returned
            seq, answer = line.split()
            acked[int(seq)] = answer
    return acked


@pytest.mark.slow
def test_every_acknowledged_record_survives_kill_9(tmp_path: Path) -> None:
    # CI replays one fixed seed (a failure there reproduces); locally every run tries a new one
    seed = CI_SEED if os.environ.get("CI") else random.randrange(1 << 30)
    rng = random.Random(seed)
    db = tmp_path / "crash.db"
    url = sqlite_url(str(db))
    with Store(url) as store:
        table_id = store.create_table(TableConfig(game="fake", seats=("a",)))
    acked: dict[int, str] = {}
    for run in range(3):
        got = run_and_kill(url, table_id, run, rng, seed)
        assert not set(got) & set(acked), f"seed {seed}: a seq was handed out twice"
        acked.update(got)
        with Store(url) as store:
            stored = dict(store.records(table_id))
        assert list(stored) == list(range(1, len(stored) + 1)), f"seed {seed}: gap in seqs"
        for seq, answer in acked.items():
            assert seq in stored, f"seed {seed}: acknowledged record {seq} was lost"
            assert stored[seq] == {
                "type": "decision",
                "seat": 0,
                "prompt": "p",
                "answer": answer,
            }, f"seed {seed}: record {seq} differs"
        for record in stored.values():
            assert record["type"] == "decision" and record["answer"].count("-") == 2, (
                f"seed {seed}: {record}"
            )
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok", f"seed {seed}"
    finally:
        raw.close()
