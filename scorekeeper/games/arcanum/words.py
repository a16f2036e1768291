"""Arcanum in plain words: prompts, answers and zones as players say them.

The buttons and scripts keep the answer ids (``end_turn done``, ``hide pass``); what a person
reads is built here: what a prompt is about, each answer as a button would say it, and the
zones by where they lie. Nothing here names a hidden card that its reader may not see: only a
seat's own private answers (``wheel``, ``temperance``, ``sun``) are cards, and those words go
only where the raw answer would go.
"""

from __future__ import annotations

from collections.abc import Iterable

from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcanum.cards import FAMILY_SYMBOL, PAWNS, describe
from scorekeeper.games.arcanum.ops import fam, pawn_words
from scorekeeper.games.arcanum.zones import describe_zone, seat_of_zone

# What each prompt is about, as a noun phrase ("nobody is asked about <this> now").
PROMPT_WORDS = {
    "draw": "the phase A draw",
    "end_turn": "ending the turn",
    "hide": "hiding a card",
    "harbour": "the Harbour's extra minor",
    "artists": "the Artists' Quarter's draw",
    "market": "the Market's exchange",
    "fields": "the Fields' reputation change",
    "cathedral": "the Cathedral's hide or draw",
    "family": "which family gains reputation",
    "empress": "the Empress's reputation change",
    "death": "how many minors Death discards",
    "tower": "which locations the Tower blocks",
    "temperance": "which hidden minors Temperance takes back",
    "wheel": "what is passed at the Wheel of Fortune",
    "sun": "which hidden card the Sun reveals",
    "judgement": "Judgement's pawn moves",
    "fame": "revealing a family's cards",
    "fool": "the family the Fool counts for",
}

_FIXED = {
    ("draw", "major"): "1 major",
    ("draw", "minors"): "3 minors",
    ("end_turn", "done"): "end the turn",
    ("hide", "pass"): "pass",
    ("harbour", "draw"): "draw 1 minor",
    ("harbour", "pass"): "pass",
    ("artists", "major"): "1 major",
    ("artists", "minors"): "2 minors",
    ("market", "none"): "no exchange",
    ("market", "major"): "exchange a major",
    ("market", "minor"): "exchange a minor",
    ("fields", "done"): "done",
    ("cathedral", "hide"): "hide a card",
    ("cathedral", "draw"): "draw 2 minors",
    ("tower", "done"): "done",
    ("temperance", "none"): "take none back",
    ("fame", "reveal"): "reveal",
}
_WHEEL = {
    "minor+minor": "2 minors",
    "minor+major": "a minor and a major",
    "major+major": "2 majors",
    "minor": "a minor",
    "major": "a major",
}


def answer(prompt: str, option: str, places: Iterable[str] = ()) -> str:
    """One answer to a prompt in words, as a button would say it. ``places``: the location
    names in board order (location k is ``places[k - 1]``), for the Tower and Judgement."""
    fixed = _FIXED.get((prompt, option))
    if fixed is not None:
        return fixed
    if option in FAMILY_SYMBOL:
        return fam(option)
    if prompt == "fields" and option[:-2] in FAMILY_SYMBOL:
        return f"{fam(option[:-2])} {option[-2:]}"
    if prompt == "empress" and "/" in option:
        up, _, down = option.partition("/")
        return f"+1 {fam(up)}, -1 {fam(down)}"
    if prompt == "death" and option.isdigit():
        return f"{option} minor{'s' if option != '1' else ''}"
    if prompt == "wheel":
        return _WHEEL.get(option, option)
    if option.isdigit():
        names = list(places)
        k = int(option)
        return f"{k} {names[k - 1]}" if 0 < k <= len(names) else f"location {k}"
    if option in PAWNS:
        return f"the {pawn_words(option)}"
    if prompt in ("temperance", "sun"):
        return " and ".join(describe(c) for c in option.split("+"))
    return option


def answers(prompt: str, options: Iterable[str], places: Iterable[str] = ()) -> str:
    """The legal answers of a prompt in words, joined with "or"."""
    names = list(places)
    words = [answer(prompt, o, names) for o in options]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


def zone(name: str) -> str:
    """A zone as the players see it: "Location 3", "{seat:1}'s hide strip", "the play area"."""
    seat = seat_of_zone(name)
    words = describe_zone(name)
    if seat is not None:
        return f"{seat_ref(seat)}'s {words.lower()}"
    return words if name.startswith("loc:") else f"the {words[0].lower()}{words[1:]}"
