"""Arcana's setup phase (docs/games/arcana.md, "Setup"; R-SETUP, R-OPT-B-1, R-OPT-C-1,
R-OPT-E-1, R-OPT-F-1): a new table, and the arrivals it waits for in any order.

Seen: each seat's badge on its badge pad (its guild, R-SETUP-2), with ``guild_masters`` its
master there (G-24), with ``objectives`` its 2 kept objectives there, with ``custom_guild`` its
9 returned cards on its discard pad, each district's first stake on its stake pad, with
``events`` the first event on the event pad. Inferred: each deck of 11 (R-SETUP-3), the pile
counts (R-SETUP-4 … 6, G-1 … G-4), the watch deck (R-OPT-D-1). Round 1 starts when all is seen.

Hazard: kept objectives and returned cards are secret: feed lines and refusals never name them.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana import rounds, zones
from scorekeeper.games.arcana.cards import (
    BADGE,
    EVENTS,
    MASTER,
    OBJECTIVE,
    WATCH_CARDS,
    Pack,
    guild_of_id,
)
from scorekeeper.games.arcana.names import district_words, guild_words, possessive, the_card
from scorekeeper.games.arcana.state import (
    NEUTRAL,
    SETUP,
    District,
    Events,
    Options,
    Seat,
    State,
    with_seat,
)

DECK_SIZE = 11
"""A starting deck (R-SETUP-3): the 11 letter-A cards, or 11 of 20 with the custom guild."""
RETURNED = 9
"""The cards each seat sends back to the box with the custom guild (R-OPT-B-1)."""
KEPT_OBJECTIVES = 2
PILE = 12
"""The stake cards dealt to each district (R-SETUP-4); the first is turned up (R-SETUP-6)."""

Outcome = Accepted[State] | Rejected


def new_state(seats: int, options: Options, pack: Pack) -> State:
    """A table of ``seats`` seats before anything is seen: every district's pile of 12 (13
    under the neutral one, the Prince's Games card among them, R-SETUP-5; not with
    ``events``, R-OPT-F-1) awaiting its first stake, the watch deck of 6 with ``watch``, the
    12 events and the Prince's Games card still face down with ``events``."""
    districts = tuple(
        District(
            did,
            friends,
            None,
            PILE + (1 if did == NEUTRAL and not options.events else 0),
            awaiting=True,
        )
        for did, friends in zones.district_table(seats)
    )
    return State(
        pack=pack,
        options=options,
        seats=tuple(Seat() for _ in range(seats)),
        districts=districts,
        phase=SETUP,
        first_seat=options.start_seat,
        active_seat=options.start_seat,
        watch_deck=len(WATCH_CARDS) if options.watch else 0,
        events=Events(left=len(EVENTS) + 1) if options.events else None,
    )


def stakes_in_play(seats: int) -> int:
    """The stake cards dealt to the districts (R-SETUP-4): 60, 48, 60; the rest stay boxed."""
    return PILE * len(zones.district_table(seats))


def observe(state: State, zone: str, piece: str) -> Outcome:
    """An arrival during setup. Every zone but a seat's pads, the stake pads and the event pad
    is refused: the first round has not begun (R-INT-1)."""
    where = zones.parse(zone)
    kind = where[0] if where else ""
    if kind == zones.BADGE and where is not None:
        return _at_badge(state, where[2], piece)
    if kind == zones.DISCARD and where is not None:
        return _returned(state, where[2], piece)
    if kind == zones.STAKE and where is not None:
        got = rounds.observe_stake(state, where[1], piece)
    elif kind == zones.EVENT:
        got = rounds.observe_event(state, piece)
    else:
        return Rejected(
            "R-INT-1",
            "the game has not started: nothing is laid at a district before the first round",
            "wait for the first round: lay badges and turn up the first stakes first",
        )
    return maybe_start(got.state, got.events) if isinstance(got, Accepted) else got


def complete(state: State) -> bool:
    """Whether everything the setup waits for has been seen."""
    return not missing(state)


def missing(state: State) -> tuple[str, ...]:
    """What the setup still waits for, in words with ``seat_ref`` markers, stakes first:
    "the stake of district C", "{seat:1}'s badge", "{seat:0}'s guild master", "{seat:0}'s 2
    kept objectives", "{seat:1}'s 9 returned cards", "the first event"."""
    opts = state.options
    out = [f"the stake of {district_words(d.id)}" for d in state.districts if d.awaiting]
    for s, seat in enumerate(state.seats):
        if not seat.guild:
            out.append(f"{possessive(s)} badge")
        if opts.guild_masters and not seat.master:
            out.append(f"{possessive(s)} guild master")
        if opts.objectives and len(seat.objectives) < KEPT_OBJECTIVES:
            left = KEPT_OBJECTIVES - len(seat.objectives)
            out.append(f"{possessive(s)} {left} kept objective{'s' if left > 1 else ''}")
        if opts.custom_guild and len(seat.returned) < RETURNED:
            left = RETURNED - len(seat.returned)
            out.append(f"{possessive(s)} {left} returned card{'s' if left > 1 else ''}")
    if state.events is not None and not state.events.next:
        out.append("the first event")
    return tuple(out)


