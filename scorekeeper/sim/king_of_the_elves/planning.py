"""The planning phase of the simulated table (R-PLAN): the bots' turns, performed physically.

Each turn the actor does one thing (R-PLAN-1), chosen by weight among the actions the rules
allow it now, and the world performs it as the contract's "A game, step by step" says: a village
or special card laid on its pad (the special card's token after it), a removed village tapped on
the discard pad with its special cards (tokens lifted back to their owners, villages to its left
slid one pad right, G-10), the answers ``plan buy/draw3/search/pass`` with the cards a draw 3 or
a search puts on the discard pad. N passes in a row end the phase (R-PLAN-2); then every escrow
goes to the bank (R-PLAN-7).

Hazard: a turn's state changes are made before its action is yielded (``Table``'s rule), the
escrows' payment included, which happens before the last pass is returned.
"""

from __future__ import annotations

from collections.abc import Iterator

from scorekeeper.sim.king_of_the_elves import bots
from scorekeeper.sim.king_of_the_elves.deck import COST, OBSTACLE_TERRAINS, kind_of
from scorekeeper.sim.king_of_the_elves.table import (
    BANK,
    CATEGORY,
    Action,
    Special,
    Table,
    Village,
    attach_zone,
    village_zone,
)

Plan = tuple[str, ...]
"""A chosen action: ("village", card, seat) | ("special", card, seat, slot) | ("remove",
slot) | ("buy",) | ("draw3",) | ("search",) | ("pass",)."""


