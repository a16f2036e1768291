"""Arcana's objectives (R-OPT-C-3, R-OPT-C-4, G-23): each stake towards one objective, an
all-domain stake towards any, the assignment that completes the most VP; T-18."""

from __future__ import annotations

from scorekeeper.games.arcana import objectives
from tests.games.arcana.test_sums import pack

# The test pack's stakes by domain.
OGROKH = ("stake_001", "stake_004", "stake_007")
OLD_TOWN = ("stake_002", "stake_006", "stake_010")
KRAKEN = ("stake_003", "stake_005")
ALL = ("stake_008", "stake_009")
# Its objectives: 3 Ogrokh (4 VP), 2 Old Town (3 VP), 1 Kraken Quay (3 VP), 2 of any (2 VP).
BLOOD, OLD, DOCKS, ANY = "objective_01", "objective_02", "objective_03", "objective_04"


def test_t18_all_domain_stakes_complete_both_objectives() -> None:
    held = (*OGROKH[:2], OLD_TOWN[0], *ALL)
    assert objectives.completed(pack(), (BLOOD, OLD), held) == (BLOOD, OLD)
    got = objectives.best_assignment(pack(), (BLOOD, OLD), held)
    assert set(got[BLOOD]) >= set(OGROKH[:2]) and len(got[BLOOD]) == 3
    assert OLD_TOWN[0] in got[OLD] and len(got[OLD]) == 2
    # no stake is used twice
    assert not set(got[BLOOD]) & set(got[OLD])


def test_when_both_cannot_be_met_the_one_worth_more_is() -> None:
    held = (*OGROKH[:2], OLD_TOWN[0], ALL[0])
    assert objectives.completed(pack(), (OLD, BLOOD), held) == (BLOOD,)
    # equal VP: the earlier kept one
    two = (OLD_TOWN[0], ALL[0])
    assert objectives.completed(pack(), (DOCKS, OLD), two) == (DOCKS,)
    assert objectives.completed(pack(), (OLD, DOCKS), two) == (OLD,)
    # nothing met
    assert objectives.completed(pack(), (BLOOD, OLD), KRAKEN) == ()
    assert objectives.best_assignment(pack(), (BLOOD, OLD), KRAKEN) == {}


def test_an_all_domain_objective_takes_what_is_left() -> None:
    held = (*OGROKH, KRAKEN[0])
    assert objectives.completed(pack(), (BLOOD, ANY), held) == (BLOOD,)
    assert objectives.completed(pack(), (BLOOD, ANY), (*held, OLD_TOWN[0])) == (BLOOD, ANY)
    got = objectives.best_assignment(pack(), (BLOOD, ANY), (*held, OLD_TOWN[0]))
    assert set(got[BLOOD]) == set(OGROKH)
    assert set(got[ANY]) == {KRAKEN[0], OLD_TOWN[0]}


def test_many_stakes_are_counted_by_domain() -> None:
    # 60 stakes, 30 all-domain: a search over the stakes would never end
    held = OLD_TOWN * 10 + ALL * 15
    assert objectives.completed(pack(), (BLOOD, OLD), held) == (BLOOD, OLD)
    assert objectives.completed(pack(), (BLOOD, OLD), OLD_TOWN * 20) == (OLD,)


def test_progress_and_unknown_ids() -> None:
    assert objectives.progress(pack(), BLOOD, (*OGROKH[:2], ALL[0], KRAKEN[0])) == (3, 3)
    assert objectives.progress(pack(), "objective_24", OGROKH) == (0, 0)
    # ids the pack does not hold count for nothing
    assert objectives.completed(pack(), ("objective_24", BLOOD), (*OGROKH, "stake_116")) == (BLOOD,)
