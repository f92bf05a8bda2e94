"""Load on the web server: many WebSocket clients on loopback, each playing a game against a bot.

Starts a real uvicorn server (SQLite in a temp dir unless ``--db``), creates one table per
client (the client in seat 0, a bot in the other seats), connects every client, and lets them
play for ``--seconds``: each client answers its turn after ``--think`` seconds with a random
legal action, and starts a rematch when a game ends. Prints moves/s (all stored moves, and the
clients' own) and the latency from sending a move to receiving the frame that shows it
(p50/p99).

    .venv/bin/python benchmarks/server_load.py --clients 500 --seconds 30
    .venv/bin/python benchmarks/server_load.py --clients 500 --seconds 20 --bot mix
    .venv/bin/python benchmarks/server_load.py --clients 1000 --processes 2 --postgres
    .venv/bin/python benchmarks/server_load.py --clients 1000 --bot mix --processes 2 \
        --postgres --nginx

``--processes 2`` starts two servers on one database with Redis fan-out between them (a
throwaway redis-server, and with ``--postgres`` a throwaway PostgreSQL cluster), each client
playing through one of them in turn. ``--nginx`` puts Debian's nginx in front of them with the
site's own configuration (``deploy/nginx/meeple.conf``, HTTPS with a certificate made for the
run), as deployed: every client goes through it, and the servers use Redis even when there is
one. Every process the run starts ends with it. ``MEEPLE_PROFILE=/tmp/p`` profiles each
server process with cProfile into ``/tmp/p.PORT`` (written when the run ends).

Besides moves/s and latency it prints the CPU each part of the run used while measured (each
server process, the bots' processes, PostgreSQL, Redis, nginx, the load generator itself and
the rest of the machine): on a machine of few cores they share, that says where the time
went. ``MEEPLE_LAG=/tmp/l`` also has each server note how late its event loop wakes from a
20 ms sleep (``/tmp/l.PORT``) and prints its p50, p99 and max over the measured part.
Figures measured so far: ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
SERVER = """
import asyncio, contextlib, os, sys, time, uvicorn
from meeple.server import create_app
from meeple.server.deps import roomy_rates
app = create_app(sys.argv[1], bot_delay=0.0, redis_url=sys.argv[3] or None, rates=roomy_rates())
app.state.sockets.per_address = 10 ** 6  # every client comes from 127.0.0.1
app.state.services.tables.bots.guest_tables_per_address = 10**6  # its guests share one address
if os.environ.get("MEEPLE_LAG"):  # the event loop's lag: how late a 20 ms sleep wakes
    lifespan = app.router.lifespan_context
    async def lag():
        with open(f"{os.environ['MEEPLE_LAG']}.{sys.argv[2]}", "w") as out:
            while True:
                t0 = time.perf_counter()
                await asyncio.sleep(0.02)
                out.write(f"{time.time():.3f} {time.perf_counter() - t0 - 0.02:.4f}\\n")
                out.flush()
    @contextlib.asynccontextmanager
    async def lagging(a):
        async with lifespan(a) as state:
            task = asyncio.create_task(lag())
            yield state
            task.cancel()
    app.router.lifespan_context = lagging
if os.environ.get("MEEPLE_PROFILE"):
    import cProfile, signal
    prof = cProfile.Profile()
    prof.enable()
    def _dump(*_):
        prof.disable()
        prof.dump_stats(f"{os.environ['MEEPLE_PROFILE']}.{sys.argv[2]}")  # one per process
        os._exit(0)
    signal.signal(signal.SIGTERM, _dump)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws_ping_interval=None, backlog=4096, ws_per_message_deflate=False)
"""


USERS_EVERY = 4
"""Tables per load player (one guest per few tables, as people would)."""
MIX = ("random", "random", "greedy", "mcts:thoughtful")
"""``--bot mix``: one table in four against the Thoughtful search bot, one against greedy (the
Casual bot), the others against the Beginner."""


def bot_for(spec: str, i: int) -> str:
    """The bot of the ``i``-th table: ``spec`` itself, or from ``MIX`` for ``mix``."""
    return MIX[i % len(MIX)] if spec == "mix" else spec


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Http:
    """A tiny JSON client with one session cookie (``tls``: the certificates it trusts)."""

    def __init__(self, base: str, tls: ssl.SSLContext | None = None):
        self.base = base
        self.tls = tls
        self.cookie = ""

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("content-type", "application/json")
        if self.cookie:
            req.add_header("cookie", self.cookie)
        with urllib.request.urlopen(req, timeout=60, context=self.tls) as r:
            set_cookie = r.headers.get("set-cookie")
            if set_cookie:
                self.cookie = set_cookie.split(";", 1)[0]
            return json.loads(r.read() or b"{}")


@contextmanager
def served(script: str, cwd: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """``python -c script DB_URL PORT`` (SQLite in a temporary folder, a free port) started
    in ``cwd``: its base URL and process once ``/healthz`` answers; ended afterwards."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as d:
        proc = subprocess.Popen([sys.executable, "-c", script, f"sqlite:///{d}/m.db", str(port)],
                                cwd=cwd)
        try:
            for _ in range(600):
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                raise RuntimeError(f"{base} did not start")
            yield base, proc
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(30)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors = 0
        self.measuring = False


