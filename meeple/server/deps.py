"""What the routes depend on (FastAPI ``Depends``): the settings, the storage, the table
service, who is signed in, the live table named in the path, and the rate limits of the costly
routes (:func:`limited`)."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, cast

import redis.asyncio
from fastapi import Depends, HTTPException
from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from starlette.requests import HTTPConnection

from meeple.engine.i18n import N_, words

from . import auth
from .domain import Code, Refused, UserRecord
from .live import Holder, LiveTable
from .service import TableService
from .store import Store
from .web import Proxies

_, _n = words(__file__)
log = logging.getLogger("meeple.server")


@dataclass(frozen=True)
class Rate:
    """How often one person (by their account) and one address may use a kind of costly
    route: rate strings of the ``limits`` library, several joined by ";"
    ("10/minute;100/hour"), counted over a moving window."""

    person: str
    address: str


RATES: dict[str, Rate] = {
    "signup": Rate("3/minute;10/hour", "5/minute;20/hour"),
    "login": Rate("10/minute;60/hour", "30/minute;300/hour"),
    "guest": Rate("3/minute;20/hour", "10/minute;60/hour"),
    "table": Rate("10/minute;120/hour", "30/minute;300/hour"),
    "learn": Rate("60/minute", "240/minute"),
    "hint": Rate("10/minute;100/hour", "30/minute;300/hour"),
    "replay": Rate("240/minute", "600/minute"),
    "review": Rate("5/minute;30/hour", "15/minute;90/hour"),
    "chat": Rate("5/10 seconds;20/minute", "60/minute"),
    "report": Rate("5/minute;30/hour", "20/minute;100/hour"),
}
"""The production limits of each kind of costly route (``create_app(rates=...)`` changes
some)."""

TOO_MANY = {
    "signup": N_("too many new accounts from here; try again in {value} s"),
    "login": N_("too many log-ins from here; try again in {value} s"),
    "guest": N_("too many new guests from here; try again in {value} s"),
    "table": N_("you are making tables too fast; try again in {value} s"),
    "learn": N_("you are going through the tutorial too fast; try again in {value} s"),
    "hint": N_("you are asking for hints too often; try again in {value} s"),
    "replay": N_("you are stepping through replays too fast; try again in {value} s"),
    "review": N_("you are asking for reviews too often; try again in {value} s"),
    "chat": N_("you are writing too fast; try again in {value} s"),
    "report": N_("you are sending reports too fast; try again in {value} s"),
}
"""The refusal of each kind of route when its limit is reached."""


def roomy_rates() -> dict[str, Rate]:
    """Limits no test or benchmark run from one address reaches (the chat keeps its own)."""
    roomy = Rate("100000/minute", "100000/minute")
    return {kind: rate if kind == "chat" else roomy for kind, rate in RATES.items()}


class Limiter:
    """Counts the uses of the costly routes per person and per address with the ``limits``
    library: in this process's memory, or in Redis (``redis_url``) so that every server
    process shares the counts."""

    def __init__(self, rates: Mapping[str, Rate] | None = None, redis_url: str | None = None):
        self.rates: dict[str, tuple[list[RateLimitItem], list[RateLimitItem]]] = {
            kind: (parse_many(rate.person), parse_many(rate.address))
            for kind, rate in {**RATES, **(rates or {})}.items()}
        storage: Storage
        self.pool: redis.asyncio.ConnectionPool | None = None
        if redis_url:
            self.pool = redis.asyncio.ConnectionPool.from_url(redis_url)
            storage = RedisStorage("async+" + redis_url, implementation="redispy",
                                   wrap_exceptions=True,
                                   connection_pool=cast(Any, self.pool))
        else:
            storage = MemoryStorage()
        self.window = MovingWindowRateLimiter(storage)

    async def close(self) -> None:
        """Close the connections to Redis (the server stops)."""
        if self.pool is not None:
            await self.pool.disconnect()

    async def check(self, kind: str, user_id: int | None, address: str | None) -> None:
        """Count one use of ``kind`` by ``user_id`` (if signed in) from ``address`` (if
        known), or refuse it (429, with the seconds to wait) when one of them used up a
        limit. Counts that cannot be read (Redis away) refuse nobody."""
        person, per_address = self.rates[kind]
        who = [("address", address, per_address)] if address is not None else []
        if user_id is not None:
            who.append(("person", str(user_id), person))
        try:
            for side, key, items in who:
                for item in items:
                    if not await self.window.hit(item, kind, side, key):
                        stats = await self.window.get_window_stats(item, kind, side, key)
                        wait = max(1, math.ceil(stats.reset_time - time.time()))
                        refusal = Refused(Code.QUOTA, _(TOO_MANY[kind], value=wait))
                        refusal.retry_after = wait
                        raise refusal
        except StorageError:
            log.warning("the rate limits could not be counted", exc_info=True)


@dataclass
class Settings:
    """How this app was set up."""

    web_dir: Path
    secure_cookies: bool = False
    bot_delay: float = 0.0
    redis_url: str | None = None
    allowed_origins: list[str] | None = None
    """The page origins a WebSocket may come from (``None``: this server's own)."""
    proxies: Proxies = field(default_factory=Proxies)
    """The proxies whose ``X-Forwarded-For`` is believed (none unless configured)."""
    smtp_url: str | None = None
    """The SMTP server that sends turn e-mails (``None``: no e-mail)."""
    warm_bots: bool = False
    """Whether the bots' processes start with the server (else on the first search)."""
    rates: dict[str, Rate] = field(default_factory=lambda: dict(RATES))
    """The rate limits of the costly routes, by kind (see :data:`RATES`)."""


@dataclass
class Services:
    """Everything the routes share, kept on ``app.state.services``."""

    settings: Settings
    store: Store
    tables: TableService
    cookies: auth.Sessions
    limiter: auth.RateLimit
    rates: Limiter = field(default_factory=Limiter)
    """The rate limits of the costly routes (:func:`limited`)."""
    motions: dict[tuple[str, int], Any] = field(default_factory=dict)
    """Simulated motions already worked out, by (table, move)."""


def services(conn: HTTPConnection) -> Services:
    return conn.app.state.services


ServicesDep = Annotated[Services, Depends(services)]


def settings(s: ServicesDep) -> Settings:
    return s.settings


def store(s: ServicesDep) -> Store:
    return s.store


def table_service(s: ServicesDep) -> TableService:
    return s.tables


SettingsDep = Annotated[Settings, Depends(settings)]
StoreDep = Annotated[Store, Depends(store)]
TablesDep = Annotated[TableService, Depends(table_service)]


def user_id(conn: HTTPConnection, s: ServicesDep) -> int | None:
    """The signed-in user's id from the session cookie (``None``: nobody)."""
    return s.cookies.load(conn.cookies.get(auth.COOKIE))


UserId = Annotated[int | None, Depends(user_id)]


def optional_user(uid: UserId, db: StoreDep) -> UserRecord | None:
    """The signed-in user (``None``: nobody, or an account suspended or deleted since)."""
    user = db.user(uid) if uid is not None else None
    return None if user is None or user.barred else user


OptionalUser = Annotated[UserRecord | None, Depends(optional_user)]


def person_named(s: Services, name: str) -> UserRecord:
    """The person of ``name`` (any case and spelling of it), or a 404 with the reason."""
    user = s.store.user_by_key(auth.name_key(name)) if len(name) <= 64 else None
    if user is None or user.deleted is not None:
        raise HTTPException(404, _("no player of that name"))
    return user


def current_user(user: OptionalUser) -> UserRecord:
    """The signed-in user, or 401."""
    if user is None:
        raise HTTPException(401, _("sign in or play as a guest first"))
    return user


CurrentUser = Annotated[UserRecord, Depends(current_user)]


def operator_user(user: CurrentUser) -> UserRecord:
    """The signed-in operator, or 403."""
    if not user.operator:
        raise HTTPException(403, _("only an operator may do this"))
    return user


Operator = Annotated[UserRecord, Depends(operator_user)]


def limited(kind: str) -> Any:
    """The dependency of a costly route of ``kind`` (a key of :data:`RATES`): one use counted
    for the signed-in person and for the address, refused with 429 and ``Retry-After`` once
    either used up its limit. Put in the route's ``dependencies``."""
    if kind not in RATES:
        raise ValueError(f"no rate limit of kind {kind!r}")

    async def count(conn: HTTPConnection, s: ServicesDep, uid: UserId) -> None:
        await s.rates.check(kind, uid, s.settings.proxies.client(conn))

    return Depends(count)


INVITE_HEADER = "x-invite-code"
SEAT_TOKEN_HEADER = "x-seat-token"


def seen(lt: LiveTable, who: Holder, code: str | None = None) -> LiveTable:
    """``lt`` if ``who`` (or the invite ``code``) may see it, else the very refusal of an
    unknown table: a private table is not there for anyone not seated there, not its owner
    and without its invite code or one of its seat tokens."""
    if not lt.may_see(who, code):
        raise Refused(Code.NOT_FOUND, _("no such table"))
    return lt


async def live_table(table_id: str, conn: HTTPConnection, tables: TablesDep,
                     uid: UserId) -> LiveTable:
    """The table named in the path (loaded off the event loop), or 404 (also a private table
    this request may not see, see :func:`seen`: its invite code goes in the
    ``X-Invite-Code`` header, a seat token in ``X-Seat-Token``)."""
    lt = await tables.find(table_id)
    token = conn.headers.get(SEAT_TOKEN_HEADER)
    return seen(lt, Holder.of(uid, [token] if token else []), conn.headers.get(INVITE_HEADER))


TableDep = Annotated[LiveTable, Depends(live_table)]


async def any_table(table_id: str, tables: TablesDep) -> LiveTable:
    """The table named in the path, private or not: the route checks with :func:`seen`
    (the seat token or invite code may be in its body)."""
    return await tables.find(table_id)


AnyTableDep = Annotated[LiveTable, Depends(any_table)]
