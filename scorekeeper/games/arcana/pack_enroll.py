"""What enrollment asks of each Arcana card as it is tagged, and the pack built from the
answers (``PER_PIECE``, the card pack kind's ``per_piece``; core/per_piece.py asks).

Every card is asked the same questions, in this order: its name, type, guild or domain, the
four values, its major arcana, its threshold (or an objective's count), VP, letter, the guild
master's once-per-round symbol and its ability as one line of YAML. What does not apply is
answered "none" (or "-" for a value). Each answer is checked as it is given; what only the whole
card can tell (a threshold against its value, a ``when`` against the type) is checked when the
pack is saved, naming the card and the field (pack_check.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from scorekeeper.core.data_kind import PerPiece
from scorekeeper.core.yaml_model import Count, Text
from scorekeeper.games.arcana.cards import (
    ALL_DOMAINS,
    GUILD_WORDS,
    GUILDS,
    OBJECTIVE,
    PIECES,
    STAKE_TYPES,
)
from scorekeeper.games.arcana.pack_check import VALUED
from scorekeeper.games.arcana.pack_data import CardType

NONE_WORDS = ("none", "no", "-", "")
_ONE_LINE = "write it as one line like {when: play, draw: {n: 1}}, or none"


def _cell(value: Any) -> str:
    """A printed value: a whole number or "-"."""
    text = str(value).strip()
    if text == "-" or (text.isdigit() and int(text) <= 99):
        return text
    raise PydanticCustomError("value", "a value is a whole number, or - where none is printed")


def _ability(value: Any) -> str:
    """An ability: one line of YAML that is a mapping with a ``when``, or "none"."""
    text = str(value).strip()
    if text.lower() in NONE_WORDS:
        return "none"
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        raise PydanticCustomError("ability", _ONE_LINE) from None
    if not isinstance(data, dict) or "when" not in data:
        raise PydanticCustomError("ability", _ONE_LINE)
    return text


def _listing(value: Any) -> str:
    """Major arcana or thresholds: words or numbers joined by | (or none)."""
    text = str(value).strip()
    return "none" if text.lower() in NONE_WORDS else text


ValueCell = Annotated[str, BeforeValidator(_cell)]
AbilityLine = Annotated[str, BeforeValidator(_ability)]
Listing = Annotated[str, BeforeValidator(_listing)]

TYPE_CHOICES: dict[str, Any] = {
    "agent": "agent",
    "location": "location",
    "relic": "relic",
    "citizen": "citizen",
    "badge": "badge",
    "watch": "watch card",
    "master": "guild master",
    "objective": "objective",
    "event": "event",
    "first_player": "first-player card",
    "princes_games": "Prince's Games card",
}


def _value(arcanum: str, what: str = "") -> Any:
    return Field(
        ...,
        title=f"{arcanum} value",
        description=f"the {arcanum}{what} value printed: a whole number, or - where none is",
    )


class CardAnswers(BaseModel):
    """One card's answers while it is tagged (every field asked, in this order)."""

    model_config = ConfigDict(title="card")

    name: Text = Field(..., title="name", description="the name printed on the card")
    type: CardType = Field(
        ...,
        title="type",
        description="what kind of card it is; a stake is a relic, location or citizen",
        json_schema_extra={"x-labels": TYPE_CHOICES},
    )
    guild_or_domain: Text = Field(
        ...,
        title="guild or domain",
        description=(
            "a guild card's, badge's or master's guild; a stake's or objective's domain, the "
            "word under a stake's name, or all; none for other cards"
        ),
    )
    wand: ValueCell = _value("wand")
    sword: ValueCell = _value("sword")
    chalice: ValueCell = _value("chalice")
    coin: ValueCell = _value("coin", " (ducat)")
    major: Listing = Field(
        ...,
        title="major arcana",
        description="a stake's arcana in yellow circles, like sword or sword|wand; none otherwise",
    )
    threshold: Listing = Field(
        ...,
        title="threshold or count",
        description=(
            "a stake's value in each yellow circle, like 5, or 5|5 in the majors' order; an "
            "objective's count of stakes; none otherwise"
        ),
    )
    vp: Count = Field(
        ..., ge=0, le=20, title="victory point value", description="the VP printed on the card"
    )
    letter: Literal["A", "B", "C", "D", "E", "F", "none"] = Field(
        ...,
        title="letter",
        description="the letter in the bottom-left corner, or none",
        json_schema_extra={"x-labels": {x: x for x in ("A", "B", "C", "D", "E", "F", "none")}},
    )
    once_per_round: Literal["yes", "no"] = Field(
        ...,
        title="once-per-round symbol",
        description="yes for a guild master printing the once-per-round symbol, else no",
        json_schema_extra={"x-labels": {"yes": "yes", "no": "no"}},
    )
    ability: AbilityLine = Field(
        ...,
        title="card ability",
        description=(
            "the ability as one line of YAML, like {when: play, draw_keep: {draw: 2, keep: 1}}, "
            "or none"
        ),
    )


