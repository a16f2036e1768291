"""What each audience may see of an Angels & Demons table (filtered here and nowhere else).

Public and every seat: the whole table surface (talon, melds, discard rows, pads), counts, scores
and history. A seat also sees the cards it took from the talon that are still in its hand; the
organiser sees those of every seat. Nobody else ever does.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.angels_demons.cards import CARD_IDS
from scorekeeper.games.angels_demons.state import State

SOURCES = ("base", "reds", "items", "flips", "penalty")
"""The keys of ``seats[i].points_by_source``, named as in a ``history`` entry."""


def taken(state: State, seat: int) -> frozenset[str]:
    """Cards ``seat`` took from the talon that are still in its hand (its secrets)."""
    mark = f"hand:{seat}"
    return frozenset(c for c, loc in zip(CARD_IDS, state.where, strict=True) if loc == mark)


def points_by_source(state: State) -> list[dict[str, int]]:
    """Per seat, its points summed over the finished rounds (``history``) by source: the
    go-out ``base``, red-card bonuses (``reds``), ``items``, ``flips`` and, negative, the
    discarder ``penalty`` it lost (R-ADV-5). Each seat's values add up to its score."""
    out = [dict.fromkeys(SOURCES, 0) for _ in range(state.n)]
    for r in state.history:
        if r.end != "out" or r.seat is None:
            continue
        mine = out[r.seat]
        mine["base"] += r.base
        mine["reds"] += sum(p for _, p in r.reds)
        mine["items"] += r.items
        mine["flips"] += sum(m for _, m in r.flips)
        if r.penalty and r.discarder is not None:
            out[r.discarder]["penalty"] -= r.penalty
    return out


def public(state: State) -> dict[str, Any]:
    """The view safe for the TV and spectators."""
    waiting = state.waiting
    by_source = points_by_source(state)
    seats = []
    for s in range(state.n):
        b = state.building
        seats.append(
            {
                "seat": s,
                "melds": [list(m) for m in state.melds[s]],
                "laying": list(b.cards) if b is not None and b.seat == s else [],
                "discards": list(state.discards[s]),
                "hand": state.hands[s],
                "waiting": s in waiting,
                "score": state.scores[s],
                "points_by_source": by_source[s],
                "go_outs": state.go_outs[s],
            }
        )
    g = state.going
    going = (
        None
        if g is None
        else {
            "seat": g.seat,
            "via": g.via,
            "cards": list(g.cards),
            "claimed": g.claim.card if g.claim else None,
            "discarder": g.claim.discarder if g.claim else None,
            "candidates": list(g.candidates),
            "flips": [list(f) for f in g.flips],
        }
    )
    c = state.claim
    return {
        "phase": state.phase,
        "round": state.round,
        "max_rounds": state.opts.max_rounds,
        "target_points": state.opts.target_points,
        "start_seat": state.start,
        "active_seat": state.active,
        "talon": list(state.talon),
        "deck": state.deck,
        "seats": seats,
        "claim": None if c is None else {"discarder": c.discarder, "card": c.card},
        "going_out": going,
        "history": [r.to_dict() for r in state.history],
        "winners": list(state.winners),
        "over": state.over,
        "options": state.opts.to_dict(),
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus the cards this seat took ("cards you took")."""
    out = public(state)
    out["taken"] = sorted(taken(state, seat))
    return out


def organiser(state: State) -> dict[str, Any]:
    """The public view plus every seat's taken cards."""
    out = public(state)
    out["taken"] = {str(s): sorted(taken(state, s)) for s in range(state.n)}
    return out
