"""Arcana's results phase (docs/games/arcana.md, "The results phase"; R-RES, R-MULTI, R-HARL-1,
R-TIE, G-9 … G-11, G-17, G-20).

One district at a time: the first player names it (``next_district``) among the unsettled
districts with a stake and cards there (G-20); every card there turns face up (G-9); with
several majors each seat with agents there declares in turn order from the first player
(``declare``, G-11); each Harlequin's owner names the agent it copies (``copy``, R-HARL-1,
G-17); then the sums (sums.py), the winner and its reason (ties.py), and the cards go where
award.py sends them (R-RES-4, R-RES-5). A won stake with ``set_aside`` waits for its winner's
``set_aside`` answer. When every district is settled the round ends (rounds.end_round).

``question(state)`` is the one open question of the phase (prompts.py words it).
"""

from __future__ import annotations

from scorekeeper.core.answering import NO_PROMPT
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana import award, rounds, sums, ties
from scorekeeper.games.arcana.lookup import district_with, placed_with
from scorekeeper.games.arcana.names import district_words, owned_card, the_card
from scorekeeper.games.arcana.state import (
    RESULTS,
    DistrictResult,
    Resolution,
    State,
    evolve,
    with_district,
)

NEXT_DISTRICT = "next_district"
DECLARE = "declare"
COPY = "copy"
SET_ASIDE = award.SET_ASIDE
NONE = sums.NONE
"""The ``declare`` and ``copy`` answer for none (G-11; a Harlequin alone, R-HARL-1)."""

Outcome = Accepted[State] | Rejected


def candidates(state: State) -> tuple[str, ...]:
    """The districts the first player may name next (R-RES-1, G-20): not settled this round,
    showing a stake (not the Prince's Games card, R-END-1) and not awaiting one (G-35). A
    district with no card at it is named too: nobody wins it (R-RES-5)."""
    return tuple(
        d.id
        for d in state.districts
        if not d.resolved and not d.awaiting and sums.stake_card(state, d.id) is not None
    )


def question(state: State) -> tuple[str, int, tuple[str, ...], str] | None:
    """The open question of the results phase as ``(prompt, seat, answers, card)``: the
    winner's ``set_aside`` (card: the stake), the first player's ``next_district``, a seat's
    ``declare``, a Harlequin owner's ``copy`` (card: the Harlequin). None outside the phase or
    when nothing is asked (the round has ended and stakes are awaited)."""
    if state.phase != RESULTS:
        return None
    step = award.set_aside_step(state)
    if step is not None:
        return SET_ASIDE, step.seat, (award.DISCARD_ANSWER, award.BADGE_ANSWER), step.card
    res = state.resolution
    if res is None:
        open_ = candidates(state)
        return (NEXT_DISTRICT, state.first_seat, open_, "") if open_ else None
    seat = next_declarer(state)
    if seat is not None:
        stake = sums.stake_card(state, res.district)
        majors = stake.majors if stake is not None else ()
        return DECLARE, seat, (*majors, NONE), ""
    copier = next_copier(state)
    if copier is not None:
        card, owner = copier
        return COPY, owner, copy_answers(state, card), card
    return None


def turn_order(state: State) -> tuple[int, ...]:
    """Every seat in turn order from the first player (R-MULTI-1)."""
    n = len(state.seats)
    return tuple((state.first_seat + k) % n for k in range(n))


def next_declarer(state: State) -> int | None:
    """The next seat to declare at the district under way (several majors only), or None."""
    res = state.resolution
    if res is None:
        return None
    stake = sums.stake_card(state, res.district)
    if stake is None or len(stake.majors) < 2:
        return None
    there = set(sums.seats_at(state, res.district))
    done = {s for s, _ in res.declared}
    return next((s for s in turn_order(state) if s in there and s not in done), None)


def next_copier(state: State) -> tuple[str, int] | None:
    """The next Harlequin at the district under way whose copy is not named yet, as ``(card,
    owner)``, in the order laid; None when every copy is named."""
    res = state.resolution
    if res is None:
        return None
    done = {card for card, _ in res.copies}
    for placed in state.district(res.district).agents:
        if placed.card not in done and sums.is_copier(state.card(placed.card)):
            return placed.card, placed.owner
    return None


def copy_answers(state: State, harlequin: str) -> tuple[str, ...]:
    """What a Harlequin may copy: every other agent at its district (G-17: its owner's or
    another's, watch cards too); ``none`` only when it is alone there (R-HARL-1)."""
    res = state.resolution
    did = res.district if res is not None else ""
    others = tuple(p.card for p in state.district(did).agents if p.card != harlequin)
    return others or (NONE,)


def decide(state: State, prompt: str, answer: str, seat: int | None) -> Outcome:
    """An answer of the results phase. The caller has matched the prompt and the seat (the
    organiser answers for the seat asked); the answer itself is checked here."""
    asked = question(state)
    if asked is None or asked[0] != prompt:
        return Rejected(NO_PROMPT, "nobody is asked that now", "answer what the waiting line asks")
    kind, who, answers, card = asked
    if prompt == SET_ASIDE:
        return _set_aside(state, answer)
    if prompt == NEXT_DISTRICT:
        if answer not in answers:
            named = ", ".join(district_words(d) for d in answers)
            return Rejected(NO_PROMPT, "that district is not one to settle now", f"name {named}")
        return _open(state, answer)
    if prompt == DECLARE:
        if answer not in answers:
            return Rejected(
                "R-MULTI-1",
                "that arcanum is not one of the stake's major arcana",
                " or ".join(answers[:-1]) + ", or none",
            )
        res = state.resolution
        assert res is not None
        line = f"{seat_ref(who)} counts {answer if answer != NONE else 'no arcanum'}"
        new = Resolution(res.district, (*res.declared, (who, answer)), res.copies)
        return _advance(evolve(state, resolution=new), (line,))
    if answer not in answers:
        did = district_words(state.resolution.district if state.resolution else "")
        return Rejected(
            "R-HARL-1",
            "the Harlequin copies another agent at its own district",
            f"an agent at {did}",
        )
    res = state.resolution
    assert res is not None
    copied = "nothing: it counts 0" if answer == NONE else _agent_words(state, answer)
    line = f"{owned_card(state.pack, card, who)} copies {copied}"
    new = Resolution(
        res.district, res.declared, (*res.copies, (card, "" if answer == NONE else answer))
    )
    return _advance(evolve(state, resolution=new), (line,))


