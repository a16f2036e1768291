"""Bribery in the intrigue phase (A4, R-BRIBE-1 … 3, G-13 … G-15, G-30, G-31).

A relic arrives on a district's agent pad: it must be a citizen with a ducat value there
(R-BRIBE-1) and the actor must have an agent there (R-BRIBE-2). Which agent takes it is asked
only when it matters (``relic_on``, private, G-31), which arcanum only with several majors
(``bribe_arcanum``, G-15); the agent that takes it turns face up (G-14). Then S (sums.bribe_sum)
against the citizen's ducat: the citizen is won at once (award.win_stake, G-30, G-35) or the
bribe falls short and the relic stays. The feed gives the outcome, never S: S counts face-down
agents (docs/games/arcana.md, "Private information").

A re-check (``recheck``, G-13) runs when the briber adds an agent at a district holding one of
its relics, in the arcanum it named there (``District.bribes``).
"""

from __future__ import annotations

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana import award, sums
from scorekeeper.games.arcana.abilities import resume
from scorekeeper.games.arcana.cards import CITIZEN, Effect
from scorekeeper.games.arcana.lookup import district_with, placed_with, seat_with
from scorekeeper.games.arcana.names import district_words, owned_card, the_card
from scorekeeper.games.arcana.state import (
    DistrictResult,
    Placed,
    State,
    Step,
    evolve,
    with_district,
    with_seat,
)
from scorekeeper.games.arcana.turns import END

Lines = tuple[str, ...]
RELIC_ON = "relic_on"
BRIBE_ARCANUM = "bribe_arcanum"


def refusal(state: State, did: str, seat: int, relic: str) -> Rejected | None:
    """Why ``seat`` may not lay ``relic`` at ``did`` (R-BRIBE-1, R-BRIBE-2), or None."""
    district = state.district(did)
    stake = state.card(district.stake) if district.stake else None
    name = the_card(state.pack, relic)
    where = district_words(did)
    if stake is None or stake.type != CITIZEN or stake.ducat is None:
        what = "a citizen without a ducat value" if stake is not None else "no stake"
        if stake is not None and stake.type != CITIZEN:
            what = f"a {stake.type}"
        return Rejected(
            "R-BRIBE-1",
            f"{name} cannot bribe at {where}: its stake is {what}",
            "take it back; bribe a citizen with a ducat value",
        )
    if not any(a.owner == seat for a in district.agents):
        return Rejected(
            "R-BRIBE-2",
            f"{name} cannot bribe at {where}: {seat_ref(seat)} has no agent there",
            "take it back; lay an agent there first",
        )
    return None


def arrive(state: State, did: str, seat: int, relic: str) -> Accepted[State] | Rejected:
    """A4: ``seat`` (the actor, with cards in hand, the district open) lays ``relic`` at
    ``did``. Refusals first; then the hand is one less, the arcanum is asked with several
    majors (G-15), then the agent when it matters (G-31), then the check."""
    wrong = refusal(state, did, seat, relic)
    if wrong is not None:
        return wrong
    one = state.seats[seat]
    state = with_seat(
        state, seat, seat_with(one, hand=one.hand - 1, hand_known=one.hand_known - {relic})
    )
    line = f"{seat_ref(seat)} bribes at {district_words(did)} with {the_card(state.pack, relic)}"
    majors = _majors(state, did)
    if len(majors) > 1:
        step = Step(BRIBE_ARCANUM, seat, card=relic, district=did, effects=(END,))
        return Accepted(evolve(state, steps=(step, *state.steps)), (line,))
    state, lines = _which_agent(_named(state, did, seat, majors[0]), seat, did, relic, (END,))
    return Accepted(state, (line, *lines))


