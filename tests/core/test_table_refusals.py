"""Table-level refusals (docs/design.md, invariant 4): logged as refused, shown, never applied."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.core.inputs import Decision, InputSyntaxError, Seen, Sighting
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.table import (
    REFUSED,
    RULE_NOT_RUNNING,
    FeedEntry,
    Table,
    TableConfig,
    refusal_from_record,
)
from tests.fakes import FakeGame

CONFIG = TableConfig(
    game="fake",
    seats=("Ann", "Bea"),
    layout={"r1": "hand", "r2": "play"},
    kit={"04AA0001": "C1", "04AA0002": "C2"},
    name="refusals",
)
PAUSED = Rejected(
    RULE_NOT_RUNNING,
    "the table is paused",
    "the organiser resumes it; then lift that card and put it back",
)


class MemoryLog:
    """A LogSink keeping its records in a list (seq = position + 1)."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def append(self, record: dict[str, Any]) -> int:
        self.records.append(record)
        return len(self.records)

    def pairs(self) -> list[tuple[int, dict[str, Any]]]:
        return list(enumerate(self.records, start=1))


def test_refuse_logs_the_input_with_its_refusal_and_does_not_apply_it() -> None:
    sink = MemoryLog()
    table = Table(CONFIG, FakeGame(), log=sink)
    heard: list[FeedEntry] = []
    table.listeners.append(lambda _t, entry: heard.append(entry))
    table.submit(Seen("play", "C1", True))
    before = table.state

    result = table.refuse(Sighting("r2", "04AA0002", True), PAUSED)

    assert not result.accepted and result.rejection == PAUSED and result.events == ()
    assert sink.records[-1] == {
        "type": "sighting",
        "reader": "r2",
        "uid": "04AA0002",
        "present": True,
        REFUSED: PAUSED.to_dict(),
    }
    assert table.state == before  # not applied: C2 is not in play
    assert table.inputs_seen == 2 and table.referee.accepted_count == 1
    last = table.feed[-1]
    assert (last.seq, last.accepted, last.rejection) == (2, False, PAUSED)
    assert heard == list(table.feed)
    public = last.to_dict("public")
    assert public["rejection"]["rule"] == RULE_NOT_RUNNING
    assert "lift that card and put it back" in public["rejection"]["hint"]
    assert "input" not in public  # the raw input (a hidden card's tag) stays with the organiser


def test_replay_rebuilds_the_same_feed_and_state_and_never_applies_a_refusal() -> None:
    sink = MemoryLog()
    live = Table(CONFIG, FakeGame(), log=sink)
    live.submit(Seen("play", "C1", True))
    live.refuse(Seen("play", "C2", True), PAUSED)  # would be accepted if it were applied
    live.refuse(Decision(0, "anything", "yes"), PAUSED)
    live.submit(Sighting("r1", "04AA0002", True))

    heard: list[FeedEntry] = []
    again = Table.replay(
        CONFIG, FakeGame(), sink.pairs(), listeners=[lambda _t, entry: heard.append(entry)]
    )

    assert list(again.feed) == list(live.feed) == heard
    assert again.state == live.state and again.state.play == ("C1",)
    assert again.inputs_seen == live.inputs_seen == 4
    assert again.referee.accepted_count == live.referee.accepted_count == 2
    for audience in ("public", "organiser", 0):
        assert again.view(audience) == live.view(audience)


def test_a_damaged_refusal_is_an_input_syntax_error() -> None:
    assert refusal_from_record({"type": "undo"}) is None
    assert refusal_from_record({"type": "undo", REFUSED: PAUSED.to_dict()}) == PAUSED
    for bad in ("paused", {"reason": "no rule"}, ["TABLE-NOT-RUNNING"]):
        with pytest.raises(InputSyntaxError):
            refusal_from_record({"type": "undo", REFUSED: bad})
        with pytest.raises(InputSyntaxError):
            Table.replay(CONFIG, FakeGame(), [(1, {"type": "undo", REFUSED: bad})])
