"""Enrolling an Arcana copy records its card pack (issue 14, point 4): each card is asked what
is printed on it as it is tagged (core/per_piece.py asks the pack kind's questions), bad answers
are asked again, and the pack is saved under the kit's name, checked as any pack is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper.core.per_piece import AnswerBook, check_answers, questions, save_entry
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana import pack
from scorekeeper.games.arcana.cards import PIECES
from scorekeeper.games.arcana.pack_data import PACK_KIND
from scorekeeper.games.arcana.pack_enroll import PER_PIECE
from scorekeeper.store import Store, sqlite_url

assert PACK_KIND.per_piece is PER_PIECE

NONE = {"major": "none", "threshold": "none", "once_per_round": "no", "ability": "none"}
TYPED: dict[str, dict[str, Any]] = {  # what a person types for each card, as text
    "badge_ferrymen": {
        **NONE,
        "name": "Ferrymen's Badge",
        "type": "badge",
        "guild_or_domain": "Ferrymen",
        **dict.fromkeys(("wand", "sword", "chalice", "coin"), "-"),
        "vp": "0",
        "letter": "none",
        "ability": "{when: always, tie_win: {arcanum: [wand]}}",
    },
    "ferrymen_03": {
        **NONE,
        "name": "Crossbowman",
        "type": "agent",
        "guild_or_domain": "ferrymen",
        "wand": "0",
        "sword": "3",
        "chalice": "0",
        "coin": "1",
        "vp": "0",
        "letter": "a",
    },
    "stake_002": {
        **NONE,
        "name": "Ayane",
        "type": "citizen",
        "guild_or_domain": "Old Town",
        "wand": "2",
        "sword": "5",
        "chalice": "1",
        "coin": "7",
        "major": "sword",
        "threshold": "5",
        "vp": "2",
        "letter": "none",
    },
    "master_fortune_tellers_1": {
        **NONE,
        "name": "Noc-Atlalt, Lord of Winds",
        "type": "guild master",
        "guild_or_domain": "Fortune-Tellers",
        **dict.fromkeys(("wand", "sword", "chalice", "coin"), "-"),
        "vp": "0",
        "letter": "E",
        "once_per_round": "yes",
        "ability": "{when: use, draw_keep: {draw: 3, keep: 1}}",
    },
    "objective_01": {
        **NONE,
        "name": "Exotic Blood Gardens",
        "type": "objective",
        "guild_or_domain": "Ogrokh",
        **dict.fromkeys(("wand", "sword", "chalice", "coin"), "-"),
        "threshold": "3",
        "vp": "4",
        "letter": "C",
    },
}


def test_every_card_is_asked_the_contracts_questions_in_order() -> None:
    asked = questions(PER_PIECE)
    assert [q.field for q in asked] == [
        "name",
        "type",
        "guild_or_domain",
        "wand",
        "sword",
        "chalice",
        "coin",
        "major",
        "threshold",
        "vp",
        "letter",
        "once_per_round",
        "ability",
    ]
    assert all(q.title and q.help for q in asked)
    kinds = next(q for q in asked if q.field == "type")
    assert ("princes_games", "Prince's Games card") in kinds.choices
    assert all(PER_PIECE.asks(p) for p in PIECES) and not PER_PIECE.asks("village_01")


@pytest.mark.parametrize(
    ("field", "typed", "words"),
    [
        ("sword", "x", "'x' is not a sword value"),
        ("type", "dragon", "'dragon' is not a type; answer agent, location"),
        ("ability", "{when: play, draw", "write it as one line like {when: play"),
        ("ability", "draw 2", "or none"),
        ("vp", "21", "'21' is not a victory point value; answer a whole number from 0 to 20"),
    ],
)
def test_a_bad_answer_is_refused_in_words(field: str, typed: str, words: str) -> None:
    with pytest.raises(ValueError) as err:
        check_answers(PER_PIECE, {**TYPED["ferrymen_03"], field: typed})
    assert words in str(err.value)


def test_the_answers_become_the_kits_pack(tmp_path: Path) -> None:
    with Store(sqlite_url(str(tmp_path / "sk.db"))) as store:
        book = AnswerBook(store, PACK_KIND, "ours")
        for piece, typed in TYPED.items():
            book.put(piece, check_answers(PER_PIECE, typed))
        entry = save_entry(store, PACK_KIND, "ours", [*TYPED, "stake_001"])
        saved = store.data("arcana", "pack", "ours")
    assert saved is not None and saved == entry.data
    assert saved["sample"] is False and saved["domains"] == ["Old Town", "Ogrokh"]
    sample = pack.load_shipped("sample")["cards"]
    for piece in ("badge_ferrymen", "ferrymen_03", "stake_002", "master_fortune_tellers_1"):
        assert saved["cards"][piece] == sample[piece], piece
    assert saved["cards"]["objective_01"] == sample["objective_01"]
    # stake_001 was tagged without answers: not recorded, and the pack says what is missing
    assert "stake_001" not in saved["cards"]
    assert any(p.startswith("stakes: 115 of the 116") for p in pack.problems(saved))


def test_a_card_that_does_not_add_up_is_named_when_the_pack_is_saved(tmp_path: Path) -> None:
    with Store(sqlite_url(str(tmp_path / "sk.db"))) as store:
        book = AnswerBook(store, PACK_KIND, "ours")
        book.put("stake_002", check_answers(PER_PIECE, {**TYPED["stake_002"], "threshold": "6"}))
        with pytest.raises(ConfigError) as err:
            save_entry(store, PACK_KIND, "ours", ["stake_002"])
    assert "stake_002 (Ayane): threshold in sword is 6 but its sword value is 5" in str(err.value)
