"""The language of each request and socket: the ``lang`` cookie (the person's choice, set from
their account when they sign in), else the browser's ``Accept-Language``, else English. Every
request and socket runs speaking it (:func:`meeple.engine.i18n.speaking`)."""

from __future__ import annotations

from http.cookies import SimpleCookie

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from meeple.engine import i18n

COOKIE = "lang"
"""The cookie that keeps a person's language."""
YEAR = 365 * 24 * 3600


def remember(response: Response, lang: str, secure: bool = False) -> None:
    """Keep ``lang`` as this browser's language (the ``lang`` cookie, for a year)."""
    response.set_cookie(COOKIE, lang, max_age=YEAR, samesite="lax", secure=secure)


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The language of a request from its ``lang`` cookie and ``Accept-Language`` header."""
    return i18n.known(cookie) or i18n.negotiate(accept_language) or i18n.DEFAULT


def of_scope(scope: Scope) -> str:
    """The language of an HTTP or WebSocket connection."""
    cookie = accept = None
    for key, value in scope.get("headers", ()):
        if key == b"cookie" and len(value) <= 8192:
            try:
                jar = SimpleCookie(value.decode("latin-1"))
            except Exception:  # a malformed cookie header names no language
                continue
            if COOKIE in jar:
                cookie = jar[COOKIE].value
        elif key == b"accept-language" and len(value) <= 1024:
            accept = value.decode("latin-1")
    return choose(cookie, accept)


class Speaking:
    """ASGI middleware: run each request and socket in its language (``scope["lang"]``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        lang = of_scope(scope)
        scope["lang"] = lang
        with i18n.speaking(lang):
            await self.app(scope, receive, send)
