"""Players read plain words: no prompt, waiting line, feed line or refusal of a played game
carries input syntax ("answer end_turn done", "(answer market)"), "card(s)", snake_case ids,
zone ids ("discard:3") or raw card ids ("IT2p3"). Seeded bot-played games of both games are
scanned line by line, and at every step a few wrong answers are tried so that the refusals are
scanned too. In Arcanum's simplest and first-game variants the Fool and the play of a major
are offered only where they are in play.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.core.inputs import Decision, Seen, Undo
from scorekeeper.core.referee import Referee
from scorekeeper.core.text import render_seats
from scorekeeper.games import find_game
from scorekeeper.sim import find_world

# "answer" followed by what looks like an id; "(s)"; snake_case; a zone id such as "meld:0".
SYNTAX = re.compile(
    r"\banswers?\s+['\"]?[a-z]+_|\banswer\s+(?:pass|done|none|reveal|yes|"
    r"draw|hide|major|minors?|fame|harbour|market|artists|fields|cathedral|family|"
    r"empress|death|tower|temperance|wheel|sun|judgement|fool|claim|claimant|"
    r"waiting)\b|\(answer\b|\(s\)|\b[a-z]+_[a-z0-9_]+\b|"
    r"\b[a-z]+:\d"
)
NAMES = ("Ann", "Bea", "Cid", "Dora", "Eve")

GAMES = [
    ("angels-and-demons", 2, {}, 1),
    ("angels-and-demons", 3, {"mode": "advanced"}, 2),
    ("angels-and-demons", 4, {"mode": "advanced", "post_set_draw": "always2"}, 3),
    ("arcanum", 4, {}, 1),
    ("arcanum", 3, {"variant": "simplest"}, 2),
    ("arcanum", 5, {"variant": "first_game"}, 3),
    ("king-of-the-elves", 2, {}, 1),
    ("king-of-the-elves", 4, {"teleport": True, "money": "phones"}, 2),
    ("king-of-the-elves", 6, {"search_fallback": True, "ring_closed": False}, 3),
    ("arcana", 2, {"pack": "sample"}, 1),
    ("arcana", 3, {"pack": "sample", "watch": True, "events": True, "set_aside": True}, 2),
    (
        "arcana",
        4,
        {"pack": "sample", "custom_guild": True, "objectives": True, "guild_masters": True},
        3,
    ),
]


def _texts(
    game_id: str, seats: int, options: dict[str, Any], seed: int
) -> Iterator[tuple[str, str, Any]]:
    """Every (kind, text, state) a person may read while the seeded game is played."""
    game = find_game(game_id)
    world = find_world(game_id)(seats, options, seed)
    ref = Referee(game, options, seats)
    names = NAMES[:seats]
    rng = random.Random(seed)
    zones, pieces = game.zones(seats), game.pieces()

    def now() -> Iterator[tuple[str, str, Any]]:
        state = ref.state
        yield "waiting", render_seats(game.waiting_for(state), names), state
        for prompt in game.pending(state):
            yield "question", render_seats(prompt.question, names), state
        # Wrong answers: to an open prompt, an unknown answer; an unasked prompt; a wrong seat.
        tries = [Decision(p.seat, p.id, "nonsense") for p in game.pending(state)]
        tries += [
            Decision(None, "end_turn", "done"),
            Decision(None, "claim", "pass"),
            Decision(0, "draw_count", "1"),
            Decision(None, "fame", "reveal"),
        ]
        # ... and pieces laid on or lifted off where they may not go.
        tries += [Seen(rng.choice(zones), rng.choice(pieces), rng.random() < 0.7) for _ in range(4)]
        for inp in tries:
            result = ref.apply(inp)
            if result.rejection is not None:
                for text in (result.rejection.reason, result.rejection.hint):
                    yield "refusal", render_seats(text, names), state
            else:  # an answer that happens to be right is taken back
                assert ref.apply(Undo()).accepted

    yield from now()
    steps = 0
    while action := world.next_inputs():
        for inp in action:
            result = ref.apply(inp)
            assert result.accepted, (inp, result.rejection)
            for event in result.events:
                yield "feed", render_seats(event, names), ref.state
            yield from now()
            steps += 1
        assert steps < 20_000


@pytest.mark.parametrize(("game_id", "seats", "options", "seed"), GAMES)
def test_no_line_a_player_reads_carries_input_syntax_or_ids(
    game_id: str, seats: int, options: dict[str, Any], seed: int
) -> None:
    ids = set(find_game(game_id).pieces())
    seen: set[tuple[str, str]] = set()
    for kind, text, state in _texts(game_id, seats, options, seed):
        if (kind, text) in seen:
            continue
        seen.add((kind, text))
        assert text.strip() or kind == "refusal", (kind, text)
        assert not SYNTAX.search(text), f"{kind}: {text}"
        words = set(re.findall(r"[A-Za-z0-9_]+", text))
        assert not words & ids, f"{kind} names a card by its id: {text}"
        assert "{seat:" not in text, text
        variant = options.get("variant")
        if (
            game_id == "arcanum"
            and kind != "refusal"
            and (variant == "simplest" or (variant == "first_game" and state.round <= 2))
        ):
            assert "Fool" not in text, f"{kind} offers the Fool in a {variant} game: {text}"
            assert "play a major" not in text and "without a major" not in text, (
                f"{kind} offers a major in a {variant} game: {text}"
            )
    assert len(seen) > 30


def test_the_scan_catches_the_old_syntax() -> None:
    """The patterns that used to reach the TV are caught (so a regression fails above)."""
    for old in (
        "Bot 2: play a major, or answer end_turn done",
        "Fame phase: reveal the ♥ cups cards (row 4): answer fame reveal",
        "Bot 1 may hide a card, or answer hide pass",
        "Market: does Bot 2 exchange a card? (answer market)",
        "Bot 1: lay 2 more card(s) of the set",
        "take it off the discard:3 zone",
    ):
        assert SYNTAX.search(old), old
