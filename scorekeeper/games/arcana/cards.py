"""Arcana's pieces and what a card is: the 304 piece ids of one copy, and the frozen ``Card``,
``Ability`` and ``Pack`` the rules read from the table's card pack.

Ids follow the contract (docs/games/arcana.md, "Pieces"). What a card *is* (name, type, values,
ability) is never in its id: it is the pack's (docs/games/arcana.md, "The card pack"). This
module is pure data: pack_data.py turns a pack's mapping into a ``Pack`` and checks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

GUILDS: tuple[str, ...] = (
    "blades",
    "thieves",
    "usurers",
    "ferrymen",
    "fortune_tellers",
    "architects",
)
GUILD_WORDS: dict[str, str] = {
    "blades": "Blades",
    "thieves": "Thieves",
    "usurers": "Usurers",
    "ferrymen": "Ferrymen",
    "fortune_tellers": "Fortune-Tellers",
    "architects": "Architects",
}
ARCANA: tuple[str, ...] = ("wand", "sword", "chalice", "coin")
"""The four arcana in the order a card prints them; ``coin`` is the ducat value."""
MAJOR_ARCANA: tuple[str, ...] = ("wand", "sword", "chalice")
"""The arcana a stake may be won in (spec 1.3: coin is only ever a ducat value)."""

# Card types (Card.type).
AGENT = "agent"
LOCATION = "location"
RELIC = "relic"
CITIZEN = "citizen"
BADGE = "badge"
WATCH = "watch"
MASTER = "master"
OBJECTIVE = "objective"
EVENT = "event"
FIRST_PLAYER = "first_player"
PRINCES_GAMES = "princes_games"
TYPES: tuple[str, ...] = (
    AGENT,
    LOCATION,
    RELIC,
    CITIZEN,
    BADGE,
    WATCH,
    MASTER,
    OBJECTIVE,
    EVENT,
    FIRST_PLAYER,
    PRINCES_GAMES,
)
GUILD_CARD_TYPES: tuple[str, ...] = (AGENT, LOCATION, RELIC)
STAKE_TYPES: tuple[str, ...] = (RELIC, LOCATION, CITIZEN)
LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")
ALL_DOMAINS = "all"
"""A stake's ``domain`` when it lists every domain (R-OPT-C-3: it counts towards any)."""

# The ability vocabulary (docs/games/arcana.md, "Abilities").
WHENS: tuple[str, ...] = ("play", "agent", "results", "always", "use", "round")
EFFECTS: tuple[str, ...] = (
    "draw_keep",
    "draw",
    "tie_win",
    "copy_agent",
    "move_agent",
    "add",
    "bribe_bonus",
    "immediate_win",
    "return_agent",
    "extra_action",
    "manual",
)
CONDITIONS: tuple[str, ...] = ("if_stake", "if_major")

# The pieces of one copy, in enrollment order.
GUILD_CARDS_PER_GUILD = 20
STAKE_COUNT = 116
BADGES: tuple[str, ...] = tuple(f"badge_{g}" for g in GUILDS)
GUILD_CARD_IDS: tuple[str, ...] = tuple(
    f"{g}_{k:02d}" for g in GUILDS for k in range(1, GUILD_CARDS_PER_GUILD + 1)
)
STAKES: tuple[str, ...] = tuple(f"stake_{k:03d}" for k in range(1, STAKE_COUNT + 1))
FIRST_PLAYER_CARD = "first_player"
PRINCES_GAMES_CARD = "princes_games"
WATCH_CARDS: tuple[str, ...] = ("captain_1", "captain_2") + tuple(
    f"constable_{k}" for k in range(1, 5)
)
MASTERS: tuple[str, ...] = tuple(f"master_{g}_{k}" for g in GUILDS for k in range(1, 4))
OBJECTIVES: tuple[str, ...] = tuple(f"objective_{k:02d}" for k in range(1, 25))
EVENTS: tuple[str, ...] = tuple(f"event_{k:02d}" for k in range(1, 13))
PIECES: tuple[str, ...] = (
    *BADGES,
    *GUILD_CARD_IDS,
    *STAKES,
    FIRST_PLAYER_CARD,
    PRINCES_GAMES_CARD,
    *WATCH_CARDS,
    *MASTERS,
    *OBJECTIVES,
    *EVENTS,
)
assert len(PIECES) == 304


