"""A district's stake won or kept: where every card at the district goes (R-RES-4, R-RES-5,
R-INT-5, R-BRIBE-3, G-22, G-30, G-34, G-35), the tactical set-aside's answer (R-OPT-T-1,
G-26), and the next stake turned up after an immediate win (G-5, G-7, G-35).

Used by the results phase (results.py) and by the intrigue phase (a bribe, an ability's
``immediate_win``). Every line returned is a public feed line: by the time a district is won,
every card there is face up (G-9 in results, G-30 at once), so each is named.

The Prince's Games card turned up mid-round (G-7): with ``late_princes_games: this_round`` this
round becomes the last (``State.final_round``); with ``next_round`` nothing is marked but the
card itself lying on the neutral district (``District.stake == PRINCES_GAMES_CARD``), which
rounds.end_round reads as it does for the card turned up at the end of a round.
"""

from __future__ import annotations

from scorekeeper.core.answering import NO_PROMPT
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana.cards import PRINCES_GAMES_CARD, STAKES, Effect
from scorekeeper.games.arcana.lookup import district_with, placed_with, seat_with
from scorekeeper.games.arcana.names import district_words, possessive, the_card
from scorekeeper.games.arcana.princes import neutral_order
from scorekeeper.games.arcana.state import (
    NEUTRAL,
    DistrictResult,
    State,
    Step,
    evolve,
    with_district,
    with_seat,
)

SET_ASIDE = "set_aside"
DISCARD_ANSWER = "discard"
BADGE_ANSWER = "badge"


def win_stake(
    state: State,
    did: str,
    winner: int,
    result: DistrictResult,
    *,
    then: tuple[Effect, ...] = (),
) -> tuple[State, tuple[str, ...]]:
    """``winner`` wins district ``did``'s stake: every card there goes face up to its owner's
    discard pile, watch cards back to the watch deck (G-34); the stake to the winner's discard
    pile, or with ``set_aside`` a ``set_aside`` step first in ``state.steps`` (its ``effects``
    are ``then``: what the caller still has to run once it is answered). The district awaits
    its next stake, or is empty for good when its pile is spent (G-5); ``result`` is appended
    to the history. Returns the new state and the feed lines (G-30)."""
    district = state.district(did)
    stake = district.stake or ""
    pack = state.pack
    won = f"{seat_ref(winner)} wins {the_card(pack, stake)} at {district_words(did)}"
    lines = [won + (" at once" if result.immediate else "")]
    piles: dict[int, list[str]] = {}
    watch_back: list[str] = []
    for one in district.agents:
        if one.watch:
            watch_back.append(one.card)
        else:
            piles.setdefault(one.owner, []).append(one.card)
        piles.setdefault(one.owner, []).extend(one.relics)
    set_aside = state.options.set_aside
    if not set_aside and stake:
        piles.setdefault(winner, []).insert(0, stake)
    for seat in sorted(piles):
        cards = piles[seat]
        if not cards:
            continue
        old = state.seats[seat]
        state = with_seat(state, seat, seat_with(old, discard=(*old.discard, *cards)))
        named = _listed([the_card(pack, c) for c in cards])
        lines.append(f"To {possessive(seat)} discard pile: {named}")
    for card in watch_back:
        lines.append(f"{_capital(the_card(pack, card))} goes back to the watch deck")
    if stake:
        old = state.seats[winner]
        state = with_seat(state, winner, seat_with(old, owned=old.owned | {stake}))
    more = district.pile > 0
    state = with_district(
        state, district_with(district, stake=None, agents=(), awaiting=more, bribes=())
    )
    state = evolve(
        state,
        watch_deck=state.watch_deck + len(watch_back),
        history=(*state.history, result),
    )
    if set_aside and stake:
        step = Step(SET_ASIDE, winner, card=stake, district=did, effects=then)
        state = evolve(state, steps=(step, *state.steps))
        lines.append(
            f"{seat_ref(winner)} puts {the_card(pack, stake)} on the discard pile or under "
            "the badge"
        )
    if result.immediate:
        lines.append(
            f"Turn up {district_words(did)}'s next stake"
            if more
            else f"{_capital(district_words(did))}'s pile is used up: it stays empty"
        )
    return state, tuple(lines)


