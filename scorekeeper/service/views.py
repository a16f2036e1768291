"""The hub's views: what each audience may see of a table, serialised once per change.

``view`` composes a view now; ``view_json`` and ``_render`` give its JSON text, cached per
audience until the table's version moves on (``_publish_locked`` bumps it), and a feed line is
serialised once per kind of audience (``Live.feed_json``), not at each view. ``summary`` is one
line of the table list (as spectators see it when the spectator delay is on).

The public methods first wait until the table's last input is durable (``log_sink.settle``;
it is, unless an input is being taken right now): no view is composed from an input the log
does not hold yet. ``_compose``, ``_render`` and ``_facts`` do not wait: ``_publish_locked``
renders while the commit may be in flight and publishes only after it.

Locks: each public method takes the table's lock (``Live.lock``) around the work; ``_compose``,
``_render``, ``_feed_json`` and ``_facts`` are called with it held. ``_table`` may replay an
unloaded table (the registry's reload: the store lock, the tables lock); a failed commit found
by ``settle`` replays the table (the store lock). Nothing else.
"""

from __future__ import annotations

import json
import operator
import secrets
from typing import Any

from scorekeeper.core.game import ORGANISER, PUBLIC, Audience
from scorekeeper.core.table import FeedEntry
from scorekeeper.errors import NotFound
from scorekeeper.service import delay as spectator
from scorekeeper.service.hub_base import HubBase
from scorekeeper.service.live import Live, dumps
from scorekeeper.service.log_sink import settle
from scorekeeper.service.texts import ENDED

# Stands in for the feed while a view is serialised; the feed's cached JSON replaces it. Random
# per process, so no player name or notice can ever spell it.
_FEED_MARK = f"\x00feed {secrets.token_hex(16)}\x00"
_FEED_MARK_JSON = dumps(_FEED_MARK)


