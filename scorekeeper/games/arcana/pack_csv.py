"""Arcana's card packs in their flat CSV form, for spreadsheets: one row per card.

Columns (docs/games/arcana.md, "The card pack"): ``card, name, type, guild, domain, wand,
sword, chalice, coin, major, threshold, vp, letter, once_per_round, objective_domain,
objective_count, ability, description``. ``major`` lists arcana like ``sword|wand`` and
``threshold`` the values in the same order (``5|5``); ``ability`` is the YAML mapping on one
line; the description goes on any one row. The pack's domains are the ones its stakes and
objectives name, in the order first named.

A bad cell is left as written for the pack's checks, which name the card and the field; only
what is not a card at all (no id, an id twice, an ability that is not YAML) is refused here,
naming the line.

Hazard: the export guards cells a spreadsheet would run as a formula with a leading ``'``
(core/data.py ``_cell``; "-" is one of them), so a cell read back drops that one quote.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from scorekeeper.core.data_kind import CsvForm, Rows
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana.cards import ARCANA

CSV_COLUMNS: tuple[str, ...] = (
    "card",
    "name",
    "type",
    "guild",
    "domain",
    "wand",
    "sword",
    "chalice",
    "coin",
    "major",
    "threshold",
    "vp",
    "letter",
    "once_per_round",
    "objective_domain",
    "objective_count",
    "ability",
    "description",
)


def one_line(value: Any) -> str:
    """A mapping as YAML on one line (``{when: play, draw: {n: 1}}``)."""
    return yaml.safe_dump(
        value, default_flow_style=True, width=10**6, sort_keys=False, allow_unicode=True
    ).strip()


def csv_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows of a pack, one per card in the copy's order; the description on the first."""
    rows: list[dict[str, Any]] = []
    for piece, card in (data.get("cards") or {}).items():
        row: dict[str, Any] = {"card": piece, "name": card.get("name"), "type": card.get("type")}
        row["guild"] = card.get("guild")
        row["domain"] = card.get("domain")
        for arcanum, value in (card.get("values") or {}).items():
            row[arcanum] = value
        majors = list(card.get("major") or [])
        if majors:
            row["major"] = "|".join(majors)
            row["threshold"] = "|".join(str(card["threshold"][a]) for a in majors)
        row["vp"] = card.get("vp", 0)
        row["letter"] = card.get("letter")
        if card.get("once_per_round"):
            row["once_per_round"] = "true"
        if card.get("objective"):
            row["objective_domain"] = card["objective"]["domain"]
            row["objective_count"] = card["objective"]["count"]
        if card.get("ability"):
            row["ability"] = one_line(card["ability"])
        rows.append(row)
    if rows and data.get("description"):
        rows[0]["description"] = data["description"]
    return rows


def _unguard(text: str) -> str:
    """A cell as it was before the export's formula guard (``'-`` -> ``-``)."""
    if text.startswith("'") and text[1:2] in ("=", "+", "@", "-", "\t", "\r"):
        return text[1:]
    return text


def _number(text: str) -> Any:
    """A whole number's cell as the number; anything else as written (checked later)."""
    try:
        return int(text)
    except ValueError:
        return text


def csv_entry(rows: Rows, source: str) -> dict[str, Any]:
    """A pack's mapping from CSV rows; ConfigError naming the line for a row that is no card.
    The cards' fields are checked by the pack's model afterwards (naming card and field)."""
    cards: dict[str, Any] = {}
    first: dict[str, int] = {}
    domains: list[str] = []
    description = ""
    for line, raw in rows:
        row = {k: _unguard(v) for k, v in raw.items()}
        piece = row.get("card", "")
        if not piece:
            raise ConfigError("each row is one card: its id goes in the column card", source, line)
        if piece in first:
            raise ConfigError(
                f"{piece} is listed twice (first on line {first[piece]})", source, line
            )
        first[piece] = line
        card = _card(piece, row, source, line)
        for domain in (card.get("domain"), (card.get("objective") or {}).get("domain")):
            if isinstance(domain, str) and domain and domain != "all" and domain not in domains:
                domains.append(domain)
        cards[piece] = card
        if row.get("description"):
            description = row["description"]
    return {"domains": domains, "cards": cards, "description": description}


def _card(piece: str, row: Mapping[str, str], source: str, line: int) -> dict[str, Any]:
    """One row's card mapping: the cells written, as the pack's fields."""
    card: dict[str, Any] = {}
    for column in ("name", "type", "guild", "domain", "letter"):
        if row.get(column):
            card[column] = row[column]
    cells = {a: row.get(a, "") for a in ARCANA}
    if any(cells.values()):
        card["values"] = {a: _number(c) for a, c in cells.items() if c}
    if row.get("major"):
        majors = [m.strip() for m in row["major"].split("|")]
        card["major"] = majors
        if row.get("threshold"):
            values = [_number(t.strip()) for t in row["threshold"].split("|")]
            card["threshold"] = dict(zip(majors, values, strict=False))
    if row.get("vp"):
        card["vp"] = _number(row["vp"])
    if row.get("once_per_round"):
        text = row["once_per_round"].lower()
        card["once_per_round"] = True if text == "true" else False if text == "false" else text
    if row.get("objective_domain") or row.get("objective_count"):
        card["objective"] = {
            "domain": row.get("objective_domain", ""),
            "count": _number(row.get("objective_count", "")),
        }
    if row.get("ability") and row["ability"].lower() != "none":
        try:
            card["ability"] = yaml.safe_load(row["ability"])
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or "unreadable"
            raise ConfigError(
                f"{piece}: ability is not a YAML mapping on one line ({problem})", source, line
            ) from None
    return card


def card_line(card: Mapping[str, Any]) -> str:
    """A card in a few words for a terminal: "Ayane: citizen, Old Town, wand 2 sword 5 …"."""
    parts = [str(card.get("type", "")).replace("_", " ")]
    for key in ("guild", "domain", "letter"):
        if card.get(key):
            parts.append(f"letter {card[key]}" if key == "letter" else str(card[key]))
    values = card.get("values")
    if values:
        parts.append(" ".join(f"{a} {v}" for a, v in values.items()))
    if card.get("major"):
        parts.append("major " + ", ".join(f"{a} {card['threshold'][a]}" for a in card["major"]))
    if card.get("objective"):
        parts.append(f"{card['objective']['count']} of {card['objective']['domain']}")
    if card.get("vp"):
        parts.append(f"{card['vp']} VP")
    if card.get("once_per_round"):
        parts.append("once per round")
    if card.get("ability"):
        parts.append("ability " + one_line(card["ability"]))
    return f"{card.get('name', '')}: " + ", ".join(parts)


CSV_FORM = CsvForm(CSV_COLUMNS, csv_rows, csv_entry)
