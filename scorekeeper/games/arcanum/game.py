"""The Arcanum game object: options, pieces, zones and the Game interface.

Rules: shared/rules/arcanum.md; the table contract: docs/games/arcanum.md.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from scorekeeper.core.game import Audience, Game, Option, view_for
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Outcome, Prompt
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcanum import decisions, prompts, sightings, views, zones
from scorekeeper.games.arcanum.boards import BoardProfile, resolve_board, shipped_profiles
from scorekeeper.games.arcanum.cards import CARD_IDS, PAWNS, PIECES, describe
from scorekeeper.games.arcanum.reputation import START
from scorekeeper.games.arcanum.state import SETUP, UNSEEN, Config, State

BOARD_OPTION = "board"


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


class Arcanum(Game):
    """Arcanum (Chiarvesio & Zizzi, Lo Scarabeo 2011) for 3-5 players."""

    id = "arcanum"
    name = "Arcanum"
    min_seats = 3
    max_seats = 5
    options = (
        Option(
            BOARD_OPTION,
            "sample",
            "the board profile: a shipped profile name (sample, "
            "known), a profile file, or a whole profile as a mapping",
            ask=True,
        ),
        Option(
            "length", "normal", "normal or long game (R-SETUP-1, R-ROUND-2)", ("normal", "long")
        ),
        Option(
            "three_player_length",
            "by_length",
            "3 players: by_length (normal 4 rounds, long 8) or always_8 (G-10)",
            ("by_length", "always_8"),
        ),
        Option(
            "variant",
            "full",
            "full rules, first_game (R-VAR-1) or simplest (R-VAR-2)",
            ("full", "first_game", "simplest"),
        ),
        Option(
            "devil_fame",
            "doubled",
            "the Devil's doubling covers the fame phase of its round "
            "(doubled) or stops when the card play ends (not_doubled) (G-12)",
            ("doubled", "not_doubled"),
        ),
        Option(
            "tied_split",
            "pooled",
            "tied players share the awards of every place their "
            "group covers (pooled, G-8) or only of the place they tie for (own_place)",
            ("pooled", "own_place"),
        ),
        Option(
            "start_seat",
            0,
            "the seat that starts round 1 (R-SETUP-2: drawn at random at the table)",
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
        return view_for(audience, state.n, lambda: views.public(state),
                        lambda: views.organiser(state), lambda s: views.seat_view(state, s))

    def secrets(self, state: State, seat: int) -> frozenset[str]:
        return views.secrets(state, seat)
