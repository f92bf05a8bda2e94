"""The pages of the one-page web client: every page path serves ``index.html``; any other path
outside the API and the static files serves it too, with the status 404, so that the client
shows its own "page not found". The favicon is an SVG meeple."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse, HTMLResponse
from starlette.convertors import Convertor, register_url_convertor

from ..deps import SettingsDep

PAGES = ("/", "/login", "/signup", "/lobby", "/new", "/games")
PAGE_PREFIXES = ("table", "replay", "rules", "profile", "invite", "watch", "review", "tutorial")
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


def _page(settings: SettingsDep, status: int) -> Response:
    page = settings.web_dir / "index.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html", status_code=status)
    return HTMLResponse(NO_CLIENT, status_code=status)


def index(settings: SettingsDep) -> Response:
    """A page of the client."""
    return _page(settings, 200)


def favicon(settings: SettingsDep) -> Response:
    """The site's icon: a meeple, as SVG."""
    icon = settings.web_dir / FAVICON
    if not icon.is_file():
        return Response(status_code=404)
    return FileResponse(icon, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})


def not_found(settings: SettingsDep) -> Response:
    """A path the client has no page for: its own "page not found", with the status 404."""
    return _page(settings, 404)


for _path in PAGES:
    router.add_api_route(_path, index, methods=["GET"])
for _prefix in PAGE_PREFIXES:
    router.add_api_route(f"/{_prefix}/{{rest:path}}", index, methods=["GET"])
for _icon in ("/favicon.svg", "/favicon.ico"):
    router.add_api_route(_icon, favicon, methods=["GET"])
# Last: the router is included after every other one, and this route steps aside for the API,
# the static files and the sockets (mounted after it).
router.add_api_route("/{rest:meeple_other_path}", not_found, methods=["GET"])
