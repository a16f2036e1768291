"""The event benchmark's shared network thread (bench/mqtt_loop.py) on a real broker: what
many clients publish at QoS 1 from threads of their own all arrives, each acknowledged, and a
client whose broker went away connects again by itself."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from paho.mqtt.client import Client, MQTTMessage

from bench.mqtt_loop import SharedLoop
from scorekeeper.event import mqtt_session
from scorekeeper.event.servers import PrivateMosquitto

CLIENTS = 8
EACH = 150


def _wait(done: Callable[[], bool], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _listener(port: int, got: list[str]) -> Client:
    lock = threading.Lock()

    def heard(_c: Client, _u: object, msg: MQTTMessage) -> None:
        with lock:
            got.append(bytes(msg.payload).decode())

    sub = mqtt_session.make_client("listener", "", "")
    sub.on_message = heard
    sub.on_connect = lambda c, *_a: c.subscribe("loop/#", qos=1)
    mqtt_session.connect(sub, "127.0.0.1", port)
    return sub


def test_many_clients_on_one_thread_deliver_every_message() -> None:
    # A broker of its own: the shared one keeps 1,000 queued messages per client at most.
    with PrivateMosquitto(config="max_queued_messages 100000\n") as broker:
        got: list[str] = []
        sub = _listener(broker.port, got)
        loop = SharedLoop()
        clients = [mqtt_session.make_client(f"pub{n}", "", "") for n in range(CLIENTS)]
        try:
            assert _wait(lambda: sub.is_connected())
            time.sleep(0.2)  # the listener's subscription is in place
            for client in clients:
                loop.connect(client, "127.0.0.1", broker.port)
            assert _wait(lambda: all(c.is_connected() for c in clients))

            def publish(n: int) -> None:
                for k in range(EACH):
                    clients[n].publish(f"loop/{n}", f"{n}:{k}".encode(), qos=1)

            threads = [threading.Thread(target=publish, args=(n,)) for n in range(CLIENTS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert _wait(lambda: len(got) >= CLIENTS * EACH), f"{len(got)} arrived"
            assert sorted(got) == sorted(f"{n}:{k}" for n in range(CLIENTS) for k in range(EACH))
            # Every PUBACK was read by the loop: nothing is left in flight.
            assert _wait(lambda: not any(c._out_messages for c in clients))
        finally:
            for client in clients:
                loop.close(client)
            loop.stop()
            mqtt_session.close(sub)


def test_a_client_connects_again_after_the_broker_restarts() -> None:
    with PrivateMosquitto() as broker:
        loop = SharedLoop()
        client = mqtt_session.make_client("again", "", "")
        connects: list[int] = []
        client.on_connect = lambda *_a: connects.append(1)
        try:
            loop.connect(client, "127.0.0.1", broker.port)
            assert _wait(lambda: len(connects) == 1)
            broker.restart(kill=True)
            assert _wait(lambda: len(connects) == 2), "the client did not connect again"
            assert client.publish("loop/x", b"back", qos=1).rc == 0
        finally:
            loop.close(client)
            loop.stop()
