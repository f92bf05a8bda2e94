"""Live play: the WebSocket of a table (frames out; hello, act, view and ping in), and the
signed-in user's live turn count (``/ws/me``).

Seat tokens never travel in the address: the first message carries them
(``{"type": "hello", "tokens": [...]}``). Which seats a connection holds is worked out again
for every frame and every message from who sits where now; when that changes the connection
is told (a ``seats`` message) and its next frame is of its new seats. A malformed message gets
an ``error`` frame and the socket stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket

from meeple.engine.i18n import words

from ..community import table_message
from ..deps import Services, ServicesDep, TablesDep, UserId
from ..domain import Code, Message, Refused
from ..live import ENDED, FRAME_DUE, Conn, Holder, LiveTable
from ..service import TableService
from ..sockets import Sockets, SocketsDep, close_ended, refuse
from ..web import BadMessage, origin_allowed, socket_message

_, _n = words(__file__)

router = APIRouter(tags=["live play"])
MAX_MESSAGE = 10000
MAX_TOKENS = 16
MAX_TOKEN = 100
NOT_FOUND_CLOSE = 4404
FORBIDDEN_CLOSE = 4403
UNAUTHORIZED_CLOSE = 4401
SESSION_ENDED = -1
"""Put in a turn count's queue: the session ended (the socket closes)."""
HELLO_WAIT = 10.0
"""How long a connection to a private table may take to say who it is (seconds)."""


def _error(code: Code, reason: str) -> dict[str, Any]:
    return {"type": Message.ERROR, "code": code, "reason": reason}


def _send(conn: Conn, msg: dict[str, Any]) -> None:
    conn.queue.put_nowait(json.dumps(msg))


@router.websocket("/ws/tables/{table_id}")
async def play(ws: WebSocket, table_id: str, tables: TablesDep, s: ServicesDep,
               uid: UserId, sockets: SocketsDep) -> None:
    """Frames of a table for the seats this connection holds (by session or seat tokens)."""
    if not origin_allowed(ws, s.settings.allowed_origins):
        await ws.close(code=FORBIDDEN_CLOSE)
        return
    await ws.accept()
    conn = Conn(user_id=uid)
    opened = await sockets.open(ws, s.settings.proxies.client(ws), uid,
                                lambda: _end(conn), s.cookies)
    if opened is None:
        await refuse(ws, _("too many connections from your address; close some first"))
        return
    try:
        await _play(ws, table_id, tables, s, conn, sockets)
    finally:
        sockets.close(opened)


def _end(conn: Conn) -> None:
    """The session the connection was opened under ended: it holds nothing more and
    closes."""
    conn.user_id, conn.token_hashes, conn.ended = None, [], True
    conn.queue.put_nowait(ENDED)


