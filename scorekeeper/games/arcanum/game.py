"""The Arcanum game object: options, pieces, zones and the Game interface.

Rules: docs/rules/arcanum.md; the table contract: docs/games/arcanum.md.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from scorekeeper.core.data import DataKind
from scorekeeper.core.game import Audience, Choice, Game, Option, view_for
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Outcome, Prompt
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum import decisions, prompts, sightings, views, words, zones
from scorekeeper.games.arcanum.boards import BoardProfile, resolve_board, shipped_profiles
from scorekeeper.games.arcanum.cards import CARD_IDS, MINORS, PAWNS, PIECES, describe
from scorekeeper.games.arcanum.reputation import START
from scorekeeper.games.arcanum.state import CARD_INDEX, SETUP, UNSEEN, Config, State

BOARD_OPTION = "board"
MINOR_SET = frozenset(MINORS)  # the pieces hidden_kind counts as alike


def schedule(seats: int, length: str, three_player_length: str) -> tuple[int, tuple[int, ...]]:
    """(rounds, fame rounds) for a player count and length (R-ROUND-2/3, G-10)."""
    if seats == 3:
        rounds = 8 if three_player_length == "always_8" or length == "long" else 4
        return rounds, tuple(r for r in (4, 8) if r <= rounds)
    rounds = 9 if length == "long" else 6
    return rounds, tuple(r for r in (3, 6, 9) if r <= rounds)


def _config(options: Mapping[str, Any], seats: int) -> Config:
    """The rules' view of the options (cached: resolving a board profile takes milliseconds)."""
    try:
        key = json.dumps(options, sort_keys=True, default=str)
    except (TypeError, ValueError):  # pragma: no cover - resolved options are plain data
        return _build_config(options, seats)
    return _cached_config(key, seats)


