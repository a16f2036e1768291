"""The engine of the ability vocabulary in the intrigue phase (docs/games/arcana.md,
"Abilities"): a location played (``when: play``, A3) and a guild master used (``when: use``,
R-OPT-E-2, G-38) run their effects in order, each as far as it can go without a person.

An effect that needs the table opens a Step, first in ``State.steps``, whose ``effects`` are
the effect itself followed by the rest of the chain (``turns.END`` last for an action), and
whose ``card`` is the card whose ability runs:

- ``keep`` (``draw_keep``): ``count`` cards awaited on the seat's discard pad (discards.py);
- ``move`` (``move_agent``): an agent's arrival at another district's pad (``arrive_moved``)
  or the answer ``none``;
- ``win_at`` (``immediate_win``): a district letter (``win_answers``), or ``none``;
- ``return`` (``return_agent``): an agent at a district, a face-up one by card id, a
  face-down one by its place ``<district>.<k>`` (its k-th card, 1-based, in the order laid,
  words.place_answer): the public prompt never names it (``return_answers``), or ``none``;
- ``manual`` then ``confirm`` (G-33).

``draw``, ``draw_keep``'s draw and ``extra_action`` need nobody; ``add``, ``tie_win``,
``copy_agent`` and ``bribe_bonus`` act in the results or a bribe's sum (sums.py, ties.py): the
pack check refuses them on a played location or a used master (pack_vocab.EFFECTS_BY_WHEN).
Conditions (``if_stake``, ``if_major``) narrow the districts an effect may act on (its target:
where a stake is won, an agent returned, an agent moved to); an effect with no district acts
regardless.
"""

from __future__ import annotations

from scorekeeper.core.answering import NO_PROMPT
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.arcana import award, rounds
from scorekeeper.games.arcana.cards import PRINCES_GAMES_CARD, Ability, Effect
from scorekeeper.games.arcana.lookup import (
    closed,
    district_with,
    face_up_at,
    placed_at,
    relation,
    seat_with,
)
from scorekeeper.games.arcana.names import (
    district_words,
    face_down_words,
    owned_card,
    the_card,
)
from scorekeeper.games.arcana.state import (
    District,
    DistrictResult,
    Placed,
    State,
    Step,
    evolve,
    with_district,
    with_seat,
)
from scorekeeper.games.arcana.turns import END, end_action, settle

Lines = tuple[str, ...]

NONE = "none"
DONE = "done"
DREW = "drew:"
ANY = "any"


def ability_of(state: State, piece: str, when: str) -> Ability | None:
    """The ability of ``piece`` if it acts ``when`` (``play``, ``use``) with some effect."""
    card = state.card(piece)
    ability = card.ability if card is not None else None
    if ability is None or ability.when != when or not ability.effects:
        return None
    return ability


def resume(
    state: State, seat: int, effects: tuple[Effect, ...], source: str
) -> tuple[State, Lines]:
    """Run ``effects`` for ``seat`` (the ability of ``source``) until one opens a step or all
    are done; ``END`` ends the action. Returns the state and the feed lines."""
    lines: list[str] = []
    rest = list(effects)
    while rest:
        one = rest.pop(0)
        if one == END:
            return end_action(state), tuple(lines)
        state, more, opened = _run(state, seat, one, tuple(rest), source)
        lines += more
        if opened:
            return state, tuple(lines)
    return settle(state), tuple(lines)


def _open(state: State, step: Step) -> State:
    """``step`` becomes the first thing the table waits for."""
    return evolve(state, steps=(step, *state.steps))


