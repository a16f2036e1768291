"""Random whole games through the referee, driven by what the referee waits for.

The driver plays legal inputs only: a card a seat plays, hides or discards is any card the
referee has not seen yet (it cannot tell which unseen card is in which hand). Every input must
be accepted, every game must end, the card counts must always add up, a replay must reach the
same state, views must not show a seat's secrets to anyone else, and garbage must be refused
without changing anything.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from scorekeeper.core.inputs import Decision, GameInput, Seen, Undo
from scorekeeper.core.referee import Referee
from scorekeeper.games.arcanum.cards import (
    CARD_IDS,
    FOOL,
    PAWNS,
    is_major,
    is_minor,
    number_of,
    pawn_for,
    suit_of,
)
from scorekeeper.games.arcanum.state import (
    CARD_INDEX,
    PAWN_INDEX,
    PLAY,
    SETUP,
    TRAY,
    UNSEEN,
    Hides,
    JudgePlace,
    JudgeRemove,
    Owe,
    Pawn,
    State,
    SwapIn,
    Treasury,
)
from tests.games.arcanum.test_engine_helpers import GAME


class Driver:
    """Chooses a legal input from the referee's state (see the module docstring)."""

    def __init__(self, seed: int, n: int, **options: object) -> None:
        self.rng = random.Random(seed)
        self.n = n
        self.ref = Referee(GAME, dict(options), n)

    @property
    def state(self) -> State:
        s = self.ref.state
        assert isinstance(s, State)
        return s

    def _unseen(self, minor: bool, seat: int) -> list[str]:
        s = self.state
        return [
            c
            for c in CARD_IDS
            if (is_minor(c) == minor) and s.where[CARD_INDEX[c]] in (UNSEEN, f"hand:{seat}")
        ]

    def _card(self, seat: int, *, minor: bool) -> str:
        cards = self._unseen(minor, seat)
        if not minor:
            if self.rng.random() < 0.5 and FOOL in cards:
                return FOOL
            cards = [c for c in cards if c != FOOL] or cards
        return self.rng.choice(cards)

    def _hide_card(self, seat: int, fool_ok: bool) -> str:
        s = self.state
        fool = fool_ok and s.majors[seat] > 0 and s.loc_of(FOOL) == UNSEEN
        if fool and (self.rng.random() < 0.2 or s.minors[seat] == 0):
            return FOOL
        return self._card(seat, minor=True)

    def next_input(self) -> GameInput:
        s = self.state
        rng = self.rng
        if s.phase == SETUP:
            for p in PAWNS:
                if s.pawns[PAWN_INDEX[p]] == 0:
                    free = [
                        k
                        for k in range(1, 11)
                        if sum(1 for q in s.pawns if q == k) < 2
                        and not any(
                            s.pawns[PAWN_INDEX[o]] == k for o in PAWNS if suit_of(o) == suit_of(p)
                        )
                    ]
                    return Seen(f"loc:{rng.choice(free)}", p, True)
        head = s.head
        if isinstance(head, Owe):
            seat = head.seat
            minor = head.kind == "minor" or (
                head.kind == ""
                and s.minors[seat] > 0
                and (s.majors[seat] == 0 or rng.random() < 0.7)
            )
            card = self._card(seat, minor=minor)
            return Seen("minor_discard" if minor else "major_discard", card, True)
        if isinstance(head, Hides):
            open_ = [(seat, k) for seat, k in head.left if k > 0]
            seat, _ = rng.choice(open_)
            if head.required or (s.minors[seat] and rng.random() < 0.6):
                return Seen(f"hide:{seat}", self._hide_card(seat, head.fool), True)
            return Decision(seat, "hide", "pass")
        if isinstance(head, Pawn):
            return self._move(head)
        if isinstance(head, Treasury):
            return Seen(f"hide:{head.seat}", self._card(head.seat, minor=True), True)
        if isinstance(head, SwapIn):
            return Seen(f"hide:{head.seat}", self._card(head.seat, minor=True), True)
        if isinstance(head, JudgeRemove) and rng.random() < 0.5:
            pawns = [
                p
                for p in PAWNS
                if s.pawns[PAWN_INDEX[p]] > 0 and s.pawns[PAWN_INDEX[p]] not in s.blocked
            ]
            return Seen("tray", rng.choice(pawns), True)
        if isinstance(head, JudgePlace) and rng.random() < 0.5:
            k = rng.choice([k for k in range(1, 11) if k not in head.used])
            return Seen(f"loc:{k}", head.pawns[0], True)
        prompts = GAME.pending(s)
        if head is None and s.phase == PLAY and s.turn is not None:
            t = s.turn
            seat = t.seat
            want_major = t.major is None and s.majors[seat] > 0 and rng.random() < 0.35
            if want_major:
                return Seen("play", self._card(seat, minor=False), True)
            if t.minor is None:
                return Seen("play", self._card(seat, minor=True), True)
            if t.index + 1 < self.n and rng.random() < 0.5:
                nxt = (seat + 1) % self.n
                return Seen("play", self._card(nxt, minor=True), True)
        assert prompts, f"nothing to do: {GAME.waiting_for(s)}"
        p = rng.choice(prompts)
        options = list(p.options)
        if p.id == "tower" and "done" in options and rng.random() < 0.6:
            return Decision(p.seat, "tower", "done")
        if p.id == "cathedral" and s.minors[p.seat or 0] == 0:
            return Decision(p.seat, "cathedral", "draw")
        if p.id == "fields" and rng.random() < 0.3:
            return Decision(p.seat, "fields", "done")
        return Decision(p.seat, p.id, rng.choice(options))

    def _move(self, head: Pawn) -> Seen:
        s = self.state
        card = head.card
        blocked = s.blocked
        if is_minor(card):
            n = number_of(card)
            if n is not None:
                pawns = [
                    p
                    for p in PAWNS
                    if suit_of(p) == suit_of(card)
                    and s.pawns[PAWN_INDEX[p]] not in (n, TRAY)
                    and s.pawns[PAWN_INDEX[p]] not in blocked
                ]
                return Seen(f"loc:{n}", self.rng.choice(pawns), True)
            pawn = pawn_for(card)
            cur = s.pawns[PAWN_INDEX[pawn]]
            dest = [k for k in range(1, 11) if k != cur and k not in blocked]
            return Seen(f"loc:{self.rng.choice(dest)}", pawn, True)
        pawns = [
            p for p in PAWNS if s.pawns[PAWN_INDEX[p]] > 0 and s.pawns[PAWN_INDEX[p]] not in blocked
        ]
        pawn = self.rng.choice(pawns)
        cur = s.pawns[PAWN_INDEX[pawn]]
        dest = [k for k in range(1, 11) if k != cur and k not in blocked]
        return Seen(f"loc:{self.rng.choice(dest)}", pawn, True)


