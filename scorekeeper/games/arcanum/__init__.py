"""Arcanum (Lo Scarabeo 2011)."""

from scorekeeper.games.arcanum.game import Arcanum

__all__ = ["Arcanum"]