def _run(
    state: State, seat: int, one: Effect, rest: tuple[Effect, ...], source: str
) -> tuple[State, list[str], bool]:
    """One effect: the new state, its lines, and whether it opened a step."""
    who = seat_ref(seat)
    name = the_card(state.pack, source)
    chain = (one, *rest)
    if one.kind in ("draw", "draw_keep"):
        want = int(one.get("n" if one.kind == "draw" else "draw", 0) or 0)
        before = state.seats[seat].hand
        state = rounds.draw(state, seat, want)
        drawn = state.seats[seat].hand - before
        lines = [f"{who} draws {plural(drawn, 'card')} ({name})"]
        let_go = drawn - int(one.get("keep", 0) or 0) if one.kind == "draw_keep" else 0
        if let_go > 0:
            step = Step("keep", seat, card=source, count=let_go, effects=chain)
            lines.append(f"{who} discards {let_go} of them on the discard pad")
            return _open(state, step), lines, True
        return state, lines, False
    if one.kind == "extra_action":
        return evolve(state, actions=state.actions + 1), [f"{who} takes one more action"], False
    if one.kind == "manual":
        text = str(one.get("text", "") or "")
        step = Step("manual", seat, card=source, effects=chain)
        line = f"{who} carries out {name} by hand" + (f": {text}" if text else "")
        return _open(state, step), [line], True
    if one.kind == "move_agent" and _movable(state, seat, one, source):
        step = Step("move", seat, card=source, effects=chain)
        return _open(state, step), [f"{who} may move an agent ({name})"], True
    if one.kind == "immediate_win" and win_answers(state, seat, one, source):
        return _open(state, Step("win_at", seat, card=source, effects=chain)), [], True
    if one.kind == "return_agent" and return_answers(state, seat, one, source):
        return _open(state, Step("return", seat, card=source, effects=chain)), [], True
    if one.kind in ("move_agent", "immediate_win", "return_agent"):
        return state, [f"{_capital(name)}: nothing it could act on"], False
    return state, [], False  # add, tie_win, copy_agent, bribe_bonus: sums.py reads them


# Which districts an effect may act on.


def _relation_ok(state: State, seat: int, did: str, wanted: object) -> bool:
    """Whether ``did`` is to ``seat`` one of ``wanted`` (a word or words; ``any`` takes every
    district; ``here`` none: a location or a master acts from no district, as prompts.py
    reads it too)."""
    if wanted in (None, "", ANY):
        return True
    words = (wanted,) if isinstance(wanted, str) else tuple(wanted)  # type: ignore[arg-type]
    return ANY in words or relation(state, seat, did) in words


def _conditions_ok(state: State, district: District, source: str) -> bool:
    """Whether the source ability's ``if_stake`` and ``if_major`` hold at ``district``."""
    card = state.card(source)
    conditions = card.ability.conditions if card is not None and card.ability else ()
    stake = state.card(district.stake) if district.stake else None
    for name, value in conditions:
        if stake is None:
            return False
        if name == "if_stake" and stake.type != value:
            return False
        if name == "if_major" and value not in stake.majors:
            return False
    return True


def _listed(value: object) -> tuple[str, ...]:
    """A field that is one word or a list of them, as a tuple ("" for none)."""
    if value in (None, ""):
        return ()
    return (value,) if isinstance(value, str) else tuple(value)  # type: ignore[arg-type]


def _whose_ok(seat: int, owner: int, whose: object) -> bool:
    """``whose``: ``own`` (the ability owner's agents), ``other`` or ``enemy`` (anyone
    else's), ``any``."""
    if whose == "own":
        return owner == seat
    if whose in ("other", "enemy"):
        return owner != seat
    return True


def win_answers(state: State, seat: int, one: Effect, source: str) -> tuple[str, ...]:
    """The districts ``immediate_win`` may win at: a stake shown, of a listed type, where
    the effect says (R-INT-5). Public: stakes and places are seen by all."""
    types = _listed(one.get("stake_type"))
    out = []
    for district in state.districts:
        stake = state.card(district.stake) if district.stake else None
        if stake is None or district.stake == PRINCES_GAMES_CARD or district.awaiting:
            continue
        if types and stake.type not in types:
            continue
        if _relation_ok(state, seat, district.id, one.get("where")) and _conditions_ok(
            state, district, source
        ):
            out.append(district.id)
    return tuple(out)


def return_answers(state: State, seat: int, one: Effect, source: str) -> tuple[str, ...]:
    """The agents ``return_agent`` may send home: a face-up one by its card id, a face-down
    one by its place ``<district>.<k>`` (words.place_answer: a public prompt never names it)."""
    out = []
    for district in state.districts:
        if not _relation_ok(state, seat, district.id, one.get("where")):
            continue
        if not _conditions_ok(state, district, source):
            continue
        for k, agent in enumerate(district.agents, 1):
            if _whose_ok(seat, agent.owner, one.get("whose")):
                out.append(agent.card if agent.face_up else f"{district.id}.{k}")
    return tuple(out)


def _targets(state: State, seat: int, one: Effect, source: str, src: str) -> tuple[str, ...]:
    """The districts an agent at ``src`` may move to under ``one``."""
    return tuple(
        d.id
        for d in state.districts
        if d.id != src
        and closed(state, d.id, "") is None
        and _relation_ok(state, seat, d.id, one.get("to"))
        and _conditions_ok(state, d, source)
    )