def _board_mapping(board: str | Mapping[str, Any]) -> dict[str, Any]:
    """The whole profile mapping of a board option (a name, a file or a mapping).

    Shipped names and mappings are cached; a file path is read every time (it may change).
    """
    if isinstance(board, str) and board not in shipped_profiles():
        return resolve_board(board).to_mapping()
    try:
        key = json.dumps(board, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return resolve_board(board).to_mapping()
    return copy.deepcopy(_cached_board(key))


@lru_cache(maxsize=32)
def _cached_board(key: str) -> dict[str, Any]:
    return resolve_board(json.loads(key)).to_mapping()


@lru_cache(maxsize=64)
def _cached_config(key: str, seats: int) -> Config:
    return _build_config(json.loads(key), seats)


def _build_config(options: Mapping[str, Any], seats: int) -> Config:
    board = options.get(BOARD_OPTION, "sample")
    profile: BoardProfile = resolve_board(board)
    rounds, fame_rounds = schedule(
        seats, options.get("length", "normal"), options.get("three_player_length", "by_length")
    )
    locs = range(1, 11)
    return Config(
        n=seats,
        rounds=rounds,
        fame_rounds=fame_rounds,
        variant=options.get("variant", "full"),
        devil_fame=options.get("devil_fame", "doubled"),
        split=options.get("tied_split", "pooled"),
        board_name=profile.name,
        sample=profile.sample,
        effects=tuple(profile.effect_at(k) for k in locs),
        names=tuple(profile.location(k).name or str(k) for k in locs),
        gains=tuple(tuple(profile.icon_gain(k, p) for p in PAWNS) for k in locs),
        cathedral_vp=profile.cathedral_gain_vp or 0,
        options=tuple(options.items()),
    )


class Arcanum(Game[State]):
    """Arcanum (Chiarvesio & Zizzi, Lo Scarabeo 2011) for 3-5 players."""

    id = "arcanum"
    name = "Arcanum"
    min_seats = 3
    max_seats = 5
    options = (
        Option(
            BOARD_OPTION,
            "sample",
            "The location icons and effects printed on your board: choose the profile you "
            "entered for it (the sample is made up, for tries only).",
            ask=True,
            label="Board profile",
        ),
        Option(
            "length",
            "normal",
            "How many rounds the game lasts.",
            (
                Choice(
                    "normal",
                    "Normal game",
                    "6 rounds with 4 or 5 players (fame after rounds 3 and 6); 4 with 3 players",
                ),
                Choice(
                    "long",
                    "Long game",
                    "9 rounds with 4 or 5 players (fame after rounds 3, 6 and 9); 8 with 3 players",
                ),
            ),
            label="Game length",
        ),
        Option(
            "three_player_length",
            "by_length",
            "With 3 players only: how many rounds a normal game has.",
            (
                Choice(
                    "by_length",
                    "Follow the game length",
                    "a normal game has 4 rounds, a long one 8",
                ),
                Choice(
                    "always_8",
                    "Always 8 rounds",
                    "fame after rounds 4 and 8, whatever the game length",
                ),
            ),
            label="Rounds with 3 players",
        ),
        Option(
            "variant",
            "full",
            "The full game, or a gentler start for new players.",
            (
                Choice("full", "Full game", "every card and every rule"),
                Choice(
                    "first_game",
                    "First game",
                    "no major cards in rounds 1 and 2; they come in from round 3",
                ),
                Choice(
                    "simplest",
                    "Simplest game",
                    "the major cards stay in the box for the whole game",
                ),
            ),
            label="Variant",
        ),
        Option(
            "devil_fame",
            "doubled",
            "The Devil doubles the VP its player gains or loses for the rest of the round: "
            "does that include the fame phase that ends the round?",
            (
                Choice(
                    "doubled",
                    "Yes, fame is doubled too",
                    "the doubling lasts until the round's fame phase is over",
                ),
                Choice(
                    "not_doubled",
                    "No, only the card play",
                    "the doubling stops when the round's card play ends",
                ),
            ),
            label="The Devil and fame",
        ),
        Option(
            "tied_split",
            "pooled",
            "How players tied for a place in a fame phase share the VP.",
            (
                Choice(
                    "pooled",
                    "Pool the places they cover",
                    "add up the awards of every "
                    "place the tied group covers and divide them, rounding down",
                ),
                Choice(
                    "own_place",
                    "Share their own place only",
                    "divide only the award of the place they tie for, rounding down",
                ),
            ),
            label="Ties in a fame phase",
        ),
        Option(
            "start_seat",
            0,
            "The seat that starts round 1, counted from 0 in the order the players are listed "
            "(drawn at random at the table).",
            label="First player",
        ),
    )

    def resolve_options(self, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Validate the options; the board (a name, a file or a mapping) is resolved to its
        whole profile mapping, so the resolved options are self-contained."""
        given = dict(given or {})
        board = given.pop(BOARD_OPTION, "sample")
        out = super().resolve_options(given, seats)
        if not isinstance(board, str | Mapping):
            raise ConfigError(
                f"option 'board' is a profile name, a file path or a profile mapping, not {board!r}"
            )
        out[BOARD_OPTION] = _board_mapping(board)
        if not 0 <= out["start_seat"] < seats:
            raise ConfigError(f"option 'start_seat' must be a seat from 0 to {seats - 1}")
        return out

    def data_kinds(self) -> tuple[DataKind, ...]:
        """Board profiles (scorekeeper/games/arcanum/board_data.py), chosen by ``board``."""
        from scorekeeper.games.arcanum.board_data import BOARD_KIND

        return (BOARD_KIND,)

    def pieces(self) -> tuple[str, ...]:
        return PIECES

    def describe_piece(self, piece: str) -> str:
        return describe(piece)

    def zones(self, seats: int) -> tuple[str, ...]:
        return zones.zone_names(seats)

    def describe_zone(self, zone: str) -> str:
        """Plain words for a zone (printed on zone mats)."""
        return zones.describe_zone(zone)

    def seat_of_zone(self, zone: str) -> int | None:
        """The seat a zone belongs to, or None for a shared zone (zone mats)."""
        return zones.seat_of_zone(zone)

    def default_layout(self, seats: int) -> dict[str, str]:
        return zones.layout(seats)

    def new_game(self, options: Mapping[str, Any], seats: int) -> State:
        cfg = _config(options, seats)
        return State(
            cfg=cfg,
            phase=SETUP,
            round=1,
            start=int(options.get("start_seat", 0)) % seats,
            where=(UNSEEN,) * len(CARD_IDS),
            pawns=(0,) * len(PAWNS),
            minors=(0,) * seats,
            majors=(0,) * seats,
            deck_minor=56,
            deck_major=0 if cfg.variant == "simplest" else 22,
            pile_minor=(),
            pile_major=(),
            rep=START,
            vp=(0,) * seats,
            vp_sources=((),) * seats,
        )

    def observe(self, state: State, seen: Seen) -> Outcome:
        return sightings.observe(state, seen)

    def decide(self, state: State, decision: Decision) -> Outcome:
        return decisions.decide(state, decision)

    def pending(self, state: State) -> tuple[Prompt, ...]:
        return prompts.pending(state)

    def waiting_for(self, state: State) -> str:
        return prompts.waiting_for(state)

    def scores(self, state: State) -> tuple[int, ...]:
        return state.vp

    def is_over(self, state: State) -> bool:
        return state.over

    def view(self, state: State, audience: Audience) -> dict[str, Any]:
        return view_for(
            audience,
            state.n,
            lambda: views.public(state),
            lambda: views.organiser(state),
            lambda s: views.seat_view(state, s),
        )

    def secrets(self, state: State, seat: int) -> frozenset[str]:
        return views.secrets(state, seat)

    def hidden_kind(self, piece: str) -> str | None:
        # Face down, the minors of one family are alike until a fame phase or the Sun shows
        # them: a fame phase reveals a family's hidden cards together, so a card of another
        # family would be shown at another moment. The Fool is like no other card: hiding it
        # instead of a minor changes the seat's count of majors and minors, which the table
        # acts on in public (a minor played with none counted in hand is drawn first,
        # R-PLAY-2; the Market offers only the exchanges the hand allows).
        return piece.partition("_")[0] if piece in MINOR_SET else None

    def locate(self, state: State, piece: str) -> str | None:
        # Where an undo tells people to put a card back: where the referee knows it is, or ""
        # (a deck, or a hand nobody has seen). Not where the log last saw it: for a card taken
        # back off a hide strip that named its earlier public place ("put it back on the
        # minor discard pile"), which told everyone which card had been hidden (found by the
        # perturbation check, tests/test_privacy_perturbation.py). Pawns are not located: a
        # pawn's departure changes nothing, and the log says where it was lifted.
        if piece not in CARD_INDEX:
            return None
        return state.loc_of(piece)

    def zone_words(self, zone: str) -> str:
        return words.zone(zone)

    def prompt_words(self, prompt: str) -> str:
        return words.PROMPT_WORDS.get(prompt, prompt.replace("_", " "))

    def answer_words(self, prompt: str, answer: str, state: Any = None) -> str:
        places = state.cfg.names if isinstance(state, State) else ()
        return words.answer(prompt, answer, places)
