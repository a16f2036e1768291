"""An event's broker files (scorekeeper/event/broker_files.py), and a real Mosquitto using them.

The files alone: the password hash is the one mosquitto_passwd writes, secrets are 0600, a
table's credentials and the ACL name its own topics only, an event reads back as written and
keeps its passwords when a table is added.

One private Mosquitto for the module, started with the generated password file, ACL and
config: a table gets in with its own password only and nobody gets in without one; a table
that publishes on another table's topic gets PUBACK "Not authorized" and the hub never sees
the message; a table receives no other table's commands; the hub's shared subscriptions get
every table's messages, and two hubs split them with none lost or doubled.

Mosquitto's ACL file never refuses a SUBSCRIBE (its acl_file check passes every subscription;
"FIXME - implement ACL subscription strings" in its source): it checks "read" when it delivers
a message. So a table subscribing to another table's commands is granted and receives nothing,
and that is what is tested.
"""

from __future__ import annotations

import base64
import json
import stat
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from scorekeeper.event import wire
from scorekeeper.event.broker_files import (
    BrokerFilesError,
    EventBroker,
    hash_password,
    read_credentials,
    write_credentials,
)
from scorekeeper.event.servers import PrivateMosquitto

TABLES = [f"t{n}" for n in range(1, 11)]
WAIT = 10.0  # seconds to wait for an event that is due at once: only a failure waits this long


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- the files --------------------------------------------------------------------------------


def test_password_hash_is_mosquitto_passwds() -> None:
    """Written by ``mosquitto_passwd -b`` (Mosquitto 2.0.11) for user alice, password secret."""
    line = (
        "alice:$7$101$15ZbmXJ23eFrzUDz$hUArpG2UUuGgpurR8CePaeIQ5pAXJx1NeNahmcQ2yyoxqVNPmfVTKFgEz"
        "JON1yzT1zc2asHgSN4usHYZ7v/DHQ=="
    )
    salt = base64.b64decode(line.split("$")[3])
    assert "alice:" + hash_password("secret", salt) == line
    assert hash_password("secret") != hash_password("secret")  # a fresh salt each time


def test_files_and_credentials(tmp_path: Path) -> None:
    event = EventBroker.generate("ev", ["t1", "t2"], host="hub.local", port=1884)
    paths = event.write(tmp_path)
    creds = read_credentials(paths["table:t1"])
    assert creds == event.credentials_for("t1")
    assert {k: v for k, v in creds.items() if k != "password"} == {
        "event": "ev",
        "table": "t1",
        "host": "hub.local",
        "port": 1884,
        "username": "sk-ev-t1",
    }
    assert len(creds["password"]) >= 32
    assert creds["password"] != event.credentials_for("t2")["password"]
    hub = read_credentials(paths["hub"])
    assert (hub["username"], hub["table"]) == ("sk-hub-ev", None)
    for name in ("passwd", "event.json", "hub", "table:t1", "table:t2"):
        assert _mode(paths[name]) == 0o600, name
    assert not list(tmp_path.glob(".*")), "no temporary file is left behind"

    users = [line.split(":")[0] for line in paths["passwd"].read_text().splitlines()]
    assert users == ["sk-ev-t1", "sk-ev-t2", "sk-hub-ev"]
    assert creds["password"] not in paths["passwd"].read_text()

    acl = [ln for ln in paths["acl"].read_text().splitlines() if ln and not ln.startswith("#")]
    t1 = acl[acl.index("user sk-ev-t1") + 1 : acl.index("user sk-ev-t2")]
    assert sorted(t1) == sorted(
        [f"topic write sk/v1/ev/t1/{ch}" for ch in ("log", "status", "health", "reply")]
        + ["topic read sk/v1/ev/t1/cmd"]
    )
    assert "topic write sk/v1/ev/+/cmd" in acl
    assert "topic read sk/v1/ev/#" in acl

    conf = paths["mosquitto.conf"].read_text()
    for line in (
        "allow_anonymous false",
        f"password_file {tmp_path.resolve() / 'passwd'}",
        f"acl_file {tmp_path.resolve() / 'acl'}",
        "max_queued_messages 100000",
        "persistence true",
        "persistent_client_expiration 14d",
        "listener 1884",
    ):
        assert line in conf.splitlines(), line
    bare = event.conf(tmp_path, listener=False, persistence=False)
    assert "listener" not in bare and "persistence true" not in bare


