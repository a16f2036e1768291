"""Arcana's prompts, answers and inputs in plain words, from the table's pack.

``prompt_words`` says what a prompt is about, ``answer_words`` says an answer as its button
would, ``describe_input`` says an input for the organiser's feed and console, and
``waiting_for`` gives the waiting line (built in prompts.py beside the prompts it describes).
Seats are ``seat_ref`` markers; cards are named through names.py.

Hazard: an answer may name a face-down card only where its prompt is private (``relic_on``);
every other answer names a face-down agent by its place ("{seat:1}'s second face-down agent at
district A"), which is why such an answer's id is a place (``place_answer``), never the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.text import plural, render_seats, seat_ref
from scorekeeper.games.arcana import results, zones
from scorekeeper.games.arcana.cards import (
    AGENT,
    ARCANA,
    CITIZEN,
    MAJOR_ARCANA,
    PRINCES_GAMES_CARD,
    WATCH,
    Ability,
    Effect,
    Pack,
)
from scorekeeper.games.arcana.names import (
    card_name,
    district_words,
    face_down_words,
    owned_card,
    possessive,
    the_card,
)
from scorekeeper.games.arcana.privacy import face_down_at, owner_of
from scorekeeper.games.arcana.state import NEUTRAL, District, Placed, State, Step

PROMPT_WORDS: dict[str, str] = {
    "location": "the location just played",
    "stake_discard": "the stake card just discarded",
    "bribe_arcanum": "the arcanum of the bribe",
    "relic_on": "which agent takes the relic",
    "move": "moving an agent",
    "win_at": "where the stake is won at once",
    "return": "which agent goes back",
    "master": "the guild master",
    "manual": "an ability carried out by hand",
    "confirm": "confirming an ability carried out by hand",
    "next_district": "the next district to settle",
    "declare": "the arcanum counted",
    "copy": "which agent is copied",
    "set_aside": "where the won stake goes",
}

_FIXED: dict[tuple[str, str], str] = {
    ("location", "discard"): "Discard it unused",
    ("stake_discard", "watch"): "Call the watch",
    ("stake_discard", "discard"): "Just discard it",
    ("move", "none"): "Move no agent",
    ("win_at", "none"): "Win no stake: none fits",
    ("return", "none"): "Send no agent back: none fits",
    ("manual", "done"): "Done",
    ("confirm", "yes"): "It was done as the card says",
    ("confirm", "no"): "Undo it",
    ("declare", "none"): "Declare none",
    ("copy", "none"): "It counts 0",
    ("set_aside", "discard"): "Onto your discard pile",
    ("set_aside", "badge"): "Under your badge",
}

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
DREW_PREFIX = "drew:"
"""The ``manual`` answer stating cards drawn: ``drew:<n>`` (G-33)."""


def ordinal(k: int) -> str:
    """1 -> "first", … 8 -> "eighth", then "9th"."""
    return ORDINALS[k - 1] if 1 <= k <= len(ORDINALS) else f"{k}th"


def or_list(items: Sequence[str], word: str = "or") -> str:
    """``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


# -- places: a face-down agent named by where it lies -------------------------------------------


def place_answer(did: str, position: int) -> str:
    """The answer id of the card at 1-based ``position`` in district ``did``'s row ("a.3"):
    how a prompt anyone reads offers a face-down agent without naming it."""
    return f"{did}.{position}"


def answer_place(state: State, answer: str) -> tuple[District, Placed] | None:
    """The district and card a place answer (``place_answer``) points at, None for another
    answer or a place with no card."""
    did, dot, pos = answer.partition(".")
    if not dot or not pos.isdigit():
        return None
    for district in state.districts:
        if district.id == did and 1 <= int(pos) <= len(district.agents):
            return district, district.agents[int(pos) - 1]
    return None


def face_down_place_words(district: District, position: int) -> str:
    """The face-down agent at 1-based ``position`` by its place: "{seat:1}'s second face-down
    agent at district A" (its rank among its owner's face-down agents there)."""
    placed = district.agents[position - 1]
    rank = sum(1 for p in district.agents[:position] if p.owner == placed.owner and not p.face_up)
    where = district_words(district.id)
    return f"{possessive(placed.owner)} {ordinal(rank)} face-down agent at {where}"


