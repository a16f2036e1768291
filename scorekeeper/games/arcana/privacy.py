"""What only one seat may know at an Arcana table, what may stand in for it, and where the
referee knows a card to lie (docs/games/arcana.md, "Private information").

- ``secrets``: a seat's face-down agents and watch cards at districts, the cards known to be in
  its hand (G-37), its kept objectives, and with ``custom_guild`` the guild cards it kept and
  the ones it returned, while no one else has seen them.
- ``hidden_kind_for``: the kind of card that could stand in for a secret one (the perturbation
  check, tests/perturb.py): read from the table's pack, so it needs the pack.
- ``locate``: a card's zone, or "" when it is out of sight (a deck, a hand, a pile, the box).
- ``owner_of``: the seat a card belongs to as the referee knows it.

Hazard: the state keeps no record of which kept guild cards were once seen and then shuffled
back into a deck (custom guild). Such a card counts as secret again: a cautious excess (its
identity is never shown while it is out of sight), never a leak.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.arcana.cards import (
    GUILD_CARD_TYPES,
    OBJECTIVE,
    PIECES,
    WATCH,
    WATCH_CARDS,
    Pack,
    guild_of_id,
)
from scorekeeper.games.arcana.state import District, Options, Placed, State

_PIECE_SET = frozenset(PIECES)


def placed_at(state: State, piece: str) -> tuple[District, Placed] | None:
    """The district and the agent ``piece`` is, or lies on as a relic; None elsewhere."""
    for district in state.districts:
        for placed in district.agents:
            if placed.card == piece or piece in placed.relics:
                return district, placed
    return None


def face_down_at(state: State, piece: str) -> District | None:
    """The district where ``piece`` lies face down as an agent (or watch card), else None."""
    for district in state.districts:
        for placed in district.agents:
            if placed.card == piece and not placed.face_up:
                return district
    return None


def secrets(state: State, seat: int) -> frozenset[str]:
    """The piece ids only ``seat`` (and the organiser) may know now. The agents at the district
    being resolved are no one's secret, whatever their recorded face (G-9)."""
    out: set[str] = set()
    revealed = state.resolution.district if state.resolution is not None else ""
    for district in state.districts:
        if district.id == revealed:
            continue  # every card at the district being resolved is shown (G-9)
        out.update(p.card for p in district.agents if p.owner == seat and not p.face_up)
    me = state.seats[seat]
    out.update(me.hand_known)
    out.update(me.objectives)
    if state.options.custom_guild:
        out.update(me.returned)
        out.update(p for p in me.owned if guild_of_id(p) and locate(state, p) == "")
    return frozenset(out)


def hidden_kind_for(pack: Pack, options: Options | Mapping[str, Any], piece: str) -> str | None:
    """What may stand in for ``piece`` while a seat keeps it hidden: a guild card's guild, type
    and (without ``custom_guild``) letter, ``ferrymen_agent_A``; ``watch`` for a watch card;
    ``objective`` for an objective; None for every other card (a won stake was seen by
    everyone when it was won; badges, masters and events are never secret). ``options`` are
    the rules' Options or the table's resolved options."""
    if piece in WATCH_CARDS:
        return WATCH
    card = pack.card(piece)
    if card is None:
        return None
    if card.type == OBJECTIVE:
        return OBJECTIVE
    guild = guild_of_id(piece)
    if not guild or piece.startswith(("badge_", "master_")) or card.type not in GUILD_CARD_TYPES:
        return None
    if isinstance(options, Options):
        custom = options.custom_guild
    else:
        custom = bool(options.get("custom_guild", False))
    return f"{guild}_{card.type}" if custom else f"{guild}_{card.type}_{card.letter}"


def locate(state: State, piece: str) -> str | None:
    """Where the referee knows ``piece`` to lie: ``stake_<x>`` (a district's face-up stake),
    ``agents_<x>`` (an agent, watch card or relic there, face down included: where it lies is
    public, what it is is not), ``discard:<s>``, ``badge:<s>`` (a badge, a guild master, a
    set-aside stake), ``event`` (the face-up next event); "" when it is out of sight (a deck, a
    hand, a stake pile, the watch deck, a kept objective, the box); None for an id that is no
    piece of the game."""
    if piece not in _PIECE_SET:
        return None
    for district in state.districts:
        if district.stake == piece:
            return f"stake_{district.id}"
        for placed in district.agents:
            if placed.card == piece or piece in placed.relics:
                return f"agents_{district.id}"
    for s, seat in enumerate(state.seats):
        if piece in seat.discard:
            return f"discard:{s}"
        badge = f"badge_{seat.guild}" if seat.guild else ""
        if piece in seat.set_aside or piece == seat.master or piece == badge:
            return f"badge:{s}"
    if state.events is not None and state.events.next == piece:
        return "event"
    return ""


def owner_of(state: State, piece: str) -> int | None:
    """The seat ``piece`` belongs to as the referee knows it (a guild card, badge or master its
    guild's seat; a won stake its winner; a watch card at a district the seat that called it;
    an objective the seat that kept it), None for a card of no seat."""
    found = placed_at(state, piece)
    if found is not None and found[1].card == piece:
        return found[1].owner
    guild = guild_of_id(piece)
    for s, seat in enumerate(state.seats):
        if guild and seat.guild == guild:
            return s
        if piece in seat.owned or piece in seat.set_aside or piece in seat.objectives:
            return s
    return None
