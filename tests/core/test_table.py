"""The table: maps raw sightings through layout and kit, logs before applying, replays."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.core.inputs import Decision, Seen, Sighting, Undo
from scorekeeper.core.table import (
    RULE_UNKNOWN_READER,
    RULE_UNKNOWN_TAG,
    RULE_WRONG_SEAT,
    Table,
    TableConfig,
)
from scorekeeper.errors import ConfigError
from tests.fakes import FakeGame

CONFIG = TableConfig(
    game="fake",
    seats=("Ann", "Bea"),
    layout={"r1": "hand", "r2": "play"},
    kit={"04A1B2C3": "C1", "04A1B2C4": "C2"},
)


class ListLog:
    """A log sink that records what it was given, and when relative to the state."""

    def __init__(self, table_ref: list[Table]) -> None:
        self.records: list[dict[str, Any]] = []
        self.table_ref = table_ref
        self.play_at_append: list[tuple[str, ...]] = []

    def append(self, record: dict[str, Any]) -> int:
        self.records.append(record)
        if self.table_ref:
            self.play_at_append.append(self.table_ref[0].state.play)
        return len(self.records)


def test_sighting_is_mapped_to_piece_and_zone() -> None:
    table = Table(CONFIG, FakeGame())
    assert table.submit(Sighting("r2", "04A1B2C3", True)).accepted
    assert table.state.play == ("C1",)


def test_a_uid_written_with_separators_or_lower_case_is_found() -> None:
    table = Table(CONFIG, FakeGame())
    assert table.submit(Sighting("r2", "04:a1:b2:c3", True)).accepted
    assert table.state.play == ("C1",)
    refused = table.submit(Sighting("r2", "not-a-uid", True))
    assert not refused.accepted and refused.rejection is not None
    assert refused.rejection.rule == RULE_UNKNOWN_TAG


def test_input_is_logged_before_it_takes_effect() -> None:
    ref: list[Table] = []
    log = ListLog(ref)
    table = Table(CONFIG, FakeGame(), log=log)
    ref.append(table)
    table.submit(Sighting("r2", "04A1B2C3", True))
    assert log.records == [{"type": "sighting", "reader": "r2", "uid": "04A1B2C3", "present": True}]
    assert log.play_at_append == [()]  # the state had not changed yet when it was logged


@pytest.mark.parametrize(
    ("inp", "rule"),
    [
        (Sighting("r2", "DEADBEEF", True), RULE_UNKNOWN_TAG),
        (Sighting("r9", "04A1B2C3", True), RULE_UNKNOWN_READER),
        (Decision(5, "x", "y"), RULE_WRONG_SEAT),
    ],
)
def test_bad_input_is_refused_logged_and_changes_nothing(inp: Any, rule: str) -> None:
    log = ListLog([])
    table = Table(CONFIG, FakeGame(), log=log)
    table.submit(Sighting("r2", "04A1B2C3", True))
    before = table.state
    result = table.submit(inp)
    assert not result.accepted and result.rejection is not None
    assert result.rejection.rule == rule and result.rejection.hint
    assert table.state == before
    assert len(log.records) == 2
    assert table.feed[-1].rejection == result.rejection
    # The table keeps running.
    assert table.submit(Sighting("r2", "04A1B2C4", True)).accepted


def test_replay_of_the_log_gives_the_identical_state_and_feed() -> None:
    log = ListLog([])
    table = Table(CONFIG, FakeGame(), log=log)
    for inp in [
        Sighting("r1", "04A1B2C3", True),
        Sighting("r2", "04A1B2C4", True),
        Sighting("r2", "FFFF", True),
        Undo(),
        Seen("play", "C5", True),
    ]:
        table.submit(inp)
    again = Table.replay(CONFIG, FakeGame(), enumerate(log.records, start=1))
    assert again.state == table.state
    assert [e.to_dict("organiser") for e in again.feed] == [
        e.to_dict("organiser") for e in table.feed
    ]


def test_public_view_does_not_name_hidden_cards_even_in_the_feed() -> None:
    table = Table(CONFIG, FakeGame())
    table.submit(Seen("hand", "C7", True))
    assert "C7" not in repr(table.view("public"))
    assert "C7" not in repr(table.view(1))
    assert "C7" in repr(table.view(0))
    assert "C7" in repr(table.view("organiser"))


def test_undo_and_correct_do_not_name_what_they_took_back_except_to_the_organiser() -> None:
    """An undone input may have been a hidden card or a private answer: the public feed says
    only where, the organiser's feed shows the raw input."""
    from scorekeeper.core.inputs import Correct

    table = Table(CONFIG, FakeGame())
    table.submit(Seen("hand", "C7", True))
    assert table.submit(Undo()).accepted
    for audience in ("public", 0, 1):
        assert "C7" not in repr(table.view(audience)), audience
    assert table.view("public")["feed"][-1]["events"] == ["undone: the piece laid on the hand"]
    assert table.view("organiser")["feed"][-1]["input"] == "undo (was: +hand C7)"
    table.submit(Seen("hand", "C6", True))
    assert table.submit(Correct(Seen("hand", "C5", True))).accepted
    assert "C6" not in repr(table.view("public")["feed"])
    assert "C6" in table.view("organiser")["feed"][-1]["input"]


def test_layout_or_kit_naming_unknown_zones_or_pieces_is_refused() -> None:
    with pytest.raises(ConfigError, match="zones"):
        Table(TableConfig(game="fake", seats=("A",), layout={"r1": "moon"}), FakeGame())
    with pytest.raises(ConfigError, match="pieces"):
        Table(TableConfig(game="fake", seats=("A",), kit={"01": "Z9"}), FakeGame())


def test_the_feed_keeps_the_plays_that_say_something() -> None:
    """Lifting pieces (accepted, no events) does not push real plays out of the public feed;
    the organiser's feed has every input."""
    from scorekeeper.core.outcomes import Accepted, Outcome
    from scorekeeper.core.table import FEED_LENGTH
    from tests.fakes import FakeState

    class QuietLifts(FakeGame):
        def observe(self, state: FakeState, seen: Seen) -> Outcome:
            if not seen.present:
                return Accepted(state)  # a lift changes nothing and says nothing
            return super().observe(state, seen)

    table = Table(CONFIG, QuietLifts())
    table.submit(Seen("play", "C1", True))
    for _ in range(FEED_LENGTH + 5):
        table.submit(Seen("elsewhere", "C9", False))
    public = table.view("public")["feed"]
    assert [e["seq"] for e in public][:1] == [1] and all(
        e["events"] or not e["accepted"] for e in public
    )
    organiser = table.view("organiser")["feed"]
    assert len(organiser) == FEED_LENGTH and organiser[-1]["seq"] == FEED_LENGTH + 6
