"""Enrollment sessions for the organiser console: tagging a kit in the browser.

The same walk as ``scorekeeper enroll`` (``commands/enroll.py``): each piece without a tag, in
the game's order, is asked for in turn; the next tag seen on the chosen reader (or typed, or
made up by the sim reader's "simulate a tag" button) is registered to it, checked by
``Kit.add`` (a tag already registered, a malformed uid: refused with a message, and the same
piece is asked for again) and the kit is saved to the store after every tag, so stopping, a
closed browser or a power cut loses nothing. Starting a session for a stored kit carries on
where it stopped.

A session holds its own reader backend (opened from a spec, like the command's ``--readers``);
readers report from their own threads, HTTP handlers from the thread pool: each session has a
lock. Sessions nobody has looked at for ``IDLE_SECONDS`` are stopped (their readers released).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Sighting
from scorekeeper.core.kit import check_kit_name, normalise_uid, open_kit
from scorekeeper.core.text import with_article
from scorekeeper.errors import ConfigError, EnrollmentError, NotFound, ScorekeeperError

log = logging.getLogger("scorekeeper.enroll")

IDLE_SECONDS = 30 * 60
MAX_SESSIONS = 8
MESSAGES = 12
SIM_READER = "r0"  # the sim reader a simulated tag is laid on when no reader was chosen


class WrongBackend(ConfigError):
    """An action the session's readers cannot do (simulating a tag on real hardware)."""


def _default_find_game(game_id: str) -> Game[Any]:
    from scorekeeper.games import find_game

    return find_game(game_id)


def _default_open_readers(spec: str) -> Any:
    from scorekeeper.readers import open_readers

    return open_readers(spec)


class EnrollSession:
    """One kit being tagged: the kit, the pieces skipped so far, the readers listened to."""

    def __init__(
        self,
        sid: str,
        store: Any,
        game: Game[Any],
        kit_name: str,
        *,
        backend: Any = None,
        readers: str = "",
        reader: str | None = None,
    ) -> None:
        self.sid = sid
        self.store = store
        self.game = game
        self.kit = open_kit(store, game, kit_name)
        self.backend = backend
        self.readers = readers
        self.reader = reader or None
        self.lock = threading.RLock()
        self.skipped: list[str] = []
        self.messages: deque[dict[str, Any]] = deque(maxlen=MESSAGES)
        self.last: dict[str, Any] | None = None
        self.active = True
        self.touched = time.monotonic()
        self._count = 0

    @property
    def sim(self) -> bool:
        """True when the readers are the sim backend (the console offers "simulate a tag")."""
        return (
            self.backend is not None
            and callable(getattr(self.backend, "put", None))
            and (getattr(self.backend, "name", "") == "sim")
        )

    # -- readers -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start listening to the readers (if any)."""
        if self.backend is not None:
            self.backend.start(self._on_sighting)

    def _on_sighting(self, sighting: Sighting) -> None:
        """A tag arrived or left a reader (the backend's thread): arrivals on ours count."""
        if not sighting.present or (self.reader is not None and sighting.reader != self.reader):
            return
        try:
            self.offer(sighting.uid, source=f"reader {sighting.reader}")
        except Exception:  # noqa: BLE001 - a reader thread must survive anything
            log.exception("enrollment sighting failed", extra={"kit": self.kit.name})

    def stop(self) -> None:
        """Stop the readers and end the session (safe to call twice)."""
        with self.lock:
            if not self.active:
                return
            self.active = False
            backend, self.backend = self.backend, None
        if backend is not None:
            try:
                backend.stop()
            except Exception:  # noqa: BLE001 - stopping must not fail the request
                log.exception("enrollment readers did not stop cleanly")

    # -- the walk ------------------------------------------------------------------------------

    def current(self) -> str | None:
        """The piece asked for now: the first untagged piece not skipped, or None."""
        tagged = set(self.kit.entries.values())
        return next(
            (p for p in self.game.pieces() if p not in tagged and p not in self.skipped), None
        )

    def _say(self, ok: bool, text: str, **extra: Any) -> None:
        self._count += 1
        entry = {"n": self._count, "ok": ok, "text": text, **extra}
        self.messages.append(entry)
        self.last = entry

    def offer(self, uid: str, source: str = "typed") -> bool:
        """Register ``uid`` on the piece asked for and save the kit; False (with a message in
        ``last``) when it is refused."""
        with self.lock:
            if not self.active:
                return False
            piece = self.current()
            if piece is None:
                self._say(False, f"tag {uid} was not used: no piece is waiting for a tag", uid=uid)
                return False
            name = self.game.describe_piece(piece)
            try:
                norm = normalise_uid(uid)
                self.kit.add(norm, piece, self.game)
            except EnrollmentError as exc:
                hint = (
                    (f" (a card enrolled before, placed again? put the {name} on the reader)")
                    if "already registered" in str(exc)
                    else ""
                )
                self._say(False, f"refused: {exc}{hint}", piece=piece, uid=uid)
                return False
            try:
                self.store.save_kit(self.kit.name, self.kit.game, self.kit.entries)
            except ScorekeeperError as exc:
                self.kit.untag(piece)
                self._say(False, f"not saved: {exc}", piece=piece, uid=norm)
                return False
            done, total = self.kit.progress(self.game)
            self._say(
                True,
                f"{name} ({piece}) = {norm} ({done}/{total} tagged, {source})",
                piece=piece,
                uid=norm,
            )
            return True

    def skip(self) -> str | None:
        """Leave the piece asked for untagged for now; returns it (None when none is asked)."""
        with self.lock:
            piece = self.current()
            if piece is not None:
                self.skipped.append(piece)
                self._say(
                    True, f"skipped the {self.game.describe_piece(piece)} ({piece})", piece=piece
                )
            return piece

    def simulate(self, uid: str | None = None) -> str:
        """Make the sim reader see a tag (a fresh uid unless one is given); returns the uid.

        The tag is laid on the chosen reader and lifted again, as a person would.
        """
        with self.lock:
            if not self.active:
                raise WrongBackend("this enrollment has stopped; start it again")
            backend = self.backend
            if not self.sim or backend is None:
                raise WrongBackend(
                    "only the sim reader can simulate a tag; place the card on the real reader"
                )
            if uid is None:
                uid = self._fresh_uid()
        reader = self.reader or SIM_READER
        backend.put(reader, uid)  # the sim delivers at once, in this thread
        backend.take(reader, uid)
        return uid

    def _fresh_uid(self) -> str:
        while True:
            uid = "04" + secrets.token_hex(6).upper()  # a 7-byte uid, as on NTAG stickers
            if uid not in self.kit.entries:
                return uid

    def state(self) -> dict[str, Any]:
        """Progress, the piece asked for (in plain words) and what happened lately."""
        with self.lock:
            self.touched = time.monotonic()
            done, total = self.kit.progress(self.game)
            piece = self.current()
            nxt = (
                None
                if piece is None
                else {
                    "piece": piece,
                    "name": self.game.describe_piece(piece),
                    "text": (
                        f"Place {with_article(self.game.describe_piece(piece))} ({piece}) "
                        "on the reader"
                    ),
                }
            )
            return {
                "sid": self.sid,
                "kit": self.kit.name,
                "game": self.game.id,
                "game_name": self.game.name,
                "readers": self.readers,
                "reader": self.reader,
                "sim": self.sim,
                "active": self.active,
                "tagged": done,
                "total": total,
                "complete": done == total,
                "progress": f"{done}/{total} tagged",
                "next": nxt,
                "skipped": list(self.skipped),
                "last": self.last,
                "messages": list(self.messages),
            }


