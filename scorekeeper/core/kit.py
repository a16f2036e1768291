"""Kits: the tag registry of one physical copy of a game (tag uid -> piece id).

Every card and pawn of a physical game carries an RFID tag; a kit records which tag is on which
piece, so that a table can turn "reader r1 saw tag 04A1B2C3" into "the red angel 5 arrived in
the play zone". A kit is filled in once, while tagging the deck (``scorekeeper enroll``), kept in
the store, and can be exported to a file and imported elsewhere::

    game: angels-and-demons
    name: club-copy
    tags:
      04A1B2C3: A5r
      04:5F:21:9A:3C:80:00: D2b     # separators are allowed; uids are stored without them

Tag uids are normalised to upper-case hexadecimal without separators, and must be 4, 7 or 10
bytes long (8, 14 or 20 hex digits): the sizes an ISO 14443-A tag can have.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.core.game import Game
from scorekeeper.core.layout import write_atomically
from scorekeeper.errors import ConfigError, EnrollmentError, UnknownTag

UID_LENGTHS = (8, 14, 20)
KIT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_SEPARATORS = re.compile(r"[\s:.\-]")
_HEX = frozenset("0123456789ABCDEF")


def normalise_uid(text: str) -> str:
    """A tag uid as upper-case hex without separators; EnrollmentError if it is not a uid.

    Accepts ``04a1b2c3``, ``04:A1:B2:C3``, ``04-a1-b2-c3`` and ``0x04A1B2C3``.
    """
    raw = str(text).strip()
    if raw[:2].lower() == "0x":
        raw = raw[2:]
    uid = _SEPARATORS.sub("", raw).upper()
    if not uid or not set(uid) <= _HEX:
        raise EnrollmentError(f"{text!r} is not a tag uid: a uid is hexadecimal, like 04A1B2C3")
    if len(uid) not in UID_LENGTHS:
        raise EnrollmentError(
            f"{text!r} is not a tag uid: it has {len(uid)} hex digits; a "
            "uid has 8, 14 or 20 (a 4-, 7- or 10-byte tag)"
        )
    return uid


def check_kit_name(name: str) -> str:
    """Return ``name`` if it is usable as a kit name (a short word); ConfigError otherwise."""
    if not KIT_NAME.match(name):
        raise ConfigError(
            f"kit name {name!r} must be 1-64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )
    return name


@dataclass
class Kit:
    """The tag registry of one physical copy of game ``game`` (a game id): uid -> piece id.

    ``entries`` keeps enrollment order. A tag names one piece, and a piece carries one tag.
    """

    name: str
    game: str
    entries: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        given, self.entries = self.entries, {}
        for uid, piece in given.items():
            self.add(uid, piece)

    def add(
        self,
        uid: str,
        piece: str,
        game: Game[Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> str:
        """Register ``uid`` as ``piece``; returns the normalised uid.

        Raises EnrollmentError when the uid is malformed, already registered, the piece already
        carries a tag, or (when ``game`` is given) the game's copy has no such piece (the copy
        ``options`` name: ``copy_pieces``).
        """
        norm = normalise_uid(uid)
        if game is not None and piece not in copy_pieces(game, options):
            raise EnrollmentError(f"{piece!r} is not a piece of {game.name}")
        known = self.entries.get(norm)
        if known is not None:
            raise EnrollmentError(f"tag {norm} is already registered as {known}")
        other = self.uid_of(piece)
        if other is not None:
            raise EnrollmentError(f"{piece} is already tagged (tag {other})")
        self.entries[norm] = piece
        return norm

    def untag(self, piece: str) -> str | None:
        """Forget the tag on ``piece`` (to re-tag it); returns the uid it had, or None."""
        uid = self.uid_of(piece)
        if uid is not None:
            del self.entries[uid]
        return uid

    def uid_of(self, piece: str) -> str | None:
        """The uid of the tag on ``piece``, or None when it is not tagged."""
        return next((u for u, p in self.entries.items() if p == piece), None)

    def piece_of(self, uid: str) -> str:
        """The piece carrying tag ``uid``; UnknownTag when no piece does."""
        try:
            norm = normalise_uid(uid)
        except EnrollmentError as exc:
            raise UnknownTag(str(exc)) from None
        try:
            return self.entries[norm]
        except KeyError:
            raise UnknownTag(f"tag {norm} is not in kit {self.name!r}") from None

    def next_untagged(
        self, game: Game[Any], start: str | None = None, options: Mapping[str, Any] | None = None
    ) -> str | None:
        """The first piece without a tag, in ``copy_pieces`` order; None when all are tagged.

        With ``start``, the search begins at that piece and wraps around to the first pieces.
        """
        pieces = list(copy_pieces(game, options))
        if start is not None and start in pieces:
            at = pieces.index(start)
            pieces = pieces[at:] + pieces[:at]
        tagged = set(self.entries.values())
        return next((p for p in pieces if p not in tagged), None)

    def progress(
        self, game: Game[Any], options: Mapping[str, Any] | None = None
    ) -> tuple[int, int]:
        """(pieces tagged, pieces in one copy of the game: the copy ``options`` name)."""
        pieces = set(copy_pieces(game, options))
        return sum(1 for p in self.entries.values() if p in pieces), len(pieces)

    def to_dict(self) -> dict[str, Any]:
        """The file form: ``{"game", "name", "tags": {uid: piece}}``."""
        return {"game": self.game, "name": self.name, "tags": dict(self.entries)}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write this kit to a ``.yaml``/``.yml`` or ``.json`` file (replaced atomically)."""
        save_kit(self, path)


