"""The MQTT client every table agent and hub ingest uses: MQTT 5, a persistent session.

Both ends of an event talk through one kind of connection (docs/events.md): a fixed client id,
``clean_start`` False and a session that outlives a week of absence, so the broker keeps each
one's subscriptions and queues its QoS 1 messages while it is away (a table's commands, a
hub's log messages), and QoS 1 for everything that matters. paho-mqtt 2.x runs the network
loop on a thread of its own (``loop_start``) and reconnects by itself, waiting longer after
each failure (``reconnect`` seconds, doubled up to the maximum).

Hazard: paho keeps a QoS 1 message published while the connection is down in memory and sends
it after the next connect. The callers publish only while connected, and ``MAX_QUEUED`` bounds
what a connection lost unnoticed can pile up: beyond it a publish is refused (the resend
protocol fills the gap later), never kept without limit.
"""

from __future__ import annotations

from typing import Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

SESSION_EXPIRY = 7 * 24 * 3600  # seconds the broker keeps a session whose client is away
KEEPALIVE = 15  # seconds between pings on a quiet connection (a dead link is noticed in ~1.5x)
MAX_QUEUED = 10_000  # messages paho keeps while a lost connection is not yet noticed
QOS = 1


def make_client(
    client_id: str,
    username: str,
    password: str,
    *,
    manual_ack: bool = False,
    reconnect: tuple[int, int] = (1, 30),
) -> mqtt.Client:
    """A paho-mqtt client for a persistent MQTT 5 session (not connected yet: ``connect``).

    ``manual_ack``: a QoS 1 message is acknowledged only when the caller calls ``client.ack``
    (after handling it), so a process that dies in between gets it again from the broker.
    An empty ``username`` connects anonymously (a developer's broker).
    """
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt.MQTTv5,
        manual_ack=manual_ack,
    )
    if username:
        client.username_pw_set(username, password)
    client.reconnect_delay_set(min_delay=reconnect[0], max_delay=reconnect[1])
    client.max_queued_messages_set(MAX_QUEUED)
    return client


def prepare(client: mqtt.Client, host: str, port: int) -> None:
    """Tell ``client`` where and how to connect (the persistent MQTT 5 session) without
    connecting yet."""
    props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    props.SessionExpiryInterval = SESSION_EXPIRY
    client.connect_async(host, port, keepalive=KEEPALIVE, clean_start=False, properties=props)


def connect(client: mqtt.Client, host: str, port: int) -> None:
    """Start connecting ``client`` in the background (its network thread keeps reconnecting:
    a broker that is down at start is not an error, it is waited for)."""
    prepare(client, host, port)
    client.loop_start()


def close(client: mqtt.Client) -> None:
    """Disconnect cleanly (the session stays with the broker) and stop the network thread."""
    client.disconnect()
    client.loop_stop()


class Network(Protocol):
    """Who runs a client's connection: ``connect`` starts its session in the background (and
    keeps it up), ``close`` ends it cleanly. A table's Pi and a hub use ``OWN_THREAD``; the
    event benchmark runs many tables' clients on one thread of a process (bench/mqtt_loop.py)."""

    def connect(self, client: mqtt.Client, host: str, port: int) -> None: ...

    def close(self, client: mqtt.Client) -> None: ...


class _OwnThread:
    """paho's own network thread for each client (``loop_start``)."""

    def connect(self, client: mqtt.Client, host: str, port: int) -> None:
        connect(client, host, port)

    def close(self, client: mqtt.Client) -> None:
        close(client)


OWN_THREAD: Network = _OwnThread()
