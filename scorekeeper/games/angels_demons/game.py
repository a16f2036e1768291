"""The Angels & Demons game object: options, pieces, zones and the Game interface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.game import Audience, Game, Option, view_for
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Outcome, Prompt
from scorekeeper.errors import ConfigError
from scorekeeper.games.angels_demons import decisions, rules, views, zones
from scorekeeper.games.angels_demons.cards import CARD_IDS, TOKENS, describe
from scorekeeper.games.angels_demons.rounds import new_state
from scorekeeper.games.angels_demons.state import Opts, State

# R-END-1 / §11 defaults by player count: (target_points, max_rounds).
LIMITS = {2: (24, 6), 3: (18, 6), 4: (12, 8)}


class AngelsAndDemons(Game):
    """Angels & Demons (working title): a mahjong-like card game for 2-4 players."""

    id = "angels-and-demons"
    name = "Angels & Demons"
    min_seats = 2
    max_seats = 4
    options = (
        Option("mode", "basic", "basic or advanced rules (§7)", ("basic", "advanced")),
        Option("go_out_base", 1, "points for going out (R-SCORE-1, A-6)"),
        Option("basic_red_bonus", 1, "basic game: points per red card (R-SCORE-2, A-7)"),
        Option("plain_item_points", 1, "points per plain item (R-SCORE-2, R-ADV-2)"),
        Option("post_set_draw", "choice", "after laying a set draw 0-2 (choice) or always 2 (A-5)",
               ("choice", "always2")),
        Option("red17_counts_itself", True, "a red 1/7 meets its own condition (A-10)"),
        Option("item_win_timing", "on_lay", "when the item win is checked (R-ADV-6, A-12)",
               ("on_lay", "on_go_out")),
        Option("target_points", 24, "score that ends the game; default 24/18/12 for 2/3/4 "
               "players; 0 = off (R-END-1)"),
        Option("max_rounds", 6, "rounds in a game; default 6/6/8 for 2/3/4 players; 0 = off "
               "(R-END-1)"),
        Option("tie_break", "shared", "a tie is shared, or won by most go-outs (A-15)",
               ("shared", "most_go_outs")),
        Option("start_seat", 0, "the seat that starts round 1 (R-SETUP-1: drawn at random at "
               "the table)"),
    )

    def resolve_options(self, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Fill in the player-count defaults of target_points and max_rounds, then validate."""
        given = dict(given or {})
        if seats in LIMITS:
            target, rounds_ = LIMITS[seats]
            given.setdefault("target_points", target)
            given.setdefault("max_rounds", rounds_)
        out = super().resolve_options(given, seats)
        for key in ("go_out_base", "basic_red_bonus", "plain_item_points", "target_points",
                    "max_rounds"):
            if out[key] < 0:
                raise ConfigError(f"option {key!r} cannot be negative")
        if not 0 <= out["start_seat"] < seats:
            raise ConfigError(f"option 'start_seat' must be a seat from 0 to {seats - 1}")
        return out

    def pieces(self) -> tuple[str, ...]:
        return CARD_IDS + TOKENS

    def describe_piece(self, piece: str) -> str:
        return describe(piece)

    def zones(self, seats: int) -> tuple[str, ...]:
        return zones.zone_names(seats)

    def default_layout(self, seats: int) -> dict[str, str]:
        return zones.layout(seats)

    def new_game(self, options: Mapping[str, Any], seats: int) -> State:
        known = set(Opts.__dataclass_fields__)
        return new_state(Opts(**{k: v for k, v in options.items() if k in known}), seats)

    def observe(self, state: State, seen: Seen) -> Outcome:
        return rules.observe(state, seen)

    def decide(self, state: State, decision: Decision) -> Outcome:
        return decisions.decide(state, decision)

    def pending(self, state: State) -> tuple[Prompt, ...]:
        return decisions.pending(state)

    def waiting_for(self, state: State) -> str:
        return decisions.waiting_for(state)

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def is_over(self, state: State) -> bool:
        return state.over

    def view(self, state: State, audience: Audience) -> dict[str, Any]:
        return view_for(audience, state.n, lambda: views.public(state),
                        lambda: views.organiser(state), lambda s: views.seat_view(state, s))

    def secrets(self, state: State, seat: int) -> frozenset[str]:
        return views.taken(state, seat)
