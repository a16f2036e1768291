"""Game-independent core: inputs, outcomes, the game interface, the referee loop and the table."""
