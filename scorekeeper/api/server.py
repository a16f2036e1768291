"""Run a Hub's web application under uvicorn (shared by ``serve`` and ``demo``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import FrameType

from scorekeeper.errors import ConfigError
from scorekeeper.service.hub import Hub


def ensure_port_free(host: str, port: int) -> None:
    """Refuse to start, before anything is opened or printed, when ``host:port`` is taken."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # The same option uvicorn sets: a port in TIME_WAIT is free, one being listened on is not.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            raise ConfigError(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}. Is another scorekeeper "
                "(or another program) using it? Stop it, or choose another port with --port"
            ) from None


def run_server(
    hub: Hub,
    host: str,
    port: int,
    log_level: str = "info",
    on_shutdown: Sequence[Callable[[], None]] = (),
    on_tick: Callable[[], None] | None = None,
    on_exit: Callable[[], None] | None = None,
) -> None:
    """Serve ``hub`` on ``host:port`` until SIGINT/SIGTERM; returns after a clean shutdown.

    ``on_shutdown`` callbacks run while the application shuts down. A Ctrl-C is a normal way
    to stop, so it is not re-raised as KeyboardInterrupt (``scorekeeper`` then exits 0).
    ``on_tick`` is called on the event loop at every tick of uvicorn's main loop (every 0.1 s:
    the systemd watchdog's proof that the loop is responsive; it must be trivial). ``on_exit``
    is called from the signal handler when a stop begins (systemd's STOPPING=1).
    """
    import uvicorn

    from scorekeeper.api.app import create_app

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            self._captured_signals.clear()  # stopped on purpose: do not re-raise the signal
            if on_exit is not None:
                on_exit()

        async def on_tick(self, counter: int) -> bool:
            if on_tick is not None:
                on_tick()
            return await super().on_tick(counter)

    app = create_app(hub, on_shutdown=on_shutdown)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        log_level=log_level.lower(),
        access_log=True,
        lifespan="on",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        server_header=False,
    )
    _Server(config).run()