class Planning(Table):
    """The planning phase (a mixin of the world; see the module docstring)."""

    def _init_planning(self) -> None:
        self.no_village: set[int] = set()
        """Seats that searched and found no village anywhere (G-16's house rule): they pass
        from then on and make no journey this round."""

    def planning(self) -> Iterator[Action]:
        """R-PLAN: turns clockwise from the start player until N passes in a row."""
        self.no_village = set()
        passes, turn, actor = 0, 0, self.start
        while passes < self.seats:
            plan = self._choose(actor, turn)
            if plan[0] == "pass" and passes + 1 == self.seats:
                self._end_planning()
            action = self.fidget() + self._perform(actor, plan)
            if plan[0] == "pass":
                passes += 1
            elif actor in self.no_village:  # a search that found none: the run is 1 (G-16)
                passes = 1
            else:
                passes = 0
            yield action
            actor = (actor + 1) % self.seats
            turn += 1

    def _end_planning(self) -> None:
        """R-PLAN-7: every escrow goes to the bank."""
        for s in range(self.seats):
            if self.escrow[s]:
                self.pay(f"escrow:{s}", BANK, self.escrow[s], "buy_paid", "R-PLAN-7", "purchases")

    # -- choosing --------------------------------------------------------------------------------

    def _choose(self, actor: int, turn: int) -> Plan:
        """The actor's action: a weighted choice among the legal ones (see ``bots.Temper``)."""
        t = self.temper
        if actor in self.no_village:
            return ("pass",)
        own = self.princ[actor]
        villages = self.in_hand(actor, "village")
        if not own:
            return self._without_village(actor, villages)
        needy = [s for s in range(self.seats) if not self.princ[s] and s not in self.no_village]
        if needy and villages and turn >= t.patience * self.seats:
            return ("village", bots.pick(self.rng, villages), str(bots.pick(self.rng, needy)))
        if turn >= t.patience * self.seats:
            return ("pass",)
        rounds_of_turns = turn / self.seats
        options: list[tuple[float, Plan]] = [
            (t.pass_ * (0.2 + 0.5 * rounds_of_turns**1.5), ("pass",))
        ]
        for card in villages:
            if len(own) < self.capacity:
                options.append((t.lay_village / len(villages), ("village", card, str(actor))))
            for s in range(self.seats):
                if s != actor and len(self.princ[s]) < self.capacity:
                    weight = 3.0 if not self.princ[s] else t.lay_elsewhere  # one who needs it
                    options.append((weight / len(villages), ("village", card, str(s))))
        if self.can_place(actor):
            options += self._specials(actor)
        price = self.bought[actor] + 1
        if price <= 3 and self.available() and self.purse[actor] >= price:
            rich = self.purse[actor] >= price + 6
            options.append((t.buy * (2.0 if rich else 0.5), ("buy",)))
        if len(self.hands[actor]) + min(3, self.available()) >= 4:
            travel = sum(1 for c in self.hands[actor] if kind_of(c) in _TRAVEL)
            options.append((t.draw3 * (2.0 if travel < 5 else 0.3), ("draw3",)))
        for slot, v in enumerate(own, start=1):
            if self.purse[actor] >= 2 + len(v.specials) and (len(own) > 1 or villages):
                foreign = any(sp.owner != actor for sp in v.specials.values())
                weight = t.remove * (3.0 if foreign or not self._reachable(actor, v.card) else 1)
                options.append((weight / len(own), ("remove", str(slot))))
        return bots.weighted(self.rng, options)

    def _without_village(self, actor: int, villages: list[str]) -> Plan:
        """An empty principality: lay a village, search (R-PLAN-4), or else draw or buy."""
        if villages:
            return ("village", bots.pick(self.rng, villages), str(actor))
        if self._searchable():
            return ("search",)
        if len(self.hands[actor]) + min(3, self.available()) >= 4:
            return ("draw3",)
        price = self.bought[actor] + 1
        if price <= 3 and self.available() and self.purse[actor] >= price:
            return ("buy",)
        specials = self._specials(actor) if self.can_place(actor) else []
        if specials:  # the turn passes: another seat may lay a village here meanwhile
            self.events["stuck_special"] += 1
            return bots.weighted(self.rng, specials)
        raise RuntimeError(f"seat {actor} has no village and no legal planning action")

    def _searchable(self) -> bool:
        """R-PLAN-4 / G-16: a search can find a village (or, with the house rule, ends)."""
        if self.options["search_fallback"]:
            return True
        pile = self.draw_pile or self.discard_pile  # G-14: an empty draw pile is refilled
        return any(kind_of(c) == "village" for c in pile)

    def _specials(self, actor: int) -> list[tuple[float, Plan]]:
        """R-PLAN-8 … 10: gold on one's own villages, thieves and obstacles on the others'."""
        t = self.temper
        out: list[tuple[float, Plan]] = []
        for card in self.hands[actor]:
            kind = kind_of(card)
            if kind not in CATEGORY:
                continue
            for s in range(self.seats):
                mine = s == actor
                if kind == "gold":
                    weight = t.gold if mine else t.gold * 0.05
                elif kind == "thief":
                    weight = t.thief * 0.05 if mine else t.thief
                else:
                    weight = t.obstacle * 0.05 if mine else t.obstacle
                for slot, v in enumerate(self.princ[s], start=1):
                    if CATEGORY[kind] in v.specials:
                        continue
                    if kind in OBSTACLE_TERRAINS and (
                        self.terrain[v.card] not in OBSTACLE_TERRAINS[kind]
                    ):
                        continue
                    out.append((weight / 3, ("special", card, str(s), str(slot))))
        return out

    def _reachable(self, seat: int, village: str) -> bool:
        """Whether ``seat``'s hand holds a travel type that reaches ``village``'s terrain."""
        terrain = self.terrain[village]
        return any((kind_of(c), terrain) in COST for c in self.hands[seat])

    def _worth(self, seat: int, card: str) -> float:
        """How much a bot minds giving ``card`` up (for discards and put-back cards)."""
        kind = kind_of(card)
        if kind == "village":
            return 3.0 if len(self.princ[seat]) < self.capacity else 0.5
        if kind in _TRAVEL:
            return 2.0
        if kind in ("escort", "turnaround"):
            return 1.8
        return 1.0

    # -- performing ------------------------------------------------------------------------------

    def _perform(self, actor: int, plan: Plan) -> Action:
        """Make the chosen action's changes; returns its inputs (one turn's)."""
        kind = plan[0]
        if kind == "pass":
            self.events["pass"] += 1
            return [self.ask(actor, "plan", "pass")]
        if kind == "village":
            card, seat = plan[1], int(plan[2])
            self.hands[actor].remove(card)
            self.princ[seat].append(Village(card))
            self.events["village" if seat == actor else "village_elsewhere"] += 1
            return self.arrive(card, village_zone(seat, len(self.princ[seat])))
        if kind == "special":
            return self._place(actor, plan[1], int(plan[2]), int(plan[3]))
        if kind == "remove":
            return self._remove(actor, int(plan[1]))
        if kind == "buy":
            price = self.bought[actor] + 1
            self.bought[actor] += 1
            self.pay(actor, f"escrow:{actor}", price, "buy", "R-PLAN-6", "a purchase")
            self.draw(actor, 1)
            self.events["buy"] += 1
            return [self.ask(actor, "plan", "buy")]
        if kind == "draw3":
            return self._draw3(actor)
        return self._search(actor)

    def _place(self, actor: int, card: str, seat: int, slot: int) -> Action:
        """R-PLAN-8: the card on its pad, then the actor's token on it."""
        kind = kind_of(card)
        category = CATEGORY[kind]
        zone = (village_zone if category == "obstacle" else attach_zone)(seat, slot)
        token = self.supply[actor].pop(0)
        self.hands[actor].remove(card)
        self.princ[seat][slot - 1].specials[category] = Special(card, actor, token)
        self.placed[actor] += 1
        self.events[f"placed_{kind}"] += 1
        return [*self.arrive(card, zone), *self.arrive(token, zone)]

    def _remove(self, actor: int, slot: int) -> Action:
        """R-PLAN-13, G-10, G-11: the village and its cards to the discard pile, tokens back,
        the cost to the bank (``pay`` with phones), the villages to its left slid right."""
        village = self.princ[actor].pop(slot - 1)
        cost = 2 + len(village.specials)
        self.pay(actor, BANK, cost, "remove", "R-PLAN-13", self.name(village.card))
        out = self.tap(village.card, "discard")
        self.discard_pile.append(village.card)
        for sp in village.specials.values():
            out += self.lift(sp.token)
            self.supply[sp.owner].append(sp.token)
            out += self.tap(sp.card, "discard")
            self.discard_pile.append(sp.card)
        if self.phones:
            out.append(self.ask(actor, "pay", "pay"))
        for k in range(slot, len(self.princ[actor]) + 1):  # G-10: each one pad to the right
            slid = self.princ[actor][k - 1]
            out += self.arrive(slid.card, village_zone(actor, k))
            for category, sp in slid.specials.items():
                pad = (village_zone if category == "obstacle" else attach_zone)(actor, k)
                out += [*self.arrive(sp.card, pad), *self.arrive(sp.token, pad)]
            self.events["slide"] += 1
        self.events["remove"] += 1
        return out

    def _draw3(self, actor: int) -> Action:
        """R-PLAN-5: draw 3 (what there is, G-14), then 4 cards tapped on the discard pad."""
        self.draw(actor, 3)
        hand = self.hands[actor]
        gone = bots.least_useful(self.rng, hand, 4, lambda c: self._worth(actor, c))
        for card in gone:
            hand.remove(card)
            self.discard_pile.append(card)
        self.events["draw3"] += 1
        return [self.ask(actor, "plan", "draw3"), *self.tap_all(gone, "discard")]

    def _search(self, actor: int) -> Action:
        """R-PLAN-4, G-16: take a village from the draw pile (the house rule: else from the
        discard pile, else none), shuffle the pile, put one other card back."""
        out: Action = [self.ask(actor, "plan", "search")]
        if not self.draw_pile and self.discard_pile:  # G-14: refilled before the search
            self.draw_pile, self.discard_pile = self.discard_pile, []
        found = None
        for pile in (self.draw_pile, self.discard_pile):
            villages = [c for c in pile if kind_of(c) == "village"]
            if villages:
                found = max(villages, key=lambda c: (self.value[c], self.rng.random()))
                pile.remove(found)
                self.events["search" if pile is self.draw_pile else "search_discard"] += 1
                break
            if not self.options["search_fallback"]:
                break
        self.rng.shuffle(self.draw_pile)
        if self.options["search_fallback"]:
            out.append(self.ask(actor, "searched", "found" if found else "none"))
        if found is None:
            self.no_village.add(actor)
            self.events["search_none"] += 1
            return out
        hand = list(self.hands[actor])
        self.hands[actor].append(found)
        if hand:
            back = bots.least_useful(self.rng, hand, 1, lambda c: self._worth(actor, c))[0]
            self.hands[actor].remove(back)
            self.discard_pile.append(back)
            out += self.tap(back, "discard")
        return out


_TRAVEL = frozenset(k for k, _ in COST)
