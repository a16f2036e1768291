"""Frozen state values of an Arcana table: tuples and frozen dataclasses only.

What the referee knows (docs/games/arcana.md): every card at a district (``District.agents``),
every discard pile card by card (every card reaches a pile by a pad or by a result the referee
carried out), the stakes and the pile counts, and each seat's hand and deck as *counts*. Which
cards lie in a deck or hand together is what the seat owns less what lies elsewhere
(``Seat.owned``, G-37); ``Seat.hand_known`` are the cards known to be in the hand.

Who writes what:
- setup.py the setup phase; rounds.py the draw, the end of a round and of the game;
- intrigue.py (with abilities.py) the intrigue phase: the arrivals of A1 … A6 and the open
  steps they leave (``State.steps``);
- results.py the results phase (``State.resolution``, ``State.history``), with the pure sums,
  ties and scoring of sums.py, ties.py, objectives.py and scoring.py;
- game.py dispatches inputs to them and answers the platform (views.py, words.py, prompts.py).

Hazard: the pack is in the state (``State.pack``) and shared by every state of a table; never
build a new Pack on the hot path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.evolve import evolver
from scorekeeper.games.arcana.cards import Card, Effect, Pack

# Phases (the public view's ``phase``).
SETUP = "setup"
INTRIGUE = "intrigue"
RESULTS = "results"
OVER = "over"

NEUTRAL = "n"
"""The neutral district's id; the others are ``a`` … ``d``."""


@dataclass(frozen=True, slots=True)
class Options:
    """The resolved table options in the form the rules use (game.py resolves them; the pack
    itself is ``State.pack``)."""

    start_seat: int = 0
    custom_guild: bool = False
    objectives: bool = False
    watch: bool = False
    watch_call: str = "action"  # "action" | "extra"
    guild_masters: bool = False
    master_limit: str = "by_card"  # "by_card" | "once_per_round" | "unlimited"
    events: bool = False
    set_aside: bool = False
    late_princes_games: str = "next_round"  # "next_round" | "this_round"
    leftovers: str = "ignored"  # "ignored" | "returned"
    tie_breakers: str = "tied_only"  # "tied_only" | "any_at_district"
    harlequin_in_bribes: bool = False
    raw: tuple[tuple[str, Any], ...] = ()
    """The options as given to the table (name, value; the pack by its name), for the view."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A card at a district: an agent (a guild agent, a won citizen, or with ``watch`` a watch
    card), in the order laid. ``face_up`` follows the district (R-INT-2, G-29) until a bribe,
    a move or a result turns it (G-14, R-INT-6, G-9). ``relics`` are the relics laid on it, in
    order (a relic is never placed alone, G-14)."""

    card: str
    owner: int
    face_up: bool
    relics: tuple[str, ...] = ()
    watch: bool = False


