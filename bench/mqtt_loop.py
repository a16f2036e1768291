"""One network thread for many paho clients: how the event benchmark runs 25 tables a process.

On an event's Pis each table agent has a process and a core of its own, and paho's network
thread (``loop_start``) costs it nothing that matters. The benchmark runs 100 tables on the
same 2 cores as the hubs, the broker and the database: with a paho thread per table, every
record woke its table's thread twice (the publish, then the PUBACK) and 25 threads a process
fought for one GIL, which made the simulated tables most of the machine's load (67 of 120
CPU seconds a minute at 2,000 inputs/s) and so the hubs' latency a measure of the simulation.

``SharedLoop`` drives the clients with paho's external-loop API instead: a publish is written
at once on the thread that publishes it (the table's, which has just committed the record),
and one thread per process selects over every client's socket to read acknowledgements and
commands, sends keep-alive pings and reconnects a client whose connection dropped. The agents'
code is unchanged; only who runs their sockets differs (``TableAgent(network=...)``).

Hazard: paho's external loop does not lock its writes, so each client's writes here go through
one lock of its own (``_Driven.lock``), and only writes: paho calls for a write (our
``on_socket_register_write``) while it holds its own locks (``publish`` holds the outgoing
messages' lock), and reading a PUBACK takes that lock, so a read under the write lock would
deadlock against a publish. A publish that could not be written whole waits for the loop
thread (its socket selected for writing); a publish that races another one on the same client
may be left to the loop too, which sees it within ``TICK_S``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode

from scorekeeper.event import mqtt_session

log = logging.getLogger("bench.mqtt_loop")

TICK_S = 0.05  # the longest the loop sleeps: keep-alives, reconnects, writes left to it
MISC_S = 1.0  # how often each client's keep-alive is looked after
RECONNECT_S = 1.0  # the wait before a dropped client connects again


@dataclass(eq=False)
class _Driven:
    client: mqtt.Client
    lock: threading.RLock = field(default_factory=threading.RLock)
    retry_at: float = 0.0  # when a client without a connection tries again
    closing: bool = False


class SharedLoop:
    """The network of many clients on one thread (a ``mqtt_session.Network``).

    ``connect(client, host, port)`` starts a client's persistent session (as
    ``mqtt_session.connect`` does, without a thread of its own); ``close(client)`` ends it;
    ``stop()`` ends the loop's thread once no client is left."""

    def __init__(self) -> None:
        self._clients: dict[int, _Driven] = {}
        self._guard = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._running = True
        self._thread = threading.Thread(target=self._loop, name="mqtt-shared-loop", daemon=True)
        self._thread.start()

    # -- the Network interface -------------------------------------------------------------

    def connect(self, client: mqtt.Client, host: str, port: int) -> None:
        """Start the client's session; a broker that is away is tried again every second."""
        driven = _Driven(client)
        client.on_socket_register_write = lambda _c, _u, _s: self._write(driven)
        with self._guard:
            self._clients[id(client)] = driven
        mqtt_session.prepare(client, host, port)
        self._try_connect(driven)

    def close(self, client: mqtt.Client) -> None:
        """Disconnect cleanly (the broker keeps the session) and stop driving the client."""
        with self._guard:
            driven = self._clients.get(id(client))
        if driven is None:
            return
        with driven.lock:
            driven.closing = True
            client.disconnect()
            client.loop_write()
        with self._guard:
            self._clients.pop(id(client), None)

    def stop(self) -> None:
        """End the loop's thread (close the clients first)."""
        self._running = False
        self._wake()
        self._thread.join(timeout=5.0)
        os.close(self._wake_r)
        os.close(self._wake_w)

    # -- the loop ----------------------------------------------------------------------------

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"x")

    def _write(self, driven: _Driven) -> None:
        """A client has something to send: send it now on this thread, or leave the rest
        (a full socket) to the loop."""
        with driven.lock:
            if driven.client.socket() is not None:
                driven.client.loop_write()
            left = driven.client.want_write()
        if left:
            self._wake()

    def _try_connect(self, driven: _Driven) -> None:
        with driven.lock:
            try:
                driven.client.reconnect()
            except OSError as exc:
                driven.retry_at = time.monotonic() + RECONNECT_S
                log.info("broker not reachable, trying again", extra={"error": str(exc)})

    def _loop(self) -> None:
        misc_at = time.monotonic() + MISC_S
        while self._running:
            with self._guard:
                clients = list(self._clients.values())
            by_sock: dict[Any, _Driven] = {}
            writing = []
            for driven in clients:
                sock = driven.client.socket()
                if sock is None:
                    if not driven.closing and time.monotonic() >= driven.retry_at:
                        self._try_connect(driven)
                    continue
                by_sock[sock] = driven
                if driven.client.want_write():
                    writing.append(sock)
            try:
                readable, writable, _ = select.select([self._wake_r, *by_sock], writing, [], TICK_S)
            except (OSError, ValueError):  # a socket closed meanwhile: look again
                continue
            if self._wake_r in readable:
                with contextlib.suppress(BlockingIOError):
                    os.read(self._wake_r, 4096)
            for sock in readable:
                if sock is not self._wake_r:
                    self._step(by_sock[sock], read=True)
            for sock in writable:
                self._step(by_sock[sock], read=False)
            if time.monotonic() >= misc_at:
                misc_at = time.monotonic() + MISC_S
                for driven in clients:
                    if driven.client.socket() is not None:
                        driven.client.loop_misc()

    def _step(self, driven: _Driven, *, read: bool) -> None:
        client = driven.client
        if client.socket() is None:
            return
        if read:  # never under the write lock: see the class's hazard
            rc = client.loop_read()
        else:
            with driven.lock:
                rc = client.loop_write()
        if rc != MQTTErrorCode.MQTT_ERR_SUCCESS and client.socket() is None:
            driven.retry_at = time.monotonic() + RECONNECT_S
