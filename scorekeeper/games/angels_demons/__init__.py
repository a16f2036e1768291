"""Angels & Demons (rules: docs/rules/angels-and-demons.md; table contract:
docs/games/angels-and-demons.md)."""

from scorekeeper.games.angels_demons.game import AngelsAndDemons

__all__ = ["AngelsAndDemons"]
