"""Where a phone finds the server: the address it should open and that address as a QR code.

The pairing route (``routes/pairing.py``) shows a code with a link and a QR code only for an
address the server listens on and a phone can reach; otherwise a hint in plain words says how
to serve on the network.
"""

from __future__ import annotations


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG drawing (black modules on white) for a phone to scan."""
    import segno

    return str(segno.make(text, error="m").svg_inline(scale=6, border=2, dark="#000", light="#fff"))


LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def lan_address() -> str | None:
    """This machine's address on the local network (the one a phone on the same Wi-Fi can
    reach), or None. No packet is sent: connecting a UDP socket only picks the route."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


SERVE_ON_NETWORK = (
    "The server listens on {host} only, so no phone can open it. To pair "
    "phones, serve on the network: 'make demo DEMO_ARGS=\"--host 0.0.0.0\"' "
    "or 'scorekeeper serve --host 0.0.0.0' (then open the page at this "
    "computer's network address). The code still pairs a browser on this "
    "computer."
)
NO_NETWORK = (
    "This computer has no network address a phone could reach (is it on the Wi-Fi?). "
    "The code still pairs a browser on this computer."
)


def phone_address(
    listen: tuple[str, int] | None, base_url: str, lan: str | None = None
) -> tuple[str | None, str | None]:
    """(the address a phone should open, or None; a hint in plain words when there is none).

    ``listen`` is where the server listens (None: unknown, then as ``phone_base``): bound to
    every address (0.0.0.0, ::) the LAN address; bound to one non-loopback address that
    address; bound to loopback only, none (no phone can reach it)."""
    if listen is None:
        return phone_base(base_url, lan), None
    host, port = listen
    host = host.strip("[]")
    if host in ("", "0.0.0.0", "::"):
        base = phone_base(base_url, lan)
        if urlsplit_host(base) in LOOPBACK:
            return None, NO_NETWORK
        return base, None
    if host in LOOPBACK or host.startswith("127."):
        return None, SERVE_ON_NETWORK.format(host=host)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}", None


def urlsplit_host(url: str) -> str | None:
    """The host name of ``url`` (lower case), or None."""
    from urllib.parse import urlsplit

    return urlsplit(url).hostname


def phone_base(base_url: str, lan: str | None = None) -> str:
    """The address a phone should open: ``base_url`` unless it names this machine by loopback,
    then the same port at the LAN address (a phone cannot reach the server's ``localhost``).
    Hazard: a server bound to 127.0.0.1 only is not reachable from a phone at all (serve with
    --host 0.0.0.0; docs/dashboard.md says so)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(base_url.rstrip("/"))
    if parts.hostname not in LOOPBACK:
        return base_url.rstrip("/")
    lan = lan or lan_address()
    if lan is None:
        return base_url.rstrip("/")
    netloc = f"{lan}:{parts.port}" if parts.port else lan
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
