"""``scorekeeper serve --event FILE``: a table's server joins its event's broker, says it is
online with its games (retained) and, when stopped, says it is offline."""

from __future__ import annotations

import json
import signal
import threading
import uuid
from pathlib import Path

from paho.mqtt.client import Client, MQTTMessage

from scorekeeper.event import mqtt_session, wire
from scorekeeper.event.servers import PrivateMosquitto
from tests.api.procs import free_port, start_cli, stop, wait_http


def test_serve_with_an_event_file_joins_the_event(
    tmp_path: Path, mosquitto_server: PrivateMosquitto
) -> None:
    event = f"ev{uuid.uuid4().hex[:8]}"
    creds = tmp_path / "event.json"
    creds.write_text(
        json.dumps(
            {
                "event": event,
                "table": "t7",
                "host": "127.0.0.1",
                "port": mosquitto_server.port,
                "username": "",
                "password": "",
            }
        )
    )
    statuses: list[wire.Status] = []
    heard = threading.Condition()

    def on_message(_client: Client, _userdata: object, msg: MQTTMessage) -> None:
        with heard:
            statuses.append(wire.Status.from_json(bytes(msg.payload)))
            heard.notify_all()

    watcher = mqtt_session.make_client(f"watch-{event}", "", "")
    watcher.on_message = on_message
    watcher.on_connect = lambda client, *_: client.subscribe(
        wire.topic(event, "t7", wire.STATUS), qos=1
    )
    mqtt_session.connect(watcher, "127.0.0.1", mosquitto_server.port)
    port = free_port()
    server = start_cli(
        [
            "serve",
            "--db",
            str(tmp_path / "sk.db"),
            "--port",
            str(port),
            "--event",
            str(creds),
        ],
        tmp_path,
    )
    try:
        with heard:
            assert heard.wait_for(lambda: any(s.online for s in statuses), 30), (
                tmp_path / "stderr.txt"
            ).read_text()
        assert statuses[-1].games == {}  # no game of the event yet
        wait_http(f"http://127.0.0.1:{port}/api/tables", server)  # and it serves its table
        assert stop(server, signal.SIGTERM) == 0
        with heard:
            assert heard.wait_for(lambda: not statuses[-1].online, 10)
    finally:
        if server.poll() is None:
            server.kill()
        mqtt_session.close(watcher)
    assert "table t7 of event" in (tmp_path / "stdout.txt").read_text()