def _agent_words(state: State, piece: str) -> str:
    """An agent at a district by owner and name (every card is face up in the results)."""
    for district in state.districts:
        for placed in district.agents:
            if placed.card == piece:
                return owned_card(state.pack, piece, placed.owner)
    return the_card(state.pack, piece)


def _open(state: State, did: str) -> Outcome:
    """District ``did`` is named: every card there turns face up (G-9); a lone Harlequin copies
    nothing without asking (R-HARL-1)."""
    district = state.district(did)
    agents = tuple(p if p.face_up else placed_with(p, face_up=True) for p in district.agents)
    state = with_district(state, district_with(district, agents=agents))
    shown = [owned_card(state.pack, p.card, p.owner) for p in district.agents if not p.face_up]
    stake = the_card(state.pack, district.stake or "")
    line = f"{seat_ref(state.first_seat)} names {district_words(did)} ({stake})"
    lines = [line]
    if shown:
        lines.append("Turned face up: " + ", ".join(shown))
    copies = tuple(
        (p.card, "") for p in agents if sums.is_copier(state.card(p.card)) and len(agents) == 1
    )
    return _advance(evolve(state, resolution=Resolution(did, (), copies)), tuple(lines))


def _advance(state: State, lines: tuple[str, ...]) -> Outcome:
    """Settle the district under way once nobody has anything left to answer there."""
    if next_declarer(state) is not None or next_copier(state) is not None:
        return Accepted(state, lines)
    state, more = settle(state)
    return Accepted(state, (*lines, *more))


def settle(state: State) -> tuple[State, tuple[str, ...]]:
    """The district under way is settled (R-RES-2 … 5, R-TIE, R-MULTI-2): its sums, winner and
    reason go to the history, its cards where award.py sends them; then the next question, or
    the end of the round."""
    res = state.resolution
    assert res is not None
    did = res.district
    declared = dict(res.declared)
    copies = dict(res.copies)
    stake = sums.stake_card(state, did)
    arcana = sums.counted_arcana(state, did, declared)
    got = sums.district_sums(state, did, declared, copies)
    limits = sums.thresholds(state, did, declared)
    single = stake.majors[0] if stake is not None and len(stake.majors) == 1 else NONE
    why = ties.tie_reasons(state, did, single, arcana=arcana)
    winner, reason = ties.decide(
        got,
        limits,
        frozenset(why),
        state.options.tie_breakers,
        sums.seats_at(state, did),
        why=why,
    )
    result = DistrictResult(
        round=state.round,
        district=did,
        stake=state.district(did).stake or "",
        arcana=tuple(sorted(arcana.items())),
        sums=tuple(sorted(got.items())),
        winner=winner,
        reason=reason,
    )
    district = state.district(did)
    state = with_district(state, district_with(district, resolved=True))
    state = evolve(state, resolution=None)
    lines = [f"{rounds.capital(district_words(did))}: {reason}"]
    if winner is None:
        state, more = award.keep_all(state, did, result)
    else:
        state, more = award.win_stake(state, did, winner, result)
    lines += more
    state, rest = _onwards(state)
    return state, (*lines, *rest)


def _set_aside(state: State, answer: str) -> Outcome:
    """The winner's ``set_aside`` answer (R-OPT-T-1); then the next question or the round's
    end."""
    got = award.answer_set_aside(state, answer)
    if isinstance(got, Rejected):
        return got
    state, lines = got
    state, rest = _onwards(state)
    return Accepted(state, (*lines, *rest))


def _onwards(state: State) -> tuple[State, tuple[str, ...]]:
    """After a district is settled or a won stake placed: the round ends when nothing is open
    and no district is left to settle (R-EOR-1)."""
    if state.steps or candidates(state):
        return state, ()
    return rounds.end_round(state)


def observe(state: State, zone: str, piece: str) -> Outcome:
    """An arrival during the results: a won stake laid on its winner's badge or discard pad
    answers ``set_aside``; a stake turned up at a district awaiting one; the next event.
    Anything laid at a district or discarded is refused: the results are under way
    (R-INT-1)."""
    answer = award.pad_answer(state, zone, piece)
    if answer is not None:
        return _set_aside(state, answer)
    from scorekeeper.games.arcana import zones

    where = zones.parse(zone)
    if where is not None and where[0] == zones.BADGE and piece in state.seats[where[2]].objectives:
        return Accepted(state)  # a kept objective read again beside its badge
    if where is not None and where[0] == zones.STAKE:
        return rounds.observe_stake(state, where[1], piece)
    if where is not None and where[0] == zones.EVENT:
        return rounds.observe_event(state, piece)
    return Rejected(
        "R-INT-1",
        "the results are under way: no card is played now",
        "wait for the results, then the next round",
    )
