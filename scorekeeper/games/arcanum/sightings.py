"""Judging sightings: a piece arriving at a zone (docs/games/arcanum.md).

Only arrivals change anything. A departure is always accepted and changes nothing (a pawn lifted
is still where it was; a hidden card lifted to be looked at is still hidden, R-DRAW-5), and so is
an arrival where the piece already is. Cards: ``play`` (turns.py), a hide strip (hides), a
discard pile (discards). Pawns: pawns.py.

Refusals about a hide strip never name the card: it lies face down.

Rejection table (each R-PLAY, R-MIN and R-DRAW rule has at least one refusal; the unit tests in
tests/games/arcanum/test_engine_rejections.py try each):

========== ==================================================================================
rule       refused input (example)
========== ==================================================================================
R-SETUP-8  a third pawn, or a second pawn of one colour, on a location at setup; a pawn to the
           tray at setup
R-SETUP-9  a card on any zone during setup
R-PLAY-1   a card on ``play`` outside phase B (phase A, a fame phase), or a minor on ``play``
           after every seat has had its turn
R-PLAY-2   a major on ``play`` from an AP that holds no card at all by the count (it draws 1
           minor and plays it)
R-PLAY-3   a minor on ``play`` while an effect is resolving (its prompts, pawn move, hides or
           discards, e.g. the Castle's); ``end_turn`` before the minor; a pawn moved when no
           card moves it
R-PLAY-4   a second major in a turn; a major from an AP holding no major; a major while an
           effect is resolving; a card known to be in another seat's hand
R-PLAY-5   ``end_turn`` after a major moved a pawn but before the minor
R-MIN-1    a minor on ``play`` that is already on the discard pile
R-MIN-2    a number card's move with a pawn of another suit, or to the wrong location
R-MIN-3    a figure card's move with another pawn than its own
R-MIN-4    a minor's move into or out of a Tower-blocked location, or to the tray
R-MIN-5    a pawn moved again after the minor's move (its icons were counted)
R-MIN-6    a wrong answer to a location's prompt (``artists``, ``harbour``, ``market``,
           ``fields``, ``cathedral``, its ``hide``); a non-drawn card at the Treasury
R-MIN-7    the played minor put on the major discard pile or a hide strip
R-DRAW-1   a ``draw`` answer that is not an option, from a seat whose turn to draw it is not,
           or in a round without a choice (first game rounds 1-2, simplest)
R-DRAW-2   a ``draw`` answer in round 1 (everyone draws 1 major and 4 minors at once)
R-DRAW-3   anything else while a hand-limit discard is owed; a card on the other deck's discard
           pile; a discard nobody owes; a discard of a kind the seat does not hold
R-DRAW-4   a second card on a strip in phase A; a major other than the Fool hidden; a card
           hidden when no hide is asked; ``hide pass`` in phase A
R-DRAW-5   a hidden card put on ``play``, on a discard pile or on another strip
R-MAJ-1    a wrong answer to a major's prompt; its move into or out of a blocked location;
           Judgement's pawns on one location twice; a pawn to the tray without Judgement
R-FAME-3   a ``fame`` answer other than ``reveal``
R-FAME-4   a ``fool`` answer for a family already scored, or from a seat with no fool prompt
R-VAR-2    a major in a ``simplest`` game
TABLE-NO-PROMPT  a decision nobody asked for
========== ==================================================================================
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.answering import UNKNOWN_TAG, game_over, unknown_zone
from scorekeeper.core.inputs import Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum import majors, words
from scorekeeper.games.arcanum.cards import (
    FOOL,
    TOWER,
    describe,
    is_card,
    is_major,
    is_minor,
    is_pawn,
)
from scorekeeper.games.arcanum.engine import settle
from scorekeeper.games.arcanum.famephase import carried_early, carry_done, shown_now
from scorekeeper.games.arcanum.ops import (
    bump,
    hideable,
    major_words,
    moved,
    pop,
    reshuffle_for,
    swap_head,
    take_from_deck,
    to_pile,
)
from scorekeeper.games.arcanum.pawns import pawn_arrives
from scorekeeper.games.arcanum.prompts import waiting_for
from scorekeeper.games.arcanum.refusals import owed_refusal
from scorekeeper.games.arcanum.state import (
    CITY,
    MAJOR_PILE,
    MINOR_PILE,
    OVER,
    PLAYED,
    SETUP,
    UNSEEN,
    Ask,
    Hides,
    Owe,
    State,
    SwapIn,
    Treasury,
    evolve,
)
from scorekeeper.games.arcanum.turns import card_on_play
from scorekeeper.games.arcanum.zones import zone_map


def observe(state: State, seen: Seen) -> Outcome:
    """Judge one sighting; see the module docstring."""
    if state.phase == OVER:
        return game_over()
    info = zone_map(state.n).get(seen.zone)
    if info is None:
        return unknown_zone(seen.zone, zone_map(state.n))
    piece = seen.piece
    pawn = is_pawn(piece)
    if not pawn and not is_card(piece):
        return Rejected(
            UNKNOWN_TAG,
            f"{piece!r} is not an Arcanum piece",
            f"take it off {words.zone(seen.zone)}",
        )
    if not seen.present:
        return Accepted(state)
    kind, arg = info
    if pawn:
        return pawn_arrives(state, piece, kind, arg)
    loc = state.loc_of(piece)
    if piece in state.carry:
        return _carried(state, piece, seen.zone, kind, arg, loc)
    return _card_arrives(state, piece, seen.zone, kind, arg, loc)


def _card_arrives(
    state: State, piece: str, zone: str, kind: str, arg: int | None, loc: str
) -> Outcome:
    """A card arrives at ``zone`` (of ``kind``, numbered ``arg``); the referee has it at
    ``loc``."""
    if loc == zone:
        return Accepted(state)
    if piece == TOWER and loc == CITY and kind in ("loc", "major_discard"):
        return Accepted(state)  # the Tower on the city, or its discard confirmed early
    if kind in ("loc", "tray"):
        return _card_on_board(state, piece, kind, arg, loc)
    if state.phase == SETUP:
        return Rejected(
            "R-SETUP-9",
            "no cards are dealt or played during setup: the 16 pawns are placed first",
            f"take the card off {words.zone(zone)}",
        )
    if is_major(piece) and state.cfg.variant == "simplest":
        return Rejected(
            "R-VAR-2",
            "in the simplest game the majors stay in the box",
            "take the card off the table",
        )
    if kind == "play":
        return card_on_play(state, piece)
    if kind == "hide":
        assert arg is not None
        return _hidden(state, piece, arg, loc)
    return _discarded(state, piece, kind == MINOR_PILE, loc)


def _carried(state: State, card: str, zone: str, kind: str, arg: int | None, loc: str) -> Outcome:
    """A card revealed by the last regular fame phase and not yet seen off its hide strip
    (``State.carry``). On its own discard pile it is a confirmation: nothing else changes,
    wherever the referee has it; on the pile, or already shuffled into a new deck by the next
    round's automatic draws (R-DECK-1), where it cannot have been drawn while it lay on the
    strip. Anywhere else it is judged as any card, and once accepted it is no longer waited for.
    """
    if zone == (MINOR_PILE if is_minor(card) else MAJOR_PILE):
        return Accepted(carry_done(state, card))
    outcome = _card_arrives(state, card, zone, kind, arg, loc)
    if isinstance(outcome, Accepted):
        return Accepted(carry_done(outcome.state, card), outcome.events)
    return outcome


def _card_on_board(state: State, card: str, kind: str, arg: int | None, loc: str) -> Outcome:
    """A card on a location or the tray: only the Tower, laid on the city as it resolves."""
    head = state.head
    if (
        card == TOWER
        and kind == "loc"
        and arg is not None
        and loc == PLAYED
        and isinstance(head, Ask)
        and head.id == "tower"
    ):
        if arg in state.blocked:
            return Accepted(state)
        ev: list[str] = []
        state = majors.block(state, arg, ev)
        return Accepted(settle(state, ev), tuple(ev))
    secret = loc.startswith(("hide:", "hand:"))
    what = "that card" if secret else f"the {describe(card)}"
    if card == TOWER:
        return Rejected(
            "R-MAJ-1",
            "XVI The Tower is laid on the city only after it is played on the play area",
            f"take {what} off the location",
        )
    return Rejected(
        "R-PLAY-3" if is_minor(card) else "R-PLAY-4",
        "cards are played on the play area, not on the city or the tray",
        f"take {what} off the {'location' if kind == 'loc' else kind}",  # "loc" is an id
    )


# --- hide strips ------------------------------------------------------------------------------


def _hidden(state: State, card: str, seat: int, loc: str) -> Outcome:
    """``card`` arrives on seat ``seat``'s hide strip (face down: texts never name it)."""
    back = "take that card back off the hide strip"
    if loc.startswith("hide:"):
        return Rejected(
            "R-DRAW-5",
            f"that card is hidden on {seat_ref(int(loc[5:]))}'s strip "
            "and stays there until a fame phase",
            "put it back where it was",
        )
    if loc == PLAYED:
        name = describe(card)
        if is_minor(card):
            return Rejected(
                "R-MIN-7",
                f"the played {name} goes to the minor discard pile",
                f"put the {name} on the play area or the minor discard pile",
            )
        return Rejected(
            "R-MAJ-1",
            f"the played {major_words(card)} goes to the major discard pile once resolved",
            "put it back on the play area",
        )
    head = state.head
    if isinstance(head, Owe):
        return owed_refusal(state, head, back)
    if isinstance(head, Hides):
        return _hide(state, head, card, seat, loc, back)
    if isinstance(head, Treasury) and head.seat == seat:
        return _treasury(state, card, seat, back)
    if isinstance(head, SwapIn) and head.seat == seat:
        if not is_minor(card) or loc not in (UNSEEN, f"hand:{seat}") or state.minors[seat] == 0:
            return Rejected(
                "R-MAJ-1",
                f"{major_words('major_14')}: {seat_ref(seat)} hides minors from the hand",
                back,
            )
        state = evolve(
            state,
            minors=bump(state.minors, seat, -1),
            where=moved(state, card, f"hide:{seat}"),
            known=state.known - {card},
        )
        ev = [f"{seat_ref(seat)} hides a card ({major_words('major_14')})"]
        state = pop(state) if head.left <= 1 else swap_head(state, SwapIn(seat, head.left - 1))
        return Accepted(settle(state, ev), tuple(ev))
    if loc in (MINOR_PILE, MAJOR_PILE, CITY):
        return Rejected("R-DRAW-4", "that card is on the table, not in a hand", back)
    return Rejected(
        "R-DRAW-4",
        f"{seat_ref(seat)} is not asked to hide a card now",
        f"{back}; now: {waiting_for(state)}",
    )


