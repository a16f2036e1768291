"""Board profiles: what each of the 10 city locations of one physical board does.

The rulebook never ties a location's name or effect to its number and prints the icons of
location 10 only (G-2), and the Cathedral's gain is lost from the text (G-3). So every board is
described by a data file, a *profile*, copied from the physical board (see "Board profiles" in
docs/games/arcanum.md; ``board_data.py`` shows the file's form).

A profile may be partial: anything not given is *unknown*. Such a profile is valid data (so an
entry can be saved half-way), but ``problems()`` lists the gaps and ``resolve_board`` refuses it
for a table. Shipped profiles live in the ``boards/`` folder next to this module.

This module holds what the rules use; the schema, YAML and CSV forms and the data kind are in
``board_data.py`` (the functions below that read or write files call it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.cards import FIGURES, SUITS, figure_of, suit_of

EffectId = Literal[
    "wizard_tower",
    "artists_quarter",
    "harbor",
    "throne_room",
    "market",
    "fields",
    "treasury",
    "cathedral",
    "ballroom",
    "castle",
]
"""A location effect id (rules §5), as a type (the board schema's choices)."""

EFFECTS: tuple[str, ...] = get_args(EffectId)
"""Location effect ids (rules §5); each is on exactly one location of a complete board."""

EFFECT_NAMES: dict[str, str] = {
    "wizard_tower": "Wizard's Tower",
    "artists_quarter": "Artists' Quarter",
    "harbor": "Harbour",
    "throne_room": "Throne Room",
    "market": "Market",
    "fields": "Fields",
    "treasury": "Treasury",
    "cathedral": "Cathedral",
    "ballroom": "Ballroom",
    "castle": "Castle",
}
"""The English name of each effect, as the rules spec gives it (a board may print others)."""

ICON_KINDS: tuple[str, ...] = SUITS + FIGURES
"""What an icon can show: a family (suit) or a figure."""

LOCATION_NUMBERS: tuple[int, ...] = tuple(range(1, 11))
BOARDS_DIR = Path(__file__).with_name("boards")

Icons = tuple[tuple[str, int], ...]
"""Icon counts as (kind, signed count) pairs in ``ICON_KINDS`` order, zero counts left out."""


@dataclass(frozen=True)
class Location:
    """One city location of a board: its number, effect id, printed name and icons.

    ``effect``, ``name`` and ``icons`` are None while unknown. ``icons == ()`` means known to
    carry no icon at all.
    """

    number: int
    effect: str | None = None
    name: str | None = None
    icons: Icons | None = None

    def icon_counts(self) -> dict[str, int]:
        """``{kind: count}`` of the icons; empty when there are none *or* they are unknown
        (check ``icons is None`` to tell the two apart)."""
        return dict(self.icons or ())

    @property
    def known(self) -> bool:
        """True when effect, name and icons are all given."""
        return None not in (self.effect, self.name, self.icons)


def normal_icons(counts: Mapping[str, int]) -> Icons:
    """Icon counts in the stored form: ``ICON_KINDS`` order, zero counts left out."""
    for kind in counts:
        if kind not in ICON_KINDS:
            raise ValueError(f"{kind!r} is not an icon; icons: {', '.join(ICON_KINDS)}")
    return tuple((k, int(counts[k])) for k in ICON_KINDS if counts.get(k, 0))


@dataclass(frozen=True)
class BoardProfile:
    """One physical board, possibly only partly known (see ``problems``).

    ``locations`` always holds 10 entries, numbers 1 … 10 in order. ``cathedral_gain_vp`` is
    the VP the Cathedral gives before its choice (G-3), None while unknown. ``sample`` marks a
    made-up board, shown as such wherever it shows.
    """

    name: str
    sample: bool
    description: str
    cathedral_gain_vp: int | None
    locations: tuple[Location, ...]

    def __post_init__(self) -> None:
        numbers = tuple(loc.number for loc in self.locations)
        if numbers != LOCATION_NUMBERS:
            raise ValueError(f"a board has locations 1 to 10 in order, not {numbers}")

    @property
    def label(self) -> str:
        """How texts name the board: ``"sample board 'sample'"`` or ``"board 'mine'"``."""
        return f"sample board {self.name!r}" if self.sample else f"board {self.name!r}"

    def problems(self) -> list[str]:
        """Plain-language list of what is missing or inconsistent; empty when complete."""
        found: list[str] = []
        for loc in self.locations:
            unknown = [
                what
                for what, value in (
                    ("effect", loc.effect),
                    ("name", loc.name),
                    ("icons", loc.icons),
                )
                if value is None
            ]
            if unknown:
                words = (
                    unknown[0]
                    if len(unknown) == 1
                    else (", ".join(unknown[:-1]) + " and " + unknown[-1])
                )
                found.append(f"location {loc.number}: {words} unknown")
        where: dict[str, list[int]] = {}
        for loc in self.locations:
            if loc.effect is not None:
                where.setdefault(loc.effect, []).append(loc.number)
        for effect in EFFECTS:
            numbers = where.get(effect, [])
            if len(numbers) > 1:
                listed = ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}"
                found.append(
                    f"the {EFFECT_NAMES[effect]} is on locations {listed} (each effect is on "
                    "one location)"
                )
        missing = [e for e in EFFECTS if e not in where]
        if missing and where:
            named = ", ".join(EFFECT_NAMES[e] for e in missing)
            found.append(f"no location has the effect of the {named} yet")
        if self.cathedral_gain_vp is None:
            found.append("the Cathedral's gain is unknown: how many VP it gives")
        return found

    @property
    def complete(self) -> bool:
        """True when every location is known and each effect is on exactly one location."""
        return not self.problems()

    def location(self, number: int) -> Location:
        """Location ``number`` (1 … 10); ValueError otherwise."""
        if number not in LOCATION_NUMBERS:
            raise ValueError(f"a location is numbered 1 to 10, not {number}")
        return self.locations[number - 1]

    def effect_at(self, number: int) -> str:
        """The effect id of location ``number``; ValueError when it is unknown."""
        effect = self.location(number).effect
        if effect is None:
            raise ValueError(f"{self.label}: the effect of location {number} is unknown")
        return effect

    def number_of(self, effect: str) -> int | None:
        """The location with ``effect``, or None when no (known) location has it."""
        return next((loc.number for loc in self.locations if loc.effect == effect), None)

    def icon_gain(self, number: int, pawn: str) -> int:
        """Reputation a pawn's family gets on arriving at location ``number`` (R-MIN-5).

        One per icon of its suit plus one per icon of its figure (signed counts). ValueError
        when the location's icons are unknown.
        """
        loc = self.location(number)
        if loc.icons is None:
            raise ValueError(f"{self.label}: the icons of location {number} are unknown")
        counts = loc.icon_counts()
        figure = figure_of(pawn)
        return counts.get(suit_of(pawn), 0) + (counts.get(figure, 0) if figure else 0)

    def to_mapping(self) -> dict[str, Any]:
        """The profile as plain data (YAML/JSON-able); ``profile_from_mapping`` reads it back.

        Unknown parts are left out, exactly as a person would leave them out of a file.
        """
        data: dict[str, Any] = {
            "name": self.name,
            "sample": self.sample,
            "description": self.description,
        }
        if self.cathedral_gain_vp is not None:
            data["cathedral_gain"] = {"vp": self.cathedral_gain_vp}
        locations: dict[int, dict[str, Any]] = {}
        for loc in self.locations:
            entry: dict[str, Any] = {}
            if loc.effect is not None:
                entry["id"] = loc.effect
            if loc.name is not None:
                entry["name"] = loc.name
            if loc.icons is not None:
                entry["icons"] = dict(loc.icons)
            if entry:
                locations[loc.number] = entry
        data["locations"] = locations
        return data


