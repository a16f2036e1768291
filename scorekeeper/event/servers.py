"""Private PostgreSQL and Mosquitto servers on free ports, in folders of their own.

For ``make event-demo``, ``make bench`` and the tests: each starts the real Debian server
binaries (``postgres``, ``mosquitto``) on 127.0.0.1 with all their files under one temporary
folder, and stops them again. Nothing here is used by a production event, whose servers are
the system's own (docs/events.md).

Hazards: PostgreSQL refuses to run as root, so as root its files belong to the ``postgres``
user and its commands run through ``runuser``. Mosquitto as root would drop to the
``mosquitto`` user; its configuration keeps the user it was started as. A server that fails to
start raises ``ServerError`` with the last lines of its log.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Self

from scorekeeper.errors import ScorekeeperError

PG_BIN_DIRS = (
    "/usr/lib/postgresql/17/bin",
    "/usr/lib/postgresql/16/bin",
    "/usr/lib/postgresql/15/bin",
)
MOSQUITTO_DIRS = ("/usr/sbin", "/usr/bin", "/usr/local/sbin")


class ServerError(ScorekeeperError, RuntimeError):
    """A private server could not be found, started or stopped; the message says why."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float, alive: subprocess.Popen[bytes] | None = None) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if alive is not None and alive.poll() is not None:
            return False
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return True
        time.sleep(0.02)
    return False


def _tail(path: Path, lines: int = 12) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _find(name: str, dirs: tuple[str, ...]) -> str:
    for folder in dirs:
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise ServerError(
            f"cannot find the {name} program: install the Debian package "
            f"({'postgresql' if name in ('postgres', 'initdb') else 'mosquitto'})"
        )
    return found


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (read from /proc), deepest last."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class PrivatePostgres:
    """A PostgreSQL server of its own: ``start()``, ``url(database)``, ``restart()``, ``stop()``.

    Trust authentication on 127.0.0.1 only (a private test or demo server); ``fsync`` is off,
    which loses nothing when the server process restarts or is killed, only when the machine
    loses power: none of its users keeps data across a power cut.
    """

    def __init__(self, root: Path | None = None, port: int | None = None) -> None:
        self.root = root or Path(tempfile.mkdtemp(prefix="sk-postgres-"))
        self.port = port or free_port()
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._as: list[str] = []
        self.user = "postgres"
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "postgres", "--"]
        else:
            self.user = pwd.getpwuid(os.geteuid()).pw_name

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` on this server (psycopg 3 driver)."""
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{database}"

    def start(self) -> Self:
        initdb = _find("initdb", PG_BIN_DIRS)
        postgres = str(Path(initdb).with_name("postgres"))
        if not self.data.exists():
            self.root.mkdir(parents=True, exist_ok=True)
            if self._as:
                shutil.chown(self.root, "postgres", "postgres")
            done = subprocess.run(
                [
                    *self._as,
                    initdb,
                    "-D",
                    str(self.data),
                    "-U",
                    self.user,
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--no-sync",
                    "--locale=C",
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise ServerError(f"initdb failed: {done.stderr.strip() or done.stdout.strip()}")
        self._spawn(postgres)
        return self

    def _spawn(self, postgres: str) -> None:
        log = open(self.log, "ab")  # noqa: SIM115 - kept by the child
        self.proc = subprocess.Popen(
            [
                *self._as,
                postgres,
                "-D",
                str(self.data),
                "-p",
                str(self.port),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                f"unix_socket_directories={self.root}",
                "-c",
                "fsync=off",
                "-c",
                "full_page_writes=off",
                "-c",
                "max_connections=200",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        if not _wait_port(self.port, 30.0, self.proc) or not self._ready():
            self.stop()
            raise ServerError(f"PostgreSQL did not start:\n{_tail(self.log)}")

    def _ready(self) -> bool:
        import psycopg  # the event extra; imported only where a server is wanted

        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline:
            try:
                with psycopg.connect(self._dsn("postgres"), connect_timeout=2):
                    return True
            except psycopg.OperationalError:
                if self.proc is not None and self.proc.poll() is not None:
                    return False
                time.sleep(0.05)
        return False

    def _dsn(self, database: str) -> str:
        return f"host=127.0.0.1 port={self.port} user={self.user} dbname={database}"

    def create_database(self, name: str) -> str:
        """Create an empty database ``name`` (dropped first if it exists); returns its URL."""
        import psycopg

        with psycopg.connect(self._dsn("postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def restart(self, *, kill: bool = False) -> None:
        """Stop the server (``kill``: SIGKILL, a crash) and start it again on the same port."""
        postgres = str(Path(_find("initdb", PG_BIN_DIRS)).with_name("postgres"))
        self.stop(kill=kill)
        self._spawn(postgres)

    def stop(self, *, kill: bool = False) -> None:
        """Stop the server (fast shutdown; SIGKILL to the whole group when ``kill``)."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        if kill:
            # A crash takes the backends too: they run in sessions of their own (PostgreSQL
            # calls setsid in each), so the process group alone would leave them serving.
            for pid in _descendants(proc.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL if kill else signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        if kill:  # the postmaster's children die with the group; its lock files stay
            for lock in (self.data / "postmaster.pid", *self.root.glob(".s.PGSQL.*.lock")):
                with contextlib.suppress(OSError):
                    lock.unlink()

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.remove()


class PrivateMosquitto:
    """A Mosquitto broker of its own on 127.0.0.1: ``start()``, ``restart()``, ``stop()``.

    ``config`` is the rest of its configuration (a password file, an ACL, limits), as written
    by scorekeeper/event/broker_files.py for a real event; the listener, persistence folder and
    log are this class's. With no ``config`` the broker lets anyone in (a developer's demo).
    Persistence is on, so a restart keeps sessions and queued messages as a real broker does.
    """

    def __init__(self, root: Path | None = None, port: int | None = None, config: str = "") -> None:
        self.root = root or Path(tempfile.mkdtemp(prefix="sk-mosquitto-"))
        self.port = port or free_port()
        self.config = config
        self.log = self.root / "mosquitto.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def conf_text(self) -> str:
        user = pwd.getpwuid(os.geteuid()).pw_name
        lines = [
            f"listener {self.port} 127.0.0.1",
            "persistence true",
            f"persistence_location {self.root}/",
            "autosave_interval 1",
            f"log_dest file {self.log}",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type subscribe",
            f"user {user}",
            "per_listener_settings false",
        ]
        if "allow_anonymous" not in self.config:
            lines.append("allow_anonymous true")
        return "\n".join(lines) + "\n" + self.config + "\n"

    def start(self) -> Self:
        exe = _find("mosquitto", MOSQUITTO_DIRS)
        self.root.mkdir(parents=True, exist_ok=True)
        conf = self.root / "mosquitto.conf"
        conf.write_text(self.conf_text())
        self.proc = subprocess.Popen(
            [exe, "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "stderr.log", "ab"),  # noqa: SIM115 - kept by the child
            start_new_session=True,
        )
        if not _wait_port(self.port, 15.0, self.proc):
            self.stop()
            raise ServerError(
                f"Mosquitto did not start:\n{_tail(self.log)}\n{_tail(self.root / 'stderr.log')}"
            )
        return self

    def restart(self, *, kill: bool = False, down_for: float = 0.0) -> None:
        """Stop the broker (``kill``: SIGKILL), wait ``down_for`` seconds, start it again."""
        self.stop(kill=kill)
        if down_for:
            time.sleep(down_for)
        self.start()

    def stop(self, *, kill: bool = False) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.remove()
