"""Who may see what: the organiser token, seat tokens and short-lived pairing codes.

Tokens are random, shown once to the person who gets them, and kept in the Store only as
SHA-256 hashes (the organiser's in meta, seat tokens in their own table), so a copy of the
database does not hand out the organiser's powers. Pairing codes are short (easy to type from
the TV or read from a QR code), single use, expire after a few minutes and live only in memory:
a restart simply means asking the organiser for a new code.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from scorekeeper.errors import AuthError, NotFound
from scorekeeper.store.durable import fsync_folder

log = logging.getLogger("scorekeeper.tokens")

ORGANISER_META = "organiser-token-sha256"
PAIR_SECONDS = 600
PAIR_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud from a TV
PAIR_LENGTH = 6
# Wrong pairing codes: a client (one address) that typed MAX_FAILED_PER_CLIENT wrong codes in
# the last PAIR_WINDOW seconds has no code evaluated at all (a right one neither) until the
# oldest of them is a window old; MAX_FAILED_PAIRS wrong codes from all clients together stop
# every client the same way (a guesser that changes address). A table's six phones mistyping
# stay far below both; a guesser gets at most 30 tries a minute against 32**6 codes.
PAIR_WINDOW = 60.0
MAX_FAILED_PER_CLIENT = 5
MAX_FAILED_PAIRS = 30


class TokenStore(Protocol):
    """The Store methods tokens need (scorekeeper/store/rows.py and settings.py)."""

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def add_seat_token(self, digest: str, table_id: str, seat: int) -> None: ...

    def seat_token(self, digest: str) -> tuple[str, int, bool] | None: ...

    def revoke_seat_tokens(self, table_id: str, seat: int) -> list[str]: ...


class Unauthenticated(AuthError):
    """No token, or a token this server does not know (HTTP 401)."""


class Forbidden(AuthError):
    """A known token that does not give access to this (HTTP 403)."""


class TooManyTries(AuthError):
    """Pairing codes are not evaluated for a while: too many wrong ones (HTTP 429).

    ``retry_after`` is how many whole seconds are left; ``everyone`` is True when the ceiling
    over all clients was reached, not this client's own limit."""

    def __init__(self, retry_after: int, everyone: bool = False) -> None:
        self.retry_after = retry_after
        self.everyone = everyone
        wait = f"{retry_after} second{'' if retry_after == 1 else 's'}"
        if everyone:
            text = (
                f"Too many wrong codes on this server in the last minute: wait {wait}, "
                "then type the code again"
            )
        else:
            text = f"Too many wrong codes from this phone: wait {wait}, then type the code again"
        super().__init__(text)


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a token belongs to: the organiser, or one seat at one table."""

    organiser: bool
    table: str | None = None
    seat: int | None = None

    def describe(self) -> str:
        return "the organiser" if self.organiser else f"seat {self.seat} at table {self.table}"


ORGANISER_IDENTITY = Identity(True)


def credential(token: str) -> str:
    """The hash a token is kept under: what a connection made with it is filed by, so that
    withdrawing the token finds the connection (``Tokens.on_revoke``)."""
    return _hash(token)


def _hash(token: str) -> str:
    """The form a token is kept and looked up in (its SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def write_secret_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only (mode 0600), replacing it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    fsync_folder(path.parent)  # the new name is durable too (a cut must not bring the old back)


class Tokens:
    """Issues and checks tokens. Thread-safe; every Store call goes through ``store_lock``."""

    def __init__(
        self,
        store: TokenStore,
        store_lock: threading.RLock,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._store_lock = store_lock
        self._clock = clock
        self._lock = threading.Lock()
        self._codes: dict[str, tuple[str, int, float]] = {}  # code -> table, seat, expiry
        # Times of wrong pairing codes in the last window: per client address, and all of them.
        self._failures: dict[str, deque[float]] = {}
        self._all_failures: deque[float] = deque()
        # Called with the hashes of withdrawn seat tokens (after they are marked in the store),
        # so whoever holds connections authenticated with them can close them.
        self.on_revoke: Callable[[Iterable[str]], object] | None = None
        # The file the organiser token is saved in (its name goes into the organiser routes'
        # refusals: the folder is a server path, and no answer over HTTP names one).
        self.token_file: Path | None = None

    def _get(self, key: str) -> str | None:
        with self._store_lock:
            value = self._store.get_meta(key)
        return None if value is None else str(value)

    def _set(self, key: str, value: str) -> None:
        with self._store_lock:
            self._store.set_meta(key, value)

    # -- organiser -----------------------------------------------------------------------------

    def has_organiser_token(self) -> bool:
        """True once an organiser token has been created for this database."""
        return bool(self._get(ORGANISER_META))

    def new_organiser_token(self, token_file: Path | None = None) -> str:
        """Create (or replace) the organiser token; returns it. Only its hash is stored.

        With ``token_file`` the token is also written there with mode 0600, so the person who
        started the server can find it again; the old token stops working at once.
        """
        token = secrets.token_urlsafe(24)
        old = self._get(ORGANISER_META)
        if token_file is not None:
            # The file first, durably: a crash between the two then leaves a file whose token
            # the next start adopts (``ensure_organiser_token``), never a stored hash of a
            # token nobody has.
            write_secret_file(token_file, token + "\n")
        self._set(ORGANISER_META, _hash(token))
        if old and self.on_revoke is not None:  # its open connections end with it
            self.on_revoke([old])
        return token

    def ensure_organiser_token(self, token_file: Path | None = None) -> str | None:
        """Create the organiser token on first start; returns it then, None when it existed.

        The token file is what the organiser holds, so it wins: a token file already there is
        never written over, and a store whose stored hash is missing or another (a database
        started afresh on purpose or put back from a backup, a replacement cut short by a
        crash) takes the token the file holds, so the organiser's saved token, consoles and
        scripts keep working. Only ``new_organiser_token`` replaces a token.
        """
        kept = _read_token_file(token_file)
        stored = self._get(ORGANISER_META)
        if kept is not None:
            if stored != _hash(kept):
                if stored:  # a replacement cut short, or a database put back from a backup
                    log.warning(
                        "organiser token taken from its file", extra={"file": str(token_file)}
                    )
                self._set(ORGANISER_META, _hash(kept))
            return None
        if stored:
            return None
        return self.new_organiser_token(token_file)

    # -- identities ----------------------------------------------------------------------------

    def identify(self, token: str | None) -> Identity:
        """Who ``token`` belongs to; raises Unauthenticated when missing, unknown or revoked."""
        if not token:
            raise Unauthenticated(
                "this needs a token: send 'Authorization: Bearer <token>' or add ?token=<token>. "
                "The organiser token was printed when the server first started (and saved in "
                "the organiser-token file next to the database); a phone gets a seat token by "
                "pairing with the code the organiser shows."
            )
        digest = _hash(token)
        stored = self._get(ORGANISER_META)
        if stored and hmac.compare_digest(stored, digest):
            return ORGANISER_IDENTITY
        with self._store_lock:
            seat_token = self._store.seat_token(digest)
        if seat_token is not None:
            table_id, seat, revoked = seat_token
            if not revoked:
                return Identity(False, table_id, seat)
            raise Unauthenticated(
                "this seat token was withdrawn by the organiser: pair the "
                "phone again with a new code"
            )
        raise Unauthenticated(
            "this token is not known here: check you copied it whole, or "
            "ask the organiser for a new pairing code"
        )

    def _organiser_words(self) -> str:
        """Where the organiser finds the organiser token, in plain words."""
        name = self.token_file.name if self.token_file is not None else "organiser-token"
        return (
            f"the organiser token was printed when the server first started and is saved "
            f"in the file {name} next to the server's database (a lost one is replaced "
            "with 'scorekeeper serve --new-organiser-token')"
        )

    def require_organiser(self, token: str | None) -> Identity:
        """The organiser's identity, or Unauthenticated/Forbidden with what to do instead.

        The refusals say what an organiser needs (the organiser token and where it is kept),
        never "ask the organiser for a pairing code": that is for phones on seat routes."""
        if not token:
            raise Unauthenticated(
                "this is for the organiser: send the organiser token "
                "('Authorization: Bearer <token>' or ?token=<token>); " + self._organiser_words()
            )
        try:
            who = self.identify(token)
        except Unauthenticated:
            raise Unauthenticated(
                "this token is not known here as the organiser token: "
                "check you copied it whole; " + self._organiser_words()
            ) from None
        if not who.organiser:
            raise Forbidden(
                f"this is a seat token ({who.describe()}); only the organiser "
                "can do this: use the organiser token"
            )
        return who

    def require_seat(self, token: str | None, table_id: str, seat: int) -> Identity:
        """The organiser's or that seat's identity; Forbidden for any other seat's token."""
        who = self.identify(token)
        if who.organiser or (who.table == table_id and who.seat == seat):
            return who
        raise Forbidden(
            f"this token belongs to {who.describe()}, not to seat {seat} at "
            f"table {table_id}: each phone sees only its own seat"
        )

    # -- pairing -------------------------------------------------------------------------------

    def pairing_code(self, table_id: str, seat: int) -> tuple[str, int]:
        """A fresh single-use code for ``seat``; returns it and its lifetime in seconds."""
        now = self._clock()
        with self._lock:
            self._codes = {c: v for c, v in self._codes.items() if v[2] > now}
            while True:
                code = "".join(secrets.choice(PAIR_ALPHABET) for _ in range(PAIR_LENGTH))
                if code not in self._codes:
                    break
            self._codes[code] = (table_id, seat, now + PAIR_SECONDS)
        return code, PAIR_SECONDS

    def redeem(self, code: str, client: str = "") -> tuple[str, Identity]:
        """Exchange a pairing code for a new seat token; raises Unauthenticated when invalid.

        ``client`` is who asks (the request's address). A client with too many wrong codes in
        the last window, or anyone once the server-wide ceiling is reached, gets TooManyTries
        and the code is not even looked at: a right code stays unused until the wait is over.
        """
        code = "".join(ch for ch in code.upper() if ch.isalnum())
        now = self._clock()
        with self._lock:
            self._check_tries(client, now)
            entry = self._codes.pop(code, None)
            if entry is None or entry[2] <= now:
                self._failures.setdefault(client, deque()).append(now)
                self._all_failures.append(now)
                raise Unauthenticated(
                    "this pairing code is unknown, used or expired: ask the "
                    "organiser to show a new one"
                )
        table_id, seat, _ = entry
        token = secrets.token_urlsafe(24)
        try:
            with self._store_lock:
                self._store.add_seat_token(_hash(token), table_id, seat)
        except NotFound:  # deleted since the code was shown
            raise Unauthenticated(
                f"table {table_id} is no longer on this server: ask the organiser which "
                "table to pair with"
            ) from None
        return token, Identity(False, table_id, seat)

    def _check_tries(self, client: str, now: float) -> None:
        """Raise TooManyTries when ``client`` (or everyone) may not try a code now; forget
        wrong codes older than the window. Call with ``_lock`` held."""
        start = now - PAIR_WINDOW
        everyone = self._all_failures
        while everyone and everyone[0] <= start:
            everyone.popleft()
        for who in list(self._failures):
            times = self._failures[who]
            while times and times[0] <= start:
                times.popleft()
            if not times:
                del self._failures[who]
        mine = self._failures.get(client)
        if mine is not None and len(mine) >= MAX_FAILED_PER_CLIENT:
            raise TooManyTries(_seconds_left(mine[-MAX_FAILED_PER_CLIENT] - start))
        if len(everyone) >= MAX_FAILED_PAIRS:
            raise TooManyTries(_seconds_left(everyone[-MAX_FAILED_PAIRS] - start), True)

    def revoke_codes(self, table_id: str, seat: int | None = None) -> int:
        """Forget the pairing codes not yet redeemed for ``seat`` (every seat: None) of a
        table; returns how many there were."""
        with self._lock:
            dead = [
                c
                for c, (t, s, _) in self._codes.items()
                if t == table_id and (seat is None or s == seat)
            ]
            for code in dead:
                del self._codes[code]
        return len(dead)

    def unpair(self, table_id: str, seat: int) -> tuple[int, int]:
        """Withdraw every token paired with ``seat`` and every code shown for it and not yet
        redeemed; returns (tokens, codes) withdrawn. NotFound when there was neither."""
        codes = self.revoke_codes(table_id, seat)
        with self._store_lock:
            hashes = self._store.revoke_seat_tokens(table_id, seat)
        if not hashes and not codes:
            raise NotFound(f"no phone is paired with seat {seat} at table {table_id}")
        # Only now: a connection that checks its token again after this sees it withdrawn.
        if hashes and self.on_revoke is not None:
            self.on_revoke(hashes)
        return len(hashes), codes

    def revoke_seat(self, table_id: str, seat: int) -> int:
        """``unpair``, returning only how many tokens were withdrawn."""
        return self.unpair(table_id, seat)[0]


def _seconds_left(left: float) -> int:
    """A wait in whole seconds, never 0 (a client told 0 would try again at once)."""
    return max(1, math.ceil(left))


def _read_token_file(path: Path | None) -> str | None:
    """The token saved in ``path``, or None when there is no such file or it holds none."""
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if len(text) >= 16 and text.isprintable() and " " not in text else None


def token_file_for(db: Path) -> Path:
    """Where the organiser token of database ``db`` is written (mode 0600).

    ``var/scorekeeper.db`` -> ``var/organiser-token``; any other database gets its own file
    (``var/demo.db`` -> ``var/demo.organiser-token``) so two servers never overwrite each other's.
    """
    if db.stem == "scorekeeper":
        return db.with_name("organiser-token")
    return db.with_name(f"{db.stem}.organiser-token")
