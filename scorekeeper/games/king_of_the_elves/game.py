"""The King of the Elves game object: options, pieces, zones and the Game interface.

Rules: docs/rules/king-of-the-elves.md; the table contract: docs/games/king-of-the-elves.md.
The companion is the bank: each seat's purse is a private value (``private_values``) until the
game is over, so ``scores`` are 0 for everyone during play and ``scores_private`` is set.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from scorekeeper.core.data_kind import is_shipped_unchanged
from scorekeeper.core.game import Audience, Game, Option, choices, view_for
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Outcome, Prompt
from scorekeeper.core.text import render_seats, with_article
from scorekeeper.errors import ConfigError
from scorekeeper.games.king_of_the_elves import (
    decisions,
    deck,
    prompts,
    rounds,
    sightings,
    views,
    words,
    zones,
)
from scorekeeper.games.king_of_the_elves.cards import CRESTS, kind_of
from scorekeeper.games.king_of_the_elves.state import Deck, Options, State

if TYPE_CHECKING:
    from scorekeeper.core.data_kind import DataKind

DECK_OPTION = "deck"
_YES_NO = (True, False)


OPTIONS: tuple[Option, ...] = (
    Option(
        DECK_OPTION,
        "assumed",
        "The village cards of your deck (terrain and value) and its counts per type: choose the "
        "manifest you recorded when tagging your deck (the shipped one is assumed: a guess).",
        ask=True,
        label="Deck manifest",
    ),
    Option(
        "teleport",
        False,
        "The teleportation variant: after your own first village, pay 3 gold and any 4 travel "
        "cards to jump to any village.",
        choices(
            (False, "No teleporting", "journeys go by road only"),
            (True, "Teleporting allowed", "the variant of the rulebook's last page"),
        ),
        label="Teleportation",
    ),
    Option(
        "starting_gold",
        7,
        "The gold each player starts with.",
        choices(
            (7, "7 gold", "one 5 and two 1s, as this rulebook says"),
            (12, "12 gold", "two 5s and two 1s, as some other editions give"),
        ),
        label="Starting gold",
    ),
    Option(
        "money",
        "coins",
        "Whether the players use the coins, or each phone shows its own purse.",
        choices(
            ("coins", "With coins", "the companion says who hands what to whom"),
            ("phones", "Without coins", "each phone shows its purse; payments confirmed by tap"),
        ),
        label="Money",
    ),
    Option(
        "start_seat",
        0,
        "The seat of the first start player, the youngest, counted from 0 in the order the "
        "players are listed.",
        label="First start player",
    ),
    Option(
        "two_player_villages",
        3,
        "With two players only: how many villages each principality holds.",
        choices(
            (3, "3 villages", "the two-player rule of the rulebook"),
            (2, "2 villages", "as in the larger game"),
        ),
        label="Villages with two players",
    ),
    Option(
        "crests",
        "by_seat",
        "Which crest each seat plays: by seat (the first seat crest A, the next crest B, ...), "
        "or one letter per seat in seat order, such as cafb.",
        label="Crests",
    ),
    Option(
        "ring_closed",
        True,
        "Past your right neighbour's last village, does the way go on to your own first village?",
        choices(
            (True, "The ring is closed", "the way goes round the table again"),
            (False, "It ends at your castle", "there you can only turn around or stop"),
        ),
        label="The way round the table",
    ),
    Option(
        "own_principality_is_entered",
        True,
        "May an escort be played at the castle, before the first move, to protect your own "
        "principality?",
        choices(
            (True, "Yes", "setting out counts as entering your own principality"),
            (False, "No", "escorts protect only principalities entered on the way"),
        ),
        label="Escort from the castle",
    ),
    Option(
        "escort_mid_principality",
        False,
        "May an escort be played between two villages of one principality?",
        choices(
            (False, "No", "only just before entering a principality"),
            (True, "Yes", "also between two of its villages"),
        ),
        label="Escort inside a principality",
    ),
    Option(
        "token_limit",
        "per_round",
        "What the four tokens limit.",
        choices(
            ("per_round", "Four placements a round", "tokens freed by a removal do not count"),
            ("on_table", "Four tokens on the table", "tokens freed by a removal may be used"),
        ),
        label="Token limit",
    ),
    Option(
        "search_fallback",
        False,
        "A house rule for a search that finds no village in the draw pile.",
        choices(
            (False, "Off", "the organiser sorts it out"),
            (True, "On", "look in the discard pile; with none anywhere, pass without one"),
        ),
        label="Search house rule",
    ),
    Option(
        "public_gold",
        "none",
        "What the others see of a player's gold during play.",
        choices(
            ("none", "Nothing", "each purse is private until the end"),
            ("band", "A rough figure", "rounded down to 5: a careful player can work it out"),
        ),
        label="Gold shown to others",
    ),
)


def _crests(value: str, seats: int) -> str:
    """The crest letters in seat order; ConfigError for anything but ``by_seat`` or one
    distinct letter a-f per seat."""
    if value == "by_seat":
        return "".join(CRESTS[:seats])
    text = value.strip().lower()
    if len(text) != seats or len(set(text)) != seats or not set(text) <= set(CRESTS):
        raise ConfigError(
            f"option 'crests' is by_seat or {seats} different letters from a to f, one per "
            f"seat, not {value!r}"
        )
    return text


def _deck_mapping(value: Any) -> dict[str, Any]:
    """A deck option (a shipped name or a whole manifest) as a complete manifest mapping."""
    if isinstance(value, str):
        data = _shipped(value)
    elif isinstance(value, Mapping) and _is_shipped(value):
        data = dict(value)  # a shipped manifest as it is: checked when its twin was written
    elif isinstance(value, Mapping):
        data = deck.from_mapping(value)
    else:
        raise ConfigError(f"option 'deck' is a manifest's name or a manifest, not {value!r}")
    found = deck.problems(data)
    if found:
        raise ConfigError(
            f"deck manifest {data.get('name')!r} cannot start a table: {'; '.join(found)}"
        )
    return data


def _is_shipped(value: Mapping[str, Any]) -> bool:
    """Whether ``value`` is a shipped manifest's mapping unchanged (the hub resolves a name to
    its mapping, and a table's resolved options are resolved again when it is rebuilt):
    checking it again loaded the schema's models and the YAML parser, about 1 MB of a serving
    table's memory."""
    return is_shipped_unchanged(value, deck.shipped(), _shipped)