def file_format(path: str | os.PathLike[str]) -> str:
    """``"yaml"`` or ``"json"``, from a kit file's extension; ConfigError for any other."""
    suffix = Path(path).suffix.lower()
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix == ".json":
        return "json"
    raise ConfigError("a kit file name ends in .yaml, .yml or .json", str(path))


def save_kit(kit: Kit, path: str | os.PathLike[str]) -> None:
    """Write ``kit`` to ``path``, YAML or JSON by the file's extension."""
    import yaml

    data = kit.to_dict()
    if file_format(path) == "json":
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        text = "# scorekeeper kit: tag uid -> piece id\n" + yaml.safe_dump(
            data, sort_keys=False, allow_unicode=True, default_flow_style=False
        )
    write_atomically(path, text)


def kit_file_game(path: str | os.PathLike[str]) -> str:
    """The ``game`` a kit file says it is for (to find the game before ``load_kit``)."""
    from scorekeeper.core.kit_file import KitGame, read_kit

    return str(read_kit(path, KitGame, None).game)


def load_kit(
    path: str | os.PathLike[str],
    game: Game[Any],
    options: Mapping[str, Any] | None = None,
    any_piece: bool = False,
) -> Kit:
    """Read and validate a kit file for ``game`` (its pieces: those of the copy the resolved
    ``options`` name, ``copy_pieces``; ``any_piece``: not checked, for a copy only the server
    knows, whose table checks its kit).

    Raises ConfigError naming the file and line for: syntax errors, a missing or different
    ``game``, unknown keys, malformed uids, a uid listed twice (also as ``04:A1:..`` and
    ``04a1..``), unknown pieces, and a piece tagged twice. ``name`` defaults to the file stem.
    """
    # The file's model (pydantic, built on import) loads only when a kit file is read: never
    # at serve start.
    from scorekeeper.core.kit_file import KitFile, read_kit

    context = {
        "game": game,
        "stem": Path(path).stem,
        "pieces": copy_pieces(game, options),
        "any_piece": any_piece,
    }
    kit: KitFile = read_kit(path, KitFile, context)
    return Kit(str(kit.name), game.id, dict(kit.tags or {}))


