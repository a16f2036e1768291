"""Toy deck: a toy game whose pieces follow a data entry, for the platform's tests.

A deck manifest (the data kind ``deck``, shipped entry ``guess`` labelled "assumed") lists
each card's colour and value and how many coins the copy has; the table option ``deck`` names
one. The pieces of a copy are its cards (``card_1`` ...) and coins (``coin_1`` ...), as many
as the manifest says (``Game.pieces_for``), and a card is named by its face ("the red card
(3)", ``Game.describe_piece_for``). Every piece on the table is public
(``Game.secret_pieces`` False), so a refusal names the card. Seat 0 scores the values of the
cards laid in play; the game is over once every card is. Registered only inside the tests
that use it (tests/toy_serve.py for a served one).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.core.answering import GAME_OVER, NO_PROMPT, UNKNOWN_TAG, unknown_zone
from scorekeeper.core.data_kind import DataKind, PerPiece
from scorekeeper.core.game import Audience, Game, Option, view_for
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Prompt, Rejected
from scorekeeper.core.yaml_model import FileModel, Flag, Text
from scorekeeper.errors import ConfigError

ID = "toy-deck"
SAMPLES = Path(__file__).resolve().parent / "toy_decks"
DEFAULT = "guess"


class CardFace(BaseModel):
    """What is printed on one card: the fields enrollment asks about each card."""

    model_config = ConfigDict(extra="forbid", title="card")

    colour: Literal["red", "blue"] = Field(
        ...,
        title="colour",
        description="the colour of the card's border",
        json_schema_extra={"x-labels": {"red": "Red", "blue": "Blue"}},
    )
    value: int = Field(..., ge=1, le=5, title="value", description="the number in its corner")


class DeckModel(FileModel):
    """One copy's deck manifest."""

    model_config = ConfigDict(title="toy deck")

    name: Text = Field(..., title="name", description="what the deck is called")
    sample: Flag = Field(False, title="assumed", description="shipped with scorekeeper")
    description: str = Field("", title="description", description="words about it")
    cards: dict[str, CardFace] = Field(
        default_factory=dict, title="cards", description="each card's colour and value"
    )
    coins: int = Field(3, ge=0, le=20, title="coins", description="how many coins there are")


def _problems(data: Mapping[str, Any]) -> list[str]:
    return [] if data.get("cards") else ["the deck lists no card"]


def _recorded(
    answers: Mapping[str, Mapping[str, Any]], counts: Mapping[str, int]
) -> dict[str, Any]:
    """The deck a kit records: each card's answers, and the coins counted as tagged."""
    return {
        "cards": {card: dict(face) for card, face in answers.items()},
        "coins": counts.get("coin", 0),
    }


DECK_KIND = DataKind(
    game=ID,
    kind="deck",
    title="Toy decks",
    help="which cards and how many coins your toy deck has",
    noun="toy deck",
    model=DeckModel,
    samples=SAMPLES,
    to_mapping=lambda m: m.model_dump(),
    problems=_problems,
    option="deck",
    sample_word="assumed",
    # Enrollment asks each card's colour and value; the coins are counted as they are tagged.
    per_piece=PerPiece(
        asks=lambda piece: piece.startswith("card_"), model=CardFace, build=_recorded
    ),
)


@dataclass(frozen=True, slots=True)
class DeckState:
    """Each card's face (card, colour, value) and the cards in play, in the order laid."""

    n: int
    faces: tuple[tuple[str, str, int], ...]
    play: tuple[str, ...] = ()


def _deck(options: Mapping[str, Any]) -> Mapping[str, Any]:
    deck = options.get("deck")
    return deck if isinstance(deck, Mapping) else {}


