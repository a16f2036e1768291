"""Setup (R-SETUP-8/9), round 1's draws (R-DRAW-2) and phase A's hides (R-DRAW-4, G-16)."""

from __future__ import annotations

from scorekeeper.core.inputs import Seen
from scorekeeper.games.arcanum.state import HIDE, PLAY, SETUP
from tests.games.arcanum.test_engine_helpers import (
    GAME,
    LAYOUT,
    new_ref,
    place_pawns,
    play,
    public,
    refuse,
    set_state,
    st,
    start,
)


def test_setup_limits_two_per_location_and_one_per_colour() -> None:
    ref = new_ref(4)
    play(ref, "+loc:1 pawn_swords_page", "+loc:1 pawn_coins_page")
    refuse(ref, "+loc:1 pawn_wands_page", "R-SETUP-8")  # a third pawn
    play(ref, "+loc:2 pawn_swords_knight")
    refuse(ref, "+loc:2 pawn_swords_queen", "R-SETUP-8")  # a second blue pawn
    refuse(ref, "+tray pawn_cups_king", "R-SETUP-8")
    refuse(ref, "+play pawn_cups_king", "R-SETUP-8")
    # a pawn arriving again elsewhere during setup simply moves
    play(ref, "+loc:3 pawn_swords_page")
    assert public(ref)["pawns"]["pawn_swords_page"] == 3
    assert public(ref)["pawns"]["pawn_cups_king"] is None
    play(ref, "+loc:1 pawn_wands_page")  # location 1 now holds only 2 pawns
    assert st(ref).phase == SETUP


def test_no_card_during_setup_and_departures_change_nothing() -> None:
    ref = new_ref(3)
    refuse(ref, "+play swords_4", "R-SETUP-9")
    refuse(ref, "+hide:0 swords_4", "R-SETUP-9")
    refuse(ref, "decide 0 draw minors", "TABLE-NO-PROMPT")
    before = ref.state
    play(ref, "-loc:4 pawn_swords_page", "-play swords_4")
    assert ref.state == before


def test_sixteenth_pawn_starts_round_one_with_its_draws() -> None:
    ref = new_ref(4)
    events = place_pawns(ref)
    state = st(ref)
    assert state.phase == HIDE and state.round == 1
    assert state.minors == (4, 4, 4, 4) and state.majors == (1, 1, 1, 1)
    assert state.deck_minor == 56 - 16 and state.deck_major == 22 - 4
    assert any("draws 1 major and 4 minors" in e for e in events)
    view = public(ref)
    assert view["phase"] == "hide" and view["decks"] == {"minor": 40, "major": 18}
    assert [s["hand"] for s in view["seats"]] == [5, 5, 5, 5]
    assert view["active_seat"] is None and view["turn"] is None
    assert GAME.pending(ref.state) == ()  # the hides are sightings, not prompts
    assert "hides 1 card" in GAME.waiting_for(ref.state)


def test_phase_a_hides_exactly_one_each_in_any_order() -> None:
    ref = new_ref(3)
    place_pawns(ref)
    play(ref, "+hide:2 coins_3", "+hide:0 major_00")  # the Fool may be hidden
    refuse(ref, "+hide:2 coins_4", "R-DRAW-4")  # a second card on the same strip
    refuse(ref, "+hide:1 major_05", "R-DRAW-4")  # a major other than the Fool
    refuse(ref, "+hide:1 coins_3", "R-DRAW-5")  # hidden on another strip already
    refuse(ref, "decide 1 hide pass", "R-DRAW-4")
    events = play(ref, "+hide:1 wands_king")
    assert not any("wands_king" in e or "king of wands" in e for e in events)
    state = st(ref)
    assert state.phase == PLAY and state.turn is not None and state.turn.seat == 0
    assert state.minors == (4, 3, 3) and state.majors == (0, 1, 1)
    assert [public(ref)["seats"][s]["hidden"] for s in range(3)] == [1, 1, 1]
    # the hidden cards are secrets of their seats, shown to them only
    assert GAME.secrets(ref.state, 0) == {"major_00"}
    assert GAME.view(ref.state, 2)["seats"][2]["hidden_cards"] == ["coins_3"]
    assert "hidden_cards" not in GAME.view(ref.state, 1)["seats"][2]
    assert "coins_3" not in str(public(ref))


def test_a_seat_with_no_minor_draws_one_to_hide_g16() -> None:
    ref = new_ref(3)
    place_pawns(ref)
    state = st(ref)
    set_state(ref, minors=(0, 4, 4))
    events = play(ref, "+hide:0 swords_2")
    after = st(ref)
    assert after.minors[0] == 0 and after.deck_minor == state.deck_minor - 1
    assert any("G-16" in e for e in events)


def test_start_seat_option_starts_phase_b() -> None:
    ref = start(4, start_seat=2)
    state = st(ref)
    assert state.start == 2 and state.turn is not None and state.turn.seat == 2
    assert public(ref)["active_seat"] == 2


def test_pawn_departures_are_ignored_and_arrivals_in_place_too() -> None:
    ref = start(3)
    before = ref.state
    seat_pawn = next(iter(LAYOUT))
    for inp in (
        Seen(f"loc:{LAYOUT[seat_pawn]}", seat_pawn, False),
        Seen(f"loc:{LAYOUT[seat_pawn]}", seat_pawn, True),
        Seen("hide:0", "cups_6", False),
        Seen("hide:0", "cups_6", True),
    ):
        assert ref.apply(inp).accepted
    assert ref.state == before
