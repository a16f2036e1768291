"""Run table scripts headless and check their expectations.

Each FILE is a table script (YAML; the format is in docs/table-scripts.md): a game, its options
and seats, then the sightings, decisions and corrections of a physical game with expect:
checkpoints. Every script is played on a fresh table with no log, and the final public state
and scores are printed (as JSON with --json).

exit status:
  0  every script is valid and every expectation holds
  1  an expectation failed (the file, line and step are printed, with what differed)
  2  a script is invalid: bad YAML, unknown game, bad options or an unreadable step (the file
     and line are printed); this wins over 1 when several files are given

Files whose name starts with ``_`` are include fragments (steps shared by scripts, not scripts
themselves): they are skipped, with one line on stderr, so ``replay tests/scripts/*/*.yaml``
runs every script.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from scorekeeper.core.script import ScriptResult, load_script, run_script
from scorekeeper.errors import ScriptError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the ``replay`` arguments."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="table script(s) to run")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the result as JSON: one object per file (a list when several files are given)",
    )
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="also print every step as it is played, with the referee's events and refusals",
    )


def _invalid_dict(path: str, exc: ScriptError) -> dict[str, Any]:
    return {
        "file": path,
        "valid": False,
        "ok": False,
        "error": {"message": exc.message, "line": exc.line, "text": str(exc)},
    }


def _print_summary(result: ScriptResult, verbose: bool, out: TextIO) -> None:
    script = result.script
    title = f" — {script.title}" if script.title else ""
    status = "ok" if result.ok else f"FAILED ({len(result.failures)})"
    print(f"{script.path}{title}: {status}", file=out)
    if verbose:
        for t in result.trace:
            mark = "  " if t.ok else "✗ "
            if t.kind == "note":
                print(f"  {mark}{t.line:>4}  # {t.text}", file=out)
                continue
            if t.kind == "expect":
                print(f"  {mark}{t.line:>4}  expect {'ok' if t.ok else 'FAILED'}", file=out)
                continue
            verdict = "accepted" if t.accepted else "refused"
            if t.rejection:
                verdict += f" {t.rejection['rule']}: {t.rejection['reason']}"
            print(f"  {mark}{t.line:>4}  {t.text:<28} {verdict}", file=out)
            for event in t.events:
                print(f"  {'':>6}    · {event}", file=out)
    seats = script.seats
    scores = ", ".join(f"{name} {score}" for name, score in zip(seats, result.scores, strict=False))
    if result.view.get("scores_private"):  # a game that shows its scores only once over
        scores = "at the end"
    print(f"  scores: {scores}", file=out)
    state = "over" if result.over else "not over"
    names = ", ".join(seats[w] for w in result.winners) or "none yet"
    print(f"  game {state}; winners: {names}", file=out)
    waiting = result.view.get("waiting_for")
    if waiting and not result.over:
        print(f"  waiting for: {waiting}", file=out)
    if result.stopped:
        print(f"  stopped after step {result.steps_run} of {len(script.steps)}", file=out)
    for failure in result.failures:
        print(f"  {failure.describe(script.path)}", file=out)


def is_fragment(path: str) -> bool:
    """Whether ``path`` names an include fragment (``_setup-3p.yaml``) rather than a script."""
    return Path(path).name.startswith("_")


def run(args: argparse.Namespace) -> int:
    """Run every file; the exit status is the worst of them (2 invalid > 1 failed > 0)."""
    code = EXIT_OK
    records: list[dict[str, Any]] = []
    # Fragments come along with shell globs; they are steps for include:, not whole games.
    fragments = [p for p in args.files if is_fragment(p)]
    files = [p for p in args.files if not is_fragment(p)]
    if fragments:
        names = ", ".join(Path(p).name for p in fragments[:3])
        more = f" and {len(fragments) - 3} more" if len(fragments) > 3 else ""
        print(
            f"skipped {len(fragments)} include fragment(s) (names starting with _, used by "
            f"include: steps): {names}{more}",
            file=sys.stderr,
        )
    if not files:
        print(
            "no table script to run: every file given is an include fragment; give the "
            "scripts that include them",
            file=sys.stderr,
        )
        return EXIT_INVALID
    for path in files:
        try:
            script = load_script(path)
        except ScriptError as exc:
            code = EXIT_INVALID
            if args.json:
                records.append(_invalid_dict(path, exc))
            else:
                print(f"{path}: INVALID (not run)")
                print(f"  {exc}")
            continue
        result = run_script(script)
        if not result.ok and code == EXIT_OK:
            code = EXIT_FAILED
        if args.json:
            record = result.to_dict()
            if args.verbose:
                record["trace"] = [
                    {
                        "step": t.step,
                        "line": t.line,
                        "kind": t.kind,
                        "text": t.text,
                        "accepted": t.accepted,
                        "events": list(t.events),
                        "rejection": t.rejection,
                        "ok": t.ok,
                    }
                    for t in result.trace
                ]
            records.append(record)
        else:
            _print_summary(result, args.verbose, sys.stdout)
    if args.json:
        payload: Any = records[0] if len(files) == 1 else records
        json.dump(payload, sys.stdout, indent=2, ensure_ascii=False, default=str)
        print()
    return code
