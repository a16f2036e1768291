"""Arcana's points: the final score by source (R-END-2, R-OPT-T-2, R-OPT-C-4, G-8, G-23,
G-26, G-27), the winners (R-END-3, R-END-4, T-17), and the points shown during play (G-36)."""

from __future__ import annotations

from typing import Any

from scorekeeper.games.arcana import scoring
from scorekeeper.games.arcana.scoring import SOURCE_KEYS, SeatScore
from scorekeeper.games.arcana.state import OVER, Options, Placed, State, evolve
from tests.games.arcana.test_sums import at, table

# Seat 0 (Ferrymen) owns: the Merchant (0 VP), Funeral (1), the Drummer (2), the Quay (1), the
# Rusty key (1); the Sword (2, Ogrokh), the Wand of Ash (1, Ogrokh), Ayane (2, Old Town) and the
# Gardens (1, all domains) under its badge. Ayane, the Drummer face down and the Rusty key on
# it are left at district a, beside seat 1's watch card.
OWNED_0 = frozenset(
    {
        "ferrymen_01",
        "ferrymen_02",
        "ferrymen_05",
        "ferrymen_15",
        "ferrymen_19",
        "stake_001",
        "stake_004",
        "stake_002",
        "stake_008",
    }
)
LEFT = (
    at("stake_002", 0),
    Placed("ferrymen_05", 0, False, relics=("ferrymen_19",)),
    at("constable_1", 1, watch=True),
)


def ended(**options: Any) -> State:
    """The end of a game with the cards above; seat 1 owns the Pale One and the Dagger."""
    state = table(
        agents={"a": LEFT},
        options=Options(**options),
        seats={
            0: {
                "owned": OWNED_0,
                "set_aside": ("stake_008",),
                "discard": ("ferrymen_02", "stake_001"),
                "objectives": ("objective_01", "objective_02"),
            },
            1: {"owned": frozenset({"usurers_01", "stake_006"})},
        },
    )
    return evolve(state, phase=OVER)


def test_final_score_by_source_cards_left_at_districts_ignored() -> None:
    first, second = scoring.final(ended())
    assert first.vp_sources == {
        "guild_cards": 0 + 1 + 1,
        "stakes": 2 + 1,
        "set_aside": 1,
        "objectives": 4,  # 3 Ogrokh: the Sword, the Wand of Ash and the all-domain Gardens
        "leftovers": 0,
    }
    assert first.vp == 10 and first.stakes == 3
    assert first.objectives == ("objective_01",)
    assert second == SeatScore(1, 1, 1, dict.fromkeys(SOURCE_KEYS, 0) | {"stakes": 1})
    for score in (first, second):
        assert tuple(score.vp_sources) == SOURCE_KEYS
        assert sum(score.vp_sources.values()) == score.vp


def test_leftovers_returned_score_and_count_as_stakes_g8() -> None:
    first, _ = scoring.final(ended(leftovers="returned"))
    # the Drummer 2, the Rusty key 1 and Ayane 2 come home; the watch card is nobody's
    assert first.vp_sources["leftovers"] == 5
    assert first.stakes == 4
    # Ayane is an Old Town stake now, but the Gardens cannot serve both objectives
    assert first.objectives == ("objective_01",)
    assert first.vp == 15


def test_t17_most_vp_then_most_stakes_then_shared() -> None:
    def score(seat: int, vp: int, stakes: int) -> SeatScore:
        return SeatScore(seat, vp, stakes, dict.fromkeys(SOURCE_KEYS, 0) | {"stakes": vp})

    assert scoring.winners((score(0, 30, 8), score(1, 30, 7), score(2, 12, 9))) == (0,)
    assert scoring.winners((score(0, 30, 8), score(1, 30, 8), score(2, 31, 1))) == (2,)
    assert scoring.winners((score(0, 30, 8), score(1, 30, 8), score(2, 29, 9))) == (0, 1)
    assert scoring.winners(scoring.final(ended())) == (0,)
    assert scoring.winners(()) == ()


def test_public_vp_counts_only_what_everyone_saw_g36() -> None:
    state = ended()
    # won stakes 2 + 1 + 2 + 1, and the Ferrymen's letter-A cards of the pack (Funeral 1,
    # the Quay 1)
    assert scoring.public_vp(state, 0) == 6 + 2
    assert scoring.stakes_owned(state, 0) == 4
    # the exact figure: every card owned wherever it lies, and the objectives it meets
    assert scoring.vp_now(state, 0) == 11 + 4
    custom = evolve(state, options=Options(custom_guild=True))
    # seen: Funeral on the discard pile and the Rusty key laid at district a; not the Drummer
    assert scoring.seen_guild_cards(custom, 0) == {"ferrymen_02", "ferrymen_19"}
    assert scoring.public_vp(custom, 0) == 6 + 1 + 1


def test_public_vp_does_not_depend_on_a_face_down_card() -> None:
    custom = evolve(ended(), options=Options(custom_guild=True))
    # another face-down agent in the Drummer's place: a different exact VP, the same public VP
    swapped_seat = custom.seats[0]
    owned = (swapped_seat.owned - {"ferrymen_05"}) | {"ferrymen_06"}
    cards = (LEFT[0], Placed("ferrymen_06", 0, False, relics=("ferrymen_19",)), LEFT[2])
    other = table(
        agents={"a": cards},
        options=Options(custom_guild=True),
        seats={
            0: {
                "owned": owned,
                "set_aside": swapped_seat.set_aside,
                "discard": swapped_seat.discard,
                "objectives": swapped_seat.objectives,
            },
            1: {"owned": custom.seats[1].owned},
        },
    )
    assert scoring.vp_now(other, 0) != scoring.vp_now(custom, 0)
    assert scoring.public_vp(other, 0) == scoring.public_vp(custom, 0)
    assert [scoring.public_vp(other, s) for s in (0, 1)] == [
        scoring.public_vp(custom, s) for s in (0, 1)
    ]
