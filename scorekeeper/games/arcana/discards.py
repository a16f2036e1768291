"""Arrivals on a seat's discard pad in the intrigue phase and the answers they open: a
discard (A5), a location (A3 or A5: ``location``), a stake card that may call the watch (A6:
``stake_discard``, R-OPT-D-2, G-22), the cards a draw-and-keep lets go (a ``keep`` step), the
cards of a ``manual`` ability (G-33), and a won stake's place (``set_aside``, G-26).

A card on a discard pad is face up on top of the pile (G-28): the feed names it. A watch card
never goes on a discard pile (G-34).
"""

from __future__ import annotations

from scorekeeper.core.answering import NO_PROMPT
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana import abilities, award
from scorekeeper.games.arcana.cards import LOCATION, STAKES, WATCH_CARDS
from scorekeeper.games.arcana.lookup import (
    district_with,
    elsewhere,
    empty_hand,
    from_pile,
    owner_of,
    placed_at,
    seat_with,
    step_refusal,
    turn_refusal,
)
from scorekeeper.games.arcana.names import district_words, owned_card, possessive, the_card
from scorekeeper.games.arcana.state import State, Step, evolve, with_district, with_seat
from scorekeeper.games.arcana.turns import END, end_action

LOCATION_STEP = "location"
STAKE_DISCARD = "stake_discard"
KEEP = "keep"
PLAY = "play"
DISCARD = "discard"
WATCH = "watch"


def arrive(state: State, seat: int, piece: str) -> Accepted[State] | Rejected:
    """``piece`` arrives on seat ``seat``'s discard pad while the intrigue phase is on."""
    if piece in state.seats[seat].discard:
        return Accepted(state)  # already on the pile: a card read again
    name = the_card(state.pack, piece)
    if piece in WATCH_CARDS:
        return Rejected(
            "G-34",
            f"{name} never goes on a discard pile",
            "take it off; it goes back to the watch deck",
        )
    answer = _set_aside_answer(state, seat, piece)
    if answer is not None:
        return abilities.answer_set_aside(state, answer)
    owner = owner_of(state, piece)
    if owner is None:
        return Rejected(
            "G-32",
            f"{name} is in nobody's hand: it was never won",
            "put it back where it came from",
        )
    if owner != seat:
        return Rejected(
            "R-INT-1",
            f"{name} is {possessive(owner)} card: it cannot go on {possessive(seat)} pile",
            "take it off; each card goes on its owner's discard pad",
        )
    step = state.steps[0] if state.steps else None
    if step is not None and step.seat == seat and step.kind == "manual":
        return _by_hand(state, step, piece)
    if step is not None and step.seat == seat and step.kind == KEEP:
        if piece in elsewhere(state, seat):
            return from_pile(state, name, seat)
        return _let_go(state, step, piece)
    if seat != state.active_seat:
        return turn_refusal(state, name)
    if step is not None:
        return step_refusal(state, name)
    if piece in elsewhere(state, seat):
        return from_pile(state, name, seat)
    if state.seats[seat].hand == 0:
        return empty_hand(state, name, seat)
    state = _to_pile(state, seat, piece)
    who = seat_ref(seat)
    if _location(state, piece):  # a location stake too: it is played or discarded
        step = Step(LOCATION_STEP, seat, card=piece, effects=(END,))
        return Accepted(_open(state, step), (f"{who} puts {name} on the discard pile",))
    if piece in STAKES and state.options.watch and state.watch_deck > 0:
        step = Step(STAKE_DISCARD, seat, card=piece, effects=(END,))
        return Accepted(_open(state, step), (f"{who} discards {name}",))
    return Accepted(end_action(state), (f"{who} discards {name}",))