@lru_cache(maxsize=8)
def _shipped_text(name: str) -> str:
    return json.dumps(deck.load_shipped(name))


def _shipped(name: str) -> dict[str, Any]:
    data = json.loads(_shipped_text(name))
    assert isinstance(data, dict)
    return data


@lru_cache(maxsize=32)
def _deck(key: str) -> Deck:
    return deck.deck_of(json.loads(key))


def options_of(options: Mapping[str, Any], seats: int) -> Options:
    """The rules' Options from resolved table options."""
    manifest = options.get(DECK_OPTION) or _shipped("assumed")
    villages = 2 if seats != 2 else int(options.get("two_player_villages", 3))
    return Options(
        deck=str(manifest.get("name", "")),
        teleport=bool(options.get("teleport", False)),
        starting_gold=int(options.get("starting_gold", 7)),
        money=str(options.get("money", "coins")),
        start_seat=int(options.get("start_seat", 0)) % seats,
        villages=villages,
        crests=_crests(str(options.get("crests", "by_seat")), seats),
        ring_closed=bool(options.get("ring_closed", True)),
        own_principality_is_entered=bool(options.get("own_principality_is_entered", True)),
        escort_mid_principality=bool(options.get("escort_mid_principality", False)),
        token_limit=str(options.get("token_limit", "per_round")),
        search_fallback=bool(options.get("search_fallback", False)),
        public_gold=str(options.get("public_gold", "none")),
        raw=tuple(options.items()),
    )


def deck_from_options(options: Mapping[str, Any]) -> Deck:
    """The rules' Deck from resolved options (the assumed one when none is given)."""
    manifest = options.get(DECK_OPTION) or _shipped("assumed")
    return _deck(json.dumps(manifest, sort_keys=True))


