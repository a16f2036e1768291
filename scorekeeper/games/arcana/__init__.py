"""Arcana (issue 14): guilds' agents compete for the stakes of the city's districts.

The table contract is docs/games/arcana.md; the rules reference with every R-/G- id is
docs/rules/arcana.md.
"""
