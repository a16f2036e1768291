"""The types of game data (``scorekeeper/core/data.py`` holds the helpers that use them): a
``DataKind`` a game declares, an ``Entry`` of one, the ``CsvForm`` of a kind with a flat form,
what enrollment asks per piece (``PerPiece``), what the helpers need of a store
(``DataStore``), and whether a mapping is a shipped entry unchanged (``is_shipped_unchanged``)."""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pydantic import BaseModel

Rows = Sequence[tuple[int, dict[str, str]]]
"""CSV data rows as ``(line number, {column: cell text})``, the header being line 1."""


def _no_problems(_data: Mapping[str, Any]) -> list[str]:
    return []


@dataclass(frozen=True)
class CsvForm:
    """A kind's flat form, for spreadsheets: fixed columns, several rows per entry.

    ``rows(mapping)`` gives the rows of an entry (cells as text or numbers; a missing column is
    an empty cell). ``entry(rows, source)`` builds the entry's mapping back from rows read from a
    file; it raises ConfigError naming ``source`` and the row's line for a bad cell. The name is
    not in the rows: it is the file's or the one given on import.
    """

    columns: tuple[str, ...]
    rows: Callable[[Mapping[str, Any]], list[dict[str, Any]]]
    entry: Callable[[Rows, str], dict[str, Any]]


def piece_type(piece: str) -> str:
    """A piece's type: its id without a trailing ``_<number>`` (``raft_10`` -> ``raft``,
    ``village_05`` -> ``village``), or the id itself (``token_a1``)."""
    head, sep, tail = piece.rpartition("_")
    return head if sep and tail.isdigit() else piece


@dataclass(frozen=True)
class PerPiece:
    """What enrollment asks about a piece while a copy is tagged, to record the copy as an
    entry of the kind (a deck manifest: each village card's terrain and printed value), saved
    under the kit's name (scorekeeper/core/per_piece.py has the helpers).

    ``asks(piece)``: whether ``piece`` is asked about. ``model``: a pydantic model of one
    piece's answers; each field is asked in order, in its ``title`` and ``description``, with
    its choices listed (an enum or ``Literal``, labelled by ``json_schema_extra={"x-labels":
    ...}``; a whole number bounded by ``ge`` and ``le``). ``build(answers, counts)``: the
    entry's mapping from the answers by piece (in tagging order) and how many pieces of each
    ``piece_type`` are tagged; ``name``, ``sample`` and ``description`` are added to it, and
    the kind's model checks it. Hazard: ``build`` must accept a copy tagged half-way (or raise
    ConfigError in words): enrollment saves what there is when it stops.
    """

    asks: Callable[[str], bool]
    model: type[BaseModel]
    build: Callable[[Mapping[str, Mapping[str, Any]], Mapping[str, int]], dict[str, Any]]
    piece_type: Callable[[str], str] = piece_type


