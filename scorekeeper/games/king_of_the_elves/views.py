"""What each audience may see of a King of the Elves table (filtered here and nowhere else).

Public: the whole table (villages with their special cards and owners), counts (hands, piles),
purchases and escrow, the planning record, the journey (journey.py's ``journey_view``), the
finished journeys, and at the end every purse with its sources. A seat's own view adds its
``gold`` (the purse), ``gold_sources`` and ``ledger``; the organiser's adds them for every seat
and the whole ledger. Hazard: nothing public may carry a purse or anything computed from one
during play (the perturbation check, tests/perturb_values.py): ``gold_about`` only with
``public_gold: band``.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.king_of_the_elves import journey, ledger
from scorekeeper.games.king_of_the_elves.state import (
    LedgerEntry,
    Special,
    State,
    Village,
)

BAND = 5


def _special(x: Special | None) -> dict[str, Any] | None:
    return None if x is None else {"card": x.card, "type": x.type, "owner": x.owner}


def _village(v: Village) -> dict[str, Any]:
    return {
        "card": v.card,
        "terrain": v.terrain,
        "value": v.value,
        "gold": _special(v.gold),
        "thief": _special(v.thief),
        "obstacle": _special(v.obstacle),
    }


def entry_dict(e: LedgerEntry) -> dict[str, Any]:
    """A ledger entry as views show it (``about`` may hold ``{seat:n}`` markers)."""
    return {
        "n": e.n,
        "round": e.round,
        "reason": e.reason,
        "rule": e.rule,
        "from": e.frm,
        "to": e.to,
        "amount": e.amount,
        "about": e.about,
    }


def _planning(state: State) -> dict[str, Any] | None:
    pl = state.planning
    if pl is None:
        return None
    action = None
    if pl.action is not None:
        action = {"seat": pl.action.seat, "kind": pl.action.kind, "needs": pl.action.needs}
        if pl.action.kind == "pay":
            action["needs"] = pl.action.amount
    return {
        "passes": pl.passes,
        "action": action,
        "slides": [{"seat": x.seat, "card": x.card, "to": x.to} for x in pl.slides],
    }


def public(state: State) -> dict[str, Any]:
    """The view safe for the TV and spectators."""
    seats = []
    for s, seat in enumerate(state.seats):
        entry: dict[str, Any] = {
            "seat": s,
            "crest": seat.crest,
            "hand": seat.hand,
            "villages": [_village(v) for v in seat.villages],
            "placed": seat.placed,
            "bought": seat.bought,
            "escrow": seat.escrow,
            "travelled": seat.travelled,
        }
        if state.over:
            _add_gold(state, entry, s)
        elif state.options.public_gold == "band":
            entry["gold_about"] = seat.purse // BAND * BAND
        seats.append(entry)
    return {
        "phase": state.phase,
        "round": state.round,
        "rounds": state.rounds,
        "start_seat": state.start_seat,
        "active_seat": state.active_seat,
        "deck": {"name": state.deck.name, "assumed": state.deck.assumed},
        "draw_pile": state.draw_pile,
        "discard_pile": state.discard_pile,
        "seats": seats,
        "planning": _planning(state),
        "journey": journey.journey_view(state),
        "history": [
            {
                "round": h.round,
                "seat": h.seat,
                "visits": h.visits,
                "cards": h.cards,
                "collected": h.collected,
                "paid": h.paid,
                "bonus": h.bonus,
            }
            for h in state.history
        ],
        "winners": list(state.winners),
        "over": state.over,
        "options": dict(state.options.raw),
    }


def _add_gold(state: State, entry: dict[str, Any], s: int) -> None:
    entry["gold"] = ledger.purse(state, s)
    entry["gold_sources"] = ledger.sources(state, s)


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus this seat's purse, its sources and its ledger entries."""
    out = public(state)
    entry = out["seats"][seat]
    _add_gold(state, entry, seat)
    entry.pop("gold_about", None)
    entry["ledger"] = [entry_dict(e) for e in ledger.entries_of(state, seat)]
    return out


def organiser(state: State) -> dict[str, Any]:
    """The public view plus every seat's purse, sources and entries, and the whole ledger."""
    out = public(state)
    for s in range(state.n):
        entry = out["seats"][s]
        _add_gold(state, entry, s)
        entry.pop("gold_about", None)
        entry["ledger"] = [entry_dict(e) for e in ledger.entries_of(state, s)]
    out["ledger"] = [entry_dict(e) for e in state.ledger]
    return out