def _hide(state: State, head: Hides, card: str, seat: int, loc: str, back: str) -> Outcome:
    """A hide asked by phase A (R-DRAW-4) or by an effect (a minor or the Fool, G-15)."""
    rule = head.rule
    left = dict(head.left).get(seat)
    if not left:
        if head.required and left == 0:
            return Rejected(
                "R-DRAW-4",
                f"{seat_ref(seat)} has already hidden its card: each seat hides exactly one",
                back,
            )
        return Rejected(
            rule,
            f"{seat_ref(seat)} is not asked to hide a card now ({head.why})",
            f"{back}; now: {waiting_for(state)}",
        )
    ev: list[str] = []
    g16 = is_minor(card) and state.minors[seat] == 0 and rule == "R-DRAW-4"
    if g16:  # G-16: the seat draws the minor first (from a reshuffled pile if the deck is out)
        state = reshuffle_for(state, card, ev)
        loc = state.loc_of(card)
    if loc in (MINOR_PILE, MAJOR_PILE, CITY):
        return Rejected(rule, "that card is on the table, not in a hand", back)
    if is_major(card) and (card != FOOL or not head.fool):
        return Rejected(
            rule,
            f"only {hideable(state, head.fool)} can be hidden ({head.why})",
            f"{back}; hide {hideable(state, head.fool)}",
        )
    if loc.startswith("hand:") and loc != f"hand:{seat}":
        return Rejected(rule, f"that card is not in {seat_ref(seat)}'s hand", back)
    line = f"{seat_ref(seat)} hides a card ({head.why})"
    if is_minor(card):
        if g16:
            state, _ = take_from_deck(state, True, 1, ev)
            line = f"{seat_ref(seat)} holds no minor: draws 1 and hides it (G-16)"
        elif state.minors[seat] == 0:
            return Rejected(
                rule, f"{seat_ref(seat)} holds no card of that kind (by the referee's count)", back
            )
        else:
            state = evolve(state, minors=bump(state.minors, seat, -1))
    else:
        if state.majors[seat] == 0:
            return Rejected(
                rule, f"{seat_ref(seat)} holds no card of that kind (by the referee's count)", back
            )
        state = evolve(state, majors=bump(state.majors, seat, -1))
    state = evolve(state, where=moved(state, card, f"hide:{seat}"), known=state.known - {card})
    ev.append(line)
    rest = tuple((s, k - 1 if s == seat else k) for s, k in head.left)
    state = swap_head(state, replace(head, left=rest)) if any(k for _, k in rest) else pop(state)
    return Accepted(settle(state, ev), tuple(ev))


