"""Each table's settings and seat tokens in their own tables, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from scorekeeper.core.table import TableConfig
from scorekeeper.errors import ConfigError, NotFound
from scorekeeper.store import Store
from scorekeeper.store.settings import DEFAULTS, TableSettings


def test_settings_are_kept_per_table_and_read_back_as_written(any_store: Store) -> None:
    store = any_store
    a, b = (store.create_table(TableConfig(game="fake", seats=("x", "y"))) for _ in "ab")
    assert store.settings(a) == DEFAULTS and store.table_settings() == {}
    assert (store.archived(a), store.summary(a), store.readers(a)) == (False, None, "")
    summary = '{"status": "ended",  "scores": [3, 1]}'  # kept as text, spacing and all
    store.set_summary(a, summary)
    store.set_readers(a, "serial:/dev/ttyACM0")
    store.set_archived(b, True)
    store.set_spectator_delay(b, 12.5)
    assert store.table_settings() == {
        a: TableSettings(archived=False, summary=summary, readers="serial:/dev/ttyACM0"),
        b: TableSettings(archived=True, spectator_delay=12.5),
    }
    assert (store.spectator_delay(a), store.spectator_delay(b)) == (0.0, 12.5)
    store.set_summary(a, None)
    store.set_archived(b, False)
    store.set_spectator_delay(a, 30)  # a table with a row already
    assert store.settings(a) == TableSettings(readers="serial:/dev/ttyACM0", spectator_delay=30)
    assert store.settings(b) == TableSettings(spectator_delay=12.5)
    store.set_spectator_delay(b, 0)
    assert store.settings(b) == DEFAULTS
    for change in (
        lambda: store.set_archived("t9", True),
        lambda: store.set_summary("t9", "{}"),
        lambda: store.set_readers("t9", "sim"),
        lambda: store.set_spectator_delay("t9", 5),
        lambda: store.add_seat_token("f" * 64, "t9", 0),
    ):
        with pytest.raises(NotFound, match="t9"):
            change()
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ConfigError, match="spectator delay"):
            store.set_spectator_delay(a, bad)
    assert store.spectator_delay(a) == 30.0


def test_seat_tokens_are_withdrawn_per_seat_and_go_with_their_table(any_store: Store) -> None:
    store = any_store
    a, b = (store.create_table(TableConfig(game="fake", seats=("x", "y"))) for _ in "ab")
    for digest, table_id, seat in (("1" * 64, a, 0), ("2" * 64, a, 0), ("3" * 64, a, 1)):
        store.add_seat_token(digest, table_id, seat)
    store.add_seat_token("4" * 64, b, 0)
    assert store.seat_token("1" * 64) == (a, 0, False)
    assert store.seat_token("5" * 64) is None
    assert store.revoke_seat_tokens(a, 0) == ["1" * 64, "2" * 64]
    assert store.revoke_seat_tokens(a, 0) == []  # already withdrawn
    assert store.seat_token("2" * 64) == (a, 0, True)  # kept, so its holder is told
    assert store.seat_token("3" * 64) == (a, 1, False)
    store.set_archived(a, True)
    store.set_spectator_delay(a, 20)
    store.append(a, {"type": "undo"})
    assert store.delete_table(a) == 1
    assert [store.seat_token(c * 64) for c in "123"] == [None, None, None]
    assert store.table_settings() == {}
    assert store.seat_token("4" * 64) == (b, 0, False)
