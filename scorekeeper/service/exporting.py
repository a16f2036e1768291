"""Export: a table's whole log, replayed into its export (``public``: no secrets;
``organiser``: everything), for ``GET /api/tables/{id}/export`` and ``scorekeeper export``.

Locks: the table's lock is not held; the store lock is taken only to read the log, and the
replay (the slow part) runs without any lock, so an export never stalls the other tables.
``_table`` may load an unloaded table first (the registry's reload and its locks).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.game import PUBLIC
from scorekeeper.errors import TableStateError
from scorekeeper.service.hub_base import HubBase


class Export(HubBase):
    """The hub's part that exports a table's log."""

    def export(self, table_id: str, audience: str = PUBLIC) -> dict[str, Any]:
        """The table's export (``public``: no secrets; ``organiser``: everything)."""
        live = self._get(table_id)
        from scorekeeper.store.export import build_export, check_audience, read_game

        check_audience(audience)
        # An unloaded table is not replayed twice: the export replays the log itself.
        game = (
            self._find_game(live.config.game)
            if live.table is None and live.brief
            else self._table(live).game
        )
        if audience == PUBLIC and live.delay is not None:  # it would show the table live
            raise TableStateError(
                f"table {table_id} is shown to spectators with a delay: its "
                "public export waits until the organiser turns the delay off"
            )
        # Only reading takes the store lock; the replay (the slow part) runs without it, so an
        # export never stalls the other tables' inputs and pushes.
        with self._store_lock:
            stored = read_game(self.store, table_id)
        return dict(build_export(stored, audience=audience, game=game))
