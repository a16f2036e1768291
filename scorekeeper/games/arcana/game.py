"""The Arcana game object: options, pieces, zones and the Game interface.

Rules: docs/rules/arcana.md; the table contract: docs/games/arcana.md. This module only
dispatches: the setup to setup.py, the intrigue phase to intrigue.py, the results to
results.py, the rounds to rounds.py; prompts, words, views and privacy are answered by
prompts.py, words.py, views.py and privacy.py. ``scores`` are the public VP so far (G-36)
during play, so they may be shown to everyone (``scores_private`` stays False).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scorekeeper.core.answering import (
    NO_PROMPT,
    WRONG_SEAT,
    game_over,
    match_prompt,
    unknown_zone,
)
from scorekeeper.core.data_kind import is_shipped_unchanged
from scorekeeper.core.game import Audience, Choice, Game, Option, choices
from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.core.outcomes import Accepted, Outcome, Prompt, Rejected
from scorekeeper.core.text import render_seats, seat_ref
from scorekeeper.errors import ConfigError
from scorekeeper.games.arcana import (
    intrigue,
    privacy,
    prompts,
    results,
    rounds,
    scoring,
    setup,
    words,
    zones,
)
from scorekeeper.games.arcana.cards import PIECES, Pack
from scorekeeper.games.arcana.lookup import boxed
from scorekeeper.games.arcana.names import card_name, fallback_name
from scorekeeper.games.arcana.state import INTRIGUE, OVER, RESULTS, SETUP, Options, State

if TYPE_CHECKING:
    from scorekeeper.core.data_kind import DataKind

PACK_OPTION = "pack"
SAMPLE = "sample"
CONFIRM = "confirm"
_RESULTS_PROMPTS = (results.NEXT_DISTRICT, results.DECLARE, results.COPY)


def _on_off(on: str, off: str) -> tuple[Choice, ...]:
    return choices((False, "Off", off), (True, "On", on))


OPTIONS: tuple[Option, ...] = (
    Option(
        PACK_OPTION,
        SAMPLE,
        "The card pack: what every card of your copy is (names, values, abilities). Choose "
        "the pack you recorded when tagging your copy; the sample is made up, for demos.",
        ask=True,
        label="Card pack",
    ),
    Option(
        "start_seat",
        0,
        "The first player of round 1, counted from 0 in the order the players are listed "
        "(draw lots at the table).",
        label="First player",
    ),
    Option(
        "custom_guild",
        False,
        "Each player builds a starting deck of 11 of their guild's 20 cards, in secret.",
        _on_off("each player picks 11 of 20 cards", "the 11 cards marked A"),
        label="Custom guild",
    ),
    Option(
        "objectives",
        False,
        "Each player keeps 2 of 4 secret objectives, scored at the end.",
        _on_off("two secret objectives each", "no objectives"),
        label="Objectives",
    ),
    Option(
        "watch",
        False,
        "A player may discard a stake card to send the top watch card to a district as an "
        "agent for the round.",
        _on_off("the watch may be called", "no watch"),
        label="The watch",
    ),
    Option(
        "watch_call",
        "action",
        "With the watch: whether calling it is the turn's one action.",
        choices(
            ("action", "It is the turn's action", "calling the watch ends the turn"),
            ("extra", "On top of the action", "the turn goes on after the watch card"),
        ),
        label="Calling the watch",
    ),
    Option(
        "guild_masters",
        False,
        "Each player leads with one of their guild's three masters and may use its ability.",
        _on_off("a guild master each", "no guild masters"),
        label="Guild masters",
    ),
    Option(
        "master_limit",
        "by_card",
        "With guild masters: how often a master's ability may be used.",
        choices(
            ("by_card", "As the card says", "once a round with the symbol, else freely"),
            ("once_per_round", "Once a round", "for every master"),
            ("unlimited", "As often as you like", "for every master"),
        ),
        label="Guild master uses",
    ),
    Option(
        "events",
        False,
        "One event in effect each round, the next one face up; the Prince's Games card is in "
        "the event deck, so the game lasts 9 to 12 rounds.",
        _on_off("an event each round", "no events"),
        label="Events",
    ),
    Option(
        "set_aside",
        False,
        "A won stake may go under the winner's badge for good, still scoring.",
        _on_off("a won stake may go under the badge", "won stakes go to the discard pile"),
        label="Tactical set-aside",
    ),
    Option(
        "late_princes_games",
        "next_round",
        "When the Prince's Games card is turned up in the middle of a round.",
        choices(
            ("next_round", "One more round", "this round ends, the next one is the last"),
            ("this_round", "This round is the last", "the game ends with this round"),
        ),
        label="The Prince's Games mid-round",
    ),
    Option(
        "leftovers",
        "ignored",
        "Cards left at districts nobody won when the game ends.",
        choices(
            ("ignored", "They score nothing", "as the rulebook says"),
            ("returned", "Back to their owners", "they score and count as stakes"),
        ),
        label="Cards left at the districts",
    ),
    Option(
        "tie_breakers",
        "tied_only",
        "Which tie-breaking abilities count in a tie.",
        choices(
            ("tied_only", "Only the tied players'", "one wins the tie, two cancel"),
            ("any_at_district", "Anyone's at the district", "any two there cancel"),
        ),
        label="Which tie-breakers count",
    ),
    Option(
        "harlequin_in_bribes",
        False,
        "Whether a Harlequin copies an agent in a bribe's sum too.",
        _on_off("it copies in bribes too", "it copies only in the results"),
        label="The Harlequin in bribes",
    ),
)


@lru_cache(maxsize=8)
def _shipped_text(name: str) -> str:
    from scorekeeper.games.arcana import pack

    return json.dumps(pack.load_shipped(name))


def _shipped(name: str) -> dict[str, Any]:
    data = json.loads(_shipped_text(name))
    assert isinstance(data, dict)
    return data


def _shipped_names() -> str:
    from scorekeeper.games.arcana import pack

    return ", ".join(
        "sample (made up, for demos)" if n == SAMPLE else n
        for n in sorted(pack.shipped(), key=lambda n: (n == SAMPLE, n))
    )


def _is_shipped(value: Mapping[str, Any]) -> bool:
    """Whether ``value`` is a shipped pack's mapping unchanged (the hub resolves a pack's name
    to its mapping before the game sees it): checking 304 cards again cost a serving Pi 1 MB."""
    from scorekeeper.games.arcana import pack

    return is_shipped_unchanged(value, pack.shipped(), _shipped)


def pack_mapping(value: Any, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A ``pack`` option (a shipped pack's name or a whole pack) as its whole mapping, checked
    to hold every card ``options`` bring into play; ConfigError saying what to do."""
    from scorekeeper.games.arcana import pack

    if value in (None, ""):
        raise ConfigError(
            "choose a card pack (option pack): one of your saved packs by its name, or a "
            f"shipped one: {_shipped_names()}"
        )
    if isinstance(value, str):
        data = _shipped(value)
    elif isinstance(value, Mapping) and _is_shipped(value):
        data = dict(value)  # a shipped pack as it is: checked when it was written
    elif isinstance(value, Mapping):
        data = pack.from_mapping(value)
    else:
        raise ConfigError(f"option 'pack' is a card pack's name or a card pack, not {value!r}")
    found = pack.problems(data, options)
    if found:
        raise ConfigError(f"card pack {data.get('name')!r} cannot start this table: {found[0]}")
    return data


