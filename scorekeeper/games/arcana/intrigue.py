"""The intrigue phase of Arcana (R-INT, R-BRIBE, R-OPT-D, R-OPT-E; docs/games/arcana.md, "The
intrigue phase"): every arrival while ``phase == INTRIGUE`` (``observe``) and every answer to
its prompts (``decide``). game.py calls these and then rounds.after_intrigue.

Who does what:
- agents.py: a district's agent pad (A1, A2, a watch card, a moved agent), bribes.py the
  relics (A4);
- discards.py: a seat's discard pad (A3, A5, A6, the cards a draw-and-keep lets go);
- abilities.py: the vocabulary's effects as steps; masters.py a guild master's use;
- award.py: a stake won at once and the district's next stake (G-30, G-35);
- turns.py: whose turn it is (``next_actor``, G-12).

An arrival where the referee already has the card changes nothing (a card read again in its
row); departures never reach here (game.py accepts them).
"""

from __future__ import annotations

from scorekeeper.core.answering import NO_PROMPT
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana import abilities, agents, award, bribes, discards, masters, zones
from scorekeeper.games.arcana.cards import STAKES
from scorekeeper.games.arcana.names import district_words, possessive
from scorekeeper.games.arcana.state import INTRIGUE, State, Step
from scorekeeper.games.arcana.turns import next_actor

__all__ = ["decide", "next_actor", "observe", "unasked"]

_ANSWERS = {
    "location": discards.answer_location,
    "stake_discard": discards.answer_stake_discard,
    "relic_on": bribes.answer_relic_on,
    "bribe_arcanum": bribes.answer_arcanum,
    "move": abilities.answer_move,
    "win_at": abilities.answer_win_at,
    "return": abilities.answer_return,
    "manual": abilities.answer_manual,
    "confirm": abilities.answer_confirm,
}


def observe(state: State, zone: str, piece: str) -> Accepted[State] | Rejected:
    """``piece`` arrived at ``zone`` during the intrigue phase."""
    where = zones.parse(zone)
    ids = {d.id for d in state.districts}
    if where is None or where[1] and where[1] not in ids or where[2] >= len(state.seats):
        return Rejected(
            NO_PROMPT,
            "that pad is not part of this table",
            "take the card off; lay it on one of the table's pads",
        )
    kind, did, seat = where
    if kind == zones.AGENTS:
        return agents.arrive(state, did, piece)
    if kind == zones.DISCARD:
        return discards.arrive(state, seat, piece)
    if kind == zones.STAKE:
        return _stake(state, did, piece)
    if kind == zones.BADGE:
        return _badge(state, seat, piece)
    return _event(state, piece)


def decide(state: State, prompt: str, answer: str, seat: int | None) -> Accepted[State] | Rejected:
    """An answer to an intrigue prompt: the first open step of its kind (``seat`` is the
    answering seat, None for the organiser, who may answer for anyone); ``master`` is asked
    while the actor's guild master can be used, with no step behind it."""
    if prompt == "master":
        if answer != "use":
            return Rejected(NO_PROMPT, "a guild master is used or left", "use it, or play on")
        who = state.active_seat if seat is None else seat
        if who != state.active_seat:
            return Rejected(
                "R-INT-1",
                f"{possessive(who)} guild master is used on {possessive(who)} own turn",
                f"it is {seat_ref(state.active_seat)}'s turn",
            )
        return masters.use(state, who)
    if prompt == award.SET_ASIDE:
        step = award.set_aside_step(state)
        if step is not None and seat in (None, step.seat):
            return abilities.answer_set_aside(state, answer)
    handler = _ANSWERS.get(prompt)
    step = _step(state, prompt, seat)
    if handler is None or step is None:
        return Rejected(NO_PROMPT, "nobody is asked that now", "answer what the waiting line asks")
    return handler(state, step, answer)


def unasked(state: State, prompt: str, answer: str, seat: int | None) -> Rejected | None:
    """The rules' refusal of an answer no open prompt asks for, when a rule says why it is not
    asked (game.py asks before the platform's TABLE-NO-PROMPT): a once-a-round guild master
    already turned sideways this round (R-OPT-E-2), a call of the watch with the watch deck
    empty just after a stake card was discarded (G-22). None for any other unasked answer.
    ``seat`` is the answering seat, None for the organiser (then the actor, or for the watch
    any seat whose pile shows a stake card on top)."""
    if state.phase != INTRIGUE:
        return None
    if prompt == "master" and answer == "use":
        who = state.active_seat if seat is None else seat
        one = state.seats[who] if 0 <= who < len(state.seats) else None
        if (
            one is not None
            and state.options.guild_masters
            and one.master
            and one.master_used
            and masters.once(state, one.master)
        ):
            return masters.spent(who)
        return None
    if prompt == discards.STAKE_DISCARD and answer == discards.WATCH:
        seats = range(len(state.seats)) if seat is None else (seat,)
        if (
            state.options.watch
            and state.watch_deck == 0
            and any(_stake_on_top(state, s) for s in seats)
        ):
            return discards.watch_spent()
    return None


def _stake_on_top(state: State, seat: int) -> bool:
    """Whether ``seat``'s discard pile shows a stake card on top (just discarded)."""
    if not 0 <= seat < len(state.seats):
        return False
    pile = state.seats[seat].discard
    return bool(pile) and pile[-1] in STAKES


def _step(state: State, kind: str, seat: int | None) -> Step | None:
    """The first open step of ``kind`` for ``seat`` (any seat for the organiser; ``confirm``
    is the organiser's, whoever game.py says answers it)."""
    for step in state.steps:
        if step.kind == kind and (seat is None or kind == "confirm" or step.seat == seat):
            return step
    return None


def _stake(state: State, did: str, piece: str) -> Accepted[State] | Rejected:
    """A card on a district's stake pad: the stake itself read again, or the next stake of a
    district awaiting it (G-35, award.turn_up)."""
    district = state.district(did)
    if piece == district.stake:
        return Accepted(state)
    if district.awaiting:
        return award.turn_up(state, did, piece)
    where = district_words(did)
    return Rejected(
        "R-INT-1",
        f"that card cannot be {where}'s stake now: its stake is not won",
        f"take it off {where}'s stake pad",
    )


def _badge(state: State, seat: int, piece: str) -> Accepted[State] | Rejected:
    """A card on a badge pad: what lies there already (badge, master, objectives, set-aside
    stakes) changes nothing; a won stake answers ``set_aside`` ``badge`` (R-OPT-T-1)."""
    one = state.seats[seat]
    known = {f"badge_{one.guild}", one.master, *one.objectives, *one.set_aside}
    if piece in known:
        return Accepted(state)
    answer = award.pad_answer(state, zones.badge_zone(seat), piece)
    if answer is not None:
        return abilities.answer_set_aside(state, answer)
    return Rejected(
        "R-INT-1",
        f"that card cannot go under {possessive(seat)} badge now",
        "take it off the badge pad",
    )


def _event(state: State, piece: str) -> Accepted[State] | Rejected:
    """A card on the event pad in the intrigue phase: the face-up next event read again."""
    events = state.events
    if events is not None and piece in (events.next, events.now):
        return Accepted(state)
    return Rejected(
        "R-INT-1",
        "that card cannot go on the event pad now",
        "take it off; the next event is turned up at the start of a round",
    )
