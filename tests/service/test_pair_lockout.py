"""Wrong pairing codes lock out for real: during a lockout no code is looked at, a right one
neither (it stays unused), per client and over all clients; a fake clock moves the minute."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from scorekeeper.core.table import TableConfig
from scorekeeper.service.tokens import (
    MAX_FAILED_PAIRS,
    MAX_FAILED_PER_CLIENT,
    PAIR_WINDOW,
    Tokens,
    TooManyTries,
    Unauthenticated,
)
from scorekeeper.store import Store
from tests.fakes import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def tokens(clock: Clock) -> Iterator[Tokens]:
    """Tokens on an in-memory store holding table t1 (seat tokens are kept per table)."""
    with Store("sqlite://") as store:
        store.create_table(TableConfig(game="fake", seats=("a", "b", "c", "d", "e", "f")))
        yield Tokens(store, threading.RLock(), clock=clock)


def guess_wrong(tokens: Tokens, client: str, times: int) -> None:
    for _ in range(times):
        with pytest.raises(Unauthenticated):
            tokens.redeem("ZZZZZZ", client)


def test_the_numbers_suit_a_table_of_six_phones() -> None:
    assert MAX_FAILED_PER_CLIENT == 5 and MAX_FAILED_PAIRS == 30 and PAIR_WINDOW == 60


def test_a_right_code_during_a_lockout_is_refused_unused_and_works_after_the_window(
    tokens: Tokens, clock: Clock
) -> None:
    code, _ = tokens.pairing_code("t1", 0)
    guess_wrong(tokens, "10.0.0.7", MAX_FAILED_PER_CLIENT)
    clock.now += 20
    with pytest.raises(TooManyTries) as refused:
        tokens.redeem(code, "10.0.0.7")
    assert refused.value.retry_after == 40 and not refused.value.everyone
    assert str(refused.value) == (
        "Too many wrong codes from this phone: wait 40 seconds, then type the code again"
    )
    clock.now += 39.5  # still inside the minute; a refused try does not make it longer
    with pytest.raises(TooManyTries) as again:
        tokens.redeem(code, "10.0.0.7")
    assert again.value.retry_after == 1 and "wait 1 second, then" in str(again.value)
    clock.now += 0.5  # the first wrong code is a minute old now
    token, who = tokens.redeem(code, "10.0.0.7")
    assert (who.table, who.seat) == ("t1", 0) and tokens.identify(token) == who


def test_another_client_is_unaffected_until_the_ceiling_over_all_clients(
    tokens: Tokens, clock: Clock
) -> None:
    guess_wrong(tokens, "10.0.0.7", MAX_FAILED_PER_CLIENT)
    code, _ = tokens.pairing_code("t1", 1)
    assert tokens.redeem(code, "10.0.0.8")[1].seat == 1  # the player next to the guesser
    # A guesser that changes address: each address stays under its own limit.
    for n in range(MAX_FAILED_PAIRS - MAX_FAILED_PER_CLIENT):
        guess_wrong(tokens, f"10.0.1.{n}", 1)
    code, _ = tokens.pairing_code("t1", 0)
    with pytest.raises(TooManyTries) as refused:
        tokens.redeem(code, "10.0.0.9")  # never typed a wrong code, a right one now
    assert refused.value.everyone and refused.value.retry_after == 60
    assert "on this server" in str(refused.value) and "wait 60 seconds" in str(refused.value)
    clock.now += PAIR_WINDOW
    assert tokens.redeem(code, "10.0.0.9")[1].seat == 0


def test_a_right_code_does_not_count_and_a_wrong_one_after_the_window_starts_afresh(
    tokens: Tokens, clock: Clock
) -> None:
    guess_wrong(tokens, "10.0.0.7", MAX_FAILED_PER_CLIENT - 1)
    for seat in range(6):
        code, _ = tokens.pairing_code("t1", seat)
        tokens.redeem(code, "10.0.0.7")
    guess_wrong(tokens, "10.0.0.7", 1)  # the fifth wrong one is still looked at
    with pytest.raises(TooManyTries):
        tokens.redeem("ZZZZZZ", "10.0.0.7")
    clock.now += PAIR_WINDOW
    guess_wrong(tokens, "10.0.0.7", MAX_FAILED_PER_CLIENT)
    with pytest.raises(TooManyTries):
        tokens.redeem("ZZZZZZ", "10.0.0.7")


def test_withdrawing_a_seat_tells_who_holds_its_connections(tokens: Tokens) -> None:
    from scorekeeper.service.tokens import credential

    told: list[list[str]] = []
    tokens.on_revoke = lambda hashes: told.append(list(hashes))
    code, _ = tokens.pairing_code("t1", 0)
    token, _ = tokens.redeem(code, "10.0.0.7")
    assert tokens.unpair("t1", 0) == (1, 0)
    assert told == [[credential(token)]]
    with pytest.raises(Unauthenticated):
        tokens.identify(token)  # marked before anyone was told
    old = tokens.new_organiser_token()
    tokens.new_organiser_token()
    assert told[-1] == [credential(old)]