OPENING = 50
"""Sockets opening at once (people arrive over time, not in one instant)."""


async def client(i: int, base_ws: str, http: Http, table: dict, token: str, args, stats: Stats,
                 stop: asyncio.Event, connected: asyncio.Event, counter: list[int],
                 opening: asyncio.Semaphore) -> None:
    rng = random.Random(i)
    tid = table["id"]
    while not stop.is_set():
        query = f"?token={token}" if args.token_in_url else ""  # servers before the hello
        tls = {"ssl": http.tls} if http.tls else {}
        async with opening:
            ws = await connect(f"{base_ws}/ws/tables/{tid}{query}", max_size=None, **tls,
                               ping_interval=None, open_timeout=120, compression=None)
            await ws.send(json.dumps({"type": "hello", "tokens": [token]}))
            first = [await ws.recv()]  # answered: the next one may open
        async with ws:
            counter[0] += 1
            if counter[0] >= args.clients:
                connected.set()
            sent_at: float | None = None
            answered = -1
            while not stop.is_set():
                try:
                    raw = first.pop() if first else await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                msg = json.loads(raw)
                if msg["type"] == "error":
                    stats.errors += stats.measuring
                    sent_at = None
                    continue
                if msg["type"] != "frame":
                    continue
                n = msg["move_number"]
                if sent_at is not None and n > answered:
                    if os.environ.get("MEEPLE_DEBUG") and time.perf_counter() - sent_at > 0.3:
                        print("slow", i, n, msg["status"], time.perf_counter() - sent_at)
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - sent_at)
                        stats.moves += 1
                    sent_at = None
                if msg["status"] == "finished":
                    stats.games += stats.measuring
                    r = await asyncio.to_thread(http.call, "POST", f"/api/tables/{tid}/rematch")
                    tid = r["table"]["id"]
                    token = r["tokens"][0]["token"]
                    break
                if msg["actions"] and sent_at is None and n > answered:
                    await asyncio.sleep(args.think * (0.5 + rng.random()))
                    if stop.is_set():
                        return
                    action = rng.choice(msg["actions"])["action"]
                    answered = n
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "seat": 0, "action": action,
                                              "move_number": n}))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, float]]:
    """Every process of the machine: its parent and its CPU time so far (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            out[int(d)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return out


def cpu_by_part(parts: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of each part of the run: its processes with their descendants
    (each process counted in the first part that has it; ``/``: those of the machine)."""
    procs = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _cpu) in procs.items():
        children.setdefault(ppid, []).append(pid)
    seen: set[int] = set()
    out = {}
    for name, roots in parts.items():
        total, todo, walked = 0.0, list(roots), set()
        while todo:
            pid = todo.pop()
            if pid in walked or pid not in procs:
                continue
            walked.add(pid)
            if pid not in seen:
                seen.add(pid)
                total += procs[pid][1]
            if not name.startswith("="):  # "=name": that process alone
                todo += children.get(pid, [])
        out[name.lstrip("=")] = total
    stat = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    jiffies = [int(x) / os.sysconf("SC_CLK_TCK") for x in stat]
    out["/"] = sum(jiffies) - jiffies[3] - jiffies[4]  # all but idle and iowait
    return out


def stored_moves(db_url: str) -> int:
    from sqlalchemy import create_engine, text

    eng = create_engine(db_url)
    with eng.connect() as c:
        n = c.execute(text("SELECT count(*) FROM moves")).scalar()
    eng.dispose()
    return int(n or 0)


PG_BIN = Path(os.environ.get("MEEPLE_PG_BIN", "/usr/lib/postgresql/15/bin"))


def _as_postgres(cmd: str) -> list[str]:
    if os.geteuid() == 0:
        return ["su", "postgres", "-s", "/bin/sh", "-c", cmd]
    return ["sh", "-c", cmd]


PG_PID: list[Path] = []
"""The postmaster.pid file of the PostgreSQL cluster started for the run."""


