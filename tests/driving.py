"""Driving a referee in unit tests: input lines that must be accepted, or refused with a rule."""

from __future__ import annotations

from scorekeeper.core.inputs import Decision, Seen, parse_input
from scorekeeper.core.outcomes import Rejected
from scorekeeper.core.referee import Referee


def play(ref: Referee, *lines: str) -> tuple[str, ...]:
    """Apply input lines ("+talon H5b1", "decide 2 draw_count 2"); each must be accepted.
    Returns the events of them all."""
    events: tuple[str, ...] = ()
    for line in lines:
        inp = parse_input(line)
        assert isinstance(inp, Seen | Decision)
        result = ref.apply(inp)
        assert result.accepted, f"{line!r} rejected: {result.rejection}"
        events += result.events
    return events


def refuse(ref: Referee, line: str, rule: str) -> Rejected:
    """Apply one input line that must be refused with ``rule``, with a reason and a hint, and
    leave the state untouched (the very same object)."""
    before = ref.state
    inp = parse_input(line)
    assert isinstance(inp, Seen | Decision)
    result = ref.apply(inp)
    assert not result.accepted, f"{line!r} was accepted"
    assert result.rejection is not None
    assert result.rejection.rule == rule, result.rejection
    assert result.rejection.reason and result.rejection.hint
    assert ref.state is before
    return result.rejection
