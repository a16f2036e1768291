"""The King of the Elves world: a full-information table played by bots, performed physically.

The world shuffles the 120 cards of the table's deck manifest from its seed, deals them, keeps
every hand, purse and ledger entry, and plays every round by the rules (docs/rules/
king-of-the-elves.md, with its rulings and the table options) with the bots of ``bots.py``:
planning (``planning.py``), then the journeys (``travel.py``), then the end of the round. Every
move is *performed* as the sightings and decisions of docs/games/king-of-the-elves.md (the
contract), in the order a real table produces them: nothing for the deal (it is unseen), cards
laid on their pads, cards tapped on the road and discard pads, answers to the prompts, and at
the end of a round the table swept (departures only). The world keeps its own gold by its own
rules code (no code shared with the referee), so that a referee fed only these inputs can be
checked against it.

Hazard: the flow is a generator. Every change that shows in ``scores()``, ``is_over()`` or
``checkpoint()`` is made *before* the action that causes it is returned.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from scorekeeper.sim.king_of_the_elves import bots
from scorekeeper.sim.king_of_the_elves.planning import Planning
from scorekeeper.sim.king_of_the_elves.table import Action
from scorekeeper.sim.king_of_the_elves.travel import Travel
from scorekeeper.sim.world import PlayedWorld

DEFAULT_NOISE = 0.3


class KingOfTheElvesWorld(Planning, Travel, PlayedWorld):
    """One simulated game of King of the Elves for 2-6 bots; see the module docstring.

    ``history`` holds one entry per finished journey, as the referee's public ``history``:
    ``round``, ``seat``, ``visits``, ``cards`` (cards laid on the road), ``collected`` (from the
    bank), ``paid`` (to thieves and for teleports), ``bonus`` (whether it was paid).
    ``ledger`` is every movement of gold; ``events`` counts what the game exercised.
    """

    game_id: ClassVar[str] = "king-of-the-elves"

    def __init__(
        self,
        seats: int,
        options: Mapping[str, Any],
        seed: int,
        *,
        temper: bots.Temper | None = None,
        noise: float = DEFAULT_NOISE,
    ) -> None:
        self._init_table(seats, options, seed, temper or bots.Temper(), noise)
        self._init_planning()
        self.deal(10)  # R-SETUP-10: round 1's deal, unseen, before the first input
        self._checked = 0
        self._start()

    # -- the World interface ---------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """0 for every seat during play (a purse is private, contract "Private information");
        every purse once the game is over (R-END-8)."""
        return tuple(self.purse) if self.over else (0,) * self.seats

    def is_over(self) -> bool:
        """True once the last journey of the last round has stopped (R-END-7, R-END-8)."""
        return self.over

    def winners(self) -> list[int]:
        """R-END-8, G-22: the most gold; tied players share the win."""
        top = max(self.purse)
        return [s for s in range(self.seats) if self.purse[s] == top]

    def checkpoint(self) -> dict[str, Any]:
        """After a journey: its entry of the public ``history`` (the gold collected from the
        bank, paid to thieves and for teleports, the bonus, visits and cards laid); at the
        end, every seat's ``gold``."""
        out: dict[str, Any] = {}
        if len(self.history) > self._checked:
            self._checked = len(self.history)
            entry = self.history[-1]
            for key in ("round", "seat", "visits", "cards", "collected", "paid", "bonus"):
                out[f"state.history.-1.{key}"] = entry[key]
        if self.over:
            for s in range(self.seats):
                out[f"state.seats.{s}.gold"] = self.purse[s]
        return out

    # -- the flow of a game ----------------------------------------------------------------------

    def _play(self) -> Iterator[Action]:
        while not self.over:
            yield from self.planning()
            yield from self.travel(set(self.no_village))
