"""The Angels & Demons game object: options, pieces, zones and the Game interface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.core.game import Audience, Choice, Game, Option, view_for
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Outcome, Prompt
from scorekeeper.errors import ConfigError
from scorekeeper.games.angels_demons import decisions, rules, views, words, zones
from scorekeeper.games.angels_demons.cards import CARD_IDS, INDEX, TOKENS, describe
from scorekeeper.games.angels_demons.rounds import loc_of, new_state
from scorekeeper.games.angels_demons.state import DEAL, FLIP, REFILL, UNKNOWN, Opts, State

# R-END-1 / §11 defaults by player count: (target_points, max_rounds).
LIMITS = {2: (24, 6), 3: (18, 6), 4: (12, 8)}


class AngelsAndDemons(Game[State]):
    """Angels & Demons (working title): a mahjong-like card game for 2-4 players."""

    id = "angels-and-demons"
    name = "Angels & Demons"
    min_seats = 2
    max_seats = 4
    options = (
        Option(
            "mode",
            "basic",
            "Which rules the table plays.",
            (
                Choice(
                    "basic",
                    "Basic game",
                    "every red card scores a flat bonus; items are plain points",
                ),
                Choice(
                    "advanced",
                    "Advanced game",
                    "red cards score by their printed "
                    "condition, items can win the whole game, a claimed discard costs "
                    "its discarder",
                ),
            ),
            label="Rules",
        ),
        Option(
            "go_out_base",
            1,
            "Points a player scores for going out, before any bonus.",
            label="Points for going out",
        ),
        Option(
            "basic_red_bonus",
            1,
            "In the basic game, points for each red card (laid or in "
            "the hand) of the player who goes out.",
            label="Points per red card (basic game)",
        ),
        Option(
            "plain_item_points",
            1,
            "Points for each plain item card of the player who goes out.",
            label="Points per plain item",
        ),
        Option(
            "post_set_draw",
            "choice",
            "How many cards a player draws after laying a set on their own turn.",
            (
                Choice(
                    "choice", "0, 1 or 2, as the player likes", "the player says how many they drew"
                ),
                Choice("always2", "Always 2", "the player always draws 2 cards"),
            ),
            label="Drawing after a set",
        ),
        Option(
            "red17_counts_itself",
            True,
            "In the advanced game, whether a red 1 or 7 meets its "
            "own printed condition (it is itself a 1 or a 7).",
            (
                Choice(True, "Yes, always", "a red 1 or 7 always earns its bonus"),
                Choice(
                    False,
                    "No, it needs another card",
                    "the condition must be met by the other cards",
                ),
            ),
            label="A red 1 or 7 counts itself",
        ),
        Option(
            "item_win_timing",
            "on_lay",
            "In the advanced game, when three item sets win the whole game.",
            (
                Choice(
                    "on_lay",
                    "As soon as the set is laid",
                    "checked whenever a set is laid and when going out",
                ),
                Choice("on_go_out", "Only when going out", "checked only when the player goes out"),
            ),
            label="When the item win counts",
        ),
        Option(
            "target_points",
            24,
            "The score that ends the game at the end of a round: 24 "
            "with 2 players, 18 with 3, 12 with 4 unless you set it; 0 means no target.",
            label="Points that end the game",
        ),
        Option(
            "max_rounds",
            6,
            "How many rounds are played at most: 6 with 2 or 3 players, 8 "
            "with 4 unless you set it; 0 means no limit.",
            label="Number of rounds",
        ),
        Option(
            "tie_break",
            "shared",
            "Who wins when players end with the same top score.",
            (
                Choice("shared", "They share the win", "every player tied on top wins"),
                Choice(
                    "most_go_outs",
                    "Most times gone out",
                    "the tied player who went out most often wins; still tied, they share",
                ),
            ),
            label="A tie at the end",
        ),
        Option(
            "start_seat",
            0,
            "The seat that starts round 1, counted from 0 in the order the "
            "players are listed (drawn at random at the table).",
            label="First player",
        ),
    )

    def resolve_options(self, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Fill in the player-count defaults of target_points and max_rounds, then validate."""
        given = dict(given or {})
        if seats in LIMITS:
            target, rounds_ = LIMITS[seats]
            given.setdefault("target_points", target)
            given.setdefault("max_rounds", rounds_)
        out = super().resolve_options(given, seats)
        for key in (
            "go_out_base",
            "basic_red_bonus",
            "plain_item_points",
            "target_points",
            "max_rounds",
        ):
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
        return view_for(
            audience,
            state.n,
            lambda: views.public(state),
            lambda: views.organiser(state),
            lambda s: views.seat_view(state, s),
        )

    def secrets(self, state: State, seat: int) -> frozenset[str]:
        return views.taken(state, seat)

    def locate(self, state: State, piece: str) -> str | None:
        if piece not in INDEX:
            return None
        where = loc_of(state, piece)
        # An unseen card while the table turns deck cards up (a deal, a refill, a scoring flip)
        # is the deck's next card; at any other time it is in a hand nobody has seen.
        if where == UNKNOWN and state.phase in (DEAL, REFILL, FLIP):
            return "deck"
        return where

    def zone_words(self, zone: str) -> str:
        return words.zone(zone)

    def describe_zone(self, zone: str) -> str:
        return words.mat_zone(zone)

    def zone_named(self, zone: str, names: Sequence[str]) -> str:
        return words.owned_zone(zone, names)

    def prompt_words(self, prompt: str) -> str:
        return words.PROMPT_WORDS.get(prompt, prompt.replace("_", " "))

    def answer_words(self, prompt: str, answer: str, state: Any = None) -> str:
        return words.answer(prompt, answer)
