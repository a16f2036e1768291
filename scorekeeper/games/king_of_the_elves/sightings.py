"""Judging sightings: a piece arriving at a zone (contract, "Inputs").

Only arrivals change anything: a departure is always accepted and changes nothing (a card
lifted off a tap pad is on its way to the pile; a village lifted at the end of a round is being
swept). An arrival of a piece the referee already has there changes nothing either. A scan
carries no seat: while planning it is the actor's, during travel the traveller's.
"""

from __future__ import annotations

from scorekeeper.core.answering import UNKNOWN_TAG, game_over, unknown_zone
from scorekeeper.core.inputs import Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.games.king_of_the_elves import planning, rounds, specials, zones
from scorekeeper.games.king_of_the_elves.cards import PLANNING_SPECIALS, card_type, kind_of
from scorekeeper.games.king_of_the_elves.state import TRAVEL, State, village_at
from scorekeeper.games.king_of_the_elves.words import card_words


def observe(state: State, seen: Seen) -> Outcome:
    """Judge a piece arriving at (or leaving) a zone."""
    if not seen.present:
        return Accepted(state)
    if state.over:
        return game_over()
    where = zones.parse(seen.zone)
    if where is None or where[2] >= state.n or where[1] > zones.slots_for(state.n):
        return unknown_zone(seen.zone, zones.zone_names(state.n))
    piece = seen.piece
    kind = kind_of(piece)
    if not kind:
        return Rejected(UNKNOWN_TAG, "that tag is no piece of this game", "take it off the reader")
    pad, slot, seat = where
    if kind == "token":
        if pad in (zones.ROAD, zones.DISCARD):
            return Rejected(
                "R-PLAN-8",
                "a token lies on its owner's special card, never on a tap pad",
                "take it off; keep it in your supply",
            )
        return specials.lay_token(state, pad, seat, slot, piece)
    if state.phase == TRAVEL:
        return _travel(state, pad, slot, seat, piece, kind)
    if pad == zones.ROAD:
        if piece in state.discarded:
            return Accepted(state)
        return Rejected(
            "R-TRAVEL-1",
            f"{card_words(piece, state.deck)} is laid on a journey, not while planning",
            "put it back; keep it until the journeys",
        )
    if pad == zones.DISCARD:
        return planning.on_discard(state, piece)
    if kind == "village":
        if pad == zones.VILLAGE:
            return planning.lay_village(state, seat, slot, piece)
        return Rejected(
            "R-PLAN-3",
            "a village goes on a village pad",
            "lay it on the village pad of the next free place",
        )
    if kind == "special":
        return specials.lay_special(state, pad, seat, slot, piece)
    return Rejected(
        "R-TRAVEL-1",
        f"{card_words(piece)} is laid on a journey, not while planning",
        "put it back; keep it until the journeys",
    )


def _known_here(state: State, pad: str, slot: int, seat: int, piece: str) -> bool:
    """Whether ``piece`` lies on this pad by the referee's state."""
    village = village_at(state, seat, slot)
    if village is None:
        return False
    if pad == zones.VILLAGE:
        return piece == village.card or (
            village.obstacle is not None and village.obstacle.card == piece
        )
    return any(x.card == piece for x in (village.gold, village.thief) if x is not None)


def _travel(state: State, pad: str, slot: int, seat: int, piece: str, kind: str) -> Outcome:
    """An arrival during the travel phase: the road pad is the journey's (travel.py)."""
    from scorekeeper.games.king_of_the_elves import travel

    if pad == zones.ROAD:
        out = travel.on_road(state, piece)
        if isinstance(out, Accepted) and out.state.journey is None:
            ev = list(out.events)
            return Accepted(rounds.after_journey(out.state, ev), tuple(ev))
        return out
    j = state.journey
    if piece in state.discarded or (j is not None and piece in j.spent):
        return Accepted(state)
    if pad != zones.DISCARD and _known_here(state, pad, slot, seat, piece):
        return Accepted(state)
    if kind == "village":
        return Rejected(
            "R-PLAN-3",
            f"{card_words(piece, state.deck)} cannot be laid during the journeys",
            "put it back; keep it: villages are laid while planning",
        )
    if card_type(piece) in PLANNING_SPECIALS:
        return Rejected(
            "G-19",
            f"a {card_words(piece)[2:]} is laid while planning, not on a journey",
            "put it back; keep it for the next planning phase",
        )
    return Rejected(
        "R-TRAVEL-6",
        f"{card_words(piece)} is laid on the road pad on a journey",
        "put it back; lay journey cards on the road pad",
    )
