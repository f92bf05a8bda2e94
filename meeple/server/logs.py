"""The server's log: one line per request (:class:`RequestLog`: a request id, also sent back
as ``X-Request-ID``, the method, the route, the status and the time taken), as text or as
JSON (:func:`setup`).

A line names the route's pattern (``/api/tables/{table_id}/act``), never the path as asked
nor its query, headers, cookies or body: seat tokens, invite codes, passwords and session
cookies never reach the log.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import sys
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

access = logging.getLogger("meeple.access")
request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")
"""The id of the request being served (empty outside one)."""
GIVEN_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
"""An ``X-Request-ID`` a proxy may give (nginx's ``$request_id``); any other is replaced."""
FIELDS = ("request_id", "method", "route", "status", "ms", "kind")


def route_of(scope: Scope) -> str:
    """The pattern of the route that served ``scope`` (``unmatched`` when none did)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    return "static" if str(scope.get("path", "")).startswith(("/static/", "/vendor/")) \
        else "unmatched"


class RequestLog:
    """ASGI middleware: a request id for each HTTP request and WebSocket, and one log line
    when it ends."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = ""
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                given = value.decode("latin-1")
                break
        rid = given if GIVEN_ID.match(given) else secrets.token_hex(8)
        token = request_id.set(rid)
        status = 0
        start = time.perf_counter()

        async def sending(message: Message) -> None:
            nonlocal status
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()),
                                      (b"x-request-id", rid.encode())]
            elif kind == "websocket.accept":
                status = 101
                message["headers"] = [*message.get("headers", ()),
                                      (b"x-request-id", rid.encode())]
            elif kind == "websocket.close" and not status:
                status = 403  # closed before it was accepted
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            status = 500
            raise
        finally:
            access.info("%s %s %s", scope.get("method", "WS"), route_of(scope), status,
                        extra={"request_id": rid, "method": scope.get("method", "WS"),
                               "route": route_of(scope), "status": status,
                               "ms": round((time.perf_counter() - start) * 1000, 1),
                               "kind": scope["type"]})
            request_id.reset(token)


class JsonLines(logging.Formatter):
    """A log record as one JSON object: time, level, logger, message, the request id in
    force, and a request's fields; an exception as its type and its traceback."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", "") or request_id.get()
        if rid:
            out["request_id"] = rid
        for name in FIELDS[1:]:
            if hasattr(record, name):
                out[name] = getattr(record, name)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


JsonLines.converter = time.gmtime


def setup(format: str = "text", level: int = logging.INFO) -> None:
    """Send every log record (the server's, uvicorn's) to standard error, one line each, as
    ``text`` or ``json``."""
    handler = logging.StreamHandler(sys.stderr)
    if format == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
