"""King of the Elves' deck manifests as a data kind: schema (pydantic), YAML and CSV, checks.

Imported only when a manifest is read, checked or edited (a data route, the CLI, a table created
from a mapping other than a shipped one), never to play a table whose options hold the manifest
already, nor for a shipped one (deck.py reads its checked JSON twin, ``ready_text``): it loads
pydantic and the YAML models (tests/commands/test_serve_imports.py keeps serve lean).

The rulebook lists neither the village cards nor the counts per type, so a manifest records them
for one physical copy (docs/games/king-of-the-elves.md, "The deck manifest")::

    name: mine
    sample: false
    assumed: false
    description: our copy, enrolled
    villages:
      village_01: {terrain: lake, value: 7}
      ...
    travel: {giant_pig: 9, elfcycle: 9, magic_cloud: 9, unicorn: 9, troll_wagon: 9, ...}
    special: {gold: 6, thief: 6, fallen_tree: 5, sea_monster: 3, escort: 5, turnaround: 5}

A manifest may be saved half-way: a wrong key or value is refused at once (naming the line and
the field), while missing villages or types are ``problems()``, which keep it from starting a
table. The shipped ``assumed`` manifest (decks/assumed.yaml) is a guess, labelled "assumed".

The CSV form has one flat column set: ``card, terrain, value`` rows for the villages and
``type, count`` rows for the travel and special counts (the other cells empty); the
description goes on any one row.

Hazard: YAML values reach the validators as ``Scalar`` text (core/yaml_model.py), so a count
checks the YAML tag itself (``'2'`` quoted is text, not a count).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, get_args

from pydantic import ConfigDict, Field, model_validator

from scorekeeper.core.data_kind import CsvForm, DataKind, PerPiece, Rows
from scorekeeper.core.yaml_model import Count, FileModel, Flag, FreeText, Problem, Text
from scorekeeper.errors import ConfigError
from scorekeeper.games.king_of_the_elves.cards import (
    SPECIAL_TYPES,
    TERRAINS,
    TRAVEL_TYPES,
    TYPE_WORDS,
    VILLAGES,
)
from scorekeeper.games.king_of_the_elves.deck import (
    DECKS_DIR,
    SPECIAL_TOTAL,
    TRAVEL_TOTAL,
    problems,
    shipped,
)

Terrain = Literal["lake", "river", "desert", "mountain", "forest", "plain"]
assert get_args(Terrain) == TERRAINS


class VillageModel(FileModel):
    """One village card as printed: its terrain and value."""

    model_config = ConfigDict(title="village card")

    terrain: Terrain = Field(
        ...,
        title="terrain",
        description="the terrain drawn in the card's corners",
        json_schema_extra={"x-labels": {t: t for t in TERRAINS}},
    )
    value: Count = Field(..., ge=2, le=7, title="value", description="the printed value, 2 to 7")


def _count_field(kind: str) -> Any:
    return Field(
        None,
        ge=1,
        title=TYPE_WORDS[kind],
        description=f"how many {TYPE_WORDS[kind]} cards the deck holds (at least 1)",
    )


class TravelCounts(FileModel):
    """The travel cards counted by type; a type left out is unknown."""

    model_config = ConfigDict(title="travel counts")

    giant_pig: Count | None = _count_field("giant_pig")
    elfcycle: Count | None = _count_field("elfcycle")
    magic_cloud: Count | None = _count_field("magic_cloud")
    unicorn: Count | None = _count_field("unicorn")
    troll_wagon: Count | None = _count_field("troll_wagon")
    dragon: Count | None = _count_field("dragon")
    raft: Count | None = _count_field("raft")


class SpecialCounts(FileModel):
    """The special cards counted by type; a type left out is unknown."""

    model_config = ConfigDict(title="special counts")

    gold: Count | None = _count_field("gold")
    thief: Count | None = _count_field("thief")
    fallen_tree: Count | None = _count_field("fallen_tree")
    sea_monster: Count | None = _count_field("sea_monster")
    escort: Count | None = _count_field("escort")
    turnaround: Count | None = _count_field("turnaround")


assert tuple(TravelCounts.model_fields) == TRAVEL_TYPES
assert tuple(SpecialCounts.model_fields) == SPECIAL_TYPES


class DeckModel(FileModel):
    """One physical deck's manifest, possibly only partly known."""

    model_config = ConfigDict(title="deck manifest")

    name: Text = Field(..., title="name", description="what the deck is called")
    sample: Flag = Field(
        False, title="shipped", description="true for a manifest shipped with scorekeeper"
    )
    assumed: Flag = Field(
        False,
        title="assumed",
        description="true when the values and counts are a guess, not read from a real deck",
    )
    description: FreeText = Field("", title="description", description="a few words about it")
    villages: dict[str, VillageModel] = Field(
        default_factory=dict,
        title="villages",
        description="each village card (village_01 … village_26): its terrain and value",
    )
    travel: TravelCounts = Field(
        default_factory=TravelCounts,
        title="travel cards",
        description=f"how many travel cards of each type ({TRAVEL_TOTAL} in all)",
    )
    special: SpecialCounts = Field(
        default_factory=SpecialCounts,
        title="special cards",
        description=f"how many special cards of each type ({SPECIAL_TOTAL} in all)",
    )

    @model_validator(mode="before")
    @classmethod
    def _village_keys(cls, data: Any) -> Any:
        """Village keys are the card ids ``village_01`` … ``village_26``."""
        if not isinstance(data, Mapping):
            return data
        villages = data.get("villages")
        if isinstance(villages, Mapping):
            for key in villages:
                if str(key).strip() not in VILLAGES:
                    raise Problem(
                        f"the villages are village_01 to village_26, not {str(key)!r}",
                        "villages",
                        str(key),
                        key=True,
                    )
        return data

    @model_validator(mode="after")
    def _totals(self) -> DeckModel:
        """With every type counted, the totals must be the deck's (64 travel, 30 special)."""
        for field, kinds, total in (
            ("travel", TRAVEL_TYPES, TRAVEL_TOTAL),
            ("special", SPECIAL_TYPES, SPECIAL_TOTAL),
        ):
            counts = getattr(self, field).model_dump()
            if all(counts[k] is not None for k in kinds):
                got = sum(counts.values())
                if got != total:
                    raise ValueError(
                        f"the {field} cards add up to {got}; a deck holds {total} of them"
                    )
        return self


