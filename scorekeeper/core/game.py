"""The interface every game module implements, and its options.

A game is stateless: an object whose methods are pure functions over a frozen state value. It does
no I/O, reads no clock and owns no randomness (docs/design.md, invariant 2). The referee loop
and the table are the only callers.
"""

from __future__ import annotations

import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar, cast

from scorekeeper.core.inputs import Correct, Decision, Seen, Sighting, Undo
from scorekeeper.core.outcomes import Accepted, Prompt, Rejected
from scorekeeper.core.text import render_seats, seat_ref, with_article
from scorekeeper.errors import ConfigError

if typing.TYPE_CHECKING:
    from scorekeeper.core.data import DataKind

PUBLIC: Literal["public"] = "public"
ORGANISER: Literal["organiser"] = "organiser"
Audience = int | Literal["public", "organiser"]

#: A game's state type: a frozen value (docs/design.md, invariant 2).
S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Choice:
    """One allowed value of an option, with what people read: a short ``label`` in words (never
    the raw value or a rule id) and a one-line ``help`` saying what picking it does."""

    value: Any
    label: str
    help: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "label": self.label, "help": self.help}


def choices(*items: tuple[Any, str, str]) -> tuple[Choice, ...]:
    """An option's choices from ``(value, label, help)`` triples, in the order given."""
    return tuple(Choice(value, label, help) for value, label, help in items)


