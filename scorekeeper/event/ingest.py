"""The hub's ingest: the tables' replicated logs, from the broker into the hub's store.

Every hub process of an event runs one ``Ingest`` with its own fixed client id on the same
MQTT 5 shared subscriptions (``wire.hub_subscriptions``), so the broker splits the tables'
messages between the hubs; any hub can take any message because all it does goes through the
store (PostgreSQL), never through memory of its own:

- ``log``: each drain's records, of every game in it, are inserted once each in one
  transaction (``Store.receive_many``: a duplicate delivery changes nothing); then one query
  reads each of those games' records above its high water (records 1..n all stored), whichever
  hub stored them (``Store.runs_after``): the run without a gap moves the high water
  and goes to the hub's replicas as it is (``replicas.offer``: no read back per game);
- a gap (a seq seen beyond the high water) is asked for only once it has stayed open for
  ``resend_after`` seconds, checked against the store again first: the broker splits a game's
  messages between the hubs, so the missing records are nearly always in the other hub's share
  or still in flight. The ``resend`` names the gap's end (``to``), and a game has at most one
  open ask (not asked again within ``resend_every`` seconds);
- ``status``: each game's last seq at the table is compared with the high water the same way,
  so what a table played while it was away is asked for when it comes back;
- ``health``, ``reply`` and every ``status``: handed to the caller's callbacks.

A log message for a game the store does not have is refused (logged, nothing asked): the hub
creates a game's row when it assigns the game, so such a game is not this event's, or not yet.
A malformed message is logged and dropped; nothing a table sends can stop the ingest.

Threads: paho's network thread only decodes each message and puts it in the inbox; the
ingest's worker thread takes what has arrived (up to ``DRAIN`` messages), stores it in one
transaction, runs the callbacks (and the replicas' apply), and only then acknowledges those
messages (``manual_ack``): a hub killed before its insert committed gets them again from the
broker (persistent session), or asks for them after the table's next status. The busier the
hub, the more records each transaction carries. Between messages, and every ``CHECK_EVERY``
seconds, it looks at the open gaps. The callbacks run on the worker: they must be quick.
"""

from __future__ import annotations

import logging
import math
import queue
import re
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.enums import MQTTErrorCode
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from scorekeeper.errors import NotFound, ScorekeeperError, StoreError
from scorekeeper.event import mqtt_session, wire
from scorekeeper.event.collections_policy import reclaim
from scorekeeper.store.replica import Runs

log = logging.getLogger("scorekeeper.event.ingest")

DRAIN = 500  # messages taken from the inbox at a time (one transaction for them all)
# Seconds a drain waits after its first message for more to come: a transaction's round trips
# cost the hub and PostgreSQL about as much as a hundred records in it, so a hub that took
# each message as it came spent most of its time on them (measured: make bench, event mode).
LINGER = 0.005
QUIET_S = 1.0  # seconds without a log message after which the hub counts as quiet
CHECK_EVERY = 0.25  # seconds between two looks at the open gaps
# Records read at a time per game after its high water: a game whose gap stays open has that
# many index entries read again at each drain that has it (500 took 0.2 s a drain for 100).
RUN = 64
OnRecords = Callable[[str, int], None]  # (game, its high water) after new records
OnTable = Callable[[str, Any], None]  # (physical table, its Status / Health / Reply)


def new_command_id() -> str:
    """A unique id for a command to a table (the table applies an input once per id)."""
    return uuid.uuid4().hex


