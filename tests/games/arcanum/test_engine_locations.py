"""The ten location effects of the sample board (rules §5, R-MIN-6)."""

from __future__ import annotations

from scorekeeper.games.arcanum.state import HAND_LIMIT
from tests.games.arcanum.test_engine_helpers import (
    GAME,
    options_of,
    play,
    prompt_ids,
    public,
    refuse,
    set_state,
    st,
    start,
)


def test_wizard_tower_vp_and_a_major() -> None:
    ref = start(4)
    play(ref, "+play wands_1", "+loc:1 pawn_wands_page")
    state = st(ref)
    assert state.vp[0] == 1 and state.majors[0] == 2
    assert public(ref)["reputation"]["wands"] == 1 + 2  # 2 wand icons at 1


def test_wizard_tower_in_the_first_game_gives_only_vp() -> None:
    ref = start(4, variant="first_game")
    play(ref, "+play wands_1", "+loc:1 pawn_wands_page")
    state = st(ref)
    assert state.vp[0] == 1 and state.majors[0] == 0


def test_artists_quarter_major_or_minors() -> None:
    ref = start(4)
    play(ref, "+play cups_2", "+loc:2 pawn_cups_queen")
    assert options_of(ref, "artists") == ("major", "minors")
    refuse(ref, "decide 0 artists both", "R-MIN-6")
    refuse(ref, "decide 1 artists major", "TABLE-WRONG-SEAT")
    play(ref, "decide 0 artists minors")
    assert st(ref).minors[0] == 2 + 2
    ref = start(4)
    play(ref, "+play cups_2", "+loc:2 pawn_cups_queen", "decide organiser artists major")
    assert st(ref).majors[0] == 2


def test_artists_quarter_in_a_variant_draws_two_minors() -> None:
    ref = start(4, variant="simplest")
    play(ref, "+play cups_2", "+loc:2 pawn_cups_queen")
    assert st(ref).minors[0] == 4 and prompt_ids(ref) == ["end_turn"]


def test_harbour_others_answer_then_extra_draws() -> None:
    ref = start(4)
    set_state(ref, minors=(3, 3, 6, 3))  # seat 2 holds 7 cards
    play(ref, "+play coins_3", "+loc:3 pawn_coins_page")
    assert st(ref).minors[0] == 3  # 2 + 1 drawn
    assert [(p.id, p.seat) for p in GAME.pending(ref.state)] == [("harbour", 1)]
    refuse(ref, "decide 2 harbour draw", "TABLE-WRONG-SEAT")
    play(ref, "decide 1 harbour draw", "decide 2 harbour draw")
    assert public(ref)["owed"] == [{"seat": 2, "count": 1}]  # hand limit after the draw
    refuse(ref, "decide 3 harbour draw", "R-DRAW-3")
    play(ref, "+minor_discard swords_2", "decide 3 harbour pass")
    state = st(ref)
    assert state.minors[0] == 3 + 2 and state.minors[1] == 4 and state.hand(2) == HAND_LIMIT


def test_market_vp_and_one_exchange() -> None:
    ref = start(4)
    play(ref, "+play coins_5", "+loc:5 pawn_coins_page")
    assert st(ref).vp[0] == 2
    assert options_of(ref, "market") == ("none", "major", "minor")
    play(ref, "decide 0 market major")
    refuse(ref, "+minor_discard swords_2", "R-MIN-6")  # a major is discarded
    play(ref, "+major_discard major_09")
    state = st(ref)
    assert state.majors[0] == 1 and public(ref)["discards"]["major"] == ["major_09"]
    # the minor exchange; and no major exchange for a seat without a major
    ref = start(4)
    set_state(ref, majors=(0, 1, 1, 1))
    play(ref, "+play coins_5", "+loc:5 pawn_coins_page")
    assert options_of(ref, "market") == ("none", "minor")
    play(ref, "decide 0 market minor", "+minor_discard swords_2")
    assert st(ref).minors[0] == 2 - 1 + 2


