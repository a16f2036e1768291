"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core CI machine must not turn slowness into a
failure; speed is measured by ``make bench``), and under CI a derandomized run, so a submission
is judged on the same examples every time; locally each run explores new ones.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
