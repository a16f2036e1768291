"""Frozen state values of an Angels & Demons table: tuples and frozensets only (hashable, ==)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Phases of a round (and of the game).
DEAL = "deal"  # the dealer turns N+1 cards onto the talon
TAKE = "take"  # the active seat takes a talon card (or refills an empty talon); claims allowed
REFILL = "refill"  # the active seat is turning N+1 cards onto the empty talon
ACT = "act"  # the active seat took a card: go out, lay a set or discard
LAY = "lay"  # the active seat is laying a set (1-2 cards in the meld area so far)
DRAW = "draw"  # the seat that laid a set says how many cards it drew
MINE = "mine"  # a seat is laying a "mine!" set around a claimed discard
OUT = "out"  # a going-out hand is being put on the going-out pad
FLIP = "flip"  # scoring flips
SHOW = "show"  # a third item group is laid and the draw would end the round: show an item?
ROUND_OVER = "round_over"  # waiting for the next deal
OVER = "over"  # the game has ended

IN_ROUND = frozenset({TAKE, REFILL, ACT, LAY, DRAW, MINE})

# Card locations (State.where): "" = unknown (deck or an unseen hand), "hand:<s>" = known in seat
# s's hand (taken from the talon), or a zone name: "talon", "meld:<s>", "discard:<s>", "out",
# "flip".
UNKNOWN = ""


@dataclass(frozen=True, slots=True)
class Opts:
    """The resolved table options (see ``AngelsAndDemons.options``)."""

    mode: str = "basic"
    go_out_base: int = 1
    basic_red_bonus: int = 1
    plain_item_points: int = 1
    post_set_draw: str = "choice"
    red17_counts_itself: bool = True
    item_win_timing: str = "on_lay"
    target_points: int = 24
    max_rounds: int = 6
    tie_break: str = "shared"
    start_seat: int = 0

    @property
    def advanced(self) -> bool:
        return self.mode == "advanced"

    def to_dict(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


@dataclass(frozen=True, slots=True)
class Claim:
    """An open claim window on ``card``, just discarded by ``discarder`` at moment ``at``."""

    discarder: int
    card: str
    at: int


@dataclass(frozen=True, slots=True)
class Building:
    """A set being laid by ``seat``; ``claim`` is set for a "mine!" (the claimed discard)."""

    seat: int
    cards: tuple[str, ...]
    claim: Claim | None = None


@dataclass(frozen=True, slots=True)
class GoOut:
    """A going-out in progress: the cards on the pad and the flips so far.

    ``seat`` is None while several waiting seats could claim the discard (prompt ``claimant``).
    """

    seat: int | None
    via: str  # "self" or "claim"
    cards: tuple[str, ...]
    claim: Claim | None = None
    candidates: tuple[int, ...] = ()
    flips: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended, with the goer-out's breakdown.

    ``end`` is "out", "exhausted" or "item_win". ``reds`` and ``flips`` are (card, points) pairs;
    ``penalty`` is what the discarder actually lost (R-ADV-5, floored at 0).
    """

    round: int
    end: str
    seat: int | None = None
    via: str | None = None
    discarder: int | None = None
    hand: tuple[str, ...] = ()
    base: int = 0
    reds: tuple[tuple[str, int], ...] = ()
    items: int = 0
    flips: tuple[tuple[str, int], ...] = ()
    penalty: int = 0

    @property
    def gain(self) -> int:
        """The goer-out's whole gain: base + red bonuses + items + flips."""
        return self.base + sum(p for _, p in self.reds) + self.items + sum(m for _, m in self.flips)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "end": self.end,
            "seat": self.seat,
            "via": self.via,
            "discarder": self.discarder,
            "hand": list(self.hand),
            "base": self.base,
            "reds": [list(r) for r in self.reds],
            "items": self.items,
            "flips": [list(f) for f in self.flips],
            "gain": self.gain,
            "penalty": self.penalty,
        }


@dataclass(frozen=True, slots=True)
class State:
    """Everything the referee knows about one game of Angels & Demons."""

    opts: Opts
    n: int
    phase: str
    round: int
    start: int
    active: int
    where: tuple[str, ...]  # location of every card, in catalogue order
    talon: tuple[str, ...]
    deck: int
    hands: tuple[int, ...]
    melds: tuple[tuple[tuple[str, ...], ...], ...]
    discards: tuple[tuple[str, ...], ...]
    declared: tuple[tuple[int, int], ...] = ()  # (seat, moment) of each waiting declaration
    clock: int = 0  # moments: bumped by each discard and each declaration
    taken: str | None = None  # the card the active seat took this turn
    taken_at: int = 0  # the moment (clock) of that take: a later declaration binds next turn
    refill_left: int = 0  # talon cards still to be turned (deal or refill)
    claim: Claim | None = None
    building: Building | None = None
    going: GoOut | None = None
    may_show: int | None = None  # seat that may show a conditional item now (R-ADV-6)
    held_draw: tuple[int, int, int] | None = None  # (seat, count, next active) while in SHOW
    scores: tuple[int, ...] = ()
    go_outs: tuple[int, ...] = ()
    history: tuple[RoundResult, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def waiting(self) -> frozenset[int]:
        """Seats that declared "waiting" this round."""
        return frozenset(s for s, _ in self.declared)

    @property
    def over(self) -> bool:
        return self.phase == OVER
