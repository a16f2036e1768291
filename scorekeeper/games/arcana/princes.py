"""Where the Prince's Games card lies, and so when it may come up (R-SETUP-5, R-OPT-F-1): 8th to
13th of the neutral pile (shuffled among its bottom five), or with ``events`` 10th to 13th of
the event deck (among its last four). A card turned up out of that order is refused, the Prince's
Games card too early, any other card once only the Prince's Games card can be left.

Used by rounds.py (setup, between rounds, the event pad) and award.py (a neutral stake turned up
after an immediate win). Refusals name no card: a wrong one may have come from a hand.
"""

from __future__ import annotations

from scorekeeper.core.outcomes import Rejected
from scorekeeper.games.arcana.cards import EVENTS
from scorekeeper.games.arcana.state import NEUTRAL, District, Events, State

NEUTRAL_PILE = 13
"""The neutral pile with the Prince's Games card among its bottom five (R-SETUP-5)."""
NEUTRAL_FIRST_PG = 8
"""The Prince's Games card lies 8th to 13th from the top of the neutral pile (R-SETUP-5)."""
EVENT_FIRST_PG = 10
"""It lies 10th to 13th in the event deck of 12 events and itself (R-OPT-F-1)."""


def neutral_order(state: State, district: District, is_pg: bool) -> Rejected | None:
    """R-SETUP-5: a card turned up on the neutral pile out of the Prince's Games card's order:
    the card itself before the 8th (it lies among the bottom five), or any other card when
    only the Prince's Games card can be left (the pile's last card). None when in order, or
    for another district or a table with ``events`` (no Prince's Games card in the pile)."""
    if district.id != NEUTRAL or state.options.events:
        return None
    place = NEUTRAL_PILE - district.pile + 1  # this card's place from the top of the pile
    if is_pg and place < NEUTRAL_FIRST_PG:
        return Rejected(
            "R-SETUP-5",
            "the Prince's Games card lies among the bottom five of the neutral pile: it "
            "cannot come up yet",
            "put it back and turn up the top card of the neutral pile",
        )
    if not is_pg and district.pile == 1:
        return Rejected(
            "R-SETUP-5",
            "the neutral pile's last card is the Prince's Games card: that card cannot be in it",
            "put it back and turn up the Prince's Games card",
        )
    return None


def event_order(events: Events, is_pg: bool) -> Rejected | None:
    """R-OPT-F-1: a card turned up on the event pad out of the Prince's Games card's order: the
    card itself before the 10th (after 9 events), or an event when the Prince's Games card is
    the deck's last card. ``events.left`` counts the face-down cards, the Prince's Games
    card among them until it comes up."""
    place = len(EVENTS) + 1 - events.left + 1  # this card's place in the event deck
    if is_pg and place < EVENT_FIRST_PG:
        return Rejected(
            "R-OPT-F-1",
            "the Prince's Games card lies among the event deck's last four: it cannot come up "
            f"before 9 events have (this would be card {place})",
            "put it back and turn up the top card of the event deck",
        )
    if not is_pg and events.left == 1:
        return Rejected(
            "R-OPT-F-1",
            "the event deck's last card is the Prince's Games card: that card cannot be in it",
            "put it back and turn up the Prince's Games card",
        )
    return None