def answer_arcanum(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """``bribe_arcanum``: the citizen's major the bribe is counted in (G-15), recorded for
    later re-checks (G-13)."""
    majors = _majors(state, step.district)
    if answer not in majors:
        stake = the_card(state.pack, state.district(step.district).stake or "")
        return Rejected(
            "R-MULTI-1",
            f"that arcanum is not a major arcanum of {stake}",
            "choose " + " or ".join(majors),
        )
    state = evolve(state, steps=tuple(s for s in state.steps if s is not step))
    state = _named(state, step.district, step.seat, answer)
    state, lines = _which_agent(state, step.seat, step.district, step.card, step.effects)
    return Accepted(state, lines)


def relic_on_answers(state: State, step: Step) -> tuple[str, ...]:
    """The agents the relic may lie on: the briber's own at the district (card ids; the
    prompt is private, G-31)."""
    return tuple(a.card for a in state.district(step.district).agents if a.owner == step.seat)


def answer_relic_on(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """``relic_on``: the briber's agent the relic lies on."""
    if answer not in relic_on_answers(state, step):
        return Rejected(
            "R-BRIBE-2",
            "the relic goes on one of the briber's own agents at that district",
            "choose one of your agents there",
        )
    agent = next(a for a in state.district(step.district).agents if a.card == answer)
    state = evolve(state, steps=tuple(s for s in state.steps if s is not step))
    state, lines = _on_agent(state, step.seat, step.district, step.card, agent, step.effects)
    return Accepted(state, lines)


def _majors(state: State, did: str) -> tuple[str, ...]:
    """The major arcana of ``did``'s stake."""
    stake = state.card(state.district(did).stake or "")
    return stake.majors if stake is not None else ()


def _named(state: State, did: str, seat: int, arcanum: str) -> State:
    """``seat`` bribes at ``did`` in ``arcanum`` (District.bribes, G-15)."""
    district = state.district(did)
    named = tuple((s, a) for s, a in district.bribes if s != seat) + ((seat, arcanum),)
    return with_district(state, district_with(district, bribes=named))


def _which_agent(
    state: State, seat: int, did: str, relic: str, then: tuple[Effect, ...]
) -> tuple[State, Lines]:
    """Ask ``relic_on`` when it matters (two or more own agents there, one face down: G-31),
    else lay the relic on the first own agent laid."""
    own = [a for a in state.district(did).agents if a.owner == seat]
    if len(own) >= 2 and any(not a.face_up for a in own):
        step = Step(RELIC_ON, seat, card=relic, district=did, effects=then)
        return evolve(state, steps=(step, *state.steps)), ()
    return _on_agent(state, seat, did, relic, own[0], then)


def _on_agent(
    state: State, seat: int, did: str, relic: str, agent: Placed, then: tuple[Effect, ...]
) -> tuple[State, Lines]:
    """The relic lies on ``agent``, which turns face up (G-14); then the check in the
    arcanum named, and ``then`` unless a set-aside step now holds it."""
    district = state.district(did)
    laid = placed_with(agent, face_up=True, relics=(*agent.relics, relic))
    agents = tuple(laid if a is agent else a for a in district.agents)
    state = with_district(state, district_with(district, agents=agents))
    name = owned_card(state.pack, agent.card, seat)
    line = f"The relic lies on {name}" + ("" if agent.face_up else ": turn it face up")
    majors = _majors(state, did)
    arcanum = dict(district.bribes).get(seat, majors[0] if majors else "")
    state, lines, won = _settle(state, did, seat, arcanum, relic, then)
    lines = lines or ("The bribe falls short: the relic stays",)
    if won and state.options.set_aside:
        return state, (line, *lines)
    state, more = resume(state, seat, then, relic)
    return state, (line, *lines, *more)


def _settle(
    state: State, did: str, seat: int, arcanum: str, relic: str, then: tuple[Effect, ...]
) -> tuple[State, Lines, bool]:
    """S against the citizen's ducat: on success the citizen is won at once; no lines when
    the bribe falls short."""
    district = state.district(did)
    stake = state.card(district.stake or "")
    if stake is None or stake.ducat is None:
        return state, (), False
    if sums.bribe_sum(state, did, seat, arcanum, relic) < stake.ducat:
        return state, (), False
    reason = f"{seat_ref(seat)} bribes {the_card(state.pack, stake.id)}"
    result = DistrictResult(state.round, did, stake.id, ((seat, arcanum),), (), seat, reason, True)
    state, lines = award.win_stake(state, did, seat, result, then=then)
    return state, ("The bribe succeeds", *lines), True


def recheck(
    state: State, did: str, seat: int, *, then: tuple[Effect, ...] = ()
) -> tuple[State, Lines, bool]:
    """G-13: ``seat`` added an agent at ``did``; if one of its relics lies there the bribe is
    checked again in the arcanum it named. Returns the state, the lines (none when nothing
    changes: a bribe still short says nothing, its S is private) and whether it won; on a
    win with ``set_aside`` the set-aside step holds ``then``."""
    district = state.district(did)
    if not any(a.owner == seat and a.relics for a in district.agents):
        return state, (), False
    stake = state.card(district.stake or "")
    if stake is None or stake.type != CITIZEN or not stake.majors:
        return state, (), False
    arcanum = dict(district.bribes).get(seat, stake.majors[0])
    return _settle(state, did, seat, arcanum, "", then)
