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
from typing import TYPE_CHECKING, Any

from .db import default_sqlite_url

if TYPE_CHECKING:
    from .app import create_app


def __getattr__(name: str) -> Any:
    """``create_app`` is imported on first use: what reads and checks the settings
    (``meeple serve --check-config``) needs none of the app."""
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    secure_cookies: bool = False,
    metrics: tuple[str, int] | None = None,
    log_format: str = "text",
) -> None:
    """Run the web platform until interrupted.

    ``db`` defaults to a SQLite file ``meeple.db`` in ``data_dir`` (``./meeple-data``);
    PostgreSQL with ``postgresql+psycopg://...``. ``redis`` fans table updates out to other
    server processes sharing the database. Migrations are applied at start.
    ``trusted_proxies``: the proxies whose ``X-Forwarded-For``/``-Proto`` are believed (none
    by default: the headers are ignored, also by uvicorn); ``allowed_origins``: the page
    origins a WebSocket may come from (default: this server's own); ``smtp``: the SMTP server
    of turn e-mails (``smtp://host:port?from=...&site=...``; none by default: no e-mail);
    ``secure_cookies``: the session cookie travels over HTTPS only (behind an HTTPS proxy);
    ``metrics``: the address where ``/metrics`` is served (none by default);
    ``log_format``: ``text`` or ``json``, one line per request either way
    (:mod:`.logs`). :mod:`.settings` reads all of these from a file or the environment.
    """
    import uvicorn

    from . import logs

    url = db or default_sqlite_url(data_dir)
    logs.setup(log_format)
    if reload:
        import os

        os.environ.update(MEEPLE_DB=url, MEEPLE_LOG_FORMAT=log_format,
                          MEEPLE_SECURE_COOKIES=str(secure_cookies))
        if redis:
            os.environ["MEEPLE_REDIS"] = redis
        if trusted_proxies:
            os.environ["MEEPLE_TRUSTED_PROXIES"] = ",".join(trusted_proxies)
        if allowed_origins:
            os.environ["MEEPLE_ALLOWED_ORIGINS"] = ",".join(allowed_origins)
        if smtp:
            os.environ["MEEPLE_SMTP"] = smtp
        uvicorn.run("meeple.server:app_from_env", factory=True, host=host, port=port,
                    reload=True, ws_per_message_deflate=False, proxy_headers=False,
                    log_config=None, access_log=False)
        return
    from .app import create_app

    app = create_app(url, redis, bot_delay=0.4, trusted_proxies=trusted_proxies,
                     allowed_origins=allowed_origins, smtp_url=smtp, warm_bots=True,
                     secure_cookies=secure_cookies)
    if metrics is not None:
        from . import metrics as measured

        measured.instrument(app)
        measured.serve(*metrics)
    # Frames are compressed by nobody: per-message deflate of every frame costs more CPU than
    # the rest of a move on a small server. Forwarded headers are read by the app itself
    # (only from trusted proxies), never by uvicorn, which would believe them from 127.0.0.1.
    # Requests are logged by the app (logs.RequestLog: the route, never the path as asked).
    uvicorn.run(app, host=host, port=port, log_config=None, access_log=False,
                ws_max_size=1 << 20, ws_per_message_deflate=False, proxy_headers=False)


def app_from_env():
    """The app for ``uvicorn --factory``, set up by the environment (:mod:`.settings`)."""
    from . import settings
    from .app import create_app

    config = settings.load()
    return create_app(
        config.db or default_sqlite_url(None), config.redis, bot_delay=0.4,
        trusted_proxies=config.trusted_proxies,
        allowed_origins=config.allowed_origins or None, smtp_url=config.smtp,
        secure_cookies=config.secure_cookies,
    )


__all__ = ["app_from_env", "create_app", "serve"]