def test_an_event_reads_back_and_keeps_its_passwords_when_a_table_is_added(
    tmp_path: Path,
) -> None:
    event = EventBroker.generate("ev", ["t1"])
    event.write(tmp_path)
    again = EventBroker.load(tmp_path)
    assert again == event
    grown = again.with_tables(["t1", "t3"])
    assert grown.tables == ("t1", "t3")
    assert grown.credentials_for("t1") == event.credentials_for("t1")
    assert grown.passwords["sk-hub-ev"] == event.passwords["sk-hub-ev"]
    assert grown.credentials_for("t3")["username"] == "sk-ev-t3"


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: EventBroker.generate("ev", ["t1", "t1"]), "named twice"),
        (lambda: EventBroker.generate("ev", ["T1"]), "table 'T1' is not a valid name"),
        (lambda: EventBroker.generate("hub", ["hub"]), "also a table's user"),
        (lambda: EventBroker.generate("ev", ["t1"], hub_user="the hub"), "not a valid broker"),
        (lambda: EventBroker.generate("ev", ["t1"]).credentials_for("t9"), "add it to the event"),
        (lambda: EventBroker("ev", ("t1",), "hub", {"hub": "x"}), "no password for sk-ev-t1"),
    ],
)
def test_bad_events_are_refused_in_words(make: Callable[[], object], words: str) -> None:
    with pytest.raises(ValueError) as caught:  # BrokerFilesError or wire's WireError
        make()
    assert words in str(caught.value)


def test_bad_credential_files_are_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(BrokerFilesError, match="cannot read"):
        read_credentials(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(BrokerFilesError, match="is not JSON"):
        read_credentials(tmp_path / "bad.json")
    write_credentials(tmp_path / "part.json", {"event": "ev", "table": "t1"})
    with pytest.raises(BrokerFilesError, match="without host, port, username, password"):
        read_credentials(tmp_path / "part.json")
    (tmp_path / "event.json").write_text(json.dumps({"event": "ev"}))
    with pytest.raises(BrokerFilesError, match="not an event's broker file"):
        EventBroker.load(tmp_path)


# -- a real broker ----------------------------------------------------------------------------


class Client:
    """A paho MQTT 5 client whose connect, subscribe and publish results can be waited for."""

    def __init__(
        self,
        port: int,
        client_id: str,
        user: str | None,
        password: str | None,
        lock: threading.Condition | None = None,
    ) -> None:
        self.mqtt = mqtt.Client(CallbackAPIVersion.VERSION2, client_id, protocol=mqtt.MQTTv5)
        if user is not None:
            self.mqtt.username_pw_set(user, password)
        self.lock = lock or threading.Condition()  # shared: wait on several clients at once
        self.connack: ReasonCode | None = None
        self.acks: dict[int, Any] = {}  # mid -> PUBACK reason code or SUBACK reason codes
        self.messages: list[tuple[str, bytes]] = []
        self.mqtt.on_connect = self._on_connect
        self.mqtt.on_publish = self._on_ack
        self.mqtt.on_subscribe = lambda c, u, mid, codes, p: self._on_ack(c, u, mid, codes, p)
        self.mqtt.on_message = self._on_message
        self.mqtt.connect("127.0.0.1", port, clean_start=True)
        self.mqtt.loop_start()
        self._wait(lambda: self.connack is not None)

    def _wait(self, done: Callable[[], bool]) -> None:
        with self.lock:
            assert self.lock.wait_for(done, WAIT), "the broker did not answer"

    def _on_connect(self, c: Any, u: Any, flags: Any, code: ReasonCode, props: Any) -> None:
        if code.is_failure:
            c.disconnect()  # refused: no retry (paho would wait a second to try again)
        with self.lock:
            self.connack = code
            self.lock.notify_all()

    def _on_ack(self, c: Any, u: Any, mid: int, code: Any, props: Any) -> None:
        with self.lock:
            self.acks[mid] = code
            self.lock.notify_all()

    def _on_message(self, c: Any, u: Any, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages.append((msg.topic, bytes(msg.payload)))
            self.lock.notify_all()

    def publish(self, topic: str, payload: bytes, qos: int = 1) -> ReasonCode:
        """Publish at QoS 1 and return the PUBACK's reason code."""
        mid = self.mqtt.publish(topic, payload, qos=qos).mid
        self._wait(lambda: mid in self.acks)
        return self.acks.pop(mid)  # type: ignore[no-any-return]

    def subscribe(self, subs: list[tuple[str, int]]) -> list[ReasonCode]:
        _, mid = self.mqtt.subscribe(subs)
        assert mid is not None
        self._wait(lambda: mid in self.acks)
        return list(self.acks.pop(mid))

    def wait_messages(self, count: int) -> list[tuple[str, bytes]]:
        self._wait(lambda: len(self.messages) >= count)
        return list(self.messages)

    def close(self) -> None:
        self.mqtt.disconnect()
        self.mqtt.loop_stop()


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EventBroker, int]]:
    """The event of TABLES and its own broker, started with the generated files."""
    folder = tmp_path_factory.mktemp("broker-files")
    event = EventBroker.generate("ev", TABLES)
    event.write(folder)
    with PrivateMosquitto(config=event.conf(folder, listener=False, persistence=False)) as m:
        yield event, m.port