def keep_all(state: State, did: str, result: DistrictResult) -> tuple[State, tuple[str, ...]]:
    """Nobody wins district ``did`` (R-RES-5, G-9): every card stays there, face up, into the
    next round; ``result`` goes to the history. Returns the state and the feed line."""
    district = state.district(did)
    agents = tuple(a if a.face_up else placed_with(a, face_up=True) for a in district.agents)
    state = with_district(state, district_with(district, agents=agents))
    state = evolve(state, history=(*state.history, result))
    stake = the_card(state.pack, district.stake or "")
    line = f"Nobody wins {stake} at {district_words(did)}: every card stays there, face up"
    return state, (line,)


def set_aside_step(state: State) -> Step | None:
    """The open ``set_aside`` step, or None."""
    return next((s for s in state.steps if s.kind == SET_ASIDE), None)


def answer_set_aside(state: State, answer: str) -> tuple[State, tuple[str, ...]] | Rejected:
    """The winner's answer to ``set_aside``: ``discard`` (the stake onto its discard pile) or
    ``badge`` (under its badge for good, R-OPT-T-1). The step is removed; the caller runs its
    ``effects`` (what the action still had to do)."""
    step = set_aside_step(state)
    if step is None:
        return Rejected(NO_PROMPT, "no won stake waits for its place", "nothing to answer")
    if answer not in (DISCARD_ANSWER, BADGE_ANSWER):
        return Rejected(
            NO_PROMPT,
            "a won stake goes onto the discard pile or under the badge",
            "put it onto the discard pile or under the badge",
        )
    old = state.seats[step.seat]
    name = the_card(state.pack, step.card)
    if answer == BADGE_ANSWER:
        new = seat_with(old, set_aside=(*old.set_aside, step.card))
        line = f"{seat_ref(step.seat)} sets {name} aside under the badge"
    else:
        new = seat_with(old, discard=(*old.discard, step.card))
        line = f"{seat_ref(step.seat)} puts {name} on the discard pile"
    state = with_seat(state, step.seat, new)
    steps = list(state.steps)
    steps.remove(step)
    return evolve(state, steps=tuple(steps)), (line,)


def pad_answer(state: State, zone: str, piece: str) -> str | None:
    """What an arrival answers to an open ``set_aside`` step: the won stake laid on its
    winner's badge pad answers ``badge``, on its discard pad ``discard``; None otherwise."""
    step = set_aside_step(state)
    if step is None or piece != step.card:
        return None
    if zone == f"badge:{step.seat}":
        return BADGE_ANSWER
    if zone == f"discard:{step.seat}":
        return DISCARD_ANSWER
    return None


def turn_up(state: State, did: str, piece: str) -> Accepted[State] | Rejected:
    """``piece`` arrives on the stake pad of district ``did``, which awaits its next stake
    after an immediate win (G-35): it becomes the stake, the pile one less. The Prince's
    Games card on the neutral district (without ``events``) marks the last round as the
    module docstring says (G-7)."""
    district = state.district(did)
    where = district_words(did)
    princes = piece == PRINCES_GAMES_CARD and did == NEUTRAL and not state.options.events
    known = any(piece in s.owned for s in state.seats) or any(
        d.stake == piece for d in state.districts
    )
    if not princes and (piece not in STAKES or known):
        return Rejected(
            "G-35",
            f"that card is not {where}'s next stake",
            f"take it off; turn up the top card of {where}'s pile",
        )
    early = neutral_order(state, district, piece == PRINCES_GAMES_CARD)
    if early is not None:
        return early
    state = with_district(
        state, district_with(district, stake=piece, pile=district.pile - 1, awaiting=False)
    )
    if not princes:
        return Accepted(state, (f"{_capital(where)}'s new stake: {the_card(state.pack, piece)}",))
    if state.options.late_princes_games == "this_round":
        state = evolve(state, final_round=True)
        last = "this round is the last"
    else:
        last = "one more round after this one, the last"
    return Accepted(state, (f"The Prince's Games card is turned up: {last}",))


def _listed(names: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _capital(text: str) -> str:
    """``text`` with a capital first letter (a feed line's start)."""
    return text[:1].upper() + text[1:]