def _movable(state: State, seat: int, one: Effect, source: str) -> bool:
    """Whether some agent may move under ``one`` (positions and owners only: public)."""
    for district in state.districts:
        if not _relation_ok(state, seat, district.id, one.get("from")):
            continue
        whose = one.get("whose")
        if any(_whose_ok(seat, a.owner, whose) for a in district.agents) and _targets(
            state, seat, one, source, district.id
        ):
            return True
    return False


def _pop(state: State, step: Step) -> State:
    """``state`` without ``step``."""
    steps = list(state.steps)
    steps.remove(step)
    return evolve(state, steps=tuple(steps))


def _wrong(what: str, hint: str) -> Rejected:
    return Rejected(NO_PROMPT, what, hint)


# The answers and arrivals that close an ability's step.


def answer_move(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """``move`` answered ``none``: no agent moves; the chain goes on. (The move itself is an
    arrival: ``arrive_moved``.)"""
    if answer != NONE:
        return _wrong(
            "an agent is moved by laying it at its new district",
            "lay the agent at its new district, or choose to move no agent",
        )
    state, lines = resume(_pop(state, step), step.seat, step.effects[1:], step.card)
    return Accepted(state, (f"{seat_ref(step.seat)} moves no agent", *lines))


def arrive_moved(
    state: State, step: Step | None, did: str, piece: str
) -> Accepted[State] | Rejected:
    """An agent the referee has at another district arrives on ``did``'s pad: with a
    ``move`` step open and the move allowed it takes the face of its new district (R-INT-6);
    with a ``manual`` step open it is taken as the table says (G-33); else refused. The words
    name it only when it is or becomes face up."""
    found = placed_at(state, piece)
    assert found is not None
    src, agent = found
    where = district_words(src.id)
    if agent.card != piece or step is None or step.kind not in ("move", "manual"):
        return Rejected(
            "R-INT-6",
            f"{_agent_words(state, agent)} is at {where}: no ability moves an agent now",
            f"put it back at {where}",
        )
    if step.kind == "move":
        one = step.effects[0]
        ok = _relation_ok(state, step.seat, src.id, one.get("from")) and _whose_ok(
            step.seat, agent.owner, one.get("whose")
        )
        if not ok or did not in _targets(state, step.seat, one, step.card, src.id):
            return Rejected(
                "R-INT-6",
                f"{the_card(state.pack, step.card)} cannot move "
                f"{_agent_words(state, agent)} from {where} to {district_words(did)}",
                f"put it back at {where}",
            )
    else:
        refusal = closed(state, did, _agent_words(state, agent))
        if refusal is not None:
            return refusal
    up = face_up_at(state, agent.owner, did)
    before = _agent_words(state, agent)
    moved = Placed(agent.card, agent.owner, up, agent.relics, agent.watch)
    state = with_district(
        state, district_with(src, agents=tuple(a for a in src.agents if a is not agent))
    )
    dest = state.district(did)
    state = with_district(state, district_with(dest, agents=(*dest.agents, moved)))
    line = f"{_capital(before)} moves from {where} to {district_words(did)}"
    if up and not agent.face_up:
        line = f"{_capital(owned_card(state.pack, piece, agent.owner))} moves from {where} to "
        line += f"{district_words(did)}: turn it face up"
    elif agent.face_up and not up:
        line += ": turn it face down"
    lines = [line]
    from scorekeeper.games.arcana import bribes  # a moved agent re-checks a bribe (G-13)

    # The chain goes on after the set-aside only when the mover's own bribe won.
    mine = step.kind == "move" and agent.owner == step.seat
    state, more, won = bribes.recheck(
        state, did, agent.owner, then=step.effects[1:] if mine else ()
    )
    lines += more
    if step.kind == "manual":
        return Accepted(state, tuple(lines))
    state = _pop(state, step)
    if not (won and mine and state.options.set_aside):
        state, rest = resume(state, step.seat, step.effects[1:], step.card)
        lines += rest
    return Accepted(state, tuple(lines))


def answer_win_at(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """``win_at``: the district whose stake the ability wins at once (R-INT-5, G-30)."""
    one = step.effects[0]
    if answer == NONE:
        state, lines = resume(_pop(state, step), step.seat, step.effects[1:], step.card)
        return Accepted(state, (f"{seat_ref(step.seat)} wins no stake", *lines))
    if answer not in win_answers(state, step.seat, one, step.card):
        return _wrong(
            "that district's stake cannot be won with this card",
            "choose one of the districts offered",
        )
    district = state.district(answer)
    stake = district.stake or ""
    reason = f"won at once with {the_card(state.pack, step.card)}"
    result = DistrictResult(state.round, answer, stake, (), (), step.seat, reason, True)
    rest = step.effects[1:]
    state, lines = award.win_stake(_pop(state, step), answer, step.seat, result, then=rest)
    if state.options.set_aside:
        return Accepted(state, lines)
    state, more = resume(state, step.seat, rest, step.card)
    return Accepted(state, (*lines, *more))


def answer_return(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """``return``: the agent sent to its owner's discard pile (a watch card to the watch
    deck, G-34), by card id (face up) or place ``<district>.<k>`` (face down)."""
    if answer == NONE:
        state, lines = resume(_pop(state, step), step.seat, step.effects[1:], step.card)
        return Accepted(state, (f"{seat_ref(step.seat)} sends no agent back", *lines))
    if answer not in return_answers(state, step.seat, step.effects[0], step.card):
        return _wrong(
            "that agent cannot be sent back with this card", "choose one of the agents offered"
        )
    found = placed_at(state, answer)
    if found is not None:
        district, agent = found
    else:
        did, _, k = answer.partition(".")
        district = state.district(did)
        agent = district.agents[int(k) - 1]
    did = district.id
    words = _agent_words(state, agent)
    state = with_district(
        state, district_with(district, agents=tuple(a for a in district.agents if a is not agent))
    )
    owner = state.seats[agent.owner]
    cards = (() if agent.watch else (agent.card,)) + agent.relics
    state = with_seat(state, agent.owner, seat_with(owner, discard=(*owner.discard, *cards)))
    if agent.watch:
        state = evolve(state, watch_deck=state.watch_deck + 1)
        line = f"{_capital(words)} at {district_words(did)} goes back to the watch deck"
    else:
        line = f"{_capital(words)} at {district_words(did)} goes to the discard pile"
    state, more = resume(_pop(state, step), step.seat, step.effects[1:], step.card)
    return Accepted(state, (line, *more))


def answer_manual(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """``manual``: ``done`` or ``drew:<n>``; the organiser's ``confirm`` follows (G-33)."""
    drew = 0
    if answer.startswith(DREW) and answer[len(DREW) :].isdigit():
        drew = int(answer[len(DREW) :])
    elif answer != DONE:
        return _wrong("the card is done by hand", "say it is done, or how many cards were drawn")
    confirm = Step("confirm", step.seat, card=step.card, count=drew, effects=step.effects)
    state = evolve(state, steps=(confirm, *_pop(state, step).steps))
    said = f", drawing {plural(drew, 'card')}" if drew else ""
    line = f"{seat_ref(step.seat)} has carried out {the_card(state.pack, step.card)}{said}"
    return Accepted(state, (line, "The organiser confirms it"))


def answer_confirm(state: State, step: Step, answer: str) -> Accepted[State] | Rejected:
    """The organiser's ``confirm``: ``yes`` (the cards drawn join the hand, the chain goes
    on) or ``no`` (the ``manual`` step opens again)."""
    name = the_card(state.pack, step.card)
    if answer == "no":
        again = Step("manual", step.seat, card=step.card, effects=step.effects)
        state = evolve(state, steps=(again, *_pop(state, step).steps))
        return Accepted(
            state, (f"The organiser did not confirm {name}: {seat_ref(step.seat)} does it again",)
        )
    if answer != "yes":
        return _wrong(
            "the organiser answers yes or no", "say it was done as the card says, or undo it"
        )
    state = rounds.draw(_pop(state, step), step.seat, step.count)
    state, more = resume(state, step.seat, step.effects[1:], step.card)
    line = f"{_capital(name)}: resolved by hand, confirmed by the organiser"
    return Accepted(state, (line, *more))


def answer_set_aside(state: State, answer: str) -> Accepted[State] | Rejected:
    """``set_aside`` in the intrigue phase (G-26), by answer or by the stake laid on a pad:
    the stake goes where the winner says, then the action's chain goes on."""
    step = award.set_aside_step(state)
    done = award.answer_set_aside(state, answer)
    if isinstance(done, Rejected) or step is None:
        return done if isinstance(done, Rejected) else Accepted(done[0], done[1])
    state, lines = resume(done[0], step.seat, step.effects, step.card)
    return Accepted(state, (*done[1], *lines))


def _agent_words(state: State, agent: Placed) -> str:
    """An agent as everyone may read it: by name when face up, else by owner."""
    if agent.face_up:
        return owned_card(state.pack, agent.card, agent.owner)
    return face_down_words(agent.owner)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