class KingOfTheElves(Game[State]):
    """King of the Elves (Elfenland's card game, Amigo/Piatnik) for 2-6 players."""

    id = "king-of-the-elves"
    name = "King of the Elves"
    min_seats = 2
    max_seats = 6
    options = OPTIONS
    scores_private: ClassVar[bool] = True
    secret_pieces: ClassVar[bool] = False

    def resolve_options(self, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Validate the options; the deck (a shipped name or a mapping) becomes its whole
        manifest, so the resolved options are self-contained (replay never reads the store)."""
        given = dict(given or {})
        manifest = given.pop(DECK_OPTION, "assumed")
        out = super().resolve_options(given, seats)
        if not 0 <= out["start_seat"] < seats:
            raise ConfigError(f"option 'start_seat' must be a seat from 0 to {seats - 1}")
        _crests(out["crests"], seats)
        out[DECK_OPTION] = _deck_mapping(manifest)
        return out

    def data_kinds(self) -> tuple[DataKind, ...]:
        """Deck manifests (deck_data.py, imported here: it loads the file models), chosen by
        ``deck``."""
        from scorekeeper.games.king_of_the_elves.deck_data import DECK_KIND

        return (DECK_KIND,)

    def needs_data_entry(self, option: str, value: Any) -> bool:
        # A shipped manifest's name is read here, from its checked JSON (resolve_options).
        return option == DECK_OPTION and not (isinstance(value, str) and value in deck.shipped())

    def pieces(self) -> tuple[str, ...]:
        return deck.pieces_of(_shipped("assumed"))

    def pieces_for(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        manifest = options.get(DECK_OPTION)
        return deck.pieces_of(manifest) if isinstance(manifest, Mapping) else self.pieces()

    def describe_piece(self, piece: str) -> str:
        return words.piece_words(piece)

    def describe_piece_for(self, piece: str, options: Mapping[str, Any]) -> str:
        manifest = options.get(DECK_OPTION)
        if isinstance(manifest, Mapping) and not deck.problems(manifest):
            return words.piece_words(piece, deck_from_options(options))
        return self.describe_piece(piece)

    def zones(self, seats: int) -> tuple[str, ...]:
        return zones.zone_names(seats)

    def describe_zone(self, zone: str) -> str:
        return zones.describe_zone(zone)

    def default_layout(self, seats: int) -> dict[str, str]:
        return zones.layout(seats)

    def new_game(self, options: Mapping[str, Any], seats: int) -> State:
        return rounds.new_state(seats, options_of(options, seats), deck_from_options(options))

    def observe(self, state: State, seen: Seen) -> Outcome:
        return sightings.observe(state, seen)

    def decide(self, state: State, decision: Decision) -> Outcome:
        return decisions.decide(state, decision)

    def pending(self, state: State) -> tuple[Prompt, ...]:
        return prompts.pending(state)

    def waiting_for(self, state: State) -> str:
        return prompts.waiting_for(state)

    def scores(self, state: State) -> tuple[int, ...]:
        # The purses are private until the end (R-SETUP-6, R-END-8): 0 for everyone before.
        if not state.over:
            return (0,) * state.n
        return tuple(seat.purse for seat in state.seats)

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
        return frozenset()  # the referee never knows a card in a hand

    def locate(self, state: State, piece: str) -> str | None:
        # Where an undo tells people to put a piece back: on its pad, on the discard pile, or
        # "" (a hand, the draw pile, a token's supply: out of sight).
        if not kind_of(piece):
            return None
        for s, seat in enumerate(state.seats):
            for k, v in enumerate(seat.villages, start=1):
                if v.card == piece:
                    return zones.pad_of(zones.VILLAGE, k, s)
                for x in v.specials():
                    if piece in (x.card, x.token):
                        pad = zones.VILLAGE if x is v.obstacle else zones.ATTACH
                        return zones.pad_of(pad, k, s)
        j = state.journey
        if piece in state.discarded or (
            j is not None and piece in j.spent and piece != j.escort_card
        ):
            return zones.DISCARD
        return ""

    def private_values(self, state: State, seat: int) -> Mapping[str, Any]:
        return {} if state.over else {"gold": state.seats[seat].purse}

    def private_range(self, state: State, seat: int, key: str) -> Sequence[Any]:
        gold = state.seats[seat].purse
        return tuple(v for v in (gold - 2, gold - 1, gold + 1, gold + 3) if v >= 0)

    def perturb_private(self, state: State, seat: int, key: str, value: Any) -> State:
        if key != "gold":
            raise KeyError(key)
        from scorekeeper.games.king_of_the_elves.state import with_seat

        return with_seat(state, seat, purse=int(value))

    def zone_words(self, zone: str) -> str:
        return words.zone_words(zone)

    def prompt_words(self, prompt: str) -> str:
        return words.PROMPT_WORDS.get(prompt, prompt.replace("_", " "))

    def answer_words(self, prompt: str, answer: str, state: State | None = None) -> str:
        return words.answer(prompt, answer, state if isinstance(state, State) else None)

    def describe_input(
        self,
        inp: Any,
        seats: Sequence[str] = (),
        state: State | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> str:
        if isinstance(inp, Seen) and isinstance(state, State):
            # The state's deck names a village by its terrain and value.
            piece = with_article(words.piece_words(inp.piece, state.deck))
            verb = "laid on" if inp.present else "lifted off"
            return render_seats(f"{piece} {verb} {words.zone_words(inp.zone)}", seats)
        return super().describe_input(inp, seats, state, options)
