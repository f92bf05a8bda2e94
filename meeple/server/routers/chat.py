"""Chat: the lines of a table's chat and of the lobby's (read and say), the lobby chat's
WebSocket, and muting a person for yourself. A table's chat is also live on the table's own
WebSocket (``chat`` and ``chat_history`` messages, see ``routers/play.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, Header, HTTPException, WebSocket
from pydantic import BaseModel, Field

from meeple.engine.i18n import words

from .. import auth
from ..community import CommunityDep
from ..community.chat import LobbyConn, line_json
from ..deps import CurrentUser, OptionalUser, ServicesDep, TableDep, UserId
from ..domain import Refused
from ..live import ENDED, Holder
from ..sockets import SocketsDep, close_ended, refuse
from ..web import BadMessage, origin_allowed, socket_message

_, _n = words(__file__)

router = APIRouter(tags=["chat"])
MAX_SOCKET_MESSAGE = 4000
FORBIDDEN_CLOSE = 4403


class ChatBody(BaseModel):
    """A line to say."""

    text: str = Field(max_length=4000)


class NameBody(BaseModel):
    """A person, by name."""

    name: str = Field(max_length=64)


def _user_named(s: ServicesDep, name: str) -> Any:
    user = s.store.user_by_key(auth.name_key(name)) if len(name) <= 64 else None
    if user is None:
        raise HTTPException(404, _("no player of that name"))
    return user


@router.get("/api/tables/{table_id}/chat")
async def table_chat(lt: TableDep, c: CommunityDep, uid: UserId,
                     x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """The table's chat lines this viewer may read, oldest first."""
    who = Holder.of(uid, [x_seat_token] if x_seat_token else [])
    return {"lines": await asyncio.to_thread(c.chat.table_history, lt, who)}


@router.post("/api/tables/{table_id}/chat")
async def say_at_table(body: ChatBody, lt: TableDep, c: CommunityDep, user: CurrentUser,
                       x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """Say a line at the table (as a spectator unless you sit there)."""
    who = Holder.of(user.id, [x_seat_token] if x_seat_token else [])
    line = await c.chat.say_at_table(lt, user, who, body.text)
    return {"line": line_json(line)}


@router.get("/api/lobby/chat")
async def lobby_chat(c: CommunityDep, uid: UserId) -> dict[str, Any]:
    """The lobby chat's newest lines, oldest first."""
    return {"lines": await asyncio.to_thread(c.chat.lobby_history, uid)}


@router.post("/api/lobby/chat")
async def say_in_lobby(body: ChatBody, c: CommunityDep, user: CurrentUser) -> dict[str, Any]:
    line = await c.chat.say_in_lobby(user, body.text)
    return {"line": line_json(line)}


@router.get("/api/my/mutes")
def my_mutes(c: CommunityDep, user: CurrentUser, s: ServicesDep) -> dict[str, Any]:
    """The people you muted."""
    names = [u.name for u in (s.store.user(i) for i in sorted(c.chat.mutes_of(user.id)))
             if u is not None]
    return {"muted": names}


@router.post("/api/my/mutes")
def mute(body: NameBody, c: CommunityDep, user: CurrentUser, s: ServicesDep) -> dict[str, Any]:
    """Stop reading a person's chat lines (for you only)."""
    other = _user_named(s, body.name)
    c.chat.mute(user.id, other.id)
    return {"ok": True}


@router.delete("/api/my/mutes/{name}")
def unmute(name: str, c: CommunityDep, user: CurrentUser, s: ServicesDep) -> dict[str, Any]:
    other = _user_named(s, name)
    c.chat.unmute(user.id, other.id)
    return {"ok": True}


@router.websocket("/ws/lobby/chat")
async def lobby_socket(ws: WebSocket, s: ServicesDep, c: CommunityDep, uid: UserId,
                       user: OptionalUser, sockets: SocketsDep) -> None:
    """The lobby chat, live: its newest lines first (``chat_history``), then each new line
    (``chat``); ``{"type": "chat", "text"}`` says one. It closes when the session it was
    opened under ends."""
    if not origin_allowed(ws, s.settings.allowed_origins):
        await ws.close(code=FORBIDDEN_CLOSE)
        return
    await ws.accept()
    conn = LobbyConn(uid)
    opened = await sockets.open(ws, s.settings.proxies.client(ws), uid,
                                lambda: _end(conn), s.cookies)
    if opened is None:
        await refuse(ws, _("too many connections from your address; close some first"))
        return
    c.chat.lobby.add(conn)
    writer = asyncio.create_task(_writer(ws, conn))
    try:
        history = await asyncio.to_thread(c.chat.lobby_history, uid)
        conn.queue.put_nowait(json.dumps({"type": "chat_history", "lines": history}))
        while not conn.ended:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect" or conn.ended:
                break
            reply = await _lobby_message(c, user, msg.get("text"))
            if reply is not None:
                conn.queue.put_nowait(json.dumps(reply))
    finally:
        sockets.close(opened)
        c.chat.lobby.discard(conn)
        conn.queue.put_nowait(None)
        with contextlib.suppress(BaseException):
            await writer
        with contextlib.suppress(BaseException):
            await ws.close()


def _end(conn: LobbyConn) -> None:
    """The session the lobby socket was opened under ended: it closes."""
    conn.ended = True
    conn.queue.put_nowait(ENDED)


async def _lobby_message(c: Any, user: Any, text: str | None) -> dict[str, Any] | None:
    try:
        msg = socket_message(text, MAX_SOCKET_MESSAGE)
    except BadMessage as e:
        return {"type": "chat_error", "reason": str(e)}
    if msg.get("type") == "ping":
        return {"type": "pong"}
    if msg.get("type") != "chat":
        return {"type": "chat_error", "reason": _("unknown message type; expected chat or ping")}
    try:
        await c.chat.say_in_lobby(user, msg.get("text"))
    except Refused as e:
        return {"type": "chat_error", "code": e.code, "reason": e.reason}
    return None


async def _writer(ws: WebSocket, conn: LobbyConn) -> None:
    while True:
        item = await conn.queue.get()
        if item is None:
            return
        if item == ENDED:
            await close_ended(ws)
            return
        try:
            await ws.send_text(item)
        except Exception:
            return
