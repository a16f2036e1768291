"""A journey of the travel phase, card by card (R-TRAVEL, docs/games/king-of-the-elves.md,
"Travel"): the cards laid on the road pad, the traveller's answers, and the gold that moves.

Called by the game's dispatcher while ``state.journey`` is set: ``on_road`` for a card on the
road pad, ``on_decision`` for the prompts ``journey``, ``teleport_to`` and a thief's ``pay``.
When the traveller stops, the state comes back with ``journey=None``, the journey in
``history`` and the seat's ``travelled=True``; rounds.py starts the next journey.

Every coin moves through ``ledger.move``; every purse check happens before anything moves, and
its refusal names an amount, never a balance. Spent cards go to the discard pile as they are
laid (they are tapped on their way there); an unfinished move's come back to the hand when the
traveller stops (G-25). The escort lies face up off the pads and reaches the pile when it ends.
"""

from __future__ import annotations

from scorekeeper.core.answering import NO_PROMPT
from scorekeeper.core.inputs import Decision
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.king_of_the_elves import ledger, piles
from scorekeeper.games.king_of_the_elves.cards import PLANNING_SPECIALS, TRAVEL_TYPES, card_type
from scorekeeper.games.king_of_the_elves.costs import a_card, cost, costs_words, type_name
from scorekeeper.games.king_of_the_elves.journey import (
    NO_SEAT,
    TELEPORT_CARDS,
    TELEPORT_CARDS_NEEDED,
    TELEPORT_CHOOSE,
    TELEPORT_NONE,
    TELEPORT_PRICE,
    THIEF_TAKES,
    Journey,
    Visit,
    answer_refusal,
    finish_move_first,
    hindering,
    next_place,
    own_visited,
    thief_due,
    unpaid,
    village_of,
    village_words,
    ways_past_thief,
)
from scorekeeper.games.king_of_the_elves.ledger import can_pay
from scorekeeper.games.king_of_the_elves.state import (
    BANK,
    JourneyRecord,
    State,
    evolve,
    purse_account,
    seat_with,
)
from scorekeeper.games.king_of_the_elves.teleport import teleport, teleport_to

Result = Accepted[State] | Rejected
BONUS = 10


def new_journey(state: State, seat: int) -> Journey:
    """The journey ``seat`` sets out on: at the castle, clockwise (R-TRAVEL-3)."""
    del state  # the journey starts the same whatever the table holds
    return Journey(seat=seat)


def on_road(state: State, card: str) -> Result:
    """Judge a card laid on the road pad during ``state.journey``: a travel card (a move or a
    teleport's), an escort or a turnaround. A card already counted changes nothing."""
    j = state.journey
    if j is None:
        return Rejected("R-TRAVEL-1", "no journey is under way", "keep it until the journeys")
    if card in j.spent or card in state.discarded:
        return Accepted(state)  # the same card seen again: lifted and laid, or read twice
    kind = card_type(card)
    who = seat_ref(j.seat)
    if kind in PLANNING_SPECIALS:
        return Rejected(
            "G-19",
            f"a {type_name(kind)} is laid while planning, not on a journey",
            "take it back; keep it for the next planning phase",
        )
    if kind == "village":
        return Rejected(
            "R-PLAN-3",
            "a village on the road pad",
            "take it back; villages are laid while planning",
        )
    if j.awaiting_pay:
        return unpaid(j, "take it back; ")
    if j.teleport == TELEPORT_CHOOSE:
        return Rejected(
            "R-TRAVEL-16",
            f"{who} has not yet chosen where to teleport",
            "take it back; choose the village first, or stop",
        )
    if state.seats[j.seat].hand <= 0:
        return Rejected(
            "R-TRAVEL-6",
            f"{who} holds no card by the table's count: that card came from somewhere else",
            "take it back to where it came from; stop, if no card is left",
        )
    if j.teleport == TELEPORT_CARDS:
        return _teleport_card(state, j, card, kind)
    if kind == "escort":
        return _escort(state, j, card)
    if kind == "turnaround":
        return _turnaround(state, j, card)
    if kind in TRAVEL_TYPES:
        return _move_card(state, j, card, kind)
    return Rejected("R-TRAVEL-6", "that is not a travel card", "take it back")


def _lay(state: State, seat: int, card: str, to_pile: bool = True) -> State:
    """The card leaves ``seat``'s hand (and lies on the discard pile, unless it is an escort,
    kept face up until it ends). One ``evolve``: this runs for every card. The caller adds
    the card to the journey's ``spent``."""
    seats = list(state.seats)
    seats[seat] = seat_with(seats[seat], hand=seats[seat].hand - 1)
    if not to_pile:
        return evolve(state, seats=tuple(seats))
    return evolve(
        state,
        seats=tuple(seats),
        discarded=state.discarded | {card},
        discard_pile=state.discard_pile + 1,
    )


