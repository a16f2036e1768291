"""What the intrigue phase asks of the state again and again: whose a card is, where the
referee has it, what a district is to a seat, whether a card may be laid there, how a card is
named in a refusal everyone reads.

Pure functions over State; no module of the intrigue phase keeps anything of its own.
Hazard: ``refused_card`` is the one place that decides whether a refusal may name a card: a
card laid at a district friendly to its owner would have lain face down, so it is named to
nobody (the refusal text is seen by all, docs/games/arcana.md, "Details the referee settles").
"""

from __future__ import annotations

from collections.abc import Callable

from scorekeeper.core.evolve import evolver
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana import zones
from scorekeeper.games.arcana.cards import (
    BADGE,
    EVENT,
    FIRST_PLAYER,
    GUILD_CARD_TYPES,
    MASTER,
    OBJECTIVE,
    PRINCES_GAMES,
    PRINCES_GAMES_CARD,
    WATCH_CARDS,
    guild_of_id,
)
from scorekeeper.games.arcana.names import district_words, possessive, the_card
from scorekeeper.games.arcana.state import (
    NEUTRAL,
    District,
    Placed,
    Seat,
    State,
)

seat_with: Callable[..., Seat] = evolver(Seat)
"""``seat_with(seat, **changes)``: a Seat with ``changes``."""
district_with: Callable[..., District] = evolver(District)
"""``district_with(district, **changes)``: a District with ``changes``."""
placed_with: Callable[..., Placed] = evolver(Placed)
"""``placed_with(placed, **changes)``: a Placed with ``changes``."""

NOT_AGENTS: frozenset[str] = frozenset(
    (BADGE, MASTER, OBJECTIVE, EVENT, FIRST_PLAYER, PRINCES_GAMES)
)
"""Card types that never go to a district (R-INT-3)."""


def owner_of(state: State, piece: str) -> int | None:
    """The seat a card belongs to: the seat that owns it (its guild cards, its won stakes),
    the caller of a watch card at a district, or for a guild card no seat owns (returned to
    the box with ``custom_guild``) the seat of its guild. None for a card of nobody."""
    for k, seat in enumerate(state.seats):
        if piece in seat.owned:
            return k
    if piece in WATCH_CARDS:
        found = placed_at(state, piece)
        return found[1].owner if found is not None else None
    guild = guild_of_id(piece)
    if guild and not piece.startswith(("badge_", "master_")):
        for k, seat in enumerate(state.seats):
            if seat.guild == guild:
                return k
    return None


def boxed(state: State, piece: str) -> Rejected | None:
    """R-OPT-B-1: a guild card left in the box arriving anywhere once play has begun: one a
    seat sent back in setup (custom guild), or without the custom guild a card marked B of a
    guild in play. None for any other card. The refusal names no card: the returned cards
    are secret."""
    if any(piece in seat.returned for seat in state.seats):
        return Rejected(
            "R-OPT-B-1",
            "that card went back to the box at the start: it is not in play",
            "take it off and put it back in the box",
        )
    card = state.card(piece)
    if card is None or card.type not in GUILD_CARD_TYPES or state.options.custom_guild:
        return None
    for seat in state.seats:
        if seat.guild == card.guild and piece not in seat.owned:
            return Rejected(
                "R-OPT-B-1",
                "that card is marked B: without the custom guild it stays in the box",
                "take it off and put it back in the box; only the cards marked A are played",
            )
    return None


def placed_at(state: State, piece: str) -> tuple[District, Placed] | None:
    """The district and the agent a card lies at (the agent itself, or the agent a relic lies
    on), or None when the card is at no district."""
    for district in state.districts:
        for one in district.agents:
            if one.card == piece or piece in one.relics:
                return district, one
    return None


def elsewhere(state: State, seat: int) -> frozenset[str]:
    """The cards of ``seat`` the referee has outside its deck and hand: its discard pile,
    under its badge, at the districts, and a stake it has won but not yet placed (a
    ``set_aside`` step)."""
    out = set(state.seats[seat].discard) | set(state.seats[seat].set_aside)
    for district in state.districts:
        for one in district.agents:
            if one.owner == seat:
                out.add(one.card)
                out.update(one.relics)
    out.update(s.card for s in state.steps if s.kind == "set_aside" and s.seat == seat)
    return frozenset(out)


def relation(state: State, seat: int, did: str) -> str:
    """ "friendly", "neutral" or "enemy": what district ``did`` is to ``seat``."""
    return zones.relation(len(state.seats), seat, did)


def face_up_at(state: State, seat: int, did: str) -> bool:
    """The face an agent of ``seat`` takes at ``did``: down at a friendly district, up
    elsewhere (R-INT-2, R-INT-6, G-29)."""
    return relation(state, seat, did) != zones.FRIENDLY


def refused_card(state: State, piece: str, owner: int | None, did: str = "") -> str:
    """A card as a refusal everyone reads may name it: "{seat:0}'s card" when it was laid at
    a district friendly to its owner (it would have lain face down), else by its name."""
    if did and owner is not None and not face_up_at(state, owner, did):
        return f"{possessive(owner)} card"
    return the_card(state.pack, piece)


def closed(state: State, did: str, what: str) -> Rejected | None:
    """Why nothing may be laid at ``did`` now, or None: an empty district (G-5), the neutral
    district under the Prince's Games card (G-6), a district awaiting its next stake after an
    immediate win (G-35). ``what`` is the card in refusal words."""
    district = state.district(did)
    where = district_words(did)
    if district.awaiting:
        return Rejected(
            "G-35",
            f"{what} cannot go to {where}: its next stake is not turned up yet",
            f"take it back; turn up {where}'s next stake first",
        )
    if did == NEUTRAL and district.stake == PRINCES_GAMES_CARD:
        return Rejected(
            "G-6",
            f"{what} cannot go to {where}: the Prince's Games card lies there, it has no stake",
            "take it back and lay it at a district with a stake",
        )
    if district.stake is None:
        return Rejected(
            "G-5",
            f"{what} cannot go to {where}: it has no stake",
            "take it back and lay it at a district with a stake",
        )
    return None


def turn_refusal(state: State, what: str, where: str = "") -> Rejected:
    """R-INT-1: a card of a seat not on turn (``where`` says where it was laid)."""
    at = f" at {where}" if where else ""
    return Rejected(
        "R-INT-1",
        f"{what} cannot be played{at}: it is {seat_ref(state.active_seat)}'s turn",
        f"take it back; it is {seat_ref(state.active_seat)}'s turn",
    )


def step_refusal(state: State, what: str) -> Rejected:
    """R-INT-1: a card laid while the table waits for something else of the current action."""
    return Rejected(
        "R-INT-1",
        f"{what} cannot be played now: {seat_ref(state.active_seat)}'s action is not finished",
        "take it back; first finish the action under way (see the waiting line)",
    )


def empty_hand(state: State, what: str, seat: int) -> Rejected:
    """G-32: a card from a hand the referee counts empty."""
    return Rejected(
        "G-32",
        f"{what} cannot have come from {possessive(seat)} hand: it holds no cards",
        "put it back where it came from",
    )


def from_pile(state: State, what: str, seat: int) -> Rejected:
    """G-32: a card the referee has on a discard pile or under a badge, played as if from the
    hand."""
    return Rejected(
        "G-32",
        f"{what} is on {possessive(seat)} discard pile or under the badge, not in the hand",
        "put it back where it came from",
    )
