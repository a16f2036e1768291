"""The web face of a Hub: FastAPI routes, WebSocket push and the plain page (``create_app``)."""

from scorekeeper.api.app import Settings, create_app

__all__ = ["Settings", "create_app"]