def _move_card(state: State, j: Journey, card: str, kind: str) -> Result:
    """A travel card of a move (R-TRAVEL-6, R-TRAVEL-9, G-1): the first fixes the type and the
    count; the last completes the visit."""
    who = seat_ref(j.seat)
    place = next_place(state, j)
    if place is None:
        ways = "turn around, or stop" if own_visited(j) else "stop"
        return Rejected(
            "G-8",
            f"{who}'s way ends at {who}'s own castle (the ring is open): {ways}",
            f"take it back; {ways}",
        )
    village = village_of(state, place)
    assert village is not None
    where = village_words(place[0], village)
    if not j.move_cards:
        needed = cost(kind, village.terrain, hindering(j, place, village))
        if needed is None:
            surcharge = hindering(j, place, village)
            return Rejected(
                "R-TRAVEL-6",
                f"{a_card(kind)} cannot reach {where}, which needs "
                f"{costs_words(village.terrain, surcharge)}",
                f"take it back; the {village.terrain} village needs "
                f"{costs_words(village.terrain, surcharge)}",
            )
        thief = thief_due(j, place, village)
        if thief is not None and not can_pay(state, j.seat, THIEF_TAKES):
            return Rejected(
                "R-TRAVEL-7",
                f"{who} cannot pay the {THIEF_TAKES} gold {seat_ref(thief)}'s thief takes "
                f"at {where}, and no village is skipped: {ways_past_thief(state, j)}",
                f"take it back; {ways_past_thief(state, j)}",
            )
        move_cards: tuple[str, ...] = ()
        move_type, move_needed = kind, needed
    elif kind == j.move_type:
        move_type, move_cards, move_needed = kind, j.move_cards, j.move_needed
    else:
        more = j.move_needed - len(j.move_cards)
        laid = len(j.move_cards)
        return Rejected(
            "G-1",
            f"one move is made with one type: this one with {type_name(j.move_type, 2)}",
            f"take it back; lay {more} more {type_name(j.move_type, more)}, or stop "
            f"(the {type_name(j.move_type, laid)} {'goes' if laid == 1 else 'go'} back "
            "to your hand)",
        )
    state = _lay(state, j.seat, card)
    j = j.with_(
        move_type=move_type,
        move_cards=(*move_cards, card),
        move_needed=move_needed,
        spent=(*j.spent, card),
    )
    more = j.move_needed - len(j.move_cards)
    if more > 0:
        line = f"{who} lays {a_card(kind)} for {where}: {more} more"
        return Accepted(evolve(state, journey=j), (line,))
    return _arrive(state, j, place, j.move_cards, teleport=False)


def _escort(state: State, j: Journey, card: str) -> Result:
    """An escort, played as the traveller enters a principality (R-TRAVEL-10, G-6)."""
    who = seat_ref(j.seat)
    if j.move_cards:
        return finish_move_first(j)
    place = next_place(state, j)
    if place is None:
        return Rejected(
            "R-TRAVEL-10", "no principality lies ahead", "take it back; turn around, or stop"
        )
    entering = place[0] != (j.seat if j.at is None else j.at[0])
    if j.at is None:
        allowed = entering or state.options.own_principality_is_entered
    else:
        allowed = entering or state.options.escort_mid_principality
    if not allowed:
        return Rejected(
            "R-TRAVEL-10",
            "an escort is played on entering a principality, not inside one",
            "take it back; play it just before entering the next principality",
        )
    if j.escort == place[0]:
        return Rejected(
            "R-TRAVEL-10",
            f"an escort already protects {who} in {seat_ref(place[0])}'s principality",
            "take it back; play it just before entering the next principality",
        )
    return _take_escort(state, j, card, place[0])


def _take_escort(state: State, j: Journey, card: str, seat: int) -> Result:
    """Lay ``card`` as the escort of ``seat``'s principality; one protecting another ends."""
    state, j = _end_escort(state, j)
    state = _lay(state, j.seat, card, to_pile=False)
    j = j.with_(escort=seat, escort_card=card, spent=(*j.spent, card))
    who = seat_ref(j.seat)
    line = f"{who}'s escort guards the way through {seat_ref(seat)}'s principality"
    return Accepted(evolve(state, journey=j), (line,))


