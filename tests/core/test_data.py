"""core/data.py on a toy kind (a deck list): samples, YAML/CSV/mapping validation naming file,
line and field, export, save/delete (never a sample), resolving a table option, and finding
kinds (a game that declares none shows none)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from scorekeeper.core import data
from scorekeeper.core.data import CsvForm, DataKind, Rows
from scorekeeper.core.yaml_model import FileModel, Flag, Text
from scorekeeper.errors import ConfigError, NotFound
from scorekeeper.games import find_game


class Deck(FileModel):
    name: Text = Field(..., title="name", description="what the deck is called")
    sample: Flag = Field(False, title="sample", description="made up")
    description: str = Field("", title="description", description="words")
    cards: dict[str, int] = Field(default_factory=dict, title="cards", description="how many")


def _rows(mapping: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"card": c, "count": n} for c, n in mapping.get("cards", {}).items()]


def _entry(rows: Rows, source: str) -> dict[str, Any]:
    cards: dict[str, int] = {}
    for line, row in rows:
        if not row.get("count", "").isdigit():
            raise ConfigError(
                f"count must be a whole number, not {row.get('count')!r}", source, line
            )
        cards[row["card"]] = int(row["count"])
    return {"cards": cards}


class MemoryStore:
    """A DataStore in a dict."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str, str], dict[str, Any]] = {}

    def save_data(self, game: str, kind: str, name: str, body: Mapping[str, Any]) -> None:
        self.rows[(game, kind, name)] = dict(body)

    def data(self, game: str, kind: str, name: str) -> dict[str, Any] | None:
        return self.rows.get((game, kind, name))

    def data_names(self, game: str, kind: str) -> list[str]:
        return sorted(n for g, k, n in self.rows if (g, k) == (game, kind))

    def delete_data(self, game: str, kind: str, name: str) -> bool:
        return self.rows.pop((game, kind, name), None) is not None


@pytest.fixture
def kind(tmp_path: Path) -> DataKind:
    (tmp_path / "starter.yaml").write_text(
        "name: starter\nsample: true\ndescription: made up\ncards: {a: 2}\n", encoding="utf-8"
    )
    return DataKind(
        game="toy",
        kind="deck",
        title="Deck lists",
        help="which cards a deck holds",
        noun="deck list",
        model=Deck,
        samples=tmp_path,
        to_mapping=lambda m: m.model_dump(),
        problems=lambda d: [] if d.get("cards") else ["the deck lists no card"],
        option="deck",
        csv=CsvForm(("card", "count"), _rows, _entry),
    )


def test_a_kind_needs_name_sample_and_description(kind: DataKind) -> None:
    class Bare(FileModel):
        name: str

    with pytest.raises(TypeError, match="description"):
        DataKind("toy", "x", "X", "x", "x", Bare, Path("."), to_mapping=dict)


def test_samples_are_labelled_and_entries_list_samples_then_stored(kind: DataKind) -> None:
    (starter,) = data.entries(kind)
    assert starter.sample and not starter.stored and starter.label == "sample deck list 'starter'"
    store = MemoryStore()
    data.save(kind, store, "mine", {"name": "x", "sample": True, "cards": {}})
    store.save_data("toy", "deck", "broken", {"cards": "many"})  # left out, not a failure
    listed = data.entries(kind, store)
    assert [e.name for e in listed] == ["starter", "mine"]
    mine = listed[1]
    assert mine.stored and not mine.sample and mine.data["name"] == "mine"  # never a sample
    assert mine.summary()["problems"] == ["the deck lists no card"]
    assert data.names(kind, store) == ["starter", "broken", "mine"]


