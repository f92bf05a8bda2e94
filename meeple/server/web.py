"""The edge of the server: who a request really comes from (trusted proxies), whether a
WebSocket comes from a page of this server (``Origin``), and the check of every request body
before a route sees it (JSON only, valid UTF-8, no NaN or Infinity, no lone surrogates, not
too deep, not too large): a malformed request is a 4xx with a reason, never a traceback.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from starlette.requests import HTTPConnection

from meeple.engine.i18n import words

_, _n = words(__file__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024
MAX_DEPTH = 32
MAX_NUMBER = 30
"""The most digits a number in a request may have."""


# ---------------------------------------------------------------------- real clients
class Proxies:
    """The proxies whose ``X-Forwarded-For`` is believed (default: none, the header is
    ignored): addresses or networks such as ``127.0.0.1`` or ``10.0.0.0/8``."""

    def __init__(self, trusted: Iterable[str] = ()):
        self.nets = [ipaddress.ip_network(t, strict=False) for t in trusted]

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.nets)

    def client(self, conn: HTTPConnection) -> str:
        """The address a request comes from: the peer, or, when the peer is a trusted proxy,
        the nearest address in ``X-Forwarded-For`` that is not a trusted proxy."""
        peer = conn.client.host if conn.client else "?"
        if not self.nets or not self.trusts(peer):
            return peer
        hops = [h.strip() for h in conn.headers.get("x-forwarded-for", "").split(",")]
        for hop in reversed([h for h in hops if h]):
            if not self.trusts(hop):
                return hop
        return peer

    def scheme(self, conn: HTTPConnection) -> str:
        """``https`` when the request came over https (as a trusted proxy says)."""
        peer = conn.client.host if conn.client else "?"
        if self.nets and self.trusts(peer):
            proto = conn.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
            if proto in ("http", "https"):
                return proto
        return conn.url.scheme


class BadMessage(ValueError):
    """A socket message that is not a short JSON object; the text says why."""


def socket_message(text: str | None, limit: int) -> dict[str, Any]:
    """A socket message read as a JSON object of at most ``limit`` characters, else
    :class:`BadMessage` (also for bytes, NaN or Infinity, and nesting too deep to read)."""
    if text is None:
        raise BadMessage(_("messages are JSON text"))
    if len(text) > limit:
        raise BadMessage(_("message too long"))
    try:
        msg = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BadMessage(_("messages are JSON objects")) from None
    if not isinstance(msg, dict):
        raise BadMessage(_("messages are JSON objects"))
    return msg


def _no_constant(name: str) -> Any:
    raise ValueError(_("{name} is not a number", name=name))


def origin_allowed(conn: HTTPConnection, allowed: Iterable[str] | None) -> bool:
    """Whether a WebSocket may open: no ``Origin`` (a program, not a browser page), or the
    origin is one of ``allowed``, or (``allowed`` not given) this server's own origin, the
    page's host being the ``Host`` the socket was opened to."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if allowed is not None:
        return origin in {a.rstrip("/").lower() for a in allowed}
    host = conn.headers.get("host", "").lower()
    return bool(host) and origin in (f"http://{host}", f"https://{host}")


# ---------------------------------------------------------------------- bodies
class BadBody(ValueError):
    """A request body that no route should see; the message says why."""


def _constant(name: str) -> Any:
    raise BadBody(_("{name} is not a number JSON allows", name=name))


def _number(text: str) -> Any:
    if len(text.lstrip("-")) > MAX_NUMBER:
        raise BadBody(_("a number of {n_text} digits is too long", n_text=len(text)))
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER + 10:
        raise BadBody(_("a number is too long"))
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BadBody(_("a number is too large"))
    return value


def _depth_ok(value: Any, depth: int = 0) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, dict):
        return all(_depth_ok(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(_depth_ok(v, depth + 1) for v in value)
    return True


def check_json(raw: bytes) -> Any:
    """The JSON value of a request body, or :class:`BadBody` saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadBody(_("the body is not UTF-8 text")) from None
    try:
        value = json.loads(text, parse_constant=_constant, parse_int=_number,
                           parse_float=_float)
    except BadBody:
        raise
    except RecursionError:
        raise BadBody(_("the body is nested too deep")) from None
    except ValueError as e:
        raise BadBody(_("the body is not valid JSON: {reason}", reason=e)) from None
    if not _depth_ok(value):
        raise BadBody(_("the body is nested too deep"))
    try:  # lone surrogates ("\ud800") decode to strings that no database or answer can hold
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadBody(_("the body holds text that is not valid Unicode")) from None
    return value


class CheckedBodies:
    """ASGI middleware: every HTTP request body is read (at most ``MAX_BODY`` bytes) and
    checked as JSON before the route sees it; a bad one is answered 422 (413 when too large)
    with ``{"detail": reason}``. Paths, queries and headers with NUL or invalid text are
    refused the same way."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        problem = _bad_address(scope)
        if problem is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4400})
                return
            await _answer(send, 400, problem)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > MAX_BODY:
                await _answer(send, 413, _("a request body is at most {most} bytes", most=MAX_BODY))
                return
            chunks.append(body)
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        if raw.strip():
            try:
                check_json(raw)
            except BadBody as e:
                await _answer(send, 422, str(e))
                return
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _bad_address(scope: Scope) -> str | None:
    path = scope.get("path", "")
    query = scope.get("query_string", b"")
    if "\x00" in path or b"%00" in query or b"\x00" in query:
        return _("the address holds a NUL character")
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return _("the address is not valid text")
    raw = scope.get("raw_path")
    if isinstance(raw, bytes) and b"%00" in raw:
        return _("the address holds a NUL character")
    try:
        from urllib.parse import unquote_to_bytes

        unquote_to_bytes(query).decode("utf-8")
    except UnicodeDecodeError:
        return _("the address is not valid UTF-8 text")
    return None


async def _answer(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