def guild_of_id(piece: str) -> str:
    """The guild an id names (``ferrymen_03``, ``badge_ferrymen``, ``master_ferrymen_2``), ""
    for a card of no guild. Hazard: fortune_tellers has an underscore of its own."""
    if piece.startswith("badge_"):
        return piece[6:] if piece[6:] in GUILDS else ""
    if piece.startswith("master_"):
        head = piece[7:].rpartition("_")[0]
        return head if head in GUILDS else ""
    head, _, tail = piece.rpartition("_")
    return head if head in GUILDS and tail.isdigit() else ""


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of the vocabulary (``kind`` in EFFECTS) with its fields as sorted
    ``(name, value)`` pairs; a value is a string, a whole number, or a tuple of strings."""

    kind: str
    args: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        """The field ``name``, or ``default`` when the effect does not give it."""
        for key, value in self.args:
            if key == name:
                return value
        return default


@dataclass(frozen=True, slots=True)
class Ability:
    """A card's ability: when it acts (``when`` in WHENS), its effects in order, and the
    conditions (``if_stake``, ``if_major``, as ``(name, value)`` pairs) that narrow all of
    them. ``text`` is the card's own words, shown for a ``manual`` effect."""

    when: str
    effects: tuple[Effect, ...]
    conditions: tuple[tuple[str, str], ...] = ()
    text: str = ""

    def effect(self, kind: str) -> Effect | None:
        """The first effect of ``kind``, or None."""
        for one in self.effects:
            if one.kind == kind:
                return one
        return None


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a pack. ``values`` are wand, sword, chalice, coin (ARCANA order), None where
    the card prints "-"; ``coin`` is the ducat value. ``majors`` and ``threshold`` (as
    ``(arcanum, value)`` pairs) are a stake's; ``domain`` a stake's domain (or ALL_DOMAINS);
    ``guild`` a guild card's, badge's or master's; ``letter`` "" where none is printed.
    ``objective`` is an objective card's ``(domain, count)``."""

    id: str
    name: str
    type: str
    guild: str = ""
    domain: str = ""
    values: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)
    majors: tuple[str, ...] = ()
    threshold: tuple[tuple[str, int], ...] = ()
    vp: int = 0
    letter: str = ""
    ability: Ability | None = None
    once_per_round: bool = False
    objective: tuple[str, int] | None = None

    def value(self, arcanum: str) -> int:
        """The card's value in ``arcanum`` ("-" counts 0)."""
        got = self.values[ARCANA.index(arcanum)]
        return got or 0

    @property
    def ducat(self) -> int | None:
        """The ducat (coin) value, None where the card prints "-" (R-BRIBE-1)."""
        return self.values[3]

    def threshold_in(self, arcanum: str) -> int | None:
        """The threshold of a stake in one of its majors, None for another arcanum."""
        for name, value in self.threshold:
            if name == arcanum:
                return value
        return None


@dataclass(frozen=True, slots=True)
class Pack:
    """A whole card pack as the rules read it: every card by id (``cards`` in enrollment
    order), its ``name``, whether it is the shipped ``sample``, and its ``domains``. A table
    keeps the pack it was created with, so replay never reads the store."""

    name: str
    sample: bool
    domains: tuple[str, ...]
    cards: tuple[Card, ...]
    _index: dict[str, Card] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=dict
    )
    _guilds: dict[tuple[str, str], tuple[Card, ...]] = field(
        init=False, repr=False, compare=False, hash=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self._index.update((c.id, c) for c in self.cards)

    def card(self, piece: str) -> Card | None:
        """The card ``piece``, or None for an id the pack does not hold."""
        return self._index.get(piece)

    def __contains__(self, piece: object) -> bool:
        return piece in self._index

    def of_type(self, kind: str) -> tuple[Card, ...]:
        """The cards of one type, in pack order."""
        return tuple(c for c in self.cards if c.type == kind)

    def guild_cards(self, guild: str, letters: str = "AB") -> tuple[Card, ...]:
        """A guild's agents, locations and relics with one of ``letters``, in pack order
        (kept: the views ask on every update)."""
        key = (guild, letters)
        got = self._guilds.get(key)
        if got is None:
            got = self._guilds[key] = tuple(
                c
                for c in self.cards
                if c.guild == guild and c.type in GUILD_CARD_TYPES and c.letter in letters
            )
        return got
