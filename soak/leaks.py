"""Views checked for leaks: random games of both games played through a served hub, every view
and every WebSocket frame each audience got, checked for secrets shown where they must not be.

A real ``scorekeeper serve`` runs; for each game a table is created, every seat is paired as a
phone would be (a pairing code exchanged for a seat token), and WebSocket clients watch it: the
public view (the TV; on every other table a spectator delay is on, so that socket is a
spectator's) and each seat's phone with its token. The organiser types each input of a seeded
bot game, now and then undoes one or corrects one. After each input the client also fetches
the public view, the table list and each seat's view with that seat's token.

A copy of the table in this process takes the same inputs, so the secrets of every state are
known: each seat's secrets as its game defines them (``Game.secrets``: hidden cards and cards
known to be in its hand), and the face-down deck (the cards the bot world holds in its decks
before and after the move, none of which the referee may know). A view or frame for a state
(its ``inputs`` count) must not name a seat's secrets unless it is that seat's own view, and
no public or seat view may name a deck card. As in ``tests/games/arcanum/test_privacy.py``,
the history of past fame phases and feed lines of earlier inputs are left out (a card shown
then may be hidden again later, and the old line rightly names it).
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from soak.report import Row, count
from tests.api.procs import free_port, start_cli, wait_http

NAME = "views checked for leaks"
BUDGET = "0"
GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("arcanum", 3, {"board": "sample"}),
    ("angels-and-demons", 3, {}),
    ("arcanum", 4, {"board": "sample"}),
    ("angels-and-demons", 2, {}),
)
UNDO_RATE = 0.04
CORRECT_RATE = 0.03
SPECTATOR_DELAY_S = 1.0
DECKS = ("deck", "minor_deck", "major_deck")  # the worlds' face-down piles (sim locations())


@dataclass
class Secrets:
    """What must stay hidden in one state: per seat, and the face-down deck."""

    seats: list[frozenset[str]]
    deck: frozenset[str]


@dataclass
class Tally:
    views: int = 0
    frames: int = 0
    leaks: int = 0
    games: int = 0
    inputs: int = 0
    problems: list[str] = field(default_factory=list)


def _pattern(pieces: frozenset[str]) -> re.Pattern[str] | None:
    """A regex finding any of ``pieces`` as a whole id (not inside a longer one)."""
    if not pieces:
        return None
    alternatives = "|".join(re.escape(p) for p in sorted(pieces, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{alternatives})(?![A-Za-z0-9_])")


def shown(text: str) -> tuple[int, str] | None:
    """The state a view is of (its ``inputs``) and the part of it that must hold no secret:
    without fame-phase history and feed lines of earlier inputs. None for a non-view."""
    view = json.loads(text)
    if not isinstance(view, dict) or "inputs" not in view:
        return None
    k = int(view["inputs"])
    state = view.get("state")
    if isinstance(state, dict):
        view["state"] = {key: v for key, v in state.items() if key != "history"}
    if isinstance(view.get("feed"), list):
        view["feed"] = [e for e in view["feed"] if e.get("seq") == k]
    return k, json.dumps(view)


def leaks_in(text: str, audience: str, states: dict[int, Secrets]) -> list[str]:
    """The secrets ``text`` (one view or frame, seen by ``audience``: "public" or "seat N")
    shows that it must not, each as "seat N's X" or "deck card X"."""
    cut = shown(text)
    if cut is None:
        return []
    k, body = cut
    secrets = states.get(k)
    if secrets is None:
        return [f"a view of state {k}, which was never played"]
    out = []
    for seat, pieces in enumerate(secrets.seats):
        if audience == f"seat {seat}":
            continue
        pattern = _pattern(pieces)
        if pattern is not None:
            out += [f"seat {seat}'s {m}" for m in sorted(set(pattern.findall(body)))]
    pattern = _pattern(secrets.deck)
    if pattern is not None:
        out += [f"deck card {m}" for m in sorted(set(pattern.findall(body)))]
    return out


class Watcher:
    """A WebSocket client on its own thread keeping every frame it receives."""

    def __init__(self, url: str, audience: str) -> None:
        self.url = url
        self.audience = audience
        self.frames: list[str] = []
        self.closed: str | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _run(self) -> None:
        from websockets.sync.client import connect

        try:
            with connect(self.url, open_timeout=10) as ws:
                self._ready.set()
                while not self._stop.is_set():
                    try:
                        message = ws.recv(timeout=0.1)
                    except TimeoutError:
                        continue
                    self.frames.append(str(message))
        except Exception as exc:  # the campaign reports it; a thread must not die silently
            self.closed = f"{type(exc).__name__}: {exc}"
        finally:
            self._ready.set()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)


def _world(
    game: str, seats: int, options: dict[str, Any], seed: int
) -> list[tuple[Any, frozenset[str]]]:
    """A seeded bot game: each input with the deck cards face down both before and after the
    move it belongs to."""
    from scorekeeper.sim import find_world

    world: Any = find_world(game)(seats, options, seed)  # both worlds have locations()

    def deck() -> set[str]:
        where = world.locations()
        return {c for name in DECKS for c in where.get(name, ())}

    out: list[tuple[Any, frozenset[str]]] = []
    while True:
        before = deck()
        batch = world.next_inputs()
        if not batch:
            return out
        hidden = frozenset(before & deck())
        out += [(inp, hidden) for inp in batch]


class Game:
    """One table played through the API, with its copy in this process."""

    def __init__(
        self,
        client: httpx.Client,
        url: str,
        spec: tuple[str, int, dict[str, Any]],
        seed: int,
        delay: bool,
        tally: Tally,
    ) -> None:
        from scorekeeper.core.table import Table, TableConfig
        from scorekeeper.games import find_game

        game_id, seats, options = spec
        self.client, self.tally = client, tally
        created = client.post(
            "/api/tables",
            json={
                "game": game_id,
                "seats": [f"P{i}" for i in range(seats)],
                "options": options,
                "start": True,
            },
        )
        created.raise_for_status()
        self.table_id = str(created.json()["id"])
        self.base = f"/api/tables/{self.table_id}"
        config = client.get(f"{self.base}/export").json()["config"]
        self.game = find_game(game_id)
        self.copy = Table(TableConfig.from_dict(config), self.game)
        self.inputs = _world(game_id, seats, options, seed)
        self.seats = seats
        self.delay = delay
        if delay:
            client.post(
                f"{self.base}/spectator-delay", json={"seconds": SPECTATOR_DELAY_S}
            ).raise_for_status()
        self.tokens = []
        for seat in range(seats):
            code = client.post(f"{self.base}/seats/{seat}/pair").json()["code"]
            paired = httpx.post(f"{url}/api/pair", json={"code": code}, timeout=10)
            paired.raise_for_status()
            self.tokens.append(paired.json()["token"])
        ws = url.replace("http://", "ws://") + f"/ws/tables/{self.table_id}"
        self.watchers = [Watcher(ws, "public")]
        self.watchers += [
            Watcher(f"{ws}?token={t}", f"seat {s}") for s, t in enumerate(self.tokens)
        ]
        self.states: dict[int, Secrets] = {}
        self.views: list[tuple[str, str]] = []  # (audience, text) fetched over HTTP
        self._note(frozenset())

    def _note(self, deck: frozenset[str]) -> None:
        state = self.copy.state
        self.states[self.copy.inputs_seen] = Secrets(
            [frozenset(self.game.secrets(state, s)) for s in range(self.seats)], deck
        )

    def _fetch(self) -> None:
        self.views.append(("public", self.client.get(self.base).text))
        listed = self.client.get("/api/tables").json()
        for row in listed:
            if row.get("id") == self.table_id and "inputs" in row:
                self.views.append(("public", json.dumps(row)))
        for seat, token in enumerate(self.tokens):
            answer = self.client.get(
                f"{self.base}/seat/{seat}", headers={"Authorization": f"Bearer {token}"}
            )
            answer.raise_for_status()
            self.views.append((f"seat {seat}", answer.text))

    def play(self, rng: random.Random, limit: int | None = None) -> None:
        """Play the world's inputs (the first ``limit`` of them when given)."""
        from scorekeeper.core.inputs import Correct, Undo

        i = 0
        end = len(self.inputs) if limit is None else min(limit, len(self.inputs))
        while i < end:
            roll = rng.random()
            inp, deck = self.inputs[max(0, i - 1)] if i else self.inputs[0]
            if i and roll < UNDO_RATE:
                seq = self.client.get(f"{self.base}/undo-preview").json()["input_seq"]
                answer = self.client.post(f"{self.base}/undo", json={"seq": seq or 0})
                sent: Any = Undo()
                i -= 1
            elif i and roll < UNDO_RATE + CORRECT_RATE:
                text = inp.to_str()
                seq = self.client.post(f"{self.base}/correct-preview", json={"input": text}).json()[
                    "input_seq"
                ]
                answer = self.client.post(
                    f"{self.base}/correct", json={"input": text, "seq": seq or 0}
                )
                sent = Correct(inp)
            else:
                inp, deck = self.inputs[i]
                answer = self.client.post(f"{self.base}/inputs", json={"input": inp.to_str()})
                sent = inp
                i += 1
            mine = self.copy.submit(sent)
            if answer.status_code != 200 or not answer.json().get("accepted") or not mine.accepted:
                raise RuntimeError(
                    f"{self.table_id}: {sent.to_str()} was not accepted: "
                    f"{answer.status_code} {answer.text[:300]}"
                )
            self._note(deck)
            self.tally.inputs += 1
            self._fetch()

    def check(self) -> None:
        if self.delay:
            time.sleep(SPECTATOR_DELAY_S + 0.5)  # the spectators' last views are due
        else:
            time.sleep(0.3)
        for watcher in self.watchers:
            watcher.stop()
            if watcher.closed is not None:
                self.tally.problems.append(
                    f"{self.table_id} {watcher.audience} socket ended: {watcher.closed}"
                )
            if not watcher.frames:
                self.tally.problems.append(
                    f"{self.table_id} {watcher.audience} socket got no frame"
                )
        seen = [(w.audience, f, "frame") for w in self.watchers for f in w.frames]
        seen += [(audience, text, "view") for audience, text in self.views]
        for audience, text, kind in seen:
            found = leaks_in(text, audience, self.states)
            if found:
                self.tally.leaks += len(found)
                self.tally.problems.append(
                    f"{self.table_id}: a {audience} {kind} shows {', '.join(found[:3])}"
                )
        self.tally.frames += sum(len(w.frames) for w in self.watchers)
        self.tally.views += len(self.views)
        self.tally.games += 1
        self.client.post(f"{self.base}/end").raise_for_status()


