"""Hysteresis and timings can be set in the reader spec string a person writes."""

from __future__ import annotations

import pytest

from scorekeeper.errors import ConfigError
from scorekeeper.readers import open_readers


def test_sim_spec_carries_hysteresis_settings() -> None:
    now = [0.0]
    backend = open_readers("sim:a,b?absent_after_ms=200&present_after_ms=0", clock=lambda: now[0])
    seen = []
    backend.start(seen.append)
    try:
        backend.put("a", "04A1B2C3")
        backend.take("a", "04A1B2C3")
        backend.tick()
        assert [s.present for s in seen] == [True]  # gone only after 200 ms
        now[0] = 0.25
        backend.tick()
        assert [s.present for s in seen] == [True, False]
    finally:
        backend.stop()


def test_serial_spec_takes_baud_and_numeric_settings() -> None:
    backend = open_readers(
        "serial:/dev/ttyACM7?baud=57600&absent_after_ms=300&heartbeat_timeout=2.5"
    )
    assert backend.baudrate == 57600  # type: ignore[attr-defined]
    assert backend.heartbeat_timeout == 2.5  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("serial:/dev/ttyACM0?colour=blue", "unknown setting 'colour'"),
        ("serial:/dev/ttyACM0?absent_after_ms=soon", "must be a number"),
        ("serial:/dev/ttyACM0?baud=0", "positive whole number"),
        ("sim?absent_after_ms=-5", "at least 0"),
        ("spi:0.0?clock=1", "unknown setting 'clock'"),
    ],
)
def test_bad_settings_are_refused_in_plain_words(spec: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        open_readers(spec)
