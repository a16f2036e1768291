"""Game data: what a person copies from their own copy of a game, as named, validated entries.

A game declares its *data kinds* (``Game.data_kinds()``): board profiles today, next a
deck manifest or card packs. Each ``DataKind`` gives a pydantic model (the schema), the shipped
samples (YAML files in a folder of the game's package, each saying ``sample: true`` and shown
as a sample wherever it shows), the table option that selects an entry, and optionally a flat
CSV form, a ``problems`` hook (what keeps an entry from starting a table) and an interactive
``enter`` wizard for the command line. One set of helpers here serves the CLI
(``scorekeeper data``), the API (``/api/data``) and the console's editor for every kind.

Every entry's mapping has ``name``, ``sample`` and ``description`` at its top (checked when a
kind is declared). Entries a person saves live in the store's ``data`` table (``DataStore``);
samples are never stored, never overwritten and never deleted. A table option names an entry
(or carries a whole mapping); ``resolve_option`` turns it into the whole mapping, so a table's
config is self-contained and replay never needs the store.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

# The types live in data_kind.py; they are named here too, where every caller finds them.
from scorekeeper.core.data_kind import CsvForm as CsvForm
from scorekeeper.core.data_kind import DataKind as DataKind
from scorekeeper.core.data_kind import DataStore as DataStore
from scorekeeper.core.data_kind import Entry as Entry
from scorekeeper.core.data_kind import PerPiece as PerPiece
from scorekeeper.core.data_kind import Rows as Rows
from scorekeeper.errors import ConfigError, NotFound

if TYPE_CHECKING:
    from scorekeeper.core.game import Game

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""What an entry may be called: it shows in URLs, file names and the table's options."""
NAME_RULE = "1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"
MAX_TEXT = 120_000
"""The longest YAML or CSV text read from a request (a board profile is about 1 500 characters,
a whole card pack of 304 cards about 50 000; a JSON body may escape each character to six
bytes, within the routes' 768 KiB)."""
RESERVED = ("schema", "check")
"""Names no entry may have: they are words of the data routes' URLs."""
FORMATS = ("yaml", "csv")

# -- kinds -------------------------------------------------------------------------------------


def game_kinds(game: Game[Any]) -> tuple[DataKind, ...]:
    """The data kinds ``game`` declares (none for most games)."""
    return tuple(game.data_kinds())


def all_kinds() -> list[DataKind]:
    """Every data kind of every registered game, in registry order (loads every game)."""
    from scorekeeper.games import games

    return [kind for game in games().values() for kind in game_kinds(game)]


def legacy_meta_kinds() -> list[tuple[str, str, str, str]]:
    """``(meta key prefix, index key, game, kind)`` of the kinds the store kept as meta strings
    before schema 3 (for the store's migration)."""
    return [
        (kind.legacy_meta[0], kind.legacy_meta[1], kind.game, kind.kind)
        for kind in all_kinds()
        if kind.legacy_meta is not None
    ]


def find_kind(game_id: str | None = None, kind_id: str | None = None) -> DataKind:
    """The kind ``kind_id`` of game ``game_id``; either may be left out when only one fits.

    NotFound (a ConfigError-like message in words) naming what exists when there is no such
    kind, or when several fit and one must be chosen.
    """
    from scorekeeper.games import find_game

    candidates = all_kinds() if game_id is None else list(game_kinds(find_game(game_id)))
    games_with = sorted({k.game for k in candidates})
    if kind_id is not None:
        candidates = [k for k in candidates if k.kind == kind_id]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        if game_id is not None and not game_kinds(find_game(game_id)):
            raise NotFound(f"the game {game_id!r} keeps no data of its own")
        known = ", ".join(f"{k.game} {k.kind}" for k in all_kinds()) or "none"
        raise NotFound(f"there is no kind of data called {kind_id!r}; kinds: {known}")
    if game_id is None and len(games_with) > 1:
        raise NotFound(f"several games keep data ({', '.join(games_with)}): choose one")
    kinds = ", ".join(k.kind for k in candidates)
    raise NotFound(
        f"the game {candidates[0].game!r} keeps several kinds of data: choose one of {kinds}"
    )


