"""What an Arcana table waits for: the open prompts (``pending``) and the one-line waiting
line (``waiting_line``, given out as ``words.waiting_for``).

Prompts come from the open steps (the first step first: an action's, an ability's or a
result's), then from the phase: in the intrigue phase the actor's ``master`` while its guild
master may be used; in the results phase ``next_district`` for the first player while no
district is under way, then ``declare`` and ``copy`` for the district under way.

Hazard (docs/games/arcana.md, "Nothing public depends on a face-down card"): every prompt but
``relic_on`` is shown to everyone, so its question and its answers are built from what everyone
knows: a face-down agent is offered by its place (``words.place_answer``), never by its id,
and no question names one.
"""

from __future__ import annotations

from scorekeeper.core.outcomes import Prompt
from scorekeeper.core.text import plural, seat_ref
from scorekeeper.games.arcana import zones
from scorekeeper.games.arcana.cards import PRINCES_GAMES_CARD, Ability, Effect
from scorekeeper.games.arcana.names import card_name, district_words, possessive, the_card
from scorekeeper.games.arcana.state import INTRIGUE, OVER, RESULTS, SETUP, Placed, State, Step
from scorekeeper.games.arcana.words import (
    DREW_PREFIX,
    ability_words,
    or_list,
    place_answer,
    shown_card,
)

PROMPTS: tuple[str, ...] = (
    "location",
    "stake_discard",
    "bribe_arcanum",
    "relic_on",
    "move",
    "win_at",
    "return",
    "master",
    "manual",
    "confirm",
    "next_district",
    "declare",
    "copy",
    "set_aside",
)
"""Every prompt id of the contract ("Prompts and their answers")."""
MANUAL_DRAWS = 4
"""``manual`` offers ``drew:1`` … ``drew:4`` beside ``done`` (G-33)."""


def pending(state: State) -> tuple[Prompt, ...]:
    """The prompts open now, each with its legal answers and its question in words."""
    if state.phase in (SETUP, OVER):
        return ()
    if state.steps:
        prompt = step_prompt(state, state.steps[0])
        return () if prompt is None else (prompt,)
    if state.phase == INTRIGUE:
        return master_prompt(state)
    if state.phase == RESULTS:
        return results_prompts(state)
    return ()


# -- the prompts of open steps ----------------------------------------------------------------


def step_effect(state: State, step: Step, kind: str) -> Effect | None:
    """The effect of ``kind`` a step carries out: its card's, else one of its ``effects``."""
    card = state.card(step.card) if step.card else None
    found = card.ability.effect(kind) if card is not None and card.ability else None
    if found is not None:
        return found
    return next((e for e in step.effects if e.kind == kind), None)


def agent_answer(district_agents: tuple[Placed, ...], did: str, index: int) -> str:
    """The answer id of the card at 0-based ``index`` of a district's row: its card id when
    it lies face up, its place ("a.2") when face down."""
    placed = district_agents[index]
    return placed.card if placed.face_up else place_answer(did, index + 1)


def _relation_ok(state: State, seat: int, did: str, wanted: str, here: str) -> bool:
    """Whether district ``did`` is ``wanted`` (friendly, neutral, enemy, any, here) to seat."""
    if wanted in ("", "any"):
        return True
    if wanted == "here":
        return did == here
    return zones.relation(len(state.seats), seat, did) == wanted


def _listed(value: object) -> tuple[str, ...]:
    if isinstance(value, tuple | list):
        return tuple(str(v) for v in value)
    return (str(value),) if value else ()


def _win_at(state: State, step: Step) -> tuple[str, ...]:
    """The districts whose stake the step's ``immediate_win`` may take; ``none`` when no
    stake fits (so the table is never left with a question it cannot answer)."""
    effect = step_effect(state, step, "immediate_win")
    types = _listed(effect.get("stake_type")) if effect is not None else ()
    where = str(effect.get("where", "any")) if effect is not None else "any"
    out = []
    for d in state.districts:
        card = state.card(d.stake) if d.stake and d.stake != PRINCES_GAMES_CARD else None
        if card is None or d.awaiting or (types and card.type not in types):
            continue
        if _relation_ok(state, step.seat, d.id, where, step.district):
            out.append(d.id)
    return tuple(out) or ("none",)


