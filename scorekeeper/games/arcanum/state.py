"""Frozen state values of an Arcanum table: tuples and frozensets only (comparable with ==).

The referee never sees a hand or a deck. It counts each seat's minors and majors, it knows where
every card on the table is (``State.where``), and it keeps a *queue* of small steps: what the
table must do next, in order. Automatic steps (a draw, a location's effect, a played card going
to its pile) are run by ``engine.settle``; the others wait for an input (a pawn's arrival, a
discard, a hide, an answer to a prompt) and are judged by ``sightings`` and ``decisions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.evolve import evolver
from scorekeeper.games.arcanum.cards import CARD_IDS, PAWNS
from scorekeeper.games.arcanum.reputation import Reputation

# Phases (the public view's ``phase``).
SETUP = "setup"
ROUND_START = "round_start"
DRAW = "draw"
HIDE = "hide"
PLAY = "play"
FAME = "fame"
OVER = "over"

# Card whereabouts (State.where): "" = unseen (a deck or a hand), "hand:<s>" = known to be in
# seat s's hand (Temperance gave it back), "hide:<s>", "play", "minor_discard",
# "major_discard", or CITY (the Tower lying on the city).
UNSEEN = ""
CITY = "city"
PLAYED = "play"
MINOR_PILE = "minor_discard"
MAJOR_PILE = "major_discard"

# Pawn locations (State.pawns): 1 … 10, NOWHERE before setup places it, TRAY after Judgement.
NOWHERE = 0
TRAY = -1

HAND_LIMIT = 7

CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(CARD_IDS)}
PAWN_INDEX: dict[str, int] = {p: i for i, p in enumerate(PAWNS)}


@dataclass(frozen=True, slots=True)
class Config:
    """The resolved table options and the board, in the form the rules use.

    ``gains[loc - 1][pawn index]`` is the reputation a pawn's family gets on arriving at ``loc``
    (R-MIN-5); ``effects[loc - 1]`` and ``names[loc - 1]`` come from the board profile.
    """

    n: int
    rounds: int
    fame_rounds: tuple[int, ...]
    variant: str
    devil_fame: str
    split: str
    board_name: str
    sample: bool
    effects: tuple[str, ...]
    names: tuple[str, ...]
    gains: tuple[tuple[int, ...], ...]
    cathedral_vp: int
    options: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """The active player's turn in phase B.

    ``index`` counts the turns of the round (0 … n-1). ``minor``/``major`` are the cards played
    so far; ``*_done`` once they have resolved. ``moved`` is the pawn the minor moved and where
    (its icons were counted there); ``major_moved`` says a major moved a pawn (R-PLAY-5).
    """

    seat: int
    index: int
    minor: str | None = None
    major: str | None = None
    minor_done: bool = False
    major_done: bool = False
    moved: tuple[str, int] | None = None
    major_moved: bool = False


# --- steps ------------------------------------------------------------------------------------
# Automatic steps.


@dataclass(frozen=True, slots=True)
class Flow:
    """A round's bookkeeping: ``begin_round``, ``phase_a``, ``begin_hides``, ``begin_play``,
    ``end_round``."""

    what: str


@dataclass(frozen=True, slots=True)
class Draw:
    """``seat`` draws ``minors`` minors and ``majors`` majors (counted; R-DECK-1 reshuffles)."""

    seat: int
    minors: int = 0
    majors: int = 0


@dataclass(frozen=True, slots=True)
class Effect:
    """The effect of location ``loc`` for the AP (R-MIN-6)."""

    loc: int


@dataclass(frozen=True, slots=True)
class Finish:
    """The played ``card`` has resolved: it goes to its discard pile (the Tower to the city)."""

    card: str


@dataclass(frozen=True, slots=True)
class FameBegin:
    """A fame phase starts: ``regular`` (end of a fame round) or ``world`` (R-FAME-11)."""

    kind: str


# Steps that wait for an input.


@dataclass(frozen=True, slots=True)
class Owe:
    """``seat`` discards ``count`` cards, read on the discard piles.

    ``kind`` limits what may be discarded ("" any card, "minor", "major"); ``rule`` is cited
    when the seat cannot; ``why`` names the cause for texts (hand limit, Castle, Death …).
    """

    seat: int
    count: int
    kind: str = ""
    rule: str = "R-DRAW-3"
    why: str = "hand limit"


@dataclass(frozen=True, slots=True)
class Ask:
    """A prompt ``id`` for ``seat``; ``arg`` is its context (Fields: families done so far;
    family: the amount)."""

    id: str
    seat: int
    arg: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Harbour:
    """The Harbour's question to each other seat in turn; ``drawn`` counts the ``draw``
    answers."""

    seats: tuple[int, ...]
    drawn: int = 0


@dataclass(frozen=True, slots=True)
class Hides:
    """Seats that hide cards now: ``left`` is (seat, how many more it may hide).

    ``required`` (phase A, the Cathedral's hide): exactly that many, no ``pass``. ``fool``:
    the Fool may be hidden instead of a minor (G-15).
    """

    left: tuple[tuple[int, int], ...]
    required: bool
    rule: str
    why: str
    fool: bool = True


@dataclass(frozen=True, slots=True)
class Pawn:
    """A pawn move is awaited: the played minor's (R-MIN-2/3) or a major's "as the Fool"."""

    card: str


@dataclass(frozen=True, slots=True)
class Treasury:
    """``seat`` draws 1 minor and hides it at once (read as its arrival on the hide strip)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SwapIn:
    """Temperance: ``seat`` hides ``left`` more minors from the hand."""

    seat: int
    left: int


@dataclass(frozen=True, slots=True)
class Wheel:
    """The Wheel's answers per seat: "" not yet, "-" skipped (no cards), else the answer."""

    answers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Sun:
    """The Sun: hidden cards each seat still has to reveal (chosen by the owner)."""

    left: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class JudgeRemove:
    """Judgement: ``seat`` removes ``left`` more pawns to the tray."""

    seat: int
    left: int


@dataclass(frozen=True, slots=True)
class JudgePlace:
    """Start of a round: ``seat`` places the removed ``pawns`` on locations not in ``used``."""

    seat: int
    pawns: tuple[str, ...]
    used: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FameWait:
    """A fame phase is under way (``State.fame``): the table reveals family by family."""


Step = (
    Flow
    | Draw
    | Effect
    | Finish
    | FameBegin
    | Owe
    | Ask
    | Harbour
    | Hides
    | Pawn
    | Treasury
    | SwapIn
    | Wheel
    | Sun
    | JudgeRemove
    | JudgePlace
    | FameWait
)


# --- fame records -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FamilyRecord:
    """One family's scoring: the cards each seat revealed, the places and the VP each got."""

    family: str
    row: int
    cards: tuple[tuple[str, ...], ...]
    places: tuple[tuple[int, ...], ...]
    awards: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "row": self.row,
            "cards": {str(s): list(c) for s, c in enumerate(self.cards) if c},
            "places": [list(p) for p in self.places],
            "awards": list(self.awards),
        }