def _treasury(state: State, card: str, seat: int, back: str) -> Outcome:
    """The Treasury: the minor just drawn is hidden at once (it never enters the hand)."""
    ev: list[str] = []
    if is_minor(card):
        state = reshuffle_for(state, card, ev)
    if not is_minor(card) or state.loc_of(card) != UNSEEN:
        return Rejected(
            "R-MIN-6",
            "the Treasury hides the minor just drawn from the minor deck",
            f"{back}; draw 1 minor and hide it",
        )
    state, _ = take_from_deck(state, True, 1, ev)
    state = pop(evolve(state, where=moved(state, card, f"hide:{seat}"), known=state.known - {card}))
    ev.append(f"{seat_ref(seat)} draws a minor and hides it at once (Treasury)")
    return Accepted(settle(state, ev), tuple(ev))


# --- discard piles ----------------------------------------------------------------------------


def _discarded(state: State, card: str, to_minor: bool, loc: str) -> Outcome:
    """``card`` lands on a discard pile: an owed discard, or a card that belongs there."""
    minor = is_minor(card)
    pile = "minor" if to_minor else "major"
    own = "minor" if minor else "major"
    if loc == PLAYED:
        if minor == to_minor:
            return Accepted(state)  # the played card on its own pile: the referee puts it there
        if minor:
            return Rejected(
                "R-MIN-7",
                f"the played {describe(card)} goes to the minor discard pile",
                "put it on the minor discard pile",
            )
        return Rejected(
            "R-MAJ-1",
            f"the played {major_words(card)} goes to the major discard pile",
            "put it on the major discard pile",
        )
    fame = state.fame
    if (
        loc.startswith("hide:")
        and fame is not None
        and fame.kind == "regular"
        and (minor == to_minor and card in shown_now(state))
    ):
        return Accepted(carried_early(state, card))  # carried early: cleanup puts it there
    if loc.startswith("hide:"):
        return Rejected(
            "R-DRAW-5",
            f"that card is hidden on {seat_ref(int(loc[5:]))}'s strip: "
            "hidden cards stay hidden until a fame phase",
            "put it back on the hide strip face down",
        )
    secret = loc.startswith("hand:")
    what = "that card" if secret else f"the {describe(card)}"
    if minor != to_minor:
        return Rejected(
            "R-DRAW-3",
            f"{what} is a {own}: each card goes to its own deck's discard pile",
            f"put {what} on the {own} discard pile instead",
        )
    if loc in (MINOR_PILE, MAJOR_PILE, CITY):  # pragma: no cover - other pile or the city
        return Rejected("R-DRAW-3", f"{what} is not in a hand", f"put {what} back")
    head = state.head
    if not isinstance(head, Owe):
        return Rejected(
            "R-DRAW-3",
            "no discard is owed now",
            f"take {what} back into the hand; now: {waiting_for(state)}",
        )
    seat = head.seat
    if secret and loc != f"hand:{seat}":
        return Rejected(
            "R-DRAW-3",
            f"that card is not in {seat_ref(seat)}'s hand",
            f"take it back; {seat_ref(seat)} discards",
        )
    if head.kind and head.kind != own:
        return Rejected(
            head.rule,
            f"{seat_ref(seat)} discards a {head.kind} ({head.why})",
            f"take the {describe(card)} back; discard a {head.kind}",
        )
    held = state.minors if minor else state.majors
    if held[seat] == 0:
        return Rejected(
            head.rule,
            f"{seat_ref(seat)} holds no {own} (by the referee's count)",
            f"take the {describe(card)} back; {seat_ref(seat)} discards a "
            f"{'major' if minor else 'minor'}",
        )
    if minor:
        state = evolve(state, minors=bump(state.minors, seat, -1))
    else:
        state = evolve(state, majors=bump(state.majors, seat, -1))
    state = to_pile(state, card)
    name = f"the {describe(card)}" if minor else major_words(card)
    ev = [f"{seat_ref(seat)} discards {name} ({head.why}) on the {pile} pile"]
    state = pop(state) if head.count <= 1 else swap_head(state, replace(head, count=head.count - 1))
    return Accepted(settle(state, ev), tuple(ev))
