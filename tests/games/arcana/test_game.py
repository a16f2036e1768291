"""The Arcana game object: its options (the contract's table, labels and choices), the pack
resolved to a whole mapping, its zones' words, and a whole round at 2 seats played only through
``Arcana().observe`` and ``decide``: setup, the intrigue, the results and the next round's draw.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana import scoring
from scorekeeper.games.arcana.game import Arcana, options_of
from scorekeeper.games.arcana.state import INTRIGUE, RESULTS, SETUP, State

GAME = Arcana()
LABELS = {
    "pack": "Card pack",
    "start_seat": "First player",
    "custom_guild": "Custom guild",
    "objectives": "Objectives",
    "watch": "The watch",
    "watch_call": "Calling the watch",
    "guild_masters": "Guild masters",
    "master_limit": "Guild master uses",
    "events": "Events",
    "set_aside": "Tactical set-aside",
    "late_princes_games": "The Prince's Games mid-round",
    "leftovers": "Cards left at the districts",
    "tie_breakers": "Which tie-breakers count",
    "harlequin_in_bribes": "The Harlequin in bribes",
}


@cache
def sample_options(seats: int = 2) -> dict[str, Any]:
    return GAME.resolve_options({"pack": "sample"}, seats)


def test_the_options_are_the_contracts_with_labels_and_words() -> None:
    shown = {o.name: o.to_dict() for o in GAME.options}
    assert {k: v["label"] for k, v in shown.items()} == LABELS
    assert shown["pack"]["ask"] is True
    for name, option in shown.items():
        assert option["help"], name
        for choice in option["choices"] or ():
            assert choice["label"] and choice["help"] and choice["label"] != str(choice["value"])
    assert [c["value"] for c in shown["master_limit"]["choices"]] == [
        "by_card",
        "once_per_round",
        "unlimited",
    ]


def test_resolve_options_asks_for_a_pack_and_keeps_it_whole() -> None:
    # The pack is asked of whoever creates a real table (Option.ask); only scripts, tests and
    # demos fall back on the sample.
    (pack_option,) = [o for o in GAME.options if o.name == "pack"]
    assert pack_option.ask and pack_option.default == "sample"
    assert GAME.resolve_options({}, 2)["pack"]["sample"] is True
    with pytest.raises(ConfigError, match=r"choose a card pack.*sample \(made up, for demos\)"):
        GAME.resolve_options({"pack": ""}, 2)
    with pytest.raises(ConfigError, match="start_seat"):
        GAME.resolve_options({"pack": "sample", "start_seat": 3}, 3)
    with pytest.raises(ConfigError):
        GAME.resolve_options({"pack": "sample"}, 5)
    out = sample_options()
    assert out["pack"]["name"] == "sample" and len(out["pack"]["cards"]) == 304
    assert out["events"] is False and out["late_princes_games"] == "next_round"
    # The whole mapping resolves again to the same (a table's options are self-contained).
    assert GAME.resolve_options(dict(out), 2)["pack"] == out["pack"]
    opts = options_of({**out, "watch": True, "start_seat": 1}, 2)
    assert opts.watch and opts.start_seat == 1 and dict(opts.raw)["pack"] == "sample"


def test_pieces_zones_and_words() -> None:
    assert len(GAME.pieces()) == 304
    assert GAME.describe_piece_for("ferrymen_03", sample_options()) == "Crossbowman"
    assert GAME.describe_piece("stake_017") == "stake 17"
    assert GAME.zone_named("stake_a", ["Ann", "Bea"]) == "district A's stake"
    assert GAME.zone_named("discard:1", ["Ann", "Bea"]) == "Bea's discard pad"
    assert GAME.default_layout(4)["agents-d"] == "agents_d"
    assert GAME.zones(3)[-1] == "event"


def seen(state: State, zone: str, piece: str) -> Accepted[State]:
    got = GAME.observe(state, Seen(zone, piece, True))
    assert isinstance(got, Accepted), (zone, piece, got)
    return got


def answer(state: State, prompt: str, value: str, seat: int | None = None) -> Accepted[State]:
    got = GAME.decide(state, Decision(seat, prompt, value))
    assert isinstance(got, Accepted), (prompt, value, got)
    return got


SETUP_INPUTS = (
    ("badge:0", "badge_ferrymen"),
    ("badge:1", "badge_usurers"),
    ("stake_a", "stake_001"),
    ("stake_b", "stake_002"),
    ("stake_c", "stake_004"),
    ("stake_d", "stake_005"),
    ("stake_n", "stake_006"),
)
# Seat 0 (Ferrymen) and seat 1 (Usurers) alternate: district A is seat 0's (face down there).
INTRIGUE_INPUTS = (
    ("agents_a", "ferrymen_02"),
    ("agents_a", "usurers_01"),
    ("agents_a", "ferrymen_03"),
    ("discard:1", "usurers_04"),
    ("discard:0", "ferrymen_04"),
    ("discard:1", "usurers_05"),
    ("discard:0", "ferrymen_06"),
    ("discard:1", "usurers_06"),
)


def test_a_whole_round_at_two_seats_through_observe_and_decide() -> None:
    state = GAME.new_game(sample_options(), 2)
    assert state.phase == SETUP and GAME.pending(state) == ()
    for zone, piece in SETUP_INPUTS:
        state = seen(state, zone, piece).state
    assert state.phase == INTRIGUE and state.round == 1 and state.active_seat == 0
    assert [(s.hand, s.deck) for s in state.seats] == [(4, 7), (4, 7)]

    # Out of turn, and a departure, and a card read again.
    refused = GAME.observe(state, Seen("agents_c", "usurers_02", True))
    assert isinstance(refused, Rejected) and refused.rule == "R-INT-1"
    assert GAME.observe(state, Seen("stake_a", "stake_001", False)) == Accepted(state)
    assert GAME.observe(state, Seen("stake_a", "stake_001", True)) == Accepted(state)

    feed: list[str] = []
    for zone, piece in INTRIGUE_INPUTS:
        got = seen(state, zone, piece)
        state = got.state
        feed += got.events
    assert not any("Funeral" in line or "Crossbowman" in line for line in feed)
    assert state.phase == RESULTS and [s.hand for s in state.seats] == [0, 0]
    (prompt,) = GAME.pending(state)
    assert (prompt.id, prompt.seat) == ("next_district", 0)

    got = answer(state, "next_district", "a", 0)
    assert any("wins with 5 against 3" in line for line in got.events)
    state = got.state
    assert "stake_001" in state.seats[0].discard and state.district("a").awaiting
    for did in ("b", "c", "d", "n"):
        state = answer(state, "next_district", did).state  # the organiser answers
    # Every district settled: the round is over, district A awaits its next stake.
    assert state.phase == RESULTS and state.first_seat == 1 and GAME.pending(state) == ()
    assert "district A" in GAME.waiting_for(state)
    wrong = GAME.decide(state, Decision(0, "next_district", "b"))
    assert isinstance(wrong, Rejected) and wrong.rule == "TABLE-NO-PROMPT"

    got = seen(state, "stake_a", "stake_007")
    state = got.state
    assert state.phase == INTRIGUE and state.round == 2 and state.active_seat == 1
    assert [(s.hand, s.deck) for s in state.seats] == [(4, 3), (4, 3)]
    assert len(state.seats[0].discard) == 5 and state.district("a").pile == 10
    assert GAME.scores(state)[0] > GAME.scores(GAME.new_game(sample_options(), 2))[0]
    assert not GAME.is_over(state)
    # The views answer for every audience.
    for audience in ("public", "organiser", 0, 1):
        assert GAME.view(state, audience)["round"] == 2


def test_replay_gives_the_identical_state() -> None:
    def play() -> State:
        state = GAME.new_game(sample_options(), 2)
        for zone, piece in SETUP_INPUTS + INTRIGUE_INPUTS:
            state = seen(state, zone, piece).state
        return state

    assert play() == play()


def test_answers_from_the_wrong_seat_and_unasked_are_refused() -> None:
    state = GAME.new_game(sample_options(), 2)
    for zone, piece in SETUP_INPUTS + INTRIGUE_INPUTS:
        state = seen(state, zone, piece).state
    wrong = GAME.decide(state, Decision(1, "next_district", "a"))
    assert isinstance(wrong, Rejected) and wrong.rule == "TABLE-WRONG-SEAT"
    unasked = GAME.decide(state, Decision(0, "declare", "sword"))
    assert isinstance(unasked, Rejected) and unasked.rule == "TABLE-NO-PROMPT"


def test_events_are_turned_up_during_the_intrigue() -> None:
    options = GAME.resolve_options({"pack": "sample", "events": True}, 2)
    state = GAME.new_game(options, 2)
    for zone, piece in (*SETUP_INPUTS, ("event", "event_01")):
        state = seen(state, zone, piece).state
    assert state.phase == INTRIGUE and state.events is not None
    assert (state.events.now, state.events.next) == ("event_01", "")
    assert state.district("n").pile == 11  # no Prince's Games card under it (R-OPT-F-1)
    state = seen(state, "event", "event_02").state
    assert state.events is not None and state.events.next == "event_02"
    again = GAME.observe(state, Seen("event", "event_03", True))
    assert isinstance(again, Rejected) and again.rule == "R-OPT-F-1"


def test_the_princes_games_card_from_the_event_deck_ends_the_game_after_this_round() -> None:
    options = GAME.resolve_options({"pack": "sample", "events": True}, 2)
    state = GAME.new_game(options, 2)
    for zone, piece in (*SETUP_INPUTS, ("event", "event_01"), ("agents_a", "ferrymen_02")):
        state = seen(state, zone, piece).state
    # As if 9 events had come up already: the Prince's Games card may be the 10th (R-OPT-F-1).
    assert state.events is not None
    state = replace(state, events=replace(state.events, left=4))
    got = seen(state, "event", "princes_games")
    state = got.state
    assert state.final_round and "this round is the last" in got.events[0]
    for zone, piece in INTRIGUE_INPUTS[1:]:
        state = seen(state, zone, piece).state
    while GAME.pending(state):
        (prompt,) = GAME.pending(state)
        state = answer(state, prompt.id, prompt.options[0]).state
    assert GAME.is_over(state) and state.winners == (0,)
    assert GAME.scores(state) == tuple(s.vp for s in scoring.final(state))
    refused = GAME.observe(state, Seen("agents_b", "ferrymen_05", True))
    assert isinstance(refused, Rejected) and refused.rule == "TABLE-GAME-OVER"
    # The table is swept, and the won stake laid on its winner's pile: nothing to refuse.
    assert GAME.observe(state, Seen("agents_a", "ferrymen_02", False)) == Accepted(state)
    assert GAME.observe(state, Seen("discard:0", "stake_001", True)) == Accepted(state)


def test_a_state_under_way_comes_back_equal_from_its_record() -> None:
    state = GAME.new_game(sample_options(), 2)
    for zone, piece in SETUP_INPUTS + INTRIGUE_INPUTS:
        state = seen(state, zone, piece).state
    state = answer(state, "next_district", "a").state
    record = json.loads(json.dumps(GAME.snapshot(state)))
    assert GAME.restore(record) == state


def test_only_the_organiser_confirms_an_ability_done_by_hand() -> None:
    options = GAME.resolve_options({"pack": "sample", "guild_masters": True}, 2)
    state = GAME.new_game(options, 2)
    arrivals = (
        ("badge:0", "badge_fortune_tellers"),
        ("badge:0", "master_fortune_tellers_2"),
        ("badge:1", "badge_usurers"),
        ("badge:1", "master_usurers_1"),
        *SETUP_INPUTS[2:],
    )
    for zone, piece in arrivals:
        state = seen(state, zone, piece).state
    state = answer(state, "master", "use", 0).state
    state = answer(state, "manual", "done", 0).state
    (prompt,) = GAME.pending(state)
    assert prompt.id == "confirm"
    refused = GAME.decide(state, Decision(0, "confirm", "yes"))
    assert isinstance(refused, Rejected) and refused.rule == "TABLE-WRONG-SEAT"
    state = answer(state, "confirm", "yes").state
    assert state.phase == INTRIGUE and not state.steps and state.active_seat == 0
