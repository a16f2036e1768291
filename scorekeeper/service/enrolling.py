"""Enrollment sessions for the organiser console: tagging a kit in the browser.

The same walk as ``scorekeeper enroll`` (``commands/enroll.py``): each piece without a tag, in
the game's order, is asked for in turn; the next tag seen on the chosen reader (or typed, or
made up by the sim reader's "simulate a tag" button) is registered to it, checked by
``Kit.add`` (a tag already registered, a malformed uid: refused with a message, and the same
piece is asked for again) and the kit is saved to the store after every tag, so stopping, a
closed browser or a power cut loses nothing. Starting a session for a stored kit carries on
where it stopped.

A game whose copies differ records what is printed on them as it goes (``DataKind.per_piece``,
core/per_piece.py): right after such a piece is tagged the session asks its fields (``ask`` in
its state, answered with ``answer``; no other tag is taken meanwhile), keeps the answers in the
store at once, and saves the data entry of the kit's name once every piece is tagged and
answered, or when it stops. ``options`` name the copy's data entry when its pieces follow one.

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
from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Sighting
from scorekeeper.core.kit import check_kit_name, copy_options, copy_pieces, normalise_uid, open_kit
from scorekeeper.core.per_piece import (
    AnswerBook,
    check_answers,
    per_piece_kind,
    questions,
    save_entry,
)
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
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.sid = sid
        self.store = store
        self.game = game
        self.kit = open_kit(store, game, kit_name)
        # The copy tagged: the pieces of the options' data entry (Game.pieces_for).
        self.options = options
        self.pieces = copy_pieces(game, options)
        # What the game records per piece while tagging (a deck manifest), and the answers.
        self.kind = per_piece_kind(game.data_kinds())
        self.book = None if self.kind is None else AnswerBook(store, self.kind, kit_name)
        self.entry: dict[str, Any] | None = None  # the data entry saved, or why it is not
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
        """Stop the readers and end the session (safe to call twice); the copy's data entry
        is saved with what there is."""
        with self.lock:
            if not self.active:
                return
            self.active = False
            self._record()
            backend, self.backend = self.backend, None
        if backend is not None:
            try:
                backend.stop()
            except Exception:  # noqa: BLE001 - stopping must not fail the request
                log.exception("enrollment readers did not stop cleanly")

    # -- the walk ------------------------------------------------------------------------------

    def words(self, piece: str) -> str:
        """``piece`` in words: as the copy named by the options prints it, else the game's
        words (never a guessed copy's: its faces are what is being recorded)."""
        if self.options is None:
            return self.game.describe_piece(piece)
        return self.game.describe_piece_for(piece, self.options)

    def current(self) -> str | None:
        """The piece asked for now: the first untagged piece not skipped, or None."""
        tagged = set(self.kit.entries.values())
        return next((p for p in self.pieces if p not in tagged and p not in self.skipped), None)

    def _tagged(self) -> list[str]:
        tagged = set(self.kit.entries.values())
        return [p for p in self.pieces if p in tagged]

    def asking(self) -> str | None:
        """The piece whose printed fields are asked now: the first tagged one the game's data
        kind asks about that has no answers yet, or None."""
        if self.book is None:
            return None
        return next(iter(self.book.unanswered(self._tagged())), None)

    def answer(self, given: Mapping[str, Any]) -> bool:
        """Answer the fields asked about the piece of ``asking`` (field -> value or label);
        False (with a message in ``last``) when one is missing or not one of its choices."""
        with self.lock:
            piece = self.asking() if self.active else None
            if piece is None or self.kind is None or self.kind.per_piece is None:
                self._say(False, "no piece is waiting for answers")
                return False
            assert self.book is not None
            try:
                values = check_answers(self.kind.per_piece, given)
            except ValueError as exc:
                self._say(False, f"{exc}", piece=piece)
                return False
            self.book.put(piece, values)
            shown = ", ".join(
                f"{q.title} {dict(q.choices).get(values[q.field], values[q.field])}"
                for q in questions(self.kind.per_piece)
            )
            self._say(True, f"{self.words(piece)} ({piece}): {shown}", piece=piece)
            self._record_if_done()
            return True

    def _record_if_done(self) -> None:
        done, total = self.kit.progress(self.game, self.options)
        if done == total and self.asking() is None:
            self._record()

    def _record(self) -> None:
        """Save the copy's data entry under the kit's name from the answers and the pieces
        tagged (hold the lock); ``entry`` says what was saved, or why not."""
        if self.kind is None or self.book is None:
            return
        tagged = self._tagged()
        if not tagged:
            return
        noun, name = self.kind.noun, self.kit.name
        try:
            saved = save_entry(self.store, self.kind, name, tagged)
        except ScorekeeperError as exc:
            self.entry = {"name": name, "saved": False, "problems": [str(exc)]}
            self._say(False, f"the {noun} {name!r} is not saved: {exc}")
            return
        missing = self.book.unanswered(tagged)
        problems = saved.problems() + [f"what is printed on {p} is not known" for p in missing]
        self.entry = {"name": name, "saved": True, "complete": not problems, "problems": problems}
        left = f"; still to fill in: {'; '.join(problems)}" if problems else " (complete)"
        self._say(True, f"saved the {noun} {name!r}{left}")

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
            asked = self.asking()
            if asked is not None:
                self._say(
                    False,
                    f"tag {uid} was not used: first answer what is printed on "
                    f"{with_article(self.words(asked))} ({asked})",
                    uid=uid,
                )
                return False
            piece = self.current()
            if piece is None:
                self._say(False, f"tag {uid} was not used: no piece is waiting for a tag", uid=uid)
                return False
            name = self.words(piece)
            try:
                norm = normalise_uid(uid)
                self.kit.add(norm, piece, self.game, self.options)
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
            if self.book is not None:
                self.book.forget(piece)  # answers from an earlier tag of it are asked again
            done, total = self.kit.progress(self.game, self.options)
            self._say(
                True,
                f"{name} ({piece}) = {norm} ({done}/{total} tagged, {source})",
                piece=piece,
                uid=norm,
            )
            self._record_if_done()
            return True

    def skip(self) -> str | None:
        """Leave the piece asked for untagged for now; returns it (None when none is asked)."""
        with self.lock:
            asked = self.asking()
            if asked is not None:
                self._say(False, f"first answer what is printed on {self.words(asked)} ({asked})")
                return None
            piece = self.current()
            if piece is not None:
                self.skipped.append(piece)
                self._say(True, f"skipped the {self.words(piece)} ({piece})", piece=piece)
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
            done, total = self.kit.progress(self.game, self.options)
            piece = self.current()
            nxt = (
                None
                if piece is None
                else {
                    "piece": piece,
                    "name": self.words(piece),
                    "text": f"Place {with_article(self.words(piece))} ({piece}) on the reader",
                }
            )
            asked = self.asking()
            ask = None
            if asked is not None and self.kind is not None and self.kind.per_piece is not None:
                ask = {
                    "piece": asked,
                    "name": self.words(asked),
                    "text": f"What is printed on {with_article(self.words(asked))} ({asked})?",
                    "fields": [q.to_dict() for q in questions(self.kind.per_piece)],
                }
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
                # the fields asked about the piece just tagged (answer before the next tag)
                "ask": ask,
                "records": None if self.kind is None else self.kind.noun,
                "entry": self.entry,
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
        self,
        kit: str,
        game: str,
        readers: str | None = None,
        reader: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> EnrollSession:
        """Start (or resume) tagging ``kit``; a session already open on that kit is stopped.
        ``options`` (table options, e.g. ``{"deck": "big"}``) name the copy's data entry."""
        self.reap()
        found = self._find_game(game)
        check_kit_name(kit)
        resolved = copy_options(found, options, self.store)  # ConfigError: a bad option
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
                sid,
                self.store,
                found,
                kit,
                backend=backend,
                readers=spec,
                reader=reader,
                options=resolved,
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
