"""Gold: a toy game with a private number, for the tests of the private-value contract.

Each seat keeps its gold secret (``Game.private_values``), as King of the Elves will. A turn:
the active seat answers a private prompt, taking 1, 2 or 3 gold in secret; then it buys a
point for 3 gold or passes, in public; then it lays the crown on the next seat's throne. After
``rounds`` rounds the game is over; the score is the points bought. The gold never shows
outside its seat's view and the organiser's. ``LeakyGold`` is the same game whose public view
tells the total of everyone's gold: a leak that names no piece, for the check to catch.

Registered only inside the tests that use it (tests/test_private_values.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.answering import (
    GAME_OVER,
    NO_PROMPT,
    WRONG_SEAT,
    answer_ok,
    match_prompt,
    unknown_zone,
)
from scorekeeper.core.game import Audience, Game, Option, view_for
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Prompt, Rejected

ID = "toy-gold"
PRICE = 3  # gold for a point
TAKE = ("1", "2", "3")  # what a seat may take in secret each turn
CROWN = "crown"


@dataclass(frozen=True, slots=True)
class GoldState:
    """Everything the referee knows. ``gold`` is private to each seat; ``takes`` (how many
    times each seat took gold) and ``vp`` are public, and bound what the others can know."""

    n: int
    rounds: int
    round: int = 1
    turn: int = 0
    phase: str = "take"  # take, buy, crown, over
    gold: tuple[int, ...] = ()
    takes: tuple[int, ...] = ()
    vp: tuple[int, ...] = ()


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


class Gold(Game[GoldState]):
    """The honest game: a seat's gold reaches only its own view and the organiser's."""

    id = ID
    name = "Gold"
    min_seats = 2
    max_seats = 3
    options = (Option("rounds", 2, "How many rounds the game lasts.", (1, 2, 3)),)

    def pieces(self) -> tuple[str, ...]:
        return (CROWN,)

    def describe_piece(self, piece: str) -> str:
        return "the crown"

    def zones(self, seats: int) -> tuple[str, ...]:
        return tuple(f"throne:{s}" for s in range(seats))

    def default_layout(self, seats: int) -> dict[str, str]:
        return {f"r{s}": f"throne:{s}" for s in range(seats)}

    def new_game(self, options: Mapping[str, Any], seats: int) -> GoldState:
        zero = (0,) * seats
        return GoldState(seats, int(options["rounds"]), gold=zero, takes=zero, vp=zero)

    def observe(self, state: GoldState, seen: Seen) -> Accepted[GoldState] | Rejected:
        if seen.zone not in self.zones(state.n):
            return unknown_zone(seen.zone, self.zones(state.n))
        if state.phase == "over":
            return Rejected(GAME_OVER, "the game is over")
        if seen.piece != CROWN:
            return Rejected("R-GOLD-3", "only the crown goes on a throne")
        if not seen.present:
            return Accepted(state)  # the crown lifted: it changes nothing until laid
        following = (state.turn + 1) % state.n
        if state.phase != "crown" or seen.zone != f"throne:{following}":
            return Rejected("R-GOLD-3", "the crown goes to the next seat once a turn is done")
        if following == 0 and state.round == state.rounds:
            return Accepted(dataclasses.replace(state, phase="over"), ("the game is over",))
        return Accepted(
            dataclasses.replace(
                state,
                turn=following,
                phase="take",
                round=state.round + (following == 0),
            ),
            (f"{{seat:{following}}}'s turn",),
        )

    def decide(self, state: GoldState, decision: Decision) -> Accepted[GoldState] | Rejected:
        found = match_prompt(self.pending(state), decision)
        if found.problem == "no-prompt" or found.prompt is None:
            return Rejected(NO_PROMPT, "the table is not waiting for that answer")
        if found.problem == "wrong-seat":
            return Rejected(WRONG_SEAT, "that question is for another seat")
        if not answer_ok(found.prompt, decision.answer):
            return Rejected("R-GOLD-1", "that is no answer to the question")
        seat = state.turn
        if found.prompt.id == "take":
            gold = _set(state.gold, seat, state.gold[seat] + int(decision.answer))
            takes = _set(state.takes, seat, state.takes[seat] + 1)
            changed = dataclasses.replace(state, gold=gold, takes=takes, phase="buy")
            return Accepted(changed, (f"{{seat:{seat}}} took gold in secret",))
        if decision.answer == "pass":
            return Accepted(dataclasses.replace(state, phase="crown"), (f"{{seat:{seat}}} passed",))
        if state.gold[seat] < PRICE:
            return Rejected("R-GOLD-2", "a point costs 3 gold", "pass instead")
        return Accepted(
            dataclasses.replace(
                state,
                gold=_set(state.gold, seat, state.gold[seat] - PRICE),
                vp=_set(state.vp, seat, state.vp[seat] + 1),
                phase="crown",
            ),
            (f"{{seat:{seat}}} bought a point for 3 gold",),
        )

    def pending(self, state: GoldState) -> tuple[Prompt, ...]:
        if state.phase == "take":
            return (Prompt("take", state.turn, "How much gold?", TAKE, private=True),)
        if state.phase == "buy":
            return (Prompt("buy", state.turn, "Buy a point?", ("buy", "pass")),)
        return ()

    def waiting_for(self, state: GoldState) -> str:
        if state.phase == "over":
            return "the game is over"
        words = {"take": "take gold", "buy": "buy a point or pass", "crown": "pass the crown"}
        return f"{{seat:{state.turn}}}: {words[state.phase]}"

    def scores(self, state: GoldState) -> tuple[int, ...]:
        return state.vp

    def is_over(self, state: GoldState) -> bool:
        return state.phase == "over"

    def public(self, state: GoldState) -> dict[str, Any]:
        return {
            "round": state.round,
            "turn": state.turn,
            "phase": state.phase,
            "points": list(state.vp),
            "takes": list(state.takes),
        }

    def view(self, state: GoldState, audience: Audience) -> dict[str, Any]:
        return view_for(
            audience,
            state.n,
            lambda: self.public(state),
            lambda: {**self.public(state), "gold": list(state.gold)},
            lambda seat: {**self.public(state), "my_gold": state.gold[seat]},
        )

    def secrets(self, state: GoldState, seat: int) -> frozenset[str]:
        return frozenset()  # no piece is secret: the gold is a private value

    # -- the private-value contract ------------------------------------------------------------

    def private_values(self, state: GoldState, seat: int) -> Mapping[str, Any]:
        return {"gold": state.gold[seat]}

    def private_range(self, state: GoldState, seat: int, key: str) -> Sequence[Any]:
        """What the others know: how often the seat took gold (1 to 3 each time) and how many
        points it bought (3 each); every other value in between is possible."""
        low = state.takes[seat] - PRICE * state.vp[seat]
        high = 3 * state.takes[seat] - PRICE * state.vp[seat]
        return tuple(v for v in range(max(low, 0), high + 1) if v != state.gold[seat])

    def perturb_private(self, state: GoldState, seat: int, key: str, value: Any) -> GoldState:
        if key != "gold":
            raise KeyError(key)
        return dataclasses.replace(state, gold=_set(state.gold, seat, int(value)))


class LeakyGold(Gold):
    """Gold whose public view (and so every seat's) tells the total of everyone's gold."""

    def public(self, state: GoldState) -> dict[str, Any]:
        return {**super().public(state), "gold in play": sum(state.gold)}


class Purse(Gold):
    """Gold whose scores are private until the end (``Game.scores_private``): its own views
    show no points either, so no score reaches anyone during play (the platform's part is
    what the tests check: the table's ``scores``, history, lists and exports)."""

    id = "toy-purse"
    name = "Purse"
    scores_private = True

    def public(self, state: GoldState) -> dict[str, Any]:
        shown = super().public(state)
        if state.phase != "over":
            del shown["points"]
        return shown
