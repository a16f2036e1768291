"""A real event's table reads its own copy's tags: the hub sends a game without a kit, the
table makes it with its own stored kit, and the hub's replica takes that config from the
table's reply, so that the readers' raw sightings replay at the hub as at the table."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from scorekeeper.core.inputs import Seen, Sighting
from scorekeeper.event.hub_service import BrokerLogin, EventHub
from scorekeeper.event.servers import PrivateMosquitto
from scorekeeper.event.table_agent import TableAgent
from scorekeeper.event.table_credentials import TableCredentials
from scorekeeper.games import find_game
from scorekeeper.service import Hub
from scorekeeper.service.demo import demo_kit
from scorekeeper.sim import find_world
from tests.event.replication_rig import GAME

TABLE = "1"


def test_the_tables_own_kit_reaches_the_hubs_replica(
    tmp_path: Path, pg_url: str, mosquitto_server: PrivateMosquitto
) -> None:
    event = f"ev{uuid.uuid4().hex[:8]}"
    port = mosquitto_server.port
    hub = EventHub(pg_url, event, broker=BrokerLogin("127.0.0.1", port))
    hub.db.create_event(event, "Kit night", GAME)
    hub.db.add_table(event, TABLE, f"sk-{event}-{TABLE}", "-")
    hub.open(confirmations=False)
    game = find_game(GAME)
    kit = demo_kit(game.pieces())  # this table's copy: its tags, enrolled beforehand
    table = Hub.open(tmp_path / "table.db")
    table.store.save_kit("our-copy", GAME, kit)
    agent = TableAgent(table, TableCredentials(event, TABLE, "127.0.0.1", port), heartbeat=0.2)
    try:
        hub.start()
        agent.start()
        players = [hub.register(name, check_in=True) for name in ("Ann", "Bea", "Cid")]
        pod = hub.seat_next(seed=7).pods[0]
        assert sorted(pod.players) == sorted(players)
        assert dict(hub.store.config(pod.game_id).kit) == {}  # the hub sent none
        wait(lambda: pod.game_id in table.table_ids() and table.status(pod.game_id) == "running")
        made = table.config(pod.game_id)
        assert sorted(made.kit.values()) == sorted(kit.values())  # its own copy's tags
        wait(lambda: dict(hub.store.config(pod.game_id).kit) == dict(made.kit))
        # The readers report raw tags; only the table's kit says which card each one is.
        reader = {zone: r for r, zone in made.layout.items()}
        uid = {p: u for u, p in made.kit.items()}
        world = find_world(GAME)(3, made.options, 3)
        for played, inp in enumerate(world.inputs()):
            if played == 60:
                break
            if isinstance(inp, Seen):
                done = table.submit(
                    pod.game_id, Sighting(reader[inp.zone], uid[inp.piece], inp.present)
                )
            else:
                done = table.submit(pod.game_id, inp)
            assert done.accepted, done
        last = table.store.raw_records(pod.game_id, 0, 10_000)[-1][0]
        wait(lambda: hub.store.high_water(pod.game_id) >= last)
        replica = hub.replicas.refresh(pod.game_id)
        own = table._get(pod.game_id).table
        assert replica.state == own.state and replica.inputs_seen == own.inputs_seen
        logged = [json.loads(text) for _seq, text, _chain in table.store.raw_records(pod.game_id)]
        assert sum(r["type"] == "sighting" for r in logged) > 20  # raw tags, not cards
    finally:
        agent.stop()
        hub.stop()
        table.close()


def wait(check: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