class Views(HubBase):
    """The hub's part that composes, serialises and caches the tables' views and summaries."""

    def _compose(self, live: Live, audience: Audience, feed: bool = True) -> dict[str, Any]:
        """The view as a dict (``feed`` False: the feed left empty, for ``_render``)."""
        table = self._table(live)
        view: dict[str, Any] = {
            "id": live.table_id,
            "status": live.status,
            "archived": live.archived,
        }
        view.update(table.view(audience, feed))
        if live.status == ENDED:  # an ended table waits for nobody and asks nothing
            view["pending"] = []
            if not view.get("over"):  # a finished game's line is its result: it stays
                view["waiting_for"] = ""
        view["accepted"] = table.referee.accepted_count
        if live.notices:
            view["notices"] = list(live.notices)
        return view

    def view(self, table_id: str, audience: Audience) -> dict[str, Any]:
        """What ``audience`` may see of the table now, with its id and status."""
        live = self._get(table_id)
        with live.lock:
            settle(live, self.store, self._store_lock)
            return self._compose(live, audience)

    def view_json(self, table_id: str, audience: Audience) -> str:
        """The same view as JSON text, serialised at most once per change and audience; the
        public one as spectators see it (``set_spectator_delay``), ``view`` is always live."""
        live = self._get(table_id)
        with live.lock:
            settle(live, self.store, self._store_lock)
            shown = live.delay.payload() if live.delay and audience == PUBLIC else None
            return shown[1] if shown else self._render(live, audience)

    def _render(self, live: Live, audience: Audience) -> str:
        cached = live.cache.get(audience)
        if cached is not None and cached[0] == live.version:
            return cached[1]
        # The same text dumps(view) gives, but the feed (most of the view, and only one new
        # line per input) comes from per-entry JSON serialised once, not from dicts made anew.
        view = self._compose(live, audience, feed=False)
        view["feed"] = _FEED_MARK
        entries = self._table(live).recent_feed(audience)
        feed_json = self._feed_json(live, audience, entries)
        payload = dumps(view).replace(_FEED_MARK_JSON, feed_json, 1)
        live.cache[audience] = (live.version, payload)
        return payload

    @staticmethod
    def _feed_json(live: Live, audience: Audience, entries: list[FeedEntry]) -> str:
        """``entries`` (the feed ``audience`` is shown now: ``Table.recent_feed``) as JSON,
        from the per-entry cache; the lines of the entries this kind of audience was last shown
        are taken over as they are (one new line per input: no walk over the whole feed)."""
        organiser = audience == ORGANISER
        cache = live.feed_json
        last = live.feed_lines.get(organiser)
        parts = _slid(last[0], last[1], entries) if last is not None else None
        if parts is None:
            parts = []
        for entry in entries[len(parts) :]:
            key = (id(entry), organiser)
            hit = cache.get(key)
            if hit is None or hit[0] is not entry:
                hit = cache[key] = (entry, dumps(entry.to_dict(audience)))
            parts.append(hit[1])
        live.feed_lines[organiser] = (entries, parts)
        if len(cache) > 4 * len(parts) + 8:  # drop this kind's lines that scrolled out
            keep = {id(e) for e in entries}
            for key in [k for k in cache if k[1] == organiser and k[0] not in keep]:
                del cache[key]
        return "[" + ",".join(parts) + "]"

    def summary(self, table_id: str, delayed: bool = True) -> dict[str, Any]:
        """One line of the table list: no secrets, only what the TV may show (as spectators
        see it: ``delayed`` False gives the organiser the facts without the spectator delay)."""
        live = self._get(table_id)
        with live.lock:
            settle(live, self.store, self._store_lock)
            out: dict[str, Any] = {
                "id": live.table_id,
                "name": live.config.name,
                "game": live.config.game,
                "status": live.status,
                "archived": live.archived,
                "seats": list(live.config.seats),
            }
            if live.table is None and live.brief is not None:  # unloaded: as it was stored
                facts = json.loads(live.brief)
                for kept in ("winners", "table"):  # for readers of the database
                    facts.pop(kept, None)
                out.update(facts)
                out["status"] = live.status
                return out
            if live.table is None:
                out["error"] = live.error
                return out
            out["game_name"] = live.table.game.name
            facts = live.delay.facts() if delayed and live.delay else None
            out.update(facts or self._facts(live))
            if facts is not None and live.delay is not None:
                out["spectator_delay"] = spectator.shown_number(live.delay.seconds)
            return out

    def _facts(self, live: Live) -> dict[str, Any]:
        """The table list's facts that change with play (the spectator delay holds them)."""
        table = self._table(live)
        over = table.game.is_over(table.state)
        # An ended table waits for nobody; a finished game's line is its result, and stays.
        waiting = "" if live.status == ENDED and not over else table.waiting_for()
        scores = table.game.shown_scores(table.state)  # None: kept to the end
        return {
            "status": live.status,
            "scores": scores,
            "scores_private": scores is None,
            "over": over,
            "waiting_for": waiting,
            "accepted": table.referee.accepted_count,
            "inputs": table.inputs_seen,
        }

    def summaries(self, delayed: bool = True, archived: bool = False) -> list[dict[str, Any]]:
        """Every table's summary; archived tables only with ``archived``."""
        out = []
        for table_id in self.table_ids():
            try:
                if archived or not self._get(table_id).archived:
                    out.append(self.summary(table_id, delayed))
            except NotFound:  # deleted meanwhile
                continue
        return out


def _slid(shown: list[FeedEntry], lines: list[str], entries: list[FeedEntry]) -> list[str] | None:
    """The lines of ``shown`` that begin ``entries`` (the same entries, in the same order,
    the feed having moved on by some at its head), or None when ``entries`` does not begin
    with the rest of ``shown`` from one of its entries on."""
    if not entries:
        return []
    first = entries[0]
    start = next((i for i, entry in enumerate(shown) if entry is first), None)
    if start is None:
        return None
    kept = shown[start:]
    if len(kept) > len(entries) or not all(map(operator.is_, kept, entries)):
        return None
    return lines[start:]