@pytest.fixture
def connect(event: tuple[EventBroker, int]) -> Iterator[Callable[..., Client]]:
    """Connect as a user of the event (a table's name, "hub", or None: anonymous)."""
    made: list[Client] = []
    ev, port = event

    def make(
        who: str | None,
        password: str | None = None,
        client_id: str = "",
        lock: threading.Condition | None = None,
    ) -> Client:
        if who is None:
            user = None
        else:
            user = ev.hub_user if who == "hub" else ev.credentials_for(who)["username"]
            password = ev.passwords[user] if password is None else password
        client = Client(port, client_id or f"test-{who}-{len(made)}", user, password, lock)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


def test_only_a_users_own_password_lets_it_in(
    connect: Callable[..., Client], event: tuple[EventBroker, int]
) -> None:
    assert connect("t1").connack == "Success"
    assert connect("hub").connack == "Success"
    assert connect("t1", password="guess").connack == "Not authorized"
    assert connect("t1", password=event[0].credentials_for("t2")["password"]).connack == (
        "Not authorized"
    )
    assert connect(None).connack == "Not authorized"


def test_a_table_may_publish_on_its_own_topics_only(connect: Callable[..., Client]) -> None:
    hub = connect("hub")
    hub.subscribe(wire.hub_subscriptions("ev"))
    t1 = connect("t1")
    for foreign in (
        wire.topic("ev", "t2", "log"),
        wire.topic("ev", "t2", "status"),
        wire.topic("ev", "t1", "cmd"),  # a table cannot command itself either
        wire.topic("other", "t1", "log"),
    ):
        assert t1.publish(foreign, b"forged") == "Not authorized", foreign
    for channel in wire.TABLE_CHANNELS:
        assert t1.publish(wire.topic("ev", "t1", channel), channel.encode()) == "Success"
    got = hub.wait_messages(4)
    assert sorted(got) == sorted(
        (wire.topic("ev", "t1", ch), ch.encode()) for ch in wire.TABLE_CHANNELS
    )


def test_a_table_receives_its_own_commands_only(connect: Callable[..., Client]) -> None:
    t1, t2, t3 = connect("t1"), connect("t2"), connect("t3")
    t1.subscribe([("sk/v1/ev/t2/cmd", 1), ("sk/v1/ev/t1/cmd", 1)])  # granted: see above
    t2.subscribe(wire.table_subscriptions("ev", "t2"))
    t3.subscribe([("sk/v1/ev/#", 1)])
    hub = connect("hub")
    for table in ("t2", "t1", "t3"):
        assert hub.publish(wire.topic("ev", table, "cmd"), table.encode()) == "Success"
    # the broker delivers one publisher's messages to a subscriber in order: once a table has
    # its own command, another's sent before it would have come first
    assert t1.wait_messages(1) == [("sk/v1/ev/t1/cmd", b"t1")]
    assert t2.wait_messages(1) == [("sk/v1/ev/t2/cmd", b"t2")]
    assert t3.wait_messages(1) == [("sk/v1/ev/t3/cmd", b"t3")]


def test_two_hubs_split_every_tables_log_with_none_lost_or_doubled(
    connect: Callable[..., Client],
) -> None:
    lock = threading.Condition()
    hubs = [connect("hub", client_id=wire.hub_client_id("ev", n), lock=lock) for n in (1, 2)]
    for hub in hubs:
        assert hub.subscribe(wire.hub_subscriptions("ev"))[0] == 1  # granted QoS 1
    sent = []
    for table in TABLES:
        client = connect(table, client_id=wire.table_client_id("ev", table))
        for seq in range(1, 21):
            payload = f"{table}:{seq}".encode()
            client.mqtt.publish(wire.topic("ev", table, "log"), payload, qos=1)
            sent.append((wire.topic("ev", table, "log"), payload))
    assert len(sent) == 200
    with lock:  # the hubs share one condition: wait for their 200 messages together
        lock.wait_for(lambda: sum(len(h.messages) for h in hubs) >= 200, WAIT)
    got = hubs[0].messages + hubs[1].messages
    assert Counter(got) == Counter(sent)  # every message once: none lost, none doubled
    assert all(hub.messages for hub in hubs), "both hubs took a share"
