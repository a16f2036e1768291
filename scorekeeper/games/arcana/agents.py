"""Arrivals on a district's agent pad in the intrigue phase: an agent played (A1, A2), a won
citizen played as an agent (R-INT-3), a relic (A4, bribes.py), a watch card called (A6,
R-OPT-D-2), and an agent moved by an ability (R-INT-6, abilities.arrive_moved).

A card's face follows its district (R-INT-2, G-29): face down at a district friendly to its
owner, face up elsewhere. A face-down card is never named in a feed line or a refusal: a
refused card at a friendly district is "{seat:0}'s card" (lookup.refused_card).
"""

from __future__ import annotations

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana import abilities, bribes
from scorekeeper.games.arcana.cards import LOCATION, RELIC, WATCH, Effect
from scorekeeper.games.arcana.lookup import (
    NOT_AGENTS,
    closed,
    district_with,
    elsewhere,
    empty_hand,
    face_up_at,
    from_pile,
    owner_of,
    placed_at,
    refused_card,
    seat_with,
    step_refusal,
    turn_refusal,
)
from scorekeeper.games.arcana.names import district_words, the_card
from scorekeeper.games.arcana.state import Placed, State, Step, evolve, with_district, with_seat
from scorekeeper.games.arcana.turns import END, end_action

WATCH_CARD = "watch_card"


def arrive(state: State, did: str, piece: str) -> Accepted[State] | Rejected:
    """``piece`` arrives on district ``did``'s agent pad while the intrigue phase is on."""
    found = placed_at(state, piece)
    step = state.steps[0] if state.steps else None
    if found is not None:
        if found[0].id == did:
            return Accepted(state)  # read again in its row: nothing changes
        return abilities.arrive_moved(state, step, did, piece)
    card = state.card(piece)
    owner = owner_of(state, piece)
    what = refused_card(state, piece, owner, did)
    where = district_words(did)
    if card is None or card.type in NOT_AGENTS:
        return Rejected(
            "R-INT-3",
            f"{what} is no agent: it cannot go to {where}",
            "take it back; only agents, won citizens and watch cards go to districts",
        )
    if card.type == LOCATION:
        return Rejected(
            "R-INT-2",
            f"{what} cannot go to {where}: a location is never laid at a district",
            "take it back; a location is played on your discard pad",
        )
    if card.type == WATCH:
        return _watch(state, did, piece, step)
    if owner is None:
        return Rejected(
            "R-INT-3",
            f"{what} is nobody's card: only a stake already won is played as an agent",
            "take it back; only agents, won citizens and watch cards go to districts",
        )
    if step is not None and step.kind == "manual" and step.seat == owner and card.type != RELIC:
        return _by_hand(state, did, piece, owner)
    if owner != state.active_seat:
        return turn_refusal(state, what, where)
    if step is not None:
        return step_refusal(state, what)
    if piece in elsewhere(state, owner):
        return from_pile(state, what, owner)
    if state.seats[owner].hand == 0:
        return empty_hand(state, what, owner)
    refusal = closed(state, did, what)
    if refusal is not None:
        return refusal
    if card.type == RELIC:
        return bribes.arrive(state, did, owner, piece)
    state, line = _place(state, did, piece, owner, watch=False)
    state, more, won = bribes.recheck(state, did, owner, then=(END,))
    if not (won and state.options.set_aside):
        state = end_action(state)
    return Accepted(state, (line, *more))


def _place(state: State, did: str, piece: str, owner: int, *, watch: bool) -> tuple[State, str]:
    """Lay ``piece`` of ``owner`` at ``did`` with the district's face; the hand is one less
    for a card from the hand (not a watch card). Returns the state and the feed line."""
    up = face_up_at(state, owner, did)
    district = state.district(did)
    laid = Placed(piece, owner, up, (), watch)
    state = with_district(state, district_with(district, agents=(*district.agents, laid)))
    if not watch:
        one = state.seats[owner]
        hand = max(0, one.hand - 1)
        state = with_seat(
            state, owner, seat_with(one, hand=hand, hand_known=one.hand_known - {piece})
        )
    who = seat_ref(owner)
    where = district_words(did)
    if watch:
        card = the_card(state.pack, piece) if up else "a face-down watch card"
        return state, f"{who} calls the watch: {card} at {where}"
    if up:
        return state, f"{who} plays {the_card(state.pack, piece)} at {where}"
    return state, f"{who} plays a face-down agent at {where}"


def _watch(state: State, did: str, piece: str, step: Step | None) -> Accepted[State] | Rejected:
    """A watch card at a district: the answer to an open ``watch_card`` step (R-OPT-D-2), its
    caller's agent for the round with the district's face (R-OPT-D-3)."""
    where = district_words(did)
    if step is not None and step.kind == "stake_discard" and state.watch_deck > 0:
        # The watch card laid while the table asks answers "call the watch" by itself.
        step = Step(WATCH_CARD, step.seat, card=step.card, effects=_called(state, step))
        state = evolve(state, steps=(step, *state.steps[1:]))
    if step is None or step.kind != WATCH_CARD:
        if state.options.watch and state.watch_deck == 0:
            return Rejected(
                "G-22",
                f"the watch cannot be called to {where}: the watch deck is empty",
                "take it back; discard the card, or take another action",
            )
        return Rejected(
            "R-OPT-D-2",
            f"a watch card cannot go to {where}: nobody has discarded a stake card to call it",
            "take it back; discard a stake card first",
        )
    refusal = closed(state, did, "the watch card")
    if refusal is not None:
        return refusal
    state = evolve(state, steps=state.steps[1:], watch_deck=max(0, state.watch_deck - 1))
    state, line = _place(state, did, piece, step.seat, watch=True)
    state, more, won = bribes.recheck(state, did, step.seat, then=step.effects)
    lines = (line, *more)
    if won and state.options.set_aside:
        return Accepted(state, lines)
    state, rest = abilities.resume(state, step.seat, step.effects, piece)
    return Accepted(state, (*lines, *rest))


def _called(state: State, step: Step) -> tuple[Effect, ...]:
    """What follows a watch card called from a ``stake_discard`` step: the end of the action,
    or nothing with ``watch_call: extra`` (the discard and the call are no action, G-22)."""
    return step.effects if state.options.watch_call == "action" else ()


def _by_hand(state: State, did: str, piece: str, owner: int) -> Accepted[State] | Rejected:
    """While a ``manual`` ability is open its owner's agents are laid as the table says
    (G-33): only a closed district refuses them."""
    refusal = closed(state, did, refused_card(state, piece, owner, did))
    if refusal is not None:
        return refusal
    state, line = _place(state, did, piece, owner, watch=False)
    return Accepted(state, (line,))
