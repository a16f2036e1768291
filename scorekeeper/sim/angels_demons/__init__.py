"""The simulated Angels & Demons table: card knowledge, bots and the world that performs them."""

from __future__ import annotations

from scorekeeper.sim.angels_demons.world import AngelsDemonsWorld

__all__ = ["AngelsDemonsWorld"]
