"""The WebSockets open in this process: how many each address holds (there is a cap), and the
session each was opened under, so that ending a session closes them at once.

Every socket route registers its socket here (:meth:`Sockets.open`) and lets go of it when it
closes (:meth:`Sockets.close`). :class:`~meeple.server.auth.Sessions` calls
:meth:`Sockets.ended` whenever a session ends (log out, log out everywhere, an account
suspended or deleted); with Redis the other processes hear of it too (see ``fanout.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, WebSocket
from starlette.requests import HTTPConnection

from meeple.engine.i18n import words

from . import auth
from .domain import Code, Message

_, _n = words(__file__)

PER_ADDRESS = 100
"""The most sockets one address may have open in one process (every kind together)."""
PER_TABLE = 500
"""The most sockets one table may have open in one process."""
ENDED_CLOSE = 4410
"""The close code of a socket whose session ended (the page may connect again: as whom it
is now)."""
TOO_MANY_CLOSE = 4429
"""The close code of a socket refused because its address or its table has too many."""


@dataclass(eq=False)
class Opened:
    """One open socket: where it comes from, the session it was opened under (the hash of
    the session id; ``None``: none) and its user, and how to close it (called on its event
    loop)."""

    address: str
    session: str | None
    user_id: int | None
    on_end: Callable[[], None]
    loop: asyncio.AbstractEventLoop


class Sockets:
    """The sockets of this process, by address and by session (thread-safe: sessions end in
    worker threads too)."""

    def __init__(self, per_address: int = PER_ADDRESS, per_table: int = PER_TABLE):
        self.per_address = per_address
        self.per_table = per_table
        self._lock = threading.Lock()
        self.by_address: dict[str, int] = {}
        self.by_session: dict[str, set[Opened]] = {}
        self.by_user: dict[int, set[Opened]] = {}

    async def open(self, conn: HTTPConnection, address: str, user_id: int | None,
                   on_end: Callable[[], None], sessions: auth.Sessions) -> Opened | None:
        """Register a socket that was just accepted (``None``: its address has too many
        open). ``on_end`` closes it when its session ends; a session that ended while the
        socket opened (after ``user_id`` was read from it) closes it at once."""
        cookie = conn.cookies.get(auth.COOKIE) if user_id is not None else None
        opened = Opened(address, auth.token_hash(cookie) if cookie else None, user_id, on_end,
                        asyncio.get_running_loop())
        with self._lock:
            have = self.by_address.get(address, 0)
            if have >= self.per_address:
                return None
            self.by_address[address] = have + 1
            if opened.session is not None and user_id is not None:
                self.by_session.setdefault(opened.session, set()).add(opened)
                self.by_user.setdefault(user_id, set()).add(opened)
        if cookie and await asyncio.to_thread(sessions.load, cookie) != user_id:
            on_end()
        return opened

    def close(self, opened: Opened) -> None:
        """Let go of a socket that closed (what it held here goes with it)."""
        with self._lock:
            left = self.by_address.get(opened.address, 0) - 1
            if left > 0:
                self.by_address[opened.address] = left
            else:
                self.by_address.pop(opened.address, None)
            _drop(self.by_session, opened.session, opened)
            _drop(self.by_user, opened.user_id, opened)

    def ended(self, id_hash: str | None = None, user_id: int | None = None) -> int:
        """A session ended (by the hash of its id), or every session of ``user_id``: close
        the sockets opened under it (from any thread); how many."""
        with self._lock:
            found = set(self.by_session.get(id_hash, ())) if id_hash is not None else set()
            if user_id is not None:
                found |= self.by_user.get(user_id, set())
        for opened in found:
            with contextlib.suppress(RuntimeError):  # its event loop has stopped
                opened.loop.call_soon_threadsafe(opened.on_end)
        return len(found)

    def recheck(self, sessions: auth.Sessions) -> int:
        """Close the sockets whose session ended without this process hearing of it (the
        other processes' word was lost while Redis was away); how many."""
        with self._lock:
            held = {h: next(iter(opened)).user_id for h, opened in self.by_session.items()}
        return sum(self.ended(id_hash=h) for h, user in held.items()
                   if sessions.user_of(h) != user)

    def __len__(self) -> int:
        with self._lock:
            return sum(self.by_address.values())


def _drop(index: dict[str, set[Opened]] | dict[int, set[Opened]], key: object,
          opened: Opened) -> None:
    have = index.get(key) if key is not None else None  # type: ignore[call-overload]
    if have is not None:
        have.discard(opened)
        if not have:
            del index[key]  # type: ignore[arg-type]


def sockets(conn: HTTPConnection) -> Sockets:
    """The app's sockets (a route dependency)."""
    return conn.app.state.sockets


SocketsDep = Annotated[Sockets, Depends(sockets)]


async def refuse(ws: WebSocket, reason: str) -> None:
    """Close an accepted socket that may not stay (too many from its address or at its
    table), saying why: an ``error`` message, then the close frame's reason."""
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": Message.ERROR, "code": Code.QUOTA,
                                       "reason": reason}))
        await ws.close(code=TOO_MANY_CLOSE, reason=close_reason(reason))


async def close_ended(ws: WebSocket) -> None:
    """Close a socket whose session ended, saying so."""
    with contextlib.suppress(Exception):
        await ws.close(code=ENDED_CLOSE, reason=close_reason(
            _("you were signed out: this connection was closed")))


def close_reason(reason: str) -> str:
    """``reason`` cut to what a close frame carries (123 bytes of UTF-8)."""
    data = reason.encode()
    return reason if len(data) <= 123 else data[:120].decode(errors="ignore") + "..."
