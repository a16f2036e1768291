"""Small pure operations on an Arcanum state: counts, draws, VP, reputation, texts.

Functions that change the state take an ``ev`` list and append plain feed lines to it (a local
list owned by the caller: the state itself is never mutated). Feed lines never name a card that
is in a hand or hidden.
"""

from __future__ import annotations

from typing import TypeVar

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum import reputation
from scorekeeper.games.arcanum.cards import (
    FAMILY_COLOUR,
    FAMILY_SYMBOL,
    MAJOR_NAMES,
    describe,
    figure_of,
    is_minor,
    number_of,
    numeral,
    pawn_for,
    suit_of,
)
from scorekeeper.games.arcanum.state import (
    CARD_INDEX,
    HAND_LIMIT,
    MAJOR_PILE,
    MINOR_PILE,
    PAWN_INDEX,
    TRAY,
    UNSEEN,
    Owe,
    State,
    Step,
    evolve,
)

T = TypeVar("T")


def put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of ``items`` with ``items[index]`` replaced."""
    return items[:index] + (value,) + items[index + 1 :]


def bump(items: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    """A copy of ``items`` with ``delta`` added at ``index``."""
    return put(items, index, items[index] + delta)


def moved(state: State, card: str, loc: str) -> tuple[str, ...]:
    """The card whereabouts with ``card`` now at ``loc``."""
    return put(state.where, CARD_INDEX[card], loc)


def push(state: State, *steps: Step) -> State:
    """``steps`` go to the front of the queue, in the order given."""
    return evolve(state, queue=steps + state.queue)


def pop(state: State) -> State:
    """The queue without its head."""
    return evolve(state, queue=state.queue[1:])


def swap_head(state: State, *steps: Step) -> State:
    """The head replaced by ``steps`` (none: just dropped)."""
    return evolve(state, queue=steps + state.queue[1:])


def clockwise(state: State, first: int) -> tuple[int, ...]:
    """Every seat clockwise starting with ``first``."""
    return tuple((first + k) % state.n for k in range(state.n))


def others(state: State, seat: int) -> tuple[int, ...]:
    """Every seat but ``seat``, clockwise from its left neighbour."""
    return tuple((seat + k) % state.n for k in range(1, state.n))


def ap(state: State) -> int:
    """The active player (the seat whose turn it is)."""
    assert state.turn is not None, "no turn is under way"
    return state.turn.seat


def majors_allowed(state: State) -> bool:
    """True when majors may be drawn this round (R-VAR-1, R-VAR-2)."""
    variant = state.cfg.variant
    return variant == "full" or (variant == "first_game" and state.round >= 3)


# --- texts ------------------------------------------------------------------------------------


def hideable(state: State, fool: bool = True) -> str:
    """What may be hidden, in words: the Fool only where it is in play (never in the simplest
    game, nor in a first game before the majors come in; G-15, R-VAR-1/2). ``fool``: the hide
    takes the Fool at all (``Hides.fool``). It reads only public facts (variant and round),
    never who holds a major."""
    if fool and state.cfg.variant != "simplest" and majors_allowed(state):
        return "a minor or the Fool"
    return "a minor"


def fam(family: str) -> str:
    """``"⚔ swords"``: a family as texts name it."""
    return f"{FAMILY_SYMBOL[family]} {family}"


def pawn_words(pawn: str) -> str:
    """``"blue knight pawn (⚔ swords)"``."""
    family = suit_of(pawn)
    return f"{FAMILY_COLOUR[family]} {figure_of(pawn)} pawn ({fam(family)})"


def major_words(card: str) -> str:
    """``"XVI The Tower"``; the Fool as ``"0 The Fool"``."""
    return f"{numeral(card)} {MAJOR_NAMES[card]}"


def place(state: State, loc: int) -> str:
    """``"10 Castle"``: a location as texts name it."""
    return f"{loc} {state.cfg.names[loc - 1]}"


def pawn_at(state: State, pawn: str) -> str:
    """Where a pawn stands, in words: ``"10 Castle"``, ``"the tray"``, ``"off the board"``."""
    loc = state.pawns[PAWN_INDEX[pawn]]
    if loc == TRAY:
        return "the tray"
    return place(state, loc) if loc > 0 else "off the board"


def card_words(card: str) -> str:
    """Plain words for a card (``cards.describe``)."""
    return describe(card)


def count_words(minors: int, majors: int) -> str:
    """``"3 minors"``, ``"1 major and 4 minors"``."""
    parts = []
    if majors:
        parts.append(f"{majors} major{'s' if majors != 1 else ''}")
    if minors:
        parts.append(f"{minors} minor{'s' if minors != 1 else ''}")
    return " and ".join(parts) or "nothing"


# --- VP and reputation ------------------------------------------------------------------------


def doubled(state: State, seat: int) -> bool:
    """True when ``seat``'s VP changes are doubled by the Devil now (XV, G-12).

    The Devil lasts until the end of the round. With ``devil_fame: not_doubled`` it stops when
    the card play ends (``rounds.end_turn`` clears it before the round's fame phase); a World
    phase happens during the card play, so it is doubled under either option."""
    return state.devil == seat


def credit(
    sources: tuple[tuple[tuple[str, int], ...], ...], n: int, seat: int, source: str, delta: int
) -> tuple[tuple[tuple[str, int], ...], ...]:
    """``State.vp_sources`` with ``delta`` VP added to ``seat``'s ``source`` (pairs kept
    sorted by source, so equal histories give equal states whatever the order of events)."""
    if not sources:
        sources = ((),) * n
    mine = sources[seat]
    for i, (key, total) in enumerate(mine):
        if key == source:
            return put(sources, seat, put(mine, i, (key, total + delta)))
        if key > source:
            return put(sources, seat, mine[:i] + ((source, delta),) + mine[i:])
    return put(sources, seat, mine + ((source, delta),))


def sources_of(state: State, seat: int) -> dict[str, int]:
    """``seat``'s VP by source (``State.vp_sources``), for the views."""
    return dict(state.vp_sources[seat]) if state.vp_sources else {}