def answer_location(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """``location``: ``play`` runs its ability (A3) and the turn passes when it is done;
    ``discard`` (A5) passes it now."""
    who, name = seat_ref(step.seat), the_card(state.pack, step.card)
    state = _pop(state, step)
    if answer == PLAY:
        ability = abilities.ability_of(state, step.card, "play")
        effects = (ability.effects if ability else ()) + step.effects
        state, lines = abilities.resume(state, step.seat, effects, step.card)
        return Accepted(state, (f"{who} uses {name}", *lines))
    if answer != DISCARD:
        return Rejected(
            NO_PROMPT, "a location is played or discarded", "use it or discard it unused"
        )
    state, lines = abilities.resume(state, step.seat, step.effects, step.card)
    return Accepted(state, (f"{who} discards {name} unused", *lines))


def answer_stake_discard(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """``stake_discard``: ``watch`` calls the watch (a ``watch_card`` step awaits the card at
    a district; with ``watch_call: extra`` it is no action, G-22), ``discard`` is A5. (A
    location stake with an ability is asked ``location`` instead: it is played or discarded,
    never a call of the watch; the simulated table plays it so too.)"""
    who = seat_ref(step.seat)
    if answer == WATCH:
        if state.watch_deck == 0:
            return watch_spent()
        # With watch_call: extra the discard and the call take no action (G-22's option).
        then = step.effects if state.options.watch_call == "action" else ()
        call = Step("watch_card", step.seat, card=step.card, effects=then)
        state = _open(_pop(state, step), call)
        return Accepted(state, (f"{who} calls the watch: lay the top watch card at a district",))
    if answer != DISCARD:
        return Rejected(
            NO_PROMPT,
            "a stake card calls the watch or is discarded",
            "call the watch or just discard it",
        )
    state, lines = abilities.resume(_pop(state, step), step.seat, step.effects, step.card)
    return Accepted(state, lines)


def watch_spent() -> Rejected:
    """G-22: the watch called with the watch deck empty; the stake card stays discarded."""
    return Rejected(
        "G-22",
        "the watch cannot be called: the watch deck is empty",
        "the stake card stays on the pile as a plain discard; play on",
    )


def _let_go(state: State, step: Step, piece: str) -> Accepted[State]:
    """A card from the hand on the pad while a ``keep`` (or ``manual``) step of its seat is
    open: a discard that takes no action of its own."""
    state = _to_pile(state, step.seat, piece)
    line = f"{seat_ref(step.seat)} discards {the_card(state.pack, piece)}"
    if step.kind != KEEP:
        return Accepted(state, (line,))
    if step.count > 1:
        left = Step(KEEP, step.seat, card=step.card, count=step.count - 1, effects=step.effects)
        return Accepted(evolve(state, steps=(left, *state.steps[1:])), (line,))
    state, lines = abilities.resume(_pop(state, step), step.seat, step.effects[1:], step.card)
    return Accepted(state, (line, *lines))


def _by_hand(state: State, step: Step, piece: str) -> Accepted[State] | Rejected:
    """While a ``manual`` ability of the seat is open (G-33) its card on its discard pad is
    taken as the table says: from its hand, or from a district (its relics with it); a card
    under its badge is still refused."""
    found = placed_at(state, piece)
    if found is None:
        if piece in state.seats[step.seat].set_aside:
            return from_pile(state, the_card(state.pack, piece), step.seat)
        return _let_go(state, step, piece)
    district, agent = found
    if agent.card != piece:
        return from_pile(state, the_card(state.pack, piece), step.seat)
    rest = tuple(a for a in district.agents if a is not agent)
    state = with_district(state, district_with(district, agents=rest))
    one = state.seats[step.seat]
    state = with_seat(
        state, step.seat, seat_with(one, discard=(*one.discard, piece, *agent.relics))
    )
    where = district_words(district.id)
    shown = owned_card(state.pack, piece, step.seat) if agent.face_up else "a face-down agent"
    return Accepted(
        state, (f"{seat_ref(step.seat)} takes {shown} from {where} to the discard pile",)
    )


def _to_pile(state: State, seat: int, piece: str) -> State:
    """``piece`` from ``seat``'s hand onto its discard pile."""
    one = state.seats[seat]
    new = seat_with(
        one,
        hand=max(0, one.hand - 1),
        discard=(*one.discard, piece),
        hand_known=one.hand_known - {piece},
    )
    return with_seat(state, seat, new)


def _location(state: State, piece: str) -> bool:
    """Whether ``piece`` is a location whose ability acts when it is played."""
    card = state.card(piece)
    return (
        card is not None
        and card.type == LOCATION
        and abilities.ability_of(state, piece, PLAY) is not None
    )


def _set_aside_answer(state: State, seat: int, piece: str) -> str | None:
    """The won stake laid on its winner's discard pad answers ``set_aside`` ``discard``."""
    return award.pad_answer(state, f"discard:{seat}", piece)


def _open(state: State, step: Step) -> State:
    return evolve(state, steps=(step, *state.steps))


def _pop(state: State, step: Step) -> State:
    return evolve(state, steps=tuple(s for s in state.steps if s is not step))
