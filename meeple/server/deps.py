"""What the routes depend on (FastAPI ``Depends``): the settings, the storage, the table
service, who is signed in, and the live table named in the path."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection

from meeple.engine.i18n import words

from . import auth
from .domain import Code, Refused, UserRecord
from .live import Holder, LiveTable
from .service import TableService
from .store import Store
from .web import Proxies

_, _n = words(__file__)


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


@dataclass
class Services:
    """Everything the routes share, kept on ``app.state.services``."""

    settings: Settings
    store: Store
    tables: TableService
    cookies: auth.Sessions
    limiter: auth.RateLimit
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
    return db.user(uid) if uid is not None else None


OptionalUser = Annotated[UserRecord | None, Depends(optional_user)]


def current_user(user: OptionalUser) -> UserRecord:
    """The signed-in user, or 401."""
    if user is None:
        raise HTTPException(401, _("sign in or play as a guest first"))
    return user


CurrentUser = Annotated[UserRecord, Depends(current_user)]


INVITE_HEADER = "x-invite-code"
SEAT_TOKEN_HEADER = "x-seat-token"


async def live_table(table_id: str, conn: HTTPConnection, tables: TablesDep,
                     uid: UserId) -> LiveTable:
    """The table named in the path (loaded off the event loop), or 404; a private table is
    404 too for anyone not seated there, not its owner and without its invite code (the
    ``X-Invite-Code`` header) or one of its seat tokens (``X-Seat-Token``)."""
    lt = await tables.find(table_id)
    token = conn.headers.get(SEAT_TOKEN_HEADER)
    who = Holder.of(uid, [token] if token else [])
    if not lt.may_see(who, conn.headers.get(INVITE_HEADER)):
        raise Refused(Code.NOT_FOUND, _("no such table"))
    return lt


TableDep = Annotated[LiveTable, Depends(live_table)]


async def any_table(table_id: str, tables: TablesDep) -> LiveTable:
    """The table named in the path, private or not (joining checks the invite code)."""
    return await tables.find(table_id)


AnyTableDep = Annotated[LiveTable, Depends(any_table)]
