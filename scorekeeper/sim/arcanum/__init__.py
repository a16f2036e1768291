"""The simulated Arcanum table: the world's own rules arithmetic, bots and the world itself."""

from __future__ import annotations

from scorekeeper.sim.arcanum.world import ArcanumWorld

__all__ = ["ArcanumWorld"]
