"""Whose turn it is in the intrigue phase and when a turn ends (R-INT-1, G-12).

An action is complete at one of the contract's turn ends ("Details the referee settles"): an
agent's arrival, a relic's after its answers, a discard, a location's ``discard`` or its
ability's last step, a watch card's arrival. A chain of steps that is an action carries
``END`` as its last effect (``Step.effects``), so whichever answer or arrival finishes it ends
the action; a guild master's use (G-38) and a watch called on top of the action
(``watch_call: extra``) carry none.
"""

from __future__ import annotations

from scorekeeper.games.arcana.cards import Effect
from scorekeeper.games.arcana.state import State, evolve

END = Effect("end_action")
"""The internal last effect of an action's chain: when it runs, the action is over. Not a
word of the pack's vocabulary (pack.py never accepts it)."""


def next_actor(state: State) -> State:
    """The turn passes clockwise to the next seat with cards in hand, the actor itself last
    (G-12: a seat with the only cards left plays on); ``actions`` back to 1. With every hand
    empty the actor stays and rounds.after_intrigue begins the results."""
    count = len(state.seats)
    for k in range(1, count + 1):
        seat = (state.active_seat + k) % count
        if state.seats[seat].hand > 0:
            return evolve(state, active_seat=seat, actions=1)
    return evolve(state, actions=1)


def end_action(state: State) -> State:
    """The actor's action is done: it takes another if an ability gave it one and it still
    has cards (``extra_action``), else the turn passes (``next_actor``)."""
    left = state.actions - 1
    if left > 0 and state.seats[state.active_seat].hand > 0:
        return evolve(state, actions=left)
    return next_actor(state)


def settle(state: State) -> State:
    """After something that is not an action (a guild master's use, an extra watch call):
    an actor left with no cards and nothing open passes the turn."""
    if not state.steps and state.seats[state.active_seat].hand == 0:
        return next_actor(state)
    return state
