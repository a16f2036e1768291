"""Cold start to the first HTTP 200, and resident memory of ``scorekeeper serve`` with one table.

The server is started as a real subprocess on a free port with a fresh database; cold start is
the wall time from spawning it to its first 200 on ``/api/tables``. Memory is the server's VmRSS
after one table was created and a simulated game's first 300 inputs were played on it.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.common import percentile, report
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.service.tokens import token_file_for
from scorekeeper.sim import find_world

COLD_BUDGET_S = 1.5
RSS_BUDGET_MB = 80.0
GAME = "angels-and-demons"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _spawn(db: Path) -> tuple[subprocess.Popen[bytes], str, float]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorekeeper",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--log-level",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with httpx.Client() as client:
        while True:
            try:
                if client.get(f"{url}/api/tables", timeout=1).status_code == 200:
                    return proc, url, time.perf_counter() - start
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.perf_counter() - start > 30:
                proc.kill()
                raise RuntimeError("scorekeeper serve did not answer within 30 s")
            time.sleep(0.005)


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _rss_after_play(
    db: Path, game: str, seats: int, options: dict[str, Any], count: int | None
) -> tuple[float, int]:
    """A fresh server with one table of ``game`` that has taken the first ``count`` inputs of a
    simulated game (all of them when None): its resident memory and the inputs sent."""
    proc, url, _ = _spawn(db)
    try:
        headers = {"Authorization": "Bearer " + token_file_for(db).read_text().strip()}
        with httpx.Client(base_url=url, headers=headers, timeout=10) as client:
            created = client.post(
                "/api/tables",
                json={"game": game, "seats": seats, "options": options, "start": True},
            )
            created.raise_for_status()
            table_id = created.json()["id"]
            world = find_world(game)(seats, options, 1)
            inputs: list[Seen | Decision] = []
            while (count is None or len(inputs) < count) and (batch := world.next_inputs()):
                inputs.extend(batch)
            sent = inputs if count is None else inputs[:count]
            for inp in sent:
                client.post(f"/api/tables/{table_id}/inputs", json={"input": inp.to_str()})
            client.get(f"/api/tables/{table_id}")
        return _rss_mb(proc.pid), len(sent)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


ARCANA_OPTIONS = ("custom_guild", "objectives", "watch", "guild_masters", "events", "set_aside")


def run(starts: int = 5) -> tuple[float, float]:
    colds = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        for _ in range(starts):
            proc, url, cold = _spawn(db)
            colds.append(cold)
            proc.terminate()
            proc.wait(timeout=20)
        rss, _ = _rss_after_play(db, GAME, 4, {}, 300)
        arcanum_rss, arcanum_inputs = _rss_after_play(
            Path(tmp) / "arcanum.db", "arcanum", 5, {"board": "sample", "length": "long"}, None
        )
        # A whole 6-player game whose views carry each seat's purse and ledger.
        elves_rss, elves_inputs = _rss_after_play(
            Path(tmp) / "elves.db", "king-of-the-elves", 6, {"deck": "assumed"}, None
        )
        # A whole 4-player game on a 304-card pack with every optional rule.
        every = {"pack": "sample", **dict.fromkeys(ARCANA_OPTIONS, True)}
        arcana_rss, arcana_inputs = _rss_after_play(
            Path(tmp) / "arcana.db", "arcana", 4, every, None
        )
    median = percentile(colds, 50)
    report(
        f"cold start to first HTTP 200 (median of {starts})",
        f"{median:.2f} s (max {max(colds):.2f})",
        f"<= {COLD_BUDGET_S} s",
        median <= COLD_BUDGET_S,
    )
    report(
        "scorekeeper serve resident memory, one table",
        f"{rss:.1f} MB",
        f"<= {RSS_BUDGET_MB:.0f} MB",
        rss <= RSS_BUDGET_MB,
    )
    report(
        f"  the same, one 5-player Arcanum table ({arcanum_inputs} inputs)",
        f"{arcanum_rss:.1f} MB",
        f"<= {RSS_BUDGET_MB:.0f} MB",
        arcanum_rss <= RSS_BUDGET_MB,
    )
    report(
        f"  the same, one 6-player King of the Elves table ({elves_inputs} inputs)",
        f"{elves_rss:.1f} MB",
        f"<= {RSS_BUDGET_MB:.0f} MB",
        elves_rss <= RSS_BUDGET_MB,
    )
    report(
        f"  the same, one 4-player Arcana table, every option ({arcana_inputs} inputs)",
        f"{arcana_rss:.1f} MB",
        f"<= {RSS_BUDGET_MB:.0f} MB",
        arcana_rss <= RSS_BUDGET_MB,
    )
    return median, rss
