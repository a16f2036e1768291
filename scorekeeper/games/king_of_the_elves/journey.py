"""Frozen values of one journey in the travel phase (R-TRAVEL): where the traveller is, the move
in progress, the escort, the visits made, and the payments still to confirm.

Primitive fields only (ints, strs, tuples, frozensets, None), so that ``state.py`` can hold a
``Journey`` without this module importing it. The rules that change a journey are in
``travel.py``; the path and the cost table in ``costs.py``.

A village is named by ``(seat, slot)``: the principality's owner and the slot (1-based) as that
owner sees it. Slots do not change during the travel phase (removals happen while planning only),
so a ``(seat, slot)`` stays the same village for a whole journey.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

CLOCKWISE = 1
COUNTERCLOCKWISE = -1

# Teleport stages (Journey.teleport): none; `teleport` answered, waiting for `teleport_to`;
# the destination chosen, waiting for the 4 travel cards (R-TRAVEL-16).
TELEPORT_NONE = ""
TELEPORT_CHOOSE = "choose"
TELEPORT_CARDS = "cards"

TELEPORT_CARDS_NEEDED = 4
NO_SEAT = -1


@dataclass(frozen=True, slots=True)
class Visit:
    """One completed visit of a journey, in the order it happened (R-TRAVEL-8, R-TRAVEL-12).

    ``cards`` are the cards spent to get there (a move's travel cards, or a teleport's four);
    ``thief`` the gold paid to ``thief_owner`` (0 and NO_SEAT when none was due); ``income`` the
    village's value from the bank; ``gold_card`` the value again for the traveller's own gold
    card (0 otherwise); ``bonus`` the 10 of R-TRAVEL-13 when this visit completed the tour (0
    otherwise); ``teleport`` the 3 gold paid to teleport here (0 when reached by road).
    """

    seat: int
    slot: int
    village: str
    cards: tuple[str, ...]
    thief: int = 0
    thief_owner: int = NO_SEAT
    income: int = 0
    gold_card: int = 0
    bonus: int = 0
    teleport: int = 0

    @property
    def place(self) -> tuple[int, int]:
        """The village as ``(seat, slot)``."""
        return (self.seat, self.slot)


@dataclass(frozen=True, slots=True)
class Journey:
    """The traveller's journey in progress.

    - ``at``: None at the castle (before the first visit), else the ``(seat, slot)`` last visited.
    - ``direction``: CLOCKWISE or COUNTERCLOCKWISE; turnarounds flip it (R-TRAVEL-11, G-24).
    - The move in progress (R-TRAVEL-6): ``move_type`` ("" when none), ``move_cards`` laid so
      far, ``move_needed`` the cards it takes, surcharge included (fixed at its first card).
    - ``escort``: the seat whose principality an escort protects, or NO_SEAT; ``escort_card``
      the escort card's id ("" when none), kept face up off the pads (R-TRAVEL-10).
    - ``visits`` in order; ``visited`` the distinct village cards visited this journey (for the
      bonus, R-TRAVEL-13); ``bonus`` whether it was paid (G-18, once a journey).
    - ``collected`` from the bank and ``paid`` to thieves and for teleports this journey.
    - Teleport (R-TRAVEL-15 … 18): ``teleport`` the stage (TELEPORT_*), ``teleport_to`` the
      destination once chosen, ``teleport_cards`` the travel cards laid for it so far.
    - A thief's payment awaiting the traveller's ``pay`` (``money: phones``): ``pay_to`` the
      thief's owner (NO_SEAT when none waits) and ``pay_amount``; the move's cards stay in
      ``move_cards`` (or ``teleport_cards``) until it is confirmed and the visit completes.
    - ``spent``: every card the referee counted on the road this journey (travel cards, escorts,
      turnarounds), so a card seen again there changes nothing.

    Hazard: ``spent`` includes the cards of an unfinished move; G-25 gives those back to the hand
    when the traveller stops, so do not count ``spent`` as the cards spent.
    """

    seat: int
    at: tuple[int, int] | None = None
    direction: int = CLOCKWISE
    move_type: str = ""
    move_cards: tuple[str, ...] = ()
    move_needed: int = 0
    escort: int = NO_SEAT
    escort_card: str = ""
    visits: tuple[Visit, ...] = ()
    visited: frozenset[str] = field(default_factory=frozenset)
    bonus: bool = False
    collected: int = 0
    paid: int = 0
    teleport: str = TELEPORT_NONE
    teleport_to: tuple[int, int] | None = None
    teleport_cards: tuple[str, ...] = ()
    pay_to: int = NO_SEAT
    pay_amount: int = 0
    spent: tuple[str, ...] = ()

    @property
    def in_move(self) -> bool:
        """Whether a move (or a teleport's cards) has begun and not yet completed."""
        return bool(self.move_cards) or bool(self.teleport_cards)

    @property
    def awaiting_pay(self) -> bool:
        """Whether a thief's payment waits for the traveller's ``pay`` (``money: phones``)."""
        return self.pay_to != NO_SEAT

    @property
    def cards_spent(self) -> int:
        """The cards spent on completed visits, escorts and turnarounds (not an open move's)."""
        return len(self.spent) - len(self.move_cards) - len(self.teleport_cards)

    def with_(self, **changes: object) -> Journey:
        """A copy with ``changes`` (dataclasses.replace, typed loosely for brevity)."""
        return replace(self, **changes)  # type: ignore[arg-type]
