"""The fame phase (R-FAME, T6-T16), the Fool's assignment, the Devil in the fame phase (G-12),
the revealed cards carried to the piles afterwards (R-FAME-10) and the end of the game
(R-END)."""

from __future__ import annotations

from scorekeeper.core.inputs import Undo
from scorekeeper.games.arcanum.state import CARD_INDEX, FAME, MINOR_PILE, UNSEEN
from tests.games.arcanum.test_engine_helpers import (
    GAME,
    end_round,
    options_of,
    play,
    prompt_ids,
    public,
    refuse,
    set_state,
    st,
    start,
)

# T7-T11: Anita (seat 0), Jenő (seat 1), Márk (seat 2).
EXAMPLE = {
    0: ("swords_5", "coins_10", "wands_8", "cups_2", "cups_4"),
    1: ("swords_3", "swords_9", "coins_queen", "wands_7"),
    2: ("coins_2", "coins_4", "wands_king"),
}


def hide_cards(ref, hidden: dict[int, tuple[str, ...]]) -> None:  # type: ignore[no-untyped-def]
    """Every seat's hidden cards are exactly ``hidden`` (the round-1 hides go back unseen)."""
    where = [UNSEEN if w.startswith("hide:") else w for w in st(ref).where]
    for seat, cards in hidden.items():
        for c in cards:
            where[CARD_INDEX[c]] = f"hide:{seat}"
    set_state(ref, where=tuple(where))


def example(**options: object):  # type: ignore[no-untyped-def]
    ref = start(3, three_player_length="always_8", **options)
    set_state(ref, round=4, rep=(10, 8, 8, 3))
    hide_cards(ref, EXAMPLE)
    end_round(ref)
    return ref


def test_t6_rows_and_t7_t12_the_worked_example() -> None:
    ref = example()
    state = st(ref)
    assert state.phase == FAME
    fame = public(ref)["fame"]
    assert fame["rows"] == {"swords": 1, "coins": 2, "wands": 2, "cups": 4}  # T6 (G-6)
    assert fame["order"] == ["swords", "coins", "wands", "cups"]
    assert [(p.id, p.seat, p.options) for p in GAME.pending(ref.state)] == [
        ("fame", None, ("reveal",))
    ]
    refuse(ref, "decide 0 fame hide", "R-FAME-3")
    events = play(ref, "decide 0 fame reveal")  # T8
    assert "3 of swords" in events[0] and st(ref).vp == (8, 16, 0)
    assert "coins_10" not in str(public(ref))  # coins not revealed yet
    play(ref, "decide 1 fame reveal")  # T9
    assert st(ref).vp == (8 + 3, 16 + 6, 12)
    play(ref, "decide 2 fame reveal")  # T10
    assert st(ref).vp == (8 + 3 + 6, 16 + 6 + 3, 12 + 12)
    play(ref, "decide organiser fame reveal")  # T11: both cups revealed, 8 to Anita
    state = st(ref)
    assert state.vp == (25, 25, 24)  # T12
    history = public(ref)["history"][0]
    assert history["totals"] == [25, 25, 24] and history["kind"] == "regular"
    assert history["families"][3] == {
        "family": "cups",
        "row": 4,
        "cards": {"0": ["cups_2", "cups_4"]},
        "places": [[0]],
        "awards": [8, 0, 0],
    }
    # cleanup: reputation 0, revealed cards on the piles, then round 5
    assert public(ref)["reputation"] == {"swords": 0, "coins": 0, "wands": 0, "cups": 0}
    assert all(not state.hidden(s) for s in range(3))
    assert set(state.pile_minor) == {c for cs in EXAMPLE.values() for c in cs}
    assert state.round == 5 and state.phase == "draw"
    play(ref, "+minor_discard cups_2")  # carried to the pile: a confirmation


# Revealed cards still on the strips after a simplest-variant fame phase, and a minor pile that
# is all the next round's draws have: 9 cards + 3 revealed = 4 seats x 3 minors.
CARRIED = {0: ("swords_5",), 2: ("coins_10", "wands_8")}
OLD_PILE = ("swords_1", "swords_2", "coins_1", "coins_2", "wands_1", "wands_2", "cups_1", "cups_2")
OLD_PILE += ("cups_3",)


def fame_into_a_reshuffle():  # type: ignore[no-untyped-def]
    """Round 3 of a simplest game ends with its fame phase; the minor deck is empty."""
    ref = start(4, variant="simplest")
    set_state(ref, round=3, rep=(3, 2, 1, 0), minors=(4, 5, 4, 4))
    hide_cards(ref, CARRIED)
    where = list(st(ref).where)
    for c in OLD_PILE:
        where[CARD_INDEX[c]] = MINOR_PILE
    set_state(ref, where=tuple(where), pile_minor=OLD_PILE, deck_minor=0)
    end_round(ref)
    return ref


