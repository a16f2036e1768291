"""The generic simulated world: a full-information game that performs its moves physically.

A world knows everything a referee must not (the shuffled deck, every hand) and plays the game
with bots. It emits, action by action, exactly the sightings and decisions a real table would
produce, so that a referee fed only those inputs can be checked against the world's own scores.
All randomness comes from one ``random.Random(seed)``: the same seed always yields the same
inputs, which is how a demo resumes a game (re-run the world, skip the inputs already logged).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from scorekeeper.core.inputs import Decision, Seen

WorldInput = Seen | Decision


class World(ABC):
    """A simulated table for one game. Subclasses set ``game_id`` and implement the methods.

    ``scores()`` and ``is_over()`` describe the world once every input returned so far by
    ``next_inputs()`` has been performed (a referee that accepted them all agrees with it).
    """

    game_id: ClassVar[str]

    @abstractmethod
    def __init__(self, seats: int, options: Mapping[str, Any], seed: int) -> None:
        """Set up a game for ``seats`` players with the table ``options``, seeded by ``seed``."""

    @abstractmethod
    def next_inputs(self) -> list[WorldInput]:
        """The sightings and decisions of the next physical action; empty once the game is over."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Every seat's score, computed by the world from its full knowledge."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended (the last action has been returned)."""

    def checkpoint(self) -> dict[str, Any]:
        """Facts a table script may check after the latest action, from the world's own
        knowledge: dotted view paths (``state.history.-1.totals``) to values. Empty by default;
        a world adds what a rulebook example would check (a phase's awards, a round's result)."""
        return {}

    def inputs(self) -> Iterator[WorldInput]:
        """Yield every input of the game one by one, in order, until the game is over."""
        while True:
            action = self.next_inputs()
            if not action:
                return
            yield from action


class PlayedWorld(World):
    """A world whose game is one generator, ``_play()``, yielding each physical action's inputs
    in turn (the way the three worlds are written: a game reads as a loop of turns).
    ``__init__`` calls ``_start()`` once the table is set up."""

    _flow: Iterator[list[WorldInput]]
    _done: bool

    @abstractmethod
    def _play(self) -> Iterator[list[WorldInput]]:
        """The game, one action's inputs per ``yield``; returns when it is over."""

    def _start(self) -> None:
        """Begin the game (its first action runs on the first ``next_inputs``)."""
        self._flow = self._play()
        self._done = False

    def next_inputs(self) -> list[WorldInput]:
        """The inputs of the next physical action; empty once the game is over."""
        if self._done:
            return []
        try:
            return next(self._flow)
        except StopIteration:
            self._done = True
            return []