def _end_escort(state: State, j: Journey) -> tuple[State, Journey]:
    """The escort, if any, goes to the discard pile (R-TRAVEL-10, G-7)."""
    if j.escort == NO_SEAT:
        return state, j
    state = piles.to_discard(state, (j.escort_card,))
    return state, j.with_(escort=NO_SEAT, escort_card="")


def _turnaround(state: State, j: Journey, card: str) -> Result:
    """A turnaround between two moves, once an own village was visited (R-TRAVEL-11, G-24)."""
    if j.move_cards:
        return finish_move_first(j)
    if not own_visited(j):
        return Rejected(
            "R-TRAVEL-11",
            "a turnaround is played only after reaching one's own first village on the journey",
            "take it back; reach your first village first",
        )
    state = _lay(state, j.seat, card)
    j = j.with_(direction=-j.direction, spent=(*j.spent, card))
    line = f"{seat_ref(j.seat)} turns around"
    return Accepted(evolve(state, journey=j), (line,))


def _teleport_card(state: State, j: Journey, card: str, kind: str) -> Result:
    """A card of a teleport (R-TRAVEL-16, G-20): an escort for the destination before the
    first, then any 4 travel cards (the purse was checked when the destination was chosen)."""
    assert j.teleport_to is not None
    place = j.teleport_to
    village = village_of(state, place)
    assert village is not None
    if kind == "escort" and not j.teleport_cards:
        if j.escort == place[0]:
            return Rejected(
                "R-TRAVEL-10",
                f"an escort already protects {seat_ref(j.seat)} in "
                f"{seat_ref(place[0])}'s principality",
                "take it back; lay the 4 travel cards of the teleport",
            )
        return _take_escort(state, j, card, place[0])
    if kind not in TRAVEL_TYPES:
        return Rejected(
            "G-20",
            f"only travel cards pay for a teleport, not {a_card(kind)}",
            "take it back; use 4 travel cards",
        )
    state = _lay(state, j.seat, card)
    j = j.with_(teleport_cards=(*j.teleport_cards, card), spent=(*j.spent, card))
    more = TELEPORT_CARDS_NEEDED - len(j.teleport_cards)
    if more > 0:
        line = f"{seat_ref(j.seat)} lays {a_card(kind)} for the teleport: {more} more"
        return Accepted(evolve(state, journey=j), (line,))
    return _arrive(state, j, place, j.teleport_cards, teleport=True)


def _arrive(
    state: State, j: Journey, place: tuple[int, int], cards: tuple[str, ...], teleport: bool
) -> Result:
    """The move's last card is down: the visit completes, or with ``money: phones`` a thief's
    2 gold wait for the traveller's ``pay`` first."""
    village = village_of(state, place)
    assert village is not None
    thief = thief_due(j, place, village)
    if thief is not None and state.options.money == "phones":
        j = j.with_(pay_to=thief, pay_amount=THIEF_TAKES)
        who = seat_ref(j.seat)
        line = (
            f"{who} reaches {village_words(place[0], village)}: {THIEF_TAKES} gold to "
            f"{seat_ref(thief)} for the thief, which {who} confirms on the phone"
        )
        return Accepted(evolve(state, journey=j), (line,))
    return _visit(state, j, place, cards, teleport)