# -- model <-> mapping <-> Deck ----------------------------------------------------------------


def _mapping(model: Any) -> dict[str, Any]:
    """The plain mapping of a validated model: villages in card order, counts given only."""
    assert isinstance(model, DeckModel)
    villages = {
        card: {"terrain": model.villages[card].terrain, "value": model.villages[card].value}
        for card in VILLAGES
        if card in model.villages
    }
    travel = {k: v for k, v in model.travel.model_dump().items() if v is not None}
    special = {k: v for k, v in model.special.model_dump().items() if v is not None}
    return {
        "name": str(model.name),
        "sample": model.sample,
        "assumed": model.assumed,
        "description": str(model.description),
        "villages": villages,
        "travel": travel,
        "special": special,
    }


def load_shipped(name: str) -> dict[str, Any]:
    """A shipped manifest's mapping; ConfigError naming the shipped ones when unknown."""
    from scorekeeper.core.layout import read_text
    from scorekeeper.core.yaml_model import validate_yaml

    files = shipped()
    if name not in files:
        raise ConfigError(
            f"no deck manifest called {name!r} is shipped; shipped: {', '.join(files)} "
            "(a saved one is chosen by its name when the table is created)"
        )
    return _mapping(validate_yaml(DeckModel, read_text(files[name]), str(files[name])))


def ready_text(name: str) -> str:
    """The text of ``decks/<name>.json``, the checked twin of a shipped manifest's YAML that a
    table reads instead (deck.py's ``load_shipped``). After editing the YAML, write it with
    ``.venv/bin/python -c "from scorekeeper.games.king_of_the_elves import deck, deck_data;
    (deck.DECKS_DIR / 'assumed.json').write_text(deck_data.ready_text('assumed'))"``."""
    return json.dumps(load_shipped(name), ensure_ascii=False, separators=(",", ":")) + "\n"


def from_mapping(data: Any, source: str = "the deck option") -> dict[str, Any]:
    """Validate a manifest given as plain data; ConfigError naming the field."""
    from scorekeeper.core.data import plain
    from scorekeeper.core.yaml_model import validate_data

    return _mapping(validate_data(DeckModel, plain(data, source, "deck manifest"), source))


# -- CSV ----------------------------------------------------------------------------------------

