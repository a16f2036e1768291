"""The Angels & Demons catalogue (read once from ``catalogue.yaml``) and card identities.

A card's identity is (kind, name), written as a short string: ``H5`` for any human 5, ``IT2`` for
any item with icon T2. Colour and variant never affect identity (rules §1).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from scorekeeper.errors import ConfigError

KIND_LETTER = {"human": "H", "angel": "A", "demon": "D", "item": "I"}
NUMBERED_KINDS = ("human", "angel", "demon")


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card of the catalogue."""

    id: str
    kind: str
    name: str
    colour: str | None
    variant: str | None

    @property
    def ident(self) -> str:
        """The identity string: kind letter + name (``H5``, ``IT2``)."""
        return KIND_LETTER[self.kind] + self.name

    @property
    def number(self) -> int | None:
        """The printed number of a human/angel/demon card; None for items."""
        return int(self.name) if self.kind in NUMBERED_KINDS else None

    @property
    def red(self) -> bool:
        return self.colour == "red"

    @property
    def plain_item(self) -> bool:
        return self.kind == "item" and self.variant == "plain"

    @property
    def conditional_item(self) -> bool:
        return self.kind == "item" and self.variant == "conditional"

    def describe(self) -> str:
        """Plain words: "red angel 5", "plain item T2"."""
        if self.kind == "item":
            return f"{self.variant} item {self.name}"
        return f"{self.colour} {self.kind} {self.name}"


def _load() -> tuple[tuple[Card, ...], tuple[tuple[str, str], ...]]:
    """Read and validate the catalogue data file; raises ConfigError when it is malformed."""
    text = resources.files(__package__).joinpath("catalogue.yaml").read_text(encoding="utf-8")
    data: Any = yaml.safe_load(text)
    try:
        cards = tuple(
            Card(
                str(c["id"]),
                str(c["kind"]),
                str(c["name"]),
                None if c["colour"] is None else str(c["colour"]),
                None if c["variant"] is None else str(c["variant"]),
            )
            for c in data["cards"]
        )
        tokens = tuple((str(t["id"]), str(t["name"])) for t in data["tokens"])
    except (KeyError, TypeError) as exc:
        raise ConfigError(f"bad Angels & Demons catalogue: {exc}", path="catalogue.yaml") from exc
    ids = [c.id for c in cards]
    if len(cards) != 100 or len(set(ids)) != 100:
        raise ConfigError("the catalogue must list 100 distinct cards", path="catalogue.yaml")
    counts: dict[str, int] = {}
    for c in cards:
        if c.kind not in KIND_LETTER:
            raise ConfigError(f"card {c.id}: unknown kind {c.kind!r}", path="catalogue.yaml")
        if c.kind == "item":
            if c.variant not in ("plain", "conditional") or c.colour is not None:
                raise ConfigError(
                    f"item {c.id}: needs variant plain|conditional, no colour",
                    path="catalogue.yaml",
                )
        elif c.colour not in ("black", "red") or not c.name.isdigit() or not 1 <= int(c.name) <= 7:
            raise ConfigError(
                f"card {c.id}: needs colour black|red and name 1-7", path="catalogue.yaml"
            )
        counts[c.ident] = counts.get(c.ident, 0) + 1
    if any(v != 4 for v in counts.values()) or len(counts) != 25:
        raise ConfigError("every identity must have exactly 4 copies", path="catalogue.yaml")
    return cards, tokens


CARDS, _TOKENS = _load()
CARD_IDS: tuple[str, ...] = tuple(c.id for c in CARDS)
BY_ID: dict[str, Card] = {c.id: c for c in CARDS}
INDEX: dict[str, int] = {c.id: i for i, c in enumerate(CARDS)}
IDENT: dict[str, str] = {c.id: c.ident for c in CARDS}
TOKENS: tuple[str, ...] = tuple(t for t, _ in _TOKENS)
TOKEN_NAMES: dict[str, str] = dict(_TOKENS)


def describe(piece: str) -> str:
    """Plain words for a card or token id; the id itself when unknown."""
    card = BY_ID.get(piece)
    if card is not None:
        return card.describe()
    return TOKEN_NAMES.get(piece, piece)
