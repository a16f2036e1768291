"""The API's routes, one router per area; ``api/app.py``'s ``create_app`` includes them.

Each module's ``routes(hub)`` returns an APIRouter whose handlers close over the hub. Every
route declares its audience with a dependency from ``api/auth.py`` (on the route, or on the
router when all of its routes share one); ``tests/api/test_audience_sweep.py`` checks them.
Handlers are plain ``def`` functions: FastAPI runs them in its thread pool, so a log append
(an fsync) never blocks the event loop.
"""
