"""The 22 majors (rules §6, R-MAJ-1), the Tower's blocking and the Devil's doubling (T17)."""

from __future__ import annotations

from scorekeeper.games.arcanum.cards import PAWNS
from scorekeeper.games.arcanum.state import PAWN_INDEX, TRAY, UNSEEN
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


def test_fool_moves_any_pawn_no_suit_reputation() -> None:
    ref = start(4)
    play(ref, "+play major_00")
    assert public(ref)["turn"]["stage"] == "move"
    refuse(ref, "+tray pawn_cups_king", "R-MAJ-1")
    set_state(ref, blocked=frozenset({10}))
    refuse(ref, "+loc:10 pawn_cups_king", "R-MAJ-1")
    play(ref, "+loc:4 pawn_cups_king")  # 4 Throne Room: 2 king icons; draws 2 minors
    state = st(ref)
    assert public(ref)["reputation"]["cups"] == 2 and state.minors[0] == 5
    assert public(ref)["discards"]["major"] == ["major_00"]


def test_fool_with_no_pawn_able_to_move_does_nothing() -> None:
    ref = start(4)
    set_state(ref, pawns=(TRAY,) * 16)
    events = play(ref, "+play major_00")
    assert any("no pawn can move" in e for e in events)
    assert st(ref).turn is not None and st(ref).turn.major_done  # type: ignore[union-attr]


def test_magician_draws_two_then_may_hide() -> None:
    ref = start(4)
    play(ref, "+play major_01")
    assert st(ref).minors[0] == 5 and prompt_ids(ref) == ["hide"]
    play(ref, "+hide:0 coins_5")
    assert st(ref).minors[0] == 4 and len(st(ref).hidden(0)) == 2


def test_high_priestess_star_and_hierophant() -> None:
    ref = start(4)
    play(ref, "+play major_02")
    assert st(ref).vp[0] == 3
    ref = start(4)
    play(ref, "+play major_17")
    assert st(ref).vp[0] == 2 and st(ref).minors[0] == 5
    ref = start(4)
    play(ref, "+play major_05")
    assert st(ref).minors[0] == 4 and st(ref).majors[0] == 1


def test_empress_moves_then_plus_one_minus_one() -> None:
    ref = start(4)
    set_state(ref, rep=(0, 0, 0, 5))
    play(ref, "+play major_03", "+loc:10 pawn_swords_knight")  # swords +4 at the Castle
    play(ref, "+minor_discard coins_2", "+minor_discard coins_3", "+minor_discard coins_4")
    refuse(ref, "decide 0 empress swords/swords", "R-MAJ-1")
    play(ref, "decide 0 empress coins/cups")
    assert public(ref)["reputation"] == {"swords": 4, "coins": 1, "wands": 0, "cups": 4}


def test_emperor_hide_then_family_plus_three() -> None:
    ref = start(4)
    play(ref, "+play major_04", "decide 0 hide pass")
    assert options_of(ref, "family") == ("swords", "coins", "wands", "cups")
    play(ref, "decide 0 family wands")
    assert public(ref)["reputation"]["wands"] == 3


def test_strength_vp_and_family() -> None:
    ref = start(4)
    play(ref, "+play major_08", "decide 0 family coins")
    assert st(ref).vp[0] == 2 and public(ref)["reputation"]["coins"] == 3


def test_lovers_fewest_ties_count_as_fewest_g23() -> None:
    ref = start(4)
    set_state(ref, vp=(2, 2, 5, 7))
    play(ref, "+play major_06")
    assert st(ref).vp == (6, 2, 5, 7)
    ref = start(4)
    set_state(ref, vp=(5, 2, 5, 7))
    play(ref, "+play major_06")
    assert st(ref).vp == (7, 4, 5, 7)


def test_chariot_family_then_opponents_discard() -> None:
    ref = start(4)
    play(ref, "+play major_07", "decide 0 family cups")
    assert public(ref)["reputation"]["cups"] == 2
    assert [o["seat"] for o in public(ref)["owed"]] == [1, 2, 3]
    play(ref, "+minor_discard swords_2", "+major_discard major_09", "+minor_discard swords_5")
    assert [st(ref).hand(s) for s in range(4)] == [3, 3, 3, 3]


