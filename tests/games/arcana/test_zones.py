"""Arcana's zones: the district table per seat count (G-1 … G-3, T-15), the zone names and
default layout, and the words people read for each pad."""

from __future__ import annotations

import pytest

from scorekeeper.core.text import render_seats
from scorekeeper.games.arcana import zones


@pytest.mark.parametrize(
    ("seats", "friendly", "enemy"),
    [
        (2, {0: "ab", 1: "cd"}, {0: "cd", 1: "ab"}),
        (3, {0: "ac", 1: "ab", 2: "bc"}, {0: "b", 1: "c", 2: "a"}),
        (4, {0: "ad", 1: "ab", 2: "bc", 3: "cd"}, {0: "bc", 1: "cd", 2: "da", 3: "ab"}),
    ],
)
def test_each_seat_has_two_friendly_one_neutral_and_the_rest_enemy(
    seats: int, friendly: dict[int, str], enemy: dict[int, str]
) -> None:
    ids = zones.district_ids(seats)
    assert ids[-1] == "n"
    for seat in range(seats):
        rel = {did: zones.relation(seats, seat, did) for did in ids}
        assert {d for d, r in rel.items() if r == "friendly"} == set(friendly[seat])
        assert {d for d, r in rel.items() if r == "enemy"} == set(enemy[seat])
        assert [d for d, r in rel.items() if r == "neutral"] == ["n"]


def test_districts_per_seat_count() -> None:
    assert [len(zones.district_ids(n)) for n in (2, 3, 4)] == [5, 4, 5]
    assert zones.friends_of(3, "c") == (2, 0)
    assert zones.friends_of(4, "n") == ()


def test_layout_names_each_reader_after_its_zone() -> None:
    layout = zones.layout(3)
    assert layout["stake-a"] == "stake_a"
    assert layout["agents-n"] == "agents_n"
    assert layout["discard-2"] == "discard:2"
    assert layout["badge-0"] == "badge:0"
    assert layout["event"] == "event"
    # 2 per district, 2 per seat and the event pad (docs/games/arcana.md, "Readers per table").
    assert [len(zones.layout(n)) for n in (2, 3, 4)] == [15, 15, 19]
    assert "stake_d" not in zones.zone_names(3)


def test_parse_refuses_what_is_no_zone() -> None:
    assert zones.parse("stake_b") == ("stake", "b", -1)
    assert zones.parse("discard:3") == ("discard", "", 3)
    assert zones.parse("event") == ("event", "", -1)
    for bad in ("stake_e", "hand:0", "discard:x", "agents", "badge_0"):
        assert zones.parse(bad) is None


def test_zone_words() -> None:
    names = ["Ann", "Bea"]
    said = {z: render_seats(zones.zone_words(z), names) for z in zones.zone_names(2)}
    assert said["stake_a"] == "district A's stake"
    assert said["agents_n"] == "the neutral district's agents"
    assert said["discard:0"] == "Ann's discard pad"
    assert said["badge:1"] == "Bea's badge"
    assert said["event"] == "the event pad"
    assert zones.describe_zone("stake_a") == "District A's stake"
    assert zones.describe_zone("discard:1") == "Discard pad"
