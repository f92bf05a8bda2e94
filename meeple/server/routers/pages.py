"""The pages of the one-page web client: every page path serves ``index.html``; any other path
outside the API and the static files serves it too, with the status 404, so that the client
shows its own "page not found". ``index.html`` is served in the request's language: its
``{{ text }}`` filled from the web client's catalog and ``<html lang>`` set (which tells the
client which words to load). The favicon is an SVG meeple."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, HTMLResponse
from starlette.convertors import Convertor, register_url_convertor

from meeple.engine import i18n

from ..deps import SettingsDep

PAGES = ("/", "/login", "/signup", "/lobby", "/new", "/games", "/leaderboard")
PAGE_PREFIXES = ("table", "replay", "rules", "profile", "invite", "watch", "review", "tutorial",
                 "leaderboard")
NOT_PAGES = ("api", "static", "vendor", "ws")
"""Path prefixes that are never pages: an unknown path under them keeps its own 404."""
NO_CLIENT = ("<!doctype html><title>meeple</title><p>meeple: no web client installed; the API "
             "is at <a href=/api/docs>/api/docs</a>.</p>")
FAVICON = "favicon.svg"


class OtherPath(Convertor[str]):
    """Any path but those under the API, the static files and the sockets."""

    regex = "(?!(?:" + "|".join(NOT_PAGES) + ")(?:/|$)).*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("meeple_other_path", OtherPath())

router = APIRouter(include_in_schema=False)


HTML_TEXT = re.compile(r"\{\{\s*(.+?)\s*\}\}", re.S)
"""A text of the page to fill in: ``{{ Skip to content }}`` (as the catalogs extract it)."""
HTML_LANG = re.compile(r"<html\b[^>]*>", re.I)


@cache
def _filled(path: Path, mtime: float, lang: str) -> str:
    """``index.html`` at ``path`` (as it was at ``mtime``) in ``lang``."""
    words = i18n.words_of(i18n.ROOT / "web" / "app.js")
    text = path.read_text(encoding="utf-8")
    with i18n.speaking(lang):
        text = HTML_TEXT.sub(lambda m: html.escape(words.say(" ".join(m.group(1).split()))),
                             text)
    return HTML_LANG.sub(f'<html lang="{lang}">', text, count=1)


def filled_page(path: Path, lang: str) -> str:
    """The client's page in ``lang``, read once per language (again when the file changes)."""
    return _filled(path, path.stat().st_mtime, i18n.known(lang) or i18n.DEFAULT)


def _page(request: Request, settings: SettingsDep, status: int) -> Response:
    page = settings.web_dir / "index.html"
    if page.is_file():
        lang = request.scope.get("lang") or i18n.language()
        return HTMLResponse(filled_page(page, lang), status_code=status,
                            headers={"Content-Language": i18n.known(lang) or i18n.DEFAULT,
                                     "Vary": "Cookie, Accept-Language"})
    return HTMLResponse(NO_CLIENT, status_code=status)


def index(request: Request, settings: SettingsDep) -> Response:
    """A page of the client."""
    return _page(request, settings, 200)


def favicon(settings: SettingsDep) -> Response:
    """The site's icon: a meeple, as SVG."""
    icon = settings.web_dir / FAVICON
    if not icon.is_file():
        return Response(status_code=404)
    return FileResponse(icon, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})


def not_found(request: Request, settings: SettingsDep) -> Response:
    """A path the client has no page for: its own "page not found", with the status 404."""
    return _page(request, settings, 404)


for _path in PAGES:
    router.add_api_route(_path, index, methods=["GET"])
for _prefix in PAGE_PREFIXES:
    router.add_api_route(f"/{_prefix}/{{rest:path}}", index, methods=["GET"])
for _icon in ("/favicon.svg", "/favicon.ico"):
    router.add_api_route(_icon, favicon, methods=["GET"])
# Last: the router is included after every other one, and this route steps aside for the API,
# the static files and the sockets (mounted after it).
router.add_api_route("/{rest:meeple_other_path}", not_found, methods=["GET"])
