"""The event hub over a real PostgreSQL, without a broker: seating, the tables' games played
into the hub's store, confirmations, standings, a judge's override after the next round was
seated, and a second hub process on the same database that serves the same event."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scorekeeper.core.script_run import winners
from scorekeeper.core.table import Table
from scorekeeper.errors import ConfigError
from scorekeeper.event.hub_service import EventHub
from scorekeeper.event.pods import SeatingError
from scorekeeper.event.records import record_from
from scorekeeper.event.replicas import places
from scorekeeper.event.standings import standings
from scorekeeper.event.state import GameResult, fold
from scorekeeper.games import find_game
from scorekeeper.sim import find_world
from scorekeeper.store import Store

GAME = "angels-and-demons"


@pytest.fixture
def hubs(pg_url: str) -> Iterator[tuple[EventHub, EventHub]]:
    first = EventHub(pg_url, "cup")
    first.db.create_event("cup", "Club cup", GAME)
    for n in range(1, 4):
        first.db.add_table("cup", f"t{n}", f"sk-cup-t{n}", "-")
    second = EventHub(pg_url, "cup")
    yield first, second
    first.stop()
    second.stop()


def play(hub: EventHub, game_id: str, seed: int) -> None:
    """The table's Pi plays its game to the end on its own store; its log is then copied
    into the hub's store as the ingest copies it (insert-once, byte for byte)."""
    config = hub.store.config(game_id)
    with Store("sqlite:///:memory:") as own:
        own.create_table(config, table_id=game_id)
        table = Table(config, find_game(config.game), log=own.sink(game_id))
        world = find_world(config.game)(len(config.seats), config.options, seed)
        for inp in world.inputs():
            assert table.submit(inp).accepted
        assert world.is_over()
        rows = own.raw_records(game_id, 0, 100_000)
    assert hub.store.receive(game_id, rows) == len(rows)


def fresh_standings(hub: EventHub) -> list[tuple[str, str]]:
    """The standings computed from nothing but the logs: the event's records and each game's
    own log replayed anew."""
    state = fold(record_from(r) for _, r in hub.db.records("cup"))
    results = {}
    for game_id in state.games:
        table = hub.store.load_table(game_id, find_game(GAME))
        over = table.game.is_over(table.state)
        scores = tuple(int(s) for s in table.game.scores(table.state))
        results[game_id] = GameResult(game_id, over, places(scores, winners(table)))
    return [(str(s.player), str(s.points)) for s in standings(state, results)]


def test_three_rounds_with_confirmations_and_a_late_override(
    hubs: tuple[EventHub, EventHub],
) -> None:
    hub, other = hubs
    hub.open(points="4-3-2-1")
    ids = [hub.register(f"Player {n}", check_in=True) for n in range(9)]
    assert len(set(ids)) == 9
    first = hub.seat_next(seed=1)
    seated = [p for pod in first.pods for p in pod.players]
    assert sorted(seated) == sorted(ids) and all(2 <= len(p.players) <= 4 for p in first.pods)
    assert [p.table for p in first.pods] == ["t1", "t2", "t3"]
    with pytest.raises(ConfigError, match="still being played"):
        hub.confirm(first.pods[0].game_id, first.pods[0].players[0])
    with pytest.raises(SeatingError, match="still playing"):
        other.seat_next(seed=2)
    for n, pod in enumerate(first.pods):
        play(hub, pod.game_id, seed=10 + n)
    waits = other.waiting()
    assert waits and all("not confirmed" in w["why"] for w in waits)
    for pod in first.pods:
        for player in pod.players:
            (hub if player < "m" else other).confirm(pod.game_id, player)
    assert other.waiting() == []
    second = other.seat_next(seed=3)
    assert second.round == 2
    before = [(s.player, s.points) for s in hub.standings()]
    # A judge corrects round 1's first table after round 2 was seated: standings change,
    # round 2 stays as it was.
    pod = first.pods[0]
    flipped = [(p, len(pod.players) - i, 0) for i, p in enumerate(pod.players)]
    hub.override(pod.game_id, flipped, "scores were swapped on the sheet", "Judge Jo")
    after = [(s.player, s.points) for s in other.standings()]
    assert after != before
    assert other.state().rounds[1].pods == second.pods
    for n, pod2 in enumerate(second.pods):
        play(hub, pod2.game_id, seed=20 + n)
        for player in pod2.players:
            hub.confirm(pod2.game_id, player)
    third = hub.seat_next(seed=4)
    for n, pod3 in enumerate(third.pods):
        play(other, pod3.game_id, seed=30 + n)
        for player in pod3.players:
            other.confirm(pod3.game_id, player)
    final = [(str(s.player), str(s.points)) for s in hub.standings()]
    assert final == [(str(s.player), str(s.points)) for s in other.standings()]
    assert final == fresh_standings(hub)
    assert other.state().audit[0].reason == "scores were swapped on the sheet"


def test_what_a_table_says_is_written_when_it_changed(
    hubs: tuple[EventHub, EventHub], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Statuses and health come every few seconds from every table: a write is spared while
    only seqs or read counts moved, but not for longer than SAID_EVERY, nor when the table
    went offline, got another game, or a reader changed."""
    from scorekeeper.event import hub_service
    from scorekeeper.event.wire import Health, Status

    hub, _ = hubs
    at = "2026-05-01T19:30:00+00:00"

    def said() -> tuple[bool, dict[str, int], list[object]]:
        row = next(t for t in hub.db.tables("cup") if t["name"] == "t1")
        return row["online"], row["games"], row["health"].get("readers", [])

    reader = {"reader": "r1", "online": True, "reads": 3, "detail": ""}
    hub._on_status("t1", Status(True, {"cup-r1-t1": 1}, at))
    hub._on_health("t1", Health((reader,), at))
    hub._on_status("t1", Status(True, {"cup-r1-t1": 9}, at))  # only its seq moved
    hub._on_health("t1", Health(({**reader, "reads": 40},), at))  # only a count moved
    assert said() == (True, {"cup-r1-t1": 1}, [reader])
    hub._on_status("t1", Status(True, {"cup-r1-t1": 9, "cup-r2-t1": 0}, at))  # a new game
    assert said()[1] == {"cup-r1-t1": 9, "cup-r2-t1": 0}
    hub._on_status("t1", Status.offline())
    assert said()[:2] == (False, {})
    down = {**reader, "online": False, "detail": "no answer"}
    hub._on_health("t1", Health((down,), at))
    assert said()[2] == [down]
    monkeypatch.setattr(hub_service, "SAID_EVERY", 0.0)  # as if the time had passed
    hub._on_status("t1", Status(True, {"cup-r1-t1": 12}, at))
    hub._on_status("t1", Status(True, {"cup-r1-t1": 13}, at))
    assert said()[:2] == (True, {"cup-r1-t1": 13})
