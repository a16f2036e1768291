"""The console's enrollment records what is printed on a copy (``DataKind.per_piece``):
after a card is tagged the session's state asks its fields with their choices; no other tag is
taken until they are answered; a bad answer is refused in words and asked again; once every
piece is tagged and answered, the data entry of the kit's name is saved. ``options`` tag the
pieces of a named entry. Proven on Toy deck (tests/toy_deck.py) through the API."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper import games as registry
from scorekeeper.core import data
from scorekeeper.service import Hub
from tests.toy_deck import DECK_KIND, ID, ToyDeck


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._REGISTRY, ID, ToyDeck)
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))


def test_each_card_is_asked_and_the_deck_saved(
    client: TestClient, hub: Hub, org: dict[str, str]
) -> None:
    body = {"kit": "mine", "game": ID, "readers": "none"}
    state = client.post("/api/enroll", json=body, headers=org).json()
    sid = state["sid"]
    assert state["ask"] is None and state["records"] == "toy deck"

    def post(action: str, json: Any = None) -> dict[str, Any]:
        r = client.post(f"/api/enroll/{sid}/{action}", json=json, headers=org)
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer

    state = post("tag", {"uid": "04000001"})
    ask = state["ask"]
    assert ask["piece"] == "card_1" and ask["text"] == "What is printed on the card 1 (card_1)?"
    colour, value = ask["fields"]
    assert colour["title"] == "colour" and colour["help"] == "the colour of the card's border"
    assert colour["choices"] == [
        {"value": "red", "label": "Red"},
        {"value": "blue", "label": "Blue"},
    ]
    assert [c["value"] for c in value["choices"]] == [1, 2, 3, 4, 5]

    state = post("tag", {"uid": "04000002"})  # not taken before the answers
    assert (
        not state["last"]["ok"]
        and "first answer what is printed on the card 1" in (state["last"]["text"])
    )
    assert state["tagged"] == 1
    state = post("answer", {"answers": {"colour": "green", "value": 3}})
    assert state["last"]["text"] == "'green' is not a colour; answer Red, Blue"
    assert state["ask"]["piece"] == "card_1"
    state = post("answer", {"answers": {"colour": "Red", "value": "3"}})
    assert state["last"]["text"] == "card 1 (card_1): colour Red, value 3"
    assert state["ask"] is None and state["next"]["piece"] == "card_2"

    post("tag", {"uid": "04000002"})
    post("answer", {"answers": {"colour": "blue", "value": 5}})
    for n in (3, 4, 5):
        state = post("tag", {"uid": f"0400000{n}"})
    assert state["complete"] and state["entry"] == {
        "name": "mine",
        "saved": True,
        "complete": True,
        "problems": [],
    }
    saved = hub.store.data(ID, "deck", "mine")
    assert saved is not None and saved["coins"] == 3
    assert saved["cards"]["card_2"] == {"colour": "blue", "value": 5}


def test_the_pieces_of_a_named_deck_are_asked_for(
    client: TestClient, hub: Hub, org: dict[str, str]
) -> None:
    big = {"name": "big", "cards": {"card_9": {"colour": "red", "value": 1}}, "coins": 4}
    data.save(DECK_KIND, hub.store, "big", big)
    body = {"kit": "k", "game": ID, "readers": "none", "options": {"deck": "big"}}
    state = client.post("/api/enroll", json=body, headers=org).json()
    assert state["total"] == 5 and state["next"]["text"] == (
        "Place the red card (1) (card_9) on the reader"
    )
    body["options"] = {"deck": "nonesuch"}
    r = client.post("/api/enroll", json=body, headers=org)
    assert r.status_code == 422 and "there is no toy deck called 'nonesuch'" in r.json()["error"]
