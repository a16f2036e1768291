"""Abilities on the simulated table: a played location's (``when: play``) or a used guild
master's (``when: use``, R-OPT-E-2, G-38) effects carried out in order as the contract's
inputs (docs/games/arcana.md, "Abilities"): draws (unseen), the cards a ``draw_keep`` lets go
on the discard pad, a moved agent's arrival at its new district (R-INT-6), the ``win_at`` and
``return`` answers (a face-down agent by its place ``<district>.<k>``), ``manual`` and the
organiser's ``confirm`` (G-33), and one more action (``extra_action``).

The bots play an ability only when they can carry out every effect of it (an ability with a
condition, or whose choice has no legal answer, is discarded unused), and leave alone the
watch cards and the agents carrying relics when they move or send back an agent.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from scorekeeper.core.inputs import Decision
from scorekeeper.games.arcana.cards import MAJOR_ARCANA, Ability
from scorekeeper.sim.arcana import bots
from scorekeeper.sim.arcana.stakes import Stakes
from scorekeeper.sim.arcana.table import Action, Agent

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


class Abilities(Stakes):
    """Locations' and masters' abilities (a mixin of the world)."""

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
        now = self.round
        for e in ability.effects:
            if self.round != now:  # a stake won at once ended the round (nothing left to do)
                break
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