def open_kit(store: Any, game: Game[Any], kit_name: str) -> Kit:
    """The stored kit ``kit_name`` to carry on tagging, or a new empty one for ``game``.

    ``store`` is a ``scorekeeper.store.Store`` (anything with ``kit(name)`` raising NotFound).
    Raises EnrollmentError for a bad name or a kit of another game: enrollment in the terminal
    and in the browser start the same way.
    """
    from scorekeeper.errors import EnrollmentError, NotFound

    check_kit_name(kit_name)
    try:
        kit: Kit = store.kit(kit_name)
    except NotFound:
        kit = Kit(kit_name, game.id)
    if kit.game != game.id:
        raise EnrollmentError(
            f"kit {kit_name!r} is for {kit.game!r}, not {game.id!r}; choose another kit name"
        )
    return kit


# Made-up uids, for dry runs without tags (``scorekeeper kit fake``, Enter in ``enroll`` on the
# sim reader). 7 bytes like an NTAG sticker, but the first byte of a real 7-byte uid names the
# chip's maker (0x04 for NXP) and no maker has 0xFA: a made-up uid is never a real tag's, and
# anything showing a kit can tell the made-up ones apart and say so.
MADE_UP_PREFIX = "FA4E"


def made_up_uid(number: int) -> str:
    """The ``number``-th made-up uid (``FA4E0000000001`` ...): 14 hex digits, stable."""
    if not 0 <= number < 16**10:
        raise ValueError(f"made-up uid number out of range: {number}")
    return f"{MADE_UP_PREFIX}{number:010X}"


def is_made_up(uid: str) -> bool:
    """Whether ``uid`` is one of the made-up uids (no real tag has it)."""
    return len(uid) == 14 and uid.upper().startswith(MADE_UP_PREFIX)


def made_up_count(kit: Kit) -> int:
    """How many of ``kit``'s tags are made up."""
    return sum(1 for uid in kit.entries if is_made_up(uid))


def next_made_up_uid(kit: Kit) -> str:
    """A made-up uid not in ``kit`` yet (the lowest free number)."""
    number = 1
    while made_up_uid(number) in kit.entries:
        number += 1
    return made_up_uid(number)


def fake_kit(game: Game[Any], name: str, options: Mapping[str, Any] | None = None) -> Kit:
    """A kit for ``game`` with a made-up uid on every piece, in enrollment order: a table can
    be set up and driven by uid with simulated readers before any card is tagged. ``options``
    (resolved) name the copy: a deck manifest with 10 rafts gives ``raft_10`` a tag."""
    check_kit_name(name)
    pieces = copy_pieces(game, options)
    return Kit(name, game.id, {made_up_uid(i): p for i, p in enumerate(pieces, start=1)})


def option_pairs(pairs: list[str]) -> dict[str, str]:
    """``["deck=big", ...]`` (``--option KEY=VALUE``, repeated) as a mapping; ConfigError in
    words for one without ``=``."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{pair!r} is not key=value (e.g. deck=my-deck)")
        out[key.strip()] = value.strip()
    return out


def copy_options(
    game: Game[Any], given: Mapping[str, Any] | None, store: Any = None
) -> dict[str, Any] | None:
    """The resolved options that name the copy being tagged or faked (``--option
    deck=my-deck``: an entry of a data kind, by name, from the samples or ``store``), or None
    when none are given (the game's ``pieces()``). ConfigError in words for a bad one."""
    if not given:
        return None
    out = dict(given)
    for kind in game.data_kinds():
        if kind.option is not None and kind.option in out:
            from scorekeeper.core import data  # only for a game with data kinds

            out[kind.option] = data.resolve_option(kind, out[kind.option], store)
    return game.resolve_options(out, game.min_seats)


def copy_pieces(game: Game[Any], options: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The pieces of the copy of ``game`` that the resolved ``options`` name
    (``Game.pieces_for``: a deck manifest's counts); ``game.pieces()`` without options."""
    return game.pieces() if options is None else game.pieces_for(options)
