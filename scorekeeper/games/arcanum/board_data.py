"""Arcanum's board profiles as a data kind: the schema (pydantic), YAML and CSV, the samples.

A profile is copied from one physical board (docs/games/arcanum.md, "Board profiles")::

    name: mine
    sample: false
    description: copied from our board
    cathedral_gain: {vp: 1}
    locations:
      1: {id: wizard_tower, name: "Wizard's Tower", icons: {coins: 1, page: 1}}
      ...

Anything left out is *unknown*: a partial profile is valid data (an entry may be saved
half-way) and ``BoardProfile.problems()`` says what keeps it from starting a table. The rules
use ``BoardProfile`` (scorekeeper/games/arcanum/boards.py); this module reads and writes it.
``BOARD_KIND`` is what the game declares in ``data_kinds()``.

Hazards: YAML values reach the validators as ``Scalar`` text (scorekeeper/core/yaml_model.py),
so a count checks the YAML tag itself (``'2'`` quoted is text, not a count); the ``locations``
keys are the location numbers as text ("1" ... "10") in every input form.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ConfigDict, Field, model_validator

from scorekeeper.core.data import CsvForm, DataKind, Rows, plain
from scorekeeper.core.layout import read_text, write_atomically
from scorekeeper.core.yaml_model import (
    INT_TAG,
    Count,
    FileModel,
    Flag,
    FreeText,
    Problem,
    Scalar,
    Text,
    validate_data,
)
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum.boards import (
    BOARDS_DIR,
    EFFECT_NAMES,
    ICON_KINDS,
    LOCATION_NUMBERS,
    BoardProfile,
    EffectId,
    Location,
    normal_icons,
)
from scorekeeper.games.arcanum.cards import FAMILY_SYMBOL


class Icons(FileModel):
    """The icons printed at one location: how many of each (a negative count takes away)."""

    model_config = ConfigDict(title="set of icons")

    swords: Count = Field(0, title="swords ⚔", description="sword (family) icons")
    coins: Count = Field(0, title="coins ◉", description="coin (family) icons")
    wands: Count = Field(0, title="wands ⚚", description="wand (family) icons")
    cups: Count = Field(0, title="cups ♥", description="cup (family) icons")
    page: Count = Field(0, title="page", description="page (figure) icons")
    knight: Count = Field(0, title="knight", description="knight (figure) icons")
    queen: Count = Field(0, title="queen", description="queen (figure) icons")
    king: Count = Field(0, title="king", description="king (figure) icons")


assert tuple(Icons.model_fields) == ICON_KINDS


class LocationModel(FileModel):
    """One city location as printed on the board; a field left out is unknown."""

    model_config = ConfigDict(title="location")

    id: EffectId | None = Field(
        None,
        title="effect",
        description="what the location does (rules §5); each effect is on one location",
        json_schema_extra={"x-labels": dict(EFFECT_NAMES)},
    )
    name: Text | None = Field(
        None, title="printed name", description="the name printed on your board"
    )
    icons: Icons | None = Field(
        None,
        title="icons",
        description="the icons printed at the location; give none as {} (no icons)",
    )


def _location_field(number: int) -> Any:
    return Field(
        None,
        alias=str(number),
        title=f"location {number}",
        description=f"the location numbered {number} on the board",
    )


class Locations(FileModel):
    """The 10 city locations by number; a location left out is unknown."""

    model_config = ConfigDict(title="set of locations")

    l1: LocationModel | None = _location_field(1)
    l2: LocationModel | None = _location_field(2)
    l3: LocationModel | None = _location_field(3)
    l4: LocationModel | None = _location_field(4)
    l5: LocationModel | None = _location_field(5)
    l6: LocationModel | None = _location_field(6)
    l7: LocationModel | None = _location_field(7)
    l8: LocationModel | None = _location_field(8)
    l9: LocationModel | None = _location_field(9)
    l10: LocationModel | None = _location_field(10)

    @model_validator(mode="before")
    @classmethod
    def _numbered(cls, data: Any) -> Any:
        """Keys are the numbers 1 to 10, written as numbers or text (JSON keys are text)."""
        if not isinstance(data, Mapping):
            return data
        out: dict[str, Any] = {}
        for key, value in data.items():
            text = str(key).strip()
            written_as_text = isinstance(key, Scalar) and key.node.tag not in (
                INT_TAG,
                "tag:yaml.org,2002:str",
            )
            if isinstance(key, bool) or written_as_text or not text.isdigit():
                raise Problem(f"locations are numbered 1 to 10, not {text!r}", str(key), key=True)
            if int(text) not in LOCATION_NUMBERS:
                raise Problem(
                    f"locations are numbered 1 to 10, not {int(text)}", str(key), key=True
                )
            out[str(int(text))] = value
        return out

    def of(self, number: int) -> LocationModel | None:
        """Location ``number``'s entry, None while unknown."""
        value = getattr(self, f"l{number}")
        assert value is None or isinstance(value, LocationModel)
        return value