def gain_vp(state: State, seat: int, amount: int, ev: list[str], why: str, source: str) -> State:
    """``seat`` gains (or loses) ``amount`` VP, doubled by the Devil; never below 0.

    The change actually made (after the doubling and the floor) is credited to ``source``
    (``location:<effect>``, ``major:<card>``) in ``State.vp_sources``."""
    if amount == 0:
        return state
    double = doubled(state, seat)
    if double:
        amount *= 2
    new = max(0, state.vp[seat] + amount)
    sign = "+" if amount > 0 else "−"
    note = " (doubled by the Devil)" if double else ""
    ev.append(f"{seat_ref(seat)} {sign}{abs(amount)} VP: {why}{note}")
    delta = new - state.vp[seat]
    if delta == 0:
        return state
    return evolve(
        state,
        vp=put(state.vp, seat, new),
        vp_sources=credit(state.vp_sources, state.n, seat, source, delta),
    )


def change_rep(
    state: State, family: str, amount: int, ev: list[str], why: str, paren: bool = True
) -> State:
    """``family`` gains (or loses) ``amount`` reputation (R-REP-2 overflow, R-REP-3 floor).

    The feed line reads ``⚔ swords +1 (the 4 of swords ⚔)``, or without the parentheses
    (``⚔ swords +4 from icons``) when ``paren`` is false."""
    if amount == 0:
        return state
    new = reputation.change(state.rep, family, amount)
    sign = "+" if amount > 0 else "−"
    line = f"{fam(family)} {sign}{abs(amount)} " + (f"({why})" if paren else why)
    if new == state.rep:
        line += ": no change"
    elif amount > 0 and reputation.get(state.rep, family) + amount > reputation.TOP:
        line += ": it stops at 21 and the other families move back"
    ev.append(line)
    return evolve(state, rep=new)


# --- draws and piles --------------------------------------------------------------------------


def _reshuffle(state: State, minor: bool, ev: list[str]) -> State:
    """R-DECK-1: an empty deck is rebuilt from its discard pile (the pile's cards are unseen
    again)."""
    pile = state.pile_minor if minor else state.pile_major
    if not pile:
        return state
    where = list(state.where)
    for card in pile:
        where[CARD_INDEX[card]] = UNSEEN
    ev.append(
        f"the {'minor' if minor else 'major'} discard pile ({len(pile)} cards) is shuffled "
        "into a new deck"
    )
    if minor:
        return evolve(state, where=tuple(where), pile_minor=(), deck_minor=len(pile))
    return evolve(state, where=tuple(where), pile_major=(), deck_major=len(pile))