class EnrollSessions:
    """The console's enrollment sessions, by id; at most one per kit."""

    def __init__(
        self,
        store: Any,
        *,
        find_game: Callable[[str], Game[Any]] | None = None,
        open_readers: Callable[[str], Any] | None = None,
    ) -> None:
        self.store = store
        self._find_game = find_game or _default_find_game
        self._open_readers = open_readers or _default_open_readers
        self._lock = threading.Lock()
        self._sessions: dict[str, EnrollSession] = {}

    def start(
        self, kit: str, game: str, readers: str | None = None, reader: str | None = None
    ) -> EnrollSession:
        """Start (or resume) tagging ``kit``; a session already open on that kit is stopped."""
        self.reap()
        found = self._find_game(game)
        check_kit_name(kit)
        spec = (readers or "").strip()
        reader = (reader or "").strip() or None
        with self._lock:
            old = [s for s in self._sessions.values() if s.kit.name == kit]
        for s in old:
            self.stop(s.sid)
        with self._lock:
            if len(self._sessions) >= MAX_SESSIONS:
                raise ConfigError(f"{MAX_SESSIONS} enrollments are open already; stop one first")
        backend = self._open_readers(spec) if spec else None  # ConfigError: a bad spec
        sid = secrets.token_urlsafe(9)
        try:
            session = EnrollSession(
                sid, self.store, found, kit, backend=backend, readers=spec, reader=reader
            )
            session.start()
        except BaseException:
            if backend is not None:
                backend.stop()
            raise
        with self._lock:
            self._sessions[sid] = session
        log.info(
            "enrollment started", extra={"kit": kit, "game": found.id, "readers": spec or "typed"}
        )
        return session

    def get(self, sid: str) -> EnrollSession:
        with self._lock:
            session = self._sessions.get(sid)
        if session is None:
            raise NotFound(
                f"no enrollment {sid!r} is open (it was stopped, or the server "
                "restarted): start it again, it carries on where it stopped"
            )
        return session

    def stop(self, sid: str) -> EnrollSession:
        """Stop a session and forget it; returns it (its ``state()`` is still readable)."""
        with self._lock:
            session = self._sessions.pop(sid, None)
        if session is None:
            raise NotFound(f"no enrollment {sid!r} is open")
        session.stop()
        log.info("enrollment stopped", extra={"kit": session.kit.name})
        return session

    def reap(self, idle: float = IDLE_SECONDS) -> None:
        """Stop the sessions nobody has looked at for ``idle`` seconds."""
        now = time.monotonic()
        with self._lock:
            stale = [s.sid for s in self._sessions.values() if now - s.touched > idle]
        for sid in stale:
            with contextlib.suppress(NotFound):
                self.stop(sid)

    def close(self) -> None:
        """Stop every session (at server shutdown)."""
        with self._lock:
            sids = list(self._sessions)
        for sid in sids:
            with contextlib.suppress(NotFound):
                self.stop(sid)
