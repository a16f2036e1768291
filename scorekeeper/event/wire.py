"""The event wire: MQTT topics and JSON payloads between the tables and the hub (docs/events.md).

Every topic is ``sk/v1/<event>/<table>/<channel>``. A table publishes ``log`` (its records,
QoS 1), ``status`` (online, its games' last seqs; retained, and its last will), ``health`` (its
readers; QoS 0, retained) and ``reply`` (to a command); the hub publishes ``cmd`` (resend,
create, input, notice) to one table. Hubs read with the MQTT 5 shared subscriptions of
``hub_subscriptions`` so two hub processes split the tables' messages between them.

This module is pure: no network, no clock (times come in as ISO strings), no randomness. Every
payload is a frozen dataclass with ``to_json() -> bytes`` and ``from_json(bytes)``; anything
malformed raises ``WireError`` saying what was wrong, which a hub logs and drops (a bad message
must never stop it). ``decode(topic, payload)`` does both checks at once for a received message.

Hazards: a log record's ``text`` is the record's JSON exactly as the table's store holds it,
never re-encoded, because the chained checksums (scorekeeper.store.chain) are computed over
that text. A command id must be unique per command: the table applies an ``input`` command at
most once per id, so reusing an id silently drops the second command. Mosquitto 2.0 gives an
OFFLINE hub session its turn of a shared subscription's messages too: they wait in that session
until the hub reconnects under the same client id, so a killed hub must come back (systemd
restarts it) or its share waits until its session expires; nothing is lost, only late.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple, Self

from scorekeeper.core.inputs import InputSyntaxError, input_from_record
from scorekeeper.errors import ScorekeeperError

VERSION = 1
ROOT = "sk/v1"
SHARE_GROUP = "sk-hubs"

LOG, STATUS, HEALTH, CMD, REPLY = "log", "status", "health", "cmd", "reply"
TABLE_CHANNELS = (LOG, STATUS, HEALTH, REPLY)  # what a table publishes (and the hub reads)
CHANNELS = (*TABLE_CHANNELS, CMD)
QOS = MappingProxyType({LOG: 1, STATUS: 1, HEALTH: 0, CMD: 1, REPLY: 1})
RETAINED = frozenset({STATUS, HEALTH})

SESSION_EXPIRY_S = 7 * 24 * 3600  # a persistent session outlives any event's outage
HEARTBEAT_S = 5.0  # a table's status is republished this often

_ID = r"[a-z0-9][a-z0-9-]{0,19}"
ID_RE = re.compile(_ID)
# a game id is a table id in a Store (scorekeeper.store.rows takes the same pattern)
GAME_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
_HEX = re.compile(r"[0-9a-f]{1,128}")
INPUT_TYPES = ("undo", "correct", "decision")  # what a hub may send as an ``input`` command


class WireError(ScorekeeperError, ValueError):
    """A topic or payload that is not this wire's; the message says what was wrong."""


# -- ids and topics ---------------------------------------------------------------------------


def check_id(kind: str, value: object) -> str:
    """``value`` if it is a valid event or table name (``kind`` names it in the error)."""
    if not isinstance(value, str) or not ID_RE.fullmatch(value):
        raise WireError(
            f"{kind} {value!r} is not a valid name: use 1 to 20 lowercase letters, digits "
            "and hyphens, starting with a letter or digit"
        )
    return value


def game_id(event: str, round_no: int, table: str) -> str:
    """The id of the game a table plays in a round: ``<event>-r<round>-<table>``.

    Hazard: it must fit a game id's 32 characters, so long event and table names together
    are refused (WireError): keep event names short."""
    check_id("event", event)
    check_id("table", table)
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
        raise WireError(f"round {round_no!r} is not a round number (1, 2, ...)")
    game = f"{event}-r{round_no}-{table}"
    if not GAME_RE.fullmatch(game):
        raise WireError(
            f"the game id {game!r} is longer than 32 characters: give the event or the table "
            "a shorter name"
        )
    return game


def check_game(event: str, game: object) -> str:
    """``game`` if it is a game id of ``event``: 1 to 32 lowercase letters, digits and
    hyphens starting with ``<event>-`` (``game_id`` makes ``<event>-r<round>-<table>``)."""
    ours = isinstance(game, str) and game.startswith(f"{event}-") and game != f"{event}-"
    if ours and GAME_RE.fullmatch(str(game)):
        return str(game)
    raise WireError(
        f"game {game!r} is not a game of event {event!r}: a game id is up to 32 lowercase "
        f"letters, digits and hyphens starting with '{event}-', such as '{event}-r1-t1'"
    )


