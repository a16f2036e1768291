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
from scorekeeper.games.arcana import abilities, bribes, masters, results
from scorekeeper.games.arcana.cards import Ability, Effect
from scorekeeper.games.arcana.names import card_name, district_words, possessive, the_card
from scorekeeper.games.arcana.state import INTRIGUE, OVER, RESULTS, SETUP, State, Step
from scorekeeper.games.arcana.words import (
    DREW_PREFIX,
    ability_words,
    or_list,
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
    """The effect of ``kind`` a step carries out: the first of its ``effects`` (abilities.py
    puts the effect itself first), else its card's."""
    if step.effects and step.effects[0].kind == kind:
        return step.effects[0]
    card = state.card(step.card) if step.card else None
    return card.ability.effect(kind) if card is not None and card.ability else None


def _win_at(state: State, step: Step) -> tuple[str, ...]:
    """The districts whose stake the step's ``immediate_win`` may take (abilities.py's own
    list, so the prompt offers exactly what the answer accepts); ``none`` when none fits."""
    effect = step_effect(state, step, "immediate_win")
    found = () if effect is None else abilities.win_answers(state, step.seat, effect, step.card)
    return found or (abilities.NONE,)


def _returnable(state: State, step: Step) -> tuple[str, ...]:
    """The agents the step's ``return_agent`` may send back, a face-down one by its place
    (abilities.py's own list); ``none`` when none fits."""
    effect = step_effect(state, step, "return_agent")
    found = () if effect is None else abilities.return_answers(state, step.seat, effect, step.card)
    return found or (abilities.NONE,)


def _majors(state: State, did: str) -> tuple[str, ...]:
    """The major arcana of district ``did``'s stake (none without a stake)."""
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
        mine = bribes.relic_on_answers(state, step)
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
    if kind in ("declare", "copy"):
        return next(iter(results_prompts(state)), None)
    return None


def _ability(state: State, piece: str) -> Ability | None:
    """The pack's ability of ``piece`` (None for none, or no card)."""
    card = state.card(piece) if piece else None
    return card.ability if card is not None else None


def _location(state: State, step: Step) -> tuple[str, ...]:
    """``location``'s answers: ``play`` only for a card with an ability to use."""
    ability = _ability(state, step.card)
    return ("play", "discard") if ability is not None else ("discard",)


# -- the intrigue phase: the guild master -----------------------------------------------------


def master_usable(state: State, seat: int) -> bool:
    """Whether ``seat``'s guild master may be used now (R-OPT-E-2, ``master_limit``, G-38):
    masters.py's condition, so the prompt is open exactly when ``use`` is accepted."""
    return masters.usable(state, seat)


def _master(state: State, seat: int) -> Prompt:
    """The ``master`` prompt of ``seat``, its master's ability in words."""
    card = state.card(state.seats[seat].master)
    said = ability_words(card.ability if card is not None else None)
    about = f" ({said})" if said else ""
    question = f"Does {seat_ref(seat)} use the guild master{about}?"
    return Prompt("master", seat, question, ("use",))


def master_prompt(state: State) -> tuple[Prompt, ...]:
    """The actor's ``master`` prompt while its guild master may be used, else none."""
    seat = state.active_seat
    if not 0 <= seat < len(state.seats):
        return ()
    return (_master(state, seat),) if master_usable(state, seat) else ()


# -- the results phase ------------------------------------------------------------------------


def _under_way(state: State) -> str:
    """The district being resolved, "" while none is."""
    return state.resolution.district if state.resolution is not None else ""


def _declare(state: State, seat: int, did: str, answers: tuple[str, ...]) -> Prompt:
    question = f"Which arcanum does {seat_ref(seat)} count at {district_words(did)}?"
    return Prompt("declare", seat, question, answers)


def _copy(state: State, seat: int, piece: str, did: str, answers: tuple[str, ...]) -> Prompt:
    question = (
        f"Which agent at {district_words(did)} does {possessive(seat)} "
        f"{card_name(state.pack, piece)} copy?"
    )
    return Prompt("copy", seat, question, answers)


def results_prompts(state: State) -> tuple[Prompt, ...]:
    """The results phase's one open question (results.question: what its answer accepts):
    ``next_district`` while no district is under way, else the next ``declare`` or ``copy``
    of the district under way, or the winner's ``set_aside``."""
    asked = results.question(state)
    if asked is None:
        return ()
    kind, seat, answers, card = asked
    did = _under_way(state)
    if kind == results.NEXT_DISTRICT:
        question = f"Which district does {seat_ref(seat)} settle next?"
        return (Prompt(kind, seat, question, answers),)
    if kind == results.DECLARE:
        return (_declare(state, seat, did, answers),)
    if kind == results.COPY:
        return (_copy(state, seat, card, did, answers),)
    step = Step(kind, seat, card=card, district=did)
    prompt = step_prompt(state, step)
    return () if prompt is None else (prompt,)


# -- the waiting line -------------------------------------------------------------------------


def waiting_line(state: State) -> str:
    """One plain-language line: what the table waits for now. It never names a face-down agent
    or a card in a hand (shown_card names a face-down agent by its owner)."""
    if state.phase == OVER:
        return _over(state)
    if state.phase == SETUP:
        return _setup(state)
    waiting = [district_words(d.id) for d in state.districts if d.awaiting]
    parts = []
    if len(waiting) == 1:
        parts.append(f"Turn up {waiting[0]}'s next stake")
    elif waiting:
        parts.append(f"Turn up the next stakes of {or_list(waiting, 'and')}")
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
        if results.candidates(state):
            return f"{seat_ref(state.first_seat)} chooses the next district to settle"
        return "The round's results are in"
    reveal = f"Turn every card at {district_words(did)} face up"
    seat = results.next_declarer(state)
    if seat is not None:
        return f"{reveal}; {seat_ref(seat)} says which arcanum to count there"
    copier = results.next_copier(state)
    if copier is not None:
        card, owner = copier
        return f"{reveal}; {seat_ref(owner)} says which agent {the_card(state.pack, card)} copies"
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
