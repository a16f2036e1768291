"""Guild masters in the intrigue phase (R-OPT-E-2, G-24, G-38): whether the actor's master
can be used now under ``master_limit``, and its use, which runs its ability
(abilities.resume) and is no action: the turn's one action is still to come.

Hazard: prompts.py decides when the ``master`` prompt shows; ``usable`` here is the rule the
answer is judged by, so the two must agree (both: the option, a master with an ability, not
spent under the limit).
"""

from __future__ import annotations

from scorekeeper.core.answering import NO_PROMPT
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref
from scorekeeper.games.arcana.abilities import ability_of, resume
from scorekeeper.games.arcana.lookup import seat_with
from scorekeeper.games.arcana.names import possessive, the_card
from scorekeeper.games.arcana.state import State, with_seat


def once(state: State, piece: str) -> bool:
    """Whether ``piece`` may be used once a round under ``master_limit``."""
    limit = state.options.master_limit
    card = state.card(piece)
    return limit == "once_per_round" or (
        limit == "by_card" and card is not None and card.once_per_round
    )


def usable(state: State, seat: int) -> bool:
    """Whether ``seat``'s guild master can be used now: with ``guild_masters``, on its turn
    with nothing open, an ability ``when: use``, not spent this round (the ``master``
    prompt's condition)."""
    one = state.seats[seat]
    if not state.options.guild_masters or not one.master or state.steps:
        return False
    if seat != state.active_seat:
        return False
    if ability_of(state, one.master, "use") is None:
        return False
    return not (one.master_used and once(state, one.master))


def spent(seat: int) -> Rejected:
    """R-OPT-E-2: ``seat``'s once-a-round master, turned sideways, asked to be used again."""
    return Rejected(
        "R-OPT-E-2",
        f"{possessive(seat)} guild master was used this round already: it is turned sideways "
        "until the next round",
        "play your turn without it; it can be used again next round",
    )


def use(state: State, seat: int) -> Accepted[State] | Rejected:
    """``master`` answered ``use``: the master's ability runs; it is no action (G-38)."""
    one = state.seats[seat]
    if one.master and one.master_used and once(state, one.master):
        return spent(seat)
    ability = ability_of(state, one.master, "use") if one.master else None
    if ability is None or not usable(state, seat):
        return Rejected(
            NO_PROMPT, "no guild master can be used now", "play an agent, a location or a card"
        )
    state = with_seat(state, seat, seat_with(one, master_used=True))
    state, lines = resume(state, seat, ability.effects, one.master)
    name = the_card(state.pack, one.master)
    return Accepted(state, (f"{seat_ref(seat)} uses {name}", *lines))
