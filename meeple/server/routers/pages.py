"""The pages of the one-page web client: every page path serves ``index.html``."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse, HTMLResponse

from ..deps import SettingsDep

PAGES = ("/", "/login", "/signup", "/lobby", "/new", "/games")
PAGE_PREFIXES = ("table", "replay", "rules", "profile", "invite", "watch")
NO_CLIENT = ("<!doctype html><title>meeple</title><p>meeple: no web client installed; the API "
             "is at <a href=/api/docs>/api/docs</a>.</p>")

router = APIRouter(include_in_schema=False)


def index(settings: SettingsDep) -> Response:
    page = settings.web_dir / "index.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html")
    return HTMLResponse(NO_CLIENT)


for _path in PAGES:
    router.add_api_route(_path, index, methods=["GET"])
for _prefix in PAGE_PREFIXES:
    router.add_api_route(f"/{_prefix}/{{rest:path}}", index, methods=["GET"])