async def _play(ws: WebSocket, table_id: str, tables: TableService, s: Services, conn: Conn,
                sockets: Sockets) -> None:
    try:
        lt = await tables.load(table_id)
    except Refused as e:  # the work pool is full
        await ws.send_text(json.dumps(_error(e.code, e.reason)))
        await ws.close(code=1013)
        return
    if lt is None:
        await ws.send_text(json.dumps(_error(Code.NOT_FOUND, _("no such table"))))
        await ws.close(code=NOT_FOUND_CLOSE)
        return
    if len(lt.conns) >= sockets.per_table:
        await refuse(ws, _("too many people are watching this table; try again later"))
        return
    writer = asyncio.create_task(_writer(ws, lt, conn))
    if "token" in ws.query_params:
        _send(conn, _error(Code.BAD_REQUEST, _("seat tokens never go in the address: send them "
                                               "in the first message, {\"type\": \"hello\", "
                                               "\"tokens\": [...]}")))
    watching = lt.may_see(conn)
    if watching:
        _let_in(tables, lt, conn)
    try:
        while not conn.ended:
            timeout = None if watching else HELLO_WAIT
            try:
                msg = await asyncio.wait_for(ws.receive(), timeout)
            except TimeoutError:
                _send(conn, _error(Code.NOT_FOUND, _("no such table")))
                break
            if msg["type"] == "websocket.disconnect" or conn.ended:
                break
            text = msg.get("text")
            if text is None:
                _send(conn, _error(Code.BAD_REQUEST, _("messages are JSON text, not binary")))
                continue
            held = lt.held_by(conn) if watching else set()
            reply = await _handle(tables, lt, conn, text)
            if reply is not None:
                _send(conn, reply)
            if not watching:
                if not lt.may_see(conn, conn.code):
                    _send(conn, _error(Code.NOT_FOUND, _("no such table")))
                    break
                watching = True
                _let_in(tables, lt, conn)
            elif lt.held_by(conn) != held:  # a hello's tokens: the others see who is here
                lt.broadcast()
    finally:
        held = conn.held or (lt.held_by(conn) if conn in lt.conns else set())
        lt.conns.discard(conn)
        conn.queue.put_nowait(None)
        with contextlib.suppress(BaseException):
            await writer
        with contextlib.suppress(BaseException):
            await ws.close(code=NOT_FOUND_CLOSE if not watching else 1000)
        if held:  # the others see that its seats are no longer here
            lt.broadcast()
        tables.evict(lt)


def _let_in(tables: TableService, lt: LiveTable, conn: Conn) -> None:
    """Add a connection to the table's: everyone is sent a fresh frame if it holds a seat
    (the others see who is here), else it alone (a spectator changes nobody's frame). Bots
    to move move here now if no process was thinking for them (the one that stored the
    last change may have ended)."""
    lt.conns.add(conn)
    tables.wake(lt)
    if lt.held_by(conn):
        lt.broadcast()
    else:
        conn.dirty = True
        conn.queue.put_nowait(FRAME_DUE)


@router.websocket("/ws/me")
async def my_turns(ws: WebSocket, tables: TablesDep, s: ServicesDep, uid: UserId,
                   sockets: SocketsDep) -> None:
    """The signed-in user's turn count, live: ``{"type": "turns", "count": n}`` at once and
    whenever it changes (the running tables where they must act); ``ping`` is answered."""
    if not origin_allowed(ws, s.settings.allowed_origins):
        await ws.close(code=FORBIDDEN_CLOSE)
        return
    await ws.accept()
    if uid is None:
        await ws.send_text(json.dumps(_error(Code.UNAUTHORIZED,
                                             _("sign in or play as a guest first"))))
        await ws.close(code=UNAUTHORIZED_CLOSE)
        return
    queue = tables.watch(uid)
    opened = await sockets.open(ws, s.settings.proxies.client(ws), uid,
                                lambda: queue.put_nowait(SESSION_ENDED), s.cookies)
    if opened is None:
        tables.unwatch(uid, queue)
        await refuse(ws, _("too many connections from your address; close some first"))
        return
    reader = asyncio.create_task(_pings(ws))
    try:
        last: int | None = None
        queue.put_nowait(await asyncio.to_thread(tables.turn_count, uid))
        while not reader.done():
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if not getter.done():
                getter.cancel()
                break
            counts = [getter.result()]
            while not queue.empty():  # several changes at once: the latest count only
                counts.append(queue.get_nowait())
            if SESSION_ENDED in counts:
                await close_ended(ws)
                break
            if counts[-1] != last:
                last = counts[-1]
                await ws.send_text(json.dumps({"type": Message.TURNS, "count": last}))
    except Exception:  # the socket went away while sending
        pass
    finally:
        sockets.close(opened)
        tables.unwatch(uid, queue)
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
        with contextlib.suppress(BaseException):
            await ws.close()