@dataclass(frozen=True)
class DataKind:
    """One kind of data a game needs, e.g. a board's profiles (what each location does).

    ``title`` ("Board profiles") and ``help`` (what it is for) are words shown to people;
    ``noun`` names one entry in messages ("board profile"). ``model`` validates an entry and
    ``to_mapping`` turns a validated model into the entry's plain mapping (the form stored, sent
    and put in a table's config). ``samples`` is the folder of shipped YAML samples, named by
    file stem. ``option`` is the table option that selects an entry. ``show`` renders an entry
    for a terminal (default: its YAML), ``dump`` writes its YAML (default: plain YAML).
    ``enter(path, template)`` is the kind's interactive wizard, writing the file ``path`` and
    returning an exit code. ``legacy_meta`` is ``(key prefix, index key)`` where schema 2 of the
    store kept this kind's entries as meta strings (the store's migration moves them).
    """

    game: str
    kind: str
    title: str
    help: str
    noun: str
    model: type[BaseModel]
    samples: Path
    to_mapping: Callable[[Any], dict[str, Any]]
    problems: Callable[[Mapping[str, Any]], list[str]] = _no_problems
    option: str | None = None
    csv: CsvForm | None = None
    cli_alias: str | None = None
    enter: Callable[[Path, dict[str, Any] | None], int] | None = None
    show: Callable[[Entry], str] | None = None
    dump: Callable[[Mapping[str, Any]], str] | None = None
    legacy_meta: tuple[str, str] | None = None
    schema_extra: Mapping[str, Any] = field(default_factory=dict)
    #: The word shipped entries are labelled with wherever they show: "sample" for made-up data,
    #: "assumed" for a guess at a real copy (King of the Elves' deck manifest).
    sample_word: str = "sample"
    #: What a shipped entry is, in a few words after ``sample_word`` ("sample, made up"); empty:
    #: "made up" for samples, else that it is not read from the person's own copy.
    sample_note: str = ""
    #: What enrollment asks about each piece of a copy to record it as an entry of this kind
    #: (None: nothing; the kit holds only tags).
    per_piece: PerPiece | None = None

    @property
    def shipped_note(self) -> str:
        """What a shipped entry is, in words: ``sample_note``, or its default."""
        if self.sample_note:
            return self.sample_note
        if self.sample_word == "sample":
            return "made up"
        return "shipped with scorekeeper, not read from your own copy"

    def __post_init__(self) -> None:
        missing = {"name", "sample", "description"} - set(self.model.model_fields)
        if missing:  # a programming error in a game package, caught by its first test
            raise TypeError(f"{self.model.__name__} lacks the fields {sorted(missing)}")


class DataStore(Protocol):
    """What the helpers need of a store (``scorekeeper.store.Store`` has it)."""

    def save_data(self, game: str, kind: str, name: str, body: Mapping[str, Any]) -> None: ...

    def data(self, game: str, kind: str, name: str) -> dict[str, Any] | None: ...

    def data_names(self, game: str, kind: str) -> list[str]: ...

    def delete_data(self, game: str, kind: str, name: str) -> bool: ...


@dataclass(frozen=True)
class Entry:
    """One entry of a kind: a sample shipped with scorekeeper, or one stored in the database."""

    kind: DataKind
    name: str
    data: dict[str, Any]
    stored: bool

    @property
    def sample(self) -> bool:
        """True for an entry shipped with scorekeeper (made up, or a guess at a real copy),
        labelled with its kind's ``sample_word`` wherever shown."""
        return bool(self.data.get("sample"))

    @property
    def description(self) -> str:
        """The entry's own words about itself ("" when it has none)."""
        return str(self.data.get("description") or "")

    @property
    def label(self) -> str:
        """How texts name it: ``"sample board profile 'sample'"``, ``"board profile 'mine'"``
        (the kind's ``sample_word``: ``"assumed deck manifest 'assumed'"``)."""
        shipped = f"{self.kind.sample_word} " if self.sample else ""
        return f"{shipped}{self.kind.noun} {self.name!r}"

    def problems(self) -> list[str]:
        """What keeps it from starting a table, in words; empty when it is complete."""
        return self.kind.problems(self.data)

    def summary(self) -> dict[str, Any]:
        """The list form: name, description, sample, stored, complete and problems, and the
        words a shipped entry is labelled with (``sample_word``, ``sample_note``)."""
        problems = self.problems()
        return {
            "name": self.name,
            "description": self.description,
            "sample": self.sample,
            "sample_word": self.kind.sample_word,
            "sample_note": self.kind.shipped_note,
            "stored": self.stored,
            "complete": not problems,
            "problems": problems,
        }


def is_shipped_unchanged(
    value: Mapping[str, Any], shipped: Container[str], load: Callable[[str], Mapping[str, Any]]
) -> bool:
    """Whether ``value`` is a shipped entry's mapping as it was shipped: named, marked as a
    sample, one of ``shipped``, and equal to ``load(name)``. A game takes such a mapping as it
    is: it was checked when its JSON twin was written, and checking it again loads the kind's
    schema models."""
    name = value.get("name")
    return (
        isinstance(name, str)
        and value.get("sample") is True
        and name in shipped
        and load(name) == value
    )
