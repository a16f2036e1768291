"""Frozen state values of a King of the Elves table: tuples and frozen dataclasses only.

The referee never sees a hand, the deal or the draw pile (R-SETUP-11): it counts cards (hand
sizes, both piles), knows every card on the table (``SeatState.villages``), every card it saw go
to the discard pile since that pile was last shuffled away (``State.discarded``), and keeps the
gold ledger (``State.ledger``; ledger.py is the only code that moves gold).

Who writes what: planning.py and rounds.py the planning phase and the rounds; travel.py (with
journey.py's ``Journey``) a journey, which ends by returning a state with ``journey=None``, a
``JourneyRecord`` appended to ``history`` and the seat's ``travelled=True``; rounds.after_journey
then starts the next journey or ends the round.

Hazard: state.py imports journey.py for the ``Journey`` type (snapshots must resolve every field
type), so journey.py must not import this module at its top level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.evolve import evolver
from scorekeeper.games.king_of_the_elves.journey import Journey

# Phases (the public view's ``phase``).
PLANNING = "planning"
TRAVEL = "travel"
OVER = "over"

# Ledger accounts (LedgerEntry.frm / .to).
BANK = "bank"


def purse_account(seat: int) -> str:
    """The ledger's name for ``seat``'s purse: ``purse:<s>``."""
    return f"purse:{seat}"


def escrow_account(seat: int) -> str:
    """The ledger's name for ``seat``'s escrow (gold set aside for purchases): ``escrow:<s>``."""
    return f"escrow:{seat}"


@dataclass(frozen=True, slots=True)
class Options:
    """The resolved table options, in the form the rules use (game.py resolves them).

    ``crests`` is one letter per seat in seat order ("abcd" for ``by_seat``); ``villages`` the
    principality's capacity (2, or 3 with two players and ``two_player_villages: 3``).
    """

    deck: str = "assumed"
    teleport: bool = False
    starting_gold: int = 7
    money: str = "coins"  # "coins" | "phones"
    start_seat: int = 0
    villages: int = 2
    crests: str = "abcdef"
    ring_closed: bool = True
    own_principality_is_entered: bool = True
    escort_mid_principality: bool = False
    token_limit: str = "per_round"  # "per_round" | "on_table"
    search_fallback: bool = False
    public_gold: str = "none"  # "none" | "band"
    raw: tuple[tuple[str, Any], ...] = ()
    """The options as given to the table (name, value), for the public view's ``options``."""


@dataclass(frozen=True, slots=True)
class Deck:
    """The deck manifest's facts the rules need (a table keeps them: replay never reads the
    store). ``villages`` is ``(card, terrain, value)`` per village in card order; ``travel``
    and ``special`` are ``(type, count)`` pairs."""

    name: str
    assumed: bool
    villages: tuple[tuple[str, str, int], ...]
    travel: tuple[tuple[str, int], ...]
    special: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        """How many cards the deck holds (120 for the assumed one)."""
        return len(self.villages) + sum(c for _, c in self.travel) + sum(c for _, c in self.special)

    def terrain(self, card: str) -> str:
        """A village card's terrain ("" for a card the manifest does not list)."""
        for c, terrain, _ in self.villages:
            if c == card:
                return terrain
        return ""

    def value(self, card: str) -> int:
        """A village card's printed value (0 for a card the manifest does not list)."""
        for c, _, value in self.villages:
            if c == card:
                return value
        return 0


@dataclass(frozen=True, slots=True)
class Special:
    """A gold, thief or obstacle card laid on a village (R-PLAN-8): its ``type`` and the seat
    that ``owner``s it (the actor who laid it). ``token`` is the ownership token seen on it,
    None until it is read (a confirmation: the owner is known from the turn)."""

    card: str
    type: str
    owner: int
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Village:
    """A village on the table, in its principality's slot order, with its special cards."""

    card: str
    terrain: str
    value: int
    gold: Special | None = None
    thief: Special | None = None
    obstacle: Special | None = None

    def specials(self) -> tuple[Special, ...]:
        """Its special cards (gold, thief, obstacle order), those present only."""
        return tuple(s for s in (self.gold, self.thief, self.obstacle) if s is not None)


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat: its crest, hand count, principality and gold.

    ``placed``: special cards laid this round (R-PLAN-11); ``bought``: purchases this round;
    ``escrow``: gold set aside for them (R-PLAN-7); ``purse``: the gold, escrow not included
    (private to the seat until the game is over); ``travelled``: its journey this round is over;
    ``stranded``: ``search_fallback``'s "no village anywhere": it passes without a village and
    makes no journey this round.
    """

    crest: str
    hand: int = 0
    villages: tuple[Village, ...] = ()
    placed: int = 0
    bought: int = 0
    escrow: int = 0
    purse: int = 0
    travelled: bool = False
    stranded: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    """A planning action in progress (the turn passes when it is complete).

    ``kind``: ``draw3`` (``needs`` discards still owed), ``search`` (``needs`` 1: the put-back
    card), ``searched`` (the ``searched`` prompt is open), ``pay`` (``money: phones``: the
    removal's ``amount`` waits for the actor's ``pay``; ``about`` words the removed village).
    """

    seat: int
    kind: str
    needs: int = 0
    amount: int = 0
    about: str = ""


@dataclass(frozen=True, slots=True)
class Slide:
    """A village the referee moved one pad right after a removal (G-10), not yet seen on its
    new pad: ``seat``'s ``card``, now in slot ``to``."""

    seat: int
    card: str
    to: int


