"""Frozen values of one journey in the travel phase (R-TRAVEL): where the traveller is, the move
in progress, the escort, the visits made, and the payments still to confirm.

Primitive fields only (ints, strs, tuples, frozensets, None), so that ``state.py`` can hold a
``Journey``. Below the values: how a journey reads, pure functions of a ``State`` that change
nothing (the next village, what it costs, the prompts, the waiting line, the public view's
``journey``). The rules that change a journey are in ``travel.py``; the path and the cost
table in ``costs.py``.

Hazard: state.py imports this module, so it imports state.py only for type checking; the
functions here read a State's attributes and import nothing from it at run time.

A village is named by ``(seat, slot)``: the principality's owner and the slot (1-based) as that
owner sees it. Slots do not change during the travel phase (removals happen while planning only),
so a ``(seat, slot)`` stays the same village for a whole journey.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scorekeeper.core.answering import NO_PROMPT
from scorekeeper.core.evolve import evolver
from scorekeeper.core.outcomes import Prompt, Rejected
from scorekeeper.core.text import render_seats, seat_ref
from scorekeeper.games.king_of_the_elves.costs import (
    costs_for,
    costs_words,
    next_village,
    type_name,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from scorekeeper.games.king_of_the_elves.state import State, Village

CLOCKWISE = 1
COUNTERCLOCKWISE = -1

# Teleport stages (Journey.teleport): none; `teleport` answered, waiting for `teleport_to`;
# the destination chosen, waiting for the 4 travel cards (R-TRAVEL-16).
TELEPORT_NONE = ""
TELEPORT_CHOOSE = "choose"
TELEPORT_CARDS = "cards"

TELEPORT_CARDS_NEEDED = 4
TELEPORT_PRICE = 3  # R-TRAVEL-16, to the bank (G-20)
THIEF_TAKES = 2  # R-TRAVEL-7, to the thief's owner
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

    def with_(self, **changes: Any) -> Journey:
        """A copy with ``changes`` (Journey fields; TypeError for any other name). The hot path
        of every card: ``dataclasses.replace`` costs several times as much."""
        return _evolve(self, **changes)


_evolve: Callable[..., Journey] = evolver(Journey)


# How a journey reads: pure functions of the state, used by travel.py and the game's views.


def next_place(state: State, j: Journey) -> tuple[int, int] | None:
    """The village the journey reaches next by road (R-TRAVEL-5), or None (G-8's open ring)."""
    counts = tuple(len(seat.villages) for seat in state.seats)
    return next_village(counts, j.seat, j.at, j.direction, state.options.ring_closed)


def village_of(state: State, place: tuple[int, int]) -> Village | None:
    """The village at ``(seat, slot)``, or None when there is none."""
    seat, slot = place
    if not 0 <= seat < len(state.seats):
        return None
    villages = state.seats[seat].villages
    return villages[slot - 1] if 0 < slot <= len(villages) else None


def hindering(j: Journey, place: tuple[int, int], village: Village) -> bool:
    """Whether the village's obstacle costs the traveller a card more (R-TRAVEL-9): it is not
    the traveller's and no escort protects the principality."""
    obstacle = village.obstacle
    return obstacle is not None and obstacle.owner != j.seat and j.escort != place[0]


def thief_due(j: Journey, place: tuple[int, int], village: Village) -> int | None:
    """The seat whose thief takes 2 gold at this visit (R-TRAVEL-7, G-3), or None: the village
    has no thief, it is the traveller's own, or an escort protects the principality."""
    thief = village.thief
    if thief is None or thief.owner == j.seat or j.escort == place[0]:
        return None
    return thief.owner


def own_visited(j: Journey) -> bool:
    """Whether a village of the traveller's own was visited this journey (R-TRAVEL-11)."""
    return any(v.seat == j.seat for v in j.visits)


def own_first_visited(j: Journey) -> bool:
    """Whether the traveller's own first village was visited this journey (R-TRAVEL-15)."""
    return any(v.seat == j.seat and v.slot == 1 for v in j.visits)


def village_words(seat: int, village: Village) -> str:
    """ "Bea's forest village (4)" (with a seat marker the table renders)."""
    return f"{seat_ref(seat)}'s {village.terrain} village ({village.value})"


def parse_place(answer: str) -> tuple[int, int] | None:
    """A ``teleport_to`` answer ``<seat>.<slot>`` as ``(seat, slot)``, or None."""
    seat, dot, slot = answer.partition(".")
    if not (dot and seat.isdigit() and slot.isdigit()):
        return None
    return int(seat), int(slot)


# The rule each prompt's answers are refused under when they are not among its options (the
# journey's own, R-TRAVEL-2, is a rule the table applies, not a refusal: an unknown answer to
# it is the platform's "nothing asked about that").
ANSWER_RULES = {"teleport_to": "R-TRAVEL-16", "pay": "R-TRAVEL-7"}


def answer_refusal(prompt: str) -> Rejected:
    """The refusal of an answer that is not among ``prompt``'s options now."""
    return Rejected(
        ANSWER_RULES.get(prompt, NO_PROMPT),
        "the table does not offer that answer now",
        "answer with one of the choices shown",
    )


def unpaid(j: Journey, put_back: str = "") -> Rejected:
    """Refused while a thief's payment waits for the traveller's ``pay`` (money: phones)."""
    who = seat_ref(j.seat)
    return Rejected(
        "R-TRAVEL-7",
        f"{who} has not yet confirmed the {j.pay_amount} gold for {seat_ref(j.pay_to)}'s thief",
        f"{put_back}{who} confirms the payment on the phone, or stops",
    )


def finish_move_first(j: Journey) -> Rejected:
    """Refused while a move is under way: its cards come first (R-TRAVEL-6)."""
    more = j.move_needed - len(j.move_cards)
    return Rejected(
        "R-TRAVEL-6",
        "a move is under way: its cards come first",
        f"take it back; finish the move: {more} more {type_name(j.move_type, more)}, or stop",
    )


def teleport_offered(state: State, j: Journey) -> bool:
    """``teleport`` is offered with the variant, between moves, after the own first village
    (R-TRAVEL-15): public facts only, never the purse."""
    return (
        state.options.teleport
        and own_first_visited(j)
        and not j.move_cards
        and not j.awaiting_pay
        and j.teleport == TELEPORT_NONE
    )


def ways_past_thief(state: State, j: Journey) -> str:
    """The ways on for a traveller who cannot pay a thief (G-4), each only when it applies."""
    ways = []
    if own_visited(j):
        ways.append("turn around")
    if teleport_offered(state, j):
        ways.append("teleport")
    return ", ".join([*ways, "or stop"]) if ways else "stop"


def _choosing(j: Journey) -> bool:
    return j.teleport == TELEPORT_CHOOSE or (j.teleport == TELEPORT_CARDS and not j.teleport_cards)


def journey_prompts(state: State) -> tuple[Prompt, ...]:
    """The open prompts of the journey: a thief's ``pay`` (``money: phones``), ``teleport_to``
    while the destination may be chosen, and ``journey`` (``stop``, ``teleport``) all along."""
    j = state.journey
    if j is None:
        return ()
    who = seat_ref(j.seat)
    out = []
    if j.awaiting_pay:
        question = f"{who} confirms on the phone: {j.pay_amount} gold to {seat_ref(j.pay_to)}"
        out.append(Prompt("pay", j.seat, question + " for the thief", ("pay",)))
    if _choosing(j):
        places = tuple(
            f"{s}.{k}"
            for s, seat in enumerate(state.seats)
            for k in range(1, len(seat.villages) + 1)
        )
        out.append(Prompt("teleport_to", j.seat, f"Where does {who} teleport to?", places))
    options = ("stop", "teleport") if teleport_offered(state, j) else ("stop",)
    question = f"{who}'s journey: lay the cards for the next village on the road pad, or stop"
    out.append(Prompt("journey", j.seat, question, options))
    return tuple(out)


def _waiting(state: State, j: Journey) -> str:
    who = seat_ref(j.seat)
    if j.awaiting_pay:
        owner = seat_ref(j.pay_to)
        return f"{who} confirms on the phone: {j.pay_amount} gold to {owner} for the thief"
    if j.teleport == TELEPORT_CHOOSE:
        return f"{who}'s journey: choose the village to teleport to, or stop"
    if j.teleport == TELEPORT_CARDS and j.teleport_to is not None:
        village = village_of(state, j.teleport_to)
        assert village is not None
        more = TELEPORT_CARDS_NEEDED - len(j.teleport_cards)
        where = village_words(j.teleport_to[0], village)
        return f"{who}'s journey: teleporting to {where}: {more} more travel cards, or stop"
    place = next_place(state, j)
    village = None if place is None else village_of(state, place)
    if place is None or village is None:
        return f"{who}'s journey: the way ends at the castle: turn around, or stop"
    where = village_words(place[0], village)
    if j.move_cards:
        more = j.move_needed - len(j.move_cards)
        return (
            f"{who}'s journey: next, {where}: {more} more {type_name(j.move_type, more)}, or stop"
        )
    needs = costs_words(village.terrain, hindering(j, place, village))
    return f"{who}'s journey: next, {where}: {needs}; or stop"


def journey_waiting(state: State, names: Sequence[str]) -> str:
    """What the table waits for in one plain line, with the players' names: "Ann's journey:
    next, Bea's forest village (4): 1 more unicorn, or stop". "" when no journey is under way."""
    j = state.journey
    return "" if j is None else render_seats(_waiting(state, j), names)


def _place(place: tuple[int, int] | None) -> dict[str, int] | None:
    return None if place is None else {"seat": place[0], "slot": place[1]}


def journey_view(state: State) -> dict[str, Any] | None:
    """The public view's ``journey`` (contract, "The public view"), None between journeys."""
    j = state.journey
    if j is None:
        return None
    place = next_place(state, j)
    village = None if place is None else village_of(state, place)
    nxt = None
    if place is not None and village is not None:
        costs = costs_for(village.terrain, hindering(j, place, village))
        nxt = {
            "seat": place[0],
            "slot": place[1],
            "terrain": village.terrain,
            "value": village.value,
            "costs": dict(costs),
        }
    move = None
    if j.move_type:
        move = {"type": j.move_type, "cards": list(j.move_cards), "needed": j.move_needed}
    teleport = None
    if j.teleport != TELEPORT_NONE:
        teleport = {
            "stage": j.teleport,
            "to": _place(j.teleport_to),
            "cards": list(j.teleport_cards),
        }
    return {
        "seat": j.seat,
        "at": _place(j.at),
        "direction": "clockwise" if j.direction == CLOCKWISE else "counterclockwise",
        "next": nxt,
        "move": move,
        "escort": None if j.escort == NO_SEAT else j.escort,
        "visits": [
            {
                "seat": v.seat,
                "slot": v.slot,
                "cards": list(v.cards),
                "thief": v.thief,
                "income": v.income,
                "gold_card": v.gold_card,
                "bonus": v.bonus,
                "teleport": v.teleport,
            }
            for v in j.visits
        ],
        "visited": len(j.visited),
        "villages": sum(len(seat.villages) for seat in state.seats),
        "bonus": j.bonus,
        "collected": j.collected,
        "paid": j.paid,
        "teleport": teleport,
    }
