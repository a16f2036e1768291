"""Stakes won at once on the simulated table (R-INT-5, R-RES-4, G-5, G-7, G-30, G-35): every
card at the district goes home, the stake to its winner (or under its badge, R-OPT-T), and the
district's next stake is turned up on its pad as the next action, the Prince's Games card
bringing the end (R-END-1, G-7). ``award`` also serves the results phase.

Hazard: the changes are made before the action that performs them is yielded.
"""

from __future__ import annotations

from collections.abc import Iterator

from scorekeeper.games.arcana.cards import PRINCES_GAMES_CARD
from scorekeeper.sim.arcana.rules import Reckoning
from scorekeeper.sim.arcana.table import Action


class Stakes(Reckoning):
    """Stakes won and turned up (a mixin of the world)."""

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
        # Once every hand is empty the results phase has begun: a card turned up now is not
        # turned up "during the intrigue phase" (G-7), and the Prince's Games card then counts
        # as at the end of the round (R-END-1: the next round is the last), as the referee reads.
        during = any(p.hand for p in self.players)
        yield action
        yield from self.turn_up(did, mid_round=during)

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
