"""A warm parent for hub processes: each start is a fork that runs ``scorekeeper hub serve``.

The event fault runs (soak/event_field.py) SIGKILL hub processes and start them again up to a
hundred times; a fresh Python paying about a second of CPU to import the hub each time would
make ``make test`` pay it too. ``python -m soak.event_zygote`` imports the hub's code once,
then for each ``start`` it is told forks a child that runs ``scorekeeper.cli.main`` with the
``hub serve`` arguments given: a process of its own (its own sockets, database connections and
threads, all made after the fork), which dies of a SIGKILL as any other.

Its protocol is one JSON list a line. On stdin: ``["start", n, log, [args...]]``. On stdout:
``["pid", n, pid]`` at once, ``["connected", n, pid]`` when the child's log says
"ingest connected", ``["exit", n, pid, code]`` once the child has ended (``code`` is -9 after
a SIGKILL). The child's output is appended to the file ``log``. At the end of stdin the parent
stops its children (SIGTERM) and exits.

Hazards: the parent must hold no thread, socket or database connection when it forks (only
imported modules), or the child inherits a copy of them; it runs one loop on one thread
(``selectors``) for that reason. A child's pipe end is closed in the parent at once, so the
pipe's end of file says the child has gone.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import sys
import time
from typing import Any, BinaryIO

CONNECTED = b"ingest connected"


def _warm() -> None:
    """Import what ``hub serve`` imports, and what uvicorn imports only when it starts."""
    import paho.mqtt.client  # noqa: F401
    import psycopg  # noqa: F401
    import sqlalchemy.dialects.postgresql.psycopg  # noqa: F401
    import uvicorn  # noqa: F401
    import uvicorn.lifespan.on  # noqa: F401
    import uvicorn.loops.auto  # noqa: F401
    import uvicorn.protocols.http.auto  # noqa: F401
    import uvicorn.protocols.websockets.auto  # noqa: F401

    import scorekeeper.cli  # noqa: F401
    import scorekeeper.commands.hub  # noqa: F401
    import scorekeeper.event.api  # noqa: F401
    import scorekeeper.event.broker_files  # noqa: F401
    import scorekeeper.event.hub_service  # noqa: F401
    import scorekeeper.event.ingest  # noqa: F401


def _child(args: list[str], write_fd: int, keep_closed: list[int]) -> None:
    """In the forked child: output to the pipe, stdin from /dev/null, run the command."""
    try:
        for fd in keep_closed:
            with contextlib.suppress(OSError):
                os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(write_fd, 1)
        os.dup2(write_fd, 2)
        os.close(write_fd)
        from scorekeeper.cli import main

        code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - a child must never return into the parent's loop
        import traceback

        traceback.print_exc()
        code = 1
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


class Zygote:
    """The parent's loop: commands in, children forked, their output logged and watched."""

    def __init__(self) -> None:
        self.selector = selectors.DefaultSelector()
        self.children: dict[int, tuple[int, int, BinaryIO]] = {}  # read fd -> (n, pid, log)
        self.buffers: dict[int, bytes] = {}
        self.commands = b""

    def say(self, *message: Any) -> None:
        sys.stdout.write(json.dumps(list(message)) + "\n")
        sys.stdout.flush()

    def start(self, n: int, log: str, args: list[str]) -> None:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            _child(args, write_fd, [read_fd, *self.children])
        os.close(write_fd)
        out = open(log, "ab")  # noqa: SIM115 - closed when the child has gone
        self.children[read_fd] = (n, pid, out)
        self.buffers[read_fd] = b""
        self.selector.register(read_fd, selectors.EVENT_READ)
        self.say("pid", n, pid)

    def output(self, fd: int) -> None:
        n, pid, out = self.children[fd]
        data = os.read(fd, 65536)
        if not data:
            self.selector.unregister(fd)
            os.close(fd)
            out.close()
            del self.children[fd], self.buffers[fd]
            _pid, status = os.waitpid(pid, 0)
            self.say("exit", n, pid, os.waitstatus_to_exitcode(status))
            return
        out.write(data)
        out.flush()
        text = self.buffers[fd] + data
        if CONNECTED in text:
            self.say("connected", n, pid)
        self.buffers[fd] = text[-len(CONNECTED) :]  # a line split between two reads

    def command(self) -> bool:
        """Read stdin; False at its end."""
        data = os.read(0, 65536)
        if not data:
            return False
        self.commands += data
        while b"\n" in self.commands:
            line, self.commands = self.commands.split(b"\n", 1)
            verb, n, log, args = json.loads(line)
            if verb == "start":
                self.start(int(n), str(log), [str(a) for a in args])
        return True

    def run(self) -> None:
        self.selector.register(0, selectors.EVENT_READ)
        while True:
            for key, _events in self.selector.select():
                if key.fd == 0:
                    if not self.command():
                        self.stop_all()
                        return
                else:
                    self.output(int(key.fd))

    def stop_all(self) -> None:
        """SIGTERM every child, SIGKILL those still there after 20 s; wait for them all."""
        self.selector.unregister(0)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for _n, pid, _out in list(self.children.values()):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
            deadline = time.monotonic() + 20.0
            while self.children and time.monotonic() < deadline:
                for key, _events in self.selector.select(timeout=1.0):
                    self.output(int(key.fd))


def main() -> None:
    _warm()
    Zygote().run()


if __name__ == "__main__":
    main()
