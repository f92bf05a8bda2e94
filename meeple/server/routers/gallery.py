"""Pictures of the games for the lobby: one sample position per game, drawn by its renderer.

Each picture is computed once per process and language, in a thread of its own (a sample game
is played by the greedy bots, which takes up to a few seconds), and then served from memory.
The pictures are made one at a time there, so they never hold the threads the rest of the
server uses.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor

from fastapi import APIRouter, HTTPException, Request, Response

import meeple
from meeple.engine import i18n
from meeple.gallery import lobby_picture

router = APIRouter(prefix="/api", tags=["lobby"])
_, _n = i18n.words(__file__)

_pictures: dict[tuple[str, str], tuple[str, str]] = {}
"""(Game name, language) -> (SVG, entity tag)."""
_locks: dict[tuple[str, str], threading.Lock] = {}
_guard = threading.Lock()
_painter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-pictures")
MAX_AGE = 600
"""How long a browser may keep a picture without asking again, in seconds."""


def _picture(name: str, lang: str) -> tuple[str, str]:
    """The lobby picture of a game in ``lang`` and its entity tag, computed on the first call
    only."""
    key = (name, lang)
    with _guard:
        lock = _locks.setdefault(key, threading.Lock())
    with lock:
        if key not in _pictures:
            with i18n.speaking(lang):
                svg = lobby_picture(name)
            tag = '"' + hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16] + '"'
            _pictures[key] = (svg, tag)
        return _pictures[key]


@router.get("/games/{name}/picture", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
async def picture(name: str, request: Request) -> Response:
    """A picture of the game in play (SVG), for its card in the lobby."""
    if name not in meeple.games():
        raise HTTPException(404, _("There is no game named {name}; there are {games}.",
                                   name=repr(name), games=", ".join(meeple.games())))
    lang = i18n.language()
    cached = _pictures.get((name, lang))
    if cached is None:
        cached = await asyncio.get_running_loop().run_in_executor(_painter, _picture, name,
                                                                  lang)
    svg, tag = cached
    headers = {"Cache-Control": f"public, max-age={MAX_AGE}", "ETag": tag,
               "Vary": "Cookie, Accept-Language"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(svg, media_type="image/svg+xml", headers=headers)
