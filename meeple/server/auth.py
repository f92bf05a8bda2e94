"""Players and sessions: argon2 password hashes, server-side sessions, seat tokens and the
log-in limits."""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from meeple.engine.i18n import words

from . import names

_, _n = words(__file__)
log = logging.getLogger("meeple.server")

COOKIE = "meeple_session"
SESSION_MAX_AGE = 30 * 24 * 3600
TOUCH_EVERY = 300.0
"""A session's last use is written at most this often (seconds)."""
MIN_PASSWORD = 8
MAX_PASSWORD = 200

# OWASP minimum for argon2id: 19 MiB, 2 passes, 1 lane (fast enough for a busy small server)
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


def check_name(name: object) -> str:
    """A valid player name (normalised), or ``ValueError`` saying what a name may be."""
    return names.check_name(name)


def name_key(name: str) -> str:
    """Names are unique regardless of case and of compatibility forms."""
    return names.name_key(name)


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(_("a password is {least} to {most} characters", least=MIN_PASSWORD,
                           most=MAX_PASSWORD))
    return password


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    if not password_hash:
        return False
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A fresh secret: seat tokens and invite codes."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """Seat tokens are stored hashed: the database alone cannot act for a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    """Sessions kept by the server: the cookie carries a random session id, the store its
    hash, its user, when it began and was last used, and whether it was ended. Logging out
    ends it for good; "log out everywhere" ends every session of the user.

    Every way a session ends goes through :meth:`end` or :meth:`end_all` (an account
    suspended or deleted too), which tell ``on_end``: the sockets opened under it close at
    once, in this process and, through Redis, in the others."""

    def __init__(self, store: SessionStore):
        self.store = store
        self.on_end: list[Callable[..., object]] = []
        """Called as ``f(id_hash=...)`` (one session) or ``f(user_id=...)`` (every session
        of a user) after sessions ended, in the thread that ended them."""

    def start(self, user_id: int) -> str:
        """A new session for ``user_id``: the cookie's value."""
        sid = secrets.token_urlsafe(32)
        self.store.add_session(token_hash(sid), user_id, time.time())
        return sid

    def load(self, cookie: str | None) -> int | None:
        """The user of a live session (``None``: no cookie, unknown, ended or too old)."""
        if not cookie or len(cookie) > 100:
            return None
        now = time.time()
        h = token_hash(cookie)
        found = self.store.session_user(h, now - SESSION_MAX_AGE)
        if found is None:
            return None
        user_id, seen = found
        if now - seen > TOUCH_EVERY:
            self.store.touch_session(h, now)
        return user_id

    def user_of(self, id_hash: str) -> int | None:
        """The user of a live session by the hash of its id (``None``: ended or too old)."""
        found = self.store.session_user(id_hash, time.time() - SESSION_MAX_AGE)
        return found[0] if found is not None else None

    def end(self, cookie: str | None) -> None:
        """End the session of ``cookie`` (its sockets close)."""
        if cookie and len(cookie) <= 100:
            h = token_hash(cookie)
            self.store.end_sessions(id_hash=h)
            self._ended(id_hash=h)

    def end_all(self, user_id: int) -> int:
        """End every session of ``user_id`` (their sockets close); how many were live."""
        n = self.store.end_sessions(user_id=user_id)
        self._ended(user_id=user_id)
        return n

    def _ended(self, **which: str | int) -> None:
        for listener in list(self.on_end):
            try:
                listener(**which)
            except Exception:
                log.exception("a listener of ended sessions failed")


class SessionStore(Protocol):
    """Where sessions are kept (the stores of ``store.py``)."""

    def add_session(self, id_hash: str, user_id: int, now: float) -> None: ...

    def session_user(self, id_hash: str, oldest: float) -> tuple[int, float] | None: ...

    def touch_session(self, id_hash: str, now: float) -> None: ...

    def end_sessions(self, *, id_hash: str | None = None,
                     user_id: int | None = None) -> int: ...


class RateLimit:
    """Failed log-ins slow down whoever fails, not the player whose name it is.

    Per (address, name) pair, ``per_name`` failures are free; after that each attempt from
    that pair must wait a delay that doubles with every further failure (1 s, 2 s, 4 s, ... at
    most ``longest``). Per address, ``per_address`` failures within ``window`` seconds (over
    any names) make it wait out the window. The owner signing in from another address is
    never held up, and a success clears the pair."""

    def __init__(self, per_name: int = 5, per_address: int = 20, window: float = 60.0,
                 longest: float = 900.0):
        self.per_name, self.per_address, self.window = per_name, per_address, window
        self.longest = longest
        self._pairs: dict[tuple[str, str], tuple[int, float]] = {}
        self._fails: dict[str, deque[float]] = defaultdict(deque)

    def _recent(self, address: str, now: float) -> deque[float]:
        q = self._fails[address]
        while q and q[0] <= now - self.window:
            q.popleft()
        return q

    def retry_after(self, name: str, address: str) -> float:
        """Seconds to wait before another attempt (0: allowed now)."""
        now = time.monotonic()
        wait = 0.0
        count, last = self._pairs.get((address, name), (0, now))
        if count >= self.per_name:
            delay = min(self.longest, 2.0 ** (count - self.per_name))
            wait = max(wait, last + delay - now)
        q = self._recent(address, now)
        if len(q) >= self.per_address:
            wait = max(wait, q[0] + self.window - now)
        return wait

    def failed(self, name: str, address: str) -> None:
        now = time.monotonic()
        count, _since = self._pairs.get((address, name), (0, now))
        self._pairs[(address, name)] = (count + 1, now)
        self._fails[address].append(now)
        if len(self._pairs) > 100_000:  # forget the oldest pairs rather than grow for ever
            for key in list(self._pairs)[:50_000]:
                del self._pairs[key]

    def succeeded(self, name: str, address: str = "") -> None:
        self._pairs.pop((address, name), None)
