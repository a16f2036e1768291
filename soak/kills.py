"""Kills: ``scorekeeper serve`` is SIGKILLed at random moments while a client plays real games.

A real server subprocess runs on a temporary database. A client plays seeded bot games of both
games through the HTTP API as the organiser: each world input typed into ``POST .../inputs``,
now and then an undo or a correction (previewed, then pinned, as the console does it). After
every acknowledged input the client fetches the table's views (public, organiser, each seat).
A timer kills the server with SIGKILL at a random moment; the server is started again on the
same database and the client checks, through the organiser's export:

- every input the API acknowledged is in the log under the sequence number it was given,
  identical (same input, not refused), and no record read before has changed since;
- every view fetched for the state the log now holds equals the view after the restart.

Then it plays on from what the log holds (an input logged but never answered counts as played).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from soak.report import Row, count
from tests.api.procs import free_port, start_cli, wait_http

NAME = "kills"
BUDGET = "all 0"
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("angels-and-demons", {}),
    ("arcanum", {"board": "sample"}),
)
SEATS = ("Ann", "Bea", "Cid")
UNDO_RATE = 0.04
CORRECT_RATE = 0.03
KILL_AFTER = (0.1, 1.5)  # seconds of play before the kill, drawn uniformly


@dataclass
class Game:
    """One table the client plays: its world inputs and what the server acknowledged."""

    table_id: str
    inputs: list[Any]
    acked: dict[int, Any] = field(default_factory=dict)  # log seq -> the input sent
    records: dict[int, dict[str, Any]] = field(default_factory=dict)  # first read of each
    views: dict[str, tuple[int, Any]] = field(default_factory=dict)  # audience -> (inputs, view)
    done: int = 0  # world inputs the log holds (after undos and corrections)


@dataclass
class Tally:
    kills: int = 0
    restarts: int = 0
    acknowledged: int = 0
    lost: int = 0
    altered: int = 0
    compared: int = 0
    differ: int = 0
    games: int = 0
    problems: list[str] = field(default_factory=list)


def world_inputs(game: str, options: dict[str, Any], seed: int) -> list[Any]:
    """Every input of one seeded bot game of ``game``."""
    from scorekeeper.sim import find_world

    return list(find_world(game)(len(SEATS), options, seed).inputs())


class Player:
    """The client: plays, checks after each restart, keeps the tally."""

    def __init__(self, rng: random.Random, tally: Tally) -> None:
        self.rng = rng
        self.tally = tally
        self.games: list[Game] = []
        self.current: Game | None = None
        self.next_game = 0

    # -- after a (re)start --------------------------------------------------------------------

    def check(self, client: httpx.Client) -> None:
        """Every acknowledged input is in the log, identical; the views equal those fetched
        for the state the log holds; the current game resumes from the log."""
        for game in self.games:
            export = client.get(f"/api/tables/{game.table_id}/export")
            if export.status_code != 200:
                self.tally.problems.append(
                    f"table {game.table_id} cannot be exported after "
                    f"a restart: {export.status_code} {export.text[:200]}"
                )
                self.tally.lost += len(game.acked)
                continue
            records = {int(e["seq"]): e["record"] for e in export.json()["inputs"]}
            self._compare_records(game, records)
            game.done = self._position(game, records)
            self._compare_views(client, game)

    def _compare_records(self, game: Game, records: dict[int, dict[str, Any]]) -> None:
        from scorekeeper.core.inputs import input_from_record

        for seq, sent in game.acked.items():
            record = records.get(seq)
            if record is None:
                self.tally.lost += 1
                self.tally.problems.append(
                    f"{game.table_id} #{seq} ({sent.to_str()}) was "
                    "acknowledged and is not in the log"
                )
            elif input_from_record(record) != sent or "refused" in record:
                self.tally.altered += 1
                self.tally.problems.append(
                    f"{game.table_id} #{seq}: sent {sent.to_str()}, "
                    f"the log holds {json.dumps(record)}"
                )
        for seq, record in records.items():
            first = game.records.setdefault(seq, record)
            if first != record:
                self.tally.altered += 1
                self.tally.problems.append(f"{game.table_id} #{seq} changed across a restart")

    @staticmethod
    def _position(game: Game, records: dict[int, dict[str, Any]]) -> int:
        """How many world inputs the log's records leave applied (undo takes one back, a
        correction replaces the last one with itself)."""
        done = 0
        for seq in sorted(records):
            kind = records[seq].get("type")
            if "refused" in records[seq]:
                continue
            if kind == "undo":
                done -= 1
            elif kind in ("seen", "decision"):
                done += 1
        return done

    def _compare_views(self, client: httpx.Client, game: Game) -> None:
        now = self._views(client, game.table_id)
        for audience, (inputs, before) in game.views.items():
            after_inputs, after = now[audience]
            if inputs != after_inputs:
                continue  # fetched for another state (the kill came while fetching)
            self.tally.compared += 1
            if before != after:
                self.tally.differ += 1
                self.tally.problems.append(
                    f"{game.table_id}, {audience} view after {inputs} inputs differs after "
                    f"a restart: {_first_difference(before, after)}"
                )

    # -- playing ------------------------------------------------------------------------------

    def _views(self, client: httpx.Client, table_id: str) -> dict[str, tuple[int, Any]]:
        paths = {
            "public": f"/api/tables/{table_id}",
            "organiser": f"/api/tables/{table_id}/organiser",
            **{f"seat {s}": f"/api/tables/{table_id}/seat/{s}" for s in range(len(SEATS))},
        }
        out = {}
        for audience, path in paths.items():
            answer = client.get(path)
            answer.raise_for_status()
            view = answer.json()
            out[audience] = (int(view["inputs"]), view)
        return out

    def _new_game(self, client: httpx.Client) -> Game:
        game_id, options = GAMES[self.next_game % len(GAMES)]
        self.next_game += 1
        created = client.post(
            "/api/tables",
            json={"game": game_id, "seats": list(SEATS), "options": options, "start": True},
        )
        created.raise_for_status()
        game = Game(
            str(created.json()["id"]), world_inputs(game_id, options, self.rng.randrange(1 << 30))
        )
        self.games.append(game)
        self.tally.games += 1
        return game

    def play(self, client: httpx.Client) -> None:
        """Play until the connection fails (the kill)."""
        while True:
            game = self.current
            if game is None or game.done >= len(game.inputs):
                if game is not None:  # its views change with the status: fetched anew
                    game.views = {}
                    base = f"/api/tables/{game.table_id}"
                    if client.get(base).json()["status"] != "ended":  # a kill may have come
                        client.post(f"{base}/end").raise_for_status()  # after the end
                    game.views = self._views(client, game.table_id)
                game = self.current = self._new_game(client)
            self._step(client, game)

    def _step(self, client: httpx.Client, game: Game) -> None:
        from scorekeeper.core.inputs import Correct, Undo

        base = f"/api/tables/{game.table_id}"
        roll = self.rng.random()
        if game.done > 0 and roll < UNDO_RATE:
            preview = client.get(f"{base}/undo-preview").json()
            answer = client.post(f"{base}/undo", json={"seq": preview["input_seq"] or 0})
            sent: Any = Undo()
        elif game.done > 0 and roll < UNDO_RATE + CORRECT_RATE:
            text = game.inputs[game.done - 1].to_str()
            preview = client.post(f"{base}/correct-preview", json={"input": text}).json()
            answer = client.post(
                f"{base}/correct", json={"input": text, "seq": preview["input_seq"] or 0}
            )
            sent = Correct(game.inputs[game.done - 1])
        else:
            sent = game.inputs[game.done]
            answer = client.post(f"{base}/inputs", json={"input": sent.to_str()})
        if answer.status_code != 200 or not answer.json().get("accepted"):
            raise RuntimeError(
                f"{game.table_id}: {sent.to_str()} was not accepted: "
                f"{answer.status_code} {answer.text[:300]}"
            )
        game.acked[int(answer.json()["seq"])] = sent
        self.tally.acknowledged += 1
        game.done += -1 if isinstance(sent, Undo) else 0 if isinstance(sent, Correct) else 1
        game.views = {}  # a kill while fetching leaves the views of this state only
        for audience, seen in self._views(client, game.table_id).items():
            game.views[audience] = seen


def _first_difference(before: Any, after: Any, where: str = "") -> str:
    """Where two JSON values first differ, in a few words."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after)):
            if before.get(key) != after.get(key):
                return _first_difference(before.get(key), after.get(key), f"{where}.{key}")
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            if b != a:
                return _first_difference(b, a, f"{where}[{i}]")
    return f"{where or 'view'}: {json.dumps(before)[:80]} -> {json.dumps(after)[:80]}"