def start_postgres() -> tuple[str, list[str]]:
    """A throwaway PostgreSQL cluster in a temp dir: its URL and the command that stops it
    (and removes the dir)."""
    d = Path(tempfile.mkdtemp(prefix="meeple-load-pg-"))
    os.chmod(d, 0o777)
    if os.geteuid() == 0:
        shutil.chown(d, "postgres")
    port = free_port()
    subprocess.run(_as_postgres(f"{PG_BIN}/initdb -D {d}/data -A trust -U postgres"),
                   check=True, capture_output=True)
    subprocess.run(_as_postgres(
        f"{PG_BIN}/pg_ctl -D {d}/data -o \"-k {d} -p {port} -c listen_addresses=127.0.0.1 "
        f"-c max_connections=300\" -l {d}/log -w start"), check=True, capture_output=True)
    PG_PID.append(d / "data" / "postmaster.pid")
    return (f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres",
            _as_postgres(f"{PG_BIN}/pg_ctl -D {d}/data -m immediate stop; rm -rf {d}"))


def start_redis() -> tuple[str, subprocess.Popen]:
    """A throwaway redis-server: its URL and process."""
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                break
        except OSError:
            time.sleep(0.05)
    return f"redis://127.0.0.1:{port}/0", proc


def start_nginx(d: Path, upstreams: list[int]) -> tuple[str, ssl.SSLContext, subprocess.Popen]:
    """nginx with the site's configuration (HTTPS, a certificate made now, its files in
    ``d``) in front of the servers on ``upstreams``: its base URL, the TLS context that
    trusts it, and its process."""
    sys.path.insert(0, str(ROOT))
    from tests.server.nginx import NGINX, nginx_config

    https = free_port()
    main = nginx_config(d, https, free_port(), upstreams, workers="auto", connections=8192)
    proc = subprocess.Popen([NGINX, "-c", str(main), "-p", str(d), "-e", str(d / "error.log")])
    return (f"https://localhost:{https}", ssl.create_default_context(cafile=d / "cert.pem"),
            proc)