@dataclass(frozen=True, slots=True)
class Planning:
    """The planning phase: ``passes`` in a row (R-PLAN-2), the ``action`` in progress, and the
    ``slides`` still to be seen (G-10)."""

    passes: int = 0
    action: Action | None = None
    slides: tuple[Slide, ...] = ()


@dataclass(frozen=True, slots=True)
class JourneyRecord:
    """A finished journey, for the public ``history``: ``visits`` made, travel ``cards`` spent,
    gold ``collected`` from the bank and ``paid`` (thieves, teleports), whether the ``bonus``
    was won."""

    round: int
    seat: int
    visits: int
    cards: int
    collected: int
    paid: int
    bonus: bool


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One movement of gold (contract, "The gold ledger"): ``frm``/``to`` are ``bank``,
    ``purse:<s>`` or ``escrow:<s>``; ``about`` says in words what caused it (may hold
    ``{seat:n}`` markers, rendered with names by the table)."""

    n: int
    round: int
    reason: str
    rule: str
    frm: str
    to: str
    amount: int
    about: str


@dataclass(frozen=True, slots=True)
class State:
    """Everything the referee knows about one game of King of the Elves.

    ``start_seat`` is this round's start player (the dragon figure); ``active_seat`` the actor
    (planning) or the traveller (travel), None when over. ``draw_pile``/``discard_pile`` are
    counts; ``discarded`` the cards known to lie on the discard pile (a card seen again on a tap
    pad is the same card). Villages are in slot order: ``villages[0]`` is slot 1.
    """

    n: int
    options: Options
    deck: Deck
    phase: str
    round: int
    rounds: int
    start_seat: int
    active_seat: int | None
    seats: tuple[SeatState, ...]
    draw_pile: int
    discard_pile: int = 0
    discarded: frozenset[str] = frozenset()
    planning: Planning | None = None
    journey: Journey | None = None
    history: tuple[JourneyRecord, ...] = ()
    ledger: tuple[LedgerEntry, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def capacity(self) -> int:
        """Villages a principality holds (R-PLAN-3, R-PLAN-16)."""
        return self.options.villages


evolve: Callable[..., State] = evolver(State)
"""``evolve(state, **changes)``: ``dataclasses.replace`` for a State without running
``__init__`` (the hot path). ``changes`` must name State fields (TypeError otherwise)."""


def seat_with(seat: SeatState, **changes: Any) -> SeatState:
    """``seat`` with ``changes`` (SeatState fields)."""
    values = {f: getattr(seat, f) for f in SeatState.__dataclass_fields__}
    values.update(changes)
    return SeatState(**values)


def with_seat(state: State, s: int, **changes: Any) -> State:
    """``state`` with seat ``s``'s SeatState fields changed (``hand=…``, ``villages=…``)."""
    seats = list(state.seats)
    seats[s] = seat_with(seats[s], **changes)
    return evolve(state, seats=tuple(seats))


def village_at(state: State, seat: int, slot: int) -> Village | None:
    """Seat ``seat``'s village in ``slot`` (1-based, as the contract counts), or None."""
    villages = state.seats[seat].villages
    return villages[slot - 1] if 0 < slot <= len(villages) else None


def with_village(state: State, seat: int, slot: int, village: Village) -> State:
    """``state`` with seat ``seat``'s village in ``slot`` (1-based, existing) replaced."""
    villages = list(state.seats[seat].villages)
    villages[slot - 1] = village
    return with_seat(state, seat, villages=tuple(villages))


def find_village(state: State, card: str) -> tuple[int, int] | None:
    """Where a village card lies on the table: ``(seat, slot)``, or None."""
    for s, seat in enumerate(state.seats):
        for k, village in enumerate(seat.villages, start=1):
            if village.card == card:
                return s, k
    return None


def seat_of_crest(state: State, crest: str) -> int | None:
    """The seat playing ``crest`` (a letter), or None when nobody does (R-SETUP-3)."""
    k = state.options.crests.find(crest)
    return k if 0 <= k < state.n else None


def all_villages(state: State) -> tuple[tuple[int, int, Village], ...]:
    """Every village on the table as ``(seat, slot, village)``, seat by seat in slot order."""
    return tuple(
        (s, k, v)
        for s, seat in enumerate(state.seats)
        for k, v in enumerate(seat.villages, start=1)
    )