@dataclass(frozen=True, slots=True)
class FameState:
    """A fame phase in progress. ``fool`` is the family the Fool's holder assigned it to
    (private until that family is revealed). ``carried``: revealed cards already seen arriving
    on their discard pile before the phase is over (carried early; see ``State.carry``)."""

    kind: str
    rows: tuple[int, ...]
    order: tuple[str, ...]
    scored: tuple[FamilyRecord, ...] = ()
    fool: str | None = None
    carried: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class FameRecord:
    """A finished fame phase, for the public history."""

    round: int
    kind: str
    rows: tuple[int, ...]
    families: tuple[FamilyRecord, ...]
    totals: tuple[int, ...]


# --- the state --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class State:
    """Everything the referee knows about one game of Arcanum."""

    cfg: Config
    phase: str
    round: int
    start: int
    where: tuple[str, ...]  # per card, CARD_IDS order
    pawns: tuple[int, ...]  # per pawn, PAWNS order
    minors: tuple[int, ...]  # cards in hand by kind, per seat
    majors: tuple[int, ...]
    deck_minor: int
    deck_major: int
    pile_minor: tuple[str, ...]
    pile_major: tuple[str, ...]
    rep: Reputation
    vp: tuple[int, ...]
    vp_sources: tuple[tuple[tuple[str, int], ...], ...] = ()
    """Per seat, where its VP came from: ``(source, net VP)`` pairs sorted by source
    (``fame:<family>``, ``world:<family>``, ``location:<effect>``, ``major:<card>``). Each
    seat's amounts add up to its ``vp``; ``()`` until the first VP change (``ops.credit``)."""
    revealed: frozenset[str] = frozenset()  # hidden cards face up (the Sun)
    known: frozenset[str] = frozenset()  # hidden cards the whole table has seen (World, Sun)
    blocked: frozenset[int] = frozenset()
    tower: bool = False
    judgement: tuple[int, tuple[str, ...]] | None = None
    devil: int | None = None
    turn: Turn | None = None
    queue: tuple[Step, ...] = ()
    fame: FameState | None = None
    history: tuple[FameRecord, ...] = ()
    winners: tuple[int, ...] = ()
    carry: frozenset[str] = frozenset()
    """Cards revealed and discarded by the last regular fame phase (R-FAME-10) that have not
    been seen arriving on their discard pile yet: the referee put them there at once, but they
    still lie on the hide strips. Their arrival on their own pile is a confirmation, even once
    the next round's automatic draws have shuffled the pile into a new deck (they cannot have
    been drawn: they were on the strips). Public cards; replaced by each regular fame phase."""

    @property
    def n(self) -> int:
        return self.cfg.n

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def head(self) -> Step | None:
        """The step the table is on now, or None."""
        return self.queue[0] if self.queue else None

    def loc_of(self, card: str) -> str:
        """Where the referee knows ``card`` to be (UNSEEN when it does not)."""
        return self.where[CARD_INDEX[card]]

    def hand(self, seat: int) -> int:
        """Cards in ``seat``'s hand (by the referee's count)."""
        return self.minors[seat] + self.majors[seat]

    def hidden(self, seat: int) -> tuple[str, ...]:
        """``seat``'s hidden cards, in card order."""
        key = f"hide:{seat}"
        return tuple(c for c, w in zip(CARD_IDS, self.where, strict=True) if w == key)


evolve: Callable[..., State] = evolver(State)
"""``evolve(state, **changes)``: ``dataclasses.replace`` for a State without running
``__init__``, the referee's hot path (a few per input) at a fraction of the cost. ``changes``
must name State fields (TypeError otherwise)."""
