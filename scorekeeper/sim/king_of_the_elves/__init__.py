"""The simulated King of the Elves table: the world's own rules data, bots and the world."""

from __future__ import annotations

from scorekeeper.sim.king_of_the_elves.world import KingOfTheElvesWorld

__all__ = ["KingOfTheElvesWorld"]
