"""Run a Hub's web application under uvicorn (shared by ``serve`` and ``demo``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import FrameType

from scorekeeper.service.hub import Hub


def run_server(hub: Hub, host: str, port: int, log_level: str = "info",
               on_shutdown: Sequence[Callable[[], None]] = ()) -> None:
    """Serve ``hub`` on ``host:port`` until SIGINT/SIGTERM; returns after a clean shutdown.

    ``on_shutdown`` callbacks run while the application shuts down. A Ctrl-C is a normal way
    to stop, so it is not re-raised as KeyboardInterrupt (``scorekeeper`` then exits 0).
    """
    import uvicorn

    from scorekeeper.api.app import create_app

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            self._captured_signals.clear()  # stopped on purpose: do not re-raise the signal

    app = create_app(hub, on_shutdown=on_shutdown)
    config = uvicorn.Config(app, host=host, port=port, log_config=None,
                            log_level=log_level.lower(), access_log=True, lifespan="on",
                            ws="websockets-sansio", ws_per_message_deflate=False,
                            server_header=False)
    _Server(config).run()