# -- cards, stakes, districts -----------------------------------------------------------------


def shown_card(state: State, piece: str) -> str:
    """A card as anyone may read it now: "the Crossbowman", or "{seat:1}'s face-down agent"
    while it lies face down at a district."""
    if face_down_at(state, piece) is not None:
        owner = owner_of(state, piece)
        return face_down_words(owner) if owner is not None else "a face-down agent"
    return the_card(state.pack, piece)


def stake_words(pack: Pack | None, piece: str) -> str:
    """A stake with what wins it: "the Sword, sword 4"; "the Harlequin, sword 5, wand 5 or
    chalice 5"; "the Prince's Games card"."""
    if piece == PRINCES_GAMES_CARD:
        return f"the {card_name(pack, piece)}"
    card = pack.card(piece) if pack is not None else None
    head = the_card(pack, piece)
    if card is None or not card.threshold:
        return head
    return f"{head}, {or_list([f'{a} {v}' for a, v in card.threshold])}"


def friends_words(friends: Sequence[int]) -> str:
    """The seats a district is friendly to: "{seat:0}'s", "{seat:0} and {seat:1}'s"."""
    if not friends:
        return ""
    return f"{or_list([seat_ref(s) for s in friends], 'and')}'s"


def district_label(district: District) -> str:
    """A district with its friends: "district A ({seat:0} and {seat:1}'s)", "the neutral
    district"."""
    if district.id == NEUTRAL or not district.friends:
        return district_words(district.id)
    return f"{district_words(district.id)} ({friends_words(district.friends)})"


def value_words(pack: Pack | None, piece: str, arcana: Sequence[str]) -> str:
    """A card's values in ``arcana``: "chalice 3", "sword 2, wand 0"."""
    card = pack.card(piece) if pack is not None else None
    if card is None:
        return ""
    return ", ".join(f"{a} {card.value(a)}" for a in arcana)


# -- abilities --------------------------------------------------------------------------------

_WHERE = {
    "here": "at its district",
    "neutral": "at the neutral district",
    "friendly": "at friendly districts",
    "enemy": "at enemy districts",
    "any": "at any district",
}


def _listed(value: Any, word: str = "or") -> str:
    if isinstance(value, tuple | list):
        return or_list([str(v) for v in value], word)
    return str(value)


def effect_words(effect: Effect) -> str:
    """One effect of the vocabulary in words: "draw 2, keep 1", "+1 sword at its district"."""
    get = effect.get
    kind = effect.kind
    if kind == "draw_keep":
        return f"draw {get('draw', 0)}, keep {get('keep', 0)}"
    if kind == "draw":
        return f"draw {plural(int(get('n', 1)), 'card')}"
    if kind == "tie_win":
        parts = []
        if get("arcanum"):
            parts.append(f"in {_listed(get('arcanum'))}")
        if get("stake_type"):
            parts.append(f"for a {_listed(get('stake_type'))} stake")
        return "win ties " + " or ".join(parts) if parts else "win ties"
    if kind == "copy_agent":
        return "count as another agent at its district"
    if kind == "move_agent":
        whose = "one of your agents" if get("whose", "own") == "own" else "any agent"
        to = get("to", "any")
        where = "another district" if to == "any" else f"a {to} district"
        return f"move {whose} to {where}"
    if kind == "add":
        where = _WHERE.get(str(get("where", "here")), "")
        return f"+{get('n', 0)} {_listed(get('arcanum', ''))} {where}".strip()
    if kind == "bribe_bonus":
        return f"+{get('n', 0)} to your bribes"
    if kind == "immediate_win":
        types = get("stake_type")
        return f"win a {_listed(types)} stake at once" if types else "win a stake at once"
    if kind == "return_agent":
        whose = "one of your agents" if get("whose", "any") == "own" else "an agent"
        return f"send {whose} back to its owner's discard pile"
    if kind == "extra_action":
        return "one more action this turn"
    if kind == "manual":
        return str(get("text", "")) or "as the card says"
    return kind.replace("_", " ")


