"""The community around the tables: chat (table and lobby), ratings (people and bot levels),
profiles with avatars and follows, invitations, and turn e-mails.

One :class:`Community` per app, on the same storage engine as the tables. It hears the table
service's events (:meth:`Community.on_event`): system lines in the table chat, rating updates
after rated games, turn e-mails.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from meeple.engine.i18n import words

from ..domain import Refused
from ..live import Conn, LiveTable
from ..store import Store
from .chat import ChatService, is_rated
from .mail import AWAY_AFTER, MAIL_GAP, Mailer
from .ratings import BotRating, Ratings, rates_anyone, shown
from .store import CommunityStore

_, _n = words(__file__)

if TYPE_CHECKING:
    from .fanout import ChatFanout

log = logging.getLogger("meeple.server.community")
_BY_TABLES: weakref.WeakKeyDictionary[Any, Community] = weakref.WeakKeyDictionary()


class Community:
    """Chat, ratings, profiles and turn e-mails of one app."""

    def __init__(self, users: Store, *, smtp_url: str | None = None,
                 redis_url: str | None = None,
                 ladder: Mapping[str, Mapping[str, BotRating]] | None = None,
                 away_after: float = AWAY_AFTER, mail_gap: float = MAIL_GAP):
        self.users = users
        self.store = CommunityStore(getattr(users, "engine", None))
        self.chat = ChatService(self.store)
        self.ratings = Ratings(self.store, ladder)
        self.redis_url = redis_url
        self.fanout: ChatFanout | None = None
        self.mailer: Mailer | None = None
        if smtp_url:
            self.mailer = Mailer(smtp_url, self.store, users.secret(), away_after=away_after,
                                 mail_gap=mail_gap, name_of=self._name_of,
                                 lang_of=self._lang_of)

    def _name_of(self, user_id: int) -> str | None:
        user = self.users.user(user_id)
        return user.name if user is not None else None

    def _lang_of(self, user_id: int) -> str | None:
        user = self.users.user(user_id)
        return user.lang if user is not None else None

    def attach(self, tables: Any) -> None:
        """Answer the chat messages of ``tables``' sockets (see :func:`table_message`)."""
        _BY_TABLES[tables] = self
        self.chat.find_table = lambda tid: tables.tables.get(tid)

    async def start(self) -> None:
        """With Redis: share chat lines with the other server processes."""
        if self.redis_url and self.fanout is None:
            from .fanout import ChatFanout

            self.fanout = ChatFanout(self.redis_url, self.chat.from_elsewhere)
            await self.fanout.start()
            self.chat.publish = self.fanout.publish

    async def on_event(self, lt: LiveTable, event: str, data: dict[str, Any]) -> None:
        """A table event (the table service's hook): a system line, ratings, turn e-mails."""
        for part in (self.chat.on_event, self._rate, self._mail):
            try:
                await part(lt, event, data)
            except Exception:
                log.exception("community: %s at table %s", event, lt.id)

    async def _rate(self, lt: LiveTable, event: str, data: dict[str, Any]) -> None:
        if event != "finished" or not is_rated(lt):
            return
        ranks = data.get("ranks") or (lt.meta.result or {}).get("ranks")
        if not ranks:
            return
        last = leavers(lt.meta.departed, data, lt.meta.result)
        if not rates_anyone(lt.meta.departed):
            await self.chat.system(lt, "unrated")
            return
        results = await asyncio.to_thread(self.ratings.rate_table, lt.id, lt.meta.game,
                                          list(lt.seats), list(ranks), last,
                                          list(lt.meta.departed))
        if not results:
            return
        names = {s.user_id: s.name for s in lt.seats if s.user_id is not None}
        ratings = [[names.get(r.user_id) or "", shown(r.mu, r.sigma)]
                   for r in sorted(results, key=lambda r: r.rank)]
        await self.chat.system(lt, "ratings", ratings=ratings)

    async def _mail(self, lt: LiveTable, event: str, data: dict[str, Any]) -> None:
        if self.mailer is not None:
            await self.mailer.on_event(lt, event, data)

    async def stop(self) -> None:
        if self.mailer is not None:
            self.mailer.stop()
        if self.fanout is not None:
            self.chat.publish = None
            await self.fanout.stop()
            self.fanout = None


def leavers(departed: list[dict[str, Any]], data: Mapping[str, Any],
            result: Mapping[str, Any] | None = None) -> list[int]:
    """The seats that resigned or ran out of time, first to leave first (as the table's
    result orders them: the first to leave is last of all), for :func:`final_ranks`."""
    out: list[int] = []
    for d in departed or []:
        seat = int(d["seat"])
        if seat not in out:
            out.append(seat)
    named = list(data.get("resigned") or []) + list(data.get("timed_out") or [])
    forfeit = (result or {}).get("forfeit")
    for seat in named + ([forfeit] if forfeit is not None else []):
        if int(seat) not in out:
            out.append(int(seat))
    return out


async def table_message(tables: Any, lt: LiveTable, conn: Conn,
                        msg: dict[str, Any]) -> dict[str, Any] | None:
    """Answer a chat message on a table's socket: ``{"type": "chat", "text"}`` says a line,
    ``{"type": "chat_history"}`` asks for the lines this connection may read."""
    community = _BY_TABLES.get(tables)
    if community is None:
        return {"type": "chat_error", "reason": _("this server has no chat")}
    if conn not in lt.conns:  # not let in (yet): a private table's chat stays private
        return {"type": "chat_error",
                "reason": _("the chat opens once you are let in at this table")}
    if msg.get("type") == "chat_history":
        lines = await asyncio.to_thread(community.chat.table_history, lt, conn)
        return {"type": "chat_history", "lines": lines}
    user = (await asyncio.to_thread(community.users.user, conn.user_id)
            if conn.user_id is not None else None)
    try:
        await community.chat.say_at_table(lt, user, conn, msg.get("text"))
    except Refused as e:
        return {"type": "chat_error", "code": e.code, "reason": e.reason}
    return None


def community(conn: HTTPConnection) -> Community:
    return conn.app.state.community


CommunityDep = Annotated[Community, Depends(community)]
