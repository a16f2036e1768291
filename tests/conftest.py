"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core CI machine must not turn slowness into a
failure; speed is measured by ``make bench``), and under CI a derandomized run, so a submission
is judged on the same examples every time; locally each run explores new ones.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

from scorekeeper.event.servers import PrivateMosquitto, PrivatePostgres

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# -- private servers (event mode): one PostgreSQL and one Mosquitto per test process -----------
# Started on first use and stopped at the end of the session. A test that restarts or kills a
# server starts its own instead (scorekeeper.event.servers), so that no other test sees it go.

_SERVERS: dict[str, Any] = {}


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PrivatePostgres]:
    """This test process's private PostgreSQL server (shared: never restart it)."""
    server = PrivatePostgres().start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def pg_url(postgres_server: PrivatePostgres) -> str:
    """The URL of a new empty PostgreSQL database for this test alone."""
    _SERVERS["pg"] = _SERVERS.get("pg", 0) + 1
    return postgres_server.create_database(f"t{os.getpid()}_{_SERVERS['pg']}")


@pytest.fixture(scope="session")
def mosquitto_server() -> Iterator[PrivateMosquitto]:
    """This test process's private Mosquitto broker, anonymous (shared: never restart it)."""
    server = PrivateMosquitto().start()
    try:
        yield server
    finally:
        server.remove()