def _game_shape(game: object) -> str:
    """``game`` if it could be a game id of some event (its event is checked by ``decode``)."""
    if not isinstance(game, str) or not GAME_RE.fullmatch(game):
        raise WireError(
            f"game {game!r} is not a game id (up to 32 lowercase letters, digits, hyphens)"
        )
    return game


class Topic(NamedTuple):
    """A parsed topic: whose it is and which channel."""

    event: str
    table: str
    channel: str


def topic(event: str, table: str, channel: str) -> str:
    """The topic ``sk/v1/<event>/<table>/<channel>`` (names checked)."""
    check_id("event", event)
    check_id("table", table)
    if channel not in CHANNELS:
        raise WireError(f"unknown channel {channel!r}: one of {', '.join(CHANNELS)}")
    return f"{ROOT}/{event}/{table}/{channel}"


def parse_topic(name: str) -> Topic:
    """Split a received topic into (event, table, channel); WireError for a foreign one."""
    parts = name.split("/")
    if len(parts) < 2 or parts[0] != "sk":
        raise WireError(f"topic {name!r} is not a scorekeeper topic (they start with {ROOT}/)")
    if parts[1] != f"v{VERSION}":
        raise WireError(
            f"topic {name!r} is of wire version {parts[1]!r}, this program speaks v{VERSION}: "
            "run the same scorekeeper version on the tables and the hub"
        )
    if len(parts) != 5:
        raise WireError(f"topic {name!r} is not {ROOT}/<event>/<table>/<channel>")
    _, _, event, table, channel = parts
    if channel not in CHANNELS:
        raise WireError(f"topic {name!r} has an unknown channel {channel!r}")
    return Topic(check_id("event", event), check_id("table", table), channel)


def table_client_id(event: str, table: str) -> str:
    """A table's fixed MQTT client id (and broker user name): ``sk-<event>-<table>``."""
    return f"sk-{check_id('event', event)}-{check_id('table', table)}"


def hub_client_id(event: str, n: int) -> str:
    """Hub process ``n``'s fixed MQTT client id: ``sk-hub-<event>-<n>``."""
    return f"sk-hub-{check_id('event', event)}-{n}"


def hub_subscriptions(event: str) -> list[tuple[str, int]]:
    """The shared subscriptions (filter, QoS) of every hub process of ``event``."""
    check_id("event", event)
    return [(f"$share/{SHARE_GROUP}/{ROOT}/{event}/+/{ch}", QOS[ch]) for ch in TABLE_CHANNELS]


def table_subscriptions(event: str, table: str) -> list[tuple[str, int]]:
    """What a table subscribes to (filter, QoS): its own command topic."""
    return [(topic(event, table, CMD), QOS[CMD])]


# -- payloads ---------------------------------------------------------------------------------


def _bad(what: str, key: str, value: object, want: str) -> WireError:
    return WireError(f"a {what} message's {key!r} is {value!r}: it must be {want}")


def _text(value: object, key: str, what: str, *, empty: bool = False) -> str:
    if isinstance(value, str) and (empty or value):
        return value
    raise _bad(what, key, value, "a text")


def _flag(value: object, key: str, what: str) -> None:
    if not isinstance(value, bool):
        raise _bad(what, key, value, "true or false")


def _seq(value: object, key: str, what: str, least: int = 1) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= least:
        return value
    raise _bad(what, key, value, f"a sequence number ({least}, {least + 1}, ...)")