_LAST: list[tuple[Mapping[str, Any], Pack]] = []
"""The last pack mapping read and its Pack: the platform asks piece by piece with the same
options (describe_piece_for, hidden_kind_for), and pack.pack_of's cache key is the whole
pack's JSON. Holding the mapping keeps its identity from being reused by another object."""


def pack_from_options(options: Mapping[str, Any]) -> Pack:
    """The rules' Pack from resolved options (cached by the pack's JSON in pack.py, and the
    last mapping by identity here)."""
    from scorekeeper.games.arcana import pack

    data = options.get(PACK_OPTION)
    if not isinstance(data, Mapping):
        return pack.sample_pack() if data in (None, "", SAMPLE) else pack.pack_of(_shipped(data))
    if _LAST and _LAST[0][0] is data:
        return _LAST[0][1]
    got = pack.pack_of(data)
    _LAST[:] = [(data, got)]
    return got


_RULED = frozenset(f.name for f in fields(Options)) - {"raw"}


def options_of(options: Mapping[str, Any], seats: int) -> Options:
    """The rules' Options from resolved table options (the pack itself goes to State.pack;
    ``raw`` names it)."""
    raw = {k: v for k, v in options.items() if k != PACK_OPTION}
    given = options.get(PACK_OPTION)
    name = given.get("name", "") if isinstance(given, Mapping) else str(given or "")
    # Resolved options are already of the right types (Option.coerce); unknown keys are none
    # of the rules' business (the pack is State.pack).
    ruled = {k: v for k, v in options.items() if k in _RULED}
    ruled["start_seat"] = int(options.get("start_seat", 0)) % seats
    return Options(**ruled, raw=((PACK_OPTION, name), *sorted(raw.items())))


