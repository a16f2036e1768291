"""What each audience may see of an Arcanum table (filtered here and nowhere else).

Public: the whole table surface (pawns, reputation, VP, discard piles, played cards, blocked
locations, deck counts), hand and hidden *counts*, and hidden cards only once the Sun or a fame
phase has revealed them. A seat also sees its own hand by kind and its hidden cards; the
organiser sees those of every seat. Nothing public tells whether a Fool is hidden.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.arcanum.cards import CARD_IDS, PAWNS, SUITS
from scorekeeper.games.arcanum.famephase import shown_now
from scorekeeper.games.arcanum.ops import sources_of
from scorekeeper.games.arcanum.reputation import as_dict
from scorekeeper.games.arcanum.state import (
    CARD_INDEX,
    TRAY,
    FameWait,
    Hides,
    Owe,
    Pawn,
    State,
)


def secrets(state: State, seat: int) -> frozenset[str]:
    """Cards only ``seat`` may know now: its face-down hidden cards nobody has seen, and cards
    known to be back in its hand (Temperance)."""
    hide, hand = f"hide:{seat}", f"hand:{seat}"
    public = state.revealed | state.known | shown_now(state)
    return frozenset(
        c
        for c, w in zip(CARD_IDS, state.where, strict=True)
        if (w in (hide, hand)) and c not in public
    )


def _stage(state: State) -> str:
    head = state.head
    t = state.turn
    if head is None:
        return "minor" if t is None or t.minor is None else "major_or_end"
    if isinstance(head, Pawn):
        return "move"
    if isinstance(head, Owe):
        return "discard"
    if isinstance(head, Hides):
        return "hide"
    if isinstance(head, FameWait):
        return "fame"
    return "effect"


def _pawn_loc(loc: int) -> int | str | None:
    if loc == TRAY:
        return "tray"
    return loc if loc > 0 else None


def public(state: State) -> dict[str, Any]:
    """The view safe for the TV and spectators."""
    cfg = state.cfg
    t = state.turn
    seats = []
    for s in range(state.n):
        hidden = state.hidden(s)
        seats.append(
            {
                "seat": s,
                "vp": state.vp[s],
                "vp_sources": sources_of(state, s),
                "hand": state.hand(s),
                "hidden": len(hidden),
                "revealed": [c for c in hidden if c in state.revealed],
            }
        )
    owed: list[dict[str, int]] = []
    for step in state.queue:
        if isinstance(step, Owe):
            owed.append({"seat": step.seat, "count": step.count})
    fs = state.fame
    fame_view = None
    if fs is not None:
        fame_view = {
            "kind": fs.kind,
            "rows": dict(zip(SUITS, fs.rows, strict=True)),
            "order": list(fs.order),
            "scored": [r.to_dict() for r in fs.scored],
        }
    return {
        "phase": state.phase,
        "round": state.round,
        "rounds": cfg.rounds,
        "fame_rounds": list(cfg.fame_rounds),
        "start_seat": state.start,
        "active_seat": t.seat if t is not None else None,
        "reputation": as_dict(state.rep),
        "pawns": {p: _pawn_loc(loc) for p, loc in zip(PAWNS, state.pawns, strict=True)},
        "blocked": sorted(state.blocked),
        "tower": state.tower,
        "judgement": None
        if state.judgement is None
        else {"seat": state.judgement[0], "pawns": list(state.judgement[1])},
        "devil": state.devil,
        "decks": {"minor": state.deck_minor, "major": state.deck_major},
        "discards": {"minor": list(state.pile_minor), "major": list(state.pile_major)},
        "seats": seats,
        "turn": None
        if t is None
        else {"seat": t.seat, "minor": t.minor, "major": t.major, "stage": _stage(state)},
        "owed": owed,
        "fame": fame_view,
        "history": [
            {
                "round": h.round,
                "kind": h.kind,
                "rows": dict(zip(SUITS, h.rows, strict=True)),
                "families": [r.to_dict() for r in h.families],
                "totals": list(h.totals),
            }
            for h in state.history
        ],
        "board": {"name": cfg.board_name, "sample": cfg.sample},
        "winners": list(state.winners),
        "over": state.over,
        "options": dict(cfg.options),
    }


def _add_private(state: State, out: dict[str, Any], seat: int) -> None:
    entry = out["seats"][seat]
    entry["minors"] = state.minors[seat]
    entry["majors"] = state.majors[seat]
    entry["hidden_cards"] = list(state.hidden(seat))
    known = [c for c, w in zip(CARD_IDS, state.where, strict=True) if w == f"hand:{seat}"]
    if known:
        entry["known_hand"] = sorted(known, key=CARD_INDEX.__getitem__)


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus this seat's hand by kind and its hidden cards."""
    out = public(state)
    _add_private(state, out, seat)
    return out


def organiser(state: State) -> dict[str, Any]:
    """The public view plus every seat's hand by kind and hidden cards."""
    out = public(state)
    for s in range(state.n):
        _add_private(state, out, s)
    if state.fame is not None:
        out["fame"]["fool"] = state.fame.fool
    return out
