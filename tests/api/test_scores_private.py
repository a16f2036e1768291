"""A game whose scores are private until the end (``Game.scores_private``): during play no
audience gets a score or a history of scores, from any route (views, the table list, exports,
the CSV, an undo's preview); once the game is over every one of them shows the scores as for
any game. Proven on Purse (tests/toy_gold.py), a toy whose points are hidden to the end."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper import cli
from scorekeeper import games as registry
from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import parse_input
from scorekeeper.core.table import Table, TableConfig
from scorekeeper.service import Hub
from tests.toy_gold import Gold, Purse

# Seat 0 takes 3 gold and buys a point, seat 1 takes 1 and passes: one round of Purse.
ROUND = [
    "decide 0 take 3",
    "decide 0 buy buy",
    "+throne:1 crown",
    "decide 1 take 1",
    "decide 1 buy pass",
    "+throne:0 crown",
]


def _scores_in(value: Any) -> list[Any]:
    """Every value under a key that names scores, anywhere in ``value``."""
    found: list[Any] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if "score" in key and key != "scores_private":
                found.append(inner)
            found.extend(_scores_in(inner))
    elif isinstance(value, list):
        for inner in value:
            found.extend(_scores_in(inner))
    return found


def _hidden(view: dict[str, Any]) -> None:
    assert view["scores_private"] is True
    assert view["scores"] is None
    assert view["score_history"] == []
    assert all(v in (None, []) for v in _scores_in(view)), _scores_in(view)
    assert "points" not in json.dumps(view["state"])


def test_the_table_shows_no_score_to_anyone_until_the_end() -> None:
    table = Table(TableConfig("toy-purse", ("Ann", "Bea"), {"rounds": 1}), Purse())
    for line in ROUND[:-1]:
        assert table.submit(parse_input(line)).accepted, line
        for audience in (PUBLIC, ORGANISER, 0, 1):
            _hidden(table.view(audience))
    assert table.submit(parse_input(ROUND[-1])).accepted
    for audience in (PUBLIC, ORGANISER, 0, 1):
        view = table.view(audience)
        assert view["over"] and view["scores_private"] is False
        assert view["scores"] == [1, 0]
        assert view["score_history"] == [{"seq": 6, "scores": [1, 0]}]


def test_a_game_with_public_scores_keeps_its_history_from_the_start() -> None:
    table = Table(TableConfig("toy-gold", ("Ann", "Bea"), {"rounds": 1}), Gold())
    for line in ROUND:
        assert table.submit(parse_input(line)).accepted
    view = table.view(PUBLIC)
    assert view["scores_private"] is False
    assert view["score_history"] == [{"seq": 0, "scores": [0, 0]}, {"seq": 2, "scores": [1, 0]}]


def test_no_route_shows_a_score_during_play_and_all_do_once_over(
    client: TestClient, hub: Hub, org: dict[str, str], new_table: Callable[..., str]
) -> None:
    tid = new_table(game="toy-purse", seats=["Ann", "Bea"], options={"rounds": 1})
    for line in ROUND[:-1]:
        r = client.post(f"/api/tables/{tid}/inputs", json={"input": line}, headers=org)
        assert r.json()["accepted"], r.text

    def everything() -> list[dict[str, Any]]:
        return [
            client.get(f"/api/tables/{tid}").json(),
            client.get(f"/api/tables/{tid}/organiser", headers=org).json(),
            hub.view(tid, 0),
            hub.view(tid, 1),
        ]

    for view in everything():
        _hidden(view)
    (row,) = client.get("/api/tables").json()
    assert row["scores"] is None and row["scores_private"] is True
    for audience in ("public", "organiser"):
        export = client.get(
            f"/api/tables/{tid}/export", headers=org if audience != "public" else {}
        )
        _hidden(export.json()["view"])
        assert export.json()["scores"] is None
    csv = client.get(f"/api/tables/{tid}/scores.csv", headers=org).text
    assert csv.splitlines() == ["seq,Ann,Bea", "final,scores at the end"]
    preview = client.get(f"/api/tables/{tid}/undo-preview", headers=org).json()
    assert preview["scores_before"] is None and preview["scores_after"] is None

    r = client.post(f"/api/tables/{tid}/inputs", json={"input": ROUND[-1]}, headers=org)
    assert r.json()["accepted"]
    for view in everything():
        assert view["scores"] == [1, 0] and view["scores_private"] is False
        assert view["score_history"] == [{"seq": 6, "scores": [1, 0]}]
    (row,) = client.get("/api/tables").json()
    assert row["scores"] == [1, 0] and row["scores_private"] is False
    assert client.get(f"/api/tables/{tid}/export").json()["scores"] == [1, 0]
    csv = client.get(f"/api/tables/{tid}/scores.csv", headers=org).text
    assert csv.splitlines() == ["seq,Ann,Bea", "6,1,0", "final,1,0"]


def test_a_script_replayed_says_the_scores_come_at_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(registry._REGISTRY, "toy-purse", Purse)
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))
    script = tmp_path / "purse.yaml"
    steps = "".join(f"  - {line}\n" for line in ROUND[:2])
    script.write_text(
        "game: toy-purse\ntitle: one purchase\nseats: [Ann, Bea]\noptions: {rounds: 1}\n"
        f"steps:\n{steps}  - expect: {{scores: null, scores_private: true}}\n",
        encoding="utf-8",
    )
    assert cli.main(["replay", str(script)]) == 0
    assert "  scores: at the end\n" in capsys.readouterr().out
