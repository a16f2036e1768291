"""Arcana's card packs, the light part: the rules' ``Pack`` from a pack's plain mapping
(``pack_of``), what keeps a pack from starting a table with some options (``problems``), and
the shipped packs (packs/*.yaml; ``sample_pack``).

The schema, the YAML and CSV forms, the data kind and enrollment's questions are in
pack_data.py, imported only when a pack is read or checked (``load_shipped`` and
``from_mapping`` import it when called): a table plays from the pack its resolved options hold,
with no file model loaded. A pack's mapping is what pack_data's checks give back: every card in
plain form (docs/games/arcana.md, "The card pack").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from scorekeeper.games.arcana.cards import (
    AGENT,
    ARCANA,
    BADGES,
    CITIZEN,
    EVENTS,
    FIRST_PLAYER_CARD,
    GUILD_CARD_IDS,
    GUILD_WORDS,
    GUILDS,
    LOCATION,
    MASTERS,
    OBJECTIVES,
    PIECES,
    PRINCES_GAMES_CARD,
    RELIC,
    STAKES,
    WATCH_CARDS,
    Card,
    Pack,
)
from scorekeeper.games.arcana.pack_vocab import ability_of

PACKS_DIR = Path(__file__).with_name("packs")
SAMPLE = "sample"

GUILD_COUNTS = {AGENT: 14, LOCATION: 3, RELIC: 3}
"""A guild's 20 cards by type (spec 1.1)."""
GUILD_LETTERS = {"A": 11, "B": 9}
"""A guild's starting deck (A) and the rest (B) (spec 1.2)."""
STAKE_COUNTS = {RELIC: 31, LOCATION: 36, CITIZEN: 49}
"""The 116 stakes by type (spec 1.1)."""

ALWAYS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("badges", BADGES),
    ("guild cards", GUILD_CARD_IDS),
    ("stakes", STAKES),
    ("first-player and Prince's Games cards", (FIRST_PLAYER_CARD, PRINCES_GAMES_CARD)),
)
"""The cards every table plays with, in words."""
BY_OPTION: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("watch", "watch cards", WATCH_CARDS),
    ("guild_masters", "guild masters", MASTERS),
    ("objectives", "objectives", OBJECTIVES),
    ("events", "events", EVENTS),
)
"""The cards an option brings into play: (option, words, ids)."""


def _on(options: Any, name: str) -> bool:
    """Whether option ``name`` is on in ``options`` (a mapping, an ``Options`` or None)."""
    if options is None:
        return False
    if isinstance(options, Mapping):
        return bool(options.get(name, False))
    return bool(getattr(options, name, False))


def problems(data: Mapping[str, Any], options: Any = None) -> list[str]:
    """What keeps a (valid) pack from starting a table with ``options`` (table options as a
    mapping, the rules' ``Options``, or None for every option off), in words; [] when it can.

    Every table needs the badges, the guild cards, the stakes and the two single cards in the
    rulebook's counts; ``watch``, ``guild_masters``, ``objectives`` and ``events`` need their
    cards too."""
    cards = data.get("cards") or {}
    out = [_missing(words, ids, cards) for words, ids in ALWAYS]
    out += [_missing(words, ids, cards) for name, words, ids in BY_OPTION if _on(options, name)]
    found = [line for line in out if line]
    found += _guild_counts(cards) + _stake_counts(cards)
    return found


def missing_for_options(data: Mapping[str, Any]) -> dict[str, str]:
    """The options a pack cannot offer (its cards are not all recorded), each with why in
    words: ``{"objectives": "objectives: 24 of the 24 are not recorded (…)"}``."""
    cards = data.get("cards") or {}
    out = {}
    for name, words, ids in BY_OPTION:
        line = _missing(words, ids, cards)
        if line:
            out[name] = line
    return out


def _missing(words: str, ids: tuple[str, ...], cards: Mapping[str, Any]) -> str:
    absent = [p for p in ids if p not in cards]
    if not absent:
        return ""
    listed = ", ".join(absent[:3]) + (" …" if len(absent) > 3 else "")
    return f"{words}: {len(absent)} of the {len(ids)} are not recorded ({listed})"


def _guild_counts(cards: Mapping[str, Any]) -> list[str]:
    """A guild's types and letters against the rulebook's, once it is complete (or over)."""
    out = []
    for guild in GUILDS:
        own = [cards[p] for p in GUILD_CARD_IDS if p.startswith(f"{guild}_") and p in cards]
        complete = len(own) == 20
        for field, wanted in (("type", GUILD_COUNTS), ("letter", GUILD_LETTERS)):
            got = {k: sum(1 for c in own if c.get(field) == k) for k in wanted}
            if any(got[k] > n for k, n in wanted.items()) or (complete and got != wanted):
                have = ", ".join(f"{n} {_plural(k, n)}" for k, n in got.items())
                need = ", ".join(f"{n} {_plural(k, n)}" for k, n in wanted.items())
                out.append(f"{GUILD_WORDS[guild]}: {have}; a guild has {need}")
    return out


