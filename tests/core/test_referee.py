"""The referee loop: accepted and rejected inputs, undo and correction, over the fake game."""

from __future__ import annotations

from scorekeeper.core.inputs import Correct, Decision, Seen, Undo
from scorekeeper.core.referee import RULE_GAME_OVER, RULE_UNDO_EMPTY, SNAPSHOT_EVERY, Referee
from tests.fakes import PIECES, FakeGame


def play(piece: str) -> Seen:
    return Seen("play", piece, True)


def test_accepted_input_changes_state_and_reports_events() -> None:
    ref = Referee(FakeGame(), {}, 2)
    result = ref.apply(play("C1"))
    assert result.accepted and result.events == ("C1 played",)
    assert ref.state.play == ("C1",)
    assert ref.accepted_count == 1


def test_rejected_input_leaves_state_and_history_alone() -> None:
    ref = Referee(FakeGame(), {}, 2)
    ref.apply(play("C1"))
    before = ref.state
    result = ref.apply(Decision(0, "anything", "yes"))
    assert not result.accepted and result.rejection is not None
    assert result.rejection.rule == "FAKE-NO-PROMPT"
    assert ref.state is before and ref.accepted_count == 1


def test_undo_restores_the_previous_state_even_past_snapshots() -> None:
    ref = Referee(FakeGame(), {}, 1)
    states = [ref.state]
    # Alternate hand and play so the game does not end, past several snapshot boundaries.
    for i in range(SNAPSHOT_EVERY * 2 + 5):
        piece = PIECES[i % 8]
        ref.apply(Seen("hand" if i % 2 else "play", piece, True))
        states.append(ref.state)
    for expected in reversed(states[:-1]):
        assert ref.apply(Undo()).accepted
        assert ref.state == expected
    result = ref.apply(Undo())
    assert not result.accepted and result.rejection is not None
    assert result.rejection.rule == RULE_UNDO_EMPTY


def test_correct_replaces_the_last_input_atomically() -> None:
    ref = Referee(FakeGame(), {}, 2)
    ref.apply(play("C1"))
    ref.apply(play("C2"))
    result = ref.apply(Correct(play("C3")))
    assert result.accepted
    assert ref.state.play == ("C1", "C3")
    # A correction whose replacement is refused changes nothing.
    before = ref.state
    refused = ref.apply(Correct(Decision(0, "anything", "yes")))
    assert not refused.accepted and ref.state == before and ref.accepted_count == 2


def test_nothing_is_accepted_after_the_end_until_undo() -> None:
    ref = Referee(FakeGame(), {}, 1)
    for piece in PIECES:
        ref.apply(play(piece))
    assert ref.game.is_over(ref.state)
    result = ref.apply(Seen("hand", "C1", True))
    assert not result.accepted and result.rejection is not None
    assert result.rejection.rule == RULE_GAME_OVER
    assert ref.apply(Undo()).accepted and not ref.game.is_over(ref.state)


def test_restart_from_a_position_undoes_back_to_it_and_no_further() -> None:
    ref = Referee(FakeGame(), {}, 2)
    ref.apply(play("C1"))
    position = ref.state
    ref.restart_from(position)
    assert ref.accepted_count == 0
    ref.apply(play("C2"))
    assert ref.apply(Undo()).accepted and ref.state == position
    result = ref.apply(Undo())
    assert not result.accepted and result.rejection is not None
    assert result.rejection.rule == RULE_UNDO_EMPTY and ref.state == position