def _returnable(state: State, step: Step) -> tuple[str, ...]:
    """The agents the step's ``return_agent`` may send back (a face-down one by its place);
    ``none`` when there is none."""
    effect = step_effect(state, step, "return_agent")
    whose = str(effect.get("whose", "any")) if effect is not None else "any"
    where = str(effect.get("where", "any")) if effect is not None else "any"
    out = []
    for d in state.districts:
        if not _relation_ok(state, step.seat, d.id, where, step.district):
            continue
        for k, placed in enumerate(d.agents):
            mine = placed.owner == step.seat
            if (whose == "own" and not mine) or (whose in ("other", "enemy") and mine):
                continue
            out.append(agent_answer(d.agents, d.id, k))
    return tuple(out) or ("none",)


def _majors(state: State, did: str) -> tuple[str, ...]:
    stake = state.district(did).stake if did else None
    card = state.card(stake) if stake else None
    return card.majors if card is not None else ()


def step_prompt(state: State, step: Step) -> Prompt | None:
    """The prompt an open step asks, None for a step that waits for a card to arrive (``keep``,
    ``watch_card``) or of a kind no prompt answers."""
    who = seat_ref(step.seat)
    kind = step.kind
    card = shown_card(state, step.card) if step.card else "the card"
    where = district_words(step.district) if step.district else ""
    if kind == "location":
        said = ability_words(_ability(state, step.card))
        about = f" ({said})" if said else ""
        return Prompt(
            kind, step.seat, f"Does {who} use {card}'s ability{about}?", _location(state, step)
        )
    if kind == "stake_discard":
        answers = ("watch", "discard") if state.watch_deck > 0 else ("discard",)
        question = f"Does {who} call the watch with {card}, or just discard it?"
        return Prompt(kind, step.seat, question, answers)
    if kind == "bribe_arcanum":
        question = f"In which arcanum does {who} bribe at {where}?"
        return Prompt(kind, step.seat, question, _majors(state, step.district))
    if kind == "relic_on":
        mine = tuple(p.card for p in state.district(step.district).agents if p.owner == step.seat)
        question = f"Which of {possessive(step.seat)} agents at {where} takes {card}?"
        return Prompt(kind, step.seat, question, mine, private=True)
    if kind == "move":
        question = (
            f"{who} may move an agent to another district ({card}: "
            f"{ability_words(_ability(state, step.card))}): lay it on that district's agents "
            "pad, or move none"
        )
        return Prompt(kind, step.seat, question, ("none",))
    if kind == "win_at":
        question = f"Which district's stake does {who} win at once with {card}?"
        return Prompt(kind, step.seat, question, _win_at(state, step))
    if kind == "return":
        question = f"Which agent does {card} send back to its owner's discard pile?"
        return Prompt(kind, step.seat, question, _returnable(state, step))
    if kind == "master":
        return _master(state, step.seat)
    if kind == "manual":
        draws = tuple(f"{DREW_PREFIX}{n}" for n in range(1, MANUAL_DRAWS + 1))
        question = (
            f"{who}: do what {card} says ({ability_words(_ability(state, step.card))}), "
            "then say it is done"
        )
        return Prompt(kind, step.seat, question, ("done", *draws))
    if kind == "confirm":
        question = f"Was {card}'s ability carried out as the card says?"
        return Prompt(kind, None, question, ("yes", "no"))
    if kind == "set_aside":
        question = f"Does {who} put {card} onto the discard pile or under the badge?"
        return Prompt(kind, step.seat, question, ("discard", "badge"))
    if kind == "declare":
        return _declare(state, step.seat, step.district or _under_way(state))
    if kind == "copy":
        return _copy(state, step.seat, step.card, step.district or _under_way(state))
    return None


def _ability(state: State, piece: str) -> Ability | None:
    card = state.card(piece) if piece else None
    return card.ability if card is not None else None


def _location(state: State, step: Step) -> tuple[str, ...]:
    ability = _ability(state, step.card)
    return ("play", "discard") if ability is not None else ("discard",)


# -- the intrigue phase: the guild master -----------------------------------------------------


def master_usable(state: State, seat: int) -> bool:
    """Whether ``seat``'s guild master may be used now (R-OPT-E-2, the ``master_limit``
    option): it has one with an ability, and it is not spent this round."""
    me = state.seats[seat]
    if not state.options.guild_masters or not me.master:
        return False
    card = state.card(me.master)
    if card is None or card.ability is None:
        return False
    limit = state.options.master_limit
    once = limit == "once_per_round" or (limit == "by_card" and card.once_per_round)
    return not (once and me.master_used)