def _start(db: Path, workdir: Path) -> tuple[Any, str]:
    port = free_port()
    proc = start_cli(
        ["serve", "--port", str(port), "--db", str(db), "--log-level", "warning"], workdir
    )
    url = f"http://127.0.0.1:{port}"
    wait_http(f"{url}/healthz", proc, timeout=30)
    return proc, url


def run(kills: int, *, seed: int, workdir: Path, progress: Callable[[str], None]) -> Row:
    """``kills`` SIGKILLs at random moments of play, each followed by a restart and the checks."""
    from scorekeeper.service.tokens import token_file_for

    rng = random.Random(seed)
    tally = Tally()
    player = Player(rng, tally)
    db = workdir / "sk.db"
    while True:
        try:
            proc, url = _start(db, workdir)
        except AssertionError as exc:
            tally.problems.append(
                f"the server did not come back after kill {tally.kills}: "
                f"{exc} (see {workdir}/stderr.txt)"
            )
            break
        headers = {"Authorization": "Bearer " + token_file_for(db).read_text().strip()}
        killer = None
        try:
            with httpx.Client(base_url=url, headers=headers, timeout=20) as client:
                if tally.kills or tally.restarts:
                    tally.restarts += 1
                player.check(client)
                if tally.kills >= kills:
                    break
                killer = threading.Timer(
                    rng.uniform(*KILL_AFTER), os.kill, (proc.pid, signal.SIGKILL)
                )
                killer.start()
                with contextlib.suppress(httpx.TransportError):  # the kill
                    player.play(client)
            killer.join()
            proc.wait(timeout=20)
            if proc.returncode != -signal.SIGKILL:
                tally.problems.append(f"the server ended with {proc.returncode}, not by the kill")
            tally.kills += 1
            if tally.kills % 5 == 0 or tally.kills == kills:
                progress(
                    f"{tally.kills}/{kills} kills, {tally.acknowledged:,} inputs "
                    f"acknowledged in {tally.games} games, {tally.lost} lost, "
                    f"{tally.differ} of {tally.compared} views differ"
                )
        finally:
            if killer is not None:
                killer.cancel()
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=20)
    ok = (
        tally.lost == tally.altered == tally.differ == 0
        and not tally.problems
        and tally.kills == kills
    )
    return Row(
        NAME,
        f"{count(tally.kills, 'kill')}, {count(tally.acknowledged, 'input')} "
        f"acknowledged, {count(tally.compared, 'view')} compared",
        f"{tally.lost:,} lost, {tally.altered:,} altered, {tally.differ:,} views differ",
        BUDGET,
        ok,
        problems=tuple(tally.problems[:10]),
    )
