"""Pictures of the games for the lobby: one sample position per game, drawn by its renderer.

Each picture is computed once per process, in a thread of its own (a sample game is played by
the greedy bots, which takes up to a few seconds), and then served from memory. The pictures
are made one at a time there, so they never hold the threads the rest of the server uses.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor

from fastapi import APIRouter, HTTPException, Request, Response

import meeple
from meeple.gallery import lobby_picture

router = APIRouter(prefix="/api", tags=["lobby"])

_pictures: dict[str, tuple[str, str]] = {}
"""Game name -> (SVG, entity tag)."""
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()
_painter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-pictures")
MAX_AGE = 600
"""How long a browser may keep a picture without asking again, in seconds."""


def _picture(name: str) -> tuple[str, str]:
    """The lobby picture of a game and its entity tag, computed on the first call only."""
    with _guard:
        lock = _locks.setdefault(name, threading.Lock())
    with lock:
        if name not in _pictures:
            svg = lobby_picture(name)
            tag = '"' + hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16] + '"'
            _pictures[name] = (svg, tag)
        return _pictures[name]


@router.get("/games/{name}/picture", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
async def picture(name: str, request: Request) -> Response:
    """A picture of the game in play (SVG), for its card in the lobby."""
    if name not in meeple.games():
        raise HTTPException(404, f"no game named {name!r}; known: {', '.join(meeple.games())}")
    cached = _pictures.get(name)
    if cached is None:
        cached = await asyncio.get_running_loop().run_in_executor(_painter, _picture, name)
    svg, tag = cached
    headers = {"Cache-Control": f"public, max-age={MAX_AGE}", "ETag": tag}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(svg, media_type="image/svg+xml", headers=headers)