def test_revealed_cards_carried_after_the_next_rounds_draws_reshuffled_them() -> None:
    """R-FAME-10 then R-DECK-1: the last ``fame reveal`` starts round 4, whose draws (no prompt
    in the simplest game) shuffle the pile, the revealed cards with it, into a new deck. The
    table then carries those cards to the pile: confirmations, not discards."""
    ref = fame_into_a_reshuffle()
    events = play(ref, *["decide 0 fame reveal"] * 4)
    assert any("shuffled into a new deck" in e for e in events)
    state = st(ref)
    assert (state.round, state.phase, state.deck_minor, state.pile_minor) == (4, "draw", 9, ())
    assert all(state.loc_of(c) == UNSEEN for cs in CARRIED.values() for c in cs)
    assert state.carry == {"swords_5", "coins_10", "wands_8"}
    view = public(ref)
    assert view["owed"] == [{"seat": 1, "count": 1}]  # round 4 starts with seat 1: 5 + 3 > 7
    assert [s["hand"] for s in view["seats"]] == [4, 8, 4, 4]
    # carried to the pile while seat 1 owes a discard: not counted as its discard
    before = ref.state
    assert play(ref, "-hide:0 swords_5", "+minor_discard swords_5") == ()
    assert ref.apply(Undo()).accepted and ref.state == before  # undo: the same state
    assert play(ref, "+minor_discard swords_5", "+minor_discard coins_10") == ()
    assert public(ref)["owed"] == view["owed"] and public(ref)["seats"] == view["seats"]
    assert public(ref)["decks"] == view["decks"] and public(ref)["discards"] == view["discards"]
    play(ref, "+minor_discard coins_king")  # seat 1's own discard; the other seats draw
    view = public(ref)
    assert [s["hand"] for s in view["seats"]] == [7, 7, 7, 7] and view["phase"] == "hide"
    # carried once nothing is owed: not "no discard is owed now" (R-DRAW-3)
    assert play(ref, "+minor_discard wands_8") == ()
    assert public(ref) == view and st(ref).carry == frozenset()
    # carried, the cards are like any other: a second arrival is a hand discard again
    refuse(ref, "+minor_discard wands_8", "R-DRAW-3")


def test_revealed_cards_carried_early_are_not_waited_for() -> None:
    """A revealed card carried to its pile before the fame phase is over is not waited for
    after the cleanup: once drawn again, its discard counts."""
    ref = fame_into_a_reshuffle()
    play(ref, "decide 0 fame reveal")  # swords: the 5 of swords is revealed
    play(ref, "-hide:0 swords_5", "+minor_discard swords_5")  # carried early
    play(ref, *["decide 0 fame reveal"] * 3)
    assert st(ref).carry == {"coins_10", "wands_8"}
    play(ref, "+minor_discard swords_5")  # seat 1 drew it from the new deck and discards it
    assert public(ref)["seats"][1]["hand"] == 7
    assert public(ref)["discards"]["minor"] == ["swords_5"]


def test_a_carried_card_seen_elsewhere_is_judged_as_any_card() -> None:
    """A revealed card still to be carried, seen anywhere but its own pile, is judged as any
    card; once accepted there it is no longer waited for."""
    ref = fame_into_a_reshuffle()
    play(ref, *["decide 0 fame reveal"] * 4)
    refuse(ref, "+major_discard coins_10", "R-DRAW-3")  # a minor on the major pile
    play(ref, "+minor_discard coins_king")  # seat 1's discard; then every seat's draw
    play(ref, "+hide:2 coins_10")  # only possible if drawn again: a hide like any other
    assert "coins_10" not in st(ref).carry and st(ref).loc_of("coins_10") == "hide:2"
    assert st(ref).carry == {"swords_5", "wands_8"}


def test_fool_assignment_is_private_and_counts_zero() -> None:
    ref = start(3, three_player_length="always_8")
    set_state(ref, round=4, rep=(3, 2, 1, 0))
    hide_cards(ref, {0: ("swords_2",), 1: ("swords_king", "major_00"), 2: ("coins_3",)})
    end_round(ref)
    prompts = GAME.pending(ref.state)
    assert [(p.id, p.seat, p.private) for p in prompts] == [
        ("fame", None, False),
        ("fool", 1, True),
    ]
    assert "Fool" not in GAME.waiting_for(ref.state)
    refuse(ref, "decide 0 fool swords", "R-FAME-4")
    events = play(ref, "decide 1 fool coins")
    assert events == ()  # nothing public
    assert prompt_ids(ref) == ["fame"]
    play(ref, "decide 0 fame reveal")  # swords: seat 0 {2} vs seat 1 {king}
    assert st(ref).vp == (8, 16, 0)
    events = play(ref, "decide 0 fame reveal")  # coins row 2: seat 1 {Fool 0} vs seat 2 {3}
    assert "the Fool counts for ◉ coins" in events[0]
    assert st(ref).vp == (8, 16 + 6, 12)  # equal counts: 3 beats 0 (R-FAME-6)
    play(ref, "decide 0 fame reveal", "decide 0 fame reveal")
    assert st(ref).pile_major[-1] == "major_00"


