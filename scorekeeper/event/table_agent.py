"""The table agent: a table's Pi in an event, replicating its games' logs to the hub over MQTT.

The table stays the authority for its games (docs/design.md, "Events: many tables, one hub"):
it plays, scores and logs on its own SQLite store whether or not the hub or the network is
there. The agent only watches that store and talks to the broker:

- each record appended to a game of the event (a table id starting with ``<event>-``) is
  published at QoS 1 on ``log`` while connected; while disconnected nothing is published and
  nothing is queued (the log is the queue);
- on every (re)connect, every ``heartbeat`` seconds and when a game is created, the retained
  ``status`` gives each game's last seq, so the hub sees what it lacks and asks for it with a
  ``resend`` command; ``health`` gives the readers' state; the last will says offline;
- commands from the hub: ``resend``, ``create`` (idempotent), ``input`` (a judge's undo,
  correction or decision, applied at most once per command id: scorekeeper/event/applied.py)
  and ``notice`` (the round timer's announcements, kept as ``agent.notice``). Each is answered
  on ``reply`` and acknowledged to the broker only once handled, so a command is never lost to
  a crash in between (a second delivery is recognised).

Threads: paho's network thread runs the callbacks; commands and heartbeats run on the agent's
own worker thread, so a long resend never stalls the connection; appends call ``_on_append``
on the appending thread (it only hands a message to paho).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from paho.mqtt.client import Client, ConnectFlags, DisconnectFlags, MQTTMessage
from paho.mqtt.enums import MQTTErrorCode
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from scorekeeper.core.inputs import input_from_record
from scorekeeper.core.table import TableConfig
from scorekeeper.errors import ConfigError, NotFound, ScorekeeperError
from scorekeeper.event import mqtt_session, wire
from scorekeeper.event.applied import DONE, AppliedCommands
from scorekeeper.event.table_credentials import TableCredentials
from scorekeeper.service.texts import ENDED, PAUSED, RUNNING

log = logging.getLogger("scorekeeper.event.agent")

RESEND_BATCH = 200  # records per log message of a resend
_BEAT = "beat"  # the worker's queue items besides commands
_STATUS = "status"


def _now() -> str:
    return datetime.now(UTC).isoformat()


class TableAgent:
    """Joins ``hub`` (the table's ``scorekeeper.service.hub.Hub``) to an event: ``start()``,
    ``stop()``. ``heartbeat``: seconds between status messages; ``reconnect``: the first and
    the longest wait between connection attempts; ``network``: who runs the connection (paho's
    own thread, unless a benchmark runs many tables in one process)."""

    def __init__(
        self,
        hub: Any,
        creds: TableCredentials,
        *,
        heartbeat: float = wire.HEARTBEAT_S,
        reconnect: tuple[int, int] = (1, 30),
        kit: str | None = None,
        network: mqtt_session.Network = mqtt_session.OWN_THREAD,
    ) -> None:
        self.hub = hub
        self.network = network
        self.creds = creds
        # The stored kit (this table's copy of the game: which tag is which card) for the
        # event's games when the hub sends none; None: the one kit stored for that game.
        self.kit = kit
        self.heartbeat = heartbeat
        self.prefix = f"{creds.event}-"
        self.notice: wire.Notice | None = None  # the latest notice, for the table's screen
        # Called with a game's id once a create command has started it (the demo's bots,
        # scorekeeper/event/table_bots.py); on the worker thread, so it must return quickly.
        self.on_game: Callable[[str], None] | None = None
        self.published = 0  # records published as they were appended
        self.resent = 0  # records published again on the hub's request
        self.applied = AppliedCommands(hub.store)
        self._topics = {
            ch: wire.topic(creds.event, creds.table, ch)
            for ch in (wire.LOG, wire.STATUS, wire.HEALTH, wire.REPLY)
        }
        self._connected = threading.Event()
        self._running = False
        self._listening = False
        self._work: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        client = mqtt_session.make_client(
            wire.table_client_id(creds.event, creds.table),
            creds.username,
            creds.password,
            manual_ack=True,
            reconnect=reconnect,
        )
        client.will_set(
            self._topics[wire.STATUS], wire.Status.offline().to_json(), qos=1, retain=True
        )
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self.client = client

    @property
    def connected(self) -> bool:
        """True while the broker connection is up."""
        return self._connected.is_set()

    def _extra(self, **more: Any) -> dict[str, Any]:
        return {"event": self.creds.event, "table": self.creds.table, **more}

    # -- starting and stopping --------------------------------------------------------------

    def start(self) -> None:
        """Start replicating: connect in the background (a broker that is away is waited
        for; the table plays on meanwhile)."""
        self._running = True
        if not self._listening:
            self.hub.store.add_append_listener(self._on_append)
            self._listening = True
        self._thread = threading.Thread(target=self._worker, name="table-agent", daemon=True)
        self._thread.start()
        self.network.connect(self.client, self.creds.host, self.creds.port)
        log.info(
            "table agent started", extra=self._extra(broker=f"{self.creds.host}:{self.creds.port}")
        )

    def stop(self) -> None:
        """Say offline (retained), disconnect and stop; the broker keeps the session, so
        commands sent meanwhile wait for the next start."""
        self._running = False
        if self._connected.is_set():
            info = self.client.publish(
                self._topics[wire.STATUS], wire.Status.offline().to_json(), qos=1, retain=True
            )
            if info.rc == MQTTErrorCode.MQTT_ERR_SUCCESS:
                info.wait_for_publish(timeout=2.0)
        self._connected.clear()
        self.network.close(self.client)
        self._work.put(None)
        if self._thread is not None:
            self._thread.join(timeout=10.0)
            self._thread = None
        log.info("table agent stopped", extra=self._extra())

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
                "the event's broker refused this table: check its credentials file",
                extra=self._extra(reason=str(reason)),
            )
            return
        client.subscribe(wire.table_subscriptions(self.creds.event, self.creds.table))
        # Connected before the status is read: a record appended meanwhile is either
        # published (it saw the flag) or counted in the status (committed before the read).
        self._connected.set()
        self._work.put(_STATUS)
        log.info("connected to the event's broker", extra=self._extra())

    def _on_disconnect(
        self,
        _client: Client,
        _userdata: Any,
        _flags: DisconnectFlags,
        reason: ReasonCode,
        _props: Properties | None,
    ) -> None:
        self._connected.clear()
        if self._running:
            log.warning(
                "lost the event's broker; the table plays on and catches up when it is back",
                extra=self._extra(reason=str(reason)),
            )

    def _on_message(self, client: Client, _userdata: Any, msg: MQTTMessage) -> None:
        try:
            message = wire.decode(msg.topic, bytes(msg.payload))
            if (message.event, message.table) != (self.creds.event, self.creds.table):
                raise wire.WireError(f"{msg.topic} is not this table's command topic")
            if message.channel != wire.CMD:
                raise wire.WireError(f"{msg.topic} carries no command")
        except wire.WireError as exc:
            log.warning("bad command dropped", extra=self._extra(error=str(exc)))
            client.ack(msg.mid, msg.qos)  # it would only come again as bad
            return
        self._work.put((msg.mid, msg.qos, message.payload))

    # -- publishing --------------------------------------------------------------------------

    def _publish(self, channel: str, payload: bytes, *, retain: bool = False) -> bool:
        """Hand one message to paho while connected; False when it was not taken."""
        if not self._connected.is_set():
            return False
        info = self.client.publish(
            self._topics[channel], payload, qos=wire.QOS[channel], retain=retain
        )
        return info.rc == MQTTErrorCode.MQTT_ERR_SUCCESS

    def _on_append(self, table_id: str, seq: int, text: str, chain: str) -> None:
        """A record was committed to the table's store: publish it if it is the event's."""
        if not self._running or not table_id.startswith(self.prefix):
            return
        batch = wire.LogBatch(table_id, (wire.WireRecord(seq, chain, text),))
        if self._publish(wire.LOG, batch.to_json()):
            self.published += 1
        # Not taken (offline, or paho's queue full): the next status shows the hub the gap.

    def _games(self) -> dict[str, tuple[str, int]]:
        """The event's games at this table: id -> (status, last seq)."""
        return {
            table_id: (status, last)
            for table_id, status, last in self.hub.store.overview()
            if table_id.startswith(self.prefix)
        }

    def publish_status(self) -> None:
        """Publish the retained status (each game's last seq) and the readers' health."""
        games = self._games()
        status = wire.Status(True, {g: last for g, (_s, last) in games.items()}, _now())
        self._publish(wire.STATUS, status.to_json(), retain=True)
        readers: list[dict[str, Any]] = []
        for game, (state, _last) in games.items():
            if state not in (RUNNING, PAUSED):
                continue
            try:
                health = self.hub.reader_health(game)
            except NotFound:
                continue
            for reader, info in health.items():
                if isinstance(info, dict):
                    readers.append({**info, "reader": str(reader), "game": game})
                else:  # the backend could not tell: {"error": text}
                    readers.append(
                        {"reader": str(reader), "game": game, "online": False, "detail": info}
                    )
        self._publish(wire.HEALTH, wire.Health(tuple(readers), _now()).to_json(), retain=True)

    # -- the worker: heartbeats and commands -------------------------------------------------

    def _worker(self) -> None:
        beat = time.monotonic() + self.heartbeat
        while True:
            try:
                item = self._work.get(timeout=max(0.0, beat - time.monotonic()))
            except queue.Empty:
                item = _BEAT
            if item is None:
                return
            try:
                if item in (_BEAT, _STATUS):
                    if item == _BEAT:
                        beat = time.monotonic() + self.heartbeat
                    if self._connected.is_set():
                        self.publish_status()
                    continue
                mid, qos, command = item
                try:
                    self._handle(command)
                finally:  # handled, or failed in a way a second delivery would repeat
                    self.client.ack(mid, qos)
            except Exception as exc:  # noqa: BLE001 - the agent must outlive any one failure
                log.exception("table agent step failed", extra=self._extra())
                if isinstance(item, tuple):
                    failed = wire.Reply(item[2].id, False, f"the table failed on it: {exc!r}")
                    self._publish(wire.REPLY, failed.to_json())

    def _handle(self, command: wire.Command) -> None:
        """Carry out one command and reply with its outcome."""
        ok, error = True, None
        try:
            if isinstance(command, wire.Resend):
                self._resend(command)
            elif isinstance(command, wire.Create):
                self._create(command)
            elif isinstance(command, wire.InputCommand):
                ok, error = self._apply_input(command)
            else:
                self._notice(command)
        except ScorekeeperError as exc:
            ok, error = False, str(exc)
        extra = self._extra(command=command.id, kind=command.KIND, ok=ok)
        if error is not None:
            extra["error"] = error
        log.info("command handled", extra=extra)
        reply = wire.Reply(command.id, ok, error)
        if ok and isinstance(command, wire.Create):
            # The config the game was made with (this table's kit in it): the hub's replica
            # must replay the log with it.
            made = self.hub.config(command.game).to_dict()
            reply = wire.Reply(command.id, ok, None, command.game, made)
        self._publish(wire.REPLY, reply.to_json())

    def _own(self, game: str) -> None:
        if not game.startswith(self.prefix):
            raise ConfigError(f"game {game} is not a game of event {self.creds.event}")

    def _resend(self, command: wire.Resend) -> None:
        """Publish the game's records from ``from_seq`` on (up to ``to_seq`` when the hub gave
        one), in batches, while connected."""
        self._own(command.game)
        after = command.from_seq - 1
        while self._connected.is_set():
            limit = RESEND_BATCH
            if command.to_seq is not None:
                limit = min(limit, command.to_seq - after)
                if limit <= 0:
                    return
            rows = self.hub.store.raw_records(command.game, after, limit)
            if not rows:
                return
            records = tuple(wire.WireRecord(seq, chain, text) for seq, text, chain in rows)
            if not self._publish(wire.LOG, wire.LogBatch(command.game, records).to_json()):
                return  # gone offline: the next status asks again
            self.resent += len(records)
            after = rows[-1][0]
            if len(rows) < limit:
                return

    def _create(self, command: wire.Create) -> None:
        """Create the game (unless it exists with the same config) and start it if asked."""
        self._own(command.game)
        wanted = TableConfig.from_dict(command.config)
        exists = command.game in self.hub.table_ids()
        if exists:
            have = self.hub.config(command.game)
            if not self._same(have, wanted):
                raise ConfigError(
                    f"game {command.game} exists at this table with another configuration "
                    f"({have.game}, seats {', '.join(have.seats)}); give the new game another id"
                )
        if command.start and (not exists or self.hub.status(command.game) not in (RUNNING, ENDED)):
            # One game at a time on a table's readers: the one it replaces stops first (before
            # a new game opens the same readers).
            for game, (state, _last) in self._games().items():
                if game != command.game and state in (RUNNING, PAUSED):
                    self.hub.end(game)
                    log.info("event game ended for the next", extra=self._extra(game=game))
        if not exists:
            self.hub.create_table(
                wanted.game,
                wanted.seats,
                options=wanted.options,
                layout=wanted.layout or None,
                kit=dict(wanted.kit) or self._own_kit(wanted.game),
                name=wanted.name,
                table_id=command.game,
            )
            log.info("event game created", extra=self._extra(game=command.game))
        if command.start and self.hub.status(command.game) not in (RUNNING, ENDED):
            self.hub.start(command.game)
            if self.on_game is not None:
                self.on_game(command.game)
        if self._connected.is_set():
            self.publish_status()

    def _own_kit(self, game: str) -> str | None:
        """The name of this table's kit for ``game`` when the hub sent none: the one given
        (``serve --event-kit``), else the only kit stored for that game, else none (then only
        pieces laid by hand or typed can be read: the organiser must enrol the copy)."""
        if self.kit is not None:
            return self.kit
        store = self.hub.store
        found = [name for name in store.kits() if store.kit(name).game == game]
        return found[0] if len(found) == 1 else None

    def _same(self, have: TableConfig, wanted: TableConfig) -> bool:
        """True when an existing game's config is the one asked for (options compared as the
        hub resolves them; the layout and the kit only when the hub gives them)."""
        if (have.game, tuple(have.seats)) != (wanted.game, tuple(wanted.seats)):
            return False
        if wanted.kit and dict(have.kit) != dict(wanted.kit):
            return False
        if wanted.layout and dict(have.layout) != dict(wanted.layout):
            return False
        if dict(have.options) == dict(wanted.options):
            return True
        game = self.hub._find_game(wanted.game)
        return dict(have.options) == dict(game.resolve_options(wanted.options, len(wanted.seats)))

    def _apply_input(self, command: wire.InputCommand) -> tuple[bool, str | None]:
        """Submit a judge's input once per command id; (ok, error in words)."""
        self._own(command.game)
        seen = self.applied.get(command.id)
        if seen is not None and seen.state == DONE:
            return seen.ok, seen.error  # delivered again: the first outcome, nothing applied
        inp = input_from_record(dict(command.record))
        if seen is not None and self._logged_since(command.game, seen.before_seq, inp):
            # This process died after the submit and before noting it done: it is in the log.
            self.applied.finish(command.id, True, None)
            return True, None
        if seen is None:
            last = self._games().get(command.game, ("", 0))[1]
            self.applied.begin(command.id, command.game, last, command.by, command.reason)
        error: str | None = None
        try:
            done = self.hub.submit(command.game, inp, expect_seq=command.expect_seq, typed=True)
        except ScorekeeperError as exc:
            ok, error = False, str(exc)
        else:
            ok = done.accepted
            if done.rejection is not None:
                error = f"refused by rule {done.rejection.rule}: {done.rejection.reason}"
        self.applied.finish(command.id, ok, error)
        log.info(
            "judge input applied" if ok else "judge input not applied",
            extra=self._extra(
                game=command.game, command=command.id, by=command.by, reason=command.reason
            ),
        )
        return ok, error

    def _logged_since(self, game: str, before_seq: int, inp: Any) -> bool:
        """True when ``inp`` is in the game's log after ``before_seq``."""
        import json

        after = before_seq
        while rows := self.hub.store.raw_records(game, after, RESEND_BATCH):
            for _seq, text, _chain in rows:
                if input_from_record(json.loads(text)) == inp:
                    return True
            after = rows[-1][0]
        return False

    def _notice(self, command: wire.Notice) -> None:
        """Keep the notice for the table's screen and show it on the running games."""
        self.notice = command
        for game, (state, _last) in self._games().items():
            if state == RUNNING:
                self.hub.notice(game, command.text)
