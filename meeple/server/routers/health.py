"""Health: whether the server answers (``/healthz``) and whether it can serve, its database
and Redis answering (``/readyz``: 503 while either does not, for a proxy or a supervisor)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from ..deps import ServicesDep
from ..schemas import Ok
from ..settings import WAIT, redis_answers

router = APIRouter(tags=["health"])


@router.get("/healthz")
def health() -> Ok:
    return Ok(ok=True)


@router.get("/readyz", responses={503: {"description": "the database or Redis does not answer"}})
async def ready(s: ServicesDep) -> JSONResponse:
    """``{"ok": true, "database": "ok", "redis": "ok"}`` (``redis`` only with Redis), or 503
    with ``"unreachable"`` for what does not answer."""
    checks: dict[str, Any] = {"database": await _database_answers(s.store)}
    if s.settings.redis_url:
        checks["redis"] = await redis_answers(s.settings.redis_url)
    body = {k: "ok" if v else "unreachable" for k, v in checks.items()}
    ok = all(checks.values())
    return JSONResponse({"ok": ok, **body}, status_code=200 if ok else 503)


async def _database_answers(store: Any) -> bool:
    engine = getattr(store, "engine", None)
    if engine is None:  # kept in memory: always there
        return True

    def ask() -> None:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    try:
        await asyncio.wait_for(asyncio.to_thread(ask), WAIT)
    except Exception:
        return False
    return True
