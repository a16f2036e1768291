"""Arcana's card packs as a data kind: the schema (pydantic), the YAML form, the checks, the
data kind ``pack`` and what enrollment asks of each card as it is tagged.

Imported only when a pack is read, checked or edited (a data route, the CLI, a table created
from a name or a mapping), never to play a table whose options hold the pack already: it loads
pydantic and the YAML models (tests/commands/test_serve_imports.py keeps serve lean).

The rulebook prints no card's values and no list is public, so a pack records them for one
physical copy (docs/games/arcana.md, "The card pack")::

    name: mine
    sample: false
    description: our copy, enrolled
    domains: [Ogrokh, Kraken Quay, Old Town]
    cards:
      ferrymen_03: {name: Crossbowman, type: agent, guild: ferrymen, letter: A,
                    values: {wand: 0, sword: 3, chalice: 0, coin: 1}, vp: 0}
      ...

Every card's fields are checked by pack_check.py before the model types them, so a message
names the card and the field ("stake_002 (Ayane): threshold in sword is 6 but its sword value
is 5") and, in a file, the line. A pack may be saved with cards missing: ``pack.problems`` says
what keeps it from starting a table. The CSV form is pack_csv.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

import yaml
from pydantic import ConfigDict, Field, WithJsonSchema, model_validator

from scorekeeper.core.data_kind import DataKind
from scorekeeper.core.yaml_model import FileModel, Flag, FreeText, Problem, Text
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana.cards import GUILDS, LETTERS, MAJOR_ARCANA, PIECES, TYPES
from scorekeeper.games.arcana.pack import PACKS_DIR, missing_for_options, problems, shipped
from scorekeeper.games.arcana.pack_check import PackError, check_cards, check_domains

CardType = Literal[
    "agent",
    "location",
    "relic",
    "citizen",
    "badge",
    "watch",
    "master",
    "objective",
    "event",
    "first_player",
    "princes_games",
]
assert get_args(CardType) == TYPES
GuildId = Literal["blades", "thieves", "usurers", "ferrymen", "fortune_tellers", "architects"]
assert get_args(GuildId) == GUILDS
Major = Literal["wand", "sword", "chalice"]
assert get_args(Major) == MAJOR_ARCANA
Letter = Literal["A", "B", "C", "D", "E", "F"]
assert get_args(Letter) == LETTERS
Cell = int | Literal["-"]

TYPE_LABELS: dict[str, Any] = {
    "agent": "agent",
    "location": "location",
    "relic": "relic",
    "citizen": "citizen",
    "badge": "guild badge",
    "watch": "watch card (captain or constable)",
    "master": "guild master",
    "objective": "objective",
    "event": "event",
    "first_player": "first-player card",
    "princes_games": "Prince's Games card",
}
GUILD_LABELS: dict[str, Any] = {
    "blades": "Blades",
    "thieves": "Thieves",
    "usurers": "Usurers",
    "ferrymen": "Ferrymen",
    "fortune_tellers": "Fortune-Tellers",
    "architects": "Architects",
}
ARCANUM_LABELS: dict[str, Any] = {"wand": "wand", "sword": "sword", "chalice": "chalice"}


def _value_field(arcanum: str, what: str) -> Any:
    return Field(
        ...,
        title=arcanum,
        description=f"the card's {arcanum} value{what}: a whole number, or - where none is printed",
    )


class ValuesModel(FileModel):
    """The four arcana a card prints."""

    model_config = ConfigDict(title="values", defer_build=True)

    wand: Cell = _value_field("wand", "")
    sword: Cell = _value_field("sword", "")
    chalice: Cell = _value_field("chalice", "")
    coin: Cell = _value_field("coin", " (its ducat value)")


class ObjectiveModel(FileModel):
    """What an objective card asks for."""

    model_config = ConfigDict(title="objective", defer_build=True)

    domain: Text = Field(..., title="domain", description="the domain its stakes must be of")
    count: int = Field(..., ge=1, le=20, title="count", description="how many stakes it asks")


class CardModel(FileModel):
    """One card as printed (checked field by field in pack_check.py first)."""

    model_config = ConfigDict(title="card", defer_build=True)

    name: Text = Field(..., title="name", description="the name printed on the card")
    type: CardType = Field(
        ...,
        title="type",
        description="what kind of card it is",
        json_schema_extra={"x-labels": TYPE_LABELS},
    )
    guild: GuildId | None = Field(
        None,
        title="guild",
        description="the guild of a guild card, badge or guild master (its id says it)",
        json_schema_extra={"x-labels": GUILD_LABELS},
    )
    domain: str | None = Field(
        None,
        title="domain",
        description="a stake's domain: the word under its name (one of the pack's), or all",
    )
    values: ValuesModel | None = Field(
        None, title="values", description="wand, sword, chalice and coin as printed"
    )
    major: list[Major] = Field(
        default_factory=list,
        title="major arcana",
        description="a stake's arcana printed in yellow circles (one, or several)",
        json_schema_extra={"x-labels": ARCANUM_LABELS, "item": "major arcanum"},
    )
    threshold: dict[str, int] = Field(
        default_factory=dict,
        title="threshold",
        description="a stake's value in each yellow circle (its value in that arcanum)",
    )
    vp: int = Field(0, ge=0, title="VP", description="the victory points printed on the card")
    letter: Letter | None = Field(
        None,
        title="letter",
        description="the letter in the bottom-left corner: A or B on guild cards, none on stakes",
        json_schema_extra={"x-labels": {x: x for x in LETTERS}},
    )
    once_per_round: bool = Field(
        False,
        title="once per round",
        description="a guild master printing the once-per-round symbol",
    )
    objective: ObjectiveModel | None = Field(
        None, title="objective", description="an objective card's domain and count"
    )
    # The editor shows an ability as its one line of YAML (JSON is YAML): a text box.
    ability: Annotated[
        dict[str, Any] | None, WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "null"}]})
    ] = Field(
        None,
        title="ability",
        description="the card's ability in the vocabulary, like {when: play, draw: {n: 1}}",
    )


class PackModel(FileModel):
    """One physical copy's card pack, possibly only partly recorded."""

    model_config = ConfigDict(title="card pack", defer_build=True)

    name: Text = Field(..., title="name", description="what the pack is called")
    sample: Flag = Field(
        False, title="sample", description="true for the made-up pack shipped with scorekeeper"
    )
    description: FreeText = Field("", title="description", description="a few words about it")
    domains: list[Text] = Field(
        default_factory=list,
        title="domains",
        description="the domain names printed under stakes' names (Ogrokh, …)",
        json_schema_extra={"item": "domain"},
    )
    cards: dict[str, CardModel] = Field(
        default_factory=dict,
        title="cards",
        description="each card by its id (badge_blades … event_12): what is printed on it",
    )

    @model_validator(mode="before")
    @classmethod
    def _check_cards(cls, data: Any) -> Any:
        """Every card checked in words naming it and the field (pack_check.py)."""
        if not isinstance(data, Mapping):
            return data
        out = {str(k): v for k, v in data.items()}
        try:
            domains = check_domains(out.get("domains"))
            cards = check_cards(out.get("cards"), domains)
        except PackError as exc:
            raise Problem(exc.message, *exc.at) from None
        out["domains"] = domains
        out["cards"] = cards
        return out