def _iso(value: object, key: str, what: str) -> None:
    try:
        datetime.fromisoformat(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise _bad(what, key, value, "an ISO time such as 2026-05-01T19:30:00+00:00") from None


def _object(value: object, key: str, what: str) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return dict(value)
    raise _bad(what, key, value, "a JSON object")


def _load(data: bytes | str, what: str) -> dict[str, Any]:
    try:
        obj = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise WireError(f"a {what} message is not JSON: {exc}") from exc
    if not isinstance(obj, dict):
        raise WireError(f"a {what} message is not a JSON object")
    if obj.get("v") != VERSION:
        raise WireError(
            f"a {what} message has wire version {obj.get('v')!r}, this program speaks "
            f"{VERSION}: run the same scorekeeper version on the tables and the hub"
        )
    return obj


class _Payload:
    """What every payload shares: ``to_json`` and ``from_json`` through ``KEYS`` (its fields
    in JSON order; ``ALIAS`` renames one in the JSON, ``OPTIONAL`` may be missing). Each
    payload's ``__post_init__`` checks every field, so one built in code is checked too."""

    __slots__ = ()
    WHAT: ClassVar[str]
    KEYS: ClassVar[tuple[str, ...]]
    ALIAS: ClassVar[Mapping[str, str]] = MappingProxyType({})
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def _obj(self) -> dict[str, Any]:
        return {self.ALIAS.get(k, k): getattr(self, k) for k in self.KEYS}

    def to_json(self) -> bytes:
        """The message's bytes: compact JSON, ``"v"`` first."""
        out = {"v": VERSION, **self._obj()}
        return json.dumps(out, separators=(",", ":"), ensure_ascii=False, default=dict).encode()

    @classmethod
    def from_json(cls, data: bytes | str) -> Self:
        """The payload in ``data``; WireError in words for anything malformed."""
        return cls._from_obj(_load(data, cls.WHAT))

    @classmethod
    def _from_obj(cls, obj: dict[str, Any]) -> Self:
        args = {}
        for attr in cls.KEYS:
            key = cls.ALIAS.get(attr, attr)
            if key in obj:
                args[attr] = obj[key]
            elif attr not in cls.OPTIONAL:
                raise WireError(f"a {cls.WHAT} message has no {key!r}")
        return cls(**args)


# -- table -> hub -----------------------------------------------------------------------------


class WireRecord(NamedTuple):
    """One log record as it travels: its seq, its chain value and its stored JSON text."""

    seq: int
    chain: str
    text: str


@dataclass(frozen=True, slots=True)
class LogBatch(_Payload):
    """Records of one game with consecutive seqs, in order (``log``, table -> hub, QoS 1).

    ``records`` may be given as lists ([seq, chain, text], as received): they become
    WireRecords."""

    game: str
    records: tuple[WireRecord, ...]
    WHAT: ClassVar[str] = LOG
    KEYS = ("game", "records")

    def __post_init__(self) -> None:
        _game_shape(self.game)
        if not isinstance(self.records, list | tuple) or not self.records:
            raise _bad(LOG, "records", self.records, "a list of at least one record")
        rows: list[WireRecord] = []
        for row in self.records:
            if not isinstance(row, list | tuple) or len(row) != 3:
                raise WireError(f"a log record must be [seq, chain, text], got {row!r}")
            seq = _seq(row[0], "seq", LOG)
            if rows and seq != rows[-1].seq + 1:
                raise WireError(f"a log message's records skip: {seq} follows {rows[-1].seq}")
            if not isinstance(row[1], str) or not _HEX.fullmatch(row[1]):
                raise _bad(LOG, f"chain of {seq}", row[1], "a hex digest")
            if not isinstance(row[2], str) or not row[2].startswith("{"):
                raise _bad(LOG, f"record {seq}", row[2], "the record's stored JSON text")
            rows.append(WireRecord(seq, row[1], row[2]))
        object.__setattr__(self, "records", tuple(rows))


@dataclass(frozen=True, slots=True)
class Status(_Payload):
    """A table's status (``status``, retained): online, each game's last seq at the table
    (so the hub sees what it lacks) and the table's ISO time of sending. ``Status.offline()``
    is the last will the broker sends for it: ``{"v": 1, "online": false}``."""

    online: bool
    games: Mapping[str, int] = field(default_factory=dict)
    at: str | None = None
    WHAT: ClassVar[str] = STATUS
    KEYS = ("online", "games", "at")
    OPTIONAL = frozenset({"games", "at"})

    def __post_init__(self) -> None:
        _flag(self.online, "online", STATUS)
        games = _object(self.games, "games", STATUS)
        for game, seq in games.items():
            _game_shape(game)
            _seq(seq, f"games.{game}", STATUS, least=0)
        if self.online or self.at is not None:
            _iso(self.at, "at", STATUS)
        object.__setattr__(self, "games", MappingProxyType(games))

    @classmethod
    def offline(cls) -> Self:
        return cls(False)

    def _obj(self) -> dict[str, Any]:
        if not self.online and not self.games and self.at is None:
            return {"online": False}
        return {"online": self.online, "games": dict(self.games), "at": self.at}


@dataclass(frozen=True, slots=True)
class Health(_Payload):
    """A table's reader health (``health``, QoS 0, retained): each reader's status dict
    (``ReaderStatus.to_dict()``) and the table's ISO time."""

    readers: tuple[Mapping[str, Any], ...]
    at: str
    WHAT: ClassVar[str] = HEALTH
    KEYS = ("readers", "at")

    def __post_init__(self) -> None:
        if not isinstance(self.readers, list | tuple):
            raise _bad(HEALTH, "readers", self.readers, "a list")
        for reader in self.readers:
            if not isinstance(reader, Mapping) or not isinstance(reader.get("reader"), str):
                raise _bad(HEALTH, "readers", reader, "reader statuses with a 'reader' name")
        _iso(self.at, "at", HEALTH)
        object.__setattr__(self, "readers", tuple(self.readers))


@dataclass(frozen=True, slots=True)
class Reply(_Payload):
    """A table's answer to command ``id`` (``reply``): ok, or not ok and the error in words.

    A ``create`` that succeeded also names its ``game`` and the ``config`` the table made it
    with: the table fills in what is its own (its kit: which tag is which card of its copy),
    and the hub's replica must replay the log with that same config."""

    id: str
    ok: bool
    error: str | None = None
    game: str | None = None
    config: Mapping[str, Any] | None = None
    WHAT: ClassVar[str] = REPLY
    KEYS = ("id", "ok", "error", "game", "config")
    OPTIONAL = frozenset({"error", "game", "config"})

    def __post_init__(self) -> None:
        _text(self.id, "id", REPLY)
        _flag(self.ok, "ok", REPLY)
        if self.ok and self.error is not None:
            raise _bad(REPLY, "error", self.error, "null when ok")
        if not self.ok:
            _text(self.error, "error", REPLY)
        if self.game is not None:
            _game_shape(self.game)
        if self.config is not None:
            if self.game is None:
                raise _bad(REPLY, "config", self.config, "given with its game")
            object.__setattr__(
                self, "config", MappingProxyType(_object(self.config, "config", REPLY))
            )

    def _obj(self) -> dict[str, Any]:
        out = _Payload._obj(self)
        for key in ("game", "config"):  # a plain reply keeps its three keys
            if out[key] is None:
                del out[key]
        return out


# -- hub -> table: commands (``cmd``, QoS 1) --------------------------------------------------


class _Command(_Payload):
    """A command: ``{"v": 1, "id": ..., "kind": KIND, ...}``; ``id`` is unique per command."""

    __slots__ = ()
    WHAT: ClassVar[str] = "command"
    KIND: ClassVar[str]

    def _obj(self) -> dict[str, Any]:
        obj = _Payload._obj(self)
        return {"id": obj.pop("id"), "kind": self.KIND, **obj}


@dataclass(frozen=True, slots=True)
class Resend(_Command):
    """Send again the records of ``game`` from seq ``from_seq`` on (JSON key ``from``), up to
    ``to_seq`` when given (JSON key ``to``; absent: to the end of the table's log). The bound
    keeps a hub that lacks one record from getting the whole log after it again; a message
    without it is read as before."""

    id: str
    game: str
    from_seq: int
    to_seq: int | None = None
    KIND: ClassVar[str] = "resend"
    KEYS = ("id", "game", "from_seq", "to_seq")
    ALIAS = MappingProxyType({"from_seq": "from", "to_seq": "to"})
    OPTIONAL = frozenset({"to_seq"})

    def __post_init__(self) -> None:
        _text(self.id, "id", self.KIND)
        _game_shape(self.game)
        _seq(self.from_seq, "from", self.KIND)
        if self.to_seq is not None:
            _seq(self.to_seq, "to", self.KIND, least=self.from_seq)

    def _obj(self) -> dict[str, Any]:
        obj = _Command._obj(self)
        if self.to_seq is None:  # the bytes an older table knows
            del obj["to"]
        return obj


@dataclass(frozen=True, slots=True)
class Create(_Command):
    """Create ``game`` with ``config`` (``TableConfig.to_dict()``), started when ``start``.
    Idempotent at the table: an existing game with the same config is not an error."""

    id: str
    game: str
    config: Mapping[str, Any]
    start: bool
    KIND: ClassVar[str] = "create"
    KEYS = ("id", "game", "config", "start")

    def __post_init__(self) -> None:
        _text(self.id, "id", self.KIND)
        _game_shape(self.game)
        config = _object(self.config, "config", self.KIND)
        if not config:
            raise _bad(self.KIND, "config", config, "a table config")
        _flag(self.start, "start", self.KIND)
        object.__setattr__(self, "config", MappingProxyType(config))


@dataclass(frozen=True, slots=True)
class InputCommand(_Command):
    """A judge's or organiser's input for ``game``: an undo, a correction or a decision.

    ``record`` is the input's log record (``to_record()``); ``expect_seq`` pins an undo or a
    correction to the seq it takes back (None: no pin); ``by`` and ``reason`` are audited. The
    table applies it at most once per command ``id``, even when it is delivered twice.
    """

    id: str
    game: str
    record: Mapping[str, Any]
    expect_seq: int | None
    by: str
    reason: str
    KIND: ClassVar[str] = "input"
    KEYS = ("id", "game", "record", "expect_seq", "by", "reason")

    def __post_init__(self) -> None:
        _text(self.id, "id", self.KIND)
        _game_shape(self.game)
        record = _object(self.record, "record", self.KIND)
        if record.get("type") not in INPUT_TYPES:
            raise WireError(
                f"an input command carries {record!r}: only an undo, a correction or a "
                "decision can be sent to a table"
            )
        try:
            input_from_record(record)
        except InputSyntaxError as exc:
            raise WireError(f"an input command carries a bad record: {exc}") from exc
        if self.expect_seq is not None:
            _seq(self.expect_seq, "expect_seq", self.KIND)
        _text(self.by, "by", self.KIND)
        _text(self.reason, "reason", self.KIND, empty=True)
        object.__setattr__(self, "record", MappingProxyType(record))


@dataclass(frozen=True, slots=True)
class Notice(_Command):
    """An announcement for the table's screen (the round timer's), shown until ``until``
    (an ISO time; None: until replaced)."""

    id: str
    text: str
    until: str | None = None
    KIND: ClassVar[str] = "notice"
    KEYS = ("id", "text", "until")
    OPTIONAL = frozenset({"until"})

    def __post_init__(self) -> None:
        _text(self.id, "id", self.KIND)
        _text(self.text, "text", self.KIND)
        if self.until is not None:
            _iso(self.until, "until", self.KIND)


Command = Resend | Create | InputCommand | Notice
COMMANDS: Mapping[str, type[Command]] = MappingProxyType(
    {c.KIND: c for c in (Resend, Create, InputCommand, Notice)}
)


def command_from_json(data: bytes | str) -> Command:
    """The command in a ``cmd`` message; WireError in words for a bad or unknown one."""
    obj = _load(data, "command")
    kind = obj.get("kind")
    cls = COMMANDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise WireError(
            f"unknown command kind {kind!r}: one of {', '.join(COMMANDS)} (is the table's "
            "scorekeeper older than the hub's?)"
        )
    return cls._from_obj(obj)


# -- a received message, checked against its topic --------------------------------------------

Payload = LogBatch | Status | Health | Reply | Command
_TABLE_PAYLOADS: Mapping[str, type[LogBatch | Status | Health | Reply]] = MappingProxyType(
    {LOG: LogBatch, STATUS: Status, HEALTH: Health, REPLY: Reply}
)


@dataclass(frozen=True, slots=True)
class Message:
    """A received message: where it came from and its checked payload."""

    event: str
    table: str
    channel: str
    payload: Payload


def decode(topic_name: str, data: bytes | str) -> Message:
    """Check a received message's topic and payload; every game it names must be the topic's
    event's. WireError in words for anything foreign or malformed (log it, drop it)."""
    where = parse_topic(topic_name)
    payload: Payload
    if where.channel == CMD:
        payload = command_from_json(data)
    else:
        payload = _TABLE_PAYLOADS[where.channel].from_json(data)
    games = list(payload.games) if isinstance(payload, Status) else []
    games += [g for g in [getattr(payload, "game", None)] if isinstance(g, str)]
    for game in games:
        try:
            check_game(where.event, game)
        except WireError as exc:
            raise WireError(f"on {topic_name}: {exc}") from exc
    return Message(where.event, where.table, where.channel, payload)
