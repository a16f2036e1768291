"""The world's own arithmetic of Arcana: sums, bribes, tie-breakers, who wins a district, and
the points (docs/rules/arcana.md R-RES, R-TIE, R-MULTI, R-BRIBE, R-END, G-10 … G-17, G-23,
G-27, G-36).

Written from the rules reference and the contract, independently of the referee's sums.py,
ties.py and scoring.py: the cross-check only means something if the two are not one code.

Which abilities count (the contract's vocabulary, "Abilities"): for a seat at a district, the
abilities of its agents there (``when`` agent, results or always), of its badge and master
(``always``) and of the event in effect (``round``); an ``add`` counts where its ``where``
names ``here``, ``any`` or what the district is to the seat; ``tie_win`` from all but the
event; ``bribe_bonus`` from all of them and from the relics laid there. A played location's or
a used master's ``use`` ability changes no sum.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from scorekeeper.games.arcana.cards import (
    ALL_DOMAINS,
    CITIZEN,
    GUILD_CARD_TYPES,
    LOCATION,
    PRINCES_GAMES_CARD,
    RELIC,
    Effect,
)
from scorekeeper.sim.arcana.table import Agent, Table

AT_DISTRICT = ("agent", "results", "always")
"""When a card lying at a district as an agent acts there."""
ON_AGENT = ("agent", "play", "always")
"""When a relic laid on an agent acts in its briber's sum."""


def _among(value: Any, word: str) -> bool:
    """Whether ``word`` is ``value`` (a word) or one of it (a list of words)."""
    if isinstance(value, str):
        return value == word
    return isinstance(value, tuple | list) and word in value


