"""The intrigue phase of the simulated table (R-INT): the bots' turns, performed physically.

Turns go clockwise from the first player, passing over empty hands, until every hand is empty
(R-INT-1, G-12). Each turn the actor may use its guild master first (``master use``, no action,
G-38) and then takes one action (more with ``extra_action``, or the watch under ``watch_call:
extra``), chosen by weight among the legal ones: an agent on ``agents_<x>`` (A1, A2), a
location on its discard pad answered ``location`` (A3 with its ability, or A5), a relic on an
agent pad (A4, answers ``bribe_arcanum`` and ``relic_on`` where the contract asks them), a
discard (A5), the watch (A6: a stake on the discard pad, ``stake_discard watch`` or not, and
the watch card at a district). A stake won at once (a bribe, G-13's re-check, an ability) sends
every card there home (G-30), asks ``set_aside`` with the option, and the next stake is turned
up on the district's pad as the next action (G-35).

Hazard: a turn's state changes are made before its action is yielded (``Table``'s rule).
"""

from __future__ import annotations

from collections.abc import Iterator

from scorekeeper.core.inputs import Decision
from scorekeeper.games.arcana.cards import CITIZEN, LOCATION, RELIC
from scorekeeper.sim.arcana import bots
from scorekeeper.sim.arcana.abilities import Abilities, Flow
from scorekeeper.sim.arcana.table import NEUTRAL, Action, Agent

Plan = tuple[str, ...]
"""("agent", card, did) | ("relic", card, did) | ("location", card, "play"|"discard") |
("discard", card) | ("watch", card, did)."""


