"""Inputs: the way every input reaches a table (``submit``), and the notices that are not
inputs.

``submit`` is the hot path of every sighting: under the table's lock, ``Table.submit`` appends
the input to the log, durably, before applying it, then ``_publish_locked`` renders the new
views and hands them to the event loop. A table that is not running logs the input as refused
(rule TABLE-NOT-RUNNING) and raises NotRunning; an undo or a correction pinned to its preview
(``expect_seq``) raises MovedOn when the table has moved on, before anything is logged.

Locks: ``submit``, ``inputs_seen`` and ``notice`` take the table's lock (``Live.lock``) for the
whole change; the log append inside takes the store lock (``LockedSink``). ``wait_inputs`` waits
on a condition of the table's lock (``Live.changed``, notified by ``_publish_locked``).
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.inputs import Correct, Input, Undo
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.table import RULE_NOT_RUNNING, Table, without_names
from scorekeeper.errors import MovedOn, NotRunning
from scorekeeper.service.hub_base import HubBase, log
from scorekeeper.service.publishing import Prepared
from scorekeeper.service.texts import (
    NOT_RUNNING,
    ODD_STATUS,
    RUNNING,
    again,
    input_words,
    moved_on,
    not_running,
)

NOTICES = 10  # how many notices a table's view shows (the latest)


@dataclass(frozen=True, slots=True)
class Submitted:
    """What became of one input: its log sequence number and the referee's verdict."""

    accepted: bool
    seq: int
    events: tuple[str, ...] = ()
    rejection: Rejected | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "accepted": self.accepted,
            "seq": self.seq,
            "events": list(self.events),
        }
        if self.rejection is not None:
            out.update(self.rejection.to_dict())
        return out


class Inputs(HubBase):
    """The hub's part that takes each input (and each notice) to its table."""

    def submit(
        self, table_id: str, inp: Input, *, expect_seq: int | None = None, typed: bool = False
    ) -> Submitted:
        """Log ``inp`` durably, apply it, and publish the new views.

        ``typed``: the organiser typed the input (no piece was laid), so a refusal asks for no
        physical move ("that input was not applied; nothing to put back").

        ``expect_seq`` pins an undo or a correction to what its preview showed: the log seq of
        the input it takes back. When the table has moved on (it would take back another one)
        MovedOn is raised and nothing is logged; the check and the submit hold the table's lock
        together, so no input can slip in between.

        For a table that is not running (except undo and corrections, which the organiser may
        make at any time) the input is logged as refused (rule TABLE-NOT-RUNNING, shown in the
        feed, never applied), the views are published, and then NotRunning is raised. An input
        the rules reject is logged too and comes back with ``accepted`` False and its rule.
        """
        live = self._get(table_id)
        with live.lock:
            table = self._table(live)
            if expect_seq is not None and isinstance(inp, Undo | Correct):
                self._check_pinned(table, inp, expect_seq)
            if live.status != RUNNING and not isinstance(inp, Undo | Correct):
                status = live.status
                table.refuse(inp, not_running(status, inp), typed=typed)
                seq = table.feed[-1].seq if table.feed else table.inputs_seen
                self._publish_locked(live)
                log.info(
                    "input refused",
                    extra={
                        "table": table_id,
                        "seq": seq,
                        "rule": RULE_NOT_RUNNING,
                        "status": status,
                    },
                )
                then = "nothing to put back" if typed else again(status, inp)
                raise NotRunning(
                    f"table {table_id} {NOT_RUNNING.get(status, ODD_STATUS)}; "
                    f"this input is logged as refused, not recorded as a play; {then}"
                )
            # The views are rendered while the input's commit may still be in flight (the
            # log-work thread, service/log_sink.py), and handed over once it is durable.
            prepared: list[Prepared] = []
            result = table.submit(
                inp, typed=typed, alongside=lambda: prepared.append(self._prepare(live))
            )
            seq = table.feed[-1].seq if table.feed else table.inputs_seen
            # The log (the journal) names no hidden card: its reason says "the card".
            logged = (
                None
                if result.rejection is None
                else without_names(result.rejection, table.secret_names())
            )
            self._publish_locked(live, *prepared)
        if logged is not None:
            log.info(
                "input refused",
                extra={"table": table_id, "seq": seq, "rule": logged.rule, "reason": logged.reason},
            )
        else:
            log.debug("input accepted", extra={"table": table_id, "seq": seq})
        return Submitted(result.accepted, seq, result.events, result.rejection)

    @staticmethod
    def _check_pinned(table: Table, inp: Undo | Correct, expect_seq: int) -> None:
        """Raise MovedOn unless ``inp`` would take back the input logged as ``expect_seq``."""
        now = table.last_accepted_seq
        if (now or 0) == expect_seq:  # 0: the preview showed nothing to take back
            return
        last = table.referee.last_accepted
        words = (
            "nothing"
            if last is None or now is None
            else f"{input_words(table.game, table.config.seats, last)} (#{now})"
        )
        raise MovedOn(moved_on("undo" if isinstance(inp, Undo) else "correct", words, expect_seq))

    def inputs_seen(self, table_id: str) -> int:
        """How many inputs (accepted or not) the table's log holds."""
        live = self._get(table_id)
        with live.lock:
            return self._table(live).inputs_seen

    def wait_inputs(self, table_id: str, count: int, timeout: float) -> bool:
        """Block until the table has seen ``count`` inputs; False on timeout."""
        live = self._get(table_id)
        with live.lock:
            if live.changed is None:
                live.changed = threading.Condition(live.lock)
            changed = live.changed
        with changed:
            if live.table is None and live.brief is not None:
                self._reload(live)
            return changed.wait_for(
                lambda: live.table is not None and live.table.inputs_seen >= count, timeout
            )

    def notice(self, table_id: str, text: str, rule: str = "") -> None:
        """Show a problem that is not a table input (a reader unplugged, a paused table)."""
        live = self._get(table_id)
        with live.lock:
            if live.notices is None:
                live.notices = deque(maxlen=NOTICES)
            live.notices.append({"text": text, "rule": rule} if rule else {"text": text})
            self._publish_locked(live)
