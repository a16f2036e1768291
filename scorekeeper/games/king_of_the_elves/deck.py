"""King of the Elves' deck manifests, the light part: the facts the rules and the pieces take
from a manifest's plain mapping (``deck_of``, ``pieces_of``), what keeps one from starting a
table (``problems``), and the shipped manifests (decks/*.yaml).

The schema, the YAML and CSV forms and the data kind are in deck_data.py, imported only when a
manifest is checked (``from_mapping`` imports it when called; ``load_shipped`` reads a shipped
manifest's checked JSON twin): a table plays from the manifest its resolved options hold, with no
file model loaded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from scorekeeper.games.king_of_the_elves.cards import (
    SPECIAL_TYPES,
    TRAVEL_TYPES,
    TYPE_WORDS,
    VILLAGES,
    piece_ids,
)
from scorekeeper.games.king_of_the_elves.state import Deck

DECKS_DIR = Path(__file__).with_name("decks")
TRAVEL_TOTAL = 64
SPECIAL_TOTAL = 30


def problems(data: Mapping[str, Any]) -> list[str]:
    """What keeps a (valid) manifest from starting a table, in words; empty when complete."""
    out: list[str] = []
    villages = data.get("villages") or {}
    missing = [c for c in VILLAGES if c not in villages]
    if missing:
        listed = ", ".join(missing[:3]) + (" …" if len(missing) > 3 else "")
        out.append(f"villages: {len(missing)} of the 26 village cards are not recorded ({listed})")
    for field, kinds in (("travel", TRAVEL_TYPES), ("special", SPECIAL_TYPES)):
        counts = data.get(field) or {}
        absent = [TYPE_WORDS[k] for k in kinds if k not in counts]
        if absent:
            out.append(f"{field}: no count for {', '.join(absent)}")
    return out


def deck_of(data: Mapping[str, Any]) -> Deck:
    """The rules' ``Deck`` from a validated, complete manifest mapping."""
    villages = data["villages"]
    return Deck(
        name=str(data["name"]),
        assumed=bool(data.get("assumed")),
        villages=tuple(
            (c, str(villages[c]["terrain"]), int(villages[c]["value"])) for c in VILLAGES
        ),
        travel=tuple((k, int(data["travel"][k])) for k in TRAVEL_TYPES),
        special=tuple((k, int(data["special"][k])) for k in SPECIAL_TYPES),
    )


def pieces_of(data: Mapping[str, Any]) -> tuple[str, ...]:
    """Every piece id of the copy a manifest describes, in enrollment order."""
    return piece_ids(dict(data.get("travel") or {}), dict(data.get("special") or {}))


def shipped() -> dict[str, Path]:
    """The manifests shipped in the package (``decks/*.yaml``), by name."""
    return {p.stem: p for p in sorted(DECKS_DIR.glob("*.yaml"))}


def load_shipped(name: str) -> dict[str, Any]:
    """A shipped manifest's validated mapping; ConfigError naming the shipped ones when
    unknown.

    A table plays from ``decks/<name>.json`` when it is there: the same mapping, checked and
    written beside the YAML (``deck_data.ready_text``; tests/games/king_of_the_elves/test_deck.py
    keeps them equal), read without the schema's models and the YAML parser, which cost a
    serving table about 1 MB."""
    twin = DECKS_DIR / f"{name}.json"
    if name in shipped() and twin.is_file():
        data = json.loads(twin.read_text(encoding="utf-8"))
        assert isinstance(data, dict)
        return data
    from scorekeeper.games.king_of_the_elves import deck_data

    return deck_data.load_shipped(name)


def from_mapping(data: Any, source: str = "the deck option") -> dict[str, Any]:
    """Validate a manifest given as plain data; ConfigError naming the field."""
    from scorekeeper.games.king_of_the_elves import deck_data

    return deck_data.from_mapping(data, source)
