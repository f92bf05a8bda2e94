"""The FastAPI application: wiring only. The routes live in ``routers/`` (one per area), every
change to a table in the table service (``service.py``), storage behind ``store.py``.

The routes are described in ``docs/api.md`` and at ``/api/docs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

import meeple
from meeple.bots.hint import ready
from meeple.engine import MeepleError, i18n
from meeple.engine.i18n import N_

from . import auth, deps
from .community import Community
from .deps import Limiter, Rate, Services, Settings
from .domain import Quotas, Refused
from .language import Speaking
from .logs import RequestLog
from .pool import BotPool, WorkPool
from .reviews import Reviews, ReviewStore
from .routers import (
    accounts,
    chat,
    gallery,
    health,
    learn,
    lobby,
    moderation,
    pages,
    people,
    play,
    review,
    tables,
    words,
)
from .service import TableService
from .sockets import Sockets
from .store import SqlStore, Store
from .web import CheckedBodies, Proxies

_, _n = i18n.words(__file__)
log = logging.getLogger("meeple.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
CHECKPOINT_EVERY = 2.0
YOUNG_EVERY = 0.1
"""Seconds between collections of the garbage collector's youngest generation (see
:func:`collections`); the middle one is collected every ``MIDDLE_EVERY`` of them and the whole
heap every ``FULL_EVERY`` (ten minutes: with a thousand people connected, one takes about
0.4 s, and nothing else runs meanwhile)."""
MIDDLE_EVERY = 10
FULL_EVERY = 6000


def create_app(
    db_url: str | None = None,
    redis_url: str | None = None,
    *,
    store: Store | None = None,
    web_dir: Path | None = None,
    bot_delay: float = 0.0,
    secure_cookies: bool = False,
    login_limit: tuple[int, int, float] = (5, 20, 60.0),
    trusted_proxies: Sequence[str] = (),
    allowed_origins: Sequence[str] | None = None,
    quotas: Quotas | None = None,
    work: WorkPool | None = None,
    bots: BotPool | None = None,
    smtp_url: str | None = None,
    warm_bots: bool = False,
    rates: Mapping[str, Rate] | None = None,
) -> FastAPI:
    """The web platform on the database ``db_url`` (migrations applied now), or on ``store``.

    ``redis_url`` fans table updates out to other processes on the same database; ``bot_delay``
    is how long a bot waits before it moves (so people can follow). ``trusted_proxies``: the
    proxies whose ``X-Forwarded-For`` counts (default none: the header is ignored);
    ``allowed_origins``: the page origins a WebSocket may come from (default: this server's
    own); ``quotas``: what one player may have open; ``work``/``bots``: the pools of heavy
    requests and of thinking bots; ``smtp_url``: the SMTP server of turn e-mails (none: no
    e-mail); ``warm_bots``: start the bots' processes with the server, so the first hint or
    search bot answers at once instead of after their start-up of several seconds.
    ``rates``: the rate limits of some kinds of costly routes, per person and per address
    (the others keep :data:`~meeple.server.deps.RATES`); with ``redis_url`` every process
    shares the counts.
    """
    if store is None:
        if db_url is None:
            raise ValueError("create_app needs a database URL or a store")
        store = SqlStore(db_url)
    meeple.games()  # import every game now, not during the first request
    settings = Settings(web_dir=Path(web_dir) if web_dir is not None else WEB_DIR,
                        secure_cookies=secure_cookies, bot_delay=bot_delay, redis_url=redis_url,
                        allowed_origins=list(allowed_origins) if allowed_origins is not None
                        else None, proxies=Proxies(trusted_proxies), smtp_url=smtp_url,
                        warm_bots=warm_bots, rates={**deps.RATES, **(rates or {})})
    service = TableService(store, bot_delay=bot_delay, quotas=quotas, work=work, bots=bots)
    services = Services(settings=settings, store=store, tables=service,
                        cookies=auth.Sessions(store),
                        limiter=auth.RateLimit(*login_limit),
                        rates=Limiter(settings.rates, redis_url))

    app = FastAPI(title="meeple", lifespan=_lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.services = services
    app.state.sockets = Sockets()
    services.cookies.on_end.append(app.state.sockets.ended)  # a session's sockets close
    app.state.community = community = Community(store, smtp_url=smtp_url, redis_url=redis_url)
    community.attach(service)
    community.chat.limiter = services.rates
    service.on_event(community.on_event)
    app.state.reviews = Reviews(service, ReviewStore(getattr(store, "engine", None)))
    app.add_exception_handler(MeepleError, _meeple_error)  # type: ignore[arg-type]
    app.add_exception_handler(Refused, _refused)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.add_middleware(CheckedBodies)
    app.add_middleware(Speaking)
    # pages, scripts and answers compressed where the browser accepts it (a table's first
    # load on a phone's network); the sockets' frames are compressed by their own extension
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(RequestLog)  # outermost: a request id and one log line each
    for module in (accounts, lobby, gallery, tables, play, chat, people, moderation, health,
                   learn, review, words, pages):
        app.include_router(module.router)
    app.include_router(learn.pages)
    web = settings.web_dir
    if web.is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")
        if (web / "node_modules").is_dir():
            app.mount("/vendor", StaticFiles(directory=web / "node_modules"), name="vendor")
    return app


async def _meeple_error(request: Request, exc: MeepleError) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=422)


async def _refused(request: Request, exc: Refused) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return JSONResponse({"detail": exc.reason}, status_code=exc.http_status, headers=headers)


async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A body or query that does not fit the route: 422 with each problem in words (never
    the input itself, which may not even be printable)."""
    problems = []
    for err in exc.errors():
        where = ".".join(str(part) for part in err.get("loc", ()))
        problems.append({"loc": [str(p) for p in err.get("loc", ())],
                         "msg": _("{where}: {problem}", where=where, problem=_problem(err))})
    return JSONResponse({"detail": problems}, status_code=422)