def check_counts(s: State) -> None:
    """Unseen cards are exactly the decks plus the hands."""
    unseen_minor = sum(
        1
        for c, w in zip(CARD_IDS, s.where, strict=True)
        if is_minor(c) and (w == UNSEEN or w.startswith("hand:"))
    )
    assert unseen_minor == s.deck_minor + sum(s.minors), (unseen_minor, s.deck_minor, s.minors)
    if s.cfg.variant != "simplest":
        unseen_major = sum(
            1
            for c, w in zip(CARD_IDS, s.where, strict=True)
            if is_major(c) and (w == UNSEEN or w.startswith("hand:"))
        )
        assert unseen_major == s.deck_major + sum(s.majors)
    assert min(s.minors) >= 0 and min(s.majors) >= 0
    assert s.deck_minor >= 0 and s.deck_major >= 0


def _shown(state: State, aud: str | int) -> str:
    """What ``aud`` is shown of ``state`` (view, the prompts it may see, who is waited for), as
    JSON text."""
    return json.dumps(
        {
            "view": GAME.view(state, aud),  # type: ignore[arg-type]
            "prompts": [p.to_dict() for p in GAME.pending(state) if not p.private or p.seat == aud],
            "waiting": GAME.waiting_for(state),
        }
    )


def _leaks(before: State, state: State, n: int, events: tuple[str, ...]) -> list[str]:
    found = []
    # Each audience's text is built once per call, not once per other seat (views are pure),
    # and the state before only when the one after names a secret at all: the same check.
    now_text: dict[str | int, str] = {}
    old_text: dict[str | int, str] = {}
    for seat in range(n):
        secrets = GAME.secrets(state, seat)
        if not secrets:
            continue
        pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(secrets))) + r")\b")
        for line in events:
            if pattern.search(line):
                found.append(f"feed names seat {seat}'s secret: {line}")
        audiences: list[str | int] = ["public", *(t for t in range(n) if t != seat)]
        for aud in audiences:
            if aud not in now_text:
                now_text[aud] = _shown(state, aud)
            hits = set(pattern.findall(now_text[aud]))
            if not hits:
                continue
            if aud not in old_text:
                old_text[aud] = _shown(before, aud)
            new_hits = hits - set(pattern.findall(old_text[aud]))
            if new_hits:
                found.append(f"{aud} is shown seat {seat}'s {sorted(new_hits)}")
    return found