def test_hermit_ap_up_to_two_then_opponents_any_order() -> None:
    ref = start(4)
    play(ref, "+play major_09", "+hide:0 swords_2")
    assert [(p.seat, p.id) for p in GAME.pending(ref.state)] == [(0, "hide")]
    play(ref, "+hide:0 swords_3")  # the second ends the AP's hide
    assert [p.seat for p in GAME.pending(ref.state)] == [1, 2, 3]
    play(ref, "+hide:3 coins_9", "decide 1 hide pass")
    refuse(ref, "+hide:3 coins_8", "R-MAJ-1")  # at most 1 each
    play(ref, "+hide:2 coins_8")
    assert [len(st(ref).hidden(s)) for s in range(4)] == [3, 1, 2, 2]


def test_wheel_passes_left_by_kind_privately() -> None:
    ref = start(4)
    set_state(ref, minors=(3, 0, 1, 3), majors=(2, 1, 0, 0))
    play(ref, "+play major_10")
    prompts = {p.seat: p for p in GAME.pending(ref.state)}
    assert all(p.private for p in prompts.values())
    assert prompts[0].options == ("minor+minor", "minor+major")  # one major left after playing
    assert prompts[1].options == ("major",) and prompts[2].options == ("minor",)
    assert prompts[3].options == ("minor+minor",)
    refuse(ref, "decide 1 wheel minor", "R-MAJ-1")
    play(ref, "decide 0 wheel minor+major", "decide 1 wheel major", "decide 2 wheel minor")
    assert st(ref).minors == (3, 0, 1, 3)  # nothing passes until all have answered
    events = play(ref, "decide 3 wheel minor+minor")
    assert not any("minor+" in e for e in events)
    state = st(ref)
    assert state.minors == (3 - 1 + 2, 0 + 1, 1 - 1, 3 - 2 + 1)
    assert state.majors == (1 - 1, 1 - 1 + 1, 0 + 1, 0)


def test_justice_draws_up_to_four_cards() -> None:
    ref = start(4)
    set_state(ref, minors=(1, 3, 3, 3))
    play(ref, "+play major_11")
    assert st(ref).hand(0) == 4
    ref = start(4)
    set_state(ref, minors=(4, 3, 3, 3))
    events = play(ref, "+play major_11")
    assert any("already holds 4" in e for e in events) and st(ref).hand(0) == 4


def test_hanged_man_and_t17_with_the_devil() -> None:
    ref = start(4)
    set_state(ref, vp=(1, 0, 0, 0))
    play(ref, "+play major_12")
    assert st(ref).vp[0] == 0 and st(ref).minors[0] == 5
    ref = start(4)
    set_state(ref, vp=(3, 0, 0, 0), devil=0)
    events = play(ref, "+play major_12")
    assert st(ref).vp[0] == 0 and st(ref).minors[0] == 5  # T17: -4 from 3 stops at 0
    assert any("doubled by the Devil" in e for e in events)


def test_death_discards_minors_then_draws_majors() -> None:
    ref = start(4)
    set_state(ref, minors=(1, 3, 3, 3))
    play(ref, "+play major_13")
    assert options_of(ref, "death") == ("1",)
    refuse(ref, "decide 0 death 2", "R-MAJ-1")
    play(ref, "decide 0 death 1")
    refuse(ref, "+major_discard major_04", "R-MAJ-1")  # Death discards minors
    play(ref, "+minor_discard swords_7")
    assert st(ref).minors[0] == 0 and st(ref).majors[0] == 1