class CathedralGain(FileModel):
    """What the Cathedral gives before its choice (rules G-3)."""

    model_config = ConfigDict(title="Cathedral's gain")

    vp: Count = Field(..., ge=0, title="VP", description="victory points, 0 or more")


class BoardModel(FileModel):
    """One physical board's profile, possibly only partly known."""

    model_config = ConfigDict(title="board profile")

    name: Text = Field(..., title="name", description="what the board is called")
    sample: Flag = Field(
        False, title="sample", description="true for a made-up board (shown as a sample)"
    )
    description: FreeText = Field(
        "", title="description", description="a few words about this board"
    )
    cathedral_gain: CathedralGain | None = Field(
        None,
        title="the Cathedral's gain",
        description="the VP the Cathedral gives before its choice; unknown when left out",
    )
    locations: Locations = Field(
        default_factory=Locations,
        title="locations",
        description="the 10 city locations by number, as printed on your board",
    )


# -- model <-> profile -------------------------------------------------------------------------


def profile_of(model: BoardModel) -> BoardProfile:
    """The rules' profile from a validated model."""
    locations = []
    for number in LOCATION_NUMBERS:
        entry = model.locations.of(number)
        if entry is None:
            locations.append(Location(number))
            continue
        icons = None
        if entry.icons is not None:
            icons = normal_icons(entry.icons.model_dump())
        name = None if entry.name is None else str(entry.name)
        locations.append(Location(number, entry.id, name, icons))
    gain = model.cathedral_gain
    return BoardProfile(
        name=str(model.name),
        sample=model.sample,
        description=str(model.description),
        cathedral_gain_vp=None if gain is None else gain.vp,
        locations=tuple(locations),
    )


def _mapping(model: Any) -> dict[str, Any]:
    assert isinstance(model, BoardModel)
    return profile_of(model).to_mapping()


def _problems(data: Mapping[str, Any]) -> list[str]:
    return profile_from_mapping(data).problems()


def profile_from_mapping(data: Any, source: str = "<profile>") -> BoardProfile:
    """Validate a profile given as plain data (an API body, ``to_mapping()`` output).

    ConfigError naming ``source`` and the field in words; missing parts are allowed (unknown).
    """
    return profile_of(validate_data(BoardModel, plain(data, source, "board profile"), source))


def profile_from_text(text: str, source: str = "<profile>") -> BoardProfile:
    """Read a profile from YAML text; errors name ``source``, the line and the field."""
    from scorekeeper.core.yaml_model import validate_yaml

    return profile_of(validate_yaml(BoardModel, text, source))


def load_profile(path: str | os.PathLike[str]) -> BoardProfile:
    """Read a profile from a YAML file; ConfigError naming the file, line and field."""
    return profile_from_text(read_text(path), str(path))


def _yaml(data: Any, flow: bool, width: int = 10_000) -> str:
    """YAML text of ``data`` without the trailing newline (one line when ``flow``)."""
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=flow, width=width
    ).rstrip("\n")


def dump_mapping(data: Mapping[str, Any]) -> str:
    """The YAML text of a profile's mapping: one line per location, as a person writes it."""
    data = dict(data)
    locations = data.pop("locations", {}) or {}
    lines = ["# scorekeeper board profile for Arcanum (see docs/games/arcanum.md)"]
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"{key}: {_yaml(value, flow=True)}")
        else:
            lines.append(_yaml({key: value}, flow=False, width=96))
    if locations:
        lines.append("locations:")
        for number, entry in sorted(locations.items(), key=lambda kv: int(kv[0])):
            lines.append(f"  {int(number)}: {_yaml(entry, flow=True)}")
    else:
        lines.append("locations: {}")
    return "\n".join(lines) + "\n"


def dump_profile(profile: BoardProfile, path: str | os.PathLike[str] | None = None) -> str:
    """The YAML text of a profile (what ``load_profile`` reads); written to ``path`` if given.

    The file is replaced atomically, so an interrupted entry never leaves half a file.
    """
    text = dump_mapping(profile.to_mapping())
    if path is not None:
        write_atomically(path, text)
    return text


# -- CSV: one row per location -----------------------------------------------------------------