def maybe_start(state: State, lines: tuple[str, ...]) -> Outcome:
    """``state`` accepted with ``lines``; when the setup is complete, round 1 starts now."""
    if state.phase == SETUP and complete(state):
        started, more = rounds.start_round(state)
        return Accepted(started, (*lines, *more))
    return Accepted(state, lines)


def _at_badge(state: State, seat: int, piece: str) -> Outcome:
    card = state.card(piece)
    kind = card.type if card is not None else ""
    if kind == BADGE:
        return _badge(state, seat, piece)
    if kind == MASTER:
        return _master(state, seat, piece)
    if kind == OBJECTIVE:
        return _objective(state, seat, piece)
    return Rejected(
        "R-SETUP-2",
        "that card does not belong on a badge pad during setup",
        "lay only your badge there (with the options: your guild master and your objectives)",
    )


def _badge(state: State, seat: int, piece: str) -> Outcome:
    guild = guild_of_id(piece)
    mine = state.seats[seat]
    others = [s for s, one in enumerate(state.seats) if one.guild == guild and s != seat]
    if others:
        return Rejected(
            "R-SETUP-2",
            f"the {guild_words(guild)} are already played by {seat_ref(others[0])}",
            "each guild is played by one seat: choose another guild's badge",
        )
    if mine.guild and mine.guild != guild:
        return Rejected(
            "R-SETUP-2",
            f"{seat_ref(seat)} already plays the {guild_words(mine.guild)}",
            "each seat plays one guild: take this badge back",
        )
    if mine.guild:
        return Accepted(state)
    pack = state.pack
    owned = (
        frozenset(c.id for c in pack.guild_cards(guild, "AB"))
        if state.options.custom_guild
        else frozenset(c.id for c in pack.guild_cards(guild, "A"))
    )
    new = Seat(guild=guild, deck=DECK_SIZE, owned=owned)
    line = f"{seat_ref(seat)} plays the {guild_words(guild)}"
    return maybe_start(with_seat(state, seat, new), (line,))


def _master(state: State, seat: int, piece: str) -> Outcome:
    mine = state.seats[seat]
    if not state.options.guild_masters:
        return Rejected(
            "R-OPT-E-1",
            "this table plays without guild masters",
            "put the guild master back in the box",
        )
    if not mine.guild:
        return Rejected(
            "R-OPT-E-1",
            f"{seat_ref(seat)} has no guild yet",
            "lay your badge first, then one of your guild's three masters",
        )
    if guild_of_id(piece) != mine.guild or mine.master:
        said = "a second guild master" if mine.master else "a master of another guild"
        return Rejected(
            "R-OPT-E-1",
            f"{seat_ref(seat)} cannot take {said}",
            f"one of the {guild_words(mine.guild)}' three masters, and only one",
        )
    line = f"{seat_ref(seat)} leads with {the_card(state.pack, piece)}"
    return maybe_start(with_seat(state, seat, replace(mine, master=piece)), (line,))


def _objective(state: State, seat: int, piece: str) -> Outcome:
    mine = state.seats[seat]
    if piece in mine.objectives:
        return Accepted(state)
    if not state.options.objectives or len(mine.objectives) >= KEPT_OBJECTIVES:
        reason = (
            "this table plays without objectives"
            if not state.options.objectives
            else f"{seat_ref(seat)} already keeps 2 objectives"
        )
        return Rejected("R-OPT-C-1", reason, "keep 2 objectives; the others go back unseen")
    kept = (*mine.objectives, piece)
    line = f"{seat_ref(seat)} keeps an objective"
    return maybe_start(with_seat(state, seat, replace(mine, objectives=kept)), (line,))


def _returned(state: State, seat: int, piece: str) -> Outcome:
    """A card sent back to the box with the custom guild (R-OPT-B-1): named to no one."""
    mine = state.seats[seat]
    if not state.options.custom_guild:
        return Rejected(
            "R-INT-1",
            "the game has not started: nothing is discarded before the first round",
            "wait for the first round",
        )
    if not mine.guild:
        return Rejected(
            "R-OPT-B-1",
            f"{seat_ref(seat)} has no guild yet",
            "lay your badge first, then return 9 of your guild's cards",
        )
    if piece in mine.returned:
        return Accepted(state)
    card = state.card(piece)
    if card is None or card.guild != mine.guild or piece not in mine.owned:
        return Rejected(
            "R-OPT-B-1", "that card is not one of your guild's", "return 9 of your guild's cards"
        )
    if len(mine.returned) >= RETURNED:
        return Rejected(
            "R-OPT-B-1", f"{seat_ref(seat)} has returned 9 cards already", "keep the other 11"
        )
    new = replace(mine, returned=(*mine.returned, piece), owned=mine.owned - {piece})
    done = len(new.returned)
    line = (
        f"{possessive(seat)} {RETURNED} cards are back in the box"
        if done == RETURNED
        else f"{seat_ref(seat)} returns a card to the box ({done} of {RETURNED})"
    )
    return maybe_start(with_seat(state, seat, new), (line,))
