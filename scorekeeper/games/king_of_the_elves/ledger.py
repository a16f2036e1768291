"""The gold ledger (contract, "The gold ledger"): the only code that moves gold.

Every movement is one ``LedgerEntry`` appended to ``State.ledger`` while the purse or escrow it
touches changes with it, so each purse always equals its entries, in minus out. The bank is
unlimited (G-21). Hazard: ``move`` asserts that no purse or escrow goes negative; it is not a
refusal. Callers check first (``can_pay``) and refuse with their rule before anything moves.
"""

from __future__ import annotations

from scorekeeper.games.king_of_the_elves.rule_ids import LEDGER_RULES
from scorekeeper.games.king_of_the_elves.state import (
    BANK,
    LedgerEntry,
    State,
    evolve,
    seat_with,
)

# Reasons (LedgerEntry.reason) and the gold_sources key each one feeds; the sign is the
# direction seen from the seat's purse.
REASONS: tuple[str, ...] = (
    "start",
    "buy",
    "buy_paid",
    "remove",
    "thief",
    "village",
    "gold_card",
    "bonus",
    "teleport",
)
SOURCE_KEYS: tuple[str, ...] = (
    "start",
    "villages",
    "gold_cards",
    "bonuses",
    "thieves_in",
    "thieves_out",
    "purchases",
    "removals",
    "teleports",
)
_SOURCE_OF = {
    "start": "start",
    "village": "villages",
    "gold_card": "gold_cards",
    "bonus": "bonuses",
    "buy": "purchases",
    "remove": "removals",
    "teleport": "teleports",
}


def _account(name: str) -> tuple[str, int]:
    """``purse:3`` -> ("purse", 3); ``bank`` -> ("bank", -1)."""
    if name == BANK:
        return BANK, -1
    kind, _, seat = name.partition(":")
    if kind not in ("purse", "escrow") or not seat.isdigit():
        raise ValueError(f"not a ledger account: {name!r}")
    return kind, int(seat)


def _change(state: State, account: str, delta: int) -> State:
    kind, s = _account(account)
    if kind == BANK:
        return state
    seat = state.seats[s]
    if kind == "purse":
        after = seat.purse + delta
        assert after >= 0, f"{account} would go negative ({after}): the caller checks first"
        new = seat_with(seat, purse=after)
    else:
        after = seat.escrow + delta
        assert after >= 0, f"{account} would go negative ({after}): the caller checks first"
        new = seat_with(seat, escrow=after)
    seats = list(state.seats)
    seats[s] = new
    return evolve(state, seats=tuple(seats))


def move(state: State, frm: str, to: str, amount: int, reason: str, about: str) -> State:
    """``state`` with ``amount`` gold moved from account ``frm`` to ``to`` and the entry
    appended (numbered from 1), citing the rule of its ``reason`` (rule_ids.LEDGER_RULES: the
    one place an applied rule's id is spelled). An amount of 0 moves nothing and records
    nothing.

    Raises AssertionError if a purse or escrow would go negative (callers check first) and
    ValueError for an unknown account or reason."""
    if reason not in REASONS:
        raise ValueError(f"not a ledger reason: {reason!r}")
    if amount < 0:
        raise ValueError(f"a ledger amount is never negative: {amount}")
    if amount == 0:
        return state
    state = _change(state, frm, -amount)
    state = _change(state, to, amount)
    entry = LedgerEntry(
        n=len(state.ledger) + 1,
        round=state.round,
        reason=reason,
        rule=LEDGER_RULES[reason],
        frm=frm,
        to=to,
        amount=amount,
        about=about,
    )
    return evolve(state, ledger=(*state.ledger, entry))


def purse(state: State, s: int) -> int:
    """Seat ``s``'s purse (escrow not included). Private to the seat until the game is over."""
    return state.seats[s].purse


def can_pay(state: State, s: int, amount: int) -> bool:
    """Whether seat ``s``'s purse holds ``amount`` (escrow never counts: G-12, G-13)."""
    return state.seats[s].purse >= amount


def entries_of(state: State, s: int) -> tuple[LedgerEntry, ...]:
    """The entries from or to seat ``s``'s purse or escrow (its own view's ``ledger``)."""
    mine = (f"purse:{s}", f"escrow:{s}")
    return tuple(e for e in state.ledger if e.frm in mine or e.to in mine)


def sources(state: State, s: int) -> dict[str, int]:
    """Seat ``s``'s purse by source (contract, ``gold_sources``): every key of SOURCE_KEYS,
    outgoing ones negative, summing to the purse. A purchase counts when it leaves the purse
    for the escrow; the escrow's payment to the bank (``buy_paid``) is not counted again."""
    out = dict.fromkeys(SOURCE_KEYS, 0)
    mine = f"purse:{s}"
    for e in state.ledger:
        if e.to != mine and e.frm != mine:
            continue
        sign = 1 if e.to == mine else -1
        if e.reason == "thief":
            out["thieves_in" if sign > 0 else "thieves_out"] += sign * e.amount
        elif e.reason in _SOURCE_OF:
            out[_SOURCE_OF[e.reason]] += sign * e.amount
    return out


def balance_from_entries(state: State, account: str) -> int:
    """An account's balance worked out from the ledger alone (tests: it must equal the
    purse or escrow the state holds)."""
    total = 0
    for e in state.ledger:
        if e.to == account:
            total += e.amount
        if e.frm == account:
            total -= e.amount
    return total