class Reckoning(Table):
    """Sums, results and points over the table (a mixin of the world)."""

    # -- abilities ---------------------------------------------------------------------------

    def _acting(
        self, piece: str, kind: str, whens: tuple[str, ...], did: str, arcanum: str
    ) -> list[Effect]:
        """The effects of ``kind`` on ``piece``'s card that act now: its ``when`` among
        ``whens`` and its conditions met (``if_stake`` the stake's type at ``did``,
        ``if_major`` the arcanum being counted)."""
        ability = self.card(piece).ability
        if ability is None or ability.when not in whens:
            return []
        stake = self.places[did].stake
        kind_here = self.kind(stake) if stake and stake != PRINCES_GAMES_CARD else ""
        for name, value in ability.conditions:
            if not _among(value, kind_here if name == "if_stake" else arcanum):
                return []
        return [e for e in ability.effects if e.kind == kind]

    def _beside(self, seat: int) -> list[str]:
        """The cards acting for ``seat`` from beside it: its badge and its master."""
        p = self.players[seat]
        return [f"badge_{p.guild}", *([p.master] if p.master else [])]

    def _sources(self, seat: int, did: str) -> list[tuple[str, tuple[str, ...]]]:
        """Every card whose ability may act for ``seat`` at ``did``, with its whens: its
        agents there, its badge and master, the event in effect."""
        out: list[tuple[str, tuple[str, ...]]] = [
            (a.card, AT_DISTRICT) for a in self.agents_of(seat, did) if self._agentish(a.card)
        ]
        out += [(c, ("always",)) for c in self._beside(seat)]
        if self.event_now:
            out.append((self.event_now, ("round",)))
        return out

    def _agentish(self, piece: str) -> bool:
        return self.kind(piece) not in (RELIC, LOCATION)

    def adds(self, seat: int, did: str, arcanum: str) -> int:
        """What ``add`` effects give ``seat`` at ``did`` in ``arcanum``: an ``add`` without an
        arcanum adds in any; its ``where`` (default ``here``) fits when it names ``here``,
        ``any`` or what the district is to the seat."""
        rel = self.relation(seat, did)
        total = 0
        for piece, whens in self._sources(seat, did):
            for e in self._acting(piece, "add", whens, did, arcanum):
                wanted = e.get("arcanum")
                if wanted is not None and not _among(wanted, arcanum):
                    continue
                where = e.get("where", "here")
                if any(_among(where, w) for w in ("here", "any", rel)):
                    total += int(e.get("n", 0))
        return total

    def is_harlequin(self, piece: str) -> bool:
        ability = self.card(piece).ability
        return ability is not None and any(e.kind == "copy_agent" for e in ability.effects)

    # -- sums --------------------------------------------------------------------------------

    def _copied(self, did: str, piece: str, copies: dict[str, str], arcanum: str) -> int:
        """A Harlequin's value: the agent it copies (following a copied Harlequin's own copy;
        a loop or nothing counts 0)."""
        here = {a.card for a in self.places[did].agents}
        seen = {piece}
        target = copies.get(piece, "")
        while target and target in here and target not in seen:
            if not self.is_harlequin(target):
                return self.card(target).value(arcanum) if self._agentish(target) else 0
            seen.add(target)
            target = copies.get(target, "")
        return 0

    def seat_sum(self, seat: int, did: str, arcanum: str, copies: dict[str, str]) -> int:
        """``seat``'s sum at ``did`` in ``arcanum`` (R-RES-2): its agents' values, watch cards
        included, a Harlequin counting the agent it copies (G-17), relics nothing (G-16), and
        the ``add`` effects; "none" sums 0 (G-11)."""
        if arcanum == "none":
            return 0
        total = 0
        for a in self.agents_of(seat, did):
            if not self._agentish(a.card):
                continue
            if self.is_harlequin(a.card):
                total += self._copied(did, a.card, copies, arcanum)
            else:
                total += self.card(a.card).value(arcanum)
        return total + self.adds(seat, did, arcanum)

    def bribe_sum(self, seat: int, did: str, arcanum: str) -> int:
        """R-BRIBE-3, G-13: the ducats of ``seat``'s relics at ``did`` plus its agents' values
        in ``arcanum`` (a Harlequin 0, or with ``harlequin_in_bribes`` the best other agent's
        value there), plus every ``bribe_bonus`` acting: its agents' and relics' there, its
        badge's and master's, the event's."""
        here = self.places[did].agents
        total = 0
        for a in self.agents_of(seat, did):
            for r in a.relics:
                total += (self.card(r).ducat or 0) + self._bonus(r, ON_AGENT, did, arcanum)
            if not self._agentish(a.card):
                continue
            if self.is_harlequin(a.card):
                if self.options["harlequin_in_bribes"]:
                    total += max(
                        (
                            self.card(o.card).value(arcanum)
                            for o in here
                            if o is not a
                            and not self.is_harlequin(o.card)
                            and self._agentish(o.card)
                        ),
                        default=0,
                    )
            else:
                total += self.card(a.card).value(arcanum)
            total += self._bonus(a.card, AT_DISTRICT, did, arcanum)
        for piece in self._beside(seat):
            total += self._bonus(piece, ("always",), did, arcanum)
        if self.event_now:
            total += self._bonus(self.event_now, ("round",), did, arcanum)
        return total

    def _bonus(self, piece: str, whens: tuple[str, ...], did: str, arcanum: str) -> int:
        return sum(
            int(e.get("n", 0)) for e in self._acting(piece, "bribe_bonus", whens, did, arcanum)
        )

    def bribable(self, did: str) -> bool:
        """R-BRIBE-1: the stake is a citizen with a ducat value."""
        stake = self.places[did].stake
        return (
            stake is not None
            and self.places[did].open()
            and (self.kind(stake) == CITIZEN and self.card(stake).ducat is not None)
        )

    # -- ties and the winner -----------------------------------------------------------------

    def tie_seats(self, did: str, arcana: dict[int, str]) -> set[int]:
        """The seats with agents at ``did`` whose tie-breaker applies, each in the arcanum it
        counts (a seat counting none matched on the stake's type only): its badge's or
        master's (``always``) or an agent's of its there (R-TIE-1). An event's applies to
        nobody."""
        stake = self.places[did].stake or ""
        out: set[int] = set()
        for seat, arcanum in arcana.items():
            sources: list[tuple[str, tuple[str, ...]]] = [
                (c, ("always",)) for c in self._beside(seat)
            ]
            sources += [
                (a.card, AT_DISTRICT) for a in self.agents_of(seat, did) if self._agentish(a.card)
            ]
            for piece, whens in sources:
                for e in self._acting(piece, "tie_win", whens, did, arcanum):
                    kinds, words = e.get("arcanum") or (), e.get("stake_type") or ()
                    if (
                        (not kinds and not words)
                        or (arcanum != "none" and _among(kinds, arcanum))
                        or _among(words, self.kind(stake))
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
            looked = breakers & set(sums)
        else:
            looked = breakers & set(tied)
        if len(looked) >= 2:
            return None, "tie_cancel"
        if len(looked) == 1 and looked <= set(tied):
            return next(iter(looked)), "tie_won"
        return None, "tie"

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
            guild = sum(self.card(c).vp for c in self.in_sight(seat))
        else:
            guild = sum(self.card(c).vp for c in p.owned if not self.is_stake(c))
        return stakes + guild

    def in_sight(self, seat: int) -> set[str]:
        """``seat``'s guild cards in everyone's sight now: on its discard pile (each reached
        it by a pad), face up at a district, or laid there as a relic. A card shuffled back
        into the deck is out of sight again (the referee's reading of G-36)."""
        p = self.players[seat]
        sight = set(p.discard)
        for place in self.places.values():
            for a in place.agents:
                if a.owner == seat:
                    sight.update(a.relics)
                    if a.face_up:
                        sight.add(a.card)
        return {c for c in sight if c in p.owned and not self.is_stake(c)}

    def agents_of(self, seat: int, did: str) -> list[Agent]:
        return [a for a in self.places[did].agents if a.owner == seat]
