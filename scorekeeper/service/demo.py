"""The demo driver: bots play a table live, through the real reader -> table -> log path.

A simulated world (``scorekeeper.sim``) plays a seeded game. Each of its inputs is performed
physically: a piece seen in a zone becomes a tag laid on (or lifted off) the reader under that
zone of a ``sim`` reader backend, which reports the Sighting to the hub like real hardware;
decisions go to the table directly. One physical action every ``pace`` seconds.

Resume: the world is deterministic per seed, and the seed of the demo's current table is kept in
the Store meta (``demo:current``). After a restart the table is rebuilt by replay (the hub does
that), the world is re-run from its seed, and its inputs are performed on *muted* readers -- which
rebuilds the readers' physical state without recording anything -- until they account for every
record the table's log already holds; from there on the game continues live.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.inputs import Decision, Seen, Sighting
from scorekeeper.errors import ScorekeeperError
from scorekeeper.service.hub import ENDED, RUNNING, Hub, NotRunning

log = logging.getLogger("scorekeeper.demo")

META_KEY = "demo:current"
KIT_NAME = "demo-kit"


def fake_uid(piece: str) -> str:
    """A made-up 7-byte NTAG-like uid for ``piece``: stable, derived from a hash of its id."""
    return "04" + hashlib.sha256(piece.encode("utf-8")).hexdigest()[:12].upper()


def demo_kit(pieces: tuple[str, ...]) -> dict[str, str]:
    """A generated tag registry (uid -> piece) for a demo table."""
    return {fake_uid(p): p for p in pieces}


def find_world_class(game_id: str) -> Any:
    """The simulated world for ``game_id``; UnknownGame names the games that have one."""
    from scorekeeper.sim import find_world

    return find_world(game_id)


@dataclass
class DemoTable:
    """The table the demo is playing and the seed of its world."""

    table_id: str
    seed: int


class DemoDriver:
    """Plays seeded bot games on ``hub`` one after another until ``stop()``."""

    def __init__(self, hub: Hub, *, game: str = "angels-and-demons", seats: int = 4,
                 seed: int = 1, pace: float = 1.0, next_game_after: float = 15.0,
                 options: Mapping[str, Any] | None = None,
                 on_table: Callable[[str, int], None] | None = None) -> None:
        self.hub = hub
        self.game_id = game
        self.seats = seats
        self.first_seed = seed
        self.pace = pace
        self.next_game_after = next_game_after
        self.options = dict(options or {})
        self.on_table = on_table
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._muted = False
        self._muted_count = 0
        self.current: DemoTable | None = None

    # -- life cycle ----------------------------------------------------------------------------

    def prepare(self) -> DemoTable:
        """Find the table to resume, or create the first one; attach its sim readers."""
        current = self._stored()
        if current is None:
            current = self._new_table(self.first_seed)
        self._attach(current)
        self.current = current
        return current

    def start(self) -> None:
        """Play in a background thread (call ``prepare`` first, or it is called here)."""
        if self.current is None:
            self.prepare()
        self._thread = threading.Thread(target=self._run, name="demo-driver", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop playing (finishes the action in progress) and wait for the thread."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    # -- tables --------------------------------------------------------------------------------

    @property
    def _meta_key(self) -> str:
        """Where the current demo table of this game is remembered: each game resumes its own
        (Angels & Demons keeps the key it always had)."""
        return META_KEY if self.game_id == "angels-and-demons" else f"{META_KEY}:{self.game_id}"

    def _stored(self) -> DemoTable | None:
        raw = self.hub.store.get_meta(self._meta_key)
        if not raw:
            return None
        data = json.loads(raw)
        table_id, seed = str(data["table"]), int(data["seed"])
        if table_id not in self.hub.table_ids():
            return None
        if self.hub.status(table_id) == ENDED:
            return self._new_table(seed + 1)
        return DemoTable(table_id, seed)

    def _new_table(self, seed: int) -> DemoTable:
        from scorekeeper.games import find_game

        game = find_game(self.game_id)
        # A demo answers the questions a person creating a table must answer (the board
        # profile of Arcanum) with the defaults, which are labelled samples.
        options = {o.name: o.default for o in game.options if o.ask} | self.options
        table_id = self.hub.create_table(
            game.id, [f"Bot {i + 1}" for i in range(self.seats)], options=options,
            layout=game.default_layout(self.seats), kit=demo_kit(game.pieces()),
            name=f"Demo: {game.name}, seed {seed}", readers="")
        self.hub.store.set_meta(self._meta_key, json.dumps({"table": table_id, "seed": seed}))
        self.hub.start(table_id)
        log.info("demo table created", extra={"table": table_id, "seed": seed})
        return DemoTable(table_id, seed)

    def _attach(self, current: DemoTable) -> None:
        from scorekeeper.readers.sim import SimBackend

        config = self.hub.config(current.table_id)
        backend = SimBackend(tuple(config.layout))
        sink = self.hub.sighting_sink(current.table_id)

        def emit(sighting: Sighting) -> None:
            if self._muted:
                self._muted_count += 1
            else:
                sink(sighting)

        backend.start(emit)
        self.hub.adopt_readers(current.table_id, backend)
        self._backend = backend
        # the first reader under a zone stands for the zone
        self._reader_of = {zone: reader for reader, zone in list(config.layout.items())[::-1]}
        self._uid_of = {piece: uid for uid, piece in config.kit.items()}
        if self.hub.status(current.table_id) != RUNNING:
            self.hub.start(current.table_id)
        if self.on_table is not None:
            self.on_table(current.table_id, current.seed)

    # -- playing -------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                assert self.current is not None
                finished = self._play(self.current)
                if not finished or self._stop.wait(self.next_game_after):
                    return
                old = self.current
                self.hub.end(old.table_id)
                self.current = self._new_table(old.seed + 1)
                self._attach(self.current)
        except Exception:  # noqa: BLE001 - a demo crash is logged, the server keeps serving
            log.exception("demo driver stopped")

    def _play(self, current: DemoTable) -> bool:
        """Play (or resume) one game; True when it finished, False when stopped."""
        config = self.hub.config(current.table_id)
        world = find_world_class(self.game_id)(len(config.seats), config.options, current.seed)
        logged = self.hub.inputs_seen(current.table_id)
        done = self._fast_forward(world, logged)
        if done:
            log.info("demo resumed", extra={"table": current.table_id, "seed": current.seed,
                                            "inputs": logged})
        while not self._stop.is_set():
            action = world.next_inputs()
            if not action:
                return True
            for inp in action:
                self._perform(current.table_id, inp)
            if self._stop.wait(self.pace):
                return False
        return False

    def _fast_forward(self, world: Any, logged: int) -> int:
        """Re-perform, muted, the world inputs the log already holds; returns how many records."""
        if logged == 0:
            return 0
        self._muted, self._muted_count = True, 0
        pending: list[Any] = []
        try:
            while self._muted_count < logged:
                if not pending:
                    pending = list(world.next_inputs())
                    if not pending:
                        break
                inp = pending.pop(0)
                if isinstance(inp, Seen):
                    self._physical(inp)  # counted by the muted emit if it makes a Sighting
                else:
                    self._muted_count += 1
        finally:
            self._muted = False
        records = self._muted_count
        for inp in pending:  # the rest of a half-performed action is performed live
            self._perform_checked(inp)
        return records

    def _perform_checked(self, inp: Any) -> None:
        assert self.current is not None
        self._perform(self.current.table_id, inp)

    def _physical(self, seen: Seen) -> None:
        reader = self._reader_of.get(seen.zone)
        uid = self._uid_of.get(seen.piece)
        if reader is None or uid is None:
            log.warning("demo cannot place a piece", extra={"zone": seen.zone})
            return
        if seen.present:
            self._backend.put(reader, uid)
        else:
            self._backend.take(reader, uid)

    def _perform(self, table_id: str, inp: Any) -> None:
        """Perform one world input, waiting while the organiser has paused the table."""
        while not self._stop.is_set():
            if self.hub.status(table_id) != RUNNING:
                self._stop.wait(0.5)
                continue
            try:
                if isinstance(inp, Decision):
                    self.hub.submit(table_id, inp)
                else:
                    self._physical(inp)
                return
            except NotRunning:
                continue
            except ScorekeeperError as exc:
                log.error("demo input failed", extra={"table": table_id, "error": str(exc)})
                return
