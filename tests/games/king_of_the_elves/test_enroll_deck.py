"""Enrolling a King of the Elves deck records its manifest (issue 13, point 3): each village
card's terrain and value are asked as it is tagged, the travel and special cards are counted by
type, and the manifest is saved under the kit's name, labelled neither sample nor assumed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.core.kit import made_up_uid
from scorekeeper.games import find_game
from scorekeeper.games.king_of_the_elves.deck import problems
from scorekeeper.store import Store, sqlite_url

GAME = "king-of-the-elves"


def test_each_village_is_asked_its_terrain_and_value_and_the_manifest_saved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "sk.db")
    pieces = find_game(GAME).pieces()
    assert pieces[:2] == ("village_01", "village_02")
    uid = [made_up_uid(i).upper() for i in range(1, 4)]
    typed = f"{uid[0]}\nlake\n7\n{uid[1]}\nswamp\nriver\n1\n2\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert cli.main(["enroll", "--game", GAME, "--kit", "ours", "--db", db]) == 0
    out = capsys.readouterr().out
    # asked for each card, and again after a terrain that is none
    assert out.count("Terrain (the terrain drawn in the card's corners)") == 3
    assert "'swamp' is not a terrain" in out and "'1' is not a value" in out
    with Store(sqlite_url(db)) as store:
        saved = store.data(GAME, "deck", "ours")
    assert saved is not None
    assert saved["villages"] == {
        "village_01": {"terrain": "lake", "value": 7},
        "village_02": {"terrain": "river", "value": 2},
    }
    assert saved["assumed"] is False and saved["sample"] is False
    # Stopped after two cards: the manifest says what is missing before it can start a table.
    assert any("village" in p for p in problems(saved))
