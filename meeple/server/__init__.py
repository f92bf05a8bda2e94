"""The web platform: ``serve()`` runs it, ``create_app()`` builds the FastAPI app (for tests
and for mounting elsewhere). The API is described in ``docs/api.md``.

Layout: ``app`` wires the app together; ``routers/`` holds one router per area (accounts,
lobby, tables, live play, health, pages) using the dependencies in ``deps`` and the bodies in
``schemas``; ``service`` is the one writer of tables and seats, over a ``store`` (SQL or in
memory); ``live`` keeps each loaded table's engine state and frames, ``views`` builds what
people see (summaries, frames, logs); ``domain`` names the statuses, kinds and records;
``pool`` and ``bot_worker`` run heavy work and thinking bots off the event loop; ``web``
checks what comes in (bodies, origins, forwarded addresses).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .app import create_app
from .db import default_sqlite_url


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    redis: str | None = None,
    data_dir: Path | None = None,
    reload: bool = False,
    trusted_proxies: Sequence[str] = (),
    allowed_origins: Sequence[str] | None = None,
    smtp: str | None = None,
) -> None:
    """Run the web platform until interrupted.

    ``db`` defaults to a SQLite file ``meeple.db`` in ``data_dir`` (``./meeple-data``);
    PostgreSQL with ``postgresql+psycopg://...``. ``redis`` fans table updates out to other
    server processes sharing the database. Migrations are applied at start.
    ``trusted_proxies``: the proxies whose ``X-Forwarded-For``/``-Proto`` are believed (none
    by default: the headers are ignored, also by uvicorn); ``allowed_origins``: the page
    origins a WebSocket may come from (default: this server's own); ``smtp``: the SMTP server
    of turn e-mails (``smtp://host:port?from=...&site=...``; none by default: no e-mail).
    """
    import uvicorn

    url = db or default_sqlite_url(data_dir)
    if reload:
        import os

        os.environ["MEEPLE_DB"] = url
        if redis:
            os.environ["MEEPLE_REDIS"] = redis
        if trusted_proxies:
            os.environ["MEEPLE_TRUSTED_PROXIES"] = ",".join(trusted_proxies)
        if smtp:
            os.environ["MEEPLE_SMTP"] = smtp
        uvicorn.run("meeple.server:app_from_env", factory=True, host=host, port=port,
                    reload=True, ws_per_message_deflate=False, proxy_headers=False)
        return
    app = create_app(url, redis, bot_delay=0.4, trusted_proxies=trusted_proxies,
                     allowed_origins=allowed_origins, smtp_url=smtp, warm_bots=True)
    # Frames are compressed by nobody: per-message deflate of every frame costs more CPU than
    # the rest of a move on a small server. Forwarded headers are read by the app itself
    # (only from trusted proxies), never by uvicorn, which would believe them from 127.0.0.1.
    uvicorn.run(app, host=host, port=port, log_level="info", ws_max_size=1 << 20,
                ws_per_message_deflate=False, proxy_headers=False)


def app_from_env():
    """The app for ``uvicorn --factory``: database and Redis from MEEPLE_DB / MEEPLE_REDIS."""
    import os

    proxies = os.environ.get("MEEPLE_TRUSTED_PROXIES", "")
    return create_app(
        os.environ.get("MEEPLE_DB") or default_sqlite_url(None),
        os.environ.get("MEEPLE_REDIS") or None,
        bot_delay=0.4,
        trusted_proxies=[p for p in proxies.split(",") if p],
        smtp_url=os.environ.get("MEEPLE_SMTP") or None,
    )


__all__ = ["app_from_env", "create_app", "serve"]
