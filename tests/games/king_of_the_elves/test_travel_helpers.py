"""Builders for the travel tests: the rulebook's table of examples 2 and 3 (the contract's
"Golden scripts" assignment), cards laid one by one with the ledger checked after each."""

from __future__ import annotations

from typing import Any

from scorekeeper.core.inputs import Decision
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.rule_ids import TABLE_RULES
from scorekeeper.games.king_of_the_elves import rounds, travel
from scorekeeper.games.king_of_the_elves.deck import deck_of, load_shipped
from scorekeeper.games.king_of_the_elves.ledger import balance_from_entries
from scorekeeper.games.king_of_the_elves.rule_ids import RULES
from scorekeeper.games.king_of_the_elves.state import (
    TRAVEL,
    Options,
    Special,
    State,
    Village,
    escrow_account,
    evolve,
    purse_account,
    seat_with,
)

DECK = deck_of(load_shipped("assumed"))
ANITA, JENO, MARK, EVA = 0, 1, 2, 3
NAMES = ("Anita", "Jenő", "Márk", "Éva")


def special(card: str, owner: int) -> Special:
    """A special card laid by ``owner`` (its type from the id)."""
    return Special(card, card.rpartition("_")[0], owner)


# Anita river 2 (Éva's sea monster); Jenő forest 4 (Márk's fallen tree, Anita's gold card);
# Márk desert 6 (Jenő's thief), plain 3; Éva mountain 5: the assumed manifest's cards.
EXAMPLE: dict[int, tuple[Village, ...]] = {
    ANITA: (Village("village_05", "river", 2, obstacle=special("sea_monster_1", EVA)),),
    JENO: (
        Village(
            "village_18",
            "forest",
            4,
            gold=special("gold_1", ANITA),
            obstacle=special("fallen_tree_1", MARK),
        ),
    ),
    MARK: (
        Village("village_09", "desert", 6, thief=special("thief_1", JENO)),
        Village("village_23", "plain", 3),
    ),
    EVA: (Village("village_13", "mountain", 5),),
}


def table(
    traveller: int,
    hand: int = 10,
    villages: dict[int, tuple[Village, ...]] | None = None,
    **options: Any,
) -> State:
    """Four seats at the start of ``traveller``'s journey on the example's table (or
    ``villages``), the traveller holding ``hand`` cards, with ``options`` (Options fields)."""
    state = rounds.new_state(4, Options(crests="abcd", **options), DECK)
    layout = EXAMPLE if villages is None else villages
    seats = tuple(
        seat_with(seat, villages=layout.get(s, ()), hand=hand if s == traveller else seat.hand)
        for s, seat in enumerate(state.seats)
    )
    state = evolve(state, seats=seats, phase=TRAVEL, planning=None, active_seat=traveller)
    return evolve(state, journey=travel.new_journey(state, traveller))


def check_ledger(state: State) -> None:
    """Each purse and escrow equals its ledger entries, in minus out; none is negative."""
    for s, seat in enumerate(state.seats):
        assert balance_from_entries(state, purse_account(s)) == seat.purse >= 0
        assert balance_from_entries(state, escrow_account(s)) == seat.escrow >= 0


def accepted(outcome: Accepted[State] | Rejected) -> State:
    """The accepted state (fails on a refusal, showing it), its ledger checked."""
    assert isinstance(outcome, Accepted), outcome
    check_ledger(outcome.state)
    return outcome.state


def lay(state: State, *cards: str) -> State:
    """Each card laid on the road pad in turn, every one accepted."""
    for card in cards:
        state = accepted(travel.on_road(state, card))
    return state


def answer(state: State, prompt: str, reply: str) -> State:
    """The traveller's answer, accepted."""
    assert state.journey is not None
    return accepted(travel.on_decision(state, Decision(state.journey.seat, prompt, reply)))


def refused(outcome: Accepted[State] | Rejected, rule: str) -> Rejected:
    """The refusal, checked to name ``rule`` (a declared refusal) and to give a way on."""
    assert isinstance(outcome, Rejected), outcome
    assert outcome.rule == rule, outcome
    assert outcome.reason and outcome.hint, outcome
    assert rule in RULES.refusals or rule in TABLE_RULES.refusals, f"{rule} is no refusal"
    return outcome


def gold_from(state: State, reason: str, seat: int) -> int:
    """The gold of ledger entries of ``reason`` into ``seat``'s purse (out of it, negative)."""
    mine = purse_account(seat)
    return sum(
        e.amount if e.to == mine else -e.amount
        for e in state.ledger
        if e.reason == reason and mine in (e.to, e.frm)
    )


def test_the_example_table_is_the_contracts() -> None:
    state = table(ANITA)
    assert [len(s.villages) for s in state.seats] == [1, 1, 2, 1]
    assert [DECK.terrain(v.card) for s in state.seats for v in s.villages] == [
        "river",
        "forest",
        "desert",
        "plain",
        "mountain",
    ]
    assert [s.purse for s in state.seats] == [7, 7, 7, 7]
    check_ledger(state)
