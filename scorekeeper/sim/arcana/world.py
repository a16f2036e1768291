"""The Arcana world: a full-information table played by bots, performed physically.

The world deals the stake piles, the guilds' decks, the watch and event decks and the
objectives from its seed, keeps every hand, and plays every round by the rules
(docs/rules/arcana.md, with its rulings and the table options) with the bots of ``bots.py``:
the draw (unseen), the intrigue phase (``intrigue.py``), the results phase and the end of the
round (``results.py``). Every move is *performed* as the sightings and decisions of
docs/games/arcana.md (the contract), in a real table's order: badges, masters and kept
objectives on the badge pads, a custom guild's returned cards on the discard pads, the first
stakes and event on their pads; then agents, relics and watch cards on the agent pads,
locations, discards and stakes on the discard pads, the answers to the prompts, and the next
stakes and events on their pads. The world keeps its own sums and points by its own code
(``rules.py``; nothing of the referee's rules is imported, only the pieces and the pack), so a
referee fed only these inputs can be checked against it.

Hazard: the flow is a generator. Every change that shows in ``scores()``, ``is_over()`` or
``checkpoint()`` is made *before* the action that causes it is returned. The referee ends a
round, and draws for the next, with the input that completes it (the last result, or the last
new stake it awaits), so the world does both before returning that action (``_play``), and the
intrigue and results flows stop where the round ended.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from scorekeeper.core.inputs import Seen
from scorekeeper.games.arcana.cards import (
    EVENTS,
    OBJECTIVES,
    PRINCES_GAMES_CARD,
    STAKES,
    WATCH_CARDS,
    Pack,
)
from scorekeeper.sim.arcana import bots
from scorekeeper.sim.arcana.results import Results
from scorekeeper.sim.arcana.table import HAND, NEUTRAL, Action
from scorekeeper.sim.world import PlayedWorld

DEFAULT_NOISE = 0.3
PILE = 12
"""R-SETUP-4: stake cards dealt to each district."""


class ArcanaWorld(Results, PlayedWorld):
    """One simulated game of Arcana for 2-4 bots; see the module docstring.

    ``history`` holds one entry per district result or stake won at once: ``round``,
    ``district``, ``stake``, ``winner``, ``immediate``, and for a result ``sums`` and
    ``arcana``. ``events`` counts what the game exercised. ``pack`` (a Pack) overrides the
    ``pack`` option; ``guilds`` fixes each seat's guild (else drawn from the seed).
    """

    game_id: ClassVar[str] = "arcana"

    def __init__(
        self,
        seats: int,
        options: Mapping[str, Any],
        seed: int,
        *,
        temper: bots.Temper | None = None,
        noise: float = DEFAULT_NOISE,
        pack: Pack | None = None,
        guilds: tuple[str, ...] | None = None,
    ) -> None:
        self._init_table(seats, options, seed, temper or bots.Temper(), noise, pack, guilds)
        self._checked = 0
        self.event_due = False
        self._deal()
        self._start()

    # -- the World interface -----------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """The points everyone has seen each seat own during play (G-36); the final points
        once the game is over (R-END-2)."""
        if self.over:
            return tuple(self.final(s)["vp"] for s in range(self.seats))
        return tuple(self.public_vp(s) for s in range(self.seats))

    def is_over(self) -> bool:
        """True once the last round's last result is in (R-END-1, R-OPT-F-3)."""
        return self.over

    def winners(self) -> list[int]:
        """R-END-3, R-END-4, G-27: the most points, then the most stakes; the rest share."""
        finals = [self.final(s) for s in range(self.seats)]
        top = max((f["vp"], f["stake_count"]) for f in finals)
        return [s for s, f in enumerate(finals) if (f["vp"], f["stake_count"]) == top]

    def checkpoint(self) -> dict[str, Any]:
        """After a district's result or a stake won at once: its ``history`` entry (district,
        stake, winner, whether at once, and a result's sums by seat); at the end each seat's
        ``vp`` and ``stakes``."""
        out: dict[str, Any] = {}
        if len(self.history) > self._checked:
            self._checked = len(self.history)
            entry = self.history[-1]
            for key in ("district", "winner", "immediate"):
                out[f"state.history.-1.{key}"] = entry[key]
            out["state.history.-1.stake.card"] = entry["stake"]
            if not entry["immediate"]:
                out["state.history.-1.sums"] = {str(s): v for s, v in entry["sums"].items()}
        if self.over:
            for s in range(self.seats):
                final = self.final(s)
                out[f"state.seats.{s}.vp"] = final["vp"]
                out[f"state.seats.{s}.stakes"] = final["stake_count"]
        return out

    # -- setting up --------------------------------------------------------------------------

    def _deal(self) -> None:
        """R-SETUP-3 … 6, R-OPT-B … F: everything dealt from the seed, unseen."""
        stakes = list(STAKES)
        self.rng.shuffle(stakes)
        for place in self.places.values():
            place.pile, stakes = stakes[:PILE], stakes[PILE:]
            if place.id == NEUTRAL and not self.options["events"]:
                place.pile.insert(self.rng.randrange(6), PRINCES_GAMES_CARD)  # R-SETUP-5
        for p in self.players:
            if self.options["custom_guild"]:
                pool = [c.id for c in self.pack.guild_cards(p.guild, "AB")]
                self.rng.shuffle(pool)
                kept, p.returned = pool[:11], pool[11:]
            else:
                kept = [c.id for c in self.pack.guild_cards(p.guild, "A")]
            p.owned = set(kept)
            p.deck = list(kept)
            self.rng.shuffle(p.deck)
            if self.options["guild_masters"]:
                p.master = f"master_{p.guild}_{self.rng.randrange(3) + 1}"
        if self.options["objectives"]:
            deal = list(OBJECTIVES)
            self.rng.shuffle(deal)
            for p in self.players:
                dealt, deal = deal[:4], deal[4:]
                p.objectives = self.rng.sample(dealt, 2)
        if self.options["watch"]:
            self.watch_deck = list(WATCH_CARDS)
            self.rng.shuffle(self.watch_deck)
        if self.options["events"]:  # R-OPT-F-1: 9 on top of 3 shuffled with the Prince's Games
            events = list(EVENTS)
            self.rng.shuffle(events)
            bottom = [*events[9:], PRINCES_GAMES_CARD]
            self.rng.shuffle(bottom)
            self.event_deck = bottom + events[:9]

    def _setup(self) -> Action:
        """The setup's sightings: per seat its badge, master and kept objectives on its badge
        pad and a custom guild's 9 returned cards on its discard pad; each district's first
        stake; with events the first event."""
        out: Action = []
        for s in self.rng.sample(range(self.seats), self.seats):
            p = self.players[s]
            out += self.arrive(f"badge_{p.guild}", f"badge:{s}")
            if p.master:
                out += self.arrive(p.master, f"badge:{s}")
            for o in p.objectives:  # read, then laid beside the badge
                out += self.arrive(o, f"badge:{s}") + self.lift(o)
            for c in p.returned:
                out += self.tap(c, s)
        for did, place in self.places.items():
            place.stake = place.pile.pop()
            out += self.arrive(place.stake, f"stake_{did}")
        if self.options["events"]:
            self.event_next = self.event_deck.pop()
            out += self.arrive(self.event_next, "event")
        return out

    # -- the flow of a game ------------------------------------------------------------------

    def _round_done(self) -> bool:
        """The round's last result is in (or its intrigue ends with nothing to settle)."""
        return (
            not self.awaiting
            and not any(p.hand for p in self.players)
            and all(p.resolved or not p.open() for p in self.places.values())
        )

    def _play(self) -> Iterator[Action]:
        for action in self._game():
            if self._round_done() and self.last_round:
                self.over = True
                self.watch_home()  # a relic on a watch card still goes to its owner's pile
                action = _until_the_end(action)
            elif self._round_done():
                # The referee ends the round and begins the next one (the draw) as soon as the
                # last result is in and the last new stake seen: so does the world, before
                # the action that completes it is returned.
                action = action + list(self.end_round())
                self._begin_round()
            yield action

    def _game(self) -> Iterator[Action]:
        setup = self._setup()
        self._begin_round()
        yield setup
        while not self.over:
            now = self.round
            if self.options["events"] and self.event_due:
                self.event_due = False
                yield self.lift(self.event_now) + self.arrive(self.event_next, "event")
            yield from self.intrigue()
            if self.round == now and not self.over:  # else nothing was left to settle
                yield from self.results()

    def _begin_round(self) -> None:
        """R-ROUND-2, R-OPT-E-2, R-OPT-F-2: the draw (unseen), masters turned back, the event
        moved to the centre and the next one turned up (its arrival is the round's first
        action), and the event's own draw."""
        self.round += 1
        if self.one_more:
            self.one_more, self.last_round = False, True
        for s, p in enumerate(self.players):
            p.master_used = False
            self.draw(s, HAND)
        if self.options["events"] and self.event_deck:
            self.event_now, self.event_next = self.event_next, self.event_deck.pop()
            self.event_due = True
            if self.event_next == PRINCES_GAMES_CARD:
                self.last_round = True
                self.events["princes_games_event"] += 1
        more = self._event_draw()
        if more:  # after the 4, from the first player on (contract, "Start of a round")
            self.events["event_draw"] += 1
            for s in self.clockwise(self.first):
                self.draw(s, more)
        if not any(p.hand for p in self.players):
            self.events["no_hands"] += 1

    def _event_draw(self) -> int:
        """The cards each seat draws more this round for the event in effect (its ``draw``
        effects, ``when: round``), 0 without."""
        if not self.event_now:
            return 0
        ability = self.card(self.event_now).ability
        if ability is None or ability.when != "round":
            return 0
        return sum(int(e.get("n", 0)) for e in ability.effects if e.kind == "draw")


def _until_the_end(action: Action) -> Action:
    """The game's last action without what follows its last input that counts: the table is
    swept after it (departures) and a card read twice is not laid again (the referee takes
    nothing more once the game is over)."""
    out = list(action)
    while out and isinstance(out[-1], Seen):
        last = out[-1]
        again = last.present and any(
            isinstance(i, Seen) and i.present and (i.zone, i.piece) == (last.zone, last.piece)
            for i in out[:-1]
        )
        if last.present and not again:
            break
        out.pop()
    return out