PROBLEMS = {
    "missing": N_("this is needed"),
    "string_type": N_("text is needed"),
    "string_too_short": N_("at least {min_length} characters are needed"),
    "string_too_long": N_("at most {max_length} characters"),
    "string_pattern_mismatch": N_("this text is not of the right form"),
    "int_type": N_("a whole number is needed"),
    "int_parsing": N_("a whole number is needed"),
    "int_from_float": N_("a whole number is needed"),
    "float_type": N_("a number is needed"),
    "float_parsing": N_("a number is needed"),
    "bool_type": N_("true or false is needed"),
    "bool_parsing": N_("true or false is needed"),
    "greater_than": N_("more than {gt} is needed"),
    "greater_than_equal": N_("at least {ge} is needed"),
    "less_than": N_("less than {lt} is needed"),
    "less_than_equal": N_("at most {le}"),
    "literal_error": N_("one of {expected} is needed"),
    "enum": N_("one of {expected} is needed"),
    "dict_type": N_("an object is needed"),
    "model_type": N_("an object is needed"),
    "model_attributes_type": N_("an object is needed"),
    "list_type": N_("a list is needed"),
    "too_short": N_("at least {min_length} items are needed"),
    "too_long": N_("at most {max_length} items"),
    "json_invalid": N_("this is not valid JSON"),
    "extra_forbidden": N_("this field is not known"),
}
"""What is wrong with a part of a request, by the validator's kind of error."""


def _problem(err: dict[str, object]) -> str:
    """One validation problem in words, in the language in use."""
    kind = str(err.get("type", ""))
    ctx = err.get("ctx")
    params = dict(ctx) if isinstance(ctx, dict) else {}
    if kind == "value_error" and "error" in params:
        return str(params["error"])  # said where it was raised
    text = PROBLEMS.get(kind)
    if text is None:
        return _("this is not valid")
    values = {k: v if isinstance(v, int | float) and not isinstance(v, bool) else str(v)
              for k, v in params.items() if k != "error"}
    try:
        return _(text, **values)
    except (KeyError, IndexError, ValueError):
        return _("this is not valid")


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    s: Services = app.state.services
    fanout = sessions = None
    if s.settings.redis_url:
        from .fanout import RedisFanout, SessionFanout

        fanout = RedisFanout(s.settings.redis_url, s.tables.on_remote_change,
                             s.tables.on_remote_resume)
        await fanout.start()
        s.tables.fanout = fanout
        open_sockets = app.state.sockets

        async def recheck() -> None:
            await asyncio.to_thread(open_sockets.recheck, s.cookies)

        sessions = SessionFanout(s.settings.redis_url, open_sockets.ended, recheck)
        await sessions.start()
        s.cookies.on_end.append(sessions.share)
    await app.state.community.start()
    s.tables.resume()
    await s.tables.recover_starts()
    warm = asyncio.create_task(s.tables.bots.run(ready)) if s.settings.warm_bots else None
    # Everything loaded so far (modules, the app, resumed tables) lives as long as the
    # process: keep it out of the garbage collector's full collections, which stop the
    # event loop for as long as they take. Building a frame allocates thousands of short-
    # lived objects; collecting the youngest generation less often lets them die first
    # instead of being promoted towards a full collection.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    keeper = asyncio.create_task(_checkpoints(s.store))
    collector = asyncio.create_task(collections())
    try:
        yield
    finally:
        keeper.cancel()
        collector.cancel()
        if warm is not None:
            warm.cancel()
        app.state.reviews.stop()  # the estimates stored stay: the next start resumes them
        s.tables.stop()
        await app.state.community.stop()
        await s.rates.close()
        if fanout is not None:
            await fanout.stop()
        if sessions is not None:
            s.cookies.on_end.remove(sessions.share)
            await sessions.stop()
        with contextlib.suppress(Exception):
            s.store.checkpoint("TRUNCATE")
        s.store.close()


async def collections(every: float = YOUNG_EVERY) -> None:
    """Collect the garbage collector's generations on a clock, so that each pause is short.

    The collector starts by itself when many more objects were made than freed. A busy server
    makes and frees about as many (frames, moves, tables that end) and so can go a long time
    without one, until a collection of the hundreds of thousands of objects left over stops
    every table for a third of a second. Here the youngest generation is collected every
    ``every`` seconds, the middle one every ``MIDDLE_EVERY`` times, everything every
    ``FULL_EVERY`` times."""
    tick = 0
    while True:
        await asyncio.sleep(every)
        tick += 1
        gc.collect(2 if tick % FULL_EVERY == 0 else 1 if tick % MIDDLE_EVERY == 0 else 0)


async def _checkpoints(store: Store) -> None:
    """SQLite: fold the write-ahead log into the database every few seconds, off the loop."""
    if not store.background_checkpoints:
        return
    while True:
        await asyncio.sleep(CHECKPOINT_EVERY)
        try:
            await asyncio.to_thread(store.checkpoint)
        except Exception:
            log.exception("WAL checkpoint failed")