def test_temperance_swaps_hidden_minors() -> None:
    ref = start(4, hides=("cups_6", "cups_7", "cups_8", "cups_9"))
    hidden = ("coins_2", "cups_6", "major_00")
    where = list(st(ref).where)
    from scorekeeper.games.arcanum.state import CARD_INDEX

    for c in hidden:
        where[CARD_INDEX[c]] = "hide:0"
    set_state(ref, where=tuple(where))
    play(ref, "+play major_14", "+loc:9 pawn_swords_king", "decide 0 hide pass")
    prompt = GAME.pending(ref.state)[0]
    assert prompt.id == "temperance" and prompt.private
    assert prompt.options == ("none", "coins_2", "cups_6", "coins_2+cups_6")  # not the Fool
    assert "coins_2" not in GAME.waiting_for(ref.state)
    refuse(ref, "decide 0 temperance major_00", "R-MAJ-1")
    events = play(ref, "decide 0 temperance cups_6+coins_2")
    assert not any("coins_2" in e or "cups_6" in e for e in events)
    state = st(ref)
    assert state.minors[0] == 5 and state.loc_of("cups_6") == "hand:0"
    assert GAME.secrets(ref.state, 0) >= {"cups_6", "coins_2", "major_00"}
    assert GAME.view(ref.state, 0)["seats"][0]["known_hand"] == ["coins_2", "cups_6"]
    refuse(ref, "+hide:0 major_05", "R-MAJ-1")
    play(ref, "+hide:0 swords_9", "+hide:0 cups_6")
    state = st(ref)
    assert state.minors[0] == 3 and set(state.hidden(0)) == {"major_00", "swords_9", "cups_6"}


def test_devil_doubles_the_rest_of_the_round() -> None:
    ref = start(4)
    play(ref, "+play major_15")
    assert public(ref)["devil"] == 0
    play(ref, "+play coins_5", "+loc:5 pawn_coins_page", "decide 0 market none")
    assert st(ref).vp[0] == 4  # the Market's 2 VP doubled
    end_round(ref)
    assert public(ref)["devil"] is None


def test_tower_blocks_until_the_next_round() -> None:
    ref = start(4)
    play(ref, "+play major_16")
    assert st(ref).vp[0] == 2
    assert "done" not in options_of(ref, "tower")  # at least one first
    play(ref, "+loc:4 major_16", "decide 0 tower 3")
    assert "done" in options_of(ref, "tower")
    play(ref, "decide 0 tower done")
    view = public(ref)
    assert view["blocked"] == [3, 4] and view["tower"] is True
    assert view["discards"]["major"] == []
    play(ref, "+loc:4 major_16")  # lying on the city: changes nothing
    refuse(ref, "+play major_16", "R-MAJ-1")
    play(ref, "+play swords_9")
    refuse(ref, "+loc:9 pawn_swords_king", "R-MIN-4")  # out of blocked 4
    play(ref, "+loc:9 pawn_swords_page", "decide 0 hide pass")
    end_round(ref)
    view = public(ref)
    assert view["blocked"] == [] and view["tower"] is False
    assert view["discards"]["major"] == ["major_16"]
    play(ref, "+major_discard major_16")  # the confirmation


def test_moon_everyone_draws_then_hides() -> None:
    ref = start(4)
    set_state(ref, minors=(3, 3, 6, 3))  # seat 2 will be over the limit
    play(ref, "+play major_18")
    assert public(ref)["owed"] == [{"seat": 2, "count": 1}]
    assert st(ref).minors == (4, 4, 7, 3)  # seat 3 draws after seat 2's discard
    play(ref, "+minor_discard swords_2")
    assert st(ref).minors == (4, 4, 6, 4)
    play(ref, "decide 0 hide pass")
    assert [p.seat for p in GAME.pending(ref.state)] == [1, 2, 3]


