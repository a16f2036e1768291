"""A table and a hub joined by a real broker, for the replication tests (test_replication*.py).

The table is a service Hub on its own SQLite store with a TableAgent; the hub side is a Store
(PostgreSQL in these tests) with an Ingest. ``Rig.same`` asserts what every case ends with:
the hub's copy of a game is the table's log record for record, and replaying it gives the
table's state.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.table import TableConfig
from scorekeeper.event import wire
from scorekeeper.event.ingest import Ingest, new_command_id
from scorekeeper.event.table_agent import TableAgent
from scorekeeper.event.table_credentials import TableCredentials
from scorekeeper.games import find_game
from scorekeeper.service import Hub
from scorekeeper.sim import find_world
from scorekeeper.store import Store

GAME = "angels-and-demons"
SEATS = ("Ann", "Bea", "Cid")
TABLE = "t1"
ALL = 1_000_000


def world_inputs(seed: int, count: int = 80) -> list[Seen | Decision]:
    """The first ``count`` inputs of a simulated game (what the table's readers and players
    would give; a whole game is ~900 records, more time than these tests need)."""
    return list(find_world(GAME)(len(SEATS), {}, seed).inputs())[:count]


def game_config() -> TableConfig:
    """The config the hub assigns to a pod: the game's options resolved, its default layout."""
    game = find_game(GAME)
    return TableConfig(
        game=GAME,
        seats=SEATS,
        options=game.resolve_options({}, len(SEATS)),
        layout=game.default_layout(len(SEATS)),
    )


@dataclass
class Rig:
    """One table (hub + agent) and one event hub's store and ingest, on one broker."""

    tmp: Path
    pg_url: str
    port: int
    heartbeat: float = 0.2
    event: str = field(default_factory=lambda: f"ev{uuid.uuid4().hex[:8]}")
    replies: dict[str, list[wire.Reply]] = field(default_factory=dict)  # by command id
    changed: threading.Condition = field(default_factory=threading.Condition)

    def __post_init__(self) -> None:
        self.creds = TableCredentials(self.event, TABLE, "127.0.0.1", self.port)
        self.game = wire.game_id(self.event, 1, TABLE)
        self.table = Hub.open(self.tmp / "table.db")
        self.agent = self.new_agent()
        self.store = Store(self.pg_url)
        self.ingest = Ingest(
            self.store,
            self.event,
            "127.0.0.1",
            self.port,
            "",
            "",
            client_id=wire.hub_client_id(self.event, 1),
            on_records=lambda _game, _high: self._tell(),
            on_reply=self._on_reply,
            resend_after=0.2,  # a gap here is a real one: no other hub holds the records
        )

    def new_agent(self) -> TableAgent:
        return TableAgent(self.table, self.creds, heartbeat=self.heartbeat)

    def _tell(self) -> None:
        with self.changed:
            self.changed.notify_all()

    def _on_reply(self, _table: str, reply: wire.Reply) -> None:
        self.replies.setdefault(reply.id, []).append(reply)
        self._tell()

    def until(self, what: str, check: Callable[[], bool], timeout: float = 15.0) -> None:
        """Wait until ``check()`` holds (woken by what the ingest hears, or every 50 ms)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not check():
                left = deadline - time.monotonic()
                assert left > 0, f"timed out waiting until {what}: {self.counters()}"
                self.changed.wait(min(left, 0.05))

    def counters(self) -> dict[str, Any]:
        """What each side counted (shown when a wait times out)."""
        i, a = self.ingest, self.agent
        names = ("received", "duplicates", "resends", "refused", "bad")
        return {
            **{n: getattr(i, n) for n in names},
            "published": a.published,
            "resent": a.resent,
            "known high": self.ingest.known_high(self.game),
        }

    def start(self) -> None:
        self.ingest.start()
        self.agent.start()
        self.until("both are connected", lambda: self.ingest.connected and self.agent.connected)

    def close(self) -> None:
        self.agent.stop()
        self.ingest.stop()
        self.table.close()
        self.store.close()

    def assign(self, *, create_on_hub: bool = True) -> None:
        """The hub assigns the game: its row in the hub's store, then the create command."""
        config = game_config()
        if create_on_hub:
            self.store.create_table(config, table_id=self.game)
        self.command(wire.Create(new_command_id(), self.game, config.to_dict(), True))

    def command(self, command: wire.Command) -> wire.Reply:
        """Send a command to the table and wait for its reply."""
        self.ingest.send(TABLE, command)
        self.until(f"{command.KIND} is answered", lambda: command.id in self.replies)
        return self.replies[command.id][0]

    def play(self, inputs: list[Seen | Decision]) -> None:
        for inp in inputs:
            self.table.submit(self.game, inp)

    def last_seq(self) -> int:
        return int(self.table.store.raw_records(self.game, 0, ALL)[-1][0])

    def caught_up(self) -> None:
        """Wait until the hub holds every record of the table's game, without a gap."""
        last = self.last_seq()
        self.until(
            f"the hub holds records 1..{last}", lambda: self.ingest.known_high(self.game) >= last
        )
        assert self.store.high_water(self.game) == last

    def same(self) -> None:
        """The hub's copy equals the table's log, and replaying it gives the table's state."""
        mine = self.table.store.raw_records(self.game, 0, ALL)
        copy = self.store.raw_records(self.game, 0, ALL)
        assert copy == mine and mine
        replayed = self.store.load_table(self.game, find_game(GAME))
        table: Any = self.table._get(self.game).table
        assert replayed.state == table.state
        assert replayed.inputs_seen == table.inputs_seen