class Ingest:
    """One hub process's MQTT connection to its event: ``start()``, ``stop()``, ``send()``.

    ``store``: the hub's Store (PostgreSQL, or SQLite for a one-process demo). Counters, for
    tests and ``make bench``: ``received`` (new records stored), ``duplicates`` (records that
    were already there), ``resends`` (resend commands sent), ``refused`` (records of a game
    the store does not have, or of another table's game), ``bad`` (malformed messages),
    ``conflicts`` (records sent again with another content than the stored ones: never kept).
    """

    def __init__(
        self,
        store: Any,
        event_id: str,
        host: str,
        port: int,
        username: str,
        password: str,
        *,
        client_id: str,
        on_records: OnRecords | None = None,
        on_status: OnTable | None = None,
        on_health: OnTable | None = None,
        on_reply: OnTable | None = None,
        replicas: Any = None,
        resend_after: float = 1.0,
        resend_every: float = 3.0,
        reconnect: tuple[int, int] = (1, 30),
        linger: float = LINGER,
    ) -> None:
        self.store = store
        self.linger = linger
        self.event = wire.check_id("event", event_id)
        self.host, self.port = host, port
        self.client_id = client_id
        self.on_records = on_records
        self.on_status = on_status
        self.on_health = on_health
        self.on_reply = on_reply
        self.replicas = replicas  # Replicas (offer(game, rows)) kept up to date, or None
        self.resend_after = resend_after
        self.resend_every = resend_every
        self.received = self.duplicates = self.resends = self.refused = 0
        self.bad = self.conflicts = 0
        self._asked: dict[str, float] = {}  # game -> when a resend was last asked (monotonic)
        # A cache, never the truth: game -> n such that records 1..n are known stored (the
        # store's high water only grows), and the highest seq seen. It spares the store's
        # high-water query on every in-order message; any doubt asks the store.
        self._high: dict[str, int] = {}
        self._seen: dict[str, int] = {}
        # Open gaps: game -> (when first seen open, its table, the last seq of the gap).
        self._gaps: dict[str, tuple[float, str, int]] = {}
        self._checked = 0.0  # when the open gaps were last looked at (monotonic)
        self._logged = 0.0  # when a log message last came (monotonic)
        # A game id that names its table (``<event>-r<round>-<table>``) must come from it.
        self._round_game = re.compile(
            re.escape(self.event) + r"-r[0-9]+-(" + wire.ID_RE.pattern + ")"
        )
        self._connected = threading.Event()
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        client = mqtt_session.make_client(
            client_id, username, password, manual_ack=True, reconnect=reconnect
        )
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    @property
    def connected(self) -> bool:
        """True while the broker connection is up."""
        return self._connected.is_set()

    def start(self) -> None:
        """Connect in the background and take the event's messages from then on (and those
        the broker kept for this client id while it was away)."""
        self._thread = threading.Thread(target=self._worker, name="ingest", daemon=True)
        self._thread.start()
        mqtt_session.connect(self.client, self.host, self.port)
        log.info("ingest started", extra={"event": self.event, "client": self.client_id})

    def stop(self) -> None:
        """Disconnect (the broker keeps the session and the messages meanwhile)."""
        self._connected.clear()
        mqtt_session.close(self.client)
        # The worker stores what is still in the inbox first; its acknowledgements went with
        # the connection, so the broker sends those again (stored once).
        self._inbox.put(None)
        if self._thread is not None:
            self._thread.join(timeout=10.0)
            self._thread = None
        log.info("ingest stopped", extra={"event": self.event, "client": self.client_id})

    def send(self, table: str, command: wire.Command) -> str:
        """Publish ``command`` to a physical table (QoS 1); returns its id. The table gets it
        when it is next connected (its session keeps it meanwhile); its answer comes to
        ``on_reply``. While this hub is disconnected paho keeps it until the next connect."""
        info = self.client.publish(
            wire.topic(self.event, table, wire.CMD), command.to_json(), qos=wire.QOS[wire.CMD]
        )
        if info.rc not in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_NO_CONN):
            log.warning(
                "command not sent",
                extra={"event": self.event, "to": table, "command": command.id, "rc": info.rc},
            )
        return command.id

    # -- paho callbacks (its network thread) -------------------------------------------------

    def _on_connect(
        self,
        client: Client,
        _userdata: Any,
        _flags: ConnectFlags,
        reason: ReasonCode,
        _props: Properties | None,
    ) -> None:
        if reason.is_failure:
            log.error(
                "the event's broker refused the hub: check the hub's broker user and password",
                extra={"event": self.event, "reason": str(reason)},
            )
            return
        client.subscribe(wire.hub_subscriptions(self.event))
        self._connected.set()
        log.info("ingest connected", extra={"event": self.event, "client": self.client_id})

    def _on_disconnect(
        self,
        _client: Client,
        _userdata: Any,
        _flags: DisconnectFlags,
        reason: ReasonCode,
        _props: Properties | None,
    ) -> None:
        if self._connected.is_set():
            log.warning(
                "ingest lost the broker; reconnecting (the broker keeps the messages)",
                extra={"event": self.event, "reason": str(reason)},
            )
        self._connected.clear()

    def _on_message(self, client: Client, _userdata: Any, msg: MQTTMessage) -> None:
        try:
            message = wire.decode(msg.topic, bytes(msg.payload))
            if message.event != self.event:
                raise wire.WireError(f"{msg.topic} is not event {self.event}'s")
        except wire.WireError as exc:
            self.bad += 1
            log.warning("bad message dropped", extra={"event": self.event, "error": str(exc)})
            client.ack(msg.mid, msg.qos)  # it would only come again as bad
            return
        self._inbox.put((msg.mid, msg.qos, message))

    # -- the worker: what arrived, in drains --------------------------------------------------

    def _worker(self) -> None:
        """Take what has arrived (up to ``DRAIN`` messages at a time), store it, then
        acknowledge it: the busier the hub, the more records each transaction carries."""
        while True:
            try:
                first = self._inbox.get(timeout=CHECK_EVERY)
            except queue.Empty:
                self._guarded("", self._check_gaps)
                reclaim(quiet=self._quiet())  # a hub process's collector: collections_policy
                continue
            if first is None:
                return
            items = [first]
            done = False
            until = time.monotonic() + self.linger
            while len(items) < DRAIN:
                try:
                    wait = until - time.monotonic()
                    item = self._inbox.get(timeout=wait) if wait > 0 else self._inbox.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    done = True
                    break
                items.append(item)
            try:
                self._take([message for _mid, _qos, message in items])
            except Exception:  # noqa: BLE001 - the worker must survive any bug downstream
                log.exception("ingest failed on a message", extra={"event": self.event})
            finally:
                for mid, qos, _message in items:
                    if qos:
                        self.client.ack(mid, qos)
            if time.monotonic() - self._checked >= CHECK_EVERY:
                self._guarded("", self._check_gaps)
                reclaim(quiet=self._quiet())
            if done:
                return

    def _quiet(self) -> bool:
        """No log message for a second (statuses and health may come): a moment when a pause
        holds up no record."""
        return time.monotonic() - self._logged > QUIET_S

    def _take(self, messages: list[wire.Message]) -> None:
        """One drain: every game's records together (one transaction), then the statuses,
        health and replies in the order they came."""
        logs: dict[tuple[str, str], dict[int, tuple[int, str, str]]] = {}
        others: list[wire.Message] = []
        for message in messages:
            payload = message.payload
            if isinstance(payload, wire.LogBatch):
                self._logged = time.monotonic()
                rows = logs.setdefault((message.table, payload.game), {})
                for r in payload.records:
                    if r.seq not in rows:
                        rows[r.seq] = (r.seq, r.text, r.chain)
                    elif rows[r.seq][2] == r.chain:  # delivered twice within one drain
                        self.duplicates += 1
                    else:  # the same seq twice with other content: the first is kept
                        self.conflicts += 1
            else:
                others.append(message)
        by_game: dict[str, tuple[str, list[tuple[int, str, str]]]] = {}
        for (table, game), rows in logs.items():
            if not self._from_its_table(table, game, len(rows)):
                continue
            if game in by_game:  # one game from two tables: the second on its own
                self._guarded(table, self._on_log, table, game, sorted(rows.values()))
            else:
                by_game[game] = (table, sorted(rows.values()))
        if by_game:
            self._guarded("", self._store_drain, by_game)
        for message in others:
            payload = message.payload
            if isinstance(payload, wire.Status):
                self._guarded(message.table, self._on_status, message.table, payload)
            elif isinstance(payload, wire.Health) and self.on_health is not None:
                self._guarded(message.table, self.on_health, message.table, payload)
            elif isinstance(payload, wire.Reply) and self.on_reply is not None:
                self._guarded(message.table, self.on_reply, message.table, payload)

    def _guarded(self, table: str, fn: Callable[..., None], *args: Any) -> None:
        """Run one step; a database error is logged (the table's next status heals it)."""
        try:
            fn(*args)
        except StoreError as exc:
            log.error(
                "cannot store what a table sent; it is asked again once the store is back",
                extra={"event": self.event, "from": table, "error": str(exc)},
            )

    # -- what the tables send ----------------------------------------------------------------

    def _from_its_table(self, table: str, game: str, count: int) -> bool:
        """A game id that names its table must come from that table (else refused)."""
        named = self._round_game.fullmatch(game)
        if named is not None and named.group(1) != table:
            self.refused += count
            log.warning(
                "log refused: a table sent another table's game",
                extra={"event": self.event, "from": table, "game": game},
            )
            return False
        return True

    def _store_drain(self, by_game: dict[str, tuple[str, list[tuple[int, str, str]]]]) -> None:
        """Store a drain's records of every game in one transaction, then move on."""
        # The runs after the high waters known here are read in the insert's transaction.
        after = {game: self._high[game] for game in by_game if game in self._high}
        try:
            news, runs = self.store.receive_and_read(
                {game: rows for game, (_t, rows) in by_game.items()}, after, RUN
            )
        except StoreError:  # a malformed row (or the store is away): game by game, in words
            for game, (table, rows) in by_game.items():
                self._guarded(table, self._on_log, table, game, rows)
            return
        stored: dict[str, str] = {}
        for game, (table, rows) in by_game.items():
            if self._counted(table, game, rows, news[game]):
                stored[game] = table
        again = {g: by_game[g] for g in stored if (news[g] or 0) < len(by_game[g][1])}
        if again:
            self._check_same(again)
        self._advance(stored, {g for g in stored if news[g]}, runs)

    def _on_log(self, table: str, game: str, rows: list[tuple[int, str, str]]) -> None:
        """Store one game's records on their own (in seq order, gaps possible), move on."""
        try:
            new: int | None = self.store.receive(game, rows)
        except NotFound:
            new = None
        if self._counted(table, game, rows, new):
            if (new or 0) < len(rows):
                self._check_same({game: (table, rows)})
            self._advance({game: table}, {game} if new else set())

    def _counted(
        self, table: str, game: str, rows: list[tuple[int, str, str]], new: int | None
    ) -> bool:
        """Count a game's stored rows (``new`` of them new; None: no such game, refused)."""
        if new is None:
            self.refused += len(rows)
            self._high.pop(game, None)  # a game deleted and made again starts from nothing
            self._seen.pop(game, None)
            self._gaps.pop(game, None)
            log.warning(
                "log refused: the hub has not assigned this game",
                extra={"event": self.event, "from": table, "game": game},
            )
            return False
        self.received += new
        self.duplicates += len(rows) - new
        self._seen[game] = max(self._seen.get(game, 0), rows[-1][0])
        return True

    def _advance(self, games: dict[str, str], told: set[str], read: Runs | None = None) -> None:
        """Move each game's high water over what the store holds above it (one query for
        them all, whichever hub stored it, unless ``read`` has it: runs read after the high
        waters this process knew), hand that run to the replicas, note each gap, and tell
        ``on_records`` of each game that moved or got new records (``told``)."""
        after: dict[str, int] = {}
        first: set[str] = set()  # games first heard of in this process: the store says
        read = read or {}
        for game in games:
            if game in read:
                after[game] = self._high[game]
                continue
            if game not in self._high:
                try:
                    self._high[game] = self.store.high_water(game)
                except NotFound:
                    continue
                first.add(game)
            after[game] = self._high[game]
        runs = {g: read[g] for g in after if g in read}
        runs.update(self.store.runs_after({g: a for g, a in after.items() if g not in read}, RUN))
        full = {g: rows[-1][0] for g, (rows, _b) in runs.items() if len(rows) == RUN}
        while full:  # a long run (a gap just filled, a hub just started): read on
            more = self.store.runs_after(full, RUN)
            for game, (rows, beyond) in more.items():
                runs[game] = (runs[game][0] + rows, beyond)
            full = {g: rows[-1][0] for g, (rows, _b) in more.items() if len(rows) == RUN}
        now = time.monotonic()
        for game, (rows, beyond) in runs.items():
            run = len(rows)
            high = rows[-1][0] if rows else after[game]
            self._high[game] = high
            seen = self._seen[game] = max(self._seen.get(game, 0), beyond or 0)
            if seen > high:  # open: ends before the next stored record (or the last seen)
                end = beyond - 1 if beyond is not None else seen
                # Open since the high water stopped here (a gap filled and another opened
                # starts its own wait).
                since = self._gaps.get(game, (now, "", 0))[0] if high == after[game] else now
                self._gaps[game] = (since, games[game], end)
            else:
                self._gaps.pop(game, None)
                self._asked.pop(game, None)
            if (run or game in first) and self.replicas is not None:
                self._offer(game, rows)  # (a first game's replica reads 1..high water)
            if (run or game in told) and self.on_records is not None:
                self.on_records(game, high)

    def _offer(self, game: str, rows: list[tuple[int, str, str]]) -> None:
        """Hand stored rows to the hub's replicas; a replica that cannot take them is only
        logged (the records are stored: any view reads them again from the store)."""
        try:
            self.replicas.offer(game, rows) if rows else self.replicas.refresh(game)
        except ScorekeeperError as exc:
            log.error(
                "a replica could not apply stored records; its views read the store again",
                extra={"event": self.event, "game": game, "error": str(exc)},
            )

    def _check_gaps(self) -> None:
        """Gaps open for ``resend_after`` seconds: the store again (the other hub may have
        filled them), then a bounded ``resend`` for each still open (one open ask a game)."""
        now = time.monotonic()
        self._checked = now
        due = {g: t for g, (since, t, _e) in self._gaps.items() if now - since >= self.resend_after}
        if not due:
            return
        self._advance(due, set())
        for game in due:
            if game in self._gaps and now - self._asked.get(game, -math.inf) >= self.resend_every:
                _since, table, end = self._gaps[game]
                self._ask(table, game, self._high[game] + 1, end)

    def _check_same(self, again: dict[str, tuple[str, list[tuple[int, str, str]]]]) -> None:
        """Records that were already stored must be the very same records (same chain value):
        a table whose log went back (an old backup put in place) and played on would send
        other records under seqs the hub has, and insert-once would silently keep the old.
        One query for every game of the drain that had records again."""
        have = self.store.chains({g: [r[0] for r in rows] for g, (_t, rows) in again.items()})
        for game, (table, rows) in again.items():
            differ = [seq for seq, _text, chain in rows if have.get((game, seq), chain) != chain]
            if differ:
                self.conflicts += len(differ)
                log.error(
                    "a table's log differs from the hub's copy: was the table's database "
                    "replaced? the hub keeps what it had; compare the two logs before going on",
                    extra={"event": self.event, "from": table, "game": game, "seq": differ[0]},
                )

    def known_high(self, game: str) -> int:
        """How far this hub knows ``game`` to be whole (records 1..n stored; 0: unknown). A
        lower bound: another hub process may have stored more (``Store.high_water`` says)."""
        return self._high.get(game, 0)

    def _on_status(self, table: str, status: wire.Status) -> None:
        if self.on_status is not None:
            self.on_status(table, status)
        now = time.monotonic()
        for game, last in status.games.items():
            if self._high.get(game, 0) >= last:
                continue  # known whole that far: no query
            if game not in self._high:
                try:
                    self._high[game] = self.store.high_water(game)
                except NotFound:  # a game the hub never assigned: not asked for
                    continue
            self._seen[game] = max(self._seen.get(game, 0), last)
            if self._high[game] < last and game not in self._gaps:
                self._gaps[game] = (now, table, self._seen[game])  # asked for if it stays open

    def _ask(self, table: str, game: str, from_seq: int, to_seq: int) -> None:
        """Ask ``table`` to resend ``game``'s records ``from_seq``..``to_seq``."""
        self._asked[game] = time.monotonic()
        self.resends += 1
        self.send(table, wire.Resend(new_command_id(), game, from_seq, to_seq))
        said = {"event": self.event, "to": table, "game": game, "from_seq": from_seq}
        log.info("resend asked", extra={**said, "to_seq": to_seq})
