"""``scorekeeper enroll`` records what is printed on a copy while it is tagged
(``DataKind.per_piece``), and ``enroll`` and ``kit fake`` follow the pieces of a data entry
(``--option``). Proven on Toy deck (tests/toy_deck.py): each card's colour and value are asked
right after it is tagged, re-asked on a bad answer, and saved at the end with the coins
counted as a toy deck of the kit's name, checked by the kind's model."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper import games as registry
from scorekeeper.core import data
from scorekeeper.store import Store, sqlite_url
from tests.toy_deck import DECK_KIND, ID, ToyDeck

BIG = {
    "name": "big",
    "description": "five coins",
    "cards": {"card_1": {"colour": "red", "value": 4}},
    "coins": 5,
}


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._REGISTRY, ID, ToyDeck)
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "sk.db")


def enroll(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    db: str,
    typed: str,
    *extra: str,
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert cli.main(["enroll", "--game", ID, "--kit", "mine", "--db", db, *extra]) == 0
    return capsys.readouterr().out


def stored(db: str, name: str = "mine") -> dict[str, object] | None:
    with Store(sqlite_url(db)) as store:
        return store.data(ID, "deck", name)


def test_each_card_is_asked_after_its_tag_and_the_deck_is_saved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: str
) -> None:
    typed = "04000001\ngreen\nBlue\n9\n4\n04000002\nred\n2\n04000003\n\n04000005\n"
    out = enroll(monkeypatch, capsys, db, typed)
    assert "What is printed on the card 1 (card_1)?" in out
    assert "Colour (the colour of the card's border): Red, Blue?" in out
    assert "'green' is not a colour; answer Red, Blue" in out  # and asked again
    assert "Value (the number in its corner): a whole number from 1 to 5?" in out
    assert "'9' is not a value; answer a whole number from 1 to 5" in out
    assert out.count("Colour (") == 3 and "What is printed on a coin" not in out
    assert "Saved the toy deck 'mine' (complete)." in out
    saved = stored(db)
    assert saved is not None
    assert saved["cards"] == {
        "card_1": {"colour": "blue", "value": 4},
        "card_2": {"colour": "red", "value": 2},
    }
    assert saved["coins"] == 2 and saved["sample"] is False  # coin_2 was skipped


def test_answers_survive_a_stop_and_are_asked_first_next_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: str
) -> None:
    out = enroll(monkeypatch, capsys, db, "04000001\nred\nq\n")  # stopped mid-questions
    assert "still to fill in: the deck lists no card; what is printed on card_1 is not known" in out
    out = enroll(monkeypatch, capsys, db, "red\n3\nq\n")
    assert out.index("What is printed on the card 1 (card_1)?") < out.index("Place the card 2")
    assert stored(db)["cards"] == {"card_1": {"colour": "red", "value": 3}}  # type: ignore[index]


def test_the_pieces_of_a_named_deck_are_tagged_and_faked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: str
) -> None:
    with Store(sqlite_url(db)) as store:
        data.save(DECK_KIND, store, "big", BIG)
    out = enroll(monkeypatch, capsys, db, "", "--option", "deck=big", "--list")
    assert "0/6 tagged" in out and "coin_5" in out and "card_2" not in out
    assert "the red card (4)" in out  # the named deck's words
    assert cli.main(["kit", "fake", "--game", ID, "--kit", "shipped", "--db", db]) == 0
    assert (
        cli.main(["kit", "fake", "--game", ID, "--kit", "dry", "--option", "deck=big", "--db", db])
        == 0
    )
    with Store(sqlite_url(db)) as store:
        assert sorted(store.kit("dry").entries.values())[-1] == "coin_5"
        assert sorted(store.kit("shipped").entries.values())[-1] == "coin_3"


def test_a_kit_file_of_a_named_deck_is_imported_with_its_option(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    with Store(sqlite_url(db)) as store:
        data.save(DECK_KIND, store, "big", BIG)
    assert (
        cli.main(["kit", "fake", "--game", ID, "--kit", "dry", "--option", "deck=big", "--db", db])
        == 0
    )
    file = str(tmp_path / "dry.yaml")
    assert cli.main(["kit", "export", "dry", file, "--db", db]) == 0
    capsys.readouterr()
    assert cli.main(["kit", "import", file, "--name", "again", "--db", db]) == 2
    assert "Toy deck has no piece 'coin_4'" in capsys.readouterr().err  # the shipped deck's 3
    imported = ["kit", "import", file, "--name", "again", "--option", "deck=big", "--db", db]
    assert cli.main(imported) == 0
    assert "imported from" in (out := capsys.readouterr().out) and "6/6 tagged" in out


def test_table_create_reads_a_kit_file_against_the_deck_it_names(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    from scorekeeper.commands.table.create import _kit
    from scorekeeper.errors import ConfigError

    with Store(sqlite_url(db)) as store:
        data.save(DECK_KIND, store, "big", BIG)
    assert (
        cli.main(["kit", "fake", "--game", ID, "--kit", "dry", "--option", "deck=big", "--db", db])
        == 0
    )
    file = str(tmp_path / "dry.yaml")
    assert cli.main(["kit", "export", "dry", file, "--db", db]) == 0
    assert sorted(_kit(file, ID, {"deck": BIG}).values())[-1] == "coin_5"  # type: ignore[union-attr]
    # a deck only the server has: the server checks the table's kit against it
    assert len(_kit(file, ID, {"deck": "big"})) == 6
    with pytest.raises(ConfigError, match="has no piece 'coin_4'"):
        _kit(file, ID, {"deck": "guess"})
