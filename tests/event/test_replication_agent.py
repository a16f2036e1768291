"""The table agent without a broker: its credentials file, and a judge's input that a crash
caught between its submit and its "done" mark (it must not be applied a second time)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.core.inputs import Undo
from scorekeeper.errors import ConfigError
from scorekeeper.event import wire
from scorekeeper.event.applied import DONE
from scorekeeper.event.table_agent import TableAgent
from scorekeeper.event.table_credentials import TableCredentials
from scorekeeper.service import Hub
from tests.event.replication_rig import ALL, SEATS, game_config, world_inputs

GOOD = {
    "event": "spring26",
    "table": "t4",
    "host": "hub.local",
    "port": 1883,
    "username": "sk-spring26-t4",
    "password": "s3cret",
}


def test_credentials_are_read_and_a_bad_file_is_named_in_words(tmp_path: Path) -> None:
    file = tmp_path / "event.json"
    file.write_text(json.dumps(GOOD))
    creds = TableCredentials.read(file)
    assert (creds.event, creds.table, creds.port) == ("spring26", "t4", 1883)
    assert "s3cret" not in repr(creds)
    for bad, words in (
        ({**GOOD, "table": "T 4"}, "not a valid name"),
        ({**GOOD, "port": 0}, "port number"),
        ({**GOOD, "host": ""}, "broker"),
    ):
        file.write_text(json.dumps(bad))
        with pytest.raises(ConfigError, match=words) as caught:
            TableCredentials.read(file)
        assert str(file) in str(caught.value)
    file.write_text("{")
    with pytest.raises(ConfigError, match="not JSON"):
        TableCredentials.read(file)
    with pytest.raises(ConfigError, match="cannot read"):
        TableCredentials.read(tmp_path / "missing.json")


def test_an_input_caught_by_a_crash_between_submit_and_done_is_not_applied_again(
    tmp_path: Path,
) -> None:
    hub = Hub.open(tmp_path / "table.db")
    try:
        creds = TableCredentials("spring26", "t4", "127.0.0.1", 1)  # never connected here
        agent = TableAgent(hub, creds)
        game = wire.game_id("spring26", 1, "t4")
        config = game_config()
        hub.create_table(config.game, SEATS, options=config.options, table_id=game)
        hub.start(game)
        for inp in world_inputs(5, 10):
            hub.submit(game, inp)
        command = wire.InputCommand("c1", game, Undo().to_record(), None, "judge", "misread")
        # What a crash leaves: noted as pending at seq 10, submitted, never marked done.
        agent.applied.begin(command.id, game, 10, command.by, command.reason)
        hub.submit(game, Undo(), typed=True)
        assert agent._apply_input(command) == (True, None)  # found in the log, not applied
        assert len(hub.store.raw_records(game, 0, ALL)) == 11
        noted = agent.applied.get(command.id)
        assert noted is not None and noted.state == DONE and noted.ok
        # And one never submitted before the crash is applied when it comes again.
        other = wire.InputCommand("c2", game, Undo().to_record(), None, "judge", "")
        agent.applied.begin(other.id, game, 11)
        assert agent._apply_input(other) == (True, None)
        assert len(hub.store.raw_records(game, 0, ALL)) == 12
        assert agent._apply_input(other) == (True, None)  # once more: remembered, not applied
        assert len(hub.store.raw_records(game, 0, ALL)) == 12
    finally:
        hub.close()


def test_the_next_rounds_game_replaces_the_last_on_the_tables_readers(tmp_path: Path) -> None:
    hub = Hub.open(tmp_path / "table.db")
    try:
        agent = TableAgent(hub, TableCredentials("spring26", "t4", "127.0.0.1", 1))
        started: list[str] = []
        agent.on_game = started.append
        first, second = (wire.game_id("spring26", n, "t4") for n in (1, 2))
        config = game_config().to_dict()
        agent._handle(wire.Create("c1", first, config, True))
        assert hub.status(first) == "running"
        agent._handle(wire.Create("c2", second, config, True))
        assert (hub.status(first), hub.status(second)) == ("ended", "running")
        agent._handle(wire.Create("c3", first, config, True))  # sent again late: no change
        assert (hub.status(first), hub.status(second)) == ("ended", "running")
        assert started == [first, second]
        with pytest.raises(ConfigError, match="not a game of event"):
            agent._create(wire.Create("c4", "autumn-r1-t4", config, True))
    finally:
        hub.close()
