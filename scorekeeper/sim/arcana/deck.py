"""The simulated Arcana table's options and card pack.

Written from the contract (docs/games/arcana.md, "Options") independently of the referee's
package: the world shares with the rules only data (the piece ids of ``cards.py`` and the card
pack, read through the pack module of the game). An option the contract does not list is
refused, as is a value outside its choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana.cards import Pack

DEFAULTS: dict[str, Any] = {
    "pack": "sample",
    "start_seat": 0,
    "custom_guild": False,
    "objectives": False,
    "watch": False,
    "watch_call": "action",
    "guild_masters": False,
    "master_limit": "by_card",
    "events": False,
    "set_aside": False,
    "late_princes_games": "next_round",
    "leftovers": "ignored",
    "tie_breakers": "tied_only",
    "harlequin_in_bribes": False,
}
"""Every option of the contract with the world's default (``pack``: the shipped sample, the
pack of the bots and the demo; a real table has no default)."""
CHOICES: dict[str, tuple[Any, ...]] = {
    "custom_guild": (False, True),
    "objectives": (False, True),
    "watch": (False, True),
    "watch_call": ("action", "extra"),
    "guild_masters": (False, True),
    "master_limit": ("by_card", "once_per_round", "unlimited"),
    "events": (False, True),
    "set_aside": (False, True),
    "late_princes_games": ("next_round", "this_round"),
    "leftovers": ("ignored", "returned"),
    "tie_breakers": ("tied_only", "any_at_district"),
    "harlequin_in_bribes": (False, True),
}


def resolve_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The options with defaults filled in; ConfigError for an unknown option, a value
    outside its choices, a start seat off the table, or a seat count outside 2 … 4."""
    if not 2 <= seats <= 4:
        raise ConfigError(f"Arcana is for 2-4 players, not {seats}")
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise ConfigError(f"unknown options for Arcana: {', '.join(unknown)}")
    out = {**DEFAULTS, **options}
    for name, choices in CHOICES.items():
        if out[name] not in choices:
            raise ConfigError(f"option {name}: {out[name]!r} is not one of {choices}")
    start = out["start_seat"]
    if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < seats:
        raise ConfigError(f"option start_seat: {start!r} is no seat of {seats}")
    return out


def load_pack(option: Any) -> Pack:
    """The card pack an option names: a Pack as it is, a shipped pack's name, or a whole
    pack as a mapping (through the game's pack module, imported only here: it is data)."""
    if isinstance(option, Pack):
        return option
    from scorekeeper.games.arcana import pack as packs

    if isinstance(option, str):
        return _shipped(option)
    if isinstance(option, Mapping):
        return packs.pack_of(option)
    raise ConfigError(f"option pack: {option!r} is neither a pack's name nor a pack")


@lru_cache(maxsize=4)
def _shipped(name: str) -> Pack:
    """A shipped pack by its name, read once: each read copies the whole pack's mapping."""
    from scorekeeper.games.arcana import pack as packs

    return packs.pack_of(packs.load_shipped(name))
