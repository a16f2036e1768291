"""Table scripts: YAML files that replay a physical game and check it (docs/table-scripts.md).

``load_script(path) -> Script`` checks a script and raises ``ScriptError`` (with the file and
line) on anything invalid; ``run_script(script) -> ScriptResult`` plays it through a real
``Table`` without a log and reports every expectation that does not hold. The parser lives
in ``script_parse``, the matchers in ``script_match``, the runner in ``script_run``;
this module is the one to import.
"""

from __future__ import annotations

from scorekeeper.core.script_match import Matcher, MatcherError, compile_matcher, resolve
from scorekeeper.core.script_parse import (
    Check,
    GameFinder,
    Script,
    Step,
    load_script,
    parse_script,
)
from scorekeeper.core.script_run import Failure, ScriptResult, StepTrace, run_script, winners

__all__ = [
    "Check",
    "Failure",
    "GameFinder",
    "Matcher",
    "MatcherError",
    "Script",
    "ScriptResult",
    "Step",
    "StepTrace",
    "compile_matcher",
    "load_script",
    "parse_script",
    "resolve",
    "run_script",
    "winners",
]