class Arcana(Game[State]):
    """Arcana (the card game of Cadwallon's guilds) for 2-4 players."""

    id = "arcana"
    name = "Arcana"
    min_seats = 2
    max_seats = 4
    options = OPTIONS

    def resolve_options(self, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Validate the options; the pack (a shipped name or a whole mapping) becomes its
        whole mapping, so the resolved options are self-contained (replay never reads the
        store). The option is asked (``ask``): a table created through the hub, the console or
        the command line must name a pack, so the sample is never a real table's by default;
        the default (the sample) serves scripts, tests and demos, as Arcanum's board does."""
        given = dict(given or {})
        chosen = given.pop(PACK_OPTION, SAMPLE)
        out = super().resolve_options(given, seats)
        if not 0 <= out["start_seat"] < seats:
            raise ConfigError(f"option 'start_seat' must be a seat from 0 to {seats - 1}")
        out[PACK_OPTION] = pack_mapping(chosen, out)
        return out

    def data_kinds(self) -> tuple[DataKind, ...]:
        """Card packs (pack_data.py, imported here: it loads the file models), chosen by
        ``pack``."""
        from scorekeeper.games.arcana.pack_data import PACK_KIND

        return (PACK_KIND,)

    def needs_data_entry(self, option: str, value: Any) -> bool:
        # A shipped pack's name is read here, from its checked JSON (resolve_options).
        from scorekeeper.games.arcana import pack

        return option == PACK_OPTION and not (isinstance(value, str) and value in pack.shipped())

    def pieces(self) -> tuple[str, ...]:
        return PIECES

    def describe_piece(self, piece: str) -> str:
        return fallback_name(piece)

    def describe_piece_for(self, piece: str, options: Mapping[str, Any]) -> str:
        try:
            return card_name(pack_from_options(options), piece)
        except (ConfigError, KeyError, TypeError, ValueError):
            return self.describe_piece(piece)

    def zones(self, seats: int) -> tuple[str, ...]:
        return zones.zone_names(seats)

    def describe_zone(self, zone: str) -> str:
        return zones.describe_zone(zone)

    def zone_words(self, zone: str) -> str:
        return zones.zone_words(zone)

    def zone_named(self, zone: str, names: Sequence[str]) -> str:
        # A district's pad is "district A's stake", never "the district A's stake".
        return render_seats(zones.zone_words(zone), names)

    def default_layout(self, seats: int) -> dict[str, str]:
        return zones.layout(seats)

    def new_game(self, options: Mapping[str, Any], seats: int) -> State:
        return setup.new_state(seats, options_of(options, seats), pack_from_options(options))

    def observe(self, state: State, seen: Seen) -> Outcome:
        return observe(state, seen)

    def decide(self, state: State, decision: Decision) -> Outcome:
        return decide(state, decision)

    def pending(self, state: State) -> tuple[Prompt, ...]:
        return prompts.pending(state)

    def waiting_for(self, state: State) -> str:
        return words.waiting_for(state)

    def scores(self, state: State) -> tuple[int, ...]:
        # Public VP so far (G-36) during play: the same for everyone, secret cards unnamed.
        if state.phase == OVER:
            return tuple(s.vp for s in scoring.final(state))
        return tuple(scoring.public_vp(state, s) for s in range(len(state.seats)))

    def snapshot(self, state: State) -> dict[str, Any]:
        from scorekeeper.games.arcana import records  # not at serve start: rarely used

        return records.snapshot(state)

    def restore(self, record: Mapping[str, Any]) -> State:
        from scorekeeper.games.arcana import records

        return records.restore(record)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def view(self, state: State, audience: Audience) -> dict[str, Any]:
        from scorekeeper.games.arcana import views

        return views.view(state, audience)

    def secrets(self, state: State, seat: int) -> frozenset[str]:
        return privacy.secrets(state, seat)

    def hidden_kind(self, piece: str) -> str | None:
        from scorekeeper.games.arcana import pack

        return privacy.hidden_kind_for(pack.sample_pack(), Options(), piece)

    def hidden_kind_for(self, piece: str, options: Mapping[str, Any]) -> str | None:
        return privacy.hidden_kind_for(pack_from_options(options), options, piece)

    def locate(self, state: State, piece: str) -> str | None:
        return privacy.locate(state, piece)

    def prompt_words(self, prompt: str) -> str:
        return words.prompt_words(prompt)

    def answer_words(self, prompt: str, answer: str, state: State | None = None) -> str:
        return words.answer_words(prompt, answer, state if isinstance(state, State) else None)

    def describe_input(
        self,
        inp: Any,
        seats: Sequence[str] = (),
        state: State | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> str:
        pack = None
        if not isinstance(state, State) and options is not None:
            try:
                pack = pack_from_options(options)
            except (ConfigError, KeyError, TypeError, ValueError):
                pack = None
        got = words.describe_input(inp, seats, state if isinstance(state, State) else None, pack)
        return got if got is not None else super().describe_input(inp, seats, state, options)


def observe(state: State, seen: Seen) -> Outcome:
    """A card seen arriving (or leaving) a pad. Departures change nothing; an arrival where the
    referee already has the card changes nothing; otherwise the phase's module judges it."""
    if not seen.present:
        return Accepted(state)
    where = zones.parse(seen.zone)
    if where is None or not _at_table(state, where):
        return unknown_zone(seen.zone, zones.zone_names(len(state.seats)))
    if privacy.locate(state, seen.piece) == seen.zone:
        return Accepted(state)  # after the last result too: the table lays won cards away
    if state.phase == OVER:
        return game_over()
    if state.phase == SETUP:
        return setup.observe(state, seen.zone, seen.piece)
    refused = boxed(state, seen.piece)
    if refused is not None:
        return refused
    if state.phase == RESULTS:
        return results.observe(state, seen.zone, seen.piece)
    if where[0] == zones.EVENT:
        got = rounds.observe_event(state, seen.piece)
    else:
        got = intrigue.observe(state, seen.zone, seen.piece)
    return _after(got)


def decide(state: State, decision: Decision) -> Outcome:
    """A person's answer to an open prompt (the organiser answers for the seat asked)."""
    if state.phase == OVER:
        return game_over()
    match = match_prompt(prompts.pending(state), decision)
    if match.prompt is None:
        # A rule may say why it is not asked (a spent master, an empty watch deck).
        ruled = intrigue.unasked(state, decision.prompt, decision.answer, decision.seat)
        if ruled is not None:
            return ruled
        about = words.prompt_words(decision.prompt)
        return Rejected(
            NO_PROMPT,
            f"nobody is asked about {about} now",
            f"now: {words.waiting_for(state)}",
        )
    prompt = match.prompt
    if match.problem == "wrong-seat":
        who = seat_ref(prompt.seat or 0)
        return Rejected(
            WRONG_SEAT, f"that question is for {who}", f"{who} or the organiser answers it"
        )
    if prompt.id == CONFIRM and decision.seat is not None:
        # G-33: the organiser confirms what the players did by hand, never a player.
        return Rejected(
            WRONG_SEAT, "the organiser confirms an ability done by hand", "the organiser answers it"
        )
    seat = prompt.seat if prompt.seat is not None else decision.seat
    if state.phase == RESULTS and (prompt.id in _RESULTS_PROMPTS or prompt.id == results.SET_ASIDE):
        return results.decide(state, prompt.id, decision.answer, seat)
    return _after(intrigue.decide(state, prompt.id, decision.answer, seat))


def _after(got: Outcome) -> Outcome:
    """An accepted input of the intrigue phase, followed by the results when every hand is
    empty and nothing is open (rounds.after_intrigue)."""
    if not isinstance(got, Accepted) or got.state.phase != INTRIGUE:
        return got
    state, more = rounds.after_intrigue(got.state)
    return Accepted(state, (*got.events, *more)) if more else got


def _at_table(state: State, where: tuple[str, str, int]) -> bool:
    """Whether a parsed zone exists at this table (its district, its seat)."""
    kind, did, seat = where
    if kind in (zones.STAKE, zones.AGENTS):
        return did in zones.district_ids(len(state.seats))
    if kind in (zones.DISCARD, zones.BADGE):
        return 0 <= seat < len(state.seats)
    return kind == zones.EVENT
