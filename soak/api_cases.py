"""API cases: schemathesis (from PyPI) against the running server's OpenAPI schema.

A real ``scorekeeper serve`` runs on a temporary database with a few tables (two running games
and an ended one). schemathesis reads ``/api/openapi.json`` and generates requests for every
operation: examples and boundary values from the schema, random ones, and stateful sequences
following the schema's links. Path parameters such as ``table_id`` are drawn most of the time
from the real ids, so the cases reach the handlers instead of stopping at a 404. It runs twice,
without a token (as anyone on the network) and with the organiser's token. Its only check is
``not_a_server_error``: any 5xx answer, or a request the server never answers, is counted.
schemathesis is driven through its command line; the counts come from its JSON report.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from soak.report import Row, count
from tests.api.procs import free_port, start_cli, stop, wait_http

NAME = "API cases"
BUDGET = "0"
TABLES = (
    {"game": "angels-and-demons", "seats": ["Ann", "Bea", "Cid"], "start": True},
    {
        "game": "arcanum",
        "seats": ["Ann", "Bea", "Cid", "Dan"],
        "start": True,
        "options": {"board": "sample"},
    },
    {"game": "angels-and-demons", "seats": 2, "start": True},
)
CLI = "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())"


def config(table_ids: list[str]) -> str:
    """A schemathesis.toml drawing table ids and seats from the real ones most of the time."""
    ids = json.dumps(table_ids)
    return (
        f"[dictionaries]\ntables = {{ values = {ids} }}\n"
        "seats = { values = [0, 1, 2, 3] }\n\n"
        "[parameters]\n"
        '"path.table_id" = { dictionary = "tables", probability = 0.8 }\n'
        '"path.seat" = { dictionary = "seats", probability = 0.6 }\n'
    )


def schemathesis(
    url: str,
    examples: int,
    seed: int,
    workdir: Path,
    label: str,
    headers: dict[str, str],
    progress: Callable[[str], None],
    paths: str | None = None,
) -> dict[str, Any]:
    """One schemathesis run (on the operations whose path matches the regex ``paths``, or
    all); its JSON report, or a report saying why it has none."""
    report = workdir / f"report-{label}.json"
    args = [
        sys.executable,
        "-c",
        CLI,
        "--config-file",
        str(workdir / "schemathesis.toml"),
        "run",
        f"{url}/api/openapi.json",
        "--checks",
        "not_a_server_error",
        "--max-examples",
        str(examples),
        "--seed",
        str(seed),
        "--workers",
        "2",
        "--generation-database",
        "none",
        "--no-color",
        "--request-timeout",
        "30",
        "--report",
        "json",
        "--report-json-path",
        str(report),
    ]
    for name, value in headers.items():
        args += ["-H", f"{name}: {value}"]
    if paths is not None:
        args += ["--include-path-regex", paths]
    log = workdir / f"schemathesis-{label}.log"
    began = time.monotonic()
    with open(log, "w") as out:
        proc = subprocess.Popen(args, cwd=workdir, stdout=out, stderr=subprocess.STDOUT)
        while True:
            try:
                proc.wait(timeout=15)
                break
            except subprocess.TimeoutExpired:
                progress(f"schemathesis {label}: running ({time.monotonic() - began:.0f} s)")
    if not report.exists():
        tail = log.read_text(errors="replace").strip().splitlines()[-5:]
        return {
            "missing": f"schemathesis {label} wrote no report (exit {proc.returncode}): "
            + " / ".join(tail)
        }
    data: dict[str, Any] = json.loads(report.read_text())
    return data


def tally(report: dict[str, Any], label: str) -> tuple[int, int, list[str]]:
    """(cases, server errors, problems) of one schemathesis JSON report: with
    ``not_a_server_error`` the only check, a case with a failure got a 5xx, and an errored
    case got no answer at all."""
    tested = report["test_cases"]
    bad = int(tested["with_failures"]) + int(tested["errored"])
    problems = [
        f"{label}: {json.dumps(item)[:300]}"
        for item in [*report.get("failures", [])[:3], *report.get("errors", [])[:3]]
    ]
    if bad and not problems:
        problems.append(f"{label}: {bad} cases failed (see the schemathesis log)")
    return int(tested["generated"]), bad, problems


def run(
    examples: int,
    *,
    seed: int,
    workdir: Path,
    progress: Callable[[str], None],
    paths: str | None = None,
) -> Row:
    """schemathesis with ``examples`` cases per operation, without and with the token (on the
    operations whose path matches ``paths`` when given: a quick check)."""
    from scorekeeper.service.tokens import token_file_for

    port = free_port()
    db = workdir / "sk.db"
    proc = start_cli(
        ["serve", "--port", str(port), "--db", str(db), "--log-level", "warning"], workdir
    )
    url = f"http://127.0.0.1:{port}"
    cases = errors = 0
    problems: list[str] = []
    try:
        wait_http(f"{url}/healthz", proc, timeout=30)
        token = token_file_for(db).read_text().strip()
        organiser = {"Authorization": f"Bearer {token}"}
        ids = []
        for body in TABLES:
            created = httpx.post(f"{url}/api/tables", json=body, headers=organiser, timeout=10)
            created.raise_for_status()
            ids.append(str(created.json()["id"]))
        httpx.post(
            f"{url}/api/tables/{ids[-1]}/end", headers=organiser, timeout=10
        ).raise_for_status()
        (workdir / "schemathesis.toml").write_text(config(ids))
        for label, headers in (("without a token", {}), ("with the organiser token", organiser)):
            report = schemathesis(
                url, examples, seed, workdir, label.split()[0], headers, progress, paths
            )
            if "missing" in report:
                problems.append(report["missing"])
                continue
            generated, bad, said = tally(report, label)
            cases += generated
            errors += bad
            problems += said
            alive = proc.poll() is None
            progress(
                f"{label}: {generated:,} cases, {bad} server errors"
                f"{'' if alive else ', and the server is gone'}"
            )
            if not alive:
                problems.append(
                    f"the server exited with {proc.returncode} during the cases {label}"
                )
                break
    finally:
        if proc.poll() is None:
            stop(proc, 15)
    ok = errors == 0 and not problems and cases > 0
    return Row(
        NAME,
        f"{count(cases, 'case')}, with and without the organiser token",
        f"{errors:,} server errors",
        BUDGET,
        ok,
        problems=tuple(problems[:10]),
    )