def kind_for_option(game: Game[Any], option: str) -> DataKind | None:
    """The kind whose entries a table option of ``game`` selects, or None."""
    return next((k for k in game_kinds(game) if k.option == option), None)


# -- reading and validating --------------------------------------------------------------------


def _validate_yaml(kind: DataKind, text: str, source: str) -> Any:
    from scorekeeper.core.yaml_model import validate_yaml

    return validate_yaml(kind.model, text, source)


def _validate_data(kind: DataKind, data: Any, source: str) -> Any:
    from scorekeeper.core.yaml_model import validate_data

    return validate_data(kind.model, data, source)


def from_yaml(kind: DataKind, text: str, source: str) -> dict[str, Any]:
    """Validate an entry written as YAML; ConfigError naming ``source``, line and field."""
    return kind.to_mapping(_validate_yaml(kind, text, source))


def plain(data: Any, source: str, noun: str) -> dict[str, Any]:
    """``data`` as JSON would carry it (keys text, tuples lists), so a mapping from Python
    and one from a request validate alike; ConfigError when it is not a mapping of data."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"a {noun} must be a mapping of its fields", source)
    try:
        out = json.loads(json.dumps(data, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"the {noun} holds a value that is not data: {exc}", source) from None
    assert isinstance(out, dict)
    return out


def from_mapping(kind: DataKind, data: Any, source: str) -> dict[str, Any]:
    """Validate an entry given as plain data (a JSON body, a table option's mapping)."""
    return kind.to_mapping(_validate_data(kind, plain(data, source, kind.noun), source))


def from_csv(kind: DataKind, text: str, source: str, name: str) -> dict[str, Any]:
    """Validate an entry written in the kind's CSV form, calling it ``name``.

    ConfigError naming ``source`` and the line for a missing or unknown column, a bad cell or
    a kind without a CSV form.
    """
    form = kind.csv
    if form is None:
        raise ConfigError(f"{kind.title} have no CSV form; write them as YAML", source)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = [cell.strip() for cell in next(reader)]
    except StopIteration:
        raise ConfigError(
            "the CSV file is empty; its first line names the columns", source
        ) from None
    except csv.Error as exc:
        raise ConfigError(f"not readable as CSV: {exc}", source, 1) from None
    unknown = [c for c in header if c and c not in form.columns]
    if unknown:
        raise ConfigError(
            f"unknown column {unknown[0]!r}; the columns are {', '.join(form.columns)}", source, 1
        )
    if form.columns[0] not in header:
        raise ConfigError(
            f"missing the column {form.columns[0]!r}; the columns are {', '.join(form.columns)}",
            source,
            1,
        )
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        for cells in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) > len(header):
                raise ConfigError(
                    f"this row has {len(cells)} cells, the header names {len(header)} columns",
                    source,
                    line,
                )
            row = {h: c.strip() for h, c in zip(header, cells, strict=False) if h}
            rows.append((line, row))
    except csv.Error as exc:
        raise ConfigError(f"not readable as CSV: {exc}", source, reader.line_num) from None
    data = form.entry(rows, source)
    data.update(name=name, sample=False)
    return from_mapping(kind, data, source)


def from_file(kind: DataKind, path: str | Path, name: str | None = None) -> dict[str, Any]:
    """Validate an entry from a YAML file, or a CSV file (``.csv``, named ``name`` or after the
    file); ConfigError naming the file, line and field."""
    from scorekeeper.core.layout import read_text

    text = read_text(path)
    if Path(path).suffix.lower() == ".csv":
        return from_csv(kind, text, str(path), name or Path(path).stem)
    data = from_yaml(kind, text, str(path))
    if name is not None:
        data = {**data, "name": name}
    return data


