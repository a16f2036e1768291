"""Benchmarks for the budgets of DESIGN.md. Run with ``make bench``; never part of ``make test``."""