def test_sun_reveals_publicly_until_the_fame_phase() -> None:
    ref = start(3)
    where = list(st(ref).where)
    from scorekeeper.games.arcanum.state import CARD_INDEX

    for c in ("swords_2", "swords_3", "swords_5", "coins_2"):
        where[CARD_INDEX[c]] = "hide:1"  # seat 1: 5 hidden with cups_7
    set_state(ref, where=tuple(where))
    events = play(ref, "+play major_19")
    assert st(ref).vp[0] == 2
    assert any("{seat:2} reveals 8 of cups" in e for e in events)  # 1 hidden: at once
    prompts = GAME.pending(ref.state)
    assert [(p.id, p.seat, p.private) for p in prompts] == [("sun", 1, True)]
    assert "swords_2" not in str(public(ref))
    play(ref, "decide 1 sun swords_2", "decide 1 sun coins_2")
    refuse(ref, "decide 1 sun swords_2", "R-MAJ-1")
    play(ref, "decide 1 sun cups_7")
    view = public(ref)
    assert view["seats"][1]["revealed"] == ["swords_2", "coins_2", "cups_7"]
    assert view["seats"][2]["revealed"] == ["cups_8"]
    assert "swords_2" not in GAME.secrets(ref.state, 1)
    assert "swords_3" in GAME.secrets(ref.state, 1)


def test_judgement_removes_three_and_they_return_next_round() -> None:
    ref = start(4)
    play(ref, "+play major_20")
    play(ref, "+minor_discard swords_2", "+minor_discard swords_3", "+minor_discard swords_5")
    set_state(ref, blocked=frozenset({1}))
    refuse(ref, "+tray pawn_coins_page", "R-MAJ-1")  # blocked location 1
    refuse(ref, "+loc:9 pawn_cups_king", "R-PLAY-3")
    play(ref, "+tray pawn_cups_king", "decide 0 judgement pawn_wands_queen")
    assert options_of(ref, "judgement")[0] == "pawn_swords_knight"
    play(ref, "+tray pawn_swords_queen")
    view = public(ref)
    assert view["judgement"] == {
        "seat": 0,
        "pawns": ["pawn_cups_king", "pawn_wands_queen", "pawn_swords_queen"],
    }
    assert view["pawns"]["pawn_cups_king"] == "tray"
    refuse(ref, "+loc:2 pawn_cups_king", "R-MAJ-1")  # back only next round
    set_state(ref, blocked=frozenset())
    end_round(ref)
    assert st(ref).phase == "round_start"
    assert [(p.id, p.seat) for p in GAME.pending(ref.state)] == [("judgement", 0)]
    play(ref, "+loc:9 pawn_wands_queen")
    refuse(ref, "+loc:9 pawn_cups_king", "R-MAJ-1")  # different locations
    play(ref, "decide 0 judgement 2")
    play(ref, "+loc:2 pawn_cups_king")  # where the answer put it: changes nothing
    play(ref, "+loc:10 pawn_swords_queen")
    state = st(ref)
    assert state.judgement is None and state.phase == "draw"
    assert state.pawns[PAWN_INDEX["pawn_cups_king"]] == 2
    assert public(ref)["reputation"] == {"swords": 0, "coins": 0, "wands": 0, "cups": 0}


def test_world_hide_then_halved_fame_without_reset() -> None:
    ref = start(3)
    set_state(ref, rep=(5, 5, 2, 9))
    play(ref, "+play major_21", "decide 0 hide pass")
    state = st(ref)
    assert state.phase == "fame" and public(ref)["fame"]["kind"] == "world"
    assert public(ref)["fame"]["order"] == ["cups", "swords", "coins", "wands"]
    play(ref, "decide organiser fame reveal")  # cups row 1: seat 0 (cups_6) 8 ...
    play(ref, "decide 1 fame reveal", "decide 2 fame reveal", "decide 0 fame reveal")
    state = st(ref)
    assert state.phase == "play" and state.fame is None
    assert state.vp == (0, 4, 8)  # cups 6 < 7 < 8: seat 2 dominance 8, seat 1 influence 4
    assert public(ref)["reputation"] == {"swords": 5, "coins": 5, "wands": 2, "cups": 9}
    assert [len(state.hidden(s)) for s in range(3)] == [1, 1, 1]
    assert public(ref)["history"][0]["kind"] == "world"
    assert public(ref)["discards"]["major"] == ["major_21"]
    assert GAME.secrets(ref.state, 0) == frozenset()  # everybody saw them
    assert state.loc_of("cups_6") == "hide:0" and state.loc_of("major_00") == UNSEEN
    assert PAWNS  # the turn goes on: seat 0 still plays its minor
    assert "play a minor" in GAME.waiting_for(ref.state)
