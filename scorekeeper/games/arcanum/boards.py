"""Board profiles: what each of the 10 city locations of one physical board does.

The rulebook never ties a location's name or effect to its number and prints the icons of
location 10 only (G-2), and the Cathedral's gain is lost from the text (G-3). So every board is
described by a data file, a *profile*, copied from the physical board (see "Board profiles" in
docs/games/arcanum.md)::

    name: mine
    sample: false
    description: copied from our board
    cathedral_gain: {vp: 1}
    locations:
      1: {id: wizard_tower, name: "Wizard's Tower", icons: {coins: 1, page: 1}}
      ...

A profile may be partial: anything not given is *unknown*. Such a profile is valid data (so an
entry can be saved half-way), but ``problems()`` lists the gaps and ``resolve_board`` refuses it
for a table. Shipped profiles live in the ``boards/`` folder next to this module.

Validation works on YAML nodes, for files and for mappings alike (a mapping is turned into
nodes first), so both give the same plain messages; files also name the line.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from scorekeeper.core.layout import (
    NULL_TAG,
    compose_file,
    compose_text,
    line_of,
    mapping_items,
    scalar_text,
    write_atomically,
)
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.cards import FIGURES, SUITS, figure_of, suit_of

EFFECTS: tuple[str, ...] = (
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
)
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
PROFILE_KEYS = ("name", "sample", "description", "cathedral_gain", "locations")
LOCATION_KEYS = ("id", "name", "icons")
GAIN_KEYS = ("vp",)
BOARDS_DIR = Path(__file__).with_name("boards")

_INT_TAG = "tag:yaml.org,2002:int"
_BOOL_TAG = "tag:yaml.org,2002:bool"

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
                    f"the effect {effect} is on locations {listed} (each effect is on one location)"
                )
        missing = [e for e in EFFECTS if e not in where]
        if missing and where:
            found.append(f"no location has the effect {', '.join(missing)} yet")
        if self.cathedral_gain_vp is None:
            found.append("the Cathedral's gain is unknown (cathedral_gain: {vp: N})")
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


# --- reading ----------------------------------------------------------------------------------


def _strict_int(node: yaml.Node, where: str, what: str) -> int:
    """A whole number written as a number (not quoted text, not true/false)."""
    if not isinstance(node, yaml.ScalarNode) or node.tag != _INT_TAG:
        shown = node.value if isinstance(node, yaml.ScalarNode) else "a list or mapping"
        raise ConfigError(f"{what} must be a whole number, not {shown!r}", where, line_of(node))
    try:
        return int(str(node.value).replace("_", ""), 10)
    except ValueError:
        raise ConfigError(
            f"{what} must be a whole number, not {node.value!r}", where, line_of(node)
        ) from None


def _unknown_key(key: yaml.ScalarNode, keys: tuple[str, ...], what: str, where: str) -> None:
    if key.value not in keys:
        raise ConfigError(
            f"unknown key {key.value!r} in {what}; it may have {', '.join(keys)}",
            where,
            line_of(key),
        )


def _location_number(key: yaml.ScalarNode, where: str) -> int:
    text = str(key.value).strip()
    if key.tag not in (_INT_TAG, "tag:yaml.org,2002:str") or not text.isdigit():
        raise ConfigError(f"locations are numbered 1 to 10, not {text!r}", where, line_of(key))
    number = int(text)
    if number not in LOCATION_NUMBERS:
        raise ConfigError(f"locations are numbered 1 to 10, not {number}", where, line_of(key))
    return number


def _icons(node: yaml.Node, where: str, number: int) -> Icons:
    what = f"the icons of location {number}"
    counts: dict[str, int] = {}
    for key, value in mapping_items(node, where, what):
        if key.value not in ICON_KINDS:
            raise ConfigError(
                f"{what}: {key.value!r} is not an icon; icons are {', '.join(ICON_KINDS)}",
                where,
                line_of(key),
            )
        counts[key.value] = _strict_int(value, where, f"{what}: the count of {key.value}")
    return normal_icons(counts)


def _location(number: int, node: yaml.Node, where: str) -> Location:
    if isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG:
        return Location(number)
    effect: str | None = None
    name: str | None = None
    icons: Icons | None = None
    for key, value in mapping_items(node, where, f"location {number}"):
        _unknown_key(key, LOCATION_KEYS, f"location {number}", where)
        if key.value == "id":
            effect = scalar_text(value, where, f"the effect id of location {number}")
            if effect not in EFFECTS:
                raise ConfigError(
                    f"location {number}: {effect!r} is not an effect id; effects are "
                    f"{', '.join(EFFECTS)}",
                    where,
                    line_of(value),
                )
        elif key.value == "name":
            name = scalar_text(value, where, f"the name of location {number}")
        else:
            icons = _icons(value, where, number)
    return Location(number, effect, name, icons)


def _profile(root: yaml.Node | None, where: str) -> BoardProfile:
    if root is None or (isinstance(root, yaml.ScalarNode) and root.tag == NULL_TAG):
        raise ConfigError("the board profile is empty; it needs at least name:", where)
    items = {key.value: (key, value) for key, value in mapping_items(root, where, "the profile")}
    for key, _ in items.values():
        _unknown_key(key, PROFILE_KEYS, "a board profile", where)
    if "name" not in items:
        raise ConfigError("missing 'name:' (what the board is called)", where, line_of(root))
    name = scalar_text(items["name"][1], where, "name")
    sample = False
    if "sample" in items:
        node = items["sample"][1]
        if not isinstance(node, yaml.ScalarNode) or node.tag != _BOOL_TAG:
            raise ConfigError("sample must be true or false", where, line_of(node))
        sample = str(node.value).strip().lower() in ("true", "yes", "on")
    description = ""
    if "description" in items:
        node = items["description"][1]
        if not (isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG):
            if not isinstance(node, yaml.ScalarNode):
                raise ConfigError("description must be text", where, line_of(node))
            description = str(node.value).strip()
    gain: int | None = None
    if "cathedral_gain" in items:
        node = items["cathedral_gain"][1]
        if not (isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG):
            gain_items = mapping_items(node, where, "cathedral_gain")
            for key, _ in gain_items:
                _unknown_key(key, GAIN_KEYS, "cathedral_gain", where)
            for _, value in gain_items:
                gain = _strict_int(value, where, "the Cathedral's VP gain")
                if gain < 0:
                    raise ConfigError(
                        f"the Cathedral's VP gain cannot be negative ({gain})",
                        where,
                        line_of(value),
                    )
    locations = {n: Location(n) for n in LOCATION_NUMBERS}
    if "locations" in items:
        node = items["locations"][1]
        if not (isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG):
            for key, value in mapping_items(node, where, "locations"):
                number = _location_number(key, where)
                locations[number] = _location(number, value, where)
    return BoardProfile(
        name=name,
        sample=sample,
        description=description,
        cathedral_gain_vp=gain,
        locations=tuple(locations[n] for n in LOCATION_NUMBERS),
    )


def _plain(data: Any) -> Any:
    """Plain dicts and lists, so the YAML representer can turn any mapping into nodes."""
    if isinstance(data, Mapping):
        return {_plain(k): _plain(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_plain(v) for v in data]
    return data


def profile_from_mapping(data: Any, source: str = "<profile>") -> BoardProfile:
    """Validate a profile given as plain data (an API body, ``to_mapping()`` output).

    ConfigError with a plain message (naming ``source``) for unknown keys, effect ids not in
    ``EFFECTS``, icon kinds not in ``ICON_KINDS``, counts that are not whole numbers and
    location numbers outside 1 … 10. Missing parts are allowed: they are unknown.
    """
    if not isinstance(data, Mapping):
        raise ConfigError("a board profile must be a mapping (name:, locations: …)", source)
    try:
        node = yaml.SafeDumper(io.StringIO()).represent_data(_plain(data))
    except yaml.YAMLError as exc:
        raise ConfigError(
            f"the board profile holds a value that is not data: {exc}", source
        ) from None
    return _profile(node, source)


def profile_from_text(text: str, source: str = "<profile>") -> BoardProfile:
    """Read a profile from YAML text (the console's editor); errors name ``source`` and line."""
    return _profile(compose_text(text, source), source)


def load_profile(path: str | os.PathLike[str]) -> BoardProfile:
    """Read a profile from a YAML file; ConfigError naming the file and line when it is bad."""
    return _profile(compose_file(path), str(path))


def _yaml(data: Any, flow: bool, width: int = 10_000) -> str:
    """YAML text of ``data`` without the trailing newline (one line when ``flow``)."""
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=flow, width=width
    ).rstrip("\n")


def dump_profile(profile: BoardProfile, path: str | os.PathLike[str] | None = None) -> str:
    """The YAML text of a profile (what ``load_profile`` reads); written to ``path`` if given.

    The file is replaced atomically, so an interrupted entry never leaves half a file.
    """
    data = profile.to_mapping()
    locations = data.pop("locations")
    lines = ["# scorekeeper board profile for Arcanum (see docs/games/arcanum.md)"]
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"{key}: {_yaml(value, flow=True)}")
        else:
            lines.append(_yaml({key: value}, flow=False, width=96))
    if locations:
        lines.append("locations:")
        for number, entry in locations.items():
            lines.append(f"  {number}: {_yaml(entry, flow=True)}")
    else:
        lines.append("locations: {}")
    text = "\n".join(lines) + "\n"
    if path is not None:
        write_atomically(path, text)
    return text


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