CSV_COLUMNS: tuple[str, ...] = ("card", "terrain", "value", "type", "count", "description")
"""One flat column set: a village row fills ``card, terrain, value``; a count row fills ``type,
count``; the description goes on any one row."""


def csv_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows of a manifest: the villages in card order, then the travel and special counts;
    the description on the first row."""
    rows: list[dict[str, Any]] = []
    for card, v in (data.get("villages") or {}).items():
        rows.append({"card": card, "terrain": v["terrain"], "value": v["value"]})
    for field in ("travel", "special"):
        for kind, count in (data.get(field) or {}).items():
            rows.append({"type": kind, "count": count})
    if rows and data.get("description"):
        rows[0]["description"] = data["description"]
    return rows


def _int_cell(text: str, what: str, source: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"{what} must be a whole number, not {text!r}", source, line) from None


def csv_entry(rows: Rows, source: str) -> dict[str, Any]:
    """A manifest's mapping from CSV rows; ConfigError naming the line for a bad row."""
    villages: dict[str, Any] = {}
    counts: dict[str, dict[str, int]] = {"travel": {}, "special": {}}
    first: dict[str, int] = {}
    description = ""
    for line, row in rows:
        card, kind = row.get("card", ""), row.get("type", "")
        if bool(card) == bool(kind):
            raise ConfigError(
                "each row is a village (card, terrain, value) or a count (type, count)",
                source,
                line,
            )
        key = card or kind
        if key in first:
            raise ConfigError(f"{key} is listed twice (first on line {first[key]})", source, line)
        first[key] = line
        if card:
            value = _int_cell(row.get("value", ""), f"{card}'s value", source, line)
            villages[card] = {"terrain": row.get("terrain", ""), "value": value}
        elif kind in TRAVEL_TYPES or kind in SPECIAL_TYPES:
            field = "travel" if kind in TRAVEL_TYPES else "special"
            counts[field][kind] = _int_cell(row.get("count", ""), f"{kind}'s count", source, line)
        else:
            known = ", ".join((*TRAVEL_TYPES, *SPECIAL_TYPES))
            raise ConfigError(f"{kind!r} is no card type; the types are {known}", source, line)
        if row.get("description"):
            description = row["description"]
    return {"villages": villages, **counts, "description": description}


# -- the data kind ------------------------------------------------------------------------------


def _show(entry: Any) -> str:
    data = entry.data
    lines = [f"{entry.label}: {data.get('description') or ''}".rstrip(": ")]
    for card, v in (data.get("villages") or {}).items():
        lines.append(f"  {card}: {v['terrain']} {v['value']}")
    for field in ("travel", "special"):
        counts = data.get(field) or {}
        lines.append(f"  {field}: " + ", ".join(f"{TYPE_WORDS[k]} {n}" for k, n in counts.items()))
    found = problems(data)
    if found:
        lines.append("  incomplete: " + "; ".join(found))
    return "\n".join(lines)


def _recorded(
    answers: Mapping[str, Mapping[str, Any]], counts: Mapping[str, int]
) -> dict[str, Any]:
    """A manifest from enrollment: each village card as its terrain and value were answered, and
    the travel and special cards counted by type as they were tagged. A copy tagged half-way
    gives a manifest with what there is (its ``problems`` say what is missing)."""
    return {
        "assumed": False,
        "villages": {card: dict(fields) for card, fields in answers.items()},
        "travel": {t: counts[t] for t in TRAVEL_TYPES if counts.get(t)},
        "special": {t: counts[t] for t in SPECIAL_TYPES if counts.get(t)},
    }


DECK_KIND = DataKind(
    game="king-of-the-elves",
    kind="deck",
    title="Deck manifests",
    help=(
        "The village cards of your deck (each one's terrain and value, as printed) and how "
        "many travel and special cards of each type it holds. The rulebook does not list them: "
        "record them while you tag your deck, then choose the manifest when you create a table."
    ),
    noun="deck manifest",
    model=DeckModel,
    samples=DECKS_DIR,
    to_mapping=_mapping,
    problems=problems,
    option="deck",
    csv=CsvForm(CSV_COLUMNS, csv_rows, csv_entry),
    show=_show,
    sample_word="assumed",
    # Enrolling a deck asks each village card's terrain and value as it is tagged.
    per_piece=PerPiece(asks=lambda piece: piece in VILLAGES, model=VillageModel, build=_recorded),
)
