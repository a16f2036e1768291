"""Arcana's rounds: the draw at a round's start (R-ROUND-2, G-21, G-37), the events (R-OPT-F),
the stakes turned up on their pads (R-SETUP-6, R-EOR-2, R-END-1), the step from the intrigue
phase to the results (R-RES-1), the end of a round (R-EOR) and of the game (R-END).

Between two rounds the phase stays ``results`` with every district settled while any district
awaits its next stake: the next round starts (the draw is unseen) once every awaited stake is
seen. A stake may be seen as soon as its district awaits it, during the results too.

Hazard: the cards a draw puts in a hand are named only in the seat's own view (G-37).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana.cards import EVENT, PRINCES_GAMES_CARD, STAKE_TYPES
from scorekeeper.games.arcana.lookup import elsewhere
from scorekeeper.games.arcana.names import card_name, district_words, the_card
from scorekeeper.games.arcana.princes import event_order, neutral_order
from scorekeeper.games.arcana.state import (
    INTRIGUE,
    NEUTRAL,
    OVER,
    RESULTS,
    District,
    State,
    evolve,
    with_district,
    with_seat,
)

DRAW = 4
"""Cards each seat draws at the start of a round (R-ROUND-2)."""

Outcome = Accepted[State] | Rejected


def unseen(state: State, seat: int) -> frozenset[str]:
    """What ``seat``'s deck and hand hold together: what it owns less what is in sight
    (G-37, lookup.elsewhere)."""
    return state.seats[seat].owned - elsewhere(state, seat)


def draw(state: State, seat: int, n: int) -> State:
    """``seat`` draws ``n`` cards, unseen: hand +n, deck −n; a deck short of ``n`` gives what it
    has, the discard pile becomes the deck and the rest is drawn from it (G-21; fewer when the
    pile too runs out). When a draw empties the deck every card of the hand is known
    (``hand_known``, G-37); the referee never guesses which unseen card was drawn."""
    mine = state.seats[seat]
    known = mine.hand_known if mine.hand else frozenset()
    take = min(n, mine.deck)
    hand, deck, discard = mine.hand + take, mine.deck - take, mine.discard
    if take and deck == 0:
        known = unseen(state, seat)
    rest = n - take
    if rest > 0 and discard:
        deck, discard = len(discard), ()
        state = with_seat(state, seat, replace(mine, discard=()))
        more = min(rest, deck)
        hand, deck = hand + more, deck - more
        if deck == 0:
            known = unseen(state, seat)
    new = replace(mine, hand=hand, deck=deck, discard=discard, hand_known=known)
    return with_seat(state, seat, new)


def capital(text: str) -> str:
    """``text`` with a capital first letter, the rest unchanged ("District B", not "District
    b" as ``str.capitalize`` would give)."""
    return text[:1].upper() + text[1:]


def first_actor(state: State, start: int) -> int:
    """The first seat clockwise from ``start`` (itself included) with cards in hand (G-12);
    ``start`` when every hand is empty."""
    n = len(state.seats)
    for k in range(n):
        s = (start + k) % n
        if state.seats[s].hand > 0:
            return s
    return start


def event_draw(state: State) -> int:
    """The cards every seat draws more at the start of this round for the event in effect: its
    ``draw`` effects (``when: round``; the pack refuses a condition on them), 0 without."""
    events = state.events
    card = state.card(events.now) if events is not None and events.now else None
    ability = card.ability if card is not None else None
    if ability is None or ability.when != "round":
        return 0
    return sum(int(e.get("n", 0) or 0) for e in ability.effects if e.kind == "draw")


def start_round(state: State) -> tuple[State, tuple[str, ...]]:
    """The next round: every seat draws 4 (G-21, G-37), masters turned back (R-OPT-E-2); with
    ``events`` the face-up event moves to the centre, the one before is discarded (R-OPT-F-2,
    G-25), every seat draws more when it says so (``draw``, after the 4, from the first
    player on; G-21, G-37) and the next is awaited on the event pad; without, the Prince's
    Games card on the neutral district makes this round the last (R-END-1). The intrigue
    phase begins with the first player (R-INT-1)."""
    number = state.round + 1
    lines: list[str] = []
    final = state.final_round
    events = state.events
    if events is not None and events.next:
        old = (events.now,) if events.now else ()
        events = replace(events, now=events.next, next="", discarded=(*events.discarded, *old))
        lines.append(f"The event {card_name(state.pack, events.now)} is in effect this round")
    elif events is None and state.district(NEUTRAL).stake == PRINCES_GAMES_CARD:
        final = True
    districts = tuple(d if not d.resolved else replace(d, resolved=False) for d in state.districts)
    state = evolve(
        state,
        round=number,
        phase=INTRIGUE,
        final_round=final,
        districts=districts,
        events=events,
        steps=(),
        resolution=None,
        actions=1,
    )
    for s, seat in enumerate(state.seats):
        if seat.master_used:
            state = with_seat(state, s, replace(seat, master_used=False))
        state = draw(state, s, DRAW)
    extra = event_draw(state)
    if extra:
        # The event's draw comes after the draw of 4, seat by seat from the first player.
        n = len(state.seats)
        for k in range(n):
            state = draw(state, (state.first_seat + k) % n, extra)
        now = card_name(state.pack, state.events.now if state.events else "")
        lines.append(f"Everyone draws {extra} more for the event {now}")
    state = evolve(state, active_seat=first_actor(state, state.first_seat))
    head = f"Round {number} begins" + (": the last round" if final else "")
    lines.insert(0, f"{head}. Everyone draws 4; {seat_ref(state.first_seat)} plays first")
    if events is not None and not events.next and events.left > 0:
        lines.append("Turn up the next event on the event pad")
    if not any(s.hand for s in state.seats):
        # Nobody could draw (every card lies at a district): straight to the results, when
        # there is a district to settle (else the table waits for the organiser).
        from scorekeeper.games.arcana import results

        if results.candidates(evolve(state, phase=RESULTS)):
            state, more = after_intrigue(state)
            lines += more
    return state, tuple(lines)


def observe_stake(state: State, did: str, piece: str) -> Outcome:
    """A stake turned up on district ``did``'s pad while the district awaits one (setup, the end
    of a round, after a win): it shows, and its pile is one smaller. The Prince's Games card may
    come up only on the neutral district, without ``events`` (R-SETUP-5, R-END-1). A stake
    already shown there changes nothing. Between rounds, the last awaited stake starts the next
    round (``between_rounds``). Refusals name no card: a wrong one may have come from a hand."""
    try:
        district = state.district(did)
    except KeyError:
        return Rejected(
            "R-SETUP-6",
            f"this table has no {district_words(did)}",
            "turn up stakes only at the table's districts",
        )
    if district.stake == piece:
        return Accepted(state)
    card = state.card(piece)
    is_pg = piece == PRINCES_GAMES_CARD
    if not is_pg and (card is None or card.type not in STAKE_TYPES):
        return Rejected(
            "R-SETUP-6",
            "that card is no stake card",
            f"only the top card of {district_words(did)}'s pile goes on its stake pad",
        )
    known = any(piece in s.owned for s in state.seats) or any(
        d.stake == piece for d in state.districts
    )
    if known:
        return Rejected(
            "R-SETUP-6",
            f"that card is not in {district_words(did)}'s pile",
            f"put it back; turn up the top card of {district_words(did)}'s pile",
        )
    if is_pg and (did != NEUTRAL or state.options.events):
        return Rejected(
            "R-SETUP-6",
            f"the Prince's Games card is not in {district_words(did)}'s pile",
            "put it back where it came from",
        )
    if not district.awaiting or district.pile <= 0:
        shown = the_card(state.pack, district.stake) if district.stake else "no new stake"
        return Rejected(
            "R-SETUP-6",
            f"{district_words(did)} already shows its stake ({shown})",
            f"take the card off {district_words(did)}'s stake pad",
        )
    early = neutral_order(state, district, is_pg)
    if early is not None:
        return early
    new = District(
        district.id,
        district.friends,
        piece,
        district.pile - 1,
        district.agents,
        awaiting=False,
        resolved=district.resolved,
    )
    state = with_district(state, new)
    if is_pg:
        line = "The Prince's Games card comes up on the neutral district: no stake there now"
    else:
        line = f"{capital(district_words(did))}'s stake: {the_card(state.pack, piece)}"
    return between_rounds(state, (line,))


def observe_event(state: State, piece: str) -> Outcome:
    """An event (or the Prince's Games card) turned up on the event pad while one is awaited
    (R-OPT-F-1, R-OPT-F-2). The Prince's Games card makes this round the last (R-OPT-F-3);
    in setup it cannot come up (it lies 10th to 13th). Refusals name no card: a wrong one may
    have come from a hand."""
    events = state.events
    card = state.card(piece)
    is_pg = piece == PRINCES_GAMES_CARD
    if events is None:
        return Rejected(
            "R-OPT-F-1", "this table plays without events", "put the card back in the box"
        )
    if piece in (events.next, events.now) or piece in events.discarded:
        return Accepted(state)
    if not is_pg and (card is None or card.type != EVENT):
        return Rejected(
            "R-OPT-F-1",
            "that card is not from the event deck",
            "only the event deck's top card goes on the event pad",
        )
    if events.next or events.left <= 0:
        return Rejected(
            "R-OPT-F-1",
            f"the next event is already face up ({card_name(state.pack, events.next)})"
            if events.next
            else "the event deck is spent",
            "take the card off the event pad",
        )
    early = event_order(events, is_pg)
    if early is not None:
        return early
    state = evolve(state, events=replace(events, next=piece, left=events.left - 1))
    if is_pg:
        state = evolve(state, final_round=True)
        return Accepted(state, ("The Prince's Games card comes up: this round is the last",))
    return Accepted(state, (f"Next round's event: {card_name(state.pack, piece)}",))


def after_intrigue(state: State) -> tuple[State, tuple[str, ...]]:
    """Called after every accepted input: when the intrigue phase has nothing open and every
    hand is empty, the results phase begins with the first player choosing a district
    (R-RES-1); with no district to settle the round ends at once. Anything else: unchanged."""
    if state.phase != INTRIGUE or state.steps or any(s.hand for s in state.seats):
        return state, ()
    from scorekeeper.games.arcana import results

    state = evolve(state, phase=RESULTS, active_seat=state.first_seat, resolution=None)
    line = "Every hand is empty: the results"
    if not results.candidates(state):
        state, more = end_round(state)
        return state, (line, *more)
    return state, (f"{line}. {seat_ref(state.first_seat)} chooses the first district",)


def round_ended(state: State) -> bool:
    """Whether the results are all in and the round has ended (R-EOR-1), the table only waiting
    for stakes to turn up before the next round."""
    if state.phase != RESULTS or state.steps or state.resolution is not None:
        return False
    from scorekeeper.games.arcana import results

    return not results.candidates(state)


def between_rounds(state: State, lines: tuple[str, ...]) -> Outcome:
    """``state`` accepted with ``lines``; once the round has ended and no district awaits its
    stake any more, the next round starts."""
    if round_ended(state) and not any(d.awaiting for d in state.districts):
        state, more = start_round(state)
        return Accepted(state, (*lines, *more))
    return Accepted(state, lines)


def end_round(state: State) -> tuple[State, tuple[str, ...]]:
    """The end of a round (R-EOR): watch cards back to the watch deck (R-OPT-D-4), each district
    whose stake was won awaits its next (R-EOR-2; a spent pile leaves it empty, G-5), the first
    player passes left (R-EOR-3). After the last round the game is over (R-END-2 … 4). With no
    stake awaited the next round starts at once."""
    lines: list[str] = []
    back = 0
    districts: list[District] = []
    for d in state.districts:
        keep = tuple(p for p in d.agents if not p.watch)
        back += len(d.agents) - len(keep)
        for p in d.agents:  # a relic on a watch card goes to its owner's pile, not the box
            if p.watch and p.relics:
                mine = state.seats[p.owner]
                state = with_seat(state, p.owner, replace(mine, discard=(*mine.discard, *p.relics)))
        # After the last round no stake is turned up any more: nothing is awaited.
        waits = (d.awaiting or (d.stake is None and d.pile > 0)) and not state.final_round
        # Every district counts as settled until the next round starts: a stake turned up
        # now is next round's (R-EOR-2), never one more result this round.
        districts.append(replace(d, agents=keep, awaiting=waits, resolved=True))
    state = evolve(state, districts=tuple(districts), watch_deck=state.watch_deck + back)
    if back:
        lines.append(f"The watch goes home: {back} watch card{'s' if back > 1 else ''} back")
    if state.final_round:
        state, more = game_over(state)
        return state, (*lines, *more)
    first = (state.first_seat + 1) % len(state.seats)
    state = evolve(state, first_seat=first, active_seat=first, resolution=None, steps=())
    lines.append(f"The round is over; {seat_ref(first)} is the first player now")
    waiting = [district_words(d.id) for d in state.districts if d.awaiting]
    if waiting:
        lines.append("Turn up the next stake of " + ", ".join(waiting))
        return state, tuple(lines)
    state, more = start_round(state)
    return state, (*lines, *more)


def game_over(state: State) -> tuple[State, tuple[str, ...]]:
    """The end of the game (R-END-2 … 4, G-8, G-27): the final scores and the winners."""
    from scorekeeper.games.arcana import scoring

    scores = scoring.final(state)
    winners = scoring.winners(scores)
    state = evolve(state, phase=OVER, winners=winners, steps=(), resolution=None)
    parts = [f"{seat_ref(s)} {score.vp} VP" for s, score in enumerate(scores)]
    names = " and ".join(seat_ref(s) for s in winners)
    verb = "wins" if len(winners) == 1 else "share the win"
    return state, (f"The game is over: {', '.join(parts)}. {names} {verb}",)