def ability_words(ability: Ability | None) -> str:
    """A whole ability: its effects joined, then its conditions ("draw 1 card, when the stake
    is a citizen"); the card's own words for a manual one."""
    if ability is None:
        return ""
    if ability.text and any(e.kind == "manual" for e in ability.effects):
        return ability.text
    text = "; ".join(effect_words(e) for e in ability.effects)
    for name, value in ability.conditions:
        if name == "if_stake":
            text += f", when the stake is a {value}"
        elif name == "if_major":
            text += f", when the stake's arcanum is {value}"
    return text


# -- answers ----------------------------------------------------------------------------------


def open_step(state: State | None, kind: str) -> Step | None:
    """The first open step of ``kind``, None without one (or without a state)."""
    if state is None:
        return None
    return next((s for s in state.steps if s.kind == kind), None)


def agent_answer_words(state: State, answer: str, arcana: Sequence[str] = ()) -> str:
    """An agent offered by a public prompt: "{seat:1}'s Pale One at district A" (with its
    values in ``arcana``: "{seat:1}'s Necromancer (chalice 3)"), or a face-down one by its
    place."""
    place = answer_place(state, answer)
    if place is not None:
        district, placed = place
        position = district.agents.index(placed) + 1
        if not placed.face_up:
            return face_down_place_words(district, position)
        answer = placed.card
    found = _where(state, answer)
    owner = owner_of(state, answer)
    words = (
        owned_card(state.pack, answer, owner) if owner is not None else shown_card(state, answer)
    )
    if arcana:
        return f"{words} ({value_words(state.pack, answer, arcana)})"
    return f"{words} at {district_words(found.id)}" if found is not None else words


def _where(state: State, piece: str) -> District | None:
    """The district where ``piece`` lies as an agent, None elsewhere."""
    for district in state.districts:
        if any(p.card == piece for p in district.agents):
            return district
    return None


def copy_arcana(state: State) -> tuple[str, ...]:
    """The arcanum the Harlequin's copy is counted in: its owner's declared one, the stake's
    only major, else every major of the stake (the owner has not declared yet)."""
    res = state.resolution
    if res is None:
        return ()
    district = state.district(res.district)
    card = state.card(district.stake) if district.stake else None
    majors = card.majors if card is not None else ()
    step = open_step(state, "copy")
    copier = results.next_copier(state)
    seat = step.seat if step is not None else copier[1] if copier is not None else None
    declared = dict(res.declared)
    if seat is not None and declared.get(seat) in MAJOR_ARCANA:
        return (declared[seat],)
    return majors


def answer_words(prompt: str, answer: str, state: State | None = None) -> str:
    """One answer to ``prompt`` as its button says it; ``state`` names the cards (without it,
    the words say less: "Use its ability", "district B")."""
    fixed = _FIXED.get((prompt, answer))
    if fixed is not None:
        return fixed
    pack = state.pack if state is not None else None
    if prompt == "location" and answer == "play":
        step = open_step(state, "location")
        card = pack.card(step.card) if pack is not None and step is not None else None
        said = ability_words(card.ability) if card is not None else ""
        return f"Use its ability: {said}" if said else "Use its ability"
    if prompt == "master" and answer == "use":
        return _master_words(state)
    if prompt == "manual" and answer.startswith(DREW_PREFIX):
        n = answer[len(DREW_PREFIX) :]
        return f"I drew {plural(int(n), 'card')}" if n.isdigit() else answer
    if prompt in ("bribe_arcanum", "declare") and answer in ARCANA:
        return _arcanum_words(prompt, answer, state)
    if prompt in ("win_at", "next_district"):
        return _district_answer(prompt, answer, state)
    if state is not None and prompt == "relic_on":
        # Private to the briber: its own face-down agents are named.
        face = "" if face_down_at(state, answer) is None else " (face down)"
        return f"{the_card(pack, answer)}{face}"
    if state is not None and prompt == "return":
        return agent_answer_words(state, answer)
    if state is not None and prompt == "copy":
        return agent_answer_words(state, answer, copy_arcana(state))
    if prompt in ("relic_on", "return", "copy"):
        return the_card(None, answer) if answer_place_id(answer) is None else "an agent"
    return answer


def answer_place_id(answer: str) -> tuple[str, int] | None:
    """A place answer's district and position without a state ("a.3" -> ("a", 3))."""
    did, dot, pos = answer.partition(".")
    return (did, int(pos)) if dot and pos.isdigit() else None


