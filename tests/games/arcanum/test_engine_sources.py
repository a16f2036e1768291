"""VP by source (``State.vp_sources``, the views' ``seats[i].vp_sources``): every VP change is
credited to the fame phase family, World phase family, location effect or major that caused it,
the Devil's doubling included, the 0 floor applied; a seat's sources always add up to its VP."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.core.inputs import Undo
from scorekeeper.core.referee import Referee
from scorekeeper.games import find_game
from scorekeeper.games.arcanum.state import State
from scorekeeper.sim import find_world
from tests.games.arcanum.test_engine_fame import example, hide_cards
from tests.games.arcanum.test_engine_helpers import (
    GAME,
    play,
    public,
    set_state,
    st,
    start,
)

SOURCE = re.compile(
    r"^(fame|world):(swords|coins|wands|cups)$|^location:[a-z_]+$|^major:major_\d\d$"
)


def sources(ref: Referee, seat: int) -> dict[str, int]:
    view: dict[str, int] = public(ref)["seats"][seat]["vp_sources"]
    return view


def check(state: State) -> None:
    """The invariant: every view shows each seat's sources, and they add up to its VP."""
    views = [GAME.view(state, "public"), GAME.view(state, "organiser")]
    views += [GAME.view(state, s) for s in range(state.n)]
    for view in views:
        for s, entry in enumerate(view["seats"]):
            got = entry["vp_sources"]
            assert sum(got.values()) == state.vp[s] == entry["vp"], (s, got, state.vp)
            assert all(SOURCE.match(k) for k in got), got
            assert 0 not in got.values(), got


# --- one source at a time ---------------------------------------------------------------------


def test_a_new_game_has_no_sources() -> None:
    ref = start(4)
    assert all(sources(ref, s) == {} for s in range(4))
    check(st(ref))


@pytest.mark.parametrize(
    ("line", "loc", "effect", "vp"),
    [
        ("+play wands_1", "+loc:1 pawn_wands_page", "wizard_tower", 1),
        ("+play coins_5", "+loc:5 pawn_coins_page", "market", 2),
        ("+play wands_6", "+loc:6 pawn_wands_page", "fields", 1),
        ("+play swords_8", "+loc:8 pawn_swords_page", "cathedral", 1),
    ],
)
def test_locations_credit_their_effect(line: str, loc: str, effect: str, vp: int) -> None:
    ref = start(4)
    play(ref, line, loc)
    assert sources(ref, 0) == {f"location:{effect}": vp}
    check(st(ref))


def test_majors_credit_the_card_and_the_devil_doubles_in_the_same_source() -> None:
    ref = start(4)
    play(ref, "+play major_02")
    assert sources(ref, 0) == {"major:major_02": 3}
    ref = start(4)
    set_state(ref, devil=0)
    play(ref, "+play major_02")
    assert st(ref).vp[0] == 6 and sources(ref, 0) == {"major:major_02": 6}
    check(st(ref))


def test_a_source_accumulates_and_sources_stay_sorted() -> None:
    ref = start(4)
    mine = (("major:major_02", 3), ("major:major_17", 2))
    set_state(ref, vp=(5, 0, 0, 0), vp_sources=(mine, (), (), ()))
    play(ref, "+play coins_5", "+loc:5 pawn_coins_page", "decide 0 market none")
    play(ref, "+play major_02")
    assert st(ref).vp_sources[0] == (
        ("location:market", 2),
        ("major:major_02", 6),
        ("major:major_17", 2),
    )
    check(st(ref))