def test_unassigned_fool_counts_for_the_last_family() -> None:
    ref = start(3, three_player_length="always_8")
    set_state(ref, round=4, rep=(3, 2, 1, 0))
    hide_cards(ref, {0: ("cups_2",), 1: ("major_00",), 2: ("cups_3",)})
    end_round(ref)
    play(ref, "decide 0 fame reveal", "decide 0 fame reveal")
    assert options_of(ref, "fool") == ("wands", "cups")
    play(ref, "decide 0 fame reveal")
    events = play(ref, "decide 0 fame reveal")
    assert "Fool" in events[0]
    # cups row 4: seats 0 {2}, 1 {0}, 2 {3}: one card each, by value 2: seat 2, seat 0, seat 1
    assert st(ref).vp == (4, 2, 8)


def test_tied_split_pooled_and_own_place_t16() -> None:
    for split, expect in (("pooled", (12, 12, 4)), ("own_place", (8, 8, 4))):
        ref = start(3, three_player_length="always_8", tied_split=split)
        set_state(ref, round=4, rep=(9, 0, 0, 0))
        hide_cards(
            ref, {0: ("swords_3", "swords_4"), 1: ("swords_2", "swords_5"), 2: ("swords_king",)}
        )
        end_round(ref)
        play(ref, "decide 0 fame reveal")
        assert st(ref).vp == expect, split
        assert public(ref)["fame"]["scored"][0]["places"] == [[0, 1], [2]]


def test_devil_doubles_the_fame_phase_of_its_round_by_option_g12() -> None:
    for option, expect in (("doubled", 32), ("not_doubled", 16)):
        ref = start(3, three_player_length="always_8", devil_fame=option)
        set_state(ref, round=4, rep=(9, 0, 0, 0), devil=0)
        hide_cards(ref, {0: ("swords_3",)})
        end_round(ref)
        assert public(ref)["devil"] == (0 if option == "doubled" else None)
        play(ref, "decide 0 fame reveal")
        assert st(ref).vp[0] == expect, option


def test_world_phase_during_the_card_play_is_doubled_under_either_option() -> None:
    for option in ("doubled", "not_doubled"):
        ref = start(3, devil_fame=option)
        set_state(ref, rep=(9, 0, 0, 0), devil=1)
        hide_cards(ref, {1: ("swords_3",)})
        play(ref, "+play major_21", "decide 0 hide pass", "decide 0 fame reveal")
        assert st(ref).vp[1] == 16, option  # row 1 World dominance 8, doubled


def test_end_of_game_and_hand_tie_break_r_end_3() -> None:
    ref = start(4)
    set_state(
        ref, round=6, vp=(20, 20, 20, 5), minors=(3, 5, 5, 3), majors=(0, 0, 0, 0), rep=(0, 0, 0, 0)
    )
    hide_cards(ref, {})
    end_round(ref)
    play(ref, *["decide 0 fame reveal"] * 4)
    state = st(ref)
    assert state.over and public(ref)["over"] is True
    assert public(ref)["winners"] == [1, 2]  # tied on VP and on hand: they share
    assert "share the win" in GAME.waiting_for(ref.state)
    assert GAME.pending(ref.state) == ()
    refuse(ref, "decide 0 fame reveal", "TABLE-GAME-OVER")
    assert GAME.scores(ref.state) == (20, 20, 20, 5)
    # more cards in hand breaks the tie
    ref = start(4)
    set_state(
        ref, round=6, vp=(20, 20, 20, 5), minors=(3, 5, 4, 3), majors=(0, 0, 0, 0), rep=(0, 0, 0, 0)
    )
    hide_cards(ref, {})
    end_round(ref)
    play(ref, *["decide 0 fame reveal"] * 4)
    assert public(ref)["winners"] == [1]
    assert "{seat:1} won" in GAME.waiting_for(ref.state)


def test_fame_rounds_follow_the_length_options() -> None:
    for n, options, rounds, fame_rounds in (
        (4, {}, 6, [3, 6]),
        (5, {"length": "long"}, 9, [3, 6, 9]),
        (3, {}, 4, [4]),
        (3, {"length": "long"}, 8, [4, 8]),
        (3, {"three_player_length": "always_8"}, 8, [4, 8]),
    ):
        ref = start(n, **options)
        view = public(ref)
        assert (view["rounds"], view["fame_rounds"]) == (rounds, fame_rounds)
    ref = start(4)
    end_round(ref)
    end_round_to(ref, 3)
    assert st(ref).phase == FAME


def end_round_to(ref, target: int) -> None:  # type: ignore[no-untyped-def]
    """Jump to ``target``'s last turn and end it."""
    set_state(ref, round=target)
    end_round(ref)