def end(proc: subprocess.Popen) -> None:
    """Terminate ``proc``, killed if it has not ended within 30 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait()


async def run(args) -> None:
    tmp = tempfile.mkdtemp(prefix="meeple-load-")
    stop_pg: list[str] | None = None
    started: list[subprocess.Popen] = []  # each ends with the run, however it ends
    servers: list[subprocess.Popen] = []
    try:
        if args.postgres and not args.db:
            args.db, stop_pg = start_postgres()
        db_url = args.db or f"sqlite:///{tmp}/meeple.db"
        redis_url = ""
        if args.processes > 1 or args.nginx:
            redis_url, redis_proc = start_redis()
            started.append(redis_proc)
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        ports = [free_port() for _ in range(args.processes)]
        for k, port in enumerate(ports):
            servers.append(subprocess.Popen([sys.executable, "-c", SERVER, db_url, str(port),
                                             redis_url], env=env))
            started.append(servers[-1])
            if k == 0:  # the first one applies the migrations before the others start
                await wait_healthy(Http(f"http://127.0.0.1:{port}"))
        for port in ports:
            await wait_healthy(Http(f"http://127.0.0.1:{port}"))
        bases = [Http(f"http://127.0.0.1:{port}") for port in ports]
        if args.nginx:
            base, tls, nginx = start_nginx(Path(tmp), ports)
            started.append(nginx)
            bases = [Http(base, tls)]
            await wait_healthy(bases[0])
        def guest(g: int) -> list[tuple[dict, str, Http]]:
            """The ``g``-th load player (the server limits the tables one may have open) and
            its tables."""
            at = bases[g % len(bases)]
            http = Http(at.base, at.tls)
            http.call("POST", "/api/guest", {"name": f"Load {g}"})
            made = []
            for i in range(g * USERS_EVERY, min(args.clients, (g + 1) * USERS_EVERY)):
                r = http.call("POST", "/api/tables", {
                    "game": args.game, "players": args.players,
                    "seats": [{"kind": "me"}] + [{"kind": "bot", "bot": bot_for(args.bot, i)}]
                    * (args.players - 1)})
                made.append((r["table"], r["tokens"][0]["token"], http))
            return made

        def setup() -> list[tuple[dict, str, Http]]:
            with ThreadPoolExecutor(8) as pool:  # several at once, as people come
                return [t for made in pool.map(guest, range(-(-args.clients // USERS_EVERY)))
                        for t in made]

        t0 = time.perf_counter()
        tables = await asyncio.to_thread(setup)
        print(f"{args.clients} tables of {args.game} created in {time.perf_counter() - t0:.1f} s")
        stats = Stats()
        stop = asyncio.Event()
        connected = asyncio.Event()
        counter = [0]
        opening = asyncio.Semaphore(OPENING)
        tasks = [
            asyncio.create_task(client(i, h.base.replace("http", "ws", 1), h, t, tok, args,
                                       stats, stop, connected, counter, opening))
            for i, (t, tok, h) in enumerate(tables)
        ]
        t0 = time.perf_counter()
        await asyncio.wait_for(connected.wait(), 300)
        print(f"{args.clients} clients connected in {time.perf_counter() - t0:.1f} s")
        # The clients' own garbage-collector pauses would count as server latency.
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)
        await asyncio.sleep(args.warmup)
        counted0 = time.perf_counter()
        before = await asyncio.to_thread(stored_moves, db_url)
        counted0 = (counted0 + time.perf_counter()) / 2  # when the count was read, about
        parts = {f"={port}": [s.pid] for port, s in zip(ports, servers, strict=True)}
        parts["bots"] = [s.pid for s in servers]  # the servers' children: the bots' processes
        if PG_PID:
            parts["postgres"] = [int(PG_PID[0].read_text().split()[0])]
        parts.update({name: [p.pid] for name, p in (("redis", redis_proc if redis_url else None),
                                                     ("nginx", nginx if args.nginx else None))
                      if p is not None})
        parts["=load"] = [os.getpid()]
        used0 = cpu_by_part(parts)
        cpu0 = sum(cpu_seconds(s.pid) for s in servers)
        load0 = os.getloadavg()[0]
        stats.measuring = True
        t0 = time.perf_counter()
        w0 = time.time()
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        elapsed = time.perf_counter() - t0
        w1 = time.time()
        used = {k: (v - used0[k]) / elapsed * 100 for k, v in cpu_by_part(parts).items()}
        cpu = sum(cpu_seconds(s.pid) for s in servers) - cpu0
        counted1 = time.perf_counter()
        after = await asyncio.to_thread(stored_moves, db_url)
        # counting may take a while on a busy machine: the moves stored meanwhile count too
        counted = (counted1 + time.perf_counter()) / 2 - counted0
        load1 = os.getloadavg()[0]
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        lat = sorted(stats.latencies)
        if not lat:
            print("no moves measured")
            return
        p50 = statistics.median(lat) * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        print(
            f"game {args.game}, bots {args.bot}, {args.clients} clients, think {args.think} s, "
            f"{elapsed:.1f} s measured, {args.processes} server process(es) on "
            f"{db_url.split(':', 1)[0]}{' with Redis fan-out' if redis_url else ''}"
            f"{' behind nginx (HTTPS)' if args.nginx else ''}\n"
            f"stored moves/s (clients + bots + chance): {(after - before) / counted:.1f}\n"
            f"client moves/s: {stats.moves / elapsed:.1f}   games finished: {stats.games}   "
            f"refused: {stats.errors}\n"
            f"latency move -> frame: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"max {lat[-1] * 1000:.1f} ms\n"
            f"server CPU: {cpu / elapsed * 100:.0f}% of one core (all processes), "
            f"{cpu * 1000 / max(1, (after - before) * elapsed / counted):.2f} ms per stored "
            "move; "
            f"machine load average {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores"
        )
        ours = sum(v for k, v in used.items() if k != "/")
        print("CPU while measured (% of one core): " + ", ".join(
            f"{'server :' + k if k.isdigit() else k} {v:.0f}" for k, v in used.items()
            if k != "/") + f"; all of these {ours:.0f}, the rest of the machine "
            f"{used['/'] - ours:.0f}, the machine {used['/']:.0f} of {100 * (os.cpu_count() or 1)}")
        if os.environ.get("MEEPLE_LAG"):
            for port in ports:
                lags = sorted(float(line.split()[1]) for line in Path(
                    f"{os.environ['MEEPLE_LAG']}.{port}").read_text().splitlines()
                    if line.count(" ") == 1 and w0 <= float(line.split()[0]) <= w1)
                if lags:
                    print(f"event loop lag of :{port}: p50 {statistics.median(lags) * 1000:.1f}"
                          f" ms, p99 {lags[int(len(lags) * 0.99)] * 1000:.1f} ms, max "
                          f"{lags[-1] * 1000:.1f} ms")
    finally:
        for proc in reversed(started):  # nginx first, the servers, then Redis
            end(proc)
        if stop_pg is not None:
            subprocess.run(stop_pg, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


async def wait_healthy(http: Http) -> None:
    """Wait until the server (or nginx) that ``http`` calls answers."""
    for _ in range(600):
        try:
            http.call("GET", "/healthz")
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise RuntimeError(f"{http.base} did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--think", type=float, default=4.0, help="mean seconds before answering")
    ap.add_argument("--game", default="koplus")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="random",
                    help="the bots' spec (random, greedy, mcts:thoughtful, ...) or mix: random, "
                         "greedy and Thoughtful bots")
    ap.add_argument("--token-in-url", action="store_true",
                    help="also put the seat token in the socket's address (for comparing with "
                         "servers that took it there)")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temp dir)")
    ap.add_argument("--postgres", action="store_true",
                    help="a throwaway PostgreSQL cluster as the database")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes on the one database, with Redis fan-out")
    ap.add_argument("--nginx", action="store_true",
                    help="every client through nginx with the site's configuration (HTTPS) "
                         "in front of the processes, which use Redis even when there is one")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
