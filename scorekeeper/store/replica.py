"""A table's log as replication sees it: raw records to resend, and insert-once receipt.

``ReplicaStore`` is one of ``Store``'s classes (scorekeeper/store/store.py). A table's Pi is the
authority for its log; an event hub keeps a replica of it (docs/design.md, "Events: many
tables, one hub"). The table sends each record as it was stored, ``(seq, text, chain)``, and
resends from a seq the hub asks for; the hub inserts each one once, whatever order and however
often it arrives, and ``records()`` on the replica then checks the same chain as the origin's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Integer, and_, cast, func, or_, select
from sqlalchemy import text as sql

from scorekeeper.errors import NotFound, StoreError
from scorekeeper.store.base import LOG, TABLES
from scorekeeper.store.log import LogStore
from scorekeeper.store.models import utcnow

RAW_LIMIT = 500  # records a resend reads at a time
_INSERT_CHUNK = 1000  # rows per INSERT statement (5 parameters a row; SQLite allows 32766)

Raw = tuple[int, str, str]  # (seq, the record's JSON text as stored, its chain value)
# Per table: its run of records after a seq, and the first seq stored beyond the run's gap.
Runs = dict[str, tuple[list[Raw], int | None]]

# PostgreSQL's forms of receive_many and runs_after: fixed texts over arrays, so each
# drain of a hub's ingest costs no SQL building or compiling (that was most of its CPU).
# The insert answers each of :games that has a table row with how many of its rows were new
# (a game without one gets no rows: its foreign key would refuse them).
# The rows come as one JSON array of [id, seq, text, chain]: psycopg quotes each element of a
# text[] parameter with a regular expression (about 60 us a record's text in a hub's profile),
# where json.dumps and PostgreSQL's JSON parser take the texts whole.
_PG_INSERT = sql(
    "WITH u AS (SELECT e->>0 AS t, CAST(e->>1 AS integer) AS s, e->>2 AS r, e->>3 AS c "
    "FROM json_array_elements(CAST(:rows AS json)) AS e), "
    "ins AS (INSERT INTO log (table_id, seq, at, record, chain) "
    "SELECT u.t, u.s, :at, CAST(u.r AS json), u.c FROM u JOIN tables ON tables.id = u.t "
    "ORDER BY u.t, u.s ON CONFLICT (table_id, seq) DO NOTHING RETURNING table_id) "
    "SELECT tables.id, (SELECT count(*) FROM ins WHERE ins.table_id = tables.id) "
    "FROM tables WHERE tables.id = ANY(CAST(:games AS varchar[]))"
)
# Per game: its next :lim seqs after :afters from the (table_id, seq) index, numbered; the run
# is where seq = after + n; beyond it only the first seq is sent (its text NULL). Every step is
# a LATERAL with a LIMIT (which PostgreSQL cannot flatten into a join), so each is an index
# probe per game: a plain join to fetch the texts was planned as a hash join over the whole
# log (0.25 s a drain in make bench).
_PG_RUNS = sql(
    "SELECT w.t, y.seq, CASE WHEN y.run THEN l.text END, CASE WHEN y.run THEN l.chain END "
    "FROM unnest(CAST(:ids AS varchar[]), CAST(:afters AS integer[])) AS w(t, a) "
    "CROSS JOIN LATERAL (SELECT z.seq, z.run FROM (SELECT x.seq, x.n, x.seq = w.a + x.n AS run, "
    "min(x.n) FILTER (WHERE x.seq > w.a + x.n) OVER () AS out_n "
    "FROM (SELECT q.seq, row_number() OVER (ORDER BY q.seq) AS n FROM (SELECT seq FROM log "
    "WHERE log.table_id = w.t AND log.seq > w.a ORDER BY seq LIMIT :lim) AS q) AS x) AS z "
    "WHERE z.run OR z.n = z.out_n) AS y "
    "CROSS JOIN LATERAL (SELECT CAST(log.record AS text) AS text, log.chain FROM log "
    "WHERE log.table_id = w.t AND log.seq = y.seq LIMIT 1) AS l "
    "ORDER BY w.t, y.seq"
)
_PG_CHAINS = sql(  # (a LATERAL with LIMIT again: an index probe per pair)
    "SELECT w.t, w.s, l.chain FROM unnest(CAST(:ids AS varchar[]), CAST(:seqs AS integer[])) "
    "AS w(t, s) CROSS JOIN LATERAL (SELECT log.chain FROM log WHERE log.table_id = w.t "
    "AND log.seq = w.s LIMIT 1) AS l"
)


class ReplicaStore(LogStore):
    """Replication of a ``Store``'s logs: ``raw_records``, ``receive``, ``high_water``, and
    their many-games forms for a hub's ingest (``runs_after``, ``receive_many``)."""

    def raw_records(self, table_id: str, after_seq: int = 0, limit: int = RAW_LIMIT) -> list[Raw]:
        """``(seq, text, chain)`` of a table's records with seq > ``after_seq``, in seq order, at
        most ``limit`` of them: the text exactly as stored, unchecked (what a table resends to
        a hub that lacks them; the receiver's ``records()`` checks the chain). NotFound when
        there is no such table."""
        raw = self._record_text()
        with self._db("read the log") as conn:
            self._table_row(conn, table_id)
            rows = conn.execute(
                select(LOG.c.seq, raw, LOG.c.chain)
                .where(LOG.c.table_id == table_id, LOG.c.seq > int(after_seq))
                .order_by(LOG.c.seq)
                .limit(max(0, int(limit)))
            ).all()
            conn.rollback()
        return [(int(seq), str(text), str(chain or "")) for seq, text, chain in rows]

    def receive(self, table_id: str, rows: Sequence[Raw]) -> int:
        """Insert a replica's records once each; returns how many were new.

        Each ``(seq, text, chain)`` is stored byte-for-byte as sent; one already there (same
        table and seq) is left as it was (``ON CONFLICT DO NOTHING``), so a duplicate delivery
        changes nothing. Rows may come in any order and with gaps (``high_water`` says what is
        complete). All rows go in one transaction. NotFound when there is no such table;
        StoreError, with nothing stored, when a row is malformed (a seq below 1, a text that is
        not a JSON object, a chain that is not a string).

        Nothing here checks the chain: the origin's text and chain are kept as they came, and
        ``records()`` on this store finds any damage exactly as on the origin.
        """
        checked = [self._checked_row(table_id, row) for row in rows]
        if not checked:
            with self._db("receive records") as conn:
                self._table_row(conn, table_id)
            return 0
        new = 0
        with self._db("receive records") as conn:
            self._table_row(conn, table_id)
            now = utcnow()
            for start in range(0, len(checked), _INSERT_CHUNK):
                values = [
                    {
                        "table_id": table_id,
                        "seq": seq,
                        "at": now,
                        "record": self._json_value(text),
                        "chain": chain,
                    }
                    for seq, text, chain in checked[start : start + _INSERT_CHUNK]
                ]
                keys = [LOG.c.table_id, LOG.c.seq]
                if self._sqlite:  # SQLite's rowcount is the rows inserted (conflicts skipped)
                    from sqlalchemy.dialects import sqlite

                    stmt = (
                        sqlite.insert(LOG)
                        .values(values)
                        .on_conflict_do_nothing(index_elements=keys)
                    )
                    new += max(0, int(conn.execute(stmt).rowcount or 0))
                else:  # psycopg's rowcount is not that: count the rows returned
                    # Imported here: the dialect's package costs a table's server 3 MB.
                    from sqlalchemy.dialects import postgresql

                    pg = (
                        postgresql.insert(LOG)
                        .values(values)
                        .on_conflict_do_nothing(index_elements=keys)
                    )
                    new += len(conn.execute(pg.returning(LOG.c.seq)).all())
            conn.commit()
            # What is cached about this log (its next seq, its last chain) may be stale now.
            self._next_seq.pop(table_id, None)
            self._last_chain.pop(table_id, None)
            if self.marker is not None and new:
                self._mark(table_id, max(seq for seq, _text, _chain in checked))
        return new

    def receive_many(self, rows_by_game: Mapping[str, Sequence[Raw]]) -> dict[str, int | None]:
        """``receive`` for many tables at once: one transaction and, on PostgreSQL, one
        statement (the tables checked and the rows inserted, ``ON CONFLICT DO NOTHING``) for
        them all; what a hub's ingest does with each drain of messages. Returns, per table,
        how many of its rows were new, or None when there is no such table (its rows are not
        stored; the others are).

        StoreError, with nothing stored for any table, when a row is malformed (the caller
        can then ``receive`` table by table to keep the good ones)."""
        return self.receive_and_read(rows_by_game, {})[0]

    def receive_and_read(
        self,
        rows_by_game: Mapping[str, Sequence[Raw]],
        after_by_game: Mapping[str, int],
        limit: int = RAW_LIMIT,
    ) -> tuple[dict[str, int | None], Runs]:
        """``receive_many``, then ``runs_after(after_by_game, limit)`` read in the same
        transaction before its commit (on PostgreSQL two round trips fewer than apart, which
        a hub's ingest pays at every drain); the read sees the rows just inserted and what
        other hubs committed. StoreError as ``receive_many``, nothing stored or read."""
        checked = {
            game: [self._checked_row(game, row) for row in rows]
            for game, rows in rows_by_game.items()
        }
        if not checked:
            return {}, self.runs_after(after_by_game, limit)
        runs: Runs = {}
        # In (game, seq) order: two hubs inserting the same rows (a resend both got) then
        # take their row locks in the same order, so neither waits on the other's.
        flat = sorted((game, row) for game, rows in checked.items() for row in rows)
        now = utcnow()
        with self._db("receive records") as conn:
            if not self._sqlite:  # one statement of arrays (the table check in it)
                params = {
                    "at": now,
                    "games": list(checked),
                    "rows": json.dumps([(game, *row) for game, row in flat]),
                }
                new = {str(g): int(n) for g, n in conn.execute(_PG_INSERT, params).all()}
                known = set(new)
                flat = []
            else:
                known = set(
                    conn.execute(select(TABLES.c.id).where(TABLES.c.id.in_(list(checked))))
                    .scalars()
                    .all()
                )
                flat = [(game, row) for game, row in flat if game in known]
                new = dict.fromkeys(known, 0)
            keys = [LOG.c.table_id, LOG.c.seq]
            from sqlalchemy.dialects import sqlite

            for start in range(0, len(flat), _INSERT_CHUNK):  # SQLite: a VALUES list
                values = [
                    {
                        "table_id": game,
                        "seq": seq,
                        "at": now,
                        "record": self._json_value(text),
                        "chain": chain,
                    }
                    for game, (seq, text, chain) in flat[start : start + _INSERT_CHUNK]
                ]
                stmt = sqlite.insert(LOG).values(values).on_conflict_do_nothing(index_elements=keys)
                for (game,) in conn.execute(stmt.returning(LOG.c.table_id)).all():
                    new[game] += 1
            if after_by_game and not self._sqlite:
                runs = self._pg_runs(conn, after_by_game, limit)
            conn.commit()
            for game in known:  # what is cached about these logs may be stale now
                self._next_seq.pop(game, None)
                self._last_chain.pop(game, None)
            if self.marker is not None:
                for game, count in new.items():
                    if count:
                        self._mark(game, max(seq for seq, _text, _chain in checked[game]))
        if after_by_game and self._sqlite:  # (one writer: apart costs nothing more)
            runs = self.runs_after(after_by_game, limit)
        return {game: new.get(game) for game in checked}, runs

    def _mark(self, table_id: str, top: int) -> None:
        """Note a replica's new top seq in the marker file (SQLite stores only)."""
        assert self.marker is not None
        try:
            self.marker.note(table_id, max(top, self.marker.last.get(table_id, 0)))
        except OSError as exc:  # the records are stored; only the marker lags
            raise StoreError(
                f"{self.where}: the records were stored, but its marker file "
                f"cannot be written: {exc.strerror or exc}"
            ) from None

    def runs_after(self, after_by_game: Mapping[str, int], limit: int = RAW_LIMIT) -> Runs:
        """For many tables in one query: each one's run of records right after ``after``
        (seqs after+1, after+2, ... without a gap, at most ``limit``), and the first seq
        stored beyond the run's gap (None: nothing stored beyond it, or the limit was hit).
        What a hub's ingest asks after each drain: how far each game is whole, the records to
        apply, and where an open gap ends. Records stored beyond a gap are not sent (a gap
        that stays open costs no transfer). A table that does not exist has nothing here (no
        NotFound)."""
        out: Runs = {g: ([], None) for g in after_by_game}
        if not out:
            return out
        if not self._sqlite:
            with self._db("read the log") as conn:
                out = self._pg_runs(conn, after_by_game, limit)
                conn.rollback()
            return out
        raw = self._record_text()
        windows = [
            and_(LOG.c.table_id == game, LOG.c.seq > int(after), LOG.c.seq <= int(after) + limit)
            for game, after in after_by_game.items()
        ]
        with self._db("read the log") as conn:
            rows = conn.execute(
                select(LOG.c.table_id, LOG.c.seq, raw, LOG.c.chain)
                .where(or_(*windows))
                .order_by(LOG.c.table_id, LOG.c.seq)
            ).all()
            conn.rollback()
        for game, seq, text, chain in rows:
            run, beyond = out[str(game)]
            if beyond is None and int(seq) == after_by_game[str(game)] + len(run) + 1:
                run.append((int(seq), str(text), str(chain or "")))
            elif beyond is None:
                out[str(game)] = (run, int(seq))
        return out

    def _pg_runs(self, conn: Any, after_by_game: Mapping[str, int], limit: int) -> Runs:
        """``runs_after`` on PostgreSQL, on ``conn`` in its transaction."""
        out: Runs = {g: ([], None) for g in after_by_game}
        params = {
            "ids": list(out),
            "afters": [int(a) for a in after_by_game.values()],
            "lim": int(limit),
        }
        for game, seq, text, chain in conn.execute(_PG_RUNS, params).all():
            run, _beyond = out[str(game)]
            if text is None:  # the first record beyond the run's gap
                out[str(game)] = (run, int(seq))
            else:
                run.append((int(seq), str(text), str(chain or "")))
        return out

    def chains(self, seqs_by_game: Mapping[str, Sequence[int]]) -> dict[tuple[str, int], str]:
        """The stored chain value of each (table, seq) asked for that is stored, in one query:
        what a hub's ingest compares a drain's duplicate deliveries with."""
        pairs = [(game, int(seq)) for game, seqs in seqs_by_game.items() for seq in seqs]
        if not pairs:
            return {}
        with self._db("read the log") as conn:
            if self._sqlite:
                found = conn.execute(
                    select(LOG.c.table_id, LOG.c.seq, LOG.c.chain).where(
                        or_(
                            *(
                                and_(LOG.c.table_id == game, LOG.c.seq.in_([int(q) for q in seqs]))
                                for game, seqs in seqs_by_game.items()
                                if seqs
                            )
                        )
                    )
                ).all()
            else:
                ids = [game for game, _seq in pairs]
                found = conn.execute(_PG_CHAINS, {"ids": ids, "seqs": [q for _g, q in pairs]}).all()
            conn.rollback()
        return {(str(game), int(seq)): str(chain or "") for game, seq, chain in found}

    def _checked_row(self, table_id: str, row: Sequence[Any]) -> Raw:
        """One received row, checked to be ``(seq >= 1, a JSON object's text, a chain)``."""
        try:
            seq, text, chain = row
        except (TypeError, ValueError):
            raise StoreError(
                f"{self.where}: a record received for table {table_id} is not "
                f"(seq, text, chain): {row!r:.80}; nothing was stored"
            ) from None
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            raise StoreError(
                f"{self.where}: a record received for table {table_id} has seq {seq!r}, "
                "not a number from 1; nothing was stored"
            )
        if not isinstance(chain, str) or not isinstance(text, str):
            raise StoreError(
                f"{self.where}: record {seq} received for table {table_id} has no text or "
                "chain; nothing was stored"
            )
        try:
            is_object = isinstance(json.loads(text), dict)
        except ValueError:
            is_object = False
        if not is_object:
            raise StoreError(
                f"{self.where}: record {seq} received for table {table_id} is not a JSON "
                "object; nothing was stored"
            )
        return seq, text, chain

    def high_water(self, table_id: str) -> int:
        """The highest n such that records 1..n of a table are all stored (0 when record 1 is
        missing): where a resend must start from. NotFound when there is no such table.

        One query, one pass over the table's (table_id, seq) index: seqs are unique and from
        1, so a seq equals its rank exactly up to the first gap, and the highest such seq is
        the high water (none when record 1 is missing). Not an anti-join probing each seq's
        successor: PostgreSQL plans that per seq as a scan of the whole table's index while
        its statistics are stale (a new game), which took 14 ms at 1,000 records (make bench).
        """
        ranked = (
            select(
                LOG.c.seq.label("seq"),
                func.row_number().over(order_by=LOG.c.seq).label("rank"),
            )
            .where(LOG.c.table_id == table_id)
            .subquery()
        )
        lowest_end = (
            select(func.max(ranked.c.seq)).where(ranked.c.seq == ranked.c.rank).scalar_subquery()
        )
        known = select(func.count()).where(TABLES.c.id == table_id).scalar_subquery()
        with self._db("read the log") as conn:
            row = conn.execute(select(known, cast(lowest_end, Integer))).one()
            conn.rollback()
        if not row[0]:
            raise NotFound(f"no table {table_id!r}")
        return int(row[1] or 0)
