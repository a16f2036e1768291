"""A data kind whose shipped entries are not samples but guesses (``DataKind.sample_word``
"assumed"): every place that labels a shipped entry says "assumed", never "sample": the
entry's label and summary, ``scorekeeper data list/show/check``, ``GET /api/data`` and a
kind's entries, the choices ``scorekeeper table create`` lists. Proven on Toy deck's kind
(tests/toy_deck.py), registered for these tests only."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper import games as registry
from scorekeeper.api import create_app
from scorekeeper.commands.table.create import _missing_option, _option_choices
from scorekeeper.core import data
from scorekeeper.service import Hub
from tests.toy_deck import DECK_KIND, ID, ToyDeck

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(registry._REGISTRY, ID, ToyDeck)
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))
    monkeypatch.chdir(tmp_path)


def test_the_entry_is_labelled_with_the_kind_s_word() -> None:
    (guess,) = data.entries(DECK_KIND)
    assert guess.label == "assumed toy deck 'guess'"
    summary = guess.summary()
    assert (summary["sample"], summary["sample_word"]) == (True, "assumed")
    assert summary["sample_note"] == "shipped with scorekeeper, not read from your own copy"
    with pytest.raises(Exception, match="'guess' is an assumed toy deck shipped"):
        data.check_name(DECK_KIND, "guess")
    with pytest.raises(Exception, match="assumed toy decks cannot be deleted"):
        data.delete(DECK_KIND, None, "guess")  # type: ignore[arg-type]


def test_the_command_says_assumed(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["data", "list", "--game", ID, "--db", "sk.db"]) == 0
    listed = capsys.readouterr().out
    assert "assumed (shipped with scorekeeper" in listed and "sample" not in listed
    assert cli.main(["data", "show", "guess", "--game", ID, "--db", "sk.db"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("ASSUMED toy deck: shipped") and "assumed toy deck 'guess'" in shown
    assert cli.main(["data", "check", "guess", "--game", ID, "--db", "sk.db"]) == 0
    assert "(assumed: shipped" in capsys.readouterr().out


def test_table_create_lists_the_entry_as_assumed() -> None:
    option = ToyDeck().options[0]
    ((name, words),) = _option_choices(option, DECK_KIND, None)
    assert (name, words) == (
        "guess",
        "assumed: shipped with scorekeeper, not read from your own copy",
    )
    assert "one marked assumed is shipped" in _missing_option(
        "deck", "deck", [(name, words)], DECK_KIND
    )


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    hub = Hub.open(tmp_path / "sk.db")
    with TestClient(create_app(hub)) as c:
        yield c
    hub.close()


def test_the_api_gives_the_word_with_the_kind_and_each_entry(client: TestClient) -> None:
    (kind,) = [k for k in client.get("/api/data").json() if k["game"] == ID]
    assert (kind["sample_word"], kind["sample_note"]) == (
        "assumed",
        "shipped with scorekeeper, not read from your own copy",
    )
    (entry,) = client.get(f"/api/data/{ID}/deck").json()
    assert entry["sample"] and entry["sample_word"] == "assumed"
    # a kind that says nothing keeps the word "sample"
    (boards,) = [k for k in client.get("/api/data").json() if k["game"] == "arcanum"]
    assert (boards["sample_word"], boards["sample_note"]) == ("sample", "made up")