class Intrigue(Abilities):
    """The intrigue phase (a mixin of the world; see the module docstring)."""

    def intrigue(self) -> Iterator[Action]:
        """R-INT-1, G-12: turns clockwise from the first player until every hand is empty."""
        actor = self.first
        self.master_uses = [0] * self.seats
        self.turns = 0
        now = self.round
        while self.round == now:  # a round with nothing to settle ends with its last action
            order = [s for s in self.clockwise(actor) if self.players[s].hand]
            if not order:
                return
            actor = order[0]
            yield from self.turn(actor)
            self.turns += 1
            actor = (actor + 1) % self.seats

    def turn(self, actor: int) -> Iterator[Action]:
        actions = 1
        now = self.round
        if self._master_usable(actor) and self.rng.random() < self.temper.master:
            self.events["master"] += 1
            actions += yield from self._use_master(actor)
        while actions > 0 and self.players[actor].hand and self.round == now:
            actions -= 1
            actions += yield from self.perform(actor, self.choose(actor))

    # -- choosing ----------------------------------------------------------------------------

    def open_districts(self) -> list[str]:
        return [did for did, p in self.places.items() if p.open()]

    def _worth(self, seat: int, card: str, did: str) -> float:
        """How much ``card`` helps ``seat`` win ``did``: much when it lifts the seat to the
        threshold and past every other seat, little when the seat already leads there."""
        stake = self.card(self.places[did].stake or "")
        at = {a.owner for a in self.places[did].agents} - {seat}
        best = 0.0
        for major in stake.majors:
            value = self.card(card).value(major)
            mine = self.seat_sum(seat, did, major, {})
            other = max((self.seat_sum(s, did, major, {}) for s in at), default=0)
            need = stake.threshold_in(major) or 0
            reach = mine + value + self._reserve(seat, card, major)
            if value and reach < need and not self._could_bribe(seat, did, reach):
                continue  # hopeless even with every card to come: it would only lie stuck
            if mine >= need and mine > other:
                score = 0.2
            elif mine + value >= need and mine + value > other:
                score = 3.0 + value
            else:
                score = 0.5 * value
            best = max(best, score)
        return best

    def _reserve(self, seat: int, card: str, major: str) -> int:
        """What ``seat``'s other agents not at a district (hand, deck, discard pile) are worth
        in ``major``: how far the seat could still go at one district."""
        p = self.players[seat]
        return sum(
            self.card(c).value(major)
            for c in (*p.hand, *p.deck, *p.discard)
            if c != card and self.is_agent_card(c)
        )

    def _could_bribe(self, seat: int, did: str, reach: int) -> bool:
        """Whether ``seat`` could one day bribe the citizen at ``did``: ``reach`` in its
        arcanum and the ducats of its relics not at a district (R-BRIBE-3)."""
        if not self.bribable(did):
            return False
        p = self.players[seat]
        ducats = sum(
            self.card(c).ducat or 0 for c in (*p.hand, *p.deck, *p.discard) if self.kind(c) == RELIC
        )
        return bool(ducats) and reach + ducats >= (
            self.card(self.places[did].stake or "").ducat or 0
        )

    def choose(self, actor: int) -> Plan:
        """The actor's action: a weighted choice among the legal ones (see ``bots.Temper``)."""
        t = self.temper
        hand = self.players[actor].hand
        options: list[tuple[float, Plan]] = []
        districts = self.open_districts()
        for card in hand:
            kind = self.kind(card)
            options.append((t.discard, ("discard", card)))
            if self.is_agent_card(card):
                for did in districts:
                    worth = self._worth(actor, card, did)
                    if not worth:  # an agent that counts nothing there only blocks the game
                        continue
                    w = t.agent * worth
                    if did == NEUTRAL:  # more so as a game drags on
                        w *= t.neutral * (1 + self.round / 8)
                    options.append((w / len(hand), ("agent", card, did)))
            if kind == LOCATION and self._runnable(actor, self.card(card).ability):
                tired = 1 + (self.turns / (3 * self.seats)) ** 2  # no endless drawing
                options.append((t.location / tired, ("location", card, "play")))
            if kind == RELIC:
                for did in districts:
                    if self.bribable(did) and self.agents_of(actor, did):
                        win = self._bribe_wins(actor, did, card)
                        options.append((t.bribe if win else t.short_bribe, ("relic", card, did)))
            if self._can_call_watch(card):
                for did in districts:
                    options.append((t.watch / len(districts), ("watch", card, did)))
        return bots.weighted(self.rng, options)

    def _bribe_wins(self, actor: int, did: str, relic: str) -> bool:
        stake = self.card(self.places[did].stake or "")
        arcanum = self._bribe_choice(actor, did)
        return self.bribe_sum(actor, did, arcanum) + (self.card(relic).ducat or 0) >= (
            stake.ducat or 0
        )

    def _bribe_choice(self, actor: int, did: str) -> str:
        """The arcanum ``actor`` bribes in: the one named before at ``did``, else its best."""
        majors = self.card(self.places[did].stake or "").majors
        named = self.bribe_arcanum.get((did, actor))
        if named in majors:
            return named
        return max(majors, key=lambda m: (self.bribe_sum(actor, did, m), -majors.index(m)))

    def _can_call_watch(self, card: str) -> bool:
        """R-OPT-D-2, G-22: a won citizen or relic stake, with watch cards left (a location
        stake is kept to its ``location`` answer)."""
        return (
            self.options["watch"]
            and bool(self.watch_deck)
            and self.is_stake(card)
            and self.kind(card) in (CITIZEN, RELIC)
        )

    # -- performing --------------------------------------------------------------------------

    def perform(self, actor: int, plan: Plan) -> Flow:
        p = self.players[actor]
        card = plan[1]
        p.hand.remove(card)
        noise = self.fidget()
        if plan[0] == "agent":
            return (yield from self._agent(actor, card, plan[2], noise))
        if plan[0] == "relic":
            yield from self._relic(actor, card, plan[2], noise)
            return 0
        if plan[0] == "watch":
            return (yield from self._watch(actor, card, plan[2], noise))
        p.discard.append(card)
        p.seen.add(card)
        action = noise + self.tap(card, actor)
        if self.kind(card) == LOCATION:
            use = plan[0] == "location"
            self.events["location_play" if use else "location_discard"] += 1
            action.append(self.ask(actor, "location", "play" if use else "discard"))
            if use:
                return (yield from self._ability(actor, self.card(card).ability, action))
        else:
            self.events["discard"] += 1
            if self.options["watch"] and self.watch_deck and self.is_stake(card):
                action.append(self.ask(actor, "stake_discard", "discard"))
        yield action
        return 0

    def _agent(self, actor: int, card: str, did: str, action: Action) -> Flow:
        """A1, A2: face up at the neutral or an enemy district, face down at a friendly one."""
        face_up = self.relation(actor, did) != "friendly"
        self.places[did].agents.append(Agent(card, actor, face_up))
        if face_up:
            self.players[actor].seen.add(card)
        self.events["agent_face_up" if face_up else "agent_face_down"] += 1
        if self.kind(card) == CITIZEN:
            self.events["citizen_agent"] += 1
        action += self.arrive(card, f"agents_{did}")
        yield from self._recheck(actor, did, action)
        return 0

    def _recheck(self, actor: int, did: str, action: Action) -> Iterator[Action]:
        """G-13: a bribe lying at ``did`` is checked again when its briber adds a card there."""
        mine = self.agents_of(actor, did)
        if any(a.relics for a in mine) and self.bribable(did):
            arcanum = self._bribe_choice(actor, did)
            stake = self.card(self.places[did].stake or "")
            if self.bribe_sum(actor, did, arcanum) >= (stake.ducat or 0):
                self.events["bribe_recheck_wins"] += 1
                yield from self.win_now(actor, did, action, "bribe")
                return
        yield action

    def _relic(self, actor: int, relic: str, did: str, action: Action) -> Iterator[Action]:
        """A4 (R-BRIBE, G-13 … G-15, G-31): the relic on one of the actor's agents there."""
        self.players[actor].seen.add(relic)
        action += self.arrive(relic, f"agents_{did}")
        majors = self.card(self.places[did].stake or "").majors
        arcanum = self._bribe_choice(actor, did)
        if len(majors) > 1:
            self.events["bribe_arcanum"] += 1
            action.append(self.ask(actor, "bribe_arcanum", arcanum))
        self.bribe_arcanum[(did, actor)] = arcanum
        mine = self.agents_of(actor, did)
        target = mine[0]
        if len(mine) >= 2 and any(not a.face_up for a in mine):
            target = bots.pick(self.rng, mine)
            self.events["relic_on"] += 1
            action.append(Decision(actor, "relic_on", target.card))
        target.relics.append(relic)
        if not target.face_up:
            target.face_up = True
            self.players[actor].seen.add(target.card)
        stake = self.card(self.places[did].stake or "")
        if self.bribe_sum(actor, did, arcanum) >= (stake.ducat or 0):
            self.events["bribe_wins"] += 1
            yield from self.win_now(actor, did, action, "bribe")
        else:
            self.events["bribe_short"] += 1
            yield action

    def _watch(self, actor: int, stake: str, did: str, action: Action) -> Flow:
        """A6 (R-OPT-D-2, R-OPT-D-3): a stake discarded, the top watch card at a district."""
        p = self.players[actor]
        p.discard.append(stake)
        action += self.tap(stake, actor)
        if self.rng.random() >= self.temper.watch_by_itself:
            action.append(self.ask(actor, "stake_discard", "watch"))
            self.events["watch_answered"] += 1
        else:
            self.events["watch_by_itself"] += 1
        watch = self.watch_deck.pop()
        self.watch_owner[watch] = actor
        face_up = self.relation(actor, did) != "friendly"
        self.places[did].agents.append(Agent(watch, actor, face_up, watch=True))
        action += self.arrive(watch, f"agents_{did}")
        yield from self._recheck(actor, did, action)
        return 1 if self.options["watch_call"] == "extra" else 0
