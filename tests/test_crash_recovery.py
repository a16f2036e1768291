"""Kill -9 the real server at random moments of a simulated game; nothing acknowledged is lost.

A simulated Angels & Demons game is fed to ``scorekeeper serve`` (a real subprocess with a real
SQLite file) one input at a time through the organiser's input endpoint. A timer SIGKILLs the
server at a random moment; the test restarts it, checks that every input the server
acknowledged is in the log, resumes from what the log holds, and at the end compares the
server's state with an uninterrupted in-process run over the same inputs.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.games import find_game
from scorekeeper.service.tokens import token_file_for
from scorekeeper.sim import find_world
from scorekeeper.store import Store

GAME = "angels-and-demons"
SEATS = ["Ann", "Bea", "Cid"]


def world_inputs(seed: int) -> list[Seen | Decision]:
    world = find_world(GAME)(len(SEATS), {}, seed)
    out: list[Seen | Decision] = []
    while batch := world.next_inputs():
        out.extend(batch)
    return out


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
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
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not come up within 20 s")


def organiser_view(url: str, table_id: str, headers: dict[str, str]) -> dict[str, Any]:
    response = httpx.get(f"{url}/api/tables/{table_id}/organiser", headers=headers, timeout=10)
    response.raise_for_status()
    return dict(response.json())


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_input(tmp_path: Path) -> None:
    inputs = world_inputs(seed=11)
    assert len(inputs) > 100
    rng = random.Random(2026)
    db = tmp_path / "crash.db"
    table_id: str | None = None
    acknowledged: set[int] = set()  # indexes into ``inputs`` the server answered
    kills = 0
    while True:
        proc, url = start_server(db)
        try:
            headers = {"Authorization": "Bearer " + token_file_for(db).read_text().strip()}
            if table_id is None:
                created = httpx.post(
                    f"{url}/api/tables",
                    headers=headers,
                    timeout=10,
                    json={"game": GAME, "seats": SEATS, "start": True},
                )
                assert created.status_code == 201, created.text
                table_id = str(created.json()["id"])
            logged = int(organiser_view(url, table_id, headers)["inputs"])
            # Every acknowledged input is in the log (possibly one more, logged but unanswered).
            assert all(i < logged for i in acknowledged), (sorted(acknowledged)[-3:], logged)
            if logged == len(inputs):
                final = organiser_view(url, table_id, headers)
                break
            killer = None
            if kills < 4:
                killer = threading.Timer(
                    rng.uniform(0.15, 0.8), lambda p=proc: os.kill(p.pid, signal.SIGKILL)
                )
                killer.start()
            with httpx.Client(base_url=url, headers=headers, timeout=10) as client:
                for index in range(logged, len(inputs)):
                    try:
                        answer = client.post(
                            f"/api/tables/{table_id}/inputs", json={"input": inputs[index].to_str()}
                        )
                    except httpx.HTTPError:
                        break
                    assert answer.status_code == 200, answer.text
                    assert answer.json()["accepted"], (index, inputs[index], answer.json())
                    acknowledged.add(index)
            if killer is not None:
                killer.join()
                kills += 1
            else:
                final = organiser_view(url, table_id, headers)
                break
        finally:
            if proc.poll() is None:
                proc.terminate()
            proc.wait(timeout=20)
    assert kills == 4
    assert table_id is not None
    # The log holds exactly the game's inputs, in order, each once (fed through POST .../inputs,
    # so each is marked as typed by the organiser).
    store = Store(f"sqlite:///{db}")
    try:
        records = list(store.records(table_id))
        config = store.config(table_id)
    finally:
        store.close()
    assert [r for _, r in records] == [{**i.to_record(), "typed": True} for i in inputs]
    # An uninterrupted run reaches the identical state the restarted server shows.
    game = find_game(GAME)
    straight = Table(
        TableConfig(
            game=GAME,
            seats=tuple(SEATS),
            options=config.options,
            layout=config.layout,
            kit=config.kit,
        ),
        game,
    )
    for inp in inputs:
        assert straight.submit(inp).accepted
    assert game.is_over(straight.state)
    replayed = Table.replay(config, game, records)
    assert replayed.state == straight.state
    assert final["state"] == straight.view("organiser")["state"]
    assert final["scores"] == list(game.scores(straight.state))