@dataclass(frozen=True, slots=True)
class District:
    """One district: ``id`` a letter or NEUTRAL; ``friends`` the seats it is friendly to
    (G-1 … G-3); ``stake`` the face-up stake's card id (the Prince's Games card's id while it
    lies on the neutral district, R-END-1), None when none is shown; ``pile`` the face-down
    cards left under it; ``awaiting`` while its next stake must be seen on its pad before play
    goes on there (G-35, R-EOR-2); ``resolved`` once its result is in this round;
    ``bribes`` the arcanum each briber named for its relics here (seat, arcanum: G-15), read
    when a later agent or relic re-checks the bribe (G-13); cleared with the stake."""

    id: str
    friends: tuple[int, ...]
    stake: str | None
    pile: int
    agents: tuple[Placed, ...] = ()
    awaiting: bool = False
    resolved: bool = False
    bribes: tuple[tuple[int, str], ...] = ()

    @property
    def empty(self) -> bool:
        """No stake shown and none to come: nothing may be laid here (G-5, G-6)."""
        return self.stake is None and self.pile == 0 and not self.awaiting


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat. ``guild`` is "" until its badge is seen. ``hand`` and ``deck`` are counts;
    ``discard`` the discard pile bottom to top (its top is public, G-28); ``owned`` every card
    the seat owns (its kept guild cards and its won stakes, not watch cards); ``hand_known``
    the cards known to be in its hand (G-37); ``set_aside`` the stakes under its badge
    (R-OPT-T); ``master`` its guild master's id ("" without) and ``master_used`` whether it is
    turned sideways this round; ``objectives`` its 2 kept objectives; ``returned`` the cards it
    sent back to the box (custom guild: 9)."""

    guild: str = ""
    hand: int = 0
    deck: int = 0
    discard: tuple[str, ...] = ()
    owned: frozenset[str] = frozenset()
    hand_known: frozenset[str] = frozenset()
    set_aside: tuple[str, ...] = ()
    master: str = ""
    master_used: bool = False
    objectives: tuple[str, ...] = ()
    returned: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    """Something the table waits for before play goes on, opened by an action, an ability or
    a result: ``kind`` is a prompt id of the contract (``location``, ``stake_discard``,
    ``bribe_arcanum``, ``relic_on``, ``move``, ``win_at``, ``return``, ``master``, ``manual``,
    ``confirm``, ``set_aside``) or an awaited arrival (``keep``: ``count`` cards on ``seat``'s
    discard pad; ``watch_card``: a watch card at a district). ``card`` and ``district`` are
    what it concerns; ``effects`` an ability's effects still to run after it."""

    kind: str
    seat: int
    card: str = ""
    district: str = ""
    count: int = 0
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Resolution:
    """The district being resolved (R-RES): the arcanum each seat declared (``"none"`` for
    none, R-MULTI-1, G-11) and the card each Harlequin copies ("" for none, R-HARL-1)."""

    district: str
    declared: tuple[tuple[int, str], ...] = ()
    copies: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class DistrictResult:
    """One resolved district (or a stake won at once, ``immediate``), for the history:
    ``arcana`` the arcanum each seat counted, ``sums`` each seat's sum, ``winner`` or None,
    ``reason`` in words ("the Ferrymen win the tie: the stake's arcanum is wand")."""

    round: int
    district: str
    stake: str
    arcana: tuple[tuple[int, str], ...]
    sums: tuple[tuple[int, int], ...]
    winner: int | None
    reason: str
    immediate: bool = False


@dataclass(frozen=True, slots=True)
class Events:
    """With ``events``: the event in effect (``now``), the face-up next one (``next``), how
    many are still face down (``left``), and the discarded ones."""

    now: str = ""
    next: str = ""
    left: int = 0
    discarded: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    """Everything the referee knows about one game of Arcana.

    ``first_seat`` holds the first-player card; ``active_seat`` is the actor of the intrigue
    phase (in results, the first player); ``actions`` the actions the actor still has this
    turn (1, more with ``extra_action`` or ``watch_call: extra``); ``steps`` what the table
    waits for, the first one first; ``final_round`` once the Prince's Games card has come up
    (R-END-1, R-OPT-F-3, G-7); ``winners`` at the end."""

    pack: Pack
    options: Options
    seats: tuple[Seat, ...]
    districts: tuple[District, ...]
    phase: str = SETUP
    round: int = 0
    final_round: bool = False
    first_seat: int = 0
    active_seat: int = 0
    actions: int = 1
    steps: tuple[Step, ...] = ()
    resolution: Resolution | None = None
    history: tuple[DistrictResult, ...] = ()
    watch_deck: int = 0
    events: Events | None = None
    winners: tuple[int, ...] = ()

    def card(self, piece: str) -> Card | None:
        """The pack's card ``piece`` (None for an id the pack does not hold)."""
        return self.pack.card(piece)

    def district(self, did: str) -> District:
        """The district ``did``; KeyError for a letter this table does not have."""
        for one in self.districts:
            if one.id == did:
                return one
        raise KeyError(did)


evolve: Callable[..., State] = evolver(State)
"""``evolve(state, **changes)``: ``dataclasses.replace`` for a State without running
``__init__`` (the hot path). ``changes`` must name State fields (TypeError otherwise)."""


def with_seat(state: State, seat: int, new: Seat) -> State:
    """``state`` with seat ``seat`` replaced by ``new``."""
    seats = state.seats
    return evolve(state, seats=(*seats[:seat], new, *seats[seat + 1 :]))


def with_district(state: State, new: District) -> State:
    """``state`` with the district of ``new.id`` replaced by ``new``."""
    return evolve(state, districts=tuple(new if d.id == new.id else d for d in state.districts))
