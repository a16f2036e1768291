"""The simulated King of the Elves table's own data and option rules: the cost table, the card
ids of a deck manifest, and the table options with their defaults.

Written from the contract (docs/games/king-of-the-elves.md) and the rules reference
(docs/rules/king-of-the-elves.md), independently of the referee's package: the cross-check only
means something if the world does not reuse the referee's arithmetic. The one thing shared is
data: the shipped ``assumed`` deck manifest, read from the game's ``decks/assumed.yaml``.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from scorekeeper.errors import ConfigError

TERRAINS = ("lake", "river", "desert", "mountain", "forest", "plain")
TRAVEL = ("giant_pig", "elfcycle", "magic_cloud", "unicorn", "troll_wagon", "dragon", "raft")
SPECIAL = ("gold", "thief", "fallen_tree", "sea_monster", "escort", "turnaround")
OBSTACLE_TERRAINS = {
    "fallen_tree": frozenset({"desert", "plain", "forest", "mountain"}),
    "sea_monster": frozenset({"lake", "river"}),
}
"""R-PLAN-10: where each obstacle may lie."""
CRESTS = "abcdef"
VILLAGES = tuple(f"village_{k:02d}" for k in range(1, 27))

_COSTS: dict[str, tuple[int, ...]] = {
    # lake, river, desert, mountain, forest, plain (0: cannot go there), R-TRAVEL-6
    "giant_pig": (0, 0, 0, 0, 1, 1),
    "elfcycle": (0, 0, 0, 2, 1, 1),
    "magic_cloud": (0, 0, 0, 1, 2, 2),
    "unicorn": (0, 0, 2, 1, 1, 0),
    "troll_wagon": (0, 0, 2, 2, 2, 1),
    "dragon": (0, 0, 1, 1, 2, 1),
    "raft": (2, 1, 0, 0, 0, 0),
}
COST: dict[tuple[str, str], int] = {
    (kind, terrain): n
    for kind, row in _COSTS.items()
    for terrain, n in zip(TERRAINS, row, strict=True)
    if n
}
"""(travel type, terrain) -> cards one move needs; a missing pair cannot reach that terrain."""

DEFAULTS: dict[str, Any] = {
    "deck": "assumed",
    "start_seat": 0,
    "starting_gold": 7,
    "money": "coins",
    "teleport": False,
    "two_player_villages": 3,
    "crests": "by_seat",
    "ring_closed": True,
    "own_principality_is_entered": True,
    "escort_mid_principality": False,
    "token_limit": "per_round",
    "search_fallback": False,
    "public_gold": "none",
}
CHOICES: dict[str, tuple[Any, ...]] = {
    "starting_gold": (7, 12),
    "money": ("coins", "phones"),
    "teleport": (False, True),
    "two_player_villages": (2, 3),
    "ring_closed": (False, True),
    "own_principality_is_entered": (False, True),
    "escort_mid_principality": (False, True),
    "token_limit": ("per_round", "on_table"),
    "search_fallback": (False, True),
    "public_gold": ("none", "band"),
}
ASSUMED_FILE = (
    Path(__file__).resolve().parents[2] / "games" / "king_of_the_elves" / "decks" / "assumed.yaml"
)
"""The shipped manifest (the rules package's data file: data only, no code is imported)."""


def resolve_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The table options with defaults filled in and the deck read into a mapping; ConfigError
    for an unknown option or value. ``deck`` may be ``assumed`` or a whole manifest mapping (a
    saved entry's name needs the store, which a world does not have)."""
    if not 2 <= seats <= 6:
        raise ConfigError(f"King of the Elves is for 2-6 players, not {seats}")
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise ConfigError(f"unknown options for King of the Elves: {', '.join(unknown)}")
    out = {**DEFAULTS, **options}
    for name, allowed in CHOICES.items():
        if out[name] not in allowed:
            raise ConfigError(f"option {name}: {out[name]!r} is not one of {allowed}")
    if not isinstance(out["start_seat"], int) or not 0 <= out["start_seat"] < seats:
        raise ConfigError(f"option start_seat: {out['start_seat']!r} is not a seat")
    out["crests"] = crests_of(out["crests"], seats)
    out["deck"] = manifest(out["deck"])
    return out


def crests_of(value: Any, seats: int) -> str:
    """Each seat's crest letter, in seat order: ``by_seat`` is a, b, c, ...; else the letters."""
    if value == "by_seat":
        return CRESTS[:seats]
    if (
        not isinstance(value, str)
        or len(value) != seats
        or len(set(value)) != seats
        or not set(value) <= set(CRESTS)
    ):
        raise ConfigError(f"option crests: {value!r} is not one crest letter a-f per seat")
    return value


def manifest(deck: Any) -> dict[str, Any]:
    """The deck manifest as a mapping: ``deck`` itself, or the shipped ``assumed`` one."""
    if isinstance(deck, Mapping):
        found = dict(deck)
    elif deck == "assumed":
        found = copy.deepcopy(_shipped())
    else:
        raise ConfigError(f"option deck: the world reads 'assumed' or a manifest, not {deck!r}")
    villages = found.get("villages", {})
    if sorted(villages) != list(VILLAGES):
        raise ConfigError("deck: the manifest must give village_01 ... village_26")
    for card, row in villages.items():
        if row.get("terrain") not in TERRAINS or not 2 <= int(row.get("value", 0)) <= 7:
            raise ConfigError(f"deck: {card} has no terrain and value 2-7")
    if sum(found.get("travel", {}).values()) != 64 or sum(found.get("special", {}).values()) != 30:
        raise ConfigError("deck: 64 travel and 30 special cards are needed")
    return found


@functools.cache
def _shipped() -> dict[str, Any]:
    """The shipped ``assumed`` manifest, read once (callers get a copy)."""
    import yaml  # only when the shipped file is read

    found: dict[str, Any] = yaml.safe_load(ASSUMED_FILE.read_text(encoding="utf-8"))
    return found


def deck_cards(deck: Mapping[str, Any]) -> list[str]:
    """Every card id of the manifest ``deck`` (120): villages, travel, special cards."""
    out = list(VILLAGES)
    for group in ("travel", "special"):
        for kind, count in deck[group].items():
            out += [f"{kind}_{k}" for k in range(1, int(count) + 1)]
    return out


@functools.cache
def kind_of(card: str) -> str:
    """A card's type: ``village`` or one of TRAVEL and SPECIAL (``raft_10`` -> ``raft``)."""
    if card.startswith("village_"):
        return "village"
    return card.rpartition("_")[0]


def tokens_of(crest: str) -> list[str]:
    """The four ownership tokens of a crest (``token_c1`` ... ``token_c4``)."""
    return [f"token_{crest}{k}" for k in range(1, 5)]