def _master(state: State, seat: int) -> Prompt:
    card = state.card(state.seats[seat].master)
    said = ability_words(card.ability if card is not None else None)
    about = f" ({said})" if said else ""
    question = f"Does {seat_ref(seat)} use the guild master{about}?"
    return Prompt("master", seat, question, ("use",))


def master_prompt(state: State) -> tuple[Prompt, ...]:
    """The actor's ``master`` prompt while its guild master may be used, else none."""
    seat = state.active_seat
    if not 0 <= seat < len(state.seats) or state.seats[seat].hand <= 0:
        return ()
    return (_master(state, seat),) if master_usable(state, seat) else ()


# -- the results phase ------------------------------------------------------------------------


def _under_way(state: State) -> str:
    return state.resolution.district if state.resolution is not None else ""


def settleable(state: State) -> tuple[str, ...]:
    """The districts the first player may settle next (R-RES-1, G-20): not yet resolved this
    round, with a stake shown (not the Prince's Games card) and not awaiting one."""
    return tuple(
        d.id
        for d in state.districts
        if not d.resolved and d.stake and d.stake != PRINCES_GAMES_CARD and not d.awaiting
    )


def seats_in_order(state: State, did: str) -> tuple[int, ...]:
    """The seats with agents at ``did`` in turn order from the first player (G-11)."""
    there = {p.owner for p in state.district(did).agents}
    n = len(state.seats)
    return tuple(s for s in ((state.first_seat + k) % n for k in range(n)) if s in there)


def next_declarer(state: State) -> int | None:
    """The seat whose ``declare`` is open at the district under way, None when no stake with
    several majors waits for one (R-MULTI-1, G-11)."""
    did = _under_way(state)
    if not did or len(_majors(state, did)) < 2:
        return None
    declared = {s for s, _ in state.resolution.declared} if state.resolution else set()
    return next((s for s in seats_in_order(state, did) if s not in declared), None)


def copiers(state: State, did: str) -> tuple[Placed, ...]:
    """The agents at ``did`` whose ability copies another (the Harlequin, R-HARL-1)."""
    out = []
    for placed in state.district(did).agents:
        ability = _ability(state, placed.card)
        if ability is not None and ability.effect("copy_agent") is not None:
            out.append(placed)
    return tuple(out)


def next_copier(state: State) -> Placed | None:
    """The first Harlequin at the district under way whose copy is not yet answered."""
    did = _under_way(state)
    if not did or state.resolution is None:
        return None
    done = {c for c, _ in state.resolution.copies}
    return next((p for p in copiers(state, did) if p.card not in done), None)


def _declare(state: State, seat: int, did: str) -> Prompt:
    question = f"Which arcanum does {seat_ref(seat)} count at {district_words(did)}?"
    return Prompt("declare", seat, question, (*_majors(state, did), "none"))


def _copy(state: State, seat: int, piece: str, did: str) -> Prompt:
    agents = state.district(did).agents if did else ()
    answers = tuple(agent_answer(agents, did, k) for k, p in enumerate(agents) if p.card != piece)
    question = (
        f"Which agent at {district_words(did)} does {possessive(seat)} "
        f"{card_name(state.pack, piece)} copy?"
    )
    return Prompt("copy", seat, question, answers or ("none",))


def results_prompts(state: State) -> tuple[Prompt, ...]:
    """``next_district`` while no district is under way, else the next ``declare`` or
    ``copy`` of the district under way."""
    did = _under_way(state)
    if not did:
        options = settleable(state)
        if not options:
            return ()
        first = state.first_seat
        question = f"Which district does {seat_ref(first)} settle next?"
        return (Prompt("next_district", first, question, options),)
    seat = next_declarer(state)
    if seat is not None:
        return (_declare(state, seat, did),)
    copier = next_copier(state)
    if copier is not None:
        return (_copy(state, copier.owner, copier.card, did),)
    return ()


# -- the waiting line -------------------------------------------------------------------------


def waiting_line(state: State) -> str:
    """One plain-language line: what the table waits for now. It never names a face-down agent
    or a card in a hand (shown_card names a face-down agent by its owner)."""
    if state.phase == OVER:
        return _over(state)
    if state.phase == SETUP:
        return _setup(state)
    parts = [f"Turn up {district_words(d.id)}'s next stake" for d in state.districts if d.awaiting]
    ev = state.events
    if state.options.events and ev is not None and not ev.next and ev.left > 0:
        parts.append("Lay the next event on the event pad")
    parts.append(_step_line(state, state.steps[0]) if state.steps else _phase_line(state))
    return "; ".join(p for p in parts if p)


