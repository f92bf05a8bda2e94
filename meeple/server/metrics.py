"""Prometheus metrics of the server (off unless ``meeple serve --metrics HOST:PORT``).

Several server processes on one machine add up: each writes its figures into the folder of
``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multi-process mode; a folder of its own is
made when that is not set), and ``/metrics`` is served on the operator's address by every
process at once (``SO_REUSEPORT``), each answering with the sum of them all.

What is measured: requests by route, method and status and their time; WebSocket messages
by route and direction and the sockets open; bots' moves waiting and their time to think;
tables by status and reviews running (in the database, so the same whichever process
answers); moves stored; database time; the event loop's lag. The hot path is one counter
increment per request or message.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .logs import route_of

if TYPE_CHECKING:
    from fastapi import FastAPI
    from prometheus_client import CollectorRegistry

SAMPLE_EVERY = 5.0
"""Seconds between two samples of what is counted rather than noted as it happens."""
LAG_EVERY = 0.5


class _Figures:
    """The metrics themselves: made once per process, after the multi-process folder is set
    (prometheus-client reads it when first imported)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        self.requests = Counter("meeple_http_requests", "HTTP requests answered",
                                ["method", "route", "status"])
        self.request_time = Histogram("meeple_http_request_seconds",
                                      "Time to answer an HTTP request", ["route"])
        self.messages = Counter("meeple_websocket_messages", "WebSocket messages",
                                ["route", "direction"])
        self.sockets = Gauge("meeple_websocket_connections", "WebSockets open",
                             ["route"], multiprocess_mode="livesum")
        self.tables = Gauge("meeple_tables", "Tables in the database by status", ["status"],
                            multiprocess_mode="livemax")
        self.reviews = Gauge("meeple_reviews_running", "Reviews being worked out",
                             multiprocess_mode="livemax")
        self.moves = Counter("meeple_moves_stored", "Moves stored")
        self.bot_queue = Gauge("meeple_bot_moves_waiting", "Bots' moves asked for, not yet "
                               "answered", multiprocess_mode="livesum")
        self.think = Histogram("meeple_bot_think_seconds", "A bot's time to think of a move",
                               ["game"], buckets=(.01, .05, .1, .25, .5, 1, 2, 5, 10, 30))
        self.lag = Histogram("meeple_event_loop_lag_seconds", "How late the event loop runs "
                             "a timer", buckets=(.001, .005, .01, .025, .05, .1, .25, .5, 1, 5))
        self.db_time = Histogram("meeple_db_seconds", "Time of a database statement",
                                 buckets=(.0005, .001, .0025, .005, .01, .025, .05, .1, .5, 2))


_figures: _Figures | None = None


def figures() -> _Figures:
    """This process's metrics (made on first use, in multi-process mode)."""
    global _figures
    if _figures is None:
        if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="meeple-metrics-")
        os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
        _figures = _Figures()
    return _figures


class Measured:
    """ASGI middleware: counts each request and WebSocket message, times each request, keeps
    the count of open sockets, and runs the samplers while the app runs."""

    def __init__(self, app: ASGIApp, fastapi: FastAPI):
        self.app = app
        self.fastapi = fastapi
        self.f = figures()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            samplers = [asyncio.create_task(_lag(self.f)),
                        asyncio.create_task(_sample(self.fastapi, self.f))]
            try:
                await self.app(scope, receive, send)
            finally:
                for task in samplers:
                    task.cancel()
                _process_ended()
            return
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        status = 500
        start = time.perf_counter()

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = route_of(scope)
            self.f.requests.labels(scope["method"], route, str(status)).inc()
            self.f.request_time.labels(route).observe(time.perf_counter() - start)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        counted: dict[str, Any] = {}
        f = self.f

        def counter(direction: str) -> Any:
            c = counted.get(direction)
            if c is None:
                c = counted[direction] = f.messages.labels(route_of(scope), direction)
            return c

        async def receiving() -> Message:
            message = await receive()
            if message["type"] == "websocket.receive":
                counter("in").inc()
            return message

        async def sending(message: Message) -> None:
            kind = message["type"]
            if kind == "websocket.send":
                counter("out").inc()
            elif kind == "websocket.accept":
                counted["open"] = f.sockets.labels(route_of(scope))
                counted["open"].inc()
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        finally:
            if "open" in counted:
                counted["open"].dec()


