"""Benchmarks for the budgets of docs/design.md. Run with ``make bench``; never in ``make test``."""