def from_body(kind: DataKind, body: Mapping[str, Any], name: str | None = None) -> dict[str, Any]:
    """An entry from a request body: ``{"yaml": text}``, ``{"csv": text}`` or ``{"data": {...}}``.

    Messages name the line (``line 3: ...``) for texts and the field for mappings.
    """
    keys = set(body)
    if keys == {"data"}:
        return from_mapping(kind, body["data"], f"the {kind.noun}")
    if keys in ({"yaml"}, {"csv"}):
        (fmt,) = keys
        text = body[fmt]
        if not isinstance(text, str):
            raise ConfigError(f"{fmt} must be the {kind.noun}'s text")
        if len(text) > MAX_TEXT:
            raise ConfigError(f"the text is too long ({MAX_TEXT:,} characters at most)")
        if fmt == "yaml":
            return from_yaml(kind, text, "")  # errors read "line 3: ..."
        return from_csv(kind, text, "", name or "imported")
    raise ConfigError("send the entry as {yaml: text}, {csv: text} or {data: mapping}")


# -- writing -----------------------------------------------------------------------------------


def to_yaml(kind: DataKind, data: Mapping[str, Any]) -> str:
    """The YAML text of an entry (what ``from_yaml`` reads back)."""
    if kind.dump is not None:
        return kind.dump(data)
    return yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True)


def _cell(value: Any) -> str:
    """A cell a spreadsheet will not run as a formula; a negative number stays a number."""
    text = "" if value is None else str(value)
    if text.startswith(("=", "+", "@", "\t", "\r")) or (
        text.startswith("-") and not text[1:].isdigit()
    ):
        return "'" + text
    return text


def to_csv(kind: DataKind, data: Mapping[str, Any]) -> str:
    """The entry in the kind's CSV form (ConfigError when the kind has none)."""
    form = kind.csv
    if form is None:
        raise ConfigError(f"{kind.title} have no CSV form; export them as YAML")
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    out.writerow(form.columns)
    for row in form.rows(data):
        out.writerow([_cell(row.get(column)) for column in form.columns])
    return buf.getvalue()


def export(kind: DataKind, data: Mapping[str, Any], fmt: str) -> str:
    """The entry as ``yaml`` or ``csv`` text."""
    if fmt == "yaml":
        return to_yaml(kind, data)
    if fmt == "csv":
        return to_csv(kind, data)
    raise ConfigError(f"the format is yaml or csv, not {fmt!r}")


# -- entries -----------------------------------------------------------------------------------


def sample_files(kind: DataKind) -> dict[str, Path]:
    """The samples shipped in the game's package, by name (the file's stem), sorted."""
    return {p.stem: p for p in sorted(kind.samples.glob("*.yaml"))}


_SAMPLES: dict[tuple[str, int], str] = {}
"""Samples read, by file and modification time, as JSON text: reading one costs tens of
milliseconds (YAML in pure Python), and every list of entries shows them. Text, not the mapping:
each caller gets its own mapping from it faster than from a deep copy, and a 304-card pack
kept as text holds a twentieth of the memory."""


def sample(kind: DataKind, name: str) -> Entry:
    """The shipped sample ``name`` (NotFound when there is none)."""
    path = sample_files(kind).get(name)
    if path is None:
        raise NotFound(f"no {kind.sample_word} {kind.noun} called {name!r}")
    key = (str(path), path.stat().st_mtime_ns)
    if key not in _SAMPLES:
        _SAMPLES[key] = json.dumps(_ready(path) or from_file(kind, path))
    return Entry(kind, name, json.loads(_SAMPLES[key]), stored=False)


