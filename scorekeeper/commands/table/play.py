"""Inputs at a running table from ``scorekeeper table``: force-feed an input, answer a prompt,
and undo or correct the last accepted input after showing what it takes back (and asking).

An undo or correction is previewed first and sent with the previewed input's seq, so the server
refuses it if the table moved on in between.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from scorekeeper.commands.table.client import Client, ConsoleError
from scorekeeper.commands.table.show import (
    _print_json,
    _print_verdict,
    _refusal_lines,
    _seat_scores,
)


def _after_verdict(client: Client, args: argparse.Namespace, verdict: dict[str, Any]) -> int:
    if args.json:
        _print_json(verdict)
        return 0 if verdict.get("accepted") else 1
    code = _print_verdict(verdict)
    try:
        view = client.call("GET", f"/api/tables/{args.table_id}", organiser=False)
    except ConsoleError:
        return code
    put_back = view.get("put_back")
    if (
        verdict.get("accepted")
        and isinstance(put_back, dict)
        and put_back.get("seq") == verdict.get("seq")
    ):
        print(f"at the table: {put_back.get('text')}")
    if view.get("waiting_for"):
        print(f"now waiting for: {view['waiting_for']}")
    return code


def _confirm(args: argparse.Namespace, preview: dict[str, Any]) -> int | None:
    """Show what the previewed undo or correction would take back and ask; the seq to send,
    or None when it is not confirmed (or would be refused: the refusal is printed)."""
    action = preview.get("action", "undo")
    seq = preview.get("input_seq")
    out = sys.stderr if args.json else sys.stdout  # --json prints only the server's answer

    def say(text: str) -> None:
        print(text, file=out)

    if not preview.get("accepted") or seq is None:
        lines = _refusal_lines(preview.get("rejection") or {}, "  ")
        say(f"nothing to {action}:" if seq is None else f"the {action} would be refused:")
        say("\n".join(lines))
        return None
    words = preview.get("words") or preview.get("input")
    if action == "undo":
        say(f"undo would take back #{seq}: {words}")
    else:
        say(f"the correction would replace #{seq}: {words}")
        say(f"  with: {preview.get('replacement_words') or preview.get('replacement')}")
    seats = preview.get("seats", [])
    for when, key in (("scores now", "scores_before"), ("afterwards", "scores_after")):
        scores = preview.get(key)  # None: the game keeps its scores to the end
        say(f"  {when}: {_seat_scores(seats, scores, scores is None)}")
    if args.yes:
        return int(seq)
    if not sys.stdin.isatty():
        raise ConsoleError(
            f"not confirmed: there is no terminal to ask on; add --yes to "
            f"{action} #{seq} without asking",
            2,
        )
    answer = input(f"{action} #{seq}? [y/N] ").strip().lower()
    if answer in ("y", "yes"):
        return int(seq)
    say("nothing changed")
    return None


def _undo(client: Client, args: argparse.Namespace) -> int:
    path = f"/api/tables/{args.table_id}"
    seq = _confirm(args, client.call("GET", f"{path}/undo-preview"))
    if seq is None:
        return 1
    verdict = client.call("POST", f"{path}/undo", {"seq": seq})
    return _after_verdict(client, args, verdict)


def _input(client: Client, args: argparse.Namespace) -> int:
    line = " ".join(args.line).strip()
    path = f"/api/tables/{args.table_id}"
    if args.table_command == "input":
        return _after_verdict(client, args, client.call("POST", f"{path}/inputs", {"input": line}))
    seq = _confirm(args, client.call("POST", f"{path}/correct-preview", {"input": line}))
    if seq is None:
        return 1
    verdict = client.call("POST", f"{path}/correct", {"input": line, "seq": seq})
    return _after_verdict(client, args, verdict)


def _decide(client: Client, args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"prompt": args.prompt, "answer": args.answer}
    if args.who is not None:
        body["seat"] = args.who
    verdict = client.call("POST", f"/api/tables/{args.table_id}/decisions", body)
    return _after_verdict(client, args, verdict)
