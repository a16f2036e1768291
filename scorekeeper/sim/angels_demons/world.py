"""The Angels & Demons world: a full-information table played by bots, performed physically.

The world shuffles the real 100-card deck from its seed, deals real hands, and plays rounds by the
rules (docs/rules/angels-and-demons.md) with the bots of ``bots.py``. Every move is *performed*
as the sightings and decisions of docs/games/angels-and-demons.md (the contract), in the order a
real table produces them; with ``jitter`` a card's departure is sometimes reported after its
arrival, as readers can. The world keeps its own scores, computed from what it knows, so that a
referee fed only these inputs can be checked against them.

Hazard: the flow is a generator, and the world's state (hands, scores, ``is_over``) is updated
*before* the action that causes a change is returned, so it always describes the table once the
inputs returned so far have been performed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator, Mapping
from typing import Any, ClassVar

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.sim.angels_demons.bots import (
    Temper,
    choose_discard,
    choose_draw_count,
    choose_lay,
    choose_mine,
    choose_take,
)
from scorekeeper.sim.angels_demons.cards import (
    ALL_CARDS,
    flips_to_make,
    identity,
    is_complete,
    is_conditional_item,
    item_groups,
    round_gain,
    waits,
)
from scorekeeper.sim.world import PlayedWorld, WorldInput

Action = list[WorldInput]
Flow = Generator[Action, None, bool]
"""A piece of the game's flow: yields actions, returns True when the round has ended."""

WORLD_OPTIONS = ("jitter",)
"""Options the world understands that are not table settings of the game."""