@dataclass(frozen=True, slots=True)
class Option:
    """A named table setting with its default. ``choices`` limits the values; None = any.

    ``choices`` holds ``Choice`` values (a label and a line of help each) or bare values (then
    the label is the value itself: only for tests and quick sketches). ``label`` and ``help``
    are what a person creating a table reads, in plain words. ``ask``: a person creating a
    table must choose this option (the console and the command line ask for it); the default
    serves only scripts, tests and demos.
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    nullable: bool = False
    ask: bool = False
    label: str = ""

    @property
    def values(self) -> tuple[Any, ...] | None:
        """The allowed values (None: any value of the default's type)."""
        if self.choices is None:
            return None
        return tuple(c.value if isinstance(c, Choice) else c for c in self.choices)

    def choice_list(self) -> tuple[Choice, ...]:
        """Every allowed value as a ``Choice`` (empty when any value goes)."""
        return tuple(c if isinstance(c, Choice) else Choice(c, str(c)) for c in self.choices or ())

    def words_for(self, value: Any) -> str:
        """A value of this option in words: its choice's label, else the value itself."""
        for choice in self.choice_list():
            if choice.value == value:
                return choice.label
        return str(value)

    def to_dict(self) -> dict[str, Any]:
        """The option as the console and GET /api/games show it: ``name``, ``label``,
        ``help``, ``default``, ``ask``, and ``choices`` (a list of {value, label, help,
        default}) or None when any value goes."""
        choices = None
        if self.choices is not None:
            choices = [
                dict(c.to_dict(), default=c.value == self.default) for c in self.choice_list()
            ]
        return {
            "name": self.name,
            "label": self.label or self.name.replace("_", " "),
            "help": self.help,
            "default": self.default,
            "ask": self.ask,
            "choices": choices,
        }

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type; raises ConfigError when it can't be."""
        if value is None:
            if self.nullable:
                return None
            raise ConfigError(f"option {self.name!r} cannot be empty")
        kind: type[Any] = type(self.default) if self.default is not None else str
        try:
            if kind is bool:
                if isinstance(value, str):
                    low = value.strip().lower()
                    if low not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                        raise ValueError(value)
                    value = low in ("true", "yes", "1", "on")
                else:
                    value = bool(value)
            elif kind is int:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError(value)
                value = int(value)
            elif kind is str:
                value = str(value)
        except (TypeError, ValueError):
            raise ConfigError(
                f"option {self.name!r} must be a {kind.__name__}, not {value!r}"
            ) from None
        values = self.values
        if values is not None and value not in values:
            allowed = ", ".join(
                f"{c.value} ({c.label})" if str(c.value) != c.label else str(c.value)
                for c in self.choice_list()
            )
            raise ConfigError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        return value


class Game(ABC, Generic[S]):
    """One supported game over its frozen state type ``S``. Subclasses name it
    (``class Arcanum(Game[State])``), set the class attributes and implement the methods."""

    id: str
    name: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...] = ()
    #: True for a game whose ``scores`` mean nothing until ``is_over`` (a private purse): the
    #: table then shows no score and no score history to anyone during play (``shown_scores``),
    #: and says "scores at the end" where a score would stand.
    scores_private: ClassVar[bool] = False
    #: False for a game in which no piece is ever secret (every card on the table is public):
    #: refusals shown to the public may then name pieces ("the forest village (4)").
    #: HAZARD: only when ``secrets`` is always empty; a hidden card named in a hint leaks it.
    secret_pieces: ClassVar[bool] = True

    def resolve_options(self, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Validate ``given`` against ``options`` and fill in defaults; raises ConfigError.

        Games whose defaults depend on the number of seats override this and call super().
        """
        if not self.min_seats <= seats <= self.max_seats:
            raise ConfigError(
                f"{self.name} is for {self.min_seats}-{self.max_seats} players, not {seats}"
            )
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ConfigError(
                f"unknown option(s) for {self.name}: {', '.join(unknown)}; "
                f"known: {', '.join(sorted(known))}"
            )
        return {name: opt.coerce(given.get(name, opt.default)) for name, opt in known.items()}

    def data_kinds(self) -> tuple[DataKind, ...]:
        """The kinds of data a person supplies for this game, e.g. board profiles
        (scorekeeper/core/data.py): schema, samples and the option that selects an entry.
        Default: none."""
        return ()

    def needs_data_entry(self, option: str, value: Any) -> bool:
        """Whether the hub must turn ``value`` of the table option ``option`` into a data
        entry's whole mapping before ``resolve_options`` (``core.data.resolve_option``: a
        stored entry's name, an uploaded mapping). False for an option no data kind selects.

        A game may answer False for the name of an entry shipped with it that its own
        ``resolve_options`` reads to the very mapping the data kind would give: the hub then
        loads none of the game's data kinds, whose file models and YAML parser cost a serving
        table about 1 MB. Hazard: an answer of False for anything else leaves a stored entry's
        name unresolved (the game refuses it as unknown). Default: from ``data_kinds``."""
        return any(kind.option == option for kind in self.data_kinds())

    @abstractmethod
    def pieces(self) -> tuple[str, ...]:
        """Every piece id of one physical copy (cards, pawns, tokens), in enrollment order."""

    @abstractmethod
    def describe_piece(self, piece: str) -> str:
        """A plain-language name for a piece id, for enrollment prompts and feeds."""

    def pieces_for(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """Every piece id of the copy a table with these resolved ``options`` plays with
        (a deck manifest that says 10 rafts has ``raft_10``). Default: ``pieces()``, the same
        for every copy. Kits, enrollment and a table's kit check use it; pure."""
        return self.pieces()

    def describe_piece_for(self, piece: str, options: Mapping[str, Any]) -> str:
        """A piece in words as the copy of these resolved ``options`` prints it ("the forest
        village (4)" from a deck manifest). Default: ``describe_piece``."""
        return self.describe_piece(piece)

    def shown_scores(self, state: S) -> list[int] | None:
        """The scores anyone may be shown now: None while ``scores_private`` hides them
        (the game is not over), else ``scores``. Every view, list and export uses this."""
        if self.scores_private and not self.is_over(state):
            return None
        return list(self.scores(state))

    @abstractmethod
    def zones(self, seats: int) -> tuple[str, ...]:
        """Every zone name the game understands at this player count."""

    @abstractmethod
    def default_layout(self, seats: int) -> dict[str, str]:
        """The default zone layout: reader id -> zone name."""

    @abstractmethod
    def new_game(self, options: Mapping[str, Any], seats: int) -> S:
        """The state before the first input. ``options`` are already resolved."""

    @abstractmethod
    def observe(self, state: S, seen: Seen) -> Accepted[S] | Rejected:
        """Judge a piece arriving at or leaving a zone."""

    @abstractmethod
    def decide(self, state: S, decision: Decision) -> Accepted[S] | Rejected:
        """Judge a person's answer to a pending prompt."""

    @abstractmethod
    def pending(self, state: S) -> tuple[Prompt, ...]:
        """The prompts the table is waiting for, each with its legal answers."""

    @abstractmethod
    def waiting_for(self, state: S) -> str:
        """One plain-language line: what the table is waiting for now."""

    @abstractmethod
    def scores(self, state: S) -> tuple[int, ...]:
        """Current score of every seat."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """True when the game has ended; no further input is accepted then."""

    @abstractmethod
    def view(self, state: S, audience: Audience) -> dict[str, Any]:
        """What ``audience`` may see: JSON-able, filtered here and nowhere else."""

    @abstractmethod
    def secrets(self, state: S, seat: int) -> frozenset[str]:
        """Piece ids only ``seat`` may know now (for the leak checks in tests)."""

    def hidden_kind(self, piece: str) -> str | None:
        """The kind ``piece`` counts as while a seat keeps it hidden, for the privacy check
        (tests/perturb.py): pieces of one kind may trade places among one seat's hidden pieces,
        or with a piece nobody has seen, and nothing anyone else is shown may change. None (the
        default): no other piece can stand in for this one, so its identity is never swapped."""
        return None

    def hidden_kind_for(self, piece: str, options: Mapping[str, Any]) -> str | None:
        """``hidden_kind`` for a table with these resolved ``options``, for a game whose
        pieces' kinds are in its data (a card pack gives each card's type): the privacy check
        asks this one. Default: ``hidden_kind(piece)``."""
        return self.hidden_kind(piece)

    def locate(self, state: S, piece: str) -> str | None:
        """Where the referee knows ``piece`` to be in ``state``: a zone name, ``"hand:<seat>"``
        for a seat's hand, ``""`` when the game tracks pieces but this one is out of sight (a
        deck or an unseen hand), or None when the game does not track where pieces are (the
        default). Used to tell people where to put a piece back after an undo."""
        return None

    # -- private values: secrets that are not piece ids ------------------------------------------

    def private_values(self, state: S, seat: int) -> Mapping[str, Any]:
        """What only ``seat`` (and the organiser) may know now that is not a piece id, by a
        name of the game's choosing: a seat's exact gold (``{"gold": 7}``), the face of its
        face-down card (``{"agent 3": "spy"}``). The default: nothing.

        The privacy check (tests/perturb.py) sets each value in turn to every other value of
        ``private_range`` with ``perturb_private`` and requires every other audience's bytes
        (views, prompts, scores, waiting line, the feed of the inputs that follow) unchanged.
        A game that declares a value implements both. Hazard: a value listed here may reach
        no view but its seat's and the organiser's: not a score, a prompt others see, or a
        feed line; a count others can work out from what they saw is not private."""
        return {}

    def private_range(self, state: S, seat: int, key: str) -> Sequence[Any]:
        """The values ``seat``'s private ``key`` could hold in ``state`` as far as everyone
        else knows: consistent with what they saw (gold no lower than what was paid in
        public). The privacy check tries each; keep it short (a few values). Default: none."""
        return ()

    def perturb_private(self, state: S, seat: int, key: str, value: Any) -> S:
        """``state`` with ``seat``'s private ``key`` set to ``value`` (from ``private_range``)
        and nothing else changed: a state no one but ``seat`` could tell from ``state``. Pure.
        The default raises NotImplementedError: a game declaring private values overrides it."""
        raise NotImplementedError(f"{self.name} declares no way to change a private value")

    # -- states in record form (core/snapshot.py) -------------------------------------------------

    def state_type(self) -> type[S]:
        """The class of this game's states, as the game names it (``Game[State]``); raises
        TypeError for a game that does not name one."""
        for klass in type(self).__mro__:
            for base in getattr(klass, "__orig_bases__", ()):
                if typing.get_origin(base) is Game:
                    args = typing.get_args(base)
                    if args and isinstance(args[0], type):
                        return cast("type[S]", args[0])
        raise TypeError(f"{type(self).__name__} does not name its state type: Game[State]")

    def snapshot(self, state: S) -> dict[str, Any]:
        """``state`` as a JSON-able record with a format version, for the event hub to keep
        instead of replaying a table from its start. The default (core/snapshot.py) carries
        frozen dataclasses, tuples, frozensets, dicts, enums, None, numbers and strings; a game
        whose state holds anything else overrides this and ``restore``. Raises SnapshotError."""
        from scorekeeper.core import snapshot as records  # not at serve start: rarely used

        return records.snapshot(state)

    def restore(self, record: Mapping[str, Any]) -> S:
        """The state a ``snapshot`` record describes, equal to the one snapshotted. Raises
        SnapshotError for a record of another format or game, or one naming a class outside
        this game's state (a record never makes the code import anything)."""
        from scorekeeper.core import snapshot as records

        return records.restore(record, self.state_type())

    # -- zones and the seats they belong to (zone mats, put-back instructions) -----------------

    def seat_of_zone(self, zone: str) -> int | None:
        """The seat ``zone`` belongs to, or None for a shared zone. The default follows the
        zone naming rule (docs/kits-and-layouts.md): a zone whose name ends in ``:<n>`` is seat
        n's (``pile:2`` -> 2). A game whose numbered zones are not all seats' (a city location
        ``loc:2``) overrides it. Callers check the seat against the table's seat count."""
        return seat_in_zone_name(zone)

    def describe_zone(self, zone: str) -> str:
        """A zone in plain words without its seat, as printed on its pad of a zone mat
        ("Discards"). The default is the zone's kind in words: ``big_pile:2`` -> "Big pile"."""
        return zone.partition(":")[0].replace("_", " ").replace("-", " ").capitalize()

    def zone_named(self, zone: str, names: Sequence[str]) -> str:
        """A zone in plain words with the name of the seat it belongs to, for put-back
        instructions and the organiser's log lines: "Ann's hide strip", "the play area",
        "Location 3". ``names`` are the players' names. The default builds it from
        ``describe_zone`` and ``seat_of_zone``: a seat's zone gets the seat's name, a shared
        zone without a number gets "the"."""
        words = self.describe_zone(zone)
        seat = self.seat_of_zone(zone)
        if seat is not None and 0 <= seat < len(names):
            return f"{names[seat]}'s {words[:1].lower()}{words[1:]}"
        return f"the {words[:1].lower()}{words[1:]}" if not zone.partition(":")[2] else words

    # -- plain words for inputs (the organiser's console and the command line) ----------------

    def zone_words(self, zone: str) -> str:
        """A zone as people name it, with ``seat_ref`` markers for a seat's own zone ("{seat:2}'s
        discard row"). The default is the zone id: games override it."""
        return zone

    def prompt_words(self, prompt: str) -> str:
        """What a prompt is about, as a noun phrase ("ending the turn"). Default: the id in
        words."""
        return prompt.replace("_", " ")

    def answer_words(self, prompt: str, answer: str, state: S | None = None) -> str:
        """One answer to ``prompt`` as a button would say it ("end the turn"). ``state``, when
        given, may supply names (a board's locations). Default: the answer itself."""
        return answer

    def describe_input(
        self,
        inp: Any,
        seats: Sequence[str] = (),
        state: S | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> str:
        """An input in plain words for the organiser, who may see every card: card, zone and
        seat names, what a prompt is about and the answer's words, never input syntax ("the
        red angel 4 laid on Bea's discard row", "Ann's answer about ending the turn: end the
        turn"). ``seats`` are the players' names; ``state`` (optional) lends names such as a
        board's locations; ``options`` (the table's resolved options) the copy's piece words
        (``describe_piece_for``). Hazard: it names hidden cards; never show it to a seat or the
        public.
        """
        if isinstance(inp, Seen):
            try:
                piece = with_article(
                    self.describe_piece(inp.piece)
                    if options is None
                    else self.describe_piece_for(inp.piece, options)
                )
            except Exception:  # noqa: BLE001 - an unknown piece is named by its id
                piece = inp.piece
            text = (
                f"{piece} {'laid on' if inp.present else 'lifted off'} {self.zone_words(inp.zone)}"
            )
        elif isinstance(inp, Decision):
            who = "the organiser" if inp.seat is None else seat_ref(inp.seat)
            text = (
                f"{who}'s answer about {self.prompt_words(inp.prompt)}: "
                f"{self.answer_words(inp.prompt, inp.answer, state)}"
            )
        elif isinstance(inp, Correct):
            text = (
                f"a correction: {self.describe_input(inp.replacement, seats, state, options)} "
                "instead of the last accepted input"
            )
        elif isinstance(inp, Undo):
            text = "undo: the last accepted input taken back"
        elif isinstance(inp, Sighting):
            text = f"tag {inp.uid} {'seen at' if inp.present else 'gone from'} reader {inp.reader}"
        else:
            text = str(inp)
        return render_seats(text, seats)


def seat_in_zone_name(zone: str) -> int | None:
    """The seat number a zone's name ends in (``pile:2`` -> 2), or None when it ends in none."""
    _, colon, tail = zone.rpartition(":")
    return int(tail) if colon and tail.isdigit() else None


def view_for(
    audience: Audience,
    seats: int,
    public: Callable[[], dict[str, Any]],
    organiser: Callable[[], dict[str, Any]],
    seat: Callable[[int], dict[str, Any]],
) -> dict[str, Any]:
    """Pick the view builder for ``audience``; ValueError for an audience that is no one here
    (a seat number out of range), so a wrong audience never falls back to a fuller view."""
    if audience == PUBLIC:
        return public()
    if audience == ORGANISER:
        return organiser()
    if isinstance(audience, int) and not isinstance(audience, bool) and 0 <= audience < seats:
        return seat(audience)
    raise ValueError(f"unknown audience {audience!r}")
