"""A table: a game bound to its seats, zone layout, tag kit and log.

``Table.submit`` is the one door for every input: it appends the input to the log (durable before
anything else happens), maps raw sightings to pieces and zones, hands the result to the referee,
and tells its listeners. ``Table.refuse`` logs an input the table itself turns away (it is not
running) without applying it: the record carries a ``"refused"`` key with the rejection.
``Table.replay`` rebuilds a table from its log records without logging, refusals included.
Each logged input becomes a line of the table's feed (``FeedEntry``, scorekeeper/core/feed.py).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorekeeper.core.answering import NOT_RUNNING, UNKNOWN_READER, UNKNOWN_TAG, WRONG_SEAT
from scorekeeper.core.feed import UNNAMED as UNNAMED
from scorekeeper.core.feed import FeedEntry as FeedEntry
from scorekeeper.core.feed import without_names as without_names
from scorekeeper.core.game import ORGANISER, PUBLIC, Audience, Game
from scorekeeper.core.inputs import (
    Correct,
    Decision,
    Input,
    InputSyntaxError,
    Seen,
    Sighting,
    Undo,
    input_from_record,
)
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.putback import PutBack, put_back_for
from scorekeeper.core.referee import Referee, Result
from scorekeeper.core.text import render_seats
from scorekeeper.errors import ConfigError

# (FeedEntry, without_names and UNNAMED live in feed.py; they are imported from here too.)
RULE_UNKNOWN_READER = UNKNOWN_READER
RULE_UNKNOWN_TAG = UNKNOWN_TAG
RULE_WRONG_SEAT = WRONG_SEAT
RULE_NOT_RUNNING = NOT_RUNNING
REFUSED = "refused"  # the log record key of an input the table refused without applying it
TYPED = "typed"  # the log record key of an input the organiser typed (no piece was laid)
FEED_LENGTH = 50
# Inputs kept to find the last FEED_LENGTH that say something: lifting cards off the table
# (accepted, no events) must not push the real plays out of the feed.
FEED_KEPT = 400


class LogSink(Protocol):
    """Where a table appends its inputs. ``append`` returns only once the record is durable."""

    def append(self, record: dict[str, Any]) -> int: ...


@dataclass(frozen=True)
class TableConfig:
    """Everything that fixes how a table's inputs are read: stored with the table, never edited."""

    game: str
    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    layout: Mapping[str, str] = field(default_factory=dict)  # reader id -> zone
    kit: Mapping[str, str] = field(default_factory=dict)  # tag uid -> piece id
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": list(self.seats),
            "options": dict(self.options),
            "layout": dict(self.layout),
            "kit": dict(self.kit),
            "name": self.name,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableConfig:
        try:
            return cls(
                game=str(data["game"]),
                seats=tuple(str(s) for s in data["seats"]),
                options=dict(data.get("options") or {}),
                layout={str(k): str(v) for k, v in (data.get("layout") or {}).items()},
                kit={str(k): str(v) for k, v in (data.get("kit") or {}).items()},
                name=str(data.get("name") or ""),
            )
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ConfigError(f"bad table configuration: {exc}") from exc


Listener = Callable[["Table", FeedEntry], None]


def _laid(inp: Input) -> bool:
    """True for an input that stands for a piece laid or lifted (its refusal's hint may ask to
    put it back), as opposed to an answer, an undo or a correction of an answer."""
    if isinstance(inp, Correct):
        return isinstance(inp.replacement, Seen)
    return isinstance(inp, Seen | Sighting)


def refusal_from_record(record: Mapping[str, Any]) -> Rejected | None:
    """The table-level refusal a log record carries, or None; InputSyntaxError if damaged."""
    value = record.get(REFUSED)
    if value is None:
        return None
    if not isinstance(value, Mapping) or not isinstance(value.get("rule"), str):
        raise InputSyntaxError(f"bad refusal in input record {dict(record)!r}")
    return Rejected(value["rule"], str(value.get("reason", "")), str(value.get("hint", "")))


