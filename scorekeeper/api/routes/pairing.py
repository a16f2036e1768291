"""Pairing: a phone exchanges a short code for its seat's token; the organiser shows codes
and withdraws a seat's tokens.

- ``POST /api/tables/{id}/seats/{seat}/pair`` (organiser): a single-use code, with a link and
  a QR code when a phone can reach the server (``api/phone.py``).
- ``DELETE /api/tables/{id}/seats/{seat}/tokens`` (organiser): a lost phone's tokens.
- ``POST /api/pair`` (anyone: the code is the credential): a code for a seat token; too many
  wrong codes get 429 with Retry-After.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from scorekeeper.api.auth import ORGANISER as ORGANISER_ONLY
from scorekeeper.api.phone import phone_address, qr_svg
from scorekeeper.api.routes.tables import no_seat
from scorekeeper.service.hub import Hub


class PairBody(BaseModel):
    """Body of ``POST /api/pair``."""

    code: str = Field(max_length=32)


def routes(hub: Hub) -> APIRouter:
    """The pairing routes on ``hub``; each declares its audience (``api/auth.py``)."""
    router = APIRouter()

    @router.post("/api/tables/{table_id}/seats/{seat}/pair", dependencies=[ORGANISER_ONLY])
    def pairing_code(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        """Organiser: a short single-use code a phone exchanges for this seat's token."""
        seats = hub.config(table_id).seats
        if not 0 <= seat < len(seats):
            raise no_seat(table_id, seat, hub)
        code, ttl = hub.tokens.pairing_code(table_id, seat)
        # A QR code only for an address the server listens on and a phone can open; else
        # ``hint`` says how to serve on the network.
        base, hint = phone_address(hub.listen, str(request.base_url))
        url = f"{base}/?pair={code}" if base else None
        return {
            "code": code,
            "expires_in": ttl,
            "table": table_id,
            "seat": seat,
            "seat_name": seats[seat],
            "pair_url": f"/?pair={code}",
            "url": url,
            "qr_svg": qr_svg(url) if url else None,
            "hint": hint,
        }

    @router.delete("/api/tables/{table_id}/seats/{seat}/tokens", dependencies=[ORGANISER_ONLY])
    def unpair(table_id: str, seat: int) -> dict[str, Any]:
        """Organiser: withdraw every token paired with this seat (a lost phone) and every
        pairing code shown for it and not yet used."""
        tokens, codes = hub.tokens.unpair(table_id, seat)
        return {"revoked": tokens, "codes_revoked": codes}

    @router.post("/api/pair")
    def pair(body: PairBody, request: Request) -> dict[str, Any]:
        """Exchange a pairing code for a seat token (no other token needed). Too many wrong
        codes from one address (or from all) in a minute: 429 with Retry-After, and no code is
        looked at until then."""
        client = request.client.host if request.client is not None else ""
        token, who = hub.tokens.redeem(body.code, client)
        assert who.table is not None and who.seat is not None
        return {
            "token": token,
            "table": who.table,
            "seat": who.seat,
            "seat_name": hub.config(who.table).seats[who.seat],
        }

    return router
