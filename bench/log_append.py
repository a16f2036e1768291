"""Log append latency including fsync (SQLite WAL, synchronous=FULL), on the real Store."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.common import percentile, report
from scorekeeper.core.table import TableConfig
from scorekeeper.store import Store

BUDGET_MS = 5.0


def run(count: int = 2000) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        table_id = store.create_table(
            TableConfig(game="angels-and-demons", seats=("A", "B", "C", "D"))
        )
        record = {"type": "sighting", "reader": "talon", "uid": "04A1B2C3D4E5F6", "present": True}
        times = []
        for _ in range(count):
            start = time.perf_counter()
            store.append(table_id, record)
            times.append((time.perf_counter() - start) * 1000)
        store.close()
    p50, p99 = percentile(times, 50), percentile(times, 99)
    report(
        f"log append incl. fsync ({count} appends)",
        f"p50 {p50:.2f} ms  p99 {p99:.2f} ms",
        f"p99 <= {BUDGET_MS} ms",
        p99 <= BUDGET_MS,
    )
    return p99