async def _pings(ws: WebSocket) -> None:
    """Answer pings on the turn count socket until it closes."""
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        try:
            kind = socket_message(msg.get("text"), MAX_MESSAGE).get("type")
        except BadMessage:
            kind = None
        reply = {"type": Message.PONG} if kind == Message.PING else _error(
            Code.BAD_REQUEST, _("this socket only answers ping"))
        await ws.send_text(json.dumps(reply))


async def _writer(ws: WebSocket, lt: LiveTable, conn: Conn) -> None:
    """Send the connection's queue in order; a due frame is built when it is sent, and a
    change of the seats the connection holds is said first."""
    while True:
        item = await conn.queue.get()
        if item is None:
            return
        if item == ENDED:
            await close_ended(ws)
            return
        out = [item]
        if item == FRAME_DUE:
            if not conn.dirty or conn not in lt.conns:  # nothing new, or not let in (yet)
                continue
            conn.dirty = False
            before = set(conn.held)
            frame = lt.frame_text(conn)
            out = [frame]
            if conn.told and conn.held != before:
                out.insert(0, json.dumps({
                    "type": Message.SEATS, "seats": sorted(conn.held),
                    "reason": _("the seats this connection holds have changed"),
                }))
            conn.told = True
        try:
            for text in out:
                await ws.send_text(text)
        except Exception:
            return


def _tokens(msg: dict[str, Any]) -> list[str] | None:
    """The seat tokens of a hello message (``None``: not a list of short strings)."""
    tokens = msg.get("tokens", [])
    if "token" in msg:
        tokens = [msg["token"]]
    if not isinstance(tokens, list) or len(tokens) > MAX_TOKENS or not all(
            isinstance(t, str) and 0 < len(t) <= MAX_TOKEN for t in tokens):
        return None
    return tokens


def _seat(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


async def _handle(tables: TableService, lt: LiveTable, conn: Conn,
                  text: str) -> dict[str, Any] | None:
    """Answer one message (``None``: nothing to answer now)."""
    try:
        msg = socket_message(text, MAX_MESSAGE)
    except BadMessage as e:
        return _error(Code.BAD_REQUEST, str(e))
    kind = msg.get("type")
    if kind == Message.PING:
        return {"type": Message.PONG}
    if kind == Message.HELLO:
        tokens = _tokens(msg)
        code = msg.get("code")
        if tokens is None or not (code is None or isinstance(code, str) and len(code) < 100):
            return _error(Code.BAD_REQUEST,
                          _("hello is {\"type\": \"hello\", \"tokens\": [\"seat token\", ...]}"))
        more = Holder.of(None, tokens).token_hashes
        conn.token_hashes = list(dict.fromkeys(conn.token_hashes + more))[:MAX_TOKENS]
        conn.code = code or conn.code
        bad = lt.bad_tokens(Holder(None, more))
        conn.dirty = True
        conn.queue.put_nowait(FRAME_DUE)
        if bad:
            return _error(Code.FORBIDDEN, _n("{n} seat token is not valid here",
                                             "{n} seat tokens are not valid here", bad))
        return None
    if kind == Message.VIEW:
        seat = _seat(msg.get("seat"))
        if seat is None:
            return _error(Code.BAD_REQUEST, _("seat must be a seat number"))
        if seat not in lt.held_by(conn):
            return _error(Code.FORBIDDEN, _("this connection does not hold seat {seat}",
                                            seat=seat))
        conn.view_seat = seat
        conn.dirty = True
        conn.queue.put_nowait(FRAME_DUE)
        return None
    if kind == Message.ACT:
        seat = _seat(msg.get("seat"))
        if seat is None:
            return _error(Code.BAD_REQUEST, _("seat must be an int"))
        try:
            await tables.act(lt, seat, msg.get("action"), msg.get("move_number"), by=conn)
        except Refused as e:
            return _error(e.code, e.reason)
        return None
    if kind in ("chat", "chat_history"):
        return await table_message(tables, lt, conn, msg)
    return _error(Code.BAD_REQUEST,
                  _("unknown message type; expected hello, act, view, chat, chat_history or ping"))

