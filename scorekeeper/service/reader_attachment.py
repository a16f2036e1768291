"""Reader attachment: opening, starting and stopping each table's reader backend, and what
comes back from it (sightings, health).

A table's readers are a backend spec (``sim``, ``serial:/dev/...``) stored in its settings
(``Store.set_readers``); they run while it is running or paused. A backend calls back from its
own thread: ``_on_sighting`` submits the sighting (``Inputs.submit``) and never raises; a refusal
is sounded where it happened (the bridge's buzzer). ``check_readers`` turns a reader going
offline or coming back into a notice.

Locks: ``_attach_once`` checks and marks ``attaching`` under the table's lock (``Live.lock``),
then opens and starts the backend with no lock held (opening hardware can take a while), and
takes the table's lock again to keep it; ``_detach`` takes the backend out under the table's
lock and stops it outside. A sighting takes whatever ``submit`` takes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper.core.inputs import Sighting
from scorekeeper.core.table import RULE_NOT_RUNNING
from scorekeeper.errors import NotRunning, ScorekeeperError, TableStateError
from scorekeeper.service.hub_base import HubBase, log
from scorekeeper.service.live import Live
from scorekeeper.service.texts import ENDED, PAUSED, RUNNING, backend_health, online_changes


class ReaderAttachment(HubBase):
    """The hub's part that runs each table's reader backend and hears from it."""

    def start_readers(self) -> None:
        """Open the reader backends of every running or paused table (at server start)."""
        for live in self._all():
            if live.readers_spec and live.status in (RUNNING, PAUSED) and live.table:
                self._attach_once(live)

    def _open(self, spec: str, layout: Mapping[str, str]) -> Any:
        """Build (not start) a reader backend; ConfigError when the spec is wrong."""
        # A bare "sim" gets the layout's readers; other specs name their own hardware.
        options = {"reader_ids": tuple(layout)} if spec.strip().lower() == "sim" else {}
        return self._open_readers(spec, **options)

    def _attach_once(self, live: Live, backend: Any = None) -> None:
        """Attach the table's readers unless they run or another thread is attaching them.

        The check and the "attaching" mark are made together under the table's lock, so two
        concurrent starts open the readers once; the opening itself runs outside the lock.
        """
        with live.lock:
            spec = live.readers_spec
            if not spec or live.readers is not None or live.attaching:
                return
            live.attaching = True
        try:
            self._attach(live, spec, backend)
        finally:
            with live.lock:
                live.attaching = False

    def _attach(self, live: Live, spec: str, backend: Any = None) -> None:
        """Open (unless given) and start the table's readers; a failure becomes a notice."""
        try:
            if backend is None:
                backend = self._open(spec, live.config.layout)
            backend.start(self.sighting_sink(live.table_id))
        except Exception as exc:  # noqa: BLE001 - no reader problem may stop the table
            log.error(
                "readers not started",
                extra={"table": live.table_id, "readers": spec, "error": str(exc)},
            )
            self.notice(
                live.table_id, f"the readers ({spec}) did not start: {exc}", "TABLE-READERS"
            )
            return
        with live.lock:
            ended = live.status == ENDED
            if not ended:
                live.readers = backend
        if ended:  # the table ended while its readers were opening: they are not wanted
            self._stop_backend(live, backend)
            return
        log.info("readers started", extra={"table": live.table_id, "readers": spec})

    def _detach(self, live: Live) -> None:
        with live.lock:
            backend, live.readers = live.readers, None
        self._stop_backend(live, backend)

    @staticmethod
    def _stop_backend(live: Live, backend: Any) -> None:
        if backend is not None:
            try:
                backend.stop()
            except Exception:  # noqa: BLE001 - stopping must never stop the others
                log.exception("readers did not stop cleanly", extra={"table": live.table_id})

    def sighting_sink(self, table_id: str) -> Callable[[Sighting], None]:
        """The callback a reader backend of this table reports to (from any thread)."""
        self._get(table_id)
        return lambda sighting: self._on_sighting(table_id, sighting)

    def adopt_readers(self, table_id: str, backend: Any) -> None:
        """Make an already started backend the table's readers (stopped with the table)."""
        live = self._get(table_id)
        self._detach(live)
        live.readers = backend

    def readers(self, table_id: str) -> Any:
        """The table's running reader backend, or None."""
        return self._get(table_id).readers

    def _on_sighting(self, table_id: str, sighting: Sighting) -> None:
        """A reader backend saw a tag (called from the backend's thread). Never raises."""
        try:
            done = self.submit(table_id, sighting)
            if not done.accepted:
                self._signal_refusal(table_id, sighting.reader)
        except NotRunning as exc:  # logged as refused: the card must be laid again later
            log.warning(
                "sighting refused",
                extra={"table": table_id, "reader": sighting.reader, "error": str(exc)},
            )
            self.notice(table_id, f"reader {sighting.reader}: {exc}", RULE_NOT_RUNNING)
            self._signal_refusal(table_id, sighting.reader)
        except TableStateError as exc:
            log.warning(
                "sighting not recorded",
                extra={"table": table_id, "reader": sighting.reader, "error": str(exc)},
            )
            self.notice(table_id, f"reader {sighting.reader}: {exc}", RULE_NOT_RUNNING)
        except ScorekeeperError as exc:
            log.error(
                "sighting failed",
                extra={"table": table_id, "reader": sighting.reader, "error": str(exc)},
            )
            self.notice(table_id, f"reader {sighting.reader}: {exc}")
        except Exception:  # noqa: BLE001 - a reader thread must survive any bug here
            log.exception("sighting crashed", extra={"table": table_id})

    def _signal_refusal(self, table_id: str, reader: str) -> None:
        """Let the readers sound the refusal where it happened (the bridge's buzzer)."""
        backend = self._get(table_id).readers
        signal = getattr(backend, "signal_refusal", None)
        if signal is not None:
            signal(reader)

    def reader_health(self, table_id: str) -> dict[str, Any]:
        """Each reader's health as plain values (empty when the table has no readers)."""
        return backend_health(self.readers(table_id))

    def check_readers(self) -> None:
        """Tell the table when one of its readers goes offline or comes back (call every ~2 s)."""
        for live in self._all():
            if live.readers is None:
                continue
            health = self.reader_health(live.table_id)
            for reader, online, text, rule in online_changes(live.online, health):
                log.warning(
                    "reader status",
                    extra={"table": live.table_id, "reader": reader, "online": online},
                )
                self.notice(live.table_id, text, rule)
