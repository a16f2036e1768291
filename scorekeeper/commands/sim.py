"""Lay tags on a running table's readers from the command line, as a hand would.

For a dry run without hardware: a table on a running server (`scorekeeper serve`), a kit of
made-up tags (`scorekeeper kit fake`, or real uids typed from `scorekeeper kit show`), and a zone
layout naming the readers. Each action sends the table what its reader would report: a tag seen
on a reader, or a tag gone from it; the table then turns the reader into its zone and the tag
into its piece, and the referee judges the play, exactly as with real readers. The answer says
whether the play was accepted, and if not, why and what to do.

examples:
  scorekeeper sim tap t1 r0 FA4E0000000005      # laid on reader r0 and lifted again
  scorekeeper sim tag t1 r3 FA4E0000000005      # laid on reader r3 and left there
  scorekeeper sim lift t1 r3 FA4E0000000005     # lifted off reader r3

The connection options are those of `scorekeeper table` (--server, --token, --db).
"""

from __future__ import annotations

import argparse

from scorekeeper.commands.table import Client, _add_common, _after_verdict, with_client

HELP = "lay tags on a running table's readers (dry runs without hardware)"
ACTIONS = {
    "tag": "a tag is laid on READER and stays there",
    "lift": "a tag is lifted off READER",
    "tap": "a tag is laid on READER and lifted again at once (a quick touch)",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``scorekeeper sim tag|lift|tap TABLE READER UID``."""
    _add_common(parser, suppress=False)
    shared = argparse.ArgumentParser(add_help=False)
    _add_common(shared, suppress=True)
    sub = parser.add_subparsers(dest="sim_command", metavar="ACTION", required=True)
    for name, help_text in ACTIONS.items():
        p = sub.add_parser(name, parents=[shared], help=help_text, description=help_text)
        p.add_argument("table_id", metavar="TABLE", help="the table's id (t1, ...)")
        p.add_argument("reader", metavar="READER", help="the reader id in the table's layout")
        p.add_argument("uid", metavar="UID", help="the tag's uid (see 'scorekeeper kit show')")
        p.add_argument("--json", action="store_true", help="print the server's JSON answer")


def _inputs(action: str, reader: str, uid: str) -> list[str]:
    """The reader reports (``tag +READER UID`` lines) that ``action`` stands for."""
    laid, lifted = f"tag +{reader} {uid}", f"tag -{reader} {uid}"
    return {"tag": [laid], "lift": [lifted], "tap": [laid, lifted]}[action]


def run(args: argparse.Namespace) -> int:
    """Send the reader reports to the table; the exit code of the last verdict (0 accepted)."""

    def send(client: Client) -> int:
        code = 0
        for line in _inputs(args.sim_command, args.reader, args.uid):
            verdict = client.call("POST", f"/api/tables/{args.table_id}/inputs", {"input": line})
            code = _after_verdict(client, args, verdict)
            if code:
                break  # a refused laying is not followed by its lifting
        return code

    return with_client(args, "sim", send)
