"""An Arcana state in record form (``Game.snapshot``/``restore``), with its pack by text.

The generic record (core/snapshot.py) would encode the table's whole pack, 304 cards, in every
record: tens of milliseconds each way. A pack built by ``pack.pack_of`` keeps the JSON text it
came from, so the record carries that text once (``PACK_KEY``) and the rest of the state with an
empty pack; restoring builds the same Pack from the text (the same object while it is cached).
A pack built another way (by hand, in tests) is encoded card by card as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core import snapshot as records
from scorekeeper.games.arcana import pack as packs
from scorekeeper.games.arcana.cards import Pack
from scorekeeper.games.arcana.state import State, evolve

PACK_KEY = "arcana_pack"
"""The record's key for the pack's JSON text (beside core/snapshot.py's format, type, state)."""
_NO_PACK = Pack(name="", sample=False, domains=(), cards=())


def snapshot(state: State) -> dict[str, Any]:
    """``state`` as a JSON-able record, its pack as the text it was built from when known."""
    text = packs.source_of(state.pack)
    if text is None:
        return records.snapshot(state)
    record = records.snapshot(evolve(state, pack=_NO_PACK))
    record[PACK_KEY] = text
    return record


def restore(record: Mapping[str, Any]) -> State:
    """The state a ``snapshot`` record describes; SnapshotError for a record of another format
    or game (core/snapshot.py), or a pack text that is not a string."""
    text = record.get(PACK_KEY)
    if text is None:
        return records.restore(record, State)
    if not isinstance(text, str):
        raise records.SnapshotError(f"{PACK_KEY}: a pack's JSON text, not {type(text).__name__}")
    rest = {k: v for k, v in record.items() if k != PACK_KEY}
    return evolve(records.restore(rest, State), pack=packs.pack_of_text(text))
