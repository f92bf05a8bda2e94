"""Live play: the WebSocket of a table (frames out; act, view and ping in)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from ..deps import TablesDep, UserId
from ..domain import Code, Message, Refused
from ..live import FRAME_DUE, Conn, LiveTable
from ..service import TableService

router = APIRouter(tags=["live play"])
MAX_MESSAGE = 10000
MAX_TOKENS = 16
NOT_FOUND_CLOSE = 4404


def _error(code: Code, reason: str) -> dict[str, Any]:
    return {"type": Message.ERROR, "code": code, "reason": reason}


@router.websocket("/ws/tables/{table_id}")
async def play(ws: WebSocket, table_id: str, tables: TablesDep, uid: UserId) -> None:
    """Frames of a table for the seats this connection holds (by session or seat tokens)."""
    await ws.accept()
    lt = tables.get(table_id)
    if lt is None:
        await ws.send_text(json.dumps(_error(Code.NOT_FOUND, f"no table {table_id!r}")))
        await ws.close(code=NOT_FOUND_CLOSE)
        return
    held, bad = lt.seats_held(uid, ws.query_params.getlist("token")[:MAX_TOKENS])
    conn = Conn(user_id=uid, held=held)
    lt.conns.add(conn)
    writer = asyncio.create_task(_writer(ws, lt, conn))
    if bad:
        conn.queue.put_nowait(json.dumps(_error(Code.FORBIDDEN,
                                                f"{bad} seat token(s) not valid here")))
    lt.broadcast()
    try:
        while True:
            text = await ws.receive_text()
            reply = await _handle(tables, lt, conn, text)
            if reply is not None:
                conn.queue.put_nowait(json.dumps(reply))
    except WebSocketDisconnect:
        pass
    finally:
        lt.conns.discard(conn)
        conn.queue.put_nowait(None)
        with contextlib.suppress(BaseException):
            await writer
        lt.broadcast()
        tables.evict(lt)


async def _writer(ws: WebSocket, lt: LiveTable, conn: Conn) -> None:
    """Send the connection's queue in order; a due frame is built when it is sent."""
    while True:
        item = await conn.queue.get()
        if item is None:
            return
        if item == FRAME_DUE:
            if not conn.dirty:
                continue
            conn.dirty = False
            item = lt.frame_text(conn)
        try:
            await ws.send_text(item)
        except Exception:
            return


async def _handle(tables: TableService, lt: LiveTable, conn: Conn,
                  text: str) -> dict[str, Any] | None:
    """Answer one message (``None``: nothing to answer now)."""
    if len(text) > MAX_MESSAGE:
        return _error(Code.BAD_REQUEST, "message too long")
    try:
        msg = json.loads(text)
    except ValueError:
        return _error(Code.BAD_REQUEST, "messages are JSON objects")
    if not isinstance(msg, dict):
        return _error(Code.BAD_REQUEST, "messages are JSON objects")
    kind = msg.get("type")
    if kind == Message.PING:
        return {"type": Message.PONG}
    if kind == Message.VIEW:
        seat = msg.get("seat")
        if seat not in conn.held:
            return _error(Code.FORBIDDEN, f"this connection does not hold seat {seat!r}")
        conn.view_seat = seat
        conn.dirty = True
        conn.queue.put_nowait(FRAME_DUE)
        return None
    if kind == Message.ACT:
        seat = msg.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            return _error(Code.BAD_REQUEST, "seat must be an int")
        if seat not in conn.held:
            return _error(Code.FORBIDDEN, f"this connection does not hold seat {seat}")
        try:
            await tables.act(lt, seat, msg.get("action"), msg.get("move_number"))
        except Refused as e:
            return _error(e.code, e.reason)
        return None
    return _error(Code.BAD_REQUEST, "unknown message type; expected act, view or ping")