def run(
    games: int,
    *,
    seed: int,
    workdir: Path,
    progress: Callable[[str], None],
    inputs_per_game: int | None = None,
) -> Row:
    """Play ``games`` games (the two games in turn) and check every view and frame; with
    ``inputs_per_game``, each game stops after that many inputs (a quick check)."""
    from scorekeeper.service.tokens import token_file_for

    rng = random.Random(seed)
    tally = Tally()
    port = free_port()
    db = workdir / "sk.db"
    proc = start_cli(
        ["serve", "--port", str(port), "--db", str(db), "--log-level", "warning"], workdir
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{url}/healthz", proc, timeout=30)
        headers = {"Authorization": "Bearer " + token_file_for(db).read_text().strip()}
        with httpx.Client(base_url=url, headers=headers, timeout=20) as client:
            for n in range(games):
                spec = GAMES[n % len(GAMES)]
                game = Game(
                    client, url, spec, rng.randrange(1 << 30), delay=n % 2 == 1, tally=tally
                )
                game.play(rng, inputs_per_game)
                game.check()
                progress(
                    f"{n + 1}/{games} games ({spec[0]}, {spec[1]} seats"
                    f"{', spectator delay' if game.delay else ''}): "
                    f"{tally.views + tally.frames:,} views and frames checked, "
                    f"{tally.leaks} leaked"
                )
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=20)
    ok = tally.leaks == 0 and not tally.problems and tally.games == games
    return Row(
        NAME,
        f"{count(tally.views, 'view')} + {count(tally.frames, 'frame')} in "
        f"{count(tally.games, 'game')} ({tally.inputs:,} inputs)",
        f"{tally.leaks:,} leaked",
        BUDGET,
        ok,
        problems=tuple(tally.problems[:10]),
    )