def test_fields_vp_and_adjustments_in_order() -> None:
    ref = start(4)
    play(ref, "+play wands_6", "+loc:6 pawn_wands_page")
    assert st(ref).vp[0] == 1
    assert public(ref)["reputation"]["wands"] == 1 + 2 + 1  # (a), 2 wand icons, 1 page icon
    events = play(ref, "decide 0 fields cups-1")
    assert "no change" in events[0]  # a loss at 0 is ignored (G-5)
    play(ref, "decide 0 fields swords+1")
    refuse(ref, "decide 0 fields swords-1", "R-MIN-6")  # each family at most once
    assert options_of(ref, "fields") == ("coins+1", "coins-1", "wands+1", "wands-1", "done")
    play(ref, "decide 0 fields wands-1", "decide 0 fields coins+1")  # all four: done by itself
    assert public(ref)["reputation"] == {"swords": 1, "coins": 1, "wands": 3, "cups": 0}
    assert prompt_ids(ref) == ["end_turn"]


def test_treasury_hides_the_drawn_minor() -> None:
    ref = start(4)
    deck = st(ref).deck_minor
    play(ref, "+play wands_7", "+loc:7 pawn_wands_page")
    refuse(ref, "+hide:0 major_00", "R-MIN-6")
    refuse(ref, "+hide:1 swords_2", "R-DRAW-4")  # not seat 1's hide
    events = play(ref, "+hide:0 swords_2")
    state = st(ref)
    assert state.minors[0] == 2 and state.deck_minor == deck - 1
    assert state.hidden(0) == ("swords_2", "cups_6")
    assert not any("swords_2" in e or "2 of swords" in e for e in events)


def test_cathedral_gain_then_hide_or_draw() -> None:
    ref = start(4)
    play(ref, "+play swords_8", "+loc:8 pawn_swords_page")
    assert st(ref).vp[0] == 1  # the sample board's cathedral_gain
    assert options_of(ref, "cathedral") == ("hide", "draw")
    play(ref, "decide 0 cathedral hide")
    refuse(ref, "decide 0 hide pass", "R-MIN-6")  # the chosen hide is compulsory
    play(ref, "+hide:0 major_00")  # the Fool may stand in for a minor (G-15)
    assert st(ref).majors[0] == 0 and len(st(ref).hidden(0)) == 2
    ref = start(4)
    play(ref, "+play swords_8", "+loc:8 pawn_swords_page", "decide 0 cathedral draw")
    assert st(ref).minors[0] == 4


def test_ballroom_may_hide_one() -> None:
    ref = start(4)
    play(ref, "+play wands_9", "+loc:9 pawn_wands_page")
    assert [(p.id, p.seat, p.options) for p in GAME.pending(ref.state)] == [("hide", 0, ("pass",))]
    play(ref, "+hide:0 swords_5")
    assert st(ref).minors[0] == 1 and prompt_ids(ref) == ["end_turn"]
    ref = start(4)
    play(ref, "+play wands_9", "+loc:9 pawn_wands_page", "decide 0 hide pass")
    assert st(ref).minors[0] == 2


def test_castle_every_other_seat_discards_in_turn() -> None:
    ref = start(4)
    set_state(ref, minors=(3, 3, 0, 3), majors=(1, 1, 0, 1))  # seat 2 holds no card
    play(ref, "+play swords_10", "+loc:10 pawn_swords_page")
    assert public(ref)["owed"] == [
        {"seat": 1, "count": 1},
        {"seat": 2, "count": 1},
        {"seat": 3, "count": 1},
    ]
    refuse(ref, "+play coins_2", "R-PLAY-3")  # the discards come first
    events = play(ref, "+major_discard major_11")  # counted as seat 1's
    assert "{seat:1} discards" in events[0]
    assert any("{seat:2} has no card" in e for e in events)
    play(ref, "+minor_discard coins_9")
    state = st(ref)
    assert state.majors[1] == 0 and state.minors[3] == 2
    assert public(ref)["owed"] == [] and prompt_ids(ref) == ["end_turn"]