def _over(state: State) -> str:
    if not state.winners:
        return "The game is over"
    names = or_list([seat_ref(s) for s in state.winners], "and")
    return f"The game is over: {names} {'share the win' if len(state.winners) > 1 else 'wins'}"


def _setup(state: State) -> str:
    """What setup still waits for: "the first stake of district C; {seat:1}'s badge"."""
    opts = state.options
    missing = [f"the first stake of {district_words(d.id)}" for d in state.districts if not d.stake]
    for s, seat in enumerate(state.seats):
        mine = possessive(s)
        if not seat.guild:
            missing.append(f"{mine} badge")
        if opts.guild_masters and not seat.master:
            missing.append(f"{mine} guild master")
        if opts.objectives and len(seat.objectives) < 2:
            missing.append(f"{mine} {plural(2 - len(seat.objectives), 'kept objective')}")
        if opts.custom_guild and len(seat.returned) < 9:
            left = plural(9 - len(seat.returned), "returned card")
            missing.append(f"{left} on {mine} discard pad")
    ev = state.events
    if opts.events and (ev is None or not (ev.next or ev.now)):
        missing.append("the first event on the event pad")
    return "Setting up: " + "; ".join(missing) if missing else "Setting up"


def _phase_line(state: State) -> str:
    who = seat_ref(state.active_seat)
    if state.phase == INTRIGUE:
        what = "play an agent, a location, a relic or a discard"
        if state.options.watch and state.watch_deck > 0:
            what = "play an agent, a location, a relic, a discard or call the watch"
        more = f" ({state.actions} actions left)" if state.actions > 1 else ""
        return f"{who}'s turn{more}: {what}"
    did = _under_way(state)
    if not did:
        if settleable(state):
            return f"{seat_ref(state.first_seat)} chooses the next district to settle"
        return "The round's results are in"
    reveal = f"Turn every card at {district_words(did)} face up"
    seat = next_declarer(state)
    if seat is not None:
        return f"{reveal}; {seat_ref(seat)} says which arcanum to count there"
    copier = next_copier(state)
    if copier is not None:
        name = the_card(state.pack, copier.card)
        return f"{reveal}; {seat_ref(copier.owner)} says which agent {name} copies"
    return reveal


def _keep_line(state: State, step: Step) -> str:
    who, mine = seat_ref(step.seat), possessive(step.seat)
    effect = step_effect(state, step, "draw_keep")
    lay = f"lays {plural(step.count, 'card')} on {mine} discard pad"
    if effect is None:
        return f"{who} {lay}"
    keep, draw = effect.get("keep", 0), effect.get("draw", 0)
    return f"{who} keeps {keep} of the {draw} cards drawn and {lay}"


def _step_line(state: State, step: Step) -> str:
    """The waiting line of an open step."""
    who = seat_ref(step.seat)
    card = shown_card(state, step.card) if step.card else "the card"
    where = district_words(step.district) if step.district else "the district"
    lines = {
        "location": f"{who} says whether to use {card}'s ability",
        "stake_discard": f"{who} says whether {card} calls the watch or is just discarded",
        "watch_card": f"{who} lays the top watch card on a district's agents pad",
        "bribe_arcanum": f"{who} names the arcanum of the bribe at {where}",
        "relic_on": f"{who} says which agent at {where} takes {card}",
        "move": (
            f"{who} moves an agent to another district's agents pad, or moves none: it lies "
            "face down at a friendly district, face up elsewhere"
        ),
        "win_at": f"{who} names the district whose stake {card} wins at once",
        "return": f"{who} names the agent {card} sends back",
        "master": f"{who} says whether to use the guild master",
        "manual": f"{who} does what {card} says, then says it is done",
        "confirm": f"The organiser confirms that {card}'s ability was carried out",
        "set_aside": f"{who} says whether {card} goes onto the discard pile or under the badge",
        "declare": f"{who} says which arcanum to count at {where}",
        "copy": f"{who} says which agent {card} copies",
    }
    if step.kind == "keep":
        return _keep_line(state, step)
    return lines.get(step.kind, f"{who} finishes with {card}")
