"""A refused input the organiser typed asks for no physical move: it was typed, not laid, so
"put it back" makes no sense ("that input was not applied; nothing to put back"). Laid inputs
keep their hint; replays rebuild the same words from the log's ``typed`` key."""

from __future__ import annotations

from typing import Any

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.table import TYPED, Table, TableConfig
from scorekeeper.core.text import TYPED_HINT, typed_hint
from scorekeeper.games import find_game

CONFIG = TableConfig(game="angels-and-demons", seats=("Ann", "Bea", "Cid"))


class Log:
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def append(self, record: dict[str, Any]) -> int:
        self.records.append(record)
        return len(self.records)


def test_typed_hint_drops_the_physical_moves_and_keeps_the_rest() -> None:
    assert typed_hint("take the black human 7 off Cid's discard row") == TYPED_HINT
    assert typed_hint("the organiser resumes it; then lift that card and put it back") == (
        f"{TYPED_HINT}; the organiser resumes it"
    )
    assert typed_hint("put it back on the play area; now: Ann: play a minor") == (
        f"{TYPED_HINT}; now: Ann: play a minor"
    )
    assert typed_hint(typed_hint("take it back")) == TYPED_HINT


def test_a_typed_card_is_refused_without_put_back_words_and_replays_the_same() -> None:
    log = Log()
    table = Table(CONFIG, find_game("angels-and-demons"), log)
    laid = table.submit(Seen("discard:2", "H7b1", True))
    typed = table.submit(Seen("discard:2", "H7b1", True), typed=True)
    answer = table.submit(Decision(1, "claim", "pass"), typed=True)
    assert laid.rejection is not None and "off Cid's discard row" in laid.rejection.hint
    assert typed.rejection is not None and typed.rejection.reason == laid.rejection.reason
    assert typed.rejection.hint.startswith(TYPED_HINT)
    rest = typed.rejection.hint.removeprefix(TYPED_HINT)
    assert "put" not in rest and " off " not in rest and "back" not in rest
    assert answer.rejection is not None and TYPED_HINT not in answer.rejection.hint
    assert [TYPED in r for r in log.records] == [False, True, True]
    again = Table.replay(CONFIG, find_game("angels-and-demons"), enumerate(log.records, 1))
    assert [e.to_dict("organiser") for e in again.feed] == [
        e.to_dict("organiser") for e in table.feed
    ]


def test_a_typed_input_the_table_turns_away_says_nothing_to_put_back() -> None:
    log = Log()
    table = Table(CONFIG, find_game("angels-and-demons"), log)
    paused = Rejected(
        "TABLE-NOT-RUNNING",
        "the table is paused",
        "the organiser resumes it; then lift that card and put it back",
    )
    result = table.refuse(Seen("talon", "H1b1", True), paused, typed=True)
    assert result.rejection is not None
    assert result.rejection.hint == f"{TYPED_HINT}; the organiser resumes it"
    assert log.records[0]["refused"]["hint"] == result.rejection.hint
    assert table.refuse(Seen("talon", "H1b1", True), paused).rejection == paused
