"""The hub's replayed copies of the event's games, kept up to date from the replicated logs.

Each game of an event is a table of the hub's store whose log is a replica of the table Pi's
own (scorekeeper/event/ingest.py writes it). ``Replicas`` replays each one with the same
referee the table runs, so the hub serves the same views and scores, and applies only the
records it holds without a gap (records 1..high water): a record that arrived early waits for
the ones before it. Every record is checked against its chained checksum, continuing from the
last one applied, so a replica never passes damage off as a game.

Hazard: a replica is a cache; PostgreSQL holds the truth. ``forget`` drops one, and any hub
process rebuilds the same state from the database.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.core.script_run import winners
from scorekeeper.core.table import Table
from scorekeeper.games import find_game
from scorekeeper.store import Store
from scorekeeper.store.chain import ChainChecker

BATCH = 500


@dataclass
class Replica:
    """One game's replayed table and how far it has been applied."""

    table: Table
    checker: ChainChecker
    lock: threading.Lock

    @property
    def seq(self) -> int:
        return self.checker.seq


def places(scores: tuple[int, ...], winning: list[int]) -> tuple[tuple[int, int, int], ...]:
    """(seat, rank, score) for every seat: the game's winners share rank 1; the others follow
    by score, equal scores sharing a rank (1, 1, 3, 4: the rank after a tie skips)."""
    won = set(winning)
    out = []
    for seat, score in enumerate(scores):
        if seat in won:
            rank = 1
        else:
            better = sum(1 for s, other in enumerate(scores) if s not in won and other > score)
            rank = len(won) + better + 1
        out.append((seat, rank, score))
    return tuple(out)


class Replicas:
    """The replayed games of one hub process (thread-safe)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._replicas: dict[str, Replica] = {}
        self._lock = threading.Lock()

    def _get(self, game_id: str) -> Replica:
        with self._lock:
            found = self._replicas.get(game_id)
            if found is None:
                config = self.store.config(game_id)
                game: Game[Any] = find_game(config.game)
                found = Replica(
                    Table(config, game, log=None),
                    ChainChecker(self.store.where, game_id),
                    threading.Lock(),
                )
                self._replicas[game_id] = found
            return found

    def refresh(self, game_id: str) -> Table:
        """The game's table with every record the store holds without a gap applied."""
        replica = self._get(game_id)
        with replica.lock:
            return self._catch_up(game_id, replica)

    def _catch_up(self, game_id: str, replica: Replica) -> Table:
        """Apply what the store holds after the replica's seq, up to a gap (lock held)."""
        while True:
            rows = self.store.raw_records(game_id, replica.seq, BATCH)
            applied = 0
            for seq, text, chain in rows:
                if seq != replica.seq + 1:
                    return replica.table  # a gap: the rest waits for its resend
                replica.checker.check(seq, text, chain)
                replica.table.apply_record(seq, json.loads(text))
                applied += 1
            if applied < BATCH:
                return replica.table

    def offer(self, game_id: str, rows: list[tuple[int, str, str]]) -> Table:
        """Apply ``rows`` (raw records just stored, consecutive seqs) to the game's replica
        without reading them back: the ingest hands over what it stored and read. Rows the
        replica already has are skipped; rows that start beyond its next seq (this replica
        was made after they were stored, or fell behind) make it read the gap from the store
        first, as ``refresh`` does. Chain-checked as ``refresh``."""
        replica = self._get(game_id)
        with replica.lock:
            fresh = [row for row in rows if row[0] > replica.seq]
            if fresh and fresh[0][0] != replica.seq + 1:
                return self._catch_up(game_id, replica)
            for seq, text, chain in fresh:
                replica.checker.check(seq, text, chain)
                replica.table.apply_record(seq, json.loads(text))
            return replica.table

    def applied(self, game_id: str) -> int:
        """The last record applied to the game's replica (0 before any)."""
        return self._get(game_id).seq

    def result(self, game_id: str) -> tuple[bool, tuple[tuple[int, int, int], ...]]:
        """(over, places) of the game as its replica stands: see ``places``."""
        table = self.refresh(game_id)
        over = bool(table.game.is_over(table.state))
        scores = tuple(int(s) for s in table.game.scores(table.state))
        return over, places(scores, winners(table) if over else [])

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._replicas.pop(game_id, None)