# -- model <-> mapping ---------------------------------------------------------------------------


def card_mapping(card: CardModel) -> dict[str, Any]:
    """One card's plain mapping: the fields that apply, in the schema's order."""
    out: dict[str, Any] = {"name": card.name, "type": card.type}
    if card.guild:
        out["guild"] = card.guild
    if card.domain:
        out["domain"] = card.domain
    if card.values is not None:
        out["values"] = card.values.model_dump()
    if card.major:
        out["major"] = list(card.major)
        out["threshold"] = dict(card.threshold)
    out["vp"] = card.vp
    if card.letter:
        out["letter"] = card.letter
    if card.once_per_round:
        out["once_per_round"] = True
    if card.objective is not None:
        out["objective"] = card.objective.model_dump()
    if card.ability:
        out["ability"] = dict(card.ability)
    return out


def to_mapping(model: Any) -> dict[str, Any]:
    """The plain mapping of a validated pack: cards in the copy's order."""
    assert isinstance(model, PackModel)
    return {
        "name": str(model.name),
        "sample": model.sample,
        "description": str(model.description),
        "domains": [str(d) for d in model.domains],
        "cards": {p: card_mapping(model.cards[p]) for p in PIECES if p in model.cards},
    }


def dump(data: Mapping[str, Any]) -> str:
    """A pack's YAML: the head in block style, then one line per card (what ``from_yaml`` reads
    back, and what a person edits)."""
    head = {k: data.get(k) for k in ("name", "sample", "description")}
    text = yaml.safe_dump(head, sort_keys=False, allow_unicode=True, width=100)
    text += "domains: " + _flow(list(data.get("domains") or [])) + "\n"
    cards = data.get("cards") or {}
    if not cards:
        return text + "cards: {}\n"
    text += "cards:\n"
    for piece, card in cards.items():
        text += f"  {piece}: {_flow(card)}\n"
    return text