CSV_COLUMNS: tuple[str, ...] = (
    "location",
    "id",
    "name",
    *ICON_KINDS,
    "cathedral_vp",
    "description",
)
"""The flat form: a row per location (its effect id, printed name and one count per icon; all
icon cells empty means unknown); the Cathedral's VP and the description on any one row."""


def csv_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows of a profile: locations 1 to 10, the profile's own fields on the first."""
    profile = profile_from_mapping(data)
    rows: list[dict[str, Any]] = []
    for loc in profile.locations:
        row: dict[str, Any] = {"location": loc.number, "id": loc.effect, "name": loc.name}
        if loc.icons is not None:
            counts = loc.icon_counts()
            row.update({kind: counts.get(kind, 0) for kind in ICON_KINDS})
        rows.append(row)
    rows[0]["cathedral_vp"] = profile.cathedral_gain_vp
    rows[0]["description"] = profile.description or None
    return rows


def _once(found: dict[str, tuple[str, int]], key: str, text: str, source: str, line: int) -> None:
    if not text:
        return
    if key in found and found[key][0] != text:
        raise ConfigError(f"{key} is given twice (first on line {found[key][1]})", source, line)
    found[key] = (text, line)


def csv_entry(rows: Rows, source: str) -> dict[str, Any]:
    """A profile's mapping from CSV rows; ConfigError naming the line for a bad cell."""
    locations: dict[str, Any] = {}
    first: dict[int, int] = {}
    once: dict[str, tuple[str, int]] = {}
    for line, row in rows:
        text = row.get("location", "")
        if not text.isdigit() or int(text) not in LOCATION_NUMBERS:
            raise ConfigError(
                f"the location must be a number from 1 to 10, not {text!r}", source, line
            )
        number = int(text)
        if number in first:
            raise ConfigError(
                f"location {number} is listed twice (first on line {first[number]})", source, line
            )
        first[number] = line
        entry: dict[str, Any] = {}
        for key in ("id", "name"):
            if row.get(key):
                entry[key] = row[key]
        cells = {kind: row.get(kind, "") for kind in ICON_KINDS}
        if any(cells.values()):
            icons: dict[str, int] = {}
            for kind, cell in cells.items():
                try:
                    icons[kind] = int(cell or 0)
                except ValueError:
                    raise ConfigError(
                        f"location {number}: the count of {kind} must be a whole number, "
                        f"not {cell!r}",
                        source,
                        line,
                    ) from None
            entry["icons"] = icons
        try:
            validate_data(LocationModel, entry, "")
        except ConfigError as exc:
            raise ConfigError(f"location {number}: {exc.message}", source, line) from None
        locations[str(number)] = entry
        _once(once, "cathedral_vp", row.get("cathedral_vp", ""), source, line)
        _once(once, "description", row.get("description", ""), source, line)
    data: dict[str, Any] = {"locations": locations}
    if "cathedral_vp" in once:
        text, line = once["cathedral_vp"]
        if not text.isdigit():
            raise ConfigError(
                f"cathedral_vp must be a whole number, 0 or more, not {text!r}", source, line
            )
        data["cathedral_gain"] = {"vp": int(text)}
    if "description" in once:
        data["description"] = once["description"][0]
    return data


# -- the data kind -----------------------------------------------------------------------------


def icon_label(kind: str) -> str:
    """An icon kind in texts: families carry their symbol (``wands ⚚``), figures do not."""
    return f"{kind} {FAMILY_SYMBOL[kind]}" if kind in FAMILY_SYMBOL else kind


def _enter(path: Path, template: dict[str, Any] | None) -> int:
    from scorekeeper.games.arcanum.board_entry import enter

    return enter(path, None if template is None else profile_from_mapping(template))


def _show(entry: Any) -> str:
    from scorekeeper.games.arcanum.board_entry import show

    return show(profile_from_mapping(entry.data))


BOARD_KIND = DataKind(
    game="arcanum",
    kind="board",
    title="Board profiles",
    help=(
        "What each of the 10 city locations of your board does: its effect, printed name and "
        "icons, and what the Cathedral gives. The rulebook does not print them, so copy them "
        "from your board once, then choose it when you create a table."
    ),
    noun="board profile",
    model=BoardModel,
    samples=BOARDS_DIR,
    to_mapping=_mapping,
    problems=_problems,
    option="board",
    csv=CsvForm(CSV_COLUMNS, csv_rows, csv_entry),
    cli_alias="board",
    enter=_enter,
    show=_show,
    dump=dump_mapping,
    legacy_meta=("board:", "boards"),
)
