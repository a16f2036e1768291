"""What to do with the physical pieces after an undo or a correction, in plain words.

The referee takes an input back in memory; the card itself still lies where it was laid. After
an accepted undo or correction the table tells the people at it what to move: "Take the 6 of
Demons back off Bot 4's discard pile and put it back in Bot 2's hand." The words are derived
from the taken-back input (a piece seen at a zone: take it off; a piece gone: put it back) and,
where the log tells, where it came from (an earlier lift of the same piece, else the hand of the
seat whose turn it is again).

Privacy (docs/design.md, invariant 5): a piece that is one seat's secret just before or just
after the undo (a card on an Arcanum hide strip) is never named in the public words: "take back
the card Bot 2 just laid on Bot 2's hide strip". Its owner's phone and the organiser get the
name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.game import ORGANISER, PUBLIC, Audience, Game, S
from scorekeeper.core.inputs import Correct, Decision, GameInput, Seen, Undo
from scorekeeper.core.text import with_article


@dataclass(frozen=True, slots=True)
class PutBack:
    """The instruction after one accepted undo or correction (log record ``seq``).

    ``public`` is safe for everyone; ``private`` may name a hidden card and goes only to the
    organiser and to ``owner`` (the seat whose secret it is; None when nothing was hidden).
    """

    seq: int
    kind: str  # "undo" or "correct"
    public: str
    private: str
    owner: int | None = None

    def text_for(self, audience: Audience) -> str:
        """The words ``audience`` may read."""
        if audience == ORGANISER or (self.owner is not None and audience == self.owner):
            return self.private
        return self.public

    def to_dict(self, audience: Audience) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "text": self.text_for(audience)}


def piece_words(game: Game[Any], piece: str, options: Mapping[str, Any] | None = None) -> str:
    """A piece's name with its article ("the 6 of Demons"); the id when the game has none.
    ``options`` (the table's resolved options): as the copy they name prints it."""
    try:
        if options is not None:
            return with_article(game.describe_piece_for(piece, options))
        return with_article(game.describe_piece(piece))
    except Exception:  # noqa: BLE001 - an unknown piece is named by its id
        return piece


def zone_words(game: Game[Any], zone: str, names: Sequence[str]) -> str:
    """A zone in plain words, with its seat's name when it belongs to one (``Game.zone_named``)."""
    return game.zone_named(zone, names)


def _owner(game: Game[S], piece: str, states: Sequence[S], seats: int) -> int | None:
    """The seat for whom ``piece`` is a secret in any of ``states``, or None."""
    for state in states:
        for seat in range(seats):
            try:
                if piece in game.secrets(state, seat):
                    return seat
            except Exception:  # noqa: BLE001 - a game that cannot tell hides nothing here
                return None
    return None


def _active_seat(game: Game[S], state: S) -> int | None:
    """The seat whose turn it is in ``state`` (the public view's ``active_seat``), or None."""
    try:
        seat = game.view(state, PUBLIC).get("active_seat")
    except Exception:  # noqa: BLE001 - without it the words only say "where it came from"
        return None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def _origin(
    game: Game[S],
    seen: Seen,
    history: Sequence[GameInput],
    after: S,
    names: Sequence[str],
    owner: int | None,
) -> str:
    """Where a piece laid by ``seen`` came from, as the end of the instruction: where the game
    knows it to be once the input is taken back (``Game.locate``) or, for a game that does not
    track pieces, an earlier lift of the same piece in the log."""
    try:
        known = game.locate(after, seen.piece)
    except Exception:  # noqa: BLE001 - a game that cannot tell falls back to the log
        known = None
    if known is None:
        for earlier in reversed(history):
            if isinstance(earlier, Seen) and earlier.piece == seen.piece:
                if earlier.zone == seen.zone:  # it left this very zone last: off is enough
                    return ""
                if not earlier.present:
                    return f"put it back on {zone_words(game, earlier.zone, names)}"
                break
    elif known.startswith("hand:") and known[5:].isdigit() and int(known[5:]) < len(names):
        return f"put it back in {names[int(known[5:])]}'s hand"
    elif known and known != seen.zone:
        return f"put it back on {zone_words(game, known, names)}"
    seat = owner if owner is not None else _active_seat(game, after)
    if seat is not None and 0 <= seat < len(names):
        return f"put it back in {names[seat]}'s hand"
    return "put it back where it came from"


def _seen_words(
    game: Game[S],
    seen: Seen,
    history: Sequence[GameInput],
    after: S,
    names: Sequence[str],
    owner: int | None,
    options: Mapping[str, Any] | None = None,
) -> tuple[str, str]:
    """(public, private) words for taking back one sighting."""
    zone = zone_words(game, seen.zone, names)
    piece = piece_words(game, seen.piece, options)
    if seen.present:
        origin = _origin(game, seen, history, after, names, owner)
        tail = f" and {origin}." if origin else "."
        private = f"Take {piece} back off {zone}{tail}"
        if owner is None:
            return private, private
        return f"Take back the card {names[owner]} just laid on {zone}{tail}", private
    private = f"Put {piece} back on {zone}."
    if owner is None:
        return private, private
    return f"Put the card {names[owner]} just took off {zone} back on it.", private


def _decision_words(d: Decision, names: Sequence[str]) -> str:
    who = (
        "the organiser"
        if d.seat is None
        else names[d.seat]
        if 0 <= d.seat < len(names)
        else f"seat {d.seat}"
    )
    return (
        f"{who}'s answer to the question about {d.prompt.replace('_', ' ')} is taken "
        "back: nothing to move; answer again when asked."
    )


def _counted(
    game: Game[Any],
    inp: GameInput,
    names: Sequence[str],
    owner: int | None,
    options: Mapping[str, Any] | None = None,
) -> tuple[str, str]:
    """(public, private) words for what an input counts ("the 6 of Demons on ...")."""
    if isinstance(inp, Decision):
        who = (
            "the organiser"
            if inp.seat is None
            else names[inp.seat]
            if 0 <= inp.seat < len(names)
            else f"seat {inp.seat}"
        )
        text = f"{who}'s answer to the question about {inp.prompt.replace('_', ' ')}"
        return text, text
    zone = zone_words(game, inp.zone, names)
    where = "on" if inp.present else "lifted off"
    private = f"{piece_words(game, inp.piece, options)} {where} {zone}"
    return (private if owner is None else f"a hidden card {where} {zone}"), private


def put_back_for(
    game: Game[S],
    names: Sequence[str],
    action: Undo | Correct,
    taken_back: GameInput,
    before: S,
    after: S,
    history: Sequence[GameInput],
    seq: int,
    options: Mapping[str, Any] | None = None,
) -> PutBack:
    """The instruction after ``action`` took back ``taken_back`` (``before``: the state with it,
    ``after``: the state now, ``history``: the accepted inputs now in force; ``options``: the
    table's resolved options, for the copy's piece words)."""
    seats = len(names)
    owner = (
        _owner(game, taken_back.piece, (before, after), seats)
        if isinstance(taken_back, Seen)
        else None
    )
    if isinstance(action, Undo):
        if isinstance(taken_back, Seen):
            public, private = _seen_words(game, taken_back, history, after, names, owner, options)
        else:
            public = private = _decision_words(taken_back, names)
        return PutBack(seq, "undo", public, private, owner)
    new = action.replacement
    new_owner = _owner(game, new.piece, (after,), seats) if isinstance(new, Seen) else None
    old_pub, old_priv = _counted(game, taken_back, names, owner, options)
    new_pub, new_priv = _counted(game, new, names, new_owner, options)
    if new == taken_back:  # the same move read again (a confirmation): nothing moves
        return PutBack(
            seq,
            "correct",
            f"The table still counts {new_pub}: nothing to move.",
            f"The table still counts {new_priv}: nothing to move.",
            new_owner,
        )
    tail = " Make the pieces on the table match it."
    private = f"The table now counts {new_priv} instead of {old_priv}.{tail}"
    public = f"The table now counts {new_pub} instead of {old_pub}.{tail}"
    # The private line may name two hidden cards of two seats: it goes to the organiser only
    # unless one seat owns every hidden part.
    shown_owner = owner if new_owner in (None, owner) else None
    if owner is None and new_owner is not None:
        shown_owner = new_owner
    if owner is not None and new_owner is not None and owner != new_owner:
        return PutBack(seq, "correct", public, private, None)
    return PutBack(seq, "correct", public, private, shown_owner)