def resolve_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The game's table settings, resolved by the game itself (one source of defaults).

    World-only options (``jitter``) are left out. Raises ConfigError on a bad option.
    """
    from scorekeeper.games.angels_demons import AngelsAndDemons

    given = {k: v for k, v in options.items() if k not in WORLD_OPTIONS}
    return AngelsAndDemons().resolve_options(given, seats)


def is_advanced(options: Mapping[str, Any]) -> bool:
    """True when the resolved options select the advanced game (§7)."""
    return options.get("mode") == "advanced" or options.get("advanced") is True


class AngelsDemonsWorld(PlayedWorld):
    """One simulated game of Angels & Demons for 2-4 bots; see the module docstring."""

    game_id: ClassVar[str] = "angels-and-demons"

    def __init__(
        self,
        seats: int,
        options: Mapping[str, Any],
        seed: int,
        jitter: bool | None = None,
        temper: Temper | None = None,
    ) -> None:
        self.seats = seats
        self.options = resolve_options(options, seats)
        self.advanced = is_advanced(self.options)
        self.jitter = bool(options.get("jitter", False)) if jitter is None else jitter
        self.temper = temper or Temper()
        self.rng = random.Random(seed)
        self.first_seat = int(self.options.get("start_seat", 0) or 0)
        n = seats
        self.box: list[str] = list(ALL_CARDS)
        self.deck: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.talon: list[str] = []
        self.melds: list[list[list[str]]] = [[] for _ in range(n)]
        self.discards: list[list[str]] = [[] for _ in range(n)]
        self.out: list[str] = []
        self.flipped: list[str] = []
        self.waiting = [False] * n
        self.tokens = [False] * n
        self._scores = [0] * n
        self._over = False
        self.round_live = False
        self.rounds_played = 0
        self.winner: int | None = None
        self.results: list[str] = []
        self._start()

    # -- the World interface ------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """Every seat's score as the world computed it."""
        return tuple(self._scores)

    def is_over(self) -> bool:
        """True once the game has ended (target, round limit or item win)."""
        return self._over

    def locations(self) -> dict[str, list[str]]:
        """Where every card is now: deck, each hand and zone, and ``box`` (cleared, out of play)."""
        where: dict[str, list[str]] = {
            "box": list(self.box),
            "deck": list(self.deck),
            "talon": list(self.talon),
            "out": list(self.out),
            "flip": list(self.flipped),
        }
        for s in range(self.seats):
            where[f"hand:{s}"] = list(self.hands[s])
            where[f"meld:{s}"] = [c for m in self.melds[s] for c in m]
            where[f"discard:{s}"] = list(self.discards[s])
        return where

    # -- the flow of a game -------------------------------------------------------------------

    def _play(self) -> Iterator[Action]:
        rnd = 0
        while True:
            yield from self._round(rnd)
            if self._over:
                return
            yield self._clear()
            rnd += 1

    def _round(self, rnd: int) -> Iterator[Action]:
        """R-SETUP: shuffle all 100 cards, deal 7 each unseen, turn N+1 onto the talon, play."""
        n = self.seats
        self.box = []
        self.deck = list(ALL_CARDS)
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(7)] for _ in range(n)]
        self.talon = [self.deck.pop() for _ in range(n + 1)]
        self.melds = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.waiting = [False] * n
        self.round_live = True
        yield [Seen("talon", c, True) for c in self.talon]
        active = (self.first_seat + rnd) % n
        while not (yield from self._turn(active)):
            active = (active + 1) % n

    def _turn(self, a: int) -> Flow:
        """R-TURN: (refill,) take, then go out, lay a set or discard."""
        if not self.talon:  # the previous action made sure the deck holds enough (R-EXH)
            self.talon = [self.deck.pop() for _ in range(self.seats + 1)]
            yield [Seen("talon", c, True) for c in self.talon]
        hand = self.hands[a]
        card, going_out = choose_take(
            self.rng, hand, self.talon, self.waiting[a], self._item_love()
        )
        self.talon.remove(card)
        hand.append(card)
        take = Seen("talon", card, False)
        if going_out:
            return (yield from self._self_draw(a, take))
        if not self.waiting[a]:
            trio = choose_lay(self.rng, hand, self.temper, self.advanced)
            if trio is not None:
                return (yield from self._lay(a, take, trio))
        return (yield from self._discard(a, take))

    def _self_draw(self, a: int, take: Seen) -> Flow:
        """R-TURN-2: the 8 hand cards go to ``out``, the card just taken among them."""
        hand = self.hands[a]
        self.rng.shuffle(hand)
        self.out = list(hand)
        self.hands[a] = []
        action = self._jittered([take, *(Seen("out", c, True) for c in self.out)])
        return (yield from self._go_out(a, [action], None, "self-draw"))

    def _go_out(self, a: int, actions: list[Action], discarder: int | None, how: str) -> Flow:
        """R-OUT-3 and R-SCORE: item win check, flips, the gain, the penalty, the end check."""
        hand8 = list(self.out)
        laid = [c for m in self.melds[a] for c in m]
        if (
            self.advanced
            and item_groups(self.melds[a]) >= 3
            and any(is_conditional_item(c) for c in [*laid, *hand8])
        ):
            return (yield from self._finish(actions, lambda: self._item_win(a)))
        flips = flips_to_make([*laid, *hand8], self.deck)
        self.flipped = flips

        def score() -> None:
            gain = round_gain(hand8, self.melds[a], flips, self.options, self.advanced)
            self._scores[a] += gain
            if discarder is not None and self.advanced:
                self._scores[discarder] = max(0, self._scores[discarder] - gain)
            self._end_round(how)

        flip_actions: list[Action] = [[Seen("flip", f, True)] for f in flips]
        return (yield from self._finish([*actions, *flip_actions], score))

    def _lay(self, a: int, take: Seen, trio: tuple[str, str, str]) -> Flow:
        """R-TURN-3 option a: lay a set from hand on one's own turn, then draw (no discard)."""
        hand = self.hands[a]
        for c in trio:
            hand.remove(c)
        self.melds[a].append(list(trio))
        order = list(trio)
        self.rng.shuffle(order)
        seq = self._jittered([take, *(Seen(f"meld:{a}", c, True) for c in order)])
        return (yield from self._after_lay(a, seq, own_turn=True))

    def _after_lay(self, s: int, seq: Action, own_turn: bool) -> Flow:
        """After a set is laid: item win (R-ADV-6), the draw (A-5 / R-CLAIM-3), exhaustion."""
        if self._item_win_on_lay(s):
            laid = [c for m in self.melds[s] for c in m]
            if not any(is_conditional_item(c) for c in laid):
                shown = next(c for c in self.hands[s] if is_conditional_item(c))
                self.hands[s].remove(shown)
                self.out.append(shown)
                seq = [*seq, Seen("out", shown, True)]
            return (yield from self._finish([seq], lambda: self._item_win(s)))
        actions = [seq]
        count = 2
        if own_turn and self.options.get("post_set_draw") != "always2":
            count = choose_draw_count(self.rng, self.temper)
            actions.append([Decision(s, "draw_count", str(count))])
        elif self._may_show_item(s) and len(self.deck) < count:
            # The referee cannot see this hand: before a draw that ends the round it asks whether
            # a conditional item will be shown (R-ADV-6 comes first); this seat has none.
            actions.append([Decision(s, "show_item", "none")])
        if len(self.deck) < count:
            return (yield from self._finish(actions, lambda: self._end_round("exhausted")))
        self.hands[s] += [self.deck.pop() for _ in range(count)]
        if self._next_turn_exhausted():
            return (yield from self._finish(actions, lambda: self._end_round("exhausted")))
        yield from actions
        yield from self._maybe_declare(s)
        return False

    def _discard(self, a: int, take: Seen) -> Flow:
        """R-TURN-3 option b: discard (a waiting seat the card it took), then the claim window."""
        hand = self.hands[a]
        card = take.piece if self.waiting[a] else choose_discard(self.rng, hand, self._item_love())
        hand.remove(card)
        self.discards[a].append(card)
        yield self._jittered([take, Seen(f"discard:{a}", card, True)], keep_last=False)
        yield from self._maybe_declare(a)
        return (yield from self._claims(a, card))

    def _claims(self, a: int, card: str) -> Flow:
        """R-CLAIM: go out on the discard first (priority from a's left), else "mine!"."""
        n = self.seats
        order = [(a + i) % n for i in range(1, n)]
        ident = identity(card)

        def blocked(s: int) -> bool:  # R-ADV-4, visible to the referee
            return self.advanced and any(identity(c) == ident for c in self.discards[s])

        eligible = [s for s in order if self.waiting[s] and not blocked(s)]
        winners = [s for s in eligible if is_complete([*self.hands[s], card])]
        if winners:
            s = winners[0]
            self.discards[a].remove(card)
            hand = self.hands[s]
            self.rng.shuffle(hand)
            self.out = [card, *hand]
            self.hands[s] = []
            move: Action = [Seen(f"discard:{a}", card, False), Seen("out", card, True)]
            rest: Action = [Seen("out", c, True) for c in hand]
            actions: list[Action]
            if len(eligible) >= 2:
                actions = [self._jittered(move), [Decision(None, "claimant", str(s))], rest]
            else:
                actions = [self._jittered([*move, *rest])]
            return (yield from self._go_out(s, actions, a, "claim"))
        for s in order:
            if self.waiting[s]:
                continue
            pair = choose_mine(self.rng, card, self.hands[s], self.temper, self.advanced)
            if pair is None:
                continue
            self.discards[a].remove(card)
            for c in pair:
                self.hands[s].remove(c)
            self.melds[s].append([card, *pair])
            seq = self._jittered(
                [
                    Seen(f"discard:{a}", card, False),
                    Seen(f"meld:{s}", card, True),
                    *(Seen(f"meld:{s}", c, True) for c in pair),
                ]
            )
            self.results.append("mine")
            return (yield from self._after_lay(s, seq, own_turn=False))
        if self._next_turn_exhausted():
            return (yield from self._finish([[self._pass()]], lambda: self._end_round("exhausted")))
        if self.rng.random() < self.temper.idle_pass:
            yield [self._pass()]
        return False

    # -- helpers ------------------------------------------------------------------------------

    def _finish(self, actions: list[Action], finalize: Callable[[], None]) -> Flow:
        """Yield ``actions``, running ``finalize`` just before the last one; the round is over."""
        yield from actions[:-1]
        finalize()
        yield actions[-1]
        return True

    def _item_love(self) -> int:
        return self.temper.item_love if self.advanced else 0

    def _next_turn_exhausted(self) -> bool:
        """R-EXH-2 at the next turn: the talon is empty and the deck cannot refill it."""
        return not self.talon and len(self.deck) < self.seats + 1

    def _may_show_item(self, s: int) -> bool:
        """Three laid item groups under ``on_lay``: a conditional item in hand would win now."""
        return (
            self.advanced
            and self.options.get("item_win_timing", "on_lay") == "on_lay"
            and item_groups(self.melds[s]) >= 3
        )

    def _item_win_on_lay(self, s: int) -> bool:
        """R-ADV-6 with ``on_lay``: three laid item groups and a conditional item anywhere."""
        if not self.advanced or self.options.get("item_win_timing", "on_lay") != "on_lay":
            return False
        laid = [c for m in self.melds[s] for c in m]
        return item_groups(self.melds[s]) >= 3 and any(
            is_conditional_item(c) for c in [*laid, *self.hands[s]]
        )

    def _item_win(self, s: int) -> None:
        self.winner = s
        self.round_live = False
        self._over = True
        self.results.append("item-win")

    def _end_round(self, how: str) -> None:
        """A round is over (scored or exhausted): count it and check R-END-1."""
        self.round_live = False
        self.rounds_played += 1
        self.results.append(how)
        target = self.options.get("target_points")
        limit = self.options.get("max_rounds")
        if (target and max(self._scores) >= target) or (limit and self.rounds_played >= limit):
            self._over = True

    def _maybe_declare(self, s: int) -> Iterator[Action]:
        """R-TURN-5: a bot with a waiting 7-card hand usually declares, by prompt or token."""
        if not self.round_live or self.waiting[s] or len(self.hands[s]) != 7:
            return
        if not waits(self.hands[s]) or self.rng.random() >= self.temper.declare:
            return
        self.waiting[s] = True
        if self.rng.random() < self.temper.token:
            self.tokens[s] = True
            yield [Seen(f"wait:{s}", f"W{s + 1}", True)]
        else:
            yield [Decision(s, "waiting", "yes")]

    def _pass(self) -> Decision:
        """The table prompt ``claim`` answered ``pass``, by the organiser or any seat."""
        who = self.rng.choice([None, *range(self.seats)])
        return Decision(who, "claim", "pass")

    def _jittered(self, seq: Action, keep_last: bool = True) -> Action:
        """With jitter, sometimes report a moved card's departure after its arrival.

        The card's arrival takes the departure's place (so nothing else the referee must see
        after the departure comes before it) and the departure follows somewhere later in the
        same run of sightings: the contract's location tracking makes both orders mean the same.
        With ``keep_last`` the action's last input stays last: it may end the round or the game,
        after which a late departure would no longer be accepted (TABLE-GAME-OVER).
        """
        if not self.jitter:
            return seq
        out = list(seq)
        for inp in seq:
            if not isinstance(inp, Seen) or inp.present or self.rng.random() < 0.5:
                continue
            i = out.index(inp)
            arrival = next(
                (
                    j
                    for j, x in enumerate(out)
                    if j > i and isinstance(x, Seen) and x.present and x.piece == inp.piece
                ),
                None,
            )
            if arrival is None:
                continue
            last = len(seq) - 1 if keep_last else len(seq)
            end = next(
                (j for j in range(arrival + 1, len(out)) if isinstance(out[j], Decision)), last
            )
            end = min(end, last) - 1  # the departure's last slot, counted without it
            if end < i + 1:
                continue
            out[i] = out.pop(arrival)
            out.insert(self.rng.randint(i + 1, end), inp)
        return out

    def _clear(self) -> Action:
        """Between rounds: every card left on the table (and each token) leaves its zone."""
        seq: Action = [Seen("talon", c, False) for c in self.talon]
        for s in range(self.seats):
            seq += [Seen(f"meld:{s}", c, False) for m in self.melds[s] for c in m]
            seq += [Seen(f"discard:{s}", c, False) for c in self.discards[s]]
        seq += [Seen("out", c, False) for c in self.out]
        seq += [Seen("flip", c, False) for c in self.flipped]
        seq += [Seen(f"wait:{s}", f"W{s + 1}", False) for s in range(self.seats) if self.tokens[s]]
        self.box += self.talon + self.out + self.flipped
        for s in range(self.seats):
            self.box += [c for m in self.melds[s] for c in m] + self.discards[s]
        self.talon, self.out, self.flipped = [], [], []
        self.melds = [[] for _ in range(self.seats)]
        self.discards = [[] for _ in range(self.seats)]
        self.tokens = [False] * self.seats
        if self.jitter:
            self.rng.shuffle(seq)
        return seq