class Table:
    """One live (or replayed) table. Not thread-safe: drive it from one thread or event loop."""

    def __init__(self, config: TableConfig, game: Game[Any], log: LogSink | None = None) -> None:
        self.config = config
        self.game = game
        self.log = log
        self.referee = Referee(game, config.options, len(config.seats))
        self.feed: deque[FeedEntry] = deque(maxlen=FEED_KEPT)
        self.listeners: list[Listener] = []
        # Feed entries whose listeners wait for their input to be durable (``submit``).
        self._held: list[FeedEntry] | None = None
        self.inputs_seen = 0
        # The log seq of each accepted input still in force (parallel to the referee's): what
        # an undo or a correction would take back now, to hold it to what its preview showed.
        self.accepted_seqs: list[int] = []
        # What to move after the last accepted undo or correction, until the next play.
        self.put_back: PutBack | None = None
        # (seq, scores) each time the shown scores change: the dashboard's score-history chart.
        # A game whose scores are private during play records none until it is over.
        shown = game.shown_scores(self.referee.state)
        self.score_history: list[tuple[int, tuple[int, ...]]] = (
            [] if shown is None else [(0, tuple(shown))]
        )
        # secret_names' pattern, once worked out.
        self._piece_names: tuple[re.Pattern[str] | None] | None = None
        zones = set(game.zones(len(config.seats)))
        bad = sorted({z for z in config.layout.values() if z not in zones})
        if bad:
            raise ConfigError(
                f"zone layout names zones {game.name} does not have: "
                f"{', '.join(bad)}; known zones: {', '.join(sorted(zones))}"
            )
        # The pieces of the copy these options name (a deck manifest's counts), not a fixed list.
        pieces = set(game.pieces_for(self.referee.options))
        bad = sorted({p for p in config.kit.values() if p not in pieces})
        if bad:
            raise ConfigError(f"kit names pieces {game.name} does not have: {', '.join(bad[:10])}")

    @property
    def state(self) -> Any:
        return self.referee.state

    def secret_names(self) -> re.Pattern[str] | None:
        """A pattern for every way a refusal may name a piece of this game: its id and its
        words, with "the" before them (None for a game without pieces). Refusals shown to
        anyone but the organiser name where, not what ("take the card off the talon").

        Every piece, not only those secret now: words that changed when a card was hidden
        later would tell everyone which card it was (the perturbation check,
        tests/test_privacy_perturbation.py, found exactly that), and a card shown while public
        would be named after it went back into a hand. Worked out once per table, from the
        pieces and words of the copy the table's options name (``Game.pieces_for``).

        None for a game without secret pieces (``Game.secret_pieces`` False: every card on
        the table is public), whose refusals keep their names ("the forest village (4)")."""
        if self._piece_names is not None:
            return self._piece_names[0]
        if not self.game.secret_pieces:
            self._piece_names = (None,)
            return None
        names: set[str] = set()
        options = self.referee.options
        for piece in self.game.pieces_for(options):
            names.add(piece)
            # A game that cannot put a piece in words cannot have put it in a hint either.
            with contextlib.suppress(Exception):
                names.add(self.game.describe_piece(piece))
            with contextlib.suppress(Exception):
                names.add(self.game.describe_piece_for(piece, options))
        pattern = None
        if names:
            # Longest first, whole words only: "red angel 1" never eats into "red angel 10".
            alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
            pattern = re.compile(rf"(?<!\w)(?:[Tt]he )?(?:{alternatives})(?!\w)")
        self._piece_names = (pattern,)
        return pattern

    @property
    def last_accepted_seq(self) -> int | None:
        """The log seq of the input an undo or a correction would take back now, or None."""
        return self.accepted_seqs[-1] if self.accepted_seqs else None

    def submit(
        self, inp: Input, typed: bool = False, alongside: Callable[[], None] | None = None
    ) -> Result:
        """Log ``inp`` durably, then apply it. Every input is logged, accepted or not.

        ``typed``: the organiser typed it (no piece was laid), so a refusal's hint asks for no
        physical move (``Rejected.typed``); the record keeps a ``"typed"`` key for replays.
        ``alongside``: the caller's work once the input is applied (the hub renders its views).
        A sink with ``append_while`` (service/log_sink.py) may apply the input and run it on
        another thread while the commit is in flight; HAZARD: it must let nothing out, and the
        listeners hear of the input only once it is durable.
        """
        record = inp.to_record()
        if typed:
            record[TYPED] = True

        def apply(seq: int) -> Result:
            result = self._apply(inp, seq, typed)
            if alongside is not None:
                alongside()
            return result

        append_while = getattr(self.log, "append_while", None)
        if append_while is None:
            return apply(self.log.append(record) if self.log is not None else self.inputs_seen + 1)
        self._held = []
        try:
            result: Result = append_while(record, apply)
        finally:
            held, self._held = self._held, None
        for entry in held:
            self._hear(entry)
        return result

    def refuse(self, inp: Input, rejection: Rejected, typed: bool = False) -> Result:
        """Log ``inp`` durably as refused by the table itself, and do not apply it.

        For an input the table turns away before the rules see it (the table is not running):
        the record gets a ``"refused"`` key holding ``rejection``, the feed shows the refusal,
        ``inputs_seen`` counts it and the listeners hear of it; the game state does not change.
        ``Table.replay`` rebuilds the same feed from the record and never applies it. ``typed``
        as for ``submit``.
        """
        record = inp.to_record()
        if typed and _laid(inp):
            rejection = rejection.typed()
            record[TYPED] = True
        record[REFUSED] = rejection.to_dict()
        seq = self.log.append(record) if self.log is not None else self.inputs_seen + 1
        return self._refused(inp, rejection, seq)

    def _apply(self, inp: Input, seq: int, typed: bool = False) -> Result:
        self.inputs_seen += 1
        mapped = self.map_input(inp)
        text = inp.to_str()
        put_back = None
        taken_back: Seen | Decision | None = None
        if isinstance(mapped, Rejected):
            result = Result(False, rejection=mapped)
        else:
            taken_back = self.referee.last_accepted
            before = self.referee.state
            result = self._render(self.referee.apply(mapped))
            if result.accepted and isinstance(mapped, Undo | Correct) and taken_back:
                # The organiser's feed (raw inputs) says what was taken back; the public
                # events only say where (it may have been a hidden card or a private answer).
                text = f"{text} (was: {taken_back.to_str()})"
                put_back = put_back_for(
                    self.game,
                    self.config.seats,
                    mapped,
                    taken_back,
                    before,
                    self.referee.state,
                    self.referee.history,
                    seq,
                    self.referee.options,
                )
            if result.accepted:
                self._track(mapped, seq, put_back)
        if result.accepted:
            shown = self.game.shown_scores(self.referee.state)
            scores = None if shown is None else tuple(shown)
            if scores is not None and (
                not self.score_history or scores != self.score_history[-1][1]
            ):
                self.score_history.append((seq, scores))
        if typed and result.rejection is not None and _laid(inp):
            result = Result(False, result.events, result.rejection.typed())
        words = functools.partial(
            self._words,
            mapped if isinstance(mapped, Seen) else inp,
            taken_back if result.accepted and put_back else None,
        )
        self._tell(
            FeedEntry(
                seq,
                result.accepted,
                text,
                result.events,
                result.rejection,
                put_back,
                describe=words,
                unnamed=self.secret_names,
            )
        )
        return result

    def _words(self, inp: Input, taken_back: Seen | Decision | None = None) -> str:
        """``inp`` in plain words for the organiser's feed (what an undo or a correction took
        back, too); empty when the game cannot say (the raw input still goes along)."""
        seats = self.config.seats
        try:
            options = self.referee.options  # the copy's piece words (Game.describe_piece_for)
            words = self.game.describe_input(inp, seats, options=options)
            if taken_back is not None:
                back = self.game.describe_input(taken_back, seats, options=options)
                words += f" (taking back: {back})"
        except Exception:  # noqa: BLE001 - words are a courtesy; the raw input is the record
            return ""
        return words

    def _track(self, mapped: Input, seq: int, put_back: PutBack | None) -> None:
        """Keep ``accepted_seqs`` and ``put_back`` in step with an accepted input."""
        if isinstance(mapped, Undo | Correct):
            if self.accepted_seqs:
                self.accepted_seqs.pop()
            if isinstance(mapped, Correct):
                self.accepted_seqs.append(seq)
            self.put_back = put_back
            return
        self.accepted_seqs.append(seq)
        # Lifting pieces off is what the instruction asks for: it stays up until a new play.
        if not (isinstance(mapped, Seen) and not mapped.present):
            self.put_back = None

    def _refused(self, inp: Input, rejection: Rejected, seq: int) -> Result:
        self.inputs_seen += 1
        self._tell(
            FeedEntry(
                seq,
                False,
                inp.to_str(),
                (),
                rejection,
                describe=functools.partial(self._words, inp),
                unnamed=self.secret_names,
            )
        )
        return Result(False, rejection=rejection)

    def _tell(self, entry: FeedEntry) -> None:
        """Add ``entry`` to the feed and hand it to every listener (later, when ``submit``
        holds them back until its input is durable)."""
        self.feed.append(entry)
        if self._held is not None:
            self._held.append(entry)
        else:
            self._hear(entry)

    def _hear(self, entry: FeedEntry) -> None:
        for listener in list(self.listeners):
            listener(self, entry)

    def _render(self, result: Result) -> Result:
        """The result with the game's seat markers replaced by the players' names."""
        names = self.config.seats
        rejection = result.rejection
        if rejection is not None:
            rejection = Rejected(
                rejection.rule,
                render_seats(rejection.reason, names),
                render_seats(rejection.hint, names),
            )
        return Result(
            result.accepted, tuple(render_seats(e, names) for e in result.events), rejection
        )

    def map_input(self, inp: Input) -> Seen | Decision | Undo | Correct | Rejected:
        """Turn a raw sighting into a piece in a zone; other inputs pass through."""
        if not isinstance(inp, Sighting):
            if (
                isinstance(inp, Decision)
                and inp.seat is not None
                and not (0 <= inp.seat < len(self.config.seats))
            ):
                return Rejected(
                    RULE_WRONG_SEAT,
                    f"there is no seat {inp.seat} at this table",
                    f"seats are 0 to {len(self.config.seats) - 1}",
                )
            return inp
        zone = self.config.layout.get(inp.reader)
        if zone is None:
            return Rejected(
                RULE_UNKNOWN_READER,
                f"reader {inp.reader!r} is not in the zone layout",
                "check the reader's wiring or add it to the layout",
            )
        piece = self.config.kit.get(inp.uid)
        if piece is None:
            piece = self._kit_lookup(inp.uid)
        if piece is None:
            return Rejected(
                RULE_UNKNOWN_TAG,
                f"tag {inp.uid} is not in this table's kit",
                f"take it off the {zone} reader, or enroll it with 'scorekeeper enroll'",
            )
        return Seen(zone, piece, inp.present)

    def _kit_lookup(self, uid: str) -> str | None:
        """The piece of a uid written another way (``04:a1:b2:c3``), or None."""
        from scorekeeper.core.kit import normalise_uid  # only on a miss: keeps start-up lean
        from scorekeeper.errors import EnrollmentError

        try:
            return self.config.kit.get(normalise_uid(uid))
        except EnrollmentError:
            return None

    @classmethod
    def replay(
        cls,
        config: TableConfig,
        game: Game[Any],
        records: Iterable[tuple[int, Mapping[str, Any]]],
        listeners: Iterable[Listener] = (),
    ) -> Table:
        """Rebuild a table from ``(seq, record)`` pairs without logging them again.

        ``listeners`` hear every feed entry of the replay (the feed itself keeps only the last
        ``FEED_LENGTH``). A record the table refused (``"refused"``) is shown, never applied.
        """
        table = cls(config, game, log=None)
        table.listeners.extend(listeners)
        for seq, record in records:
            table.apply_record(seq, record)
        return table

    def apply_record(self, seq: int, record: Mapping[str, Any]) -> None:
        """Apply one logged record without logging it again (replay, or a replica catching up
        with the table it copies: scorekeeper/event/). Records must come in seq order, each
        once; InputSyntaxError for a record that is not an input."""
        inp = input_from_record(dict(record))
        refusal = refusal_from_record(record)
        if refusal is None:
            self._apply(inp, seq, bool(record.get(TYPED)))
        else:
            self._refused(inp, refusal, seq)

    def recent_feed(self, audience: Audience) -> list[FeedEntry]:
        """The last FEED_LENGTH feed entries ``audience`` is shown: for the organiser every
        input; for everyone else the ones that say something (events or a refusal)."""
        if audience == ORGANISER:
            return list(itertools.islice(self.feed, max(0, len(self.feed) - FEED_LENGTH), None))
        entries = []  # from the newest back: on every sighting's path, the feed keeps FEED_KEPT
        for entry in reversed(self.feed):
            if entry.events or not entry.accepted:
                entries.append(entry)
                if len(entries) == FEED_LENGTH:
                    break
        entries.reverse()
        return entries

    def waiting_for(self) -> str:
        """What the table is waiting for, in plain words with the players' names."""
        return render_seats(self.game.waiting_for(self.state), self.config.seats)

    def view(self, audience: Audience, feed: bool = True) -> dict[str, Any]:
        """The whole picture ``audience`` may see: the game's view plus table facts and feed
        (``feed`` False: an empty list in its place, for a caller that has the feed's JSON)."""
        state = self.state
        names = self.config.seats
        scores = self.game.shown_scores(state)
        prompts = []
        for prompt in self.game.pending(state):
            if not prompt.private or audience in (ORGANISER, prompt.seat):
                shown = prompt.to_dict()
                shown["question"] = render_seats(prompt.question, names)
                prompts.append(shown)
        return {
            "game": self.game.id,
            "game_name": self.game.name,
            "name": self.config.name,
            "seats": list(self.config.seats),
            "audience": audience if audience in (PUBLIC, ORGANISER) else f"seat {audience}",
            "over": self.game.is_over(state),
            # None, and scores_private True, while the game keeps its scores to the end.
            "scores": scores,
            "scores_private": scores is None,
            "waiting_for": self.waiting_for(),
            "pending": prompts,
            "state": self.game.view(state, audience),
            "feed": [e.to_dict(audience) for e in self.recent_feed(audience)] if feed else [],
            "inputs": self.inputs_seen,
            "score_history": []
            if scores is None
            else [{"seq": seq, "scores": list(sc)} for seq, sc in self.score_history],
            "put_back": None if self.put_back is None else self.put_back.to_dict(audience),
        }