def test_yaml_errors_name_the_file_line_and_field(kind: DataKind, tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    path.write_text("name: d\ncards:\n  a: lots\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        data.from_file(kind, path)
    assert (caught.value.path, caught.value.line) == (str(path), 3)
    assert caught.value.message == "card a must be a whole number, not 'lots'"
    with pytest.raises(ConfigError, match="must be a mapping of its fields"):
        data.from_mapping(kind, ["name"], "body")
    with pytest.raises(ConfigError, match="not data"):
        data.from_mapping(kind, {"name": "x", "cards": {"a": object()}}, "body")


def test_csv_reads_names_lines_and_round_trips(kind: DataKind, tmp_path: Path) -> None:
    path = tmp_path / "club.csv"
    path.write_text("\ufeffcard,count\r\na,2\r\n\r\nb,1\r\n", encoding="utf-8")
    got = data.from_file(kind, path)
    assert got == {"name": "club", "sample": False, "description": "", "cards": {"a": 2, "b": 1}}
    assert data.from_csv(kind, data.to_csv(kind, got), "x", "club") == got
    for text, line, words in (
        ("card,colour\r\n", 1, "unknown column 'colour'; the columns are card, count"),
        ("count\r\n", 1, "missing the column 'card'"),
        ("card,count\r\na,2\r\nb,x\r\n", 3, "count must be a whole number, not 'x'"),
        ("card,count\r\na,2,3\r\n", 2, "this row has 3 cells"),
    ):
        with pytest.raises(ConfigError) as caught:
            data.from_csv(kind, text, "f.csv", "n")
        assert (caught.value.line, caught.value.path) == (line, "f.csv")
        assert words in caught.value.message
    with pytest.raises(ConfigError, match="empty"):
        data.from_csv(kind, "", "f.csv", "n")


def test_csv_cells_never_run_as_formulas(kind: DataKind) -> None:
    text = data.to_csv(kind, {"cards": {"=1+1": 1, "-x": 2, "plain": -3}})
    assert text.splitlines() == ["card,count", "'=1+1,1", "'-x,2", "plain,-3"]


def test_bodies_take_yaml_csv_or_data_only(kind: DataKind) -> None:
    assert data.from_body(kind, {"data": {"name": "a"}})["name"] == "a"
    assert data.from_body(kind, {"yaml": "name: a\n"})["name"] == "a"
    assert data.from_body(kind, {"csv": "card,count\na,1\n"}, "c")["cards"] == {"a": 1}
    with pytest.raises(ConfigError) as caught:
        data.from_body(kind, {"yaml": "name: a\ncards: [1]\n"})
    assert caught.value.line == 2 and str(caught.value).startswith("line 2: cards")
    for bad in ({"name": "a"}, {"yaml": 3}, {"yaml": "#" * (data.MAX_TEXT + 1)}, {}):
        with pytest.raises(ConfigError):
            data.from_body(kind, bad)


def test_samples_cannot_be_saved_over_or_deleted(kind: DataKind) -> None:
    store = MemoryStore()
    for name, words in (
        ("starter", "sample shipped with scorekeeper"),
        ("schema", "cannot name a deck list"),
        ("a b", "letters, digits"),
        ("", "letters, digits"),
    ):
        with pytest.raises(ConfigError, match=words):
            data.save(kind, store, name, {"name": "x"})
    with pytest.raises(ConfigError, match="samples cannot be deleted"):
        data.delete(kind, store, "starter")
    with pytest.raises(NotFound, match="no stored deck list called 'gone'"):
        data.delete(kind, store, "gone")
    assert store.rows == {}


def test_an_option_resolves_to_the_whole_mapping(kind: DataKind) -> None:
    store = MemoryStore()
    data.save(kind, store, "club", {"name": "club", "cards": {"b": 3}})
    assert data.resolve_option(kind, "club", store)["cards"] == {"b": 3}
    assert data.resolve_option(kind, "starter")["sample"] is True
    assert data.resolve_option(kind, {"name": "up", "cards": {"c": 1}})["cards"] == {"c": 1}
    assert data.resolve_option(kind, 3) == 3  # left for the game to refuse in its words
    with pytest.raises(ConfigError) as caught:
        data.resolve_option(kind, "../etc/passwd", store)
    message = str(caught.value)
    assert "no deck list called '../etc/passwd'; there are starter, club" in message
    assert "console's Deck lists section" in message


def test_export_writes_yaml_or_csv(kind: DataKind) -> None:
    entry = data.sample(kind, "starter")
    assert data.from_yaml(kind, data.export(kind, entry.data, "yaml"), "x") == entry.data
    assert data.export(kind, entry.data, "csv").splitlines()[1] == "a,2"
    with pytest.raises(ConfigError, match="yaml or csv"):
        data.export(kind, entry.data, "pdf")


def test_a_game_declaring_no_kinds_shows_none() -> None:
    game = find_game("angels-and-demons")
    assert data.game_kinds(game) == () and data.kind_for_option(game, "board") is None
    assert all(k.game != "angels-and-demons" for k in data.all_kinds())
    with pytest.raises(NotFound, match="keeps no data"):
        data.find_kind("angels-and-demons")
    several = r"several games keep data \(arcana, arcanum, king-of-the-elves\)"
    with pytest.raises(NotFound, match=several):
        data.find_kind()  # several games keep data: a command must say which
    board = data.find_kind("arcanum")  # its one kind
    assert (board.game, board.kind) == ("arcanum", "board")
    assert data.find_kind(kind_id="deck").game == "king-of-the-elves"  # the one kind of that name
    assert data.kind_for_option(find_game("arcanum"), "board") is board
    with pytest.raises(NotFound, match="no kind of data called 'deck'"):
        data.find_kind("arcanum", "deck")
