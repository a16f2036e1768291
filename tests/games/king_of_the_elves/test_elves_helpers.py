"""Builders for the King of the Elves rules-core tests: a new table, inputs fed one by one with
the ledger checked after each, and refusals returned for their rule and words."""

from __future__ import annotations

from typing import Any

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.games.king_of_the_elves import ledger
from scorekeeper.games.king_of_the_elves.game import KingOfTheElves
from scorekeeper.games.king_of_the_elves.state import (
    State,
    Village,
    escrow_account,
    purse_account,
    with_seat,
)

GAME = KingOfTheElves()


def new(n: int = 4, **options: Any) -> State:
    """A new game of ``n`` seats with these options (the assumed deck)."""
    return GAME.new_game(GAME.resolve_options(options, n), n)


def check_ledger(state: State) -> None:
    """Every purse and escrow equals its ledger entries; none is negative; sources add up."""
    for s, seat in enumerate(state.seats):
        assert seat.purse == ledger.balance_from_entries(state, purse_account(s)) >= 0
        assert seat.escrow == ledger.balance_from_entries(state, escrow_account(s)) >= 0
        assert sum(ledger.sources(state, s).values()) == seat.purse


def see(state: State, zone: str, piece: str) -> State:
    """``piece`` arrives at ``zone``: must be accepted."""
    out = GAME.observe(state, Seen(zone, piece, True))
    assert isinstance(out, Accepted), out
    check_ledger(out.state)
    return out.state


def see_refused(state: State, zone: str, piece: str) -> Rejected:
    """``piece`` arrives at ``zone``: must be refused (the state is unchanged by contract)."""
    out = GAME.observe(state, Seen(zone, piece, True))
    assert isinstance(out, Rejected), out.state
    return out


def decide(state: State, seat: int | None, prompt: str, answer: str) -> State:
    """A decision that must be accepted."""
    out = GAME.decide(state, Decision(seat, prompt, answer))
    assert isinstance(out, Accepted), out
    check_ledger(out.state)
    return out.state


def decide_refused(state: State, seat: int | None, prompt: str, answer: str) -> Rejected:
    """A decision that must be refused."""
    out = GAME.decide(state, Decision(seat, prompt, answer))
    assert isinstance(out, Rejected), out.state
    return out


def with_villages(state: State, **by_seat: tuple[str, ...]) -> State:
    """``state`` with villages put straight on the table (``s0=("village_05",)``), not through
    turns: for tests of one rule at a laid-out table."""
    for key, cards in by_seat.items():
        s = int(key[1:])
        villages = tuple(Village(c, state.deck.terrain(c), state.deck.value(c)) for c in cards)
        state = with_seat(state, s, villages=villages)
    return state


def pass_round(state: State) -> State:
    """Every seat passes in turn (each must hold a village): planning ends."""
    for _ in range(state.n):
        assert state.active_seat is not None
        state = decide(state, state.active_seat, "plan", "pass")
    return state


def test_helpers_build_a_checked_table() -> None:
    state = with_villages(new(), s0=("village_05",), s1=("village_18",))
    assert [len(s.villages) for s in state.seats] == [1, 1, 0, 0]
    check_ledger(state)
