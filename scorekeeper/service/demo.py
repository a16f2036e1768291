"""The demo driver: bots play a table live, through the real reader -> table -> log path.

A simulated world (``scorekeeper.sim``) plays a seeded game. Each of its inputs is performed
physically: a piece seen in a zone becomes a tag laid on (or lifted off) the reader under that
zone of a ``sim`` reader backend, which reports the Sighting to the hub like real hardware;
decisions go to the table directly. One physical action every ``pace`` seconds.

The bots follow the table. The world is deterministic per seed, so the table's accepted inputs
are a prefix of the world's moves as long as only the bots play. Whenever the table changed
behind the bots' back (an organiser's undo, correction or forced input; a bot's move refused),
and at every start, the driver *syncs*: it re-runs the world from its seed while comparing its
moves with the table's accepted inputs, performing them on fresh *muted* sim readers (which
rebuilds the pieces' physical places without recording anything), and plays on live from the
end of that prefix. An undo thus rewinds the bots; a restart resumes where the log stands.

When the table holds a move the world never made (a correction to another card, an input fed
by hand), the bots cannot follow: the table says so in plain words (a notice), is ended, and a
fresh demo game is dealt at a new table with the next seed, rather than bots playing against
refusals. Each input is performed holding the table's lock, after checking that nothing changed
since the bots' last move, so an organiser's action never lands between the check and the move.
A paused table pauses the bots; an ended one makes them deal a new game.

The seed of each game's current demo table is kept in the Store meta (``demo:current``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.inputs import Decision, Seen, Sighting
from scorekeeper.errors import ScorekeeperError
from scorekeeper.games import DEFAULT_GAME
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


# What one round of play ended with.
FINISHED, STOPPED, DIVERGED, RESYNC = "finished", "stopped", "diverged", "resync"
MAX_FRESH_REFUSALS = 3  # a move refused right after a sync, this often: the bots cannot follow


class DemoDriver:
    """Plays seeded bot games on ``hub`` one after another until ``stop()``."""

    def __init__(
        self,
        hub: Hub,
        *,
        game: str = DEFAULT_GAME,
        seats: int = 4,
        seed: int = 1,
        pace: float = 1.0,
        next_game_after: float = 15.0,
        options: Mapping[str, Any] | None = None,
        on_table: Callable[[str, int], None] | None = None,
    ) -> None:
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
        self._backend: Any = None
        self._reader_of: dict[str, str] = {}
        self._uid_of: dict[str, str] = {}
        self._marker: int | None = None  # the table's last accepted seq after the bots' move
        self.current: DemoTable | None = None
        self.syncs = 0  # how many times the bots rebuilt their world (for tests and logs)

    # -- life cycle ----------------------------------------------------------------------------

    def prepare(self, new: bool = False) -> DemoTable:
        """Find the table to resume (``new``: end it and deal a fresh game instead), or create
        the first one; attach its sim readers. Other games' demo tables, which nothing plays
        now, are paused so that they do not claim to be running."""
        self._pause_other_demos()
        current = self._stored()
        if current is not None and new:
            self.hub.notice(
                current.table_id,
                "The organiser asked for a fresh demo game: this "
                "table has ended and a new one is dealt.",
            )
            self.hub.end(current.table_id)
            current = self._new_table(current.seed + 1)
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
        """Stop playing (finishes the action in progress) and wait for the thread; the table
        is paused, so that it does not claim to be running with nobody playing it (the next
        demo start resumes it). Safe to call twice."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        current = self.current
        if current is None or thread is None:
            return  # never played: nothing to pause
        try:
            if self.hub.status(current.table_id) == RUNNING:
                self.hub.pause(current.table_id)
                self.hub.notice(
                    current.table_id, "Paused: the demo stopped. 'make demo' plays this table on."
                )
        except ScorekeeperError:  # the store is closing: the next start sorts it out
            log.warning("demo table not paused", extra={"table": current.table_id})

    # -- tables --------------------------------------------------------------------------------

    def _key_of(self, game_id: str) -> str:
        """Where the current demo table of a game is remembered: each game resumes its own.
        The default game keeps the key it always had, so that an older demo database resumes
        its table."""
        return META_KEY if game_id == DEFAULT_GAME else f"{META_KEY}:{game_id}"

    @property
    def _meta_key(self) -> str:
        return self._key_of(self.game_id)

    def _pause_other_demos(self) -> None:
        """Pause the running demo tables of the other games: no bot plays them now."""
        from scorekeeper.games import game_ids

        for game_id in game_ids():
            if game_id == self.game_id:
                continue
            raw = self.hub.store.get_meta(self._key_of(game_id))
            if not raw:
                continue
            table_id = str(json.loads(raw).get("table", ""))
            if table_id in self.hub.table_ids() and self.hub.status(table_id) == RUNNING:
                self.hub.pause(table_id)
                self.hub.notice(
                    table_id,
                    "Paused: no demo is playing this table now. "
                    f"'scorekeeper demo --game {game_id}' plays it on.",
                )

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
        # A demo answers the questions a person creating a table must answer (a game's data,
        # such as a board profile) with the defaults, which are labelled samples.
        options = {o.name: o.default for o in game.options if o.ask} | self.options
        # The game's name is shown next to the table's everywhere: the name does not repeat it.
        table_id = self.hub.create_table(
            game.id,
            [f"Bot {i + 1}" for i in range(self.seats)],
            options=options,
            layout=game.default_layout(self.seats),
            # the pieces of the copy the options name (a deck manifest's counts)
            kit=demo_kit(game.pieces_for(game.resolve_options(options, self.seats))),
            name=f"Demo, seed {seed}",
            readers="",
        )
        self.hub.store.set_meta(self._meta_key, json.dumps({"table": table_id, "seed": seed}))
        self.hub.start(table_id)
        log.info("demo table created", extra={"table": table_id, "seed": seed})
        return DemoTable(table_id, seed)

    def _attach(self, current: DemoTable) -> None:
        self._fresh_backend(current)
        if self.hub.status(current.table_id) != RUNNING:
            self.hub.start(current.table_id)
        if self.on_table is not None:
            self.on_table(current.table_id, current.seed)

    def _fresh_backend(self, current: DemoTable) -> None:
        """New sim readers for the table (empty: every piece off the table), adopted by it."""
        from scorekeeper.readers.sim import SimBackend

        config = self.hub.config(current.table_id)
        backend = SimBackend(tuple(config.layout))
        sink = self.hub.sighting_sink(current.table_id)

        def emit(sighting: Sighting) -> None:
            if not self._muted:
                sink(sighting)

        backend.start(emit)
        self.hub.adopt_readers(current.table_id, backend)
        self._backend = backend
        # the first reader under a zone stands for the zone
        self._reader_of = {zone: reader for reader, zone in list(config.layout.items())[::-1]}
        self._uid_of = {piece: uid for uid, piece in config.kit.items()}

    # -- playing -------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                assert self.current is not None
                outcome = self._play(self.current)
                if outcome == STOPPED:
                    return
                old = self.current
                if outcome == FINISHED:
                    after = self._after_game(old)
                    if after == STOPPED:
                        return
                    if after == RESYNC:  # the organiser reopened the game: play on
                        continue
                fresh = old.seed + 1
                if outcome == DIVERGED:
                    log.warning("demo cannot follow the table", extra={"table": old.table_id})
                if self.hub.status(old.table_id) != ENDED:
                    self.hub.end(old.table_id)
                self.current = self._new_table(fresh)
                if outcome == DIVERGED:
                    self.hub.notice(old.table_id, CANNOT_FOLLOW.format(new=self.current.table_id))
                    self.hub.notice(self.current.table_id, DEALT_AFTER.format(old=old.table_id))
                self._attach(self.current)
        except Exception:  # noqa: BLE001 - a demo crash is logged, the server keeps serving
            log.exception("demo driver stopped")

    def _after_game(self, current: DemoTable) -> str:
        """Wait ``next_game_after`` before the next game: STOPPED, FINISHED, or RESYNC when the
        organiser reopened the game meanwhile (an undo of its last move)."""
        deadline = time.monotonic() + self.next_game_after
        while not self._stop.wait(min(0.2, max(deadline - time.monotonic(), 0))):
            with self.hub.locked(current.table_id):
                table = self.hub.table(current.table_id)
                changed = table.last_accepted_seq != self._marker
                reopened = (
                    changed
                    and not table.game.is_over(table.state)
                    and self.hub.status(current.table_id) != ENDED
                )
            if reopened:
                return RESYNC
            if time.monotonic() >= deadline:
                return FINISHED
        return STOPPED

    def _play(self, current: DemoTable) -> str:
        """Play (or resume) one game: FINISHED, STOPPED, or DIVERGED (the bots cannot follow
        the table)."""
        refusals = 0
        while not self._stop.is_set():
            synced = self._sync(current)
            if synced is None:
                return DIVERGED
            world, pending = synced
            outcome, progressed = self._play_from(current, world, pending)
            if outcome != RESYNC:
                return outcome
            refusals = 0 if progressed else refusals + 1
            if refusals >= MAX_FRESH_REFUSALS:
                return DIVERGED
        return STOPPED

    def _sync(self, current: DemoTable) -> tuple[Any, list[Any]] | None:
        """Rebuild the world and the readers from the table's accepted inputs: the world re-run
        from its seed up to the end of that prefix (with the rest of a half-performed action),
        or None when the table holds a move the world never made."""
        table_id = current.table_id
        with self.hub.locked(table_id):
            table = self.hub.table(table_id)
            history = table.referee.history
            self._marker = table.last_accepted_seq
        config = self.hub.config(table_id)
        world = find_world_class(self.game_id)(len(config.seats), config.options, current.seed)
        self._fresh_backend(current)
        self._muted = True
        pending: list[Any] = []
        done = 0
        try:
            while done < len(history):
                if not pending:
                    pending = list(world.next_inputs())
                    if not pending:
                        return None  # the table went on past the world's last move
                inp = pending.pop(0)
                if isinstance(inp, Seen) and not self._physical(inp):
                    continue  # no sighting (the piece was there already): not in the log
                if inp != history[done]:
                    return None
                done += 1
        finally:
            self._muted = False
        self.syncs += 1
        if done:
            log.info(
                "demo follows the table",
                extra={"table": table_id, "seed": current.seed, "inputs": done},
            )
        return world, pending

    def _play_from(self, current: DemoTable, world: Any, pending: list[Any]) -> tuple[str, bool]:
        """Play on from a synced world: (FINISHED | STOPPED | RESYNC, whether any move of the
        bots was accepted)."""
        progressed = False
        action = pending
        while not self._stop.is_set():
            if not action:
                action = list(world.next_inputs())
                if not action:
                    return FINISHED, progressed
            for inp in action:
                outcome = self._perform(current.table_id, inp)
                if outcome == "accepted":
                    progressed = True
                elif outcome != "quiet":
                    return outcome, progressed
            action = []
            if self._stop.wait(self.pace):
                return STOPPED, progressed
        return STOPPED, progressed

    def _physical(self, seen: Seen) -> bool:
        """Lay or lift the piece on the sim readers; True when that made a sighting."""
        reader = self._reader_of.get(seen.zone)
        uid = self._uid_of.get(seen.piece)
        if reader is None or uid is None:
            log.warning("demo cannot place a piece", extra={"zone": seen.zone})
            return False
        if (uid in self._backend.tags(reader)) == seen.present:
            return False
        if seen.present:
            self._backend.put(reader, uid)
        else:
            self._backend.take(reader, uid)
        return True

    def _perform(self, table_id: str, inp: Any) -> str:
        """Perform one world input, waiting while the table is paused: "accepted", "quiet"
        (no sighting), RESYNC (the table changed behind the bots' back, or refused the move),
        FINISHED (the table was ended) or STOPPED."""
        while not self._stop.is_set():
            with self.hub.locked(table_id):
                status = self.hub.status(table_id)
                if status == ENDED:
                    return FINISHED
                if status == RUNNING:
                    return self._perform_locked(table_id, inp)
            self._stop.wait(min(0.5, max(self.pace, 0.05)))
        return STOPPED

    def _perform_locked(self, table_id: str, inp: Any) -> str:
        """The move itself, under the table's lock (the sim readers report in this thread)."""
        table = self.hub.table(table_id)
        if table.last_accepted_seq != self._marker:
            return RESYNC  # an undo, a correction or a forced input since the bots' last move
        try:
            if isinstance(inp, Decision):
                self.hub.submit(table_id, inp)
            elif not self._physical(inp):
                return "quiet"
        except NotRunning:
            return RESYNC
        except ScorekeeperError as exc:
            log.error("demo input failed", extra={"table": table_id, "error": str(exc)})
            return RESYNC
        now = table.last_accepted_seq
        if now == self._marker:
            return RESYNC  # refused: the world and the table disagree
        self._marker = now
        return "accepted"


CANNOT_FOLLOW = (
    "The demo's bots cannot play on from here: the table now holds a move their "
    "own game never made (a correction to another piece, or an input fed by hand). "
    "This table has ended; a fresh demo game is dealt at table {new}."
)
DEALT_AFTER = (
    "A fresh demo game: the bots could not play on from the correction made at table {old}."
)
