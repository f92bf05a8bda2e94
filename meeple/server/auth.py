"""Players and sessions: argon2 password hashes, signed session cookies, seat tokens and the
log-in rate limit."""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import defaultdict, deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer

COOKIE = "meeple_session"
SESSION_MAX_AGE = 30 * 24 * 3600
NAME_RE = re.compile(r"^[A-Za-z0-9_.\-]([A-Za-z0-9_. \-]{0,30}[A-Za-z0-9_.\-])?$")
MIN_PASSWORD = 8
MAX_PASSWORD = 200

# OWASP minimum for argon2id: 19 MiB, 2 passes, 1 lane (fast enough for a busy small server)
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


def check_name(name: object) -> str:
    """A valid player name, or ``ValueError`` saying what a name may be."""
    if not isinstance(name, str) or not NAME_RE.match(name.strip()):
        raise ValueError(
            "a name is 1-32 letters, digits, '_', '-', '.' (spaces only inside the name)"
        )
    return name.strip()


def name_key(name: str) -> str:
    """Names are unique regardless of case."""
    return name.casefold()


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
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
    """Signed session cookies holding the user id."""

    def __init__(self, secret: str):
        self._s = URLSafeTimedSerializer(secret, salt="meeple-session")

    def dump(self, user_id: int) -> str:
        return self._s.dumps({"u": user_id})

    def load(self, cookie: str | None) -> int | None:
        if not cookie:
            return None
        try:
            data = self._s.loads(cookie, max_age=SESSION_MAX_AGE)
        except BadSignature:
            return None
        uid = data.get("u") if isinstance(data, dict) else None
        return uid if isinstance(uid, int) else None


class RateLimit:
    """Failed log-ins per name and per address within a sliding window."""

    def __init__(self, per_name: int = 5, per_address: int = 20, window: float = 60.0):
        self.per_name, self.per_address, self.window = per_name, per_address, window
        self._fails: dict[str, deque[float]] = defaultdict(deque)

    def _recent(self, key: str, now: float) -> deque[float]:
        q = self._fails[key]
        while q and q[0] <= now - self.window:
            q.popleft()
        return q

    def retry_after(self, name: str, address: str) -> float:
        """Seconds to wait before another attempt (0: allowed now)."""
        now = time.monotonic()
        wait = 0.0
        for key, limit in (("n:" + name, self.per_name), ("a:" + address, self.per_address)):
            q = self._recent(key, now)
            if len(q) >= limit:
                wait = max(wait, q[0] + self.window - now)
        return wait

    def failed(self, name: str, address: str) -> None:
        now = time.monotonic()
        self._fails["n:" + name].append(now)
        self._fails["a:" + address].append(now)

    def succeeded(self, name: str) -> None:
        self._fails.pop("n:" + name, None)
