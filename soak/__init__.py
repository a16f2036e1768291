"""make soak: the reliability campaign (kills, power cuts, fuzzed frames, API cases, leaks,
unplugs, memory) run with bounded counts, printed as one table (docs/reliability.md)."""
