"""A table's life from ``scorekeeper table``: start, pause and end it, archive and delete it,
and pair or unpair a seat's phone.

Deleting asks first (``--yes`` without a terminal): it takes the table's whole log.
"""

from __future__ import annotations

import argparse
import sys

from scorekeeper.commands.table.client import Client, ConsoleError
from scorekeeper.commands.table.show import _print_json, _print_summary
from scorekeeper.core.text import plural


def _status(client: Client, args: argparse.Namespace) -> int:
    action = args.table_command
    row = client.call("POST", f"/api/tables/{args.table_id}/{action}")
    if args.json:
        _print_json(row)
        return 0
    _print_summary(row)
    if action == "end":
        print(
            f"export it: curl -H 'Authorization: Bearer ...' {client.server}/api/tables/"
            f"{args.table_id}/export, or scorekeeper export {args.table_id} --organiser"
        )
    return 0


def _pair(client: Client, args: argparse.Namespace) -> int:
    answer = client.call("POST", f"/api/tables/{args.table_id}/seats/{args.seat}/pair")
    if args.json:
        _print_json(answer)
        return 0
    minutes = int(answer.get("expires_in", 600)) // 60
    url = answer.get("url") or (
        f"{client.server}{answer.get('pair_url') or '/?pair=' + answer['code']}"
    )
    print(
        f"pairing code for seat {answer.get('seat')} ({answer.get('seat_name')}) of "
        f"{answer.get('table')}: {answer['code']}"
    )
    print(f"open on the phone: {url}")
    print(f"single use, expires in {minutes} min")
    host = client.server.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    if answer.get("hint"):  # the server listens where no phone can reach it
        print(f"note: {answer['hint']}")
    elif not answer.get("url") and host in ("127.0.0.1", "localhost", "[::1]"):
        print(
            f"note: a phone cannot open {host}; run the server with --host 0.0.0.0 and use "
            "the Pi's LAN address in --server (e.g. http://192.168.1.20:8000)"
        )
    return 0


def _unpair(client: Client, args: argparse.Namespace) -> int:
    answer = client.call("DELETE", f"/api/tables/{args.table_id}/seats/{args.seat}/tokens")
    print(
        f"withdrew {plural(int(answer.get('revoked', 0)), 'token')} and "
        f"{plural(int(answer.get('codes_revoked', 0)), 'unused pairing code')} of seat "
        f"{args.seat} of {args.table_id}; pair the new phone "
        f"with: scorekeeper table pair {args.table_id} {args.seat}"
    )
    return 0


def _archive(client: Client, args: argparse.Namespace) -> int:
    archived = args.table_command == "archive"
    row = client.call("POST", f"/api/tables/{args.table_id}/archive", {"archived": archived})
    if args.json:
        _print_json(row)
        return 0
    _print_summary(row)
    print(
        f"archived: hidden from 'table list' (see it with 'table list --archived'); its log "
        f"stays: scorekeeper export {args.table_id} --organiser"
        if archived
        else "listed again"
    )
    return 0


def _delete(client: Client, args: argparse.Namespace) -> int:
    if not args.yes:
        if not sys.stdin.isatty():
            raise ConsoleError(
                "not confirmed: there is no terminal to ask on; add --yes to "
                f"delete {args.table_id} and its log for good",
                2,
            )
        answer = input(f"delete {args.table_id} and its whole log for good? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing changed")
            return 1
    done = client.call("DELETE", f"/api/tables/{args.table_id}")
    if args.json:
        _print_json(done)
        return 0
    print(f"deleted table {args.table_id} and its {done.get('records', 0)} log records")
    return 0
