"""Exports: verdicts recomputed by replay, and no secrets in a public export during play."""

from __future__ import annotations

import json

import pytest

from scorekeeper.core.inputs import Decision, Seen, Sighting
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.store import Store
from scorekeeper.store.export import export_game
from tests.fakes import FakeGame

KIT = {"04AA0001": "C1", "04AA0002": "C2", "04AA0003": "C3", "04AA0004": "C4"}
INPUTS = [
    Sighting("r1", "04AA0001", True),  # C1 into the hidden hand
    Sighting("r2", "04AA0002", True),  # C2 played, public
    Sighting("r2", "0BADBEEF", True),  # unknown tag: rejected
    Seen("hand", "C3", True),  # a hidden card named in the raw record
    Decision(1, "anything", "yes"),  # rejected by the fake game
    Sighting("r1", "04AA0004", True),  # C4 into the hand
]
VERDICTS = [True, True, False, True, False, True]


@pytest.fixture
def played(store_url: str):
    """A played table, in a store on each backend in turn."""
    store = Store(store_url)
    config = TableConfig(
        game="fake",
        seats=("ann", "bob"),
        layout={"r1": "hand", "r2": "play"},
        kit=KIT,
        name="export test",
    )
    table_id = store.create_table(config)
    store.set_status(table_id, "running")
    table = Table(config, FakeGame(), log=store.sink(table_id))
    for inp in INPUTS:
        table.submit(inp)
    yield store, table_id, table
    store.close()


def test_public_export_during_play_has_no_secrets(played) -> None:
    store, table_id, table = played
    game = FakeGame()
    out = export_game(store, table_id, game=game)
    text = json.dumps(out)
    secrets = game.secrets(table.state, 0)
    assert secrets == {"C1", "C3", "C4"}
    for secret in secrets:
        assert secret not in text
    for uid, piece in KIT.items():
        if piece in secrets:
            assert uid not in text
    assert out["audience"] == "public"
    assert [i["accepted"] for i in out["inputs"]] == VERDICTS
    assert [i["seq"] for i in out["inputs"]] == list(range(1, len(INPUTS) + 1))
    assert all("record" not in i and "input" not in i for i in out["inputs"])
    assert out["view"] == table.view("public")
    assert out["scores"] == [1, 0]
    assert out["config"]["kit"] == {"tags": 4}
    assert out["status"] == "running"


def test_organiser_export_is_full(played) -> None:
    store, table_id, table = played
    out = export_game(store, table_id, audience="organiser", game=FakeGame())
    assert out["audience"] == "organiser"
    assert [i["record"] for i in out["inputs"]] == [inp.to_record() for inp in INPUTS]
    assert [i["input"] for i in out["inputs"]] == [inp.to_str() for inp in INPUTS]
    assert [i["accepted"] for i in out["inputs"]] == VERDICTS
    assert out["config"]["kit"] == KIT
    assert out["view"]["state"]["hand"] == ["C1", "C3", "C4"]
    assert out["inputs"][2]["rejection"]["rule"] == "TABLE-UNKNOWN-TAG"


def test_ended_game_exports_in_full_unless_public_asked(played) -> None:
    store, table_id, _ = played
    store.set_status(table_id, "ended")
    assert export_game(store, table_id, game=FakeGame())["audience"] == "organiser"
    public = export_game(store, table_id, audience="public", game=FakeGame())
    assert "C1" not in json.dumps(public)


def test_export_audience_is_checked(played) -> None:
    store, table_id, _ = played
    with pytest.raises(ValueError):
        export_game(store, table_id, audience="seat", game=FakeGame())
