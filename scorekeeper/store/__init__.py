"""The store layer: tables, their append-only event logs, kits and settings (SQLModel/SQLite).

``Store`` is the one entry point; ``export.export_game`` turns a stored table into a JSON-able
document that is safe for its audience.
"""

from scorekeeper.store.store import DEFAULT_URL, Store, TableLog, sqlite_url

__all__ = ["DEFAULT_URL", "Store", "TableLog", "sqlite_url"]
