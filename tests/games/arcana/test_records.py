"""An Arcana state in record form (records.py): the pack travels as the text it was built from,
once, and comes back as the same pack; a pack built by hand is encoded card by card."""

from __future__ import annotations

import json

import pytest

from scorekeeper.core.snapshot import SnapshotError
from scorekeeper.games.arcana import pack, records
from scorekeeper.games.arcana.game import Arcana
from scorekeeper.games.arcana.state import evolve
from tests.games.arcana import factory

GAME = Arcana()


def _through_json(record: dict[str, object]) -> dict[str, object]:
    loaded = json.loads(json.dumps(record))
    assert isinstance(loaded, dict)
    return loaded


def test_a_state_on_a_pack_from_its_mapping_carries_the_packs_text_once() -> None:
    sample = pack.sample_pack()
    state = evolve(factory.state(3), pack=sample)
    record = GAME.snapshot(state)
    assert record[records.PACK_KEY] == pack.source_of(sample)
    # The encoded state holds no card of the pack: only the text does.
    assert "Crossbowman" not in json.dumps(record["state"])
    back = GAME.restore(_through_json(record))
    assert back == state and back.pack is sample


def test_a_hand_made_pack_is_encoded_card_by_card() -> None:
    state = factory.state(2)
    assert pack.source_of(state.pack) is None
    record = GAME.snapshot(state)
    assert records.PACK_KEY not in record
    assert GAME.restore(_through_json(record)) == state


def test_a_pack_text_of_another_kind_is_refused() -> None:
    record = GAME.snapshot(evolve(factory.state(2), pack=pack.sample_pack()))
    record[records.PACK_KEY] = 3
    with pytest.raises(SnapshotError, match="pack's JSON text"):
        GAME.restore(record)