def _visit(
    state: State, j: Journey, place: tuple[int, int], cards: tuple[str, ...], teleport: bool
) -> Result:
    """The visit, in the contract's order: the teleport's 3 gold, the thief, the income, the
    gold card, the bonus (R-TRAVEL-7, -8, -13, -16; G-2, G-3, G-4, G-17, G-18)."""
    village = village_of(state, place)
    assert village is not None
    t = j.seat
    who, mine = seat_ref(t), purse_account(t)
    where = village_words(place[0], village)
    # A visit confirmed with ``pay`` was announced when its last card came.
    lines = (
        [] if j.awaiting_pay else [f"{who} reaches {where}" + (" by teleport" if teleport else "")]
    )
    paid_teleport = TELEPORT_PRICE if teleport else 0
    if teleport:
        state = ledger.move(state, mine, BANK, TELEPORT_PRICE, "teleport", f"teleport to {where}")
        lines.append(f"{who} pays the bank {TELEPORT_PRICE} gold for the teleport")
    thief = thief_due(j, place, village)
    paid_thief = 0
    if thief is not None:
        state = ledger.move(
            state, mine, purse_account(thief), THIEF_TAKES, "thief",
            f"{seat_ref(thief)}'s thief at {where}",
        )  # fmt: skip
        paid_thief = THIEF_TAKES
        lines.append(f"{who} pays {seat_ref(thief)} {THIEF_TAKES} gold for the thief")
    income = village.value
    state = ledger.move(state, BANK, mine, income, "village", where)
    doubled = village.gold is not None and village.gold.owner == t
    gold_card = income if doubled else 0
    if doubled:
        state = ledger.move(
            state,
            BANK,
            mine,
            gold_card,
            "gold_card",
            f"{who}'s gold card at {where}",
        )
    lines.append(
        f"The bank pays {who} {income + gold_card} gold"
        + (f" ({income}, doubled by {who}'s gold card)" if doubled else "")
    )
    visited = j.visited | {village.card}
    bonus = 0
    if not j.bonus and visited >= _all_village_cards(state):
        bonus = BONUS
        state = ledger.move(
            state,
            BANK,
            mine,
            BONUS,
            "bonus",
            "every village visited on a journey",
        )
        lines.append(f"{who} has visited every village: the bank pays {who} {BONUS} gold more")
    if j.escort != NO_SEAT and j.escort != place[0]:
        state, j = _end_escort(state, j)  # left (or teleported out of) its principality
        lines.append(f"{who}'s escort is discarded")
    visit = Visit(
        seat=place[0], slot=place[1], village=village.card, cards=cards,
        thief=paid_thief, thief_owner=NO_SEAT if thief is None else thief, income=income,
        gold_card=gold_card, bonus=bonus, teleport=paid_teleport,
    )  # fmt: skip
    j = j.with_(
        at=place, move_type="", move_cards=(), move_needed=0, visits=(*j.visits, visit),
        visited=visited, bonus=j.bonus or bonus > 0, collected=j.collected + income + gold_card
        + bonus, paid=j.paid + paid_thief + paid_teleport, teleport=TELEPORT_NONE,
        teleport_to=None, teleport_cards=(), pay_to=NO_SEAT, pay_amount=0,
    )  # fmt: skip
    return Accepted(evolve(state, journey=j), tuple(lines))


def _all_village_cards(state: State) -> frozenset[str]:
    return frozenset(v.card for seat in state.seats for v in seat.villages)


def on_decision(state: State, decision: Decision) -> Result:
    """Judge the traveller's answer to ``journey`` (``stop``, ``teleport``), ``teleport_to``
    (``<seat>.<slot>``) or a thief's ``pay``. The caller has matched the prompt and the seat;
    an answer not offered now is refused here with its prompt's rule."""
    prompt, answer = decision.prompt, decision.answer
    j = state.journey
    if j is None:
        return Rejected(NO_PROMPT, "no journey is under way", "wait for the journeys")
    if prompt == "journey" and answer == "stop":
        return stop(state)
    if prompt == "journey" and answer == "teleport":
        return teleport(state, j)
    if prompt == "teleport_to":
        return teleport_to(state, j, answer)
    if prompt == "pay" and answer == "pay" and j.awaiting_pay:
        place = j.teleport_to if j.teleport_to is not None else next_place(state, j)
        assert place is not None
        cards = j.teleport_cards or j.move_cards
        return _visit(state, j, place, cards, teleport=bool(j.teleport_cards))
    return answer_refusal(prompt)


def stop(state: State) -> Result:
    """``journey stop`` (R-TRAVEL-2): the journey ends. An unfinished move's cards go back to
    the hand (G-25), the escort to the discard pile (G-7); the journey goes to ``history``."""
    j = state.journey
    assert j is not None
    who = seat_ref(j.seat)
    lines = []
    back = j.move_cards + j.teleport_cards
    if back:
        seats = list(state.seats)
        seats[j.seat] = seat_with(seats[j.seat], hand=seats[j.seat].hand + len(back))
        state = evolve(
            state,
            seats=tuple(seats),
            discarded=state.discarded - set(back),
            discard_pile=state.discard_pile - len(back),
        )
        j = j.with_(spent=tuple(c for c in j.spent if c not in back))
        lines.append(f"{who} takes the {len(back)} cards of the unfinished move back into the hand")
    state, j = _end_escort(state, j)
    record = JourneyRecord(
        round=state.round,
        seat=j.seat,
        visits=len(j.visits),
        cards=len(j.spent),
        collected=j.collected,
        paid=j.paid,
        bonus=j.bonus,
    )
    lines.insert(0, f"{who} ends the journey: {j.collected} gold from the bank, {j.paid} gold paid")
    seats = list(state.seats)
    seats[j.seat] = seat_with(seats[j.seat], travelled=True)
    state = evolve(state, seats=tuple(seats), journey=None, history=(*state.history, record))
    return Accepted(state, tuple(lines))