def _flow(value: Any) -> str:
    return yaml.safe_dump(
        value, default_flow_style=True, width=10**6, sort_keys=False, allow_unicode=True
    ).strip()


def load_shipped(name: str) -> dict[str, Any]:
    """A shipped pack's mapping (a copy); ConfigError naming the shipped ones when unknown.
    Read once per process and file version (core/data.py's cache of samples: a whole pack
    takes a few tenths of a second to read as YAML)."""
    from scorekeeper.core import data

    files = shipped()
    if name not in files:
        raise ConfigError(
            f"no card pack called {name!r} is shipped; shipped: {', '.join(files)} "
            "(a saved one is chosen by its name when the table is created)"
        )
    return data.sample(PACK_KIND, name).data


def from_mapping(data: Any, source: str = "the pack option") -> dict[str, Any]:
    """Validate a pack given as plain data; ConfigError naming the card and the field."""
    from scorekeeper.core.data import plain
    from scorekeeper.core.yaml_model import validate_data

    return to_mapping(validate_data(PackModel, plain(data, source, "card pack"), source))


# -- the data kind -------------------------------------------------------------------------------


def _show(entry: Any) -> str:
    """A pack in words for a terminal: one line per card, then what it lacks."""
    from scorekeeper.games.arcana.pack_csv import card_line

    data = entry.data
    lines = [f"{entry.label}: {data.get('description') or ''}".rstrip(": ")]
    lines.append("  domains: " + (", ".join(data.get("domains") or []) or "none"))
    for piece, card in (data.get("cards") or {}).items():
        lines.append(f"  {piece}: {card_line(card)}")
    found = problems(data)
    if found:
        lines.append("  incomplete: " + "; ".join(found))
    for option, why in missing_for_options(data).items():
        lines.append(f"  cannot offer {option}: {why}")
    return "\n".join(lines)


def _kind() -> DataKind:
    from scorekeeper.games.arcana.pack_csv import CSV_FORM
    from scorekeeper.games.arcana.pack_enroll import PER_PIECE

    return DataKind(
        game="arcana",
        kind="pack",
        title="Card packs",
        help=(
            "What is printed on every card of your copy of Arcana: its name, type, guild or "
            "domain, values, major arcana, VP, letter and ability. The rulebook lists none of "
            "them: record them while you tag your cards, then choose the pack when you create a "
            "table. The shipped sample is made up."
        ),
        noun="card pack",
        model=PackModel,
        samples=PACKS_DIR,
        to_mapping=to_mapping,
        problems=problems,
        option="pack",
        csv=CSV_FORM,
        show=_show,
        dump=dump,
        sample_word="sample",
        # Enrolling a copy asks what is printed on each card as it is tagged.
        per_piece=PER_PIECE,
    )


PACK_KIND = _kind()