def reshuffle_for(state: State, card: str, ev: list[str]) -> State:
    """Before a seat draws a minor that is then read at once (R-PLAY-2, G-16, the Treasury):
    an empty minor deck is rebuilt first, so that ``card`` may come from the old pile."""
    if state.deck_minor == 0 and state.loc_of(card) == MINOR_PILE:
        return _reshuffle(state, True, ev)
    return state


def take_from_deck(state: State, minor: bool, count: int, ev: list[str]) -> tuple[State, int]:
    """Take ``count`` cards off a deck (reshuffling when it runs out); returns how many were
    there. The caller says where they go."""
    got = 0
    while got < count:
        deck = state.deck_minor if minor else state.deck_major
        if deck == 0:
            state = _reshuffle(state, minor, ev)
            deck = state.deck_minor if minor else state.deck_major
            if deck == 0:
                break
        k = min(deck, count - got)
        state = evolve(state, deck_minor=deck - k) if minor else evolve(state, deck_major=deck - k)
        got += k
    return state, got


def draw(state: State, seat: int, minors: int, majors: int, ev: list[str]) -> State:
    """``seat`` draws into its hand; an owed hand-limit discard goes to the queue's front."""
    got_major = 0
    if majors:
        state, got_major = take_from_deck(state, False, majors, ev)
    got_minor = 0
    if minors:
        state, got_minor = take_from_deck(state, True, minors, ev)
    state = evolve(
        state,
        minors=bump(state.minors, seat, got_minor),
        majors=bump(state.majors, seat, got_major),
    )
    line = f"{seat_ref(seat)} draws {count_words(got_minor, got_major)}"
    if (got_minor, got_major) != (minors, majors):
        line += " of the " + count_words(minors, majors) + ": the deck and its discard pile ran out"
        if not (got_minor or got_major):
            line = f"{seat_ref(seat)} draws nothing: the deck and its discard pile are empty"
    ev.append(line)
    return hand_limit(state, seat, ev)


def hand_limit(state: State, seat: int, ev: list[str]) -> State:
    """R-DRAW-3: a seat over 7 cards owes discards down to 7 straight away (queue front)."""
    over = state.hand(seat) - HAND_LIMIT
    if over <= 0:
        return state
    ev.append(f"{seat_ref(seat)} holds {state.hand(seat)} cards: discards {over} (hand limit)")
    return push(state, Owe(seat, over))


def to_pile(state: State, card: str) -> State:
    """``card`` goes on top of its own discard pile (face up)."""
    if is_minor(card):
        return evolve(
            state, where=moved(state, card, MINOR_PILE), pile_minor=state.pile_minor + (card,)
        )
    return evolve(
        state, where=moved(state, card, MAJOR_PILE), pile_major=state.pile_major + (card,)
    )


# --- pawn moves -------------------------------------------------------------------------------


def movable(state: State, pawn: str) -> bool:
    """True when ``pawn`` is on the board and not on a blocked location."""
    loc = state.pawns[PAWN_INDEX[pawn]]
    return loc > 0 and loc not in state.blocked


def minor_can_move(state: State, card: str) -> bool:
    """True when the minor ``card`` has a legal pawn move (R-MIN-2/3/4; else G-17)."""
    n = number_of(card)
    if n is not None:
        if n in state.blocked:
            return False
        family = suit_of(card)
        return any(
            movable(state, p) and state.pawns[PAWN_INDEX[p]] != n
            for p in PAWN_INDEX
            if suit_of(p) == family
        )
    return movable(state, pawn_for(card)) and len(state.blocked) < 9


def fool_can_move(state: State) -> bool:
    """True when some pawn can move "as the Fool" (any pawn, any other unblocked location)."""
    return len(state.blocked) < 9 and any(movable(state, p) for p in PAWN_INDEX)


def known_in_hand(state: State, card: str, seat: int) -> bool:
    """True when ``card`` may be in ``seat``'s hand: unseen, or known to be there."""
    loc = state.loc_of(card)
    return loc == UNSEEN or loc == f"hand:{seat}"
