"""The game-agnostic referee loop: applies inputs to a game's state, keeps undo history.

The referee is pure and in memory; the table (``core.table``) logs each input before handing it
here, so that a replay of the log through a fresh referee reaches the identical state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.answering import GAME_OVER, UNDO_EMPTY, game_over
from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Correct, Decision, GameInput, Seen, Undo
from scorekeeper.core.outcomes import Accepted, Rejected
from scorekeeper.core.text import seat_ref

# Undo rebuilds from the nearest snapshot; one every SNAPSHOT_EVERY accepted inputs bounds both
# memory (a long game keeps a few hundred states, not thousands) and the cost of an undo.
SNAPSHOT_EVERY = 32

RULE_GAME_OVER = GAME_OVER
RULE_UNDO_EMPTY = UNDO_EMPTY


@dataclass(frozen=True, slots=True)
class Result:
    """What the referee made of one input."""

    accepted: bool
    events: tuple[str, ...] = ()
    rejection: Rejected | None = None


class Referee:
    """Holds one game's state and the accepted inputs that led to it."""

    def __init__(self, game: Game[Any], options: Mapping[str, Any], seats: int) -> None:
        self.game = game
        self.seats = seats
        self.options = game.resolve_options(options, seats)
        self._initial = game.new_game(self.options, seats)
        self.state: Any = self._initial
        self._accepted: list[GameInput] = []
        self._snapshots: dict[int, Any] = {0: self._initial}

    def restart_from(self, state: Any) -> None:
        """Make ``state`` the starting position, forgetting every accepted input.

        For tests that begin in the middle of a game (a unit test of one rule). Hazard: the
        position is not in any log, so a table built this way could not be replayed; the
        table never calls this.
        """
        self._initial = state
        self.state = state
        self._accepted = []
        self._snapshots = {0: state}

    @property
    def accepted_count(self) -> int:
        return len(self._accepted)

    @property
    def history(self) -> tuple[GameInput, ...]:
        """The accepted inputs in force, oldest first (a copy: an undo takes the last back)."""
        return tuple(self._accepted)

    @property
    def last_accepted(self) -> GameInput | None:
        return self._accepted[-1] if self._accepted else None

    def apply(self, inp: GameInput | Undo | Correct) -> Result:
        """Apply one input; a rejected input leaves the state untouched."""
        if isinstance(inp, Undo):
            return self._undo()
        if isinstance(inp, Correct):
            return self._correct(inp)
        return self._play(inp)

    def _play(self, inp: GameInput) -> Result:
        if self.game.is_over(self.state):
            return Result(False, rejection=game_over())
        if isinstance(inp, Seen):
            outcome = self.game.observe(self.state, inp)
        elif isinstance(inp, Decision):
            outcome = self.game.decide(self.state, inp)
        else:  # pragma: no cover - the type says it cannot happen
            raise TypeError(f"not a game input: {inp!r}")
        if isinstance(outcome, Rejected):
            return Result(False, rejection=outcome)
        assert isinstance(outcome, Accepted)
        self.state = outcome.state
        self._accepted.append(inp)
        if len(self._accepted) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self._accepted)] = self.state
        return Result(True, outcome.events)

    def _rewind(self, count: int) -> None:
        """Rebuild the state after the first ``count`` accepted inputs."""
        base = max(k for k in self._snapshots if k <= count)
        state = self._snapshots[base]
        for inp in self._accepted[base:count]:
            outcome = (
                self.game.observe(state, inp)
                if isinstance(inp, Seen)
                else self.game.decide(state, inp)
            )
            assert isinstance(outcome, Accepted), "an accepted input must replay as accepted"
            state = outcome.state
        for k in [k for k in self._snapshots if k > count]:
            del self._snapshots[k]
        del self._accepted[count:]
        self.state = state

    def _undo(self) -> Result:
        if not self._accepted:
            return Result(
                False,
                rejection=Rejected(
                    RULE_UNDO_EMPTY, "there is nothing to undo", "the game is at its start"
                ),
            )
        last = self._accepted[-1]
        self._rewind(len(self._accepted) - 1)
        return Result(True, (f"undone: {_public_words(self.game, last)}",))

    def _correct(self, inp: Correct) -> Result:
        if not self._accepted:
            return Result(
                False,
                rejection=Rejected(
                    RULE_UNDO_EMPTY, "there is nothing to correct", "play the input instead"
                ),
            )
        saved_state, saved_acc = self.state, list(self._accepted)
        saved_snaps = dict(self._snapshots)
        last = self._accepted[-1]
        self._rewind(len(self._accepted) - 1)
        result = self._play(inp.replacement)
        if not result.accepted:
            self.state, self._accepted, self._snapshots = saved_state, saved_acc, saved_snaps
            return result
        return Result(
            True, (f"corrected: {_public_words(self.game, last)} replaced",) + result.events
        )


def _public_words(game: Game[Any], inp: GameInput) -> str:
    """An input in words everyone may read: where a piece was seen, or whose answer about
    what, never the piece or the answer itself (a hidden card, a private answer). The
    organiser's feed keeps the raw input."""
    if isinstance(inp, Seen):
        zone = game.zone_words(inp.zone)
        if zone == inp.zone:  # a game with no words for its zones
            zone = inp.zone.replace("_", " ").replace(":", " ")
        zone = zone if zone[:1] == "{" or zone[:1].isupper() else f"the {zone}"
        return f"the piece {'laid on' if inp.present else 'lifted off'} {zone}"
    who = "the organiser" if inp.seat is None else seat_ref(inp.seat)
    return f"{who}'s answer about {game.prompt_words(inp.prompt)}"