def instrument(app: FastAPI) -> None:
    """Measure ``app`` (call before it starts): the middleware, the database's statements,
    the bots' think times."""
    from sqlalchemy import event

    f = figures()
    app.add_middleware(Measured, fastapi=app)
    s = app.state.services
    engine = getattr(s.store, "engine", None)
    if engine is not None:
        @event.listens_for(engine, "before_cursor_execute")
        def _started(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            conn.info.setdefault("meeple_started", []).append(time.perf_counter())

        @event.listens_for(engine, "after_cursor_execute")
        def _ended(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            started = conn.info.get("meeple_started")
            if started:
                f.db_time.observe(time.perf_counter() - started.pop())
            if statement.startswith("INSERT INTO moves"):
                f.moves.inc(max(cursor.rowcount, 1))

    times = s.tables.bots.times
    note = times.note

    def noted(game: str, spec: str, seconds: float) -> None:
        f.think.labels(game).observe(seconds)
        note(game, spec, seconds)

    times.note = noted


async def _lag(f: _Figures, every: float = LAG_EVERY) -> None:
    """How much later than asked the event loop wakes a sleeper."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(every)
        f.lag.observe(max(0.0, loop.time() - start - every))


async def _sample(app: FastAPI, f: _Figures, every: float = SAMPLE_EVERY) -> None:
    """The figures that are counted rather than noted: tables by status and reviews running
    (in the database), bots' moves waiting (in this process)."""
    s = app.state.services
    engine = getattr(s.store, "engine", None)
    seen: set[str] = set()
    while True:
        f.bot_queue.set(s.tables.bots.waiting)
        if engine is not None:
            try:
                counts, reviews = await asyncio.to_thread(_counts, engine)
            except Exception:  # the database is away: /readyz says so
                pass
            else:
                for status in seen - set(counts):
                    f.tables.labels(status).set(0)
                for status, n in counts.items():
                    f.tables.labels(status).set(n)
                seen |= set(counts)
                f.reviews.set(reviews)
        await asyncio.sleep(every)


def _counts(engine: Any) -> tuple[dict[str, int], int]:
    from sqlalchemy import text

    with engine.connect() as conn:
        counts = {str(status): int(n) for status, n in conn.execute(
            text("SELECT status, count(*) FROM tables GROUP BY status"))}
        try:
            reviews = int(conn.execute(
                text("SELECT count(*) FROM reviews WHERE status = 'running'")).scalar_one())
        except Exception:
            reviews = 0
    return counts, reviews


def _process_ended() -> None:
    from prometheus_client import multiprocess

    with contextlib.suppress(Exception):
        multiprocess.mark_process_dead(os.getpid())


def registry() -> CollectorRegistry:
    """The sum of every process's figures."""
    from prometheus_client import CollectorRegistry, multiprocess

    figures()
    reg = CollectorRegistry()
    multiprocess.MultiProcessCollector(reg)
    return reg


class _Server(ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True

    def server_bind(self) -> None:
        if hasattr(socket, "SO_REUSEPORT"):  # every server process serves the same address
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        super().server_bind()


def serve(host: str, port: int) -> ThreadingHTTPServer:
    """Serve ``/metrics`` (the sum of every process) on ``host:port`` from a thread."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    reg = registry()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            if self.path.split("?")[0] != "/metrics":
                self.send_error(404)
                return
            body = generate_latest(reg)
            self.send_response(200)
            self.send_header("Content-Type", CONTENT_TYPE_LATEST)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # scrapes are not logged
            pass

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    server_class = type("MetricsServer", (_Server,), {"address_family": family})
    server = server_class((host, port), Handler)
    threading.Thread(target=server.serve_forever, name="meeple-metrics", daemon=True).start()
    return server