def _guild_id(text: str) -> str:
    """A guild by its id or its words ("Fortune-Tellers" -> fortune_tellers)."""
    for guild in GUILDS:
        if text.lower() in (guild, GUILD_WORDS[guild].lower(), guild.replace("_", " ")):
            return guild
    return text


def _number(text: str) -> Any:
    return int(text) if text.isdigit() else text


def card_from_answers(piece: str, answers: Mapping[str, Any]) -> dict[str, Any]:
    """A card's pack mapping from its answers (what does not apply left out); the pack's
    checks then name anything that does not fit."""
    kind = str(answers["type"])
    card: dict[str, Any] = {"name": str(answers["name"]), "type": kind}
    where = str(answers["guild_or_domain"]).strip()
    stake = piece.startswith("stake_")
    if where.lower() not in NONE_WORDS:
        if stake:
            card["domain"] = ALL_DOMAINS if where.lower() == ALL_DOMAINS else where
        elif kind != OBJECTIVE:
            card["guild"] = _guild_id(where)
    if kind in VALUED:
        card["values"] = {a: _number(str(answers[a])) for a in ("wand", "sword", "chalice", "coin")}
    majors = str(answers["major"])
    threshold = str(answers["threshold"])
    if majors != "none":
        card["major"] = [m.strip() for m in majors.split("|")]
        if threshold != "none":
            numbers = [_number(t.strip()) for t in threshold.split("|")]
            card["threshold"] = dict(zip(card["major"], numbers, strict=False))
    card["vp"] = int(answers["vp"])
    if answers["letter"] != "none":
        card["letter"] = str(answers["letter"])
    if answers["once_per_round"] == "yes":
        card["once_per_round"] = True
    if kind == OBJECTIVE:
        count = _number(threshold) if threshold != "none" else None
        card["objective"] = {"domain": where, "count": count}
    if answers["ability"] != "none":
        card["ability"] = yaml.safe_load(str(answers["ability"]))
    return card


def build(answers: Mapping[str, Mapping[str, Any]], counts: Mapping[str, int]) -> dict[str, Any]:
    """A pack from enrollment: each card tagged as it was answered (a copy tagged half-way
    gives a pack with what there is; its problems say what is missing). The domains are those
    the answers name, in the order first named."""
    del counts  # every card is answered: the types are in the answers, not counted by tag
    cards = {p: card_from_answers(p, answers[p]) for p in PIECES if p in answers}
    domains: list[str] = []
    for card in cards.values():
        for domain in (card.get("domain"), (card.get("objective") or {}).get("domain")):
            if domain and domain != ALL_DOMAINS and domain not in domains:
                domains.append(domain)
    return {"domains": domains, "cards": cards}


assert set(STAKE_TYPES) <= set(TYPE_CHOICES)
_ASKED = frozenset(PIECES)
PER_PIECE = PerPiece(asks=_ASKED.__contains__, model=CardAnswers, build=build)
