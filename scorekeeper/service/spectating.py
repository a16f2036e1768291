"""The spectator delay wired into the hub: turning it on, off or changing it, putting a stored
one back when a table loads, and handing the public watchers the delayed views when they are
due.

The delay itself (the time-stamped buffer of public views) is ``service/delay.py``. The rest of
its wiring stays where the hub does the thing it changes (so that the path of each input calls
nothing more): ``_publish_locked`` records each change in the delay instead of sending the
public view, and ``_hand_over`` pumps it on the loop (publishing.py); ``subscribe`` and
``view_json`` give the public audience the view the delay shows, ``summary`` its facts
(views.py); the public export waits until it is off (exporting.py); a table with a delay is
never unloaded (registry.py) and a deleted one's delay is closed (lifecycle.py).

Locks: ``set_spectator_delay`` takes the table's lock (``Live.lock``) and, inside it, the store
lock to store the seconds; ``_start_delay`` runs at load, before any other thread can see the
table (no lock); ``_to_public`` runs on the event loop and takes the table's lock to list the
public watchers. The delay's own short lock is taken inside these (``SpectatorDelay``).
"""

from __future__ import annotations

from scorekeeper.core.game import PUBLIC
from scorekeeper.service import delay as spectator
from scorekeeper.service.delay import SpectatorDelay
from scorekeeper.service.hub_base import HubBase
from scorekeeper.service.live import Live
from scorekeeper.service.watchers import fanout


class SpectatorDelays(HubBase):
    """The hub's part that turns each table's spectator delay on and off and delivers it."""

    def set_spectator_delay(self, table_id: str, seconds: float) -> float:
        """Show the public audience the table as it was ``seconds`` ago (0: live again);
        stored with the table. Seats and the organiser always see it live."""
        seconds = spectator.check_seconds(seconds)
        live = self._get(table_id)
        with live.lock:
            self._table(live)
            with self._store_lock:
                spectator.write_seconds(self.store, table_id, seconds)
            old = live.delay
            if old is not None and seconds:
                old.set_seconds(seconds)
            elif seconds:
                live.delay = SpectatorDelay(seconds, clock=self._clock)
            elif old is not None:
                live.delay = None
                self._on_loop(old.close)
            self._publish_locked(live)
        return seconds

    def spectator_delay(self, table_id: str) -> float:
        """The table's spectator delay in seconds (0: off)."""
        delay = self._get(table_id).delay
        return delay.seconds if delay is not None else 0.0

    @staticmethod
    def _delayed(seconds: float) -> bool:
        """Whether a stored spectator delay is on (such a table stays loaded: its delay holds
        the views it will show)."""
        return spectator.usable_seconds(seconds) > 0

    def _start_delay(self, live: Live, seconds: float) -> None:
        """Put back a stored delay on a table being loaded: the view of this moment is shown at
        once (spectators have seen it live already)."""
        live.delay = SpectatorDelay(seconds, clock=self._clock)
        live.delay.record(live.version, self._render(live, PUBLIC), self._facts(live))

    @staticmethod
    def _to_public(live: Live, version: int, payload: str) -> None:
        """On the loop: a delayed public view that is now due, to the public watchers."""
        with live.lock:
            subs = list(live.subs.get(PUBLIC, ()))
        fanout([(version, payload, subs)])
