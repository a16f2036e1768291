"""The world's own arithmetic of Arcana: sums, bribes, tie-breakers, who wins a district, and
the points (docs/rules/arcana.md R-RES, R-TIE, R-MULTI, R-BRIBE, R-END, G-10 … G-17, G-23,
G-27, G-36).

Written from the rules reference and the contract, independently of the referee's sums.py,
ties.py and scoring.py: the cross-check only means something if the two are not one code.

Which abilities count (the contract's vocabulary, as the table's referee reads it): an
agent's ``add`` (``when: agent`` or ``results``) counts at its own district for its owner
when its ``where`` fits the district; the event in effect's ``add`` counts for every seat with
agents at a district its ``where`` fits; ``tie_win`` comes from a seat's badge and its agents
at the district; ``bribe_bonus`` from the briber's badge and its agents there; a location's or
a master's ``add`` changes no sum.
"""

from __future__ import annotations

from collections import Counter

from scorekeeper.games.arcana.cards import (
    ALL_DOMAINS,
    CITIZEN,
    GUILD_CARD_TYPES,
    Ability,
    Effect,
)
from scorekeeper.sim.arcana.table import Agent, Table


class Reckoning(Table):
    """Sums, results and points over the table (a mixin of the world)."""

    # -- abilities ---------------------------------------------------------------------------

    def _applies(self, ability: Ability, did: str, arcanum: str) -> bool:
        """Whether an ability's conditions (``if_stake``, ``if_major``) hold at ``did`` for
        the arcanum under evaluation."""
        stake = self.places[did].stake
        for name, value in ability.conditions:
            if name == "if_stake" and (stake is None or self.kind(stake) != value):
                return False
            if name == "if_major" and arcanum != value:
                return False
        return True

    def _fits(self, where: str, seat: int, did: str, *, here: bool) -> bool:
        """Whether an ``add``'s ``where`` covers district ``did`` for ``seat`` (``here``:
        the card lies at ``did``)."""
        if where in ("any", ""):
            return True
        if where == "here":
            return here
        return self.relation(seat, did) == where

    def _effects(self, piece: str, whens: tuple[str, ...], kind: str) -> list[Effect]:
        ability = self.card(piece).ability
        if ability is None or ability.when not in whens:
            return []
        return [e for e in ability.effects if e.kind == kind]

    def adds(self, seat: int, did: str, arcanum: str) -> int:
        """What ``add`` effects give ``seat`` at ``did`` in ``arcanum``."""
        total = 0
        for a in self.places[did].agents:
            if a.owner != seat:
                continue
            ability = self.card(a.card).ability
            for e in self._effects(a.card, ("agent", "results"), "add"):
                if ability is not None and not self._applies(ability, did, arcanum):
                    continue
                if e.get("arcanum") == arcanum and self._fits(
                    e.get("where", "here"), seat, did, here=True
                ):
                    total += int(e.get("n", 0))
        if self.event_now:
            ability = self.card(self.event_now).ability
            for e in self._effects(self.event_now, ("round",), "add"):
                if ability is not None and not self._applies(ability, did, arcanum):
                    continue
                if e.get("arcanum") == arcanum and self._fits(
                    e.get("where", "any"), seat, did, here=True
                ):
                    total += int(e.get("n", 0))
        return total

    def is_harlequin(self, piece: str) -> bool:
        return bool(self._effects(piece, ("results", "agent"), "copy_agent"))

    # -- sums --------------------------------------------------------------------------------

    def seat_sum(self, seat: int, did: str, arcanum: str, copies: dict[str, str]) -> int:
        """``seat``'s sum at ``did`` in ``arcanum`` (R-RES-2): its agents' values, watch cards
        included, a Harlequin counting the agent it copies (G-17), relics nothing (G-16), and
        the ``add`` effects; "none" sums 0 (G-11)."""
        if arcanum == "none":
            return 0
        total = 0
        for a in self.places[did].agents:
            if a.owner != seat:
                continue
            if self.is_harlequin(a.card):
                copied = copies.get(a.card, "")
                total += self.card(copied).value(arcanum) if copied else 0
            else:
                total += self.card(a.card).value(arcanum)
        return total + self.adds(seat, did, arcanum)

    def bribe_sum(self, seat: int, did: str, arcanum: str) -> int:
        """R-BRIBE-3, G-13: the ducats of ``seat``'s relics at ``did`` plus its agents' values
        in ``arcanum`` (a Harlequin counts 0, or with ``harlequin_in_bribes`` the best other
        agent there), plus its ``bribe_bonus`` effects."""
        here = self.places[did].agents
        total = 0
        for a in here:
            if a.owner != seat:
                continue
            total += sum(self.card(r).ducat or 0 for r in a.relics)
            if self.is_harlequin(a.card):
                if self.options["harlequin_in_bribes"]:
                    others = [self.card(o.card).value(arcanum) for o in here if o is not a]
                    total += max(others, default=0)
            else:
                total += self.card(a.card).value(arcanum)
            for e in self._effects(a.card, ("agent", "results"), "bribe_bonus"):
                total += int(e.get("n", 0))
        for e in self._effects(f"badge_{self.players[seat].guild}", ("always",), "bribe_bonus"):
            total += int(e.get("n", 0))
        return total

    def bribable(self, did: str) -> bool:
        """R-BRIBE-1: the stake is a citizen with a ducat value."""
        stake = self.places[did].stake
        return (
            stake is not None
            and self.places[did].open()
            and (self.kind(stake) == CITIZEN and self.card(stake).ducat is not None)
        )

    # -- ties and the winner -----------------------------------------------------------------

    def _tie_win(self, piece: str, did: str, arcanum: str, whens: tuple[str, ...]) -> bool:
        ability = self.card(piece).ability
        if ability is None or not self._applies(ability, did, arcanum):
            return False
        stake = self.places[did].stake or ""
        for e in self._effects(piece, whens, "tie_win"):
            if arcanum in (e.get("arcanum") or ()) or self.kind(stake) in (
                e.get("stake_type") or ()
            ):
                return True
        return False

    def tie_seats(self, did: str, arcana: dict[int, str]) -> set[int]:
        """The seats whose tie-breaker applies at ``did``, each in the arcanum it counts: its
        badge's, or an agent's of its there (R-TIE-1)."""
        out: set[int] = set()
        for seat, arcanum in arcana.items():
            badge = f"badge_{self.players[seat].guild}"
            mine = [a.card for a in self.places[did].agents if a.owner == seat]
            if self._tie_win(badge, did, arcanum, ("always",)) or any(
                self._tie_win(c, did, arcanum, ("agent", "results")) for c in mine
            ):
                out.add(seat)
        return out

    def decide(
        self, sums: dict[int, int], thresholds: dict[int, int | None], breakers: set[int]
    ) -> tuple[int | None, str]:
        """R-RES-3, R-TIE, G-10, G-11: the winner (or None) and why, in the world's words."""
        qualified = {
            s: v for s, v in sums.items() if thresholds[s] is not None and v >= (thresholds[s] or 0)
        }
        if not qualified:
            return None, "below"
        top = max(qualified.values())
        tied = sorted(s for s, v in qualified.items() if v == top)
        if len(tied) == 1:
            return tied[0], "highest"
        if self.options["tie_breakers"] == "any_at_district":
            applying = breakers & set(sums)
            if len(applying) == 1 and applying <= set(tied):
                return next(iter(applying)), "tie_won"
            return None, "tie_cancel" if len(applying) > 1 else "tie"
        applying = breakers & set(tied)
        if len(applying) == 1:
            return next(iter(applying)), "tie_won"
        return None, "tie_cancel" if applying else "tie"

    # -- points ------------------------------------------------------------------------------

    def _scored(self, seat: int) -> tuple[list[str], list[str], list[str]]:
        """The cards that score for ``seat`` at the end: deck, hand and discard pile; under its
        badge; and (``leftovers: returned``) its cards left at the districts (R-END-2, G-8)."""
        p = self.players[seat]
        pile = [*p.deck, *p.hand, *p.discard]
        left: list[str] = []
        if self.options["leftovers"] == "returned":
            for place in self.places.values():
                for a in place.agents:
                    if a.owner == seat and not a.watch:
                        left.append(a.card)
                    left += [r for r in a.relics if r in p.owned]
        return pile, list(p.set_aside), left

    def objectives_done(self, seat: int, stakes: list[str]) -> list[str]:
        """G-23: the kept objectives the stakes complete, shared out to complete the most VP
        (each stake towards one objective; an all-domain stake towards any)."""
        have = Counter(self.card(s).domain for s in stakes)
        wild = have.pop(ALL_DOMAINS, 0)
        kept = self.players[seat].objectives

        def need(objs: list[str]) -> bool:
            want: Counter[str] = Counter()
            for o in objs:
                domain, count = self.card(o).objective or ("", 0)
                want[domain] += count
            short = sum(max(0, n - have[d]) for d, n in want.items())
            return short <= wild

        best: list[str] = []
        best_vp = -1
        for objs in ([*kept], *([o] for o in kept), []):
            vp = sum(self.card(o).vp for o in objs)
            if need(list(objs)) and vp > best_vp:
                best, best_vp = list(objs), vp
        return best

    def final(self, seat: int) -> dict[str, int]:
        """A seat's final points by source (the contract's ``vp_sources``), its ``vp`` and its
        ``stakes`` (counted where the points are, G-27)."""
        pile, aside, left = self._scored(seat)
        guild = sum(
            self.card(c).vp
            for c in pile
            if self.kind(c) in GUILD_CARD_TYPES and not self.is_stake(c)
        )
        stakes = sum(self.card(c).vp for c in pile if self.is_stake(c))
        counted = [c for c in pile + aside + left if self.is_stake(c)]
        objectives = (
            sum(self.card(o).vp for o in self.objectives_done(seat, counted))
            if self.options["objectives"]
            else 0
        )
        out = {
            "guild_cards": guild,
            "stakes": stakes,
            "set_aside": sum(self.card(c).vp for c in aside),
            "objectives": objectives,
            "leftovers": sum(self.card(c).vp for c in left),
        }
        out["vp"] = sum(out.values())
        out["stake_count"] = len(counted)
        return out

    def public_vp(self, seat: int) -> int:
        """G-36: what everyone has seen ``seat`` own: its won stakes and, without the custom
        guild, its 11 starting cards; with it, its guild cards seen in play."""
        p = self.players[seat]
        stakes = sum(self.card(c).vp for c in p.owned if self.is_stake(c))
        if self.options["custom_guild"]:
            guild = sum(self.card(c).vp for c in p.seen if c in p.owned and not self.is_stake(c))
        else:
            guild = sum(self.card(c).vp for c in p.owned if not self.is_stake(c))
        return stakes + guild

    def agents_of(self, seat: int, did: str) -> list[Agent]:
        return [a for a in self.places[did].agents if a.owner == seat]