class ToyDeck(Game[DeckState]):
    """The toy game; see the module's docstring."""

    id = ID
    name = "Toy deck"
    min_seats = 1
    max_seats = 2
    secret_pieces = False
    options = (Option("deck", DEFAULT, "Which toy deck you play with.", label="Deck"),)

    def resolve_options(self, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """The deck (a shipped entry's name, or a whole mapping) becomes its whole mapping."""
        given = dict(given or {})
        deck = given.pop("deck", DEFAULT)
        out = super().resolve_options(given, seats)
        from scorekeeper.core import data

        if isinstance(deck, str):
            out["deck"] = data.sample(DECK_KIND, deck).data
        elif isinstance(deck, Mapping):
            out["deck"] = data.from_mapping(DECK_KIND, deck, "the deck option")
        else:
            raise ConfigError(f"option 'deck' is a deck's name or mapping, not {deck!r}")
        return out

    def data_kinds(self) -> tuple[DataKind, ...]:
        return (DECK_KIND,)

    def pieces(self) -> tuple[str, ...]:
        return ("card_1", "card_2", "coin_1", "coin_2", "coin_3")  # the shipped deck's

    def pieces_for(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        deck = _deck(options)
        coins = int(deck.get("coins", 0))
        return tuple(deck.get("cards", {})) + tuple(f"coin_{k}" for k in range(1, coins + 1))

    def describe_piece(self, piece: str) -> str:
        return "a coin" if piece.startswith("coin_") else f"card {piece.rpartition('_')[2]}"

    def describe_piece_for(self, piece: str, options: Mapping[str, Any]) -> str:
        face = _deck(options).get("cards", {}).get(piece)
        if face is None:
            return self.describe_piece(piece)
        return f"the {face['colour']} card ({face['value']})"

    def zones(self, seats: int) -> tuple[str, ...]:
        return ("play",)

    def default_layout(self, seats: int) -> dict[str, str]:
        return {"r1": "play"}

    def new_game(self, options: Mapping[str, Any], seats: int) -> DeckState:
        cards = _deck(options).get("cards", {})
        faces = tuple((c, str(f["colour"]), int(f["value"])) for c, f in cards.items())
        return DeckState(seats, faces)

    def observe(self, state: DeckState, seen: Seen) -> Accepted[DeckState] | Rejected:
        if seen.zone != "play":
            return unknown_zone(seen.zone, self.zones(state.n))
        if self.is_over(state):
            return Rejected(GAME_OVER, "the game is over")
        if seen.piece not in {p for p, _, _ in state.faces} and not seen.piece.startswith("coin_"):
            return Rejected(UNKNOWN_TAG, f"this deck has no {seen.piece}", "lift it off")
        if seen.piece.startswith("coin_") or not seen.present:
            return Accepted(state)
        if seen.piece in state.play:
            words = next(f"the {c} card ({v})" for p, c, v in state.faces if p == seen.piece)
            return Rejected(
                "R-DECK-1", f"{words} is already in play", f"lift {words} off the play area"
            )
        return Accepted(dataclasses.replace(state, play=state.play + (seen.piece,)))

    def decide(self, state: DeckState, decision: Decision) -> Accepted[DeckState] | Rejected:
        return Rejected(NO_PROMPT, "nothing is being asked", "lay a card")

    def pending(self, state: DeckState) -> tuple[Prompt, ...]:
        return ()

    def waiting_for(self, state: DeckState) -> str:
        return "the game is over" if self.is_over(state) else "a card laid in play"

    def scores(self, state: DeckState) -> tuple[int, ...]:
        values = {p: v for p, _, v in state.faces}
        return (sum(values[c] for c in state.play),) + (0,) * (state.n - 1)

    def is_over(self, state: DeckState) -> bool:
        return len(state.play) == len(state.faces)

    def view(self, state: DeckState, audience: Audience) -> dict[str, Any]:
        shown = {"play": list(state.play)}
        return view_for(audience, state.n, lambda: shown, lambda: shown, lambda _s: shown)

    def secrets(self, state: DeckState, seat: int) -> frozenset[str]:
        return frozenset()