def _stake_counts(cards: Mapping[str, Any]) -> list[str]:
    own = [cards[p] for p in STAKES if p in cards]
    got = {k: sum(1 for c in own if c.get("type") == k) for k in STAKE_COUNTS}
    if any(got[k] > n for k, n in STAKE_COUNTS.items()) or (
        len(own) == len(STAKES) and got != STAKE_COUNTS
    ):
        have = ", ".join(f"{n} {_plural(k, n)}" for k, n in got.items())
        need = ", ".join(f"{n} {_plural(k, n)}" for k, n in STAKE_COUNTS.items())
        return [f"stakes: {have}; the copy has {need}"]
    return []


def _plural(kind: str, n: int) -> str:
    if kind in GUILD_LETTERS:
        return f"letter {kind}"
    return kind if n == 1 else f"{kind}s"


# -- the rules' Pack -----------------------------------------------------------------------------


def card_of(piece: str, data: Mapping[str, Any]) -> Card:
    """The rules' ``Card`` from one checked card mapping."""
    values = data.get("values") or {}
    cells = tuple(values.get(a) for a in ARCANA)
    objective = data.get("objective")
    ability = data.get("ability")
    return Card(
        id=piece,
        name=str(data["name"]),
        type=str(data["type"]),
        guild=str(data.get("guild") or ""),
        domain=str(data.get("domain") or ""),
        values=tuple(v if isinstance(v, int) else None for v in cells),  # type: ignore[arg-type]
        majors=tuple(data.get("major") or ()),
        threshold=tuple((a, int(v)) for a, v in (data.get("threshold") or {}).items()),
        vp=int(data.get("vp") or 0),
        letter=str(data.get("letter") or ""),
        ability=ability_of(ability) if ability else None,
        once_per_round=bool(data.get("once_per_round")),
        objective=(str(objective["domain"]), int(objective["count"])) if objective else None,
    )


def pack_of(data: Mapping[str, Any]) -> Pack:
    """The rules' ``Pack`` from a validated pack mapping (cards in the copy's order), cached by
    the mapping's JSON. Hazard: the JSON keeps key order (an ability's effects run in the order
    written), so the same pack written in another order is a cache miss, never a wrong hit."""
    return pack_of_text(json.dumps(data))


def pack_of_text(text: str) -> Pack:
    """``pack_of`` for a pack mapping already in JSON text (``source_of``'s): the same Pack
    object for the same text while it is cached."""
    return _pack(text)


def source_of(pack: Pack) -> str | None:
    """The JSON text ``pack`` was built from by ``pack_of``, or None for a pack built another
    way (by hand, in tests). A state's record carries this text instead of 304 encoded cards
    (game.py's ``snapshot``), and ``pack_of_text`` gives the pack back."""
    kept = _SOURCES.get(id(pack))
    return kept[1] if kept is not None and kept[0] is pack else None


_SOURCES: dict[int, tuple[Pack, str]] = {}
"""Each pack ``_pack`` built, by identity, with its text (the pack is held, so its id is never
another object's while listed); the oldest go past ``_MAX_SOURCES``."""
_MAX_SOURCES = 32


@lru_cache(maxsize=16)
def _pack(text: str) -> Pack:
    data = json.loads(text)
    cards = data.get("cards") or {}
    got = Pack(
        name=str(data.get("name", "")),
        sample=bool(data.get("sample")),
        domains=tuple(str(d) for d in data.get("domains") or ()),
        cards=tuple(card_of(p, cards[p]) for p in PIECES if p in cards),
    )
    _SOURCES[id(got)] = (got, text)
    while len(_SOURCES) > _MAX_SOURCES:
        del _SOURCES[next(iter(_SOURCES))]
    return got


def sample_pack() -> Pack:
    """The shipped sample pack (made up; labelled sample), read once."""
    return _sample()


@lru_cache(maxsize=1)
def _sample() -> Pack:
    return pack_of(load_shipped(SAMPLE))


# -- shipped packs and checks (pack_data.py, imported when called) ------------------------------


def shipped() -> dict[str, Path]:
    """The packs shipped in the package (``packs/*.yaml``), by name."""
    return {p.stem: p for p in sorted(PACKS_DIR.glob("*.yaml"))}


def load_shipped(name: str) -> dict[str, Any]:
    """A shipped pack's validated mapping; ConfigError naming the shipped ones when unknown.

    A table plays from ``packs/<name>.json`` when it is there: the same mapping, checked and
    written beside the YAML by tools/arcana_sample_pack.py (a test keeps them equal), read
    without the schema's models and the YAML parser, which cost a serving Pi 9 MB."""
    if name in shipped() and (PACKS_DIR / f"{name}.json").is_file():
        data = json.loads(_ready_text(name))
        assert isinstance(data, dict)
        return data
    from scorekeeper.games.arcana import pack_data

    return pack_data.load_shipped(name)


@lru_cache(maxsize=4)
def _ready_text(name: str) -> str:
    return (PACKS_DIR / f"{name}.json").read_text(encoding="utf-8")


def from_mapping(data: Any, source: str = "the pack option") -> dict[str, Any]:
    """Validate a pack given as plain data; ConfigError naming the card and the field."""
    from scorekeeper.games.arcana import pack_data

    return pack_data.from_mapping(data, source)
