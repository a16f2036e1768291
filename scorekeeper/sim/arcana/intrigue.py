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

from collections.abc import Generator, Iterator
from typing import Any

from scorekeeper.core.inputs import Decision
from scorekeeper.games.arcana.cards import (
    CITIZEN,
    LOCATION,
    MAJOR_ARCANA,
    PRINCES_GAMES_CARD,
    RELIC,
    Ability,
)
from scorekeeper.sim.arcana import bots
from scorekeeper.sim.arcana.rules import Reckoning
from scorekeeper.sim.arcana.table import NEUTRAL, Action, Agent

Plan = tuple[str, ...]
"""("agent", card, did) | ("relic", card, did) | ("location", card, "play"|"discard") |
("discard", card) | ("watch", card, did)."""
Flow = Generator[Action, None, int]
"""A sub-flow yielding actions and returning the extra actions it gave the actor."""
ACTIVE = (
    "draw_keep",
    "draw",
    "move_agent",
    "immediate_win",
    "return_agent",
    "extra_action",
    "manual",
)
"""The effects the engine carries out when a location is played or a master used."""


class Intrigue(Reckoning):
    """The intrigue phase (a mixin of the world; see the module docstring)."""

    def intrigue(self) -> Iterator[Action]:
        """R-INT-1, G-12: turns clockwise from the first player until every hand is empty."""
        actor = self.first
        self.master_uses = [0] * self.seats
        self.turns = 0
        while True:
            order = [s for s in self.clockwise(actor) if self.players[s].hand]
            if not order:
                return
            actor = order[0]
            yield from self.turn(actor)
            self.turns += 1
            actor = (actor + 1) % self.seats

    def turn(self, actor: int) -> Iterator[Action]:
        actions = 1
        if self._master_usable(actor) and self.rng.random() < self.temper.master:
            self.events["master"] += 1
            actions += yield from self._use_master(actor)
        while actions > 0 and self.players[actor].hand:
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
            if value and mine + value + self._reserve(seat, card, major) < need:
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

    # -- abilities ---------------------------------------------------------------------------

    def _runnable(self, actor: int, ability: Ability | None) -> bool:
        """Whether the bot can carry out every effect of ``ability`` now (an ability with a
        condition, or one whose choice has no legal answer, is discarded unused)."""
        if ability is None or ability.conditions:
            return False
        if not any(e.kind in ACTIVE for e in ability.effects):
            return False
        for e in ability.effects:
            if e.kind == "move_agent" and not self._moves(actor, e.args):
                return False
            if e.kind == "immediate_win" and not self._win_targets(actor, e.args):
                return False
            if e.kind == "return_agent" and not self._returns(actor, e.args):
                return False
        return True

    def _ability(self, actor: int, ability: Ability | None, action: Action) -> Flow:
        """Carry out a played location's or a used master's effects in order; the extra
        actions they give."""
        extra = 0
        assert ability is not None
        for e in ability.effects:
            args = dict(e.args)
            self.events[f"effect_{e.kind}"] += 1
            if e.kind == "draw":
                self.draw(actor, int(args.get("n", 1)))
            elif e.kind == "draw_keep":
                got = self.draw(actor, int(args.get("draw", 1)))
                for card in self._least(actor, max(0, got - int(args.get("keep", 1)))):
                    self.players[actor].hand.remove(card)
                    self.players[actor].discard.append(card)
                    self.players[actor].seen.add(card)
                    action += self.tap(card, actor)
            elif e.kind == "extra_action":
                extra += 1
            elif e.kind == "move_agent":
                moves = self._moves(actor, e.args)
                if moves:
                    agent, src, dst = bots.pick(self.rng, moves)
                    action += self._move(agent, src, dst)
            elif e.kind == "immediate_win":
                places = self._win_targets(actor, e.args)
                if places:
                    did = bots.pick(self.rng, places)
                    action.append(self.ask(actor, "win_at", did))
                    yield from self.win_now(actor, did, action, "ability")
                    action = []
            elif e.kind == "return_agent":
                victims = self._returns(actor, e.args)
                if victims:
                    victim, home = bots.pick(self.rng, victims)
                    k = self.places[home].agents.index(victim) + 1
                    self.events["return_face_down" if not victim.face_up else "return"] += 1
                    named = victim.card if victim.face_up else f"{home}.{k}"  # by place
                    action.append(self.ask(actor, "return", named))
                    self.places[home].agents.remove(victim)
                    self.players[victim.owner].discard.append(victim.card)
                    action += self.lift(victim.card)
            elif e.kind == "manual":
                action += self._manual(actor)
        if action:
            yield action
        return extra

    def _manual(self, actor: int) -> Action:
        """G-33: the players do what the card says; the actor answers, the organiser
        confirms. The world's players draw a card now and then, nothing else."""
        if self.rng.random() < self.temper.manual_drew:
            n = self.draw(actor, 1)
            self.events["manual_drew"] += 1
            answer = f"drew:{n}"
        else:
            answer = "done"
        return [self.ask(actor, "manual", answer), Decision(None, "confirm", "yes")]

    def _least(self, actor: int, count: int) -> list[str]:
        hand = self.players[actor].hand
        ranked = sorted(
            hand, key=lambda c: max(self.card(c).value(m) for m in MAJOR_ARCANA) + self.rng.random()
        )
        return ranked[:count]

    def _fits_rel(self, want: Any, seat: int, did: str) -> bool:
        """Whether ``did`` is to ``seat`` one of ``want`` (a word or a list of them; ``any``
        or nothing takes every district; ``here`` none: a location or master lies nowhere)."""
        if want in (None, "", "any"):
            return True
        words = (want,) if isinstance(want, str) else tuple(want)
        return "any" in words or self.relation(seat, did) in words

    def _whose(self, want: Any, actor: int, owner: int) -> bool:
        """``whose``: ``own``, ``other`` or ``enemy`` (anyone else's), ``any`` (default)."""
        if want == "own":
            return owner == actor
        if want in ("other", "enemy"):
            return owner != actor
        return True

    def _moves(self, actor: int, args: tuple[tuple[str, Any], ...]) -> list[tuple[Agent, str, str]]:
        """R-INT-6: (agent, from, to) an ability may move (the bot leaves watch cards, agents
        carrying relics, and districts where the agent's owner has a relic alone)."""
        a = dict(args)
        out = []
        for src, place in self.places.items():
            if not place.open() or not self._fits_rel(a.get("from"), actor, src):
                continue
            for agent in place.agents:
                if agent.watch or agent.relics:
                    continue
                if not self._whose(a.get("whose"), actor, agent.owner):
                    continue
                for dst, other in self.places.items():
                    if (
                        dst == src
                        or not other.open()
                        or not self._fits_rel(a.get("to"), actor, dst)
                    ):
                        continue
                    if any(x.relics for x in self.agents_of(agent.owner, dst)):
                        continue
                    out.append((agent, src, dst))
        return out

    def _move(self, agent: Agent, src: str, dst: str) -> Action:
        self.places[src].agents.remove(agent)
        agent.face_up = self.relation(agent.owner, dst) != "friendly"
        if agent.face_up:
            self.players[agent.owner].seen.add(agent.card)
        self.places[dst].agents.append(agent)
        self.events["moved_face_up" if agent.face_up else "moved_face_down"] += 1
        return self.arrive(agent.card, f"agents_{dst}")

    def _win_targets(self, actor: int, args: tuple[tuple[str, Any], ...]) -> list[str]:
        a = dict(args)
        kinds = a.get("stake_type") or ()
        return [
            did
            for did, place in self.places.items()
            if place.open()
            and (not kinds or self.kind(place.stake or "") in kinds)
            and self._fits_rel(a.get("where"), actor, did)
        ]

    def _returns(self, actor: int, args: tuple[tuple[str, Any], ...]) -> list[tuple[Agent, str]]:
        a = dict(args)
        out = []
        for did, place in self.places.items():
            if not self._fits_rel(a.get("where"), actor, did):
                continue
            for agent in place.agents:
                if agent.watch or agent.relics:
                    continue
                if not self._whose(a.get("whose"), actor, agent.owner):
                    continue
                out.append((agent, did))
        return out

    # -- masters -----------------------------------------------------------------------------

    def _master_usable(self, actor: int) -> bool:
        p = self.players[actor]
        if not p.master or (p.master_used and self._once(p.master)):
            return False
        if self.master_uses[actor] >= self.temper.master_uses:
            return False
        return self._runnable(actor, self.card(p.master).ability)

    def _once(self, master: str) -> bool:
        limit = self.options["master_limit"]
        return limit == "once_per_round" or (
            limit == "by_card" and self.card(master).once_per_round
        )

    def _use_master(self, actor: int) -> Flow:
        """R-OPT-E-2, G-38: ``master use``, then its ability (no action of the turn)."""
        p = self.players[actor]
        p.master_used = True
        self.master_uses[actor] += 1
        action: Action = [self.ask(actor, "master", "use")]
        return (yield from self._ability(actor, self.card(p.master).ability, action))

    # -- stakes won at once ------------------------------------------------------------------

    def win_now(self, winner: int, did: str, action: Action, how: str) -> Iterator[Action]:
        """R-INT-5, G-30: ``winner`` takes the stake at ``did`` now; then its next stake is
        turned up (G-35), the Prince's Games card by G-7."""
        stake = self.places[did].stake or ""
        self.history.append(
            {
                "round": self.round,
                "district": did,
                "stake": stake,
                "winner": winner,
                "immediate": True,
                "how": how,
            }
        )
        self.events["immediate_win"] += 1
        action += self.award(winner, did)
        others = [d for d, p in self.places.items() if d != did and p.open() and not p.resolved]
        if not others and not any(p.hand for p in self.players):
            # The table's results phase has nothing to settle: the round ends at once, and the
            # next stake is the end of the round's (R-EOR-2), not one turned up mid-round.
            self.events["win_ends_round"] += 1
            yield action
            return
        self.awaiting.add(did)
        yield action
        yield from self.turn_up(did, mid_round=True)

    def award(self, winner: int, did: str) -> Action:
        """R-RES-4: every card at ``did`` to its owner's discard pile (watch cards to the watch
        deck, G-34), the stake to the winner's discard pile or under its badge (R-OPT-T)."""
        place = self.places[did]
        out: Action = []
        for a in place.agents:
            out += self.lift(a.card)
            if a.watch:
                self.watch_deck.insert(0, a.card)
                self.watch_owner.pop(a.card, None)
            else:
                self.players[a.owner].discard.append(a.card)
                self.players[a.owner].seen.add(a.card)
            for r in a.relics:
                out += self.lift(r)
                self.players[a.owner].discard.append(r)
        place.agents = []
        stake = place.stake or ""
        place.stake = None
        for key in [k for k in self.bribe_arcanum if k[0] == did]:
            del self.bribe_arcanum[key]
        p = self.players[winner]
        p.owned.add(stake)
        if self.options["set_aside"] and self.rng.random() < self.temper.set_aside:
            p.set_aside.append(stake)
            self.events["set_aside"] += 1
            if self.rng.random() < self.temper.badge_pad:
                out += self.arrive(stake, f"badge:{winner}")
            else:
                # Answered: the stake slides under the badge unread.
                out += [self.ask(winner, "set_aside", "badge"), *self.lift(stake)]
        else:
            p.discard.append(stake)
            out += self.lift(stake)
            if self.options["set_aside"]:
                out.append(self.ask(winner, "set_aside", "discard"))
        return out

    def turn_up(self, did: str, *, mid_round: bool) -> Iterator[Action]:
        """R-INT-5, R-EOR-2: the district's next stake on its pad; an empty pile leaves it
        empty for good (G-5); the Prince's Games card brings the end (R-END-1, G-7)."""
        place = self.places[did]
        self.awaiting.discard(did)
        if not place.pile:
            self.events["district_emptied"] += 1
            return
        card = place.pile.pop()
        place.stake = card
        if card == PRINCES_GAMES_CARD:
            self.events["princes_games_mid_round" if mid_round else "princes_games"] += 1
            if not mid_round or self.options["late_princes_games"] == "next_round":
                self.one_more = True
            else:
                self.last_round = True
        yield self.arrive(card, f"stake_{did}")
