"""Points by source (``seats[i].points_by_source``): go-out base, red-card bonuses, items, flips
and (negative) discarder penalties, summed over the finished rounds; they add up to the score."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.core.game import ORGANISER, PUBLIC
from scorekeeper.core.inputs import Decision, Seen, Undo
from scorekeeper.core.referee import Referee
from scorekeeper.games import find_game
from scorekeeper.games.angels_demons.state import RoundResult, State
from scorekeeper.games.angels_demons.views import SOURCES
from scorekeeper.sim import find_world
from tests.games.angels_demons.helpers import GAME, new_ref, state


def check(st: State) -> None:
    """Every audience sees each seat's sources, and they add up to its score."""
    for audience in (PUBLIC, ORGANISER, *range(st.n)):
        for s, entry in enumerate(GAME.view(st, audience)["seats"]):
            got = entry["points_by_source"]
            assert tuple(got) == SOURCES
            assert sum(got.values()) == entry["score"] == st.scores[s], (s, got)
            assert got["penalty"] <= 0 and all(got[k] >= 0 for k in SOURCES[:-1])


def test_a_new_game_scores_nothing_from_anywhere() -> None:
    ref = new_ref(3)
    for entry in GAME.view(ref.state, PUBLIC)["seats"]:
        assert entry["points_by_source"] == dict.fromkeys(SOURCES, 0)


def test_rounds_are_summed_and_the_penalty_is_negative() -> None:
    ref = new_ref(3, mode="advanced")
    history = (
        # round 1: seat 1 goes out by itself: base 1 + red cards 4 = 5
        RoundResult(1, "out", seat=1, via="self", base=1, reds=(("H1r", 2), ("A2r", 2))),
        RoundResult(2, "exhausted"),
        # round 3: seat 0 goes out on seat 1's discard: 1 + 2 + 1 + 3 = 7; seat 1 loses its 5
        RoundResult(
            3,
            "out",
            seat=0,
            via="claim",
            discarder=1,
            base=1,
            reds=(("H3r", 2),),
            items=1,
            flips=(("H5b1", 2), ("A4b1", 1)),
            penalty=5,
        ),
    )
    st = replace(state(ref), history=history, scores=(7, 0, 0), round=4)
    seats = GAME.view(st, PUBLIC)["seats"]
    assert seats[0]["points_by_source"] == {
        "base": 1,
        "reds": 2,
        "items": 1,
        "flips": 3,
        "penalty": 0,
    }
    assert seats[1]["points_by_source"] == {
        "base": 1,
        "reds": 4,
        "items": 0,
        "flips": 0,
        "penalty": -5,
    }
    assert seats[2]["points_by_source"] == dict.fromkeys(SOURCES, 0)
    check(st)


def test_an_item_win_scores_no_points() -> None:
    ref = new_ref(3, mode="advanced")
    st = replace(state(ref), history=(RoundResult(1, "item_win", seat=2),))
    check(st)
    assert GAME.view(st, PUBLIC)["seats"][2]["points_by_source"] == dict.fromkeys(SOURCES, 0)


@pytest.mark.parametrize("seed", range(8))
def test_sources_add_up_to_the_score_after_every_input(seed: int) -> None:
    seats = 2 + seed % 3
    options = {"mode": "advanced" if seed % 2 else "basic"}
    world = find_world("angels-and-demons")(seats, options, seed)
    ref = Referee(find_game("angels-and-demons"), options, seats)
    inputs: list[Seen | Decision] = list(world.inputs())
    for k, inp in enumerate(inputs):
        assert ref.apply(inp).accepted, (k, inp)
        st = ref.state
        assert isinstance(st, State)
        if st.phase in ("round_over", "over") or k % 25 == 0:
            check(st)
    assert ref.state.over and ref.state.scores == world.scores()
    assert ref.apply(Undo()).accepted
    check(ref.state)