def _ready(path: Path) -> dict[str, Any] | None:
    """A sample's checked mapping from the JSON twin a kind may ship beside its YAML (a card
    pack of 304 cards: reading and checking its YAML cost a serving Pi 8 MB), or None. The
    kind's own tests keep the twin equal to the YAML checked."""
    twin = path.with_suffix(".json")
    if not twin.is_file():
        return None
    data = json.loads(twin.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else None


def entries(kind: DataKind, store: DataStore | None = None) -> list[Entry]:
    """Every entry: the samples, then those stored (a stored one that no longer validates,
    e.g. after a schema change, is left out rather than failing the whole list)."""
    out = [sample(kind, name) for name in sample_files(kind)]
    if store is None:
        return out
    shipped = {e.name for e in out}
    for name in store.data_names(kind.game, kind.kind):
        if name in shipped:
            continue
        body = store.data(kind.game, kind.kind, name)
        try:
            data = from_mapping(kind, body, f"the stored {kind.noun} {name!r}")
        except ConfigError:
            continue
        out.append(Entry(kind, name, {**data, "name": name}, stored=True))
    return out


def names(kind: DataKind, store: DataStore | None = None) -> list[str]:
    """The names of every entry, samples first (the choices of the kind's table option)."""
    out = list(sample_files(kind))
    if store is not None:
        out += [n for n in store.data_names(kind.game, kind.kind) if n not in out]
    return out


def find_entry(kind: DataKind, name: str, store: DataStore | None = None) -> Entry:
    """The sample or stored entry called ``name``; NotFound listing the names there are."""
    if name in sample_files(kind):
        return sample(kind, name)
    if store is not None and NAME.match(name):
        body = store.data(kind.game, kind.kind, name)
        if body is not None:
            data = from_mapping(kind, body, f"the stored {kind.noun} {name!r}")
            return Entry(kind, name, {**data, "name": name}, stored=True)
    shown = name if len(name) <= 64 else name[:61] + "..."
    raise NotFound(
        f"there is no {kind.noun} called {shown!r}; there are {', '.join(names(kind, store))}"
    )


def check_name(kind: DataKind, name: str) -> None:
    """Refuse a name an entry cannot be saved under (ConfigError in words)."""
    if not NAME.match(name):
        raise ConfigError(f"a {kind.noun}'s name must be {NAME_RULE}, not {name!r}")
    if name in RESERVED:
        raise ConfigError(f"{name!r} cannot name a {kind.noun}; choose another name")
    if name in sample_files(kind):
        raise ConfigError(
            f"{name!r} is {_shipped(kind)} and cannot be changed; save yours under another name"
        )


def save(kind: DataKind, store: DataStore, name: str, data: Mapping[str, Any]) -> Entry:
    """Store ``data`` (already validated) as entry ``name``, replacing one of that name.

    The entry is never a sample once saved (``sample: false``), complete or not: an entry may
    be saved half-way, and a table can use it once it is complete. A sample's name is refused.
    """
    check_name(kind, name)
    body = {**data, "name": name, "sample": False}
    body = from_mapping(kind, body, f"the {kind.noun}")
    store.save_data(kind.game, kind.kind, name, body)
    return Entry(kind, name, body, stored=True)


def delete(kind: DataKind, store: DataStore, name: str) -> None:
    """Delete the stored entry ``name``; a sample is refused, a missing one is NotFound."""
    if name in sample_files(kind):
        word = kind.sample_word
        many = "samples" if word == "sample" else f"{word} {kind.noun}s"
        raise ConfigError(f"{name!r} is {_shipped(kind)}; {many} cannot be deleted")
    if not store.delete_data(kind.game, kind.kind, name):
        raise NotFound(f"there is no stored {kind.noun} called {name!r}")


def _shipped(kind: DataKind) -> str:
    """``"a sample shipped with scorekeeper"``, in the kind's word ("an assumed one ...")."""
    word = kind.sample_word
    if word == "sample":
        return "a sample shipped with scorekeeper"
    article = "an" if word[:1].lower() in "aeiou" else "a"
    return f"{article} {word} {kind.noun} shipped with scorekeeper"


def resolve_option(kind: DataKind, value: Any, store: DataStore | None = None) -> Any:
    """A table option's value made self-contained: a sample's or stored entry's name becomes
    the entry's whole mapping; a mapping is validated and goes on as its mapping.

    Anything else (a number, a list) is returned as it is, for the game to refuse in its own
    words. ConfigError naming the entries there are when a name is unknown; whether an entry is
    complete enough for a table is the game's to say when it resolves its options.
    """
    if isinstance(value, str):
        try:
            return find_entry(kind, value, store).data
        except NotFound as exc:
            raise ConfigError(
                f"{exc}; or save yours in the console's {kind.title} section first"
            ) from None
    if isinstance(value, Mapping):
        return from_mapping(kind, value, f"the {kind.option or kind.kind} option")
    return value


def schema(kind: DataKind) -> dict[str, Any]:
    """The kind's JSON schema (pydantic's), with the kind's title and help on top."""
    out = kind.model.model_json_schema()
    out.update(title=kind.title, description=kind.help, **kind.schema_extra)
    return out
