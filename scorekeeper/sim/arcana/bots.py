"""The Arcana bots: seeded, legal and roughly sensible choices for every decision.

The world asks a bot only among legal options (it passes them in, already checked against the
rules); the bots add the randomness that makes many seeds cover every action, ability and
option of the contract (docs/games/arcana.md): they send agents where their values reach the
stake's threshold, favour the neutral district (so that its pile runs down and the Prince's
Games card comes up), bribe when a relic wins a citizen, use locations and masters, call the
watch, and set stakes aside now and then.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.sim.draws import pick as pick
from scorekeeper.sim.draws import weighted as weighted


@dataclass(frozen=True, slots=True)
class Temper:
    """How eagerly the bots take each kind of action (weights and probabilities)."""

    agent: float = 3.0
    """Weight of sending an agent (scaled by how much it helps at the district)."""
    neutral: float = 2.5
    """Extra weight for the neutral district (its stakes bring the game's end nearer)."""
    bribe: float = 6.0
    """Weight of a relic that wins a citizen at once; a bribe that falls short weighs less."""
    short_bribe: float = 0.4
    location: float = 2.0
    """Weight of playing a location for its ability (when it can be carried out)."""
    discard: float = 0.3
    watch: float = 1.5
    master: float = 0.5
    """The chance, at the start of a turn, of using a usable master."""
    master_uses: int = 2
    """Uses a bot makes of an unlimited master in one round (the game must end)."""
    set_aside: float = 0.3
    """The chance of setting a won stake aside (with the option)."""
    watch_by_itself: float = 0.5
    """The chance a watch card is laid without answering ``stake_discard`` first."""
    badge_pad: float = 0.5
    """The chance a set-aside stake is laid on the badge pad rather than answered."""
    manual_drew: float = 0.3
    """The chance a manual ability is answered ``drew:<n>`` rather than ``done``."""
    organiser: float = 0.05
    """The organiser answers a seat's prompt for it."""
