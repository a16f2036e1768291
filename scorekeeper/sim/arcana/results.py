"""The results phase and the end of a round on the simulated table (R-RES, R-EOR, R-END).

The first player names each district in turn (``next_district``, R-RES-1, G-20); every card
there turns face up (G-9); with several majors each seat with agents there answers ``declare``
in turn order from the first player (R-MULTI-1, G-11); each Harlequin's owner answers ``copy``
(R-HARL-1, G-17); the sums decide (R-RES-3, R-TIE, G-10); a winner takes the stake (with
``set_aside`` it answers) and every card there goes home (R-RES-4); without one everything
stays, face up (R-RES-5). Then the watch goes home (R-OPT-D-4), each won district turns up its
next stake (R-EOR-2), and the first-player card passes left (R-EOR-3).
"""

from __future__ import annotations

from collections.abc import Iterator

from scorekeeper.sim.arcana import bots
from scorekeeper.sim.arcana.intrigue import Intrigue
from scorekeeper.sim.arcana.table import Action


class Results(Intrigue):
    """The results phase and the end of a round (a mixin of the world)."""

    def results(self) -> Iterator[Action]:
        """R-RES-1: one district at a time, in the order the first player names."""
        now = self.round
        while self.round == now and not self.over:  # the last result ends the round at once
            left = [d for d, p in self.places.items() if p.open() and not p.resolved]
            if not left:
                return
            did = bots.pick(self.rng, left)
            yield self.fidget() + [self.ask(self.first, "next_district", did)] + self.settle(did)

    def settle(self, did: str) -> Action:
        """One district's result (the module docstring's steps 1 … 5)."""
        place = self.places[did]
        place.resolved = True
        stake = self.card(place.stake or "")
        out: Action = []
        for a in place.agents:
            a.face_up = True
            if not a.watch:
                self.players[a.owner].seen.add(a.card)
        at = [s for s in self.clockwise(self.first) if self.agents_of(s, did)]
        copies = self._copies(did, at, out, declare=False)
        arcana: dict[int, str] = {}
        for s in at:
            if len(stake.majors) == 1:
                arcana[s] = stake.majors[0]
                continue
            choice = max(
                stake.majors,
                key=lambda m: (
                    self.seat_sum(s, did, m, copies) - (stake.threshold_in(m) or 0),
                    -stake.majors.index(m),
                ),
            )
            if self.rng.random() < 0.05:
                choice = "none"
                self.events["declare_none"] += 1
            arcana[s] = choice
            self.events["declare"] += 1
            out.append(self.ask(s, "declare", choice))
        copies = self._copies(did, at, out, declare=True, arcana=arcana)
        sums = {s: self.seat_sum(s, did, arcana[s], copies) for s in at}
        thresholds = {s: None if arcana[s] == "none" else stake.threshold_in(arcana[s]) for s in at}
        breakers = self.tie_seats(did, {s: a for s, a in arcana.items() if a != "none"})
        winner, why = self.decide(sums, thresholds, breakers)
        self.events[f"result_{why}"] += 1
        if did == "n" and winner is not None:
            self.events["neutral_won"] += 1
        self.history.append(
            {
                "round": self.round,
                "district": did,
                "stake": place.stake,
                "winner": winner,
                "sums": sums,
                "arcana": arcana,
                "immediate": False,
                "how": why,
            }
        )
        if winner is not None:
            out += self.award(winner, did)
        return out

    def _copies(
        self,
        did: str,
        at: list[int],
        out: Action,
        *,
        declare: bool,
        arcana: dict[int, str] | None = None,
    ) -> dict[str, str]:
        """R-HARL-1, G-17: what each Harlequin at ``did`` copies (its owner's best other agent
        in the arcanum it counts); asked (``copy``) only on the second call."""
        agents = self.places[did].agents
        copies: dict[str, str] = {}
        for a in agents:
            if not self.is_harlequin(a.card):
                continue
            others = [o for o in agents if o is not a and not self.is_harlequin(o.card)]
            arcanum = (arcana or {}).get(a.owner) or self.card(self.places[did].stake or "").majors[
                0
            ]
            if others:
                best = max(
                    others,
                    key=lambda o: self.card(o.card).value(arcanum) if arcanum != "none" else 0,
                )
                copies[a.card] = best.card
            else:
                copies[a.card] = ""
            if declare and not [o for o in agents if o is not a]:
                self.events["copy_alone"] += 1  # the referee asks nothing of a lone Harlequin
            elif declare:
                self.events["copy"] += 1
                out.append(self.ask(a.owner, "copy", copies[a.card] or "none"))
        return copies

    def end_round(self) -> Action:
        """R-OPT-D-4, R-EOR-2, R-EOR-3: the watch goes home, won districts turn up their next
        stake, the first player passes the card left: the inputs, the changes made."""
        out = self.watch_home()
        for did, place in self.places.items():
            place.resolved = False
            if place.stake is None and place.pile:
                for action in self.turn_up(did, mid_round=False):
                    out += action
        self.first = (self.first + 1) % self.seats
        return out

    def watch_home(self) -> Action:
        """R-OPT-D-4: every watch card back to the watch deck (shuffled), a relic lying on one
        to its owner's discard pile; the departures."""
        out: Action = []
        back = False
        for place in self.places.values():
            for a in [a for a in place.agents if a.watch]:
                place.agents.remove(a)
                for r in a.relics:
                    self.players[a.owner].discard.append(r)
                    out += self.lift(r)
                self.watch_deck.append(a.card)
                self.watch_owner.pop(a.card, None)
                out += self.lift(a.card)
                back = True
                self.events["watch_home"] += 1
        if back:
            self.rng.shuffle(self.watch_deck)
        return out
