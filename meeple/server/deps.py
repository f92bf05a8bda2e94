"""What the routes depend on (FastAPI ``Depends``): the settings, the storage, the table
service, who is signed in, and the live table named in the path."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection

from . import auth
from .domain import UserRecord
from .live import LiveTable
from .service import TableService
from .store import Store


@dataclass
class Settings:
    """How this app was set up."""

    web_dir: Path
    secure_cookies: bool = False
    bot_delay: float = 0.0
    redis_url: str | None = None


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
        raise HTTPException(401, "sign in or play as a guest first")
    return user


CurrentUser = Annotated[UserRecord, Depends(current_user)]


def live_table(table_id: str, tables: TablesDep) -> LiveTable:
    """The table named in the path, or 404."""
    return tables.table(table_id)


TableDep = Annotated[LiveTable, Depends(live_table)]
