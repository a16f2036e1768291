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
from scorekeeper.games import find_game, game_ids
from scorekeeper.service.tokens import token_file_for
from scorekeeper.sim import find_world, has_world

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


def _heaviest(game_id: str) -> tuple[int, dict[str, Any], str]:
    """The table of ``game_id`` that holds the most: the most seats, every yes/no option on
    (every optional rule), and the entries a person is asked for at their shipped defaults;
    with its description for the report. Built from the game's declared options, so a new game
    needs no line here."""
    game = find_game(game_id)
    options: dict[str, Any] = {o.name: o.default for o in game.options if o.ask}
    on = [o.name for o in game.options if isinstance(o.default, bool) and not o.ask]
    options.update(dict.fromkeys(on, True))
    said = f"{game.max_seats}-player {game.name} table"
    return game.max_seats, options, said + (", every yes/no option on" if on else "")


def run(starts: int = 5) -> tuple[float, float]:
    colds = []
    heavy: list[tuple[str, float, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        for _ in range(starts):
            proc, url, cold = _spawn(db)
            colds.append(cold)
            proc.terminate()
            proc.wait(timeout=20)
        rss, _ = _rss_after_play(db, GAME, 4, {}, 300)
        # A whole game at every registered game's heaviest table.
        for n, game_id in enumerate(g for g in game_ids() if has_world(g)):
            seats, options, said = _heaviest(game_id)
            got, inputs = _rss_after_play(Path(tmp) / f"g{n}.db", game_id, seats, options, None)
            heavy.append((said, got, inputs))
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
    for said, got, inputs in heavy:
        report(
            f"  the same, one whole {said} ({inputs} inputs)",
            f"{got:.1f} MB",
            f"<= {RSS_BUDGET_MB:.0f} MB",
            got <= RSS_BUDGET_MB,
        )
    return median, rss
