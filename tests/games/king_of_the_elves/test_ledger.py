"""The gold ledger: every movement an entry, balances from the entries, never negative, and the
sources of a purse adding up to it."""

from __future__ import annotations

import pytest

from scorekeeper.games.king_of_the_elves import ledger
from scorekeeper.games.king_of_the_elves.ledger import SOURCE_KEYS
from scorekeeper.games.king_of_the_elves.state import BANK, escrow_account, purse_account
from tests.games.king_of_the_elves.test_elves_helpers import check_ledger, new


def test_moves_append_numbered_entries_and_change_balances() -> None:
    state = new(3)
    state = ledger.move(state, purse_account(0), escrow_account(0), 2, "buy", "x")
    state = ledger.move(state, purse_account(1), purse_account(0), 2, "thief", "y")
    state = ledger.move(state, BANK, purse_account(1), 6, "village", "z")
    assert [e.n for e in state.ledger] == [1, 2, 3, 4, 5, 6]
    # each entry cites its reason's rule (R-SETUP-5 for the three starting purses)
    assert [e.rule for e in state.ledger[3:]] == ["R-PLAN-6", "R-TRAVEL-7", "R-TRAVEL-8"]
    assert [s.purse for s in state.seats] == [7, 11, 7]
    assert state.seats[0].escrow == 2
    assert ledger.purse(state, 1) == 11 and ledger.can_pay(state, 0, 7)
    assert not ledger.can_pay(state, 0, 8)  # escrow never counts
    check_ledger(state)
    assert len(ledger.entries_of(state, 0)) == 3  # start, buy, thief in
    assert ledger.move(state, BANK, purse_account(0), 0, "bonus", "") == state


def test_no_balance_ever_goes_negative() -> None:
    state = new(2)
    with pytest.raises(AssertionError):
        ledger.move(state, purse_account(0), BANK, 8, "remove", "x")
    with pytest.raises(AssertionError):
        ledger.move(state, escrow_account(0), BANK, 1, "buy_paid", "x")
    with pytest.raises(ValueError):
        ledger.move(state, "purse:x", BANK, 1, "remove", "x")
    with pytest.raises(ValueError):
        ledger.move(state, purse_account(0), BANK, 1, "gift", "x")


def test_sources_have_every_key_and_sum_to_the_purse() -> None:
    state = new(2)
    moves = [
        (BANK, purse_account(0), 7, "village"),
        (BANK, purse_account(0), 7, "gold_card"),
        (BANK, purse_account(0), 10, "bonus"),
        (purse_account(1), purse_account(0), 2, "thief"),
        (purse_account(0), purse_account(1), 2, "thief"),
        (purse_account(0), escrow_account(0), 3, "buy"),
        (escrow_account(0), BANK, 3, "buy_paid"),
        (purse_account(0), BANK, 4, "remove"),
        (purse_account(0), BANK, 3, "teleport"),
    ]
    for frm, to, amount, reason in moves:
        state = ledger.move(state, frm, to, amount, reason, "")
    sources = ledger.sources(state, 0)
    assert tuple(sources) == SOURCE_KEYS
    assert sources == {
        "start": 7,
        "villages": 7,
        "gold_cards": 7,
        "bonuses": 10,
        "thieves_in": 2,
        "thieves_out": -2,
        "purchases": -3,
        "removals": -4,
        "teleports": -3,
    }
    assert sum(sources.values()) == state.seats[0].purse == 21
    check_ledger(state)
