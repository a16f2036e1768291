"""Chained record checksums: each log record's checksum covers its text and the one before.

SQLite's own checks (``PRAGMA quick_check``, ``integrity_check``) look at pages and indexes,
not at what a record says: a flipped bit that turns ``"talon"`` into ``"talkn"`` inside a record
passes them. Every log row therefore carries ``chain``: a BLAKE2b digest of the table id, the
seq, the record exactly as stored (its JSON text) and the previous record's ``chain``. Reading a
log recomputes the chain; the first record whose digest differs, or whose seq does not follow,
is where the damage starts, and nothing from there on is trusted. A record removed from the
middle breaks the chain of the next one; records missing from the end are the marker's job
(scorekeeper/store/marker.py).

Hazard: the digest covers the stored text, byte for byte. Anything that rewrites a record's
JSON (a migration re-encoding it) must recompute the chain.
"""

from __future__ import annotations

import hashlib

from scorekeeper.errors import StoreError

GENESIS = ""  # the "previous chain" of a table's first record


def link(previous: str, table_id: str, seq: int, text: str) -> str:
    """The chain value of record ``seq`` of ``table_id`` whose stored JSON is ``text``."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{previous}\x00{table_id}\x00{seq}\x00".encode())
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()


class BrokenChain(StoreError):
    """A table's log fails its chained checksums from record ``seq`` on.

    ``str()`` says so in words, naming the table and the first record that cannot be trusted.
    """

    def __init__(self, where: str, table_id: str, seq: int, why: str) -> None:
        self.table_id = table_id
        self.seq = seq
        super().__init__(
            f"{where}: the log of table {table_id} is damaged from record {seq} on "
            f"({why}); restore a backup (scorekeeper restore) to get it back"
        )


class ChainChecker:
    """Walks one table's records in seq order and raises BrokenChain at the first bad one."""

    def __init__(self, where: str, table_id: str) -> None:
        self.where = where
        self.table_id = table_id
        self.previous = GENESIS
        self.seq = 0

    def check(self, seq: int, text: str, stored: str | None) -> None:
        """Check the next record (``stored`` is its chain column as read)."""
        expected_seq = self.seq + 1
        if seq != expected_seq:
            raise BrokenChain(
                self.where, self.table_id, expected_seq, f"record {expected_seq} is missing"
            )
        value = link(self.previous, self.table_id, seq, text)
        if stored != value:
            why = "it has no checksum" if not stored else "its content does not match its checksum"
            raise BrokenChain(self.where, self.table_id, seq, why)
        self.previous = value
        self.seq = seq
