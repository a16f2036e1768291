"""A table replicates its games to the event hub over a real broker into real PostgreSQL.

Each case ends as the issue asks: the hub's copy of the game is the table's own log, record for
record (0 lost, 0 duplicated), and replaying it gives the table's state. The table is a service
Hub on SQLite with its TableAgent; the hub side is a PostgreSQL Store with an Ingest
(tests/event/replication_rig.py). Cases that stop the broker start one of their own.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.core.game import PUBLIC
from scorekeeper.core.inputs import Undo
from scorekeeper.core.table import Table
from scorekeeper.event import ingest, wire
from scorekeeper.event.ingest import Ingest, new_command_id
from scorekeeper.event.replicas import Replicas
from scorekeeper.event.servers import PrivateMosquitto
from scorekeeper.games import find_game
from scorekeeper.store import Store
from tests.event.replication_rig import ALL, GAME, TABLE, Rig, game_config, world_inputs


@pytest.fixture
def rig(tmp_path: Path, pg_url: str, mosquitto_server: PrivateMosquitto) -> Iterator[Rig]:
    rig = Rig(tmp_path, pg_url, mosquitto_server.port)
    rig.start()
    try:
        yield rig
    finally:
        rig.close()


def test_a_game_played_at_the_table_is_the_hubs_record_for_record(rig: Rig) -> None:
    rig.assign()
    assert rig.table.status(rig.game) == "running"
    again = rig.command(wire.Create(new_command_id(), rig.game, game_config().to_dict(), True))
    assert again.ok  # the same game again: not an error, nothing new
    other = {**game_config().to_dict(), "seats": ["Ann", "Bea"]}
    clash = rig.command(wire.Create(new_command_id(), rig.game, other, True))
    assert not clash.ok and "another configuration" in (clash.error or "")
    notice = wire.Notice(new_command_id(), "Round 1 ends in 5 minutes", "2026-05-01T20:00:00+00:00")
    assert rig.command(notice).ok
    assert rig.agent.notice == notice
    assert rig.table.view(rig.game, PUBLIC)["notices"] == [{"text": notice.text}]
    rig.play(world_inputs(1))
    rig.caught_up()
    rig.same()
    # (counted just after paho took each one: the hub may have stored the last one first)
    rig.until("all were published", lambda: rig.agent.published >= rig.last_seq())
    assert rig.agent.published == rig.last_seq()
    assert rig.ingest.received == rig.last_seq()  # each record stored once

    # The same log message delivered twice more (as after a lost acknowledgement): stored once.
    rows = rig.table.store.raw_records(rig.game, rig.last_seq() - 3, ALL)
    batch = wire.LogBatch(rig.game, tuple(wire.WireRecord(s, c, t) for s, t, c in rows))
    duplicates = rig.ingest.duplicates
    for _ in range(2):
        rig.ingest.client.publish(wire.topic(rig.event, TABLE, wire.LOG), batch.to_json(), qos=1)
    rig.until("both copies arrived", lambda: rig.ingest.duplicates >= duplicates + 6)
    rig.same()
    assert rig.ingest.received == rig.last_seq() and rig.ingest.conflicts == 0

    # What the hub refuses and keeps nothing of: the same game sent on another table's topic,
    # a record under a stored seq with other content, and a message that is not JSON.
    rig.ingest.client.publish(wire.topic(rig.event, "t2", wire.LOG), batch.to_json(), qos=1)
    seq, text, chain = rows[-1]
    forged = wire.LogBatch(rig.game, (wire.WireRecord(seq, "0" * len(chain), text),))
    rig.ingest.client.publish(wire.topic(rig.event, TABLE, wire.LOG), forged.to_json(), qos=1)
    rig.ingest.client.publish(wire.topic(rig.event, TABLE, wire.LOG), b"{not json", qos=1)
    i = rig.ingest  # the bad message is counted as it arrives, the others once stored
    rig.until("all three were heard", lambda: i.refused >= 3 and i.conflicts >= 1 and i.bad >= 1)
    assert (i.refused, i.conflicts, i.bad) == (3, 1, 1)
    rig.same()


def test_records_lost_in_between_are_asked_for_and_the_gap_fills(
    tmp_path: Path, pg_url: str, mosquitto_server: PrivateMosquitto
) -> None:
    # A heartbeat too slow to matter: only the gap the hub sees makes it ask.
    rig = Rig(tmp_path, pg_url, mosquitto_server.port, heartbeat=60.0)
    rig.start()
    try:
        inputs = world_inputs(2)
        rig.assign(create_on_hub=False)  # records sent before the hub has the game are lost
        rig.play(inputs[:5])
        rig.until("the five were refused", lambda: rig.ingest.refused == 5)
        assert rig.ingest.resends == 0  # a game the hub never assigned is not asked for
        rig.store.create_table(rig.table.config(rig.game), table_id=rig.game)
        rig.play(inputs[5:6])  # record 6 arrives: 1..5 are missing
        rig.caught_up()
        rig.until("the table counted what it resent", lambda: rig.agent.resent >= 5)
        assert rig.ingest.resends == 1 and rig.agent.resent == 5  # only the gap: 1..5
        rig.play(inputs[6:])
        rig.caught_up()
        rig.same()
    finally:
        rig.close()


def test_the_broker_restarts_mid_game(tmp_path: Path, pg_url: str) -> None:
    with PrivateMosquitto() as broker:
        rig = Rig(tmp_path, pg_url, broker.port)
        rig.start()
        try:
            inputs = world_inputs(3)
            half = len(inputs) // 2
            rig.assign()
            rig.play(inputs[:half])
            broker.stop()  # the table plays on while the broker is away
            rig.play(inputs[half : half + 10])
            broker.start()
            rig.play(inputs[half + 10 :])
            rig.caught_up()
            rig.same()
        finally:
            rig.close()


def test_an_offline_table_catches_up_and_a_correction_made_meanwhile_lands_once(
    rig: Rig,
) -> None:
    inputs = world_inputs(4)
    rig.assign()
    rig.play(inputs[:20])
    rig.caught_up()
    rig.agent.stop()  # the table's network goes away (its broker session stays)
    rig.play(inputs[20:40])  # the table keeps playing on its own log
    before = rig.last_seq()
    # A judge takes back the last play from the hub's console while the table is away; the
    # command is delivered twice (as after a broker's retry): it must be applied once.
    undo = wire.InputCommand(new_command_id(), rig.game, Undo().to_record(), None, "judge", "x")
    rig.ingest.send(TABLE, undo)
    rig.ingest.send(TABLE, undo)
    # One pinned to what the console showed before the table went on alone: refused in words.
    stale = wire.InputCommand(new_command_id(), rig.game, Undo().to_record(), 20, "judge", "")
    rig.ingest.send(TABLE, stale)
    rig.agent = rig.new_agent()
    rig.agent.start()
    rig.until("both deliveries are answered", lambda: len(rig.replies.get(undo.id, [])) == 2)
    assert all(reply.ok for reply in rig.replies[undo.id])
    rig.until("the stale one is answered", lambda: stale.id in rig.replies)
    refused = rig.replies[stale.id][0]
    assert not refused.ok and "moved on" in (refused.error or "")
    rig.caught_up()
    rig.same()
    records = rig.table.store.raw_records(rig.game, before, ALL)
    assert [text for _seq, text, _chain in records] == ['{"type": "undo", "typed": true}']
    assert rig.agent.applied.get(undo.id) is not None

    rig.play(inputs[39:])  # the play taken back is made again
    rig.caught_up()
    rig.same()


def test_two_hubs_sharing_a_games_messages_fill_each_others_gaps_without_a_resend(
    pg_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The broker splits a game's messages between the hub processes, so each sees gaps that
    the other's share fills: each reads back what the other stored and applies it to its own
    replica, and asks the table only for a gap still open after ``resend_after``, bounded."""
    game = wire.game_id("ev", 1, TABLE)
    own = Store("sqlite://")
    own.create_table(game_config(), table_id=game)
    table = Table(game_config(), find_game(GAME), log=own.sink(game))
    for inp in world_inputs(3, 7):
        assert table.submit(inp).accepted
    rows = own.raw_records(game, 0, ALL)

    def message(seq: int) -> wire.Message:
        _seq, text, chain = rows[seq - 1]
        batch = wire.LogBatch(game, (wire.WireRecord(seq, chain, text),))
        return wire.decode(wire.topic("ev", TABLE, wire.LOG), batch.to_json())

    monkeypatch.setattr(ingest, "RUN", 2)  # runs read two at a time: longer ones read on
    stores = [Store(pg_url), Store(pg_url)]
    stores[0].create_table(game_config(), table_id=game)
    a, b = (
        Ingest(s, "ev", "127.0.0.1", 1, "", "", client_id=f"h{n}", replicas=Replicas(s))
        for n, s in enumerate(stores, 1)
    )
    try:
        a.resend_after = b.resend_after = 60.0
        a._take([message(1)])
        a._take([message(3)])  # 2 is in the other hub's share, not stored yet
        assert (a.known_high(game), a.replicas.applied(game)) == (1, 1)
        b._take([message(2)])  # b reads 1 and 3 back: its replica has 1..3
        assert (b.known_high(game), b.replicas.applied(game)) == (3, 3)
        a.resend_after = 0.0
        a._check_gaps()  # a's gap is filled in the store: nothing asked
        assert (a.known_high(game), a.replicas.applied(game), a.resends) == (3, 3, 0)
        a._take([message(4)])
        a._take([message(7)])  # 5 and 6 are lost: asked for once, as 5..6
        with caplog.at_level(logging.INFO, logger="scorekeeper.event.ingest"):
            a._check_gaps()
            a._check_gaps()  # one open ask per game
        asked = [r for r in caplog.records if r.getMessage() == "resend asked"]
        assert [(r.from_seq, r.to_seq) for r in asked] == [(5, 6)]  # type: ignore[attr-defined]
        a._take([message(6), message(5)])  # the resend
        assert (a.known_high(game), a.replicas.applied(game)) == (7, 7)
        assert a.replicas.result(game) == Replicas(stores[1]).result(game)
        assert (a.received + b.received, a.duplicates + b.duplicates) == (7, 0)
    finally:
        own.close()
        for s in stores:
            s.close()
