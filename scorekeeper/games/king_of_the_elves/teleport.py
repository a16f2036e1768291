"""A teleport's answers (the variant, R-TRAVEL-15 ... 18, G-20): ``journey teleport`` and the
destination, ``teleport_to``, each checked before anything moves. Its 4 cards, the 3 gold and the
visit are the journey's (travel.py)."""

from __future__ import annotations

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.king_of_the_elves.journey import (
    TELEPORT_CARDS,
    TELEPORT_CARDS_NEEDED,
    TELEPORT_CHOOSE,
    TELEPORT_NONE,
    TELEPORT_PRICE,
    THIEF_TAKES,
    Journey,
    answer_refusal,
    finish_move_first,
    own_first_visited,
    parse_place,
    thief_due,
    unpaid,
    village_of,
    village_words,
)
from scorekeeper.games.king_of_the_elves.ledger import can_pay
from scorekeeper.games.king_of_the_elves.state import State, evolve

Result = Accepted[State] | Rejected


def teleport(state: State, j: Journey) -> Result:
    """``journey teleport`` (R-TRAVEL-15, R-TRAVEL-16): the destination is asked next."""
    who = seat_ref(j.seat)
    if not state.options.teleport:
        return Rejected(
            "R-TRAVEL-15", "teleporting is not played at this table", "go on by road, or stop"
        )
    if j.move_cards:
        return finish_move_first(j)
    if j.awaiting_pay:
        return unpaid(j)
    if j.teleport != TELEPORT_NONE:
        return Rejected(
            "R-TRAVEL-16", f"{who} is teleporting already", "choose the village, or stop"
        )
    if not own_first_visited(j):
        return Rejected(
            "R-TRAVEL-15",
            f"{who} may teleport only after visiting {who}'s own first village on this journey",
            "reach your first village first",
        )
    if not can_pay(state, j.seat, TELEPORT_PRICE):
        return Rejected(
            "R-TRAVEL-16",
            f"{who} cannot pay the {TELEPORT_PRICE} gold a teleport costs: go on by road, or stop",
            "go on by road, or stop",
        )
    j = j.with_(teleport=TELEPORT_CHOOSE)
    return Accepted(evolve(state, journey=j), (f"{who} teleports: where to is asked next",))


def teleport_to(state: State, j: Journey, answer: str) -> Result:
    """``teleport_to``: the destination, any village on the table (G-20); it may be chosen
    again until the first of the 4 cards is laid. The purse is checked now for the 3 gold, and
    the 2 a thief there takes unless an escort already protects its principality: an escort
    played after this answer cannot lower the price (contract, "Travel")."""
    if j.teleport == TELEPORT_NONE or j.teleport_cards:
        return answer_refusal("teleport_to")
    place = parse_place(answer)
    village = None if place is None else village_of(state, place)
    if place is None or village is None:
        return Rejected(
            "R-TRAVEL-16", "there is no village there", "choose a village on the table, or stop"
        )
    thief = thief_due(j, place, village)
    price = TELEPORT_PRICE + (THIEF_TAKES if thief is not None else 0)
    if not can_pay(state, j.seat, price):
        what = f"the {TELEPORT_PRICE} gold of the teleport"
        if thief is not None:
            what += f" and the {THIEF_TAKES} gold {seat_ref(thief)}'s thief takes there"
        return Rejected(
            "R-TRAVEL-16",
            f"{seat_ref(j.seat)} cannot pay {what}: choose another village, or stop",
            "choose another village, or stop",
        )
    j = j.with_(teleport=TELEPORT_CARDS, teleport_to=place)
    line = (
        f"{seat_ref(j.seat)} teleports to {village_words(place[0], village)}: "
        f"{TELEPORT_CARDS_NEEDED} travel cards on the road pad"
    )
    return Accepted(evolve(state, journey=j), (line,))