def test_hanged_man_is_negative_and_the_floor_is_what_is_credited() -> None:
    ref = start(4)
    set_state(ref, vp=(3, 0, 0, 0), vp_sources=((("location:market", 3),), (), (), ()))
    play(ref, "+play major_12")
    assert sources(ref, 0) == {"location:market": 3, "major:major_12": -2}
    check(st(ref))
    # at 1 VP, -2 stops at 0: only -1 was lost
    ref = start(4)
    set_state(ref, vp=(1, 0, 0, 0), vp_sources=((("location:fields", 1),), (), (), ()))
    play(ref, "+play major_12")
    assert st(ref).vp[0] == 0
    assert sources(ref, 0) == {"location:fields": 1, "major:major_12": -1}
    check(st(ref))
    # at 0 VP nothing is lost and nothing is credited
    ref = start(4)
    play(ref, "+play major_12")
    assert sources(ref, 0) == {}
    # doubled by the Devil: -4 from 5
    ref = start(4)
    set_state(ref, vp=(5, 0, 0, 0), vp_sources=((("location:market", 5),), (), (), ()), devil=0)
    play(ref, "+play major_12")
    assert sources(ref, 0) == {"location:market": 5, "major:major_12": -4}
    check(st(ref))


def test_lovers_credit_every_seat_that_gains() -> None:
    ref = start(4)
    base = ((("major:major_02", 5),), (("major:major_02", 2),), (("major:major_02", 5),), ())
    set_state(ref, vp=(5, 2, 5, 0), vp_sources=base)
    play(ref, "+play major_06")
    assert st(ref).vp == (7, 4, 5, 2)
    assert sources(ref, 0) == {"major:major_02": 5, "major:major_06": 2}
    assert sources(ref, 1) == {"major:major_02": 2, "major:major_06": 2}
    assert sources(ref, 3) == {"major:major_06": 2}
    check(st(ref))


def test_regular_fame_phase_credits_each_family() -> None:
    ref = example()
    for _ in range(4):
        play(ref, "decide organiser fame reveal")
    assert st(ref).vp == (25, 25, 24)
    assert sources(ref, 0) == {"fame:swords": 8, "fame:coins": 3, "fame:wands": 6, "fame:cups": 8}
    assert sources(ref, 1) == {"fame:swords": 16, "fame:coins": 6, "fame:wands": 3}
    assert sources(ref, 2) == {"fame:coins": 12, "fame:wands": 12}
    check(st(ref))


def test_world_phase_is_its_own_source_doubled_by_the_devil() -> None:
    ref = start(3)
    set_state(ref, rep=(9, 0, 0, 0), devil=1)
    hide_cards(ref, {1: ("swords_3",)})
    play(ref, "+play major_21", "decide 0 hide pass", "decide 0 fame reveal")
    assert st(ref).vp[1] == 16 and sources(ref, 1) == {"world:swords": 16}
    check(st(ref))


def test_undo_takes_the_source_back() -> None:
    ref = start(4)
    before = st(ref)
    play(ref, "+play major_02")
    assert ref.apply(Undo()).accepted
    assert st(ref) == before and sources(ref, 0) == {}


# --- the property over whole simulated games ----------------------------------------------------

GAMES = [(seed, 3 + seed % 3) for seed in range(9)]


@pytest.mark.parametrize(("seed", "seats"), GAMES)
def test_sources_add_up_to_vp_after_every_input(seed: int, seats: int) -> None:
    options: dict[str, Any] = {}
    world = find_world("arcanum")(seats, options, seed)
    ref = Referee(find_game("arcanum"), options, seats)
    inputs = list(world.inputs())
    seen: set[str] = set()
    for k, inp in enumerate(inputs):
        result = ref.apply(inp)
        assert result.accepted, (k, inp, result.rejection)
        state = st(ref)
        check(state)
        seen.update(key for seat in state.vp_sources for key, _ in seat)
        if k % 97 == 96:  # undo and replay the input: an equal state, sources included
            assert ref.apply(Undo()).accepted
            assert ref.apply(inp).accepted
            assert st(ref) == state
    assert st(ref).over and st(ref).vp == world.scores()
    replay = Referee(find_game("arcanum"), options, seats)
    for inp in inputs:
        replay.apply(inp)
    assert replay.state == ref.state
    assert any(k.startswith("fame:") for k in seen)
    assert any(k.startswith("location:") for k in seen)