def empty_profile(name: str, description: str = "", sample: bool = False) -> BoardProfile:
    """A profile where everything is still unknown (the start of an entry)."""
    return BoardProfile(
        name=name,
        sample=sample,
        description=description,
        cathedral_gain_vp=None,
        locations=tuple(Location(n) for n in LOCATION_NUMBERS),
    )


# --- reading and writing (scorekeeper/games/arcanum/board_data.py) ---------------------------


def profile_from_mapping(data: Any, source: str = "<profile>") -> BoardProfile:
    """Validate a profile given as plain data (see ``board_data.profile_from_mapping``)."""
    from scorekeeper.games.arcanum import board_data

    return board_data.profile_from_mapping(data, source)


def load_profile(path: str | os.PathLike[str]) -> BoardProfile:
    """Read a profile from a YAML file; ConfigError naming the file, line and field."""
    from scorekeeper.games.arcanum import board_data

    return board_data.load_profile(path)


def dump_profile(profile: BoardProfile, path: str | os.PathLike[str] | None = None) -> str:
    """The YAML text of a profile (what ``load_profile`` reads); written atomically to
    ``path`` if given."""
    from scorekeeper.games.arcanum import board_data

    return board_data.dump_profile(profile, path)


# --- finding ----------------------------------------------------------------------------------


def shipped_profiles() -> dict[str, Path]:
    """The profiles shipped in the package (``boards/*.yaml``), by name (the file's stem)."""
    return {p.stem: p for p in sorted(BOARDS_DIR.glob("*.yaml"))}


def find_profile(name_or_path: str) -> BoardProfile:
    """A shipped profile by name, or a profile file by path.

    ConfigError listing the shipped names when it is neither.
    """
    shipped = shipped_profiles()
    if name_or_path in shipped:
        return load_profile(shipped[name_or_path])
    if Path(name_or_path).is_file():
        return load_profile(name_or_path)
    raise ConfigError(
        f"no board profile called {name_or_path!r} and no such file; shipped profiles: "
        f"{', '.join(shipped)} (or give the path of a profile file)"
    )


def resolve_board(value: str | Mapping[str, Any]) -> BoardProfile:
    """The profile a table option names: a shipped name, a file path, or a whole mapping.

    ConfigError when it cannot be read, or when it is not complete (a table needs every
    location known): the message lists what is missing and how to fill it in.
    """
    if isinstance(value, str):
        profile = find_profile(value)
    elif isinstance(value, Mapping):
        profile = profile_from_mapping(value, "the board option")
    else:
        raise ConfigError(
            "the board option is a profile name, a file path or a profile mapping, "
            f"not {type(value).__name__}"
        )
    problems = profile.problems()
    if problems:
        source = value if isinstance(value, str) else profile.name
        raise ConfigError(
            f"board profile {profile.name!r} cannot start a table: {'; '.join(problems)}; copy "
            f"it with `scorekeeper board new FILE --from {source}` and fill in what is missing"
        )
    return profile