def run_game(seed: int, n: int, check_leaks: bool = True, **options: object) -> Driver:
    d = Driver(seed, n, **options)
    history: list[GameInput] = []
    rng = random.Random(seed + 1000)
    for _ in range(20_000):
        if GAME.is_over(d.state):
            break
        inp = d.next_input()
        history.append(inp)
        before = d.state
        result = d.ref.apply(inp)
        assert result.accepted, (
            f"seed {seed}: {inp.to_str()} refused: {result.rejection}\n"
            + "\n".join(i.to_str() for i in history[-40:])
        )
        check_counts(d.state)
        if check_leaks:
            leaks = _leaks(before, d.state, n, result.events)
            assert not leaks, (leaks, inp.to_str())
        if rng.random() < 0.05 and not GAME.is_over(d.state):
            junk: GameInput
            if rng.random() < 0.7:
                junk = Seen(rng.choice(GAME.zones(n)), rng.choice(GAME.pieces()), True)
            else:
                junk = Decision(
                    rng.choice([None, *range(n)]),
                    rng.choice(["draw", "hide", "fame", "fool", "end_turn", "wheel", "x"]),
                    rng.choice(["pass", "done", "major", "minors", "reveal", "1"]),
                )
            state = d.state
            tried = d.ref.apply(junk)
            if tried.accepted:
                assert d.ref.apply(Undo()).accepted
            else:
                assert tried.rejection is not None and tried.rejection.rule
            assert d.ref.state == state
    assert GAME.is_over(d.state), f"seed {seed}: the game did not end"
    replay = Referee(GAME, dict(options), n)
    for inp in history:
        assert replay.apply(inp).accepted, inp.to_str()
    assert replay.state == d.ref.state
    return d


@pytest.mark.parametrize("seed", range(12))
def test_random_games_end_and_conform(seed: int) -> None:
    n = 3 + seed % 3
    d = run_game(seed, n)
    s = d.state
    assert len([h for h in s.history if h.kind == "regular"]) == len(s.cfg.fame_rounds)
    assert s.winners


@pytest.mark.parametrize("variant", ["first_game", "simplest"])
def test_random_games_in_variants(variant: str) -> None:
    for seed in range(3):
        d = run_game(100 + seed, 4, check_leaks=False, variant=variant)
        if variant == "simplest":
            assert not any(is_major(c) for c in d.state.pile_major)


@pytest.mark.parametrize(
    "options",
    [
        {"length": "long"},
        {"devil_fame": "not_doubled"},
        {"tied_split": "own_place"},
        {"three_player_length": "always_8"},
        {"start_seat": 2},
    ],
)
def test_random_games_with_options(options: dict[str, object]) -> None:
    d = run_game(200, 3, check_leaks=False, **options)
    assert d.state.over
