"""Rounds and the end of the game: journeys in turn after planning (R-TRAVEL-1), the end of a
round (R-END-2 … 6), the deal (R-SETUP-10, G-14, G-26), the winners (R-END-8, G-22)."""

from __future__ import annotations

from scorekeeper.games.king_of_the_elves import piles
from scorekeeper.games.king_of_the_elves.state import OVER, PLANNING, TRAVEL, evolve, with_seat
from tests.games.king_of_the_elves.test_elves_helpers import (
    GAME,
    decide,
    new,
    pass_round,
    see,
    with_villages,
)


def _to_travel(n: int = 3, **options: object):  # type: ignore[no-untyped-def]
    state = with_villages(new(n, **options), s0=("village_05",), s1=("village_18",))
    state = with_villages(state, s2=("village_09",))
    state = see(state, "attach_1:1", "thief_1")  # the start player's thief: a card on the table
    return pass_round(state)


def _table_cards(state) -> int:  # type: ignore[no-untyped-def]
    return sum(1 + len(v.specials()) for seat in state.seats for v in seat.villages)


def test_journeys_go_clockwise_from_the_start_player_then_the_round_ends() -> None:
    state = _to_travel(3, start_seat=1)
    assert state.phase == TRAVEL and state.active_seat == 1
    order = []
    while state.phase == TRAVEL:
        order.append(state.active_seat)
        state = decide(state, state.active_seat, "journey", "stop")
    assert order == [1, 2, 0]
    assert (state.phase, state.round, state.start_seat, state.active_seat) == (PLANNING, 2, 2, 2)
    assert all(not s.villages and s.placed == 0 and not s.travelled for s in state.seats)
    assert [h.seat for h in state.history] == [1, 2, 0]
    hands = sum(s.hand for s in state.seats)
    # All shuffled in: 120 cards, and the 3 villages the builder put straight on the table.
    assert state.discard_pile == 0 and state.draw_pile + hands == 123
    assert [s.hand for s in state.seats] == [18, 17, 18]  # 10 + 8, seat 1 laid the thief


def test_the_last_round_ends_the_game_with_every_purse_public() -> None:
    state = new(2)
    for _ in range(2):
        state = with_villages(state, s0=("village_05",), s1=("village_18",))
        state = pass_round(state)
        while state.phase == TRAVEL:
            state = decide(state, state.active_seat, "journey", "stop")
    assert state.phase == OVER and state.winners == (0, 1)  # tied: both win (G-22)
    assert GAME.scores(state) == (7, 7) and GAME.is_over(state)
    assert GAME.pending(state) == () and GAME.private_values(state, 0) == {}
    public = GAME.view(state, "public")
    assert public["seats"][0]["gold"] == 7 and public["seats"][0]["gold_sources"]["start"] == 7


def test_a_richer_seat_wins_alone() -> None:
    state = with_seat(new(2), 1, purse=9)
    ev: list[str] = []
    from scorekeeper.games.king_of_the_elves import rounds

    over = rounds.game_over(state, ev)
    assert over.winners == (1,) and "wins with 9 gold" in ev[-1]


def test_g14_refill_and_g26_short_deal() -> None:
    state = evolve(new(3), draw_pile=2, discard_pile=5)
    state, drawn = piles.draw(state, 4)
    assert (drawn, state.draw_pile, state.discard_pile) == (4, 3, 0)
    short = evolve(new(3, start_seat=1), draw_pile=4, discard_pile=3)
    hands = [s.hand for s in short.seats]
    dealt = piles.deal(short, 8)
    # 7 cards for 3 seats, one at a time from the start player (seat 1): 3, 2, 2 more.
    assert [a - b for a, b in zip((s.hand for s in dealt.seats), hands, strict=True)] == [2, 3, 2]
    assert dealt.draw_pile == dealt.discard_pile == 0
