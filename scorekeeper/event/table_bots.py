"""Bots at an event table: each event game the hub sends to this table is played by the game's
simulated world, through the table's own sim readers (``scorekeeper serve --event FILE --bots``).

For ``make event-demo`` (scorekeeper/event/demo.py): nobody sits at the demo's tables, so when
the table agent has created and started a game (its ``on_game`` hook), ``TableBots.play`` deals
it to bots. They play it as the single-table demo plays (scorekeeper/service/demo.py, whose
driver this reuses): each piece the world sees is a tag laid on or lifted off the sim reader
under its zone, each decision goes to the table directly, one action every ``pace`` seconds,
until the game is over. The world's seed comes from the game id, so a restarted table server
resumes a game where its log stands (``resume``) and plays the same game.

The tags must be the ones the game's config names: the hub gives every game the demo kit
(``bot_kit``, passed to ``EventHub(kits=...)``: ``scorekeeper hub serve --demo-kits``).

Hazard: bots and people at the same table fight; a judge's correction the world never made
stops the bots (the driver says so on the table) and a person finishes the game.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Mapping
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.service.demo import DIVERGED, DemoDriver, DemoTable, demo_kit
from scorekeeper.service.hub import RUNNING, Hub

log = logging.getLogger("scorekeeper.event.bots")

DEFAULT_PACE = 0.05  # seconds between two actions of a bot


def bot_kit(game: Game[Any], options: Mapping[str, Any], _seats: int) -> dict[str, str]:
    """The tags of a bot-played game (an ``EventHub`` ``kits`` function): the demo kit of the
    pieces its (resolved) options name."""
    return demo_kit(game.pieces_for(options))


def seed_of(game_id: str) -> int:
    """The seed of a game's simulated world: from its id, so a restart plays the same game."""
    return int.from_bytes(hashlib.sha256(game_id.encode("utf-8")).digest()[:4], "big")


class GameBots(DemoDriver):
    """Bots playing one game that already exists and runs at this table, until it is over
    (or ended, or ``stop()``). Unlike the demo's driver it creates no table and deals no next
    game, and stopping leaves the game as it is (the hub, not the bots, decides its fate)."""

    def __init__(self, hub: Hub, game_id: str, pace: float) -> None:
        config = hub.config(game_id)
        seed = seed_of(game_id)
        super().__init__(hub, game=config.game, seats=len(config.seats), seed=seed, pace=pace)
        self.current = DemoTable(game_id, seed)
        self.outcome: str | None = None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._run, name=f"bots-{self.current.table_id if self.current else ''}"
        )
        self._thread.daemon = True
        self._thread.start()

    def _run(self) -> None:
        assert self.current is not None
        game_id = self.current.table_id
        try:
            self.outcome = self._play(self.current)
        except Exception:  # noqa: BLE001 - the table serves on; its people can play on
            log.exception("the bots stopped on an error", extra={"game": game_id})
            return
        if self.outcome == DIVERGED:
            self.hub.notice(
                game_id,
                "The bots cannot play on from here (the table holds a move their game never "
                "made): a person plays this game on.",
            )
        log.info("bots done", extra={"game": game_id, "outcome": self.outcome})

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the action in progress; the game stays as it is."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)


class TableBots:
    """The bots of one table server: a ``GameBots`` for each event game it starts."""

    def __init__(self, hub: Hub, pace: float = DEFAULT_PACE) -> None:
        self.hub = hub
        self.pace = pace
        self._games: dict[str, GameBots] = {}
        self._lock = threading.Lock()

    def play(self, game_id: str) -> None:
        """Deal ``game_id`` (created and running) to bots; again while they play: nothing.
        Called on the table agent's worker thread: it only starts a thread."""
        with self._lock:
            found = self._games.get(game_id)
            if found is not None and found.alive:
                return
            bots = GameBots(self.hub, game_id, self.pace)
            self._games[game_id] = bots
        log.info("bots deal a game", extra={"game": game_id, "seed": bots.first_seed})
        bots.start()

    def resume(self, prefix: str) -> list[str]:
        """Play on the running games whose id starts with ``prefix`` (an event's, after a
        restart of the table server); returns their ids."""
        running = [
            table_id
            for table_id in self.hub.table_ids()
            if table_id.startswith(prefix) and self.hub.status(table_id) == RUNNING
        ]
        for table_id in running:
            self.play(table_id)
        return running

    def stop(self) -> None:
        with self._lock:
            bots = list(self._games.values())
        for each in bots:
            each.stop()
