"""The simulated Arcana table: a full-information world played by bots (docs/games/arcana.md)."""