def _master_words(state: State | None) -> str:
    if state is None:
        return "Use your guild master"
    seat = state.seats[state.active_seat]
    card = state.card(seat.master) if seat.master else None
    said = ability_words(card.ability) if card is not None else ""
    return f"Use your guild master: {said}" if said else "Use your guild master"


def _arcanum_words(prompt: str, answer: str, state: State | None) -> str:
    verb = "Bribe in" if prompt == "bribe_arcanum" else "Declare"
    if state is None:
        return f"{verb} {answer}"
    if prompt == "declare" and state.resolution is not None:
        stake = state.district(state.resolution.district).stake
        card = state.card(stake) if stake else None
        need = card.threshold_in(answer) if card is not None else None
        if need is not None:
            return f"Declare {answer} (it needs {need})"
    return f"{verb} {answer}"


def _district_answer(prompt: str, answer: str, state: State | None) -> str:
    if state is None or answer not in {d.id for d in state.districts}:
        return district_words(answer) if answer in ("a", "b", "c", "d", NEUTRAL) else answer
    district = state.district(answer)
    label = district_label(district) if prompt == "next_district" else district_words(answer)
    if district.stake is None:
        return label
    return f"{label}: {stake_words(state.pack, district.stake)}"


def prompt_words(prompt: str) -> str:
    """What a prompt is about, as a noun phrase ("the arcanum of the bribe")."""
    return PROMPT_WORDS.get(prompt, prompt.replace("_", " "))


# -- inputs -----------------------------------------------------------------------------------


def hides(state: State, seen: Seen) -> bool:
    """Whether the card ``seen`` lays at a district lies (or will lie) face down there: it is
    face down there now, or it is an agent (or watch card) arriving at a district friendly to
    its owner (R-INT-2, G-29)."""
    where = zones.parse(seen.zone)
    if where is None or where[0] != zones.AGENTS or not seen.present:
        return False
    found = face_down_at(state, seen.piece)
    if found is not None:
        return found.id == where[1]
    card = state.card(seen.piece)
    if card is None or card.type not in (AGENT, CITIZEN, WATCH):
        return False
    owner = owner_of(state, seen.piece)
    if owner is None and card.type == WATCH:
        owner = state.active_seat
    friends = next((d.friends for d in state.districts if d.id == where[1]), ())
    return owner is not None and owner in friends


def describe_input(
    inp: Any,
    seats: Sequence[str] = (),
    state: State | None = None,
    pack: Pack | None = None,
    *,
    public: bool = False,
) -> str | None:
    """A card seen or an answer given, in words, for the organiser's feed and console: "the
    Crossbowman laid on district A's agents", "Ann's answer about the arcanum of the bribe:
    Bribe in sword". ``pack`` names cards when ``state`` is not given. ``public``: a card that
    lies face down where it arrives is "Ann's face-down agent" (needs ``state``). None for
    an input that is not the game's (an undo, a correction, a raw tag): the base class words
    those. Hazard: without ``public`` it names hidden cards: the organiser's words only."""
    pack = state.pack if state is not None else pack
    if isinstance(inp, Seen):
        piece = the_card(pack, inp.piece)
        if public and state is not None and hides(state, inp):
            owner = owner_of(state, inp.piece)
            piece = face_down_words(owner if owner is not None else state.active_seat)
        verb = "laid on" if inp.present else "lifted off"
        return render_seats(f"{piece} {verb} {zones.zone_words(inp.zone)}", seats)
    if isinstance(inp, Decision):
        who = "the organiser" if inp.seat is None else seat_ref(inp.seat)
        text = (
            f"{who}'s answer about {prompt_words(inp.prompt)}: "
            f"{answer_words(inp.prompt, inp.answer, state)}"
        )
        return render_seats(text, seats)
    return None


def waiting_for(state: State) -> str:
    """One plain-language line: what the table waits for now ("{seat:0}'s turn: play an agent,
    a location, a relic or a discard"). Built with the prompts it describes (prompts.py, which
    imports this module: hence the import here)."""
    from scorekeeper.games.arcana.prompts import waiting_line

    return waiting_line(state)
