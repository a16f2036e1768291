"""Tag a physical copy of a game, piece by piece, into a kit (a tag registry).

For each piece not yet tagged, in the game's order, scorekeeper asks you to place it on the
reader (or to type its tag uid, e.g. from a USB reader that types like a keyboard). Enter skips
a piece, 'q' stops. Every tag is saved as soon as it is read, so stopping (or Ctrl-C) loses
nothing: run the same command again to carry on where you left off.

A game whose copies differ records what is printed on them as it goes: right after a card is
tagged, its fields are asked (King of the Elves: a village's terrain and value), with the
choices listed; at the end the answers and the pieces tagged by type are saved as a data entry
of the kit's name (``scorekeeper data show NAME --game GAME``). --option names the copy's data
entry when its pieces follow one (a deck manifest with 11 rafts has raft_11).

With simulated readers (--readers sim) no card can be placed: Enter lays a made-up tag
(FA4E..., a kind no real tag has) on the sim reader instead, and 's' skips. For a whole kit of
made-up tags at once: scorekeeper kit fake --game GAME --kit NAME.

examples:
  scorekeeper enroll --game angels-and-demons --kit club-copy
  scorekeeper enroll --game angels-and-demons --kit club-copy --readers sim --reader r1
  scorekeeper enroll --game angels-and-demons --kit club-copy --piece A5r   (re-tag A5r)
  scorekeeper enroll --game angels-and-demons --kit club-copy --list
  scorekeeper enroll --game GAME --kit big-copy --option deck=big   (the pieces of that deck)
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from scorekeeper.core.game import Game
from scorekeeper.core.inputs import Sighting
from scorekeeper.core.kit import (
    copy_options,
    copy_pieces,
    next_made_up_uid,
    normalise_uid,
    open_kit,
    option_pairs,
)
from scorekeeper.core.per_piece import (
    AnswerBook,
    answer_value,
    per_piece_kind,
    questions,
    save_entry,
)
from scorekeeper.core.text import with_article
from scorekeeper.errors import ConfigError, EnrollmentError
from scorekeeper.games import find_game, game_ids
from scorekeeper.store import Store, sqlite_url

DEFAULT_DB = "var/scorekeeper.db"
STOP_WORDS = ("q", "quit", "stop")
SKIP_WORDS = ("s", "skip")  # with a sim reader, where Enter simulates a tag
SIM_READER = "r0"  # the sim reader a simulated tag is laid on when --reader is not given


class ReaderBackend(Protocol):
    """What enrollment needs of a reader backend (``scorekeeper.readers.open_readers``)."""

    def start(self, emit: Callable[[Sighting], None]) -> None: ...

    def stop(self) -> None: ...


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``scorekeeper enroll``."""
    parser.add_argument("--game", required=True, help=f"id of the game: {', '.join(game_ids())}")
    parser.add_argument("--kit", required=True, help="name of the kit to create or continue")
    parser.add_argument(
        "--db", default=DEFAULT_DB, help=f"database file or URL (default: {DEFAULT_DB})"
    )
    parser.add_argument(
        "--readers",
        metavar="SPEC",
        help="read tags from a reader backend (sim, serial:/dev/...); without "
        "it, type (or keyboard-wedge) the uids",
    )
    parser.add_argument(
        "--reader", metavar="READER_ID", help="only listen to this reader of the backend"
    )
    parser.add_argument(
        "--piece", metavar="ID", help="start at this piece (and re-tag it if it already has a tag)"
    )
    parser.add_argument(
        "--list", action="store_true", help="list every piece with its tag and stop"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option naming the copy (repeat), e.g. deck=my-deck: its pieces are tagged",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``scorekeeper enroll``; returns the exit code."""
    game = find_game(args.game)
    given = option_pairs(args.option)
    with Store(sqlite_url(args.db)) as store:
        options = copy_options(game, given, store)
        session = Enrollment(store, game, args.kit, sys.stdout, options)
        if args.list:
            session.print_list()
            return 0
        backend = open_backend(args.readers) if args.readers else None
        return session.run(sys.stdin, backend=backend, reader=args.reader, start=args.piece)


def open_backend(spec: str) -> ReaderBackend:
    """Open the reader backend named by ``spec`` (imported here: typed mode needs none)."""
    from scorekeeper.readers import open_readers

    return open_readers(spec)


class Enrollment:
    """One enrollment session: a game, the kit being filled in, the store it is saved to."""

    def __init__(
        self,
        store: Store,
        game: Game[Any],
        kit_name: str,
        out: TextIO,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.store = store
        self.game = game
        self.out = out
        self.kit = open_kit(store, game, kit_name)
        # The copy tagged: the pieces the options' data entry lists (Game.pieces_for).
        self.options = options
        self.pieces = copy_pieces(game, options)
        # What the game records per piece while tagging (a deck manifest), and the answers.
        self.kind = per_piece_kind(game.data_kinds())
        self.book = None if self.kind is None else AnswerBook(store, self.kind, kit_name)

    def words(self, piece: str) -> str:
        """``piece`` in words: as the copy named by the options prints it, else the game's
        words (never a guessed copy's: its faces are what is being recorded)."""
        if self.options is None:
            return self.game.describe_piece(piece)
        return self.game.describe_piece_for(piece, self.options)

    def say(self, text: str) -> None:
        """Print one line for the person enrolling."""
        print(text, file=self.out, flush=True)

    def progress(self) -> str:
        """``"17/104 tagged"``."""
        done, total = self.kit.progress(self.game, self.options)
        return f"{done}/{total} tagged"

    def print_list(self) -> None:
        """Every piece in enrollment order with its tag uid (or ``-``)."""
        self.say(f"kit {self.kit.name} ({self.game.name}): {self.progress()}")
        for piece in self.pieces:
            uid = self.kit.uid_of(piece) or "-"
            self.say(f"  {piece:<8} {uid:<20} {self.words(piece)}")

    def offer(self, piece: str, uid: str) -> bool:
        """Try to register ``uid`` on ``piece`` and save the kit; explains a refusal.

        A piece that already has a tag (``--piece``) gets the new one instead; if the new one
        is refused, the old tag stays.
        """
        try:
            norm = normalise_uid(uid)
        except EnrollmentError as exc:
            self.say(f"  refused: {exc}")
            return False
        old = self.kit.untag(piece)
        try:
            self.kit.add(norm, piece, self.game, self.options)
        except EnrollmentError as exc:
            if old is not None:
                self.kit.entries[old] = piece
            self.say(f"  refused: {exc}")
            return False
        self.store.save_kit(self.kit.name, self.kit.game, self.kit.entries)
        if self.book is not None:
            self.book.forget(piece)  # tagged again: what is printed on it is asked again
        again = f" (was {old})" if old is not None and old != norm else ""
        self.say(f"  {piece} = {norm}{again} ({self.progress()})")
        return True

    def _next_piece(self, start: str | None, skipped: set[str]) -> str | None:
        pieces = list(self.pieces)
        if start is not None:
            at = pieces.index(start)
            pieces = pieces[at:] + pieces[:at]
        tagged = set(self.kit.entries.values())
        return next((p for p in pieces if p not in tagged and p not in skipped), None)

    def _prompt(self, piece: str, sim_reader: str | None = None) -> None:
        name = self.words(piece)
        uid = self.kit.uid_of(piece)
        if sim_reader is not None:
            again = f"{piece} is tagged {uid}. " if uid is not None else ""
            keep = "'s' keeps it" if uid is not None else "'s' skips"
            said = with_article(name)
            self.say(
                f"[{self.progress()}] {again}{said[:1].upper()}{said[1:]} ({piece}): "
                f"press Enter to simulate a made-up tag on sim reader {sim_reader}, or "
                f"type a tag uid; {keep}, 'q' stops"
            )
        elif uid is not None:
            self.say(
                f"[{self.progress()}] {piece} is tagged {uid}. Place {with_article(name)} "
                f"({piece}) on the reader, or type its new tag uid; Enter keeps it, "
                "'q' stops"
            )
        else:
            self.say(
                f"[{self.progress()}] Place {with_article(name)} ({piece}) on the reader, "
                "or type its tag uid; Enter skips, 'q' stops"
            )

    def run(
        self,
        inp: TextIO,
        backend: ReaderBackend | None = None,
        reader: str | None = None,
        start: str | None = None,
    ) -> int:
        """Ask for each untagged piece until all are tagged, 'q', end of input or Ctrl-C.

        ``inp`` gives typed lines; ``backend`` (optional) gives sightings, of which only
        arrivals at ``reader`` (any reader if None) count. ``start`` begins at that piece and
        offers to re-tag it. Returns 0, or 130 after Ctrl-C.
        """
        if start is not None and start not in self.pieces:
            raise EnrollmentError(f"{self.game.name} has no piece {start!r}; see --list")
        events: queue.Queue[tuple[str, str]] = queue.Queue()
        sim_reader = _sim_reader(backend, reader)
        if backend is not None:

            def emit(sighting: Sighting) -> None:
                if sighting.present and (reader is None or sighting.reader == reader):
                    events.put(("tag", sighting.uid))

            threading.Thread(
                target=_pump_lines, args=(inp, events), daemon=True, name="enroll-stdin"
            ).start()
            backend.start(emit)
        skipped: set[str] = set()
        pinned = start  # the --piece piece is asked for even when already tagged
        typing_open = True
        threaded = backend is not None
        quit_ = False  # 'q' or the end of typed input: ask nothing more
        try:
            # Pieces tagged last time but not asked about (stopped while answering) come first.
            quit_ = not self.catch_up(inp, events, threaded)
            while not quit_:
                piece = pinned or self._next_piece(start, skipped)
                if piece is None:
                    break
                self._prompt(piece, sim_reader)
                kind, text = self._next_event(inp, events, backend is not None)
                if sim_reader is not None and kind == "line":
                    word = text.strip().lower()
                    if not word:
                        # Enter: what placing a card would do, on the sim reader.
                        kind, text = self._simulate(backend, sim_reader, events)
                    elif word in SKIP_WORDS:
                        text = ""
                if kind == "eof":
                    if backend is None or not typing_open or sim_reader is not None:
                        break  # nothing else can come: a sim reader is driven by typing
                    typing_open = False
                    self.say("  (no more typed input: waiting for tags; Ctrl-C stops)")
                    kind, text = events.get()
                if kind == "line" and text.strip().lower() in STOP_WORDS:
                    quit_ = True
                    break
                if kind == "line" and not text.strip():
                    skipped.add(piece)
                    pinned = None
                    continue
                if self.offer(piece, text.strip()):
                    pinned = None
                    if not self.ask(piece, inp, events, threaded):
                        quit_ = True
                        break
            self.record(inp, events, threaded, ask=not quit_)
        except KeyboardInterrupt:
            self.say(f"\nStopped: {self.progress()}. Run the same command again to carry on.")
            return 130
        finally:
            if backend is not None:
                backend.stop()
        done, total = self.kit.progress(self.game, self.options)
        if done == total:
            self.say(f"All {total} pieces of kit {self.kit.name} are tagged.")
        else:
            self.say(f"Stopped: {done}/{total} tagged. Run the same command again to carry on.")
        return 0

    # -- what is printed on the pieces (DataKind.per_piece) -------------------------------------

    def ask(
        self,
        piece: str,
        inp: TextIO,
        events: queue.Queue[tuple[str, str]],
        threaded: bool,
    ) -> bool:
        """Ask the fields of the game's data kind about ``piece`` (nothing for a piece it does
        not ask about), each re-asked until its answer is one of its choices, and keep the
        answers at once. False when 'q' or the end of input stopped it (nothing kept)."""
        if self.kind is None or self.book is None or self.kind.per_piece is None:
            return True
        per_piece = self.kind.per_piece
        if not per_piece.asks(piece):
            return True
        self.say(f"  What is printed on {with_article(self.words(piece))} ({piece})?")
        values: dict[str, Any] = {}
        for question in questions(per_piece):
            choices = question.choice_words()
            about = f" ({question.help})" if question.help else ""
            while True:
                self.say(f"  {question.title.capitalize()}{about}: {choices or 'type it'}?")
                kind, text = self._next_event(inp, events, threaded)
                if kind == "tag":
                    self.say("  (a tag was read while answering: not used; lay it again after)")
                    continue
                if kind == "eof" or text.strip().lower() in STOP_WORDS:
                    return False
                try:
                    values[question.field] = answer_value(per_piece, question, text)
                    break
                except ValueError as exc:
                    self.say(f"  {exc}")
        self.book.put(piece, values)
        return True

    def catch_up(self, inp: TextIO, events: queue.Queue[tuple[str, str]], threaded: bool) -> bool:
        """Ask about every piece tagged without answers; False when stopped."""
        if self.book is None:
            return True
        tagged_ids = set(self.kit.entries.values())
        tagged = [p for p in self.pieces if p in tagged_ids]
        return all(self.ask(p, inp, events, threaded) for p in self.book.unanswered(tagged))

    def record(
        self,
        inp: TextIO,
        events: queue.Queue[tuple[str, str]],
        threaded: bool,
        ask: bool = True,
    ) -> None:
        """Once tagging stops: ask about the pieces tagged without answers (``ask``), then
        save the data entry of the kit's name from the answers and the pieces tagged (as the
        console's editor would), and say what was saved or what is still missing."""
        if self.kind is None or self.book is None:
            return
        tagged_ids = set(self.kit.entries.values())
        tagged = [p for p in self.pieces if p in tagged_ids]
        if not tagged:
            return
        if ask:
            self.catch_up(inp, events, threaded)
        noun, name = self.kind.noun, self.kit.name
        try:
            entry = save_entry(self.store, self.kind, name, tagged)
        except ConfigError as exc:
            self.say(f"The {noun} {name!r} is not saved: {exc}. Run the same command again.")
            return
        missing = self.book.unanswered(tagged)
        problems = entry.problems() + [f"what is printed on {p} is not known" for p in missing]
        if problems:
            self.say(f"Saved the {noun} {name!r}; still to fill in: {'; '.join(problems)}.")
        else:
            self.say(f"Saved the {noun} {name!r} (complete).")

    def _simulate(
        self, backend: ReaderBackend | None, reader: str, events: queue.Queue[tuple[str, str]]
    ) -> tuple[str, str]:
        """Lay a made-up tag on the sim ``reader`` and lift it, as a hand would; the reader's
        sighting is the event returned (typed lines that came meanwhile stay queued)."""
        uid = next_made_up_uid(self.kit)
        self.say(f"  simulated: a made-up tag {uid} on sim reader {reader}")
        put = getattr(backend, "put")  # noqa: B009 - only sim backends get here
        take = getattr(backend, "take")  # noqa: B009
        put(reader, uid)  # the sim delivers at once, in this thread
        take(reader, uid)
        held: list[tuple[str, str]] = []
        while (event := events.get()) != ("tag", uid):
            held.append(event)
        for other in held:
            events.put(other)
        return event

    @staticmethod
    def _next_event(
        inp: TextIO, events: queue.Queue[tuple[str, str]], threaded: bool
    ) -> tuple[str, str]:
        if threaded:
            return events.get()
        line = inp.readline()
        return ("line", line) if line else ("eof", "")


def _pump_lines(inp: TextIO, events: queue.Queue[tuple[str, str]]) -> None:
    """Feed typed lines into the event queue (a thread, when a reader backend also feeds it)."""
    try:
        for line in iter(inp.readline, ""):
            events.put(("line", line))
    except (OSError, ValueError):
        pass
    events.put(("eof", ""))


def _sim_reader(backend: ReaderBackend | None, reader: str | None) -> str | None:
    """The reader a simulated tag goes on when ``backend`` is the sim backend, else None."""
    if backend is None or getattr(backend, "name", "") != "sim":
        return None
    if reader is not None:
        return reader
    ids = tuple(getattr(backend, "reader_ids", ()))
    return ids[0] if ids else SIM_READER
