"""Running meeple as a public site: the settings (a file, the environment, the command line;
``--check-config``), ``/readyz``, the request log (JSON, a request id, no secret), Prometheus
metrics summed over processes, and the deployment in ``deploy/`` (nginx's configuration and
the systemd unit checked by their own tools; nginx with HTTPS in front of two servers on
PostgreSQL and Redis, a move and a socket through it, and people in browsers playing on
through it while one server is killed and started again). Every process is started by the
``processes`` fixture or the ``site`` fixture and ends with the test or the module."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from websockets.sync.client import connect

from meeple.server import auth, create_app, settings
from tests.conftest import end_process
from tests.e2e.people import WHAT_NOW, play_one, sign_in_as_guest

from .conftest import free_port
from .nginx import NGINX, nginx_config
from .test_process import Server
from .util import stored_moves

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
MEEPLE = str(Path(sys.executable).with_name("meeple"))
SECRET = "correct horse battery staple 7f3a"


def wait_for(check: Callable[[], Any], what: str, limit: float = 60) -> Any:
    """Poll ``check`` until it returns something true (a generous ceiling, never a timing)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen")


# -------------------------------------------------------------------------- settings
def test_settings_come_from_the_file_then_the_environment_then_the_command_line(tmp_path):
    file = tmp_path / "meeple.toml"
    file.write_text('db = "sqlite:///from-file.db"\nport = 8001\nredis = "redis://r:1/0"\n'
                    'trusted_proxies = ["127.0.0.1"]\nsecure_cookies = true\n')
    env = {"MEEPLE_CONFIG": str(file), "MEEPLE_PORT": "8002",
           "MEEPLE_ALLOWED_ORIGINS": "https://a.example, https://b.example"}
    c = settings.load(environ=env, port=None, redis="redis://cli:2/0", trusted_proxies=[])
    assert (c.db, c.port, c.redis) == ("sqlite:///from-file.db", 8002, "redis://cli:2/0")
    assert c.allowed_origins == ["https://a.example", "https://b.example"]
    assert c.trusted_proxies == ["127.0.0.1"] and c.secure_cookies and not c.wrong
    bad = settings.load(environ={"MEEPLE_PORT": "eighty", "MEEPLE_SECURE_COOKIES": "maybe"},
                        path=tmp_path / "none.toml")
    assert len(bad.wrong) == 3 and bad.port == 8000
    file.write_text('colour = "red"\n')
    assert "there is no setting colour" in settings.load(file, {}).wrong[0]


def run_meeple(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([MEEPLE, "--lang", "en", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


def test_check_config_says_what_is_missing_and_whether_the_services_answer(
        pg_url, redis_url, tmp_path):
    secret_db = pg_url.replace("postgres@", f"postgres:{SECRET.replace(' ', '')}@")
    good = run_meeple("serve", "--check-config", "--db", secret_db, "--redis", redis_url,
                      "--trusted-proxy", "127.0.0.1", env={"MEEPLE_SECURE_COOKIES": "true"})
    assert good.returncode == 0, good.stdout + good.stderr
    assert "the database and Redis answer" in good.stdout
    assert SECRET.replace(" ", "") not in good.stdout + good.stderr  # the password is hidden
    lacking = run_meeple("serve", "--check-config", "--trusted-proxy", "127.0.0.1",
                         "--allowed-origin", "play.example.org", "--metrics", "9464",
                         "--redis", f"redis://127.0.0.1:{free_port()}/0")
    assert lacking.returncode == 1
    said = lacking.stderr
    for words in ("secure_cookies: behind a proxy", "a public site needs its database named",
                  "play.example.org is not an origin", "9464 is not an address and a port"):
        assert words in said, said
    away = run_meeple("serve", "--check-config", "--db", pg_url, "--redis",
                      f"redis://127.0.0.1:{free_port()}/0")
    assert away.returncode == 1 and "Redis does not answer" in away.stderr, away.stderr
    wrong = run_meeple("serve", "--port", "8000", env={"MEEPLE_LOG_FORMAT": "xml"})
    assert wrong.returncode == 2 and "log_format: xml is neither text nor json" in wrong.stderr
    assert "Traceback" not in said + away.stderr + wrong.stderr


# -------------------------------------------------------------------------- readiness
def test_readyz_is_not_ready_while_redis_is_away_and_ready_again_after(
        own_redis, sqlite_url):
    port = free_port()
    redis = own_redis(port)
    with TestClient(create_app(sqlite_url, f"redis://127.0.0.1:{port}/0")) as client:
        assert client.get("/healthz").status_code == 200
        r = client.get("/readyz")
        assert r.status_code == 200 and r.json() == {"ok": True, "database": "ok", "redis": "ok"}
        redis.terminate()
        redis.wait(20)
        r = client.get("/readyz")
        assert r.status_code == 503 and r.json()["redis"] == "unreachable", r.text
        assert client.get("/healthz").status_code == 200  # alive all the same
        own_redis(port)
        wait_for(lambda: client.get("/readyz").status_code == 200, "ready again")


# -------------------------------------------------------------------------- a real server
def two_servers(processes: Any, d: Path, argv: list[str]) -> list[Server]:
    """Two ``meeple serve`` processes (``argv``, the port added), started side by side."""
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(lambda i: Server(processes, "", d / f"server{i}.log", argv=argv),
                             (1, 2)))


def play_a_move(base: str, verify: Any = True) -> tuple[str, httpx.Client, dict[str, str]]:
    """A guest at a hot-seat KoPlus table plays its first move; the table, the client and
    the seat tokens."""
    c = httpx.Client(base_url=base, timeout=30, verify=verify)
    r = c.post("/api/signup", json={"name": "Ann", "password": SECRET})
    assert r.status_code == 200, r.text
    r = c.post("/api/tables", json={"game": "koplus", "seats": [{"kind": "me"}, {"kind": "me"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    tokens = {str(t["seat"]): t["token"] for t in r.json()["tokens"]}
    act(c, tid, tokens)
    return tid, c, tokens


def act(c: httpx.Client, tid: str, tokens: dict[str, str]) -> int:
    """The seat to move plays its first legal action; the move number after it."""
    seat = c.get(f"/api/tables/{tid}").json()["table"]["to_move"][0]
    frame = c.get(f"/api/tables/{tid}/frame", params={"seat": seat},
                  headers={"X-Seat-Token": tokens[str(seat)]}).json()
    r = c.post(f"/api/tables/{tid}/act", json={
        "seat": seat, "action": frame["actions"][0]["action"],
        "move_number": frame["move_number"], "token": tokens[str(seat)]})
    assert r.status_code == 200, r.text
    return int(frame["move_number"]) + 1


def frame_reaching(ws: Any, move_number: int) -> None:
    """Read ``ws`` until a frame of ``move_number`` (or later) arrives."""
    wait_for(lambda: (lambda m: m["type"] == "frame" and m["move_number"] >= move_number)(
        json.loads(ws.recv(timeout=30))), f"the frame of move {move_number}")


def scrape(port: int) -> dict[str, float]:
    """Each series of ``/metrics`` (name with labels) and its value."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


def total(series: dict[str, float], prefix: str) -> float:
    return sum(v for k, v in series.items() if k.startswith(prefix))


def test_metrics_of_two_processes_add_up_and_the_log_keeps_no_secret(
        processes, tmp_path, pg_url, redis_url, monkeypatch):
    metrics_port = free_port()
    for name, value in (("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "metrics")),
                        ("MEEPLE_LOG_FORMAT", "json"), ("MEEPLE_REDIS", redis_url)):
        monkeypatch.setenv(name, value)  # the servers' environment
    argv = [MEEPLE, "serve", "--db", pg_url, "--metrics", f"127.0.0.1:{metrics_port}", "--port"]
    one, two = two_servers(processes, tmp_path, argv)
    wait_for(lambda: scrape(metrics_port), "metrics served")
    before = scrape(metrics_port)

    tid, c, tokens = play_a_move(one.base)
    cookie = c.cookies[auth.COOKIE]
    other = httpx.Client(base_url=two.base, timeout=30, cookies=c.cookies)
    url = f"ws://127.0.0.1:{two.port}/ws/tables/{tid}"
    with connect(url, additional_headers={"Cookie": f"{auth.COOKIE}={cookie}"},
                 open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": list(tokens.values())}))
        wait_for(lambda: json.loads(ws.recv(timeout=30))["type"] == "frame", "a frame")
        frame_reaching(ws, act(c, tid, tokens))  # played on one process, told on the other
        bot = other.post("/api/tables", json={
            "game": "koplus", "seats": [{"kind": "bot", "bot": "random"}, {"kind": "me"}]})
        assert bot.status_code == 201, bot.text
        other.get("/api/tables/nosuchtable")
        open_now = wait_for(lambda: (lambda s: s if total(
            s, "meeple_websocket_connections{") >= 1 else None)(scrape(metrics_port)),
            "the open socket counted")
    after = wait_for(lambda: (lambda s: s if total(s, "meeple_tables{") >= 2 and total(
        s, "meeple_bot_think_seconds_count") >= 1 else None)(scrape(metrics_port)),
        "tables and a bot's move sampled")

    served = 'meeple_http_requests_total{method="POST",route="/api/tables/{table_id}/act",' \
             'status="200"}'
    assert after[served] - before.get(served, 0) >= 2  # one on each process, summed
    assert after['meeple_http_requests_total{method="GET",route="/api/tables/{table_id}",' \
                 'status="404"}'] >= 1
    assert total(after, "meeple_websocket_messages_total{") >= 3
    assert open_now and total(after, "meeple_websocket_connections{") == 0  # closed again
    assert after["meeple_moves_stored_total"] - before.get("meeple_moves_stored_total", 0) >= 2
    assert total(after, 'meeple_tables{status="running"}') >= 2
    for name in ("meeple_event_loop_lag_seconds_count", "meeple_db_seconds_count",
                 "meeple_http_request_seconds_count"):
        assert total(after, name) > 0, name
    for name in ("meeple_bot_moves_waiting", "meeple_reviews_running"):  # sampled, maybe 0
        assert name in after, name
    assert total(after, "meeple_db_seconds_count") > total(before, "meeple_db_seconds_count")

    lines = [json.loads(x) for log in (one.log, two.log) for x in log.read_text().splitlines()
             if x.startswith("{")]
    requests = [x for x in lines if x.get("logger") == "meeple.access"]
    acts = [x for x in requests if x["route"] == "/api/tables/{table_id}/act"]
    assert len(acts) >= 2 and all(x["status"] == 200 and x["method"] == "POST" for x in acts)
    assert all(len(x["request_id"]) >= 8 and x["ms"] >= 0 for x in requests)
    said = one.log.read_text() + two.log.read_text()
    for secret in (SECRET, cookie, *tokens.values()):
        assert secret not in said
    rid = c.get("/healthz").headers["x-request-id"]
    wait_for(lambda: rid in one.log.read_text(), "the request id in the log")


# -------------------------------------------------------------------------- deploy/
def test_the_systemd_unit_passes_systemd_analyze(tmp_path):
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not on this machine")
    unit = (DEPLOY / "systemd" / "meeple@.service").read_text()
    assert "Restart=on-failure" in unit and "KillMode=mixed" in unit
    assert "TimeoutStopSec=" in unit

    def verify(text: str) -> list[str]:  # an instance's file, so that %i is filled in
        (tmp_path / "meeple@8001.service").write_text(text)
        done = subprocess.run([tool, "verify", str(tmp_path / "meeple@8001.service")],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return [x for x in done.stderr.splitlines() if "meeple@" in x]

    unit = unit.replace("/opt/meeple/.venv/bin/meeple", MEEPLE)
    assert verify(unit.replace("KillMode=mixed", "KillMode=sometimes"))  # it reads the file
    assert verify(unit) == []




def test_the_nginx_config_passes_nginx_t(tmp_path):
    assert Path(NGINX).exists(), "nginx is not installed (scripts/setup.sh --test)"
    main = nginx_config(tmp_path, free_port(), free_port(), [free_port(), free_port()])
    done = subprocess.run([NGINX, "-t", "-c", str(main), "-p", str(tmp_path), "-e", "stderr"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    site = (tmp_path / "meeple.conf").read_text()
    assert "Strict-Transport-Security" in site and "proxy_set_header Upgrade" in site
    # nginx lets go of an idle connection to a server before the server closes it (else a
    # request sent on it as it closes fails, and that server is taken out for a while)
    idle = re.search(r"upstream meeple \{[^}]*\n    keepalive_timeout (\d+)s;", site)
    assert idle and int(idle[1]) < uvicorn.Config(app=None).timeout_keep_alive


@dataclass
class Site:
    """nginx with HTTPS in front of two ``meeple serve`` processes on PostgreSQL and Redis."""

    base: str
    cert: ssl.SSLContext
    servers: list[Server]
    db: str
    start: Callable[..., subprocess.Popen[Any]]
    argv: list[str]

    def restart(self, k: int) -> Server:
        """Start the ``k``-th server again on its port (after it was killed)."""
        old = self.servers[k]
        self.servers[k] = Server(self.start, "", old.log, argv=self.argv, port=old.port)
        return self.servers[k]


@pytest.fixture(scope="module")
def site(tmp_path_factory, postgres_server, redis_url) -> Iterator[Site]:
    """The site of ``deploy/`` on this machine, for the tests of this module: every process
    it starts ends with them."""
    import psycopg

    d = tmp_path_factory.mktemp("site")
    name = "site_" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_server.replace("postgresql+psycopg", "postgresql")
                         + "/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    db = f"{postgres_server}/{name}"
    started: list[subprocess.Popen[Any]] = []

    def start(argv: list[str], **options: Any) -> subprocess.Popen[Any]:
        started.append(subprocess.Popen(argv, **options))
        return started[-1]

    try:
        with pytest.MonkeyPatch.context() as env:
            for key, value in (("MEEPLE_REDIS", redis_url), ("MEEPLE_DB", db),
                               ("MEEPLE_TRUSTED_PROXIES", "127.0.0.1"),
                               ("MEEPLE_SECURE_COOKIES", "true"), ("MEEPLE_LOG_FORMAT", "json")):
                env.setenv(key, value)  # the servers' settings, from the environment
            argv = [MEEPLE, "serve", "--port"]
            servers = two_servers(start, d, argv)
            https = free_port()
            main = nginx_config(d, https, free_port(), [s.port for s in servers])
            start([NGINX, "-c", str(main), "-p", str(d), "-e", str(d / "error.log")])
            base = f"https://localhost:{https}"
            cert = ssl.create_default_context(cafile=d / "cert.pem")
            wait_for(lambda: _healthy(base, cert), "nginx answering")
            yield Site(base, cert, servers, db, start, argv)
    finally:
        for proc in reversed(started):  # nginx before the servers it sends to
            end_process(proc)


def test_a_move_and_a_socket_through_nginx_over_https_to_two_servers(site):
    tid, c, tokens = play_a_move(site.base, verify=site.cert)
    assert "max-age=" in c.get("/healthz").headers["strict-transport-security"]
    assert all(cookie.secure for cookie in c.cookies.jar)  # sent over HTTPS only
    wss = site.base.replace("https://", "wss://")
    with connect(f"{wss}/ws/tables/{tid}", ssl=site.cert, origin=site.base,  # type: ignore[arg-type]
                 additional_headers={"Cookie": "; ".join(
                     f"{k}={v}" for k, v in c.cookies.items())}, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": list(tokens.values())}))
        wait_for(lambda: json.loads(ws.recv(timeout=30))["type"] == "frame", "a frame")
        for _ in range(4):  # the requests spread over both servers; every move reaches ws
            frame_reaching(ws, act(c, tid, tokens))
    served = [s for s in site.servers
              if '"route": "/api/tables/{table_id}/act"' in s.log.read_text()]
    assert len(served) == 2, "nginx sent every move to the same server"


def _healthy(base: str, cert: ssl.SSLContext) -> bool:
    try:
        return httpx.get(base + "/healthz", verify=cert, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


# -------------------------------------------------------------------------- a server killed
WATCH = """(() => {
  // What the table's socket sends and is told: the moves it sends (seat, action, move
  // number), each move of its own seats its frames tell (number -> [player, notation];
  // a move told two ways is kept in `conflicts`), the last frame's move number, the pongs,
  // and when the socket opened and closed (Date.now()).
  const seen = window.__table = {sent: [], told: {}, conflicts: [], last: -1, opens: [],
                                 closes: [], pongs: 0, ws: null};
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (!String(url).includes("/ws/tables/")) return;
      seen.ws = this;
      this.addEventListener("open", () => seen.opens.push(Date.now()));
      this.addEventListener("close", () => seen.closes.push(Date.now()));
      this.addEventListener("message", (ev) => {
        const m = JSON.parse(ev.data);
        if (m.type === "pong") seen.pongs += 1;
        if (m.type !== "frame") return;
        seen.last = m.move_number;
        for (const e of m.log) {
          if (!m.seats.includes(e.player)) continue;
          const was = seen.told[e.n];
          if (was && (was[0] !== e.player || was[1] !== e.text)) seen.conflicts.push([e.n, was, e]);
          seen.told[e.n] = [e.player, e.text];
        }
      });
    }
    send(data) {
      if (String(this.url).includes("/ws/tables/")) {
        const m = JSON.parse(data);
        if (m.type === "act") seen.sent.push([m.move_number, m.seat, m.action]);
      }
      super.send(data);
    }
  };
})()"""

NEW_TABLE = """async (body) => {
    const res = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify(body)});
    const r = await res.json();
    if (!res.ok) throw new Error(JSON.stringify(r.detail));
    const have = {};
    for (const t of r.tokens) have[t.seat] = t.token;
    localStorage.setItem('meeple.tokens.' + r.table.id, JSON.stringify(have));
    return r.table.id;
}"""


LONG = 60_000
"""The ceiling of a wait on a page (ms)."""


def seen(page: Any) -> dict[str, Any]:
    """What the page's table socket sent and was told (``WATCH``)."""
    return page.evaluate("() => { const {ws, ...rest} = window.__table; return rest; }")


def bytes_sent(port: int) -> int:
    """The bytes sent so far on the open TCP connections of a server's port (``ss``)."""
    out = subprocess.run(["ss", "-tinH", "state", "established", f"( sport = :{port} )"],
                         capture_output=True, text=True, check=True).stdout
    return sum(int(n) for n in re.findall(r"bytes_sent:(\d+)", out))


def holder(page: Any, servers: list[Server]) -> int:
    """Which server holds the page's table socket: the one whose connections sent bytes
    while it answered the page's ping, and no other (twice the same)."""
    said: list[int] = []
    deadline = time.monotonic() + 60
    while len(said) < 2 or said[-1] != said[-2]:
        assert time.monotonic() < deadline, "no single server answered the page's pings"
        before = [bytes_sent(s.port) for s in servers]
        pongs = seen(page)["pongs"]
        page.evaluate("() => window.__table.ws.send('{\"type\": \"ping\"}')")
        page.wait_for_function("n => window.__table.pongs > n", arg=pongs)
        grew = [k for k, s in enumerate(servers) if bytes_sent(s.port) > before[k]]
        if len(grew) == 1:
            said.append(grew[0])
    return said[-1]


def play(pages: list[Any], rng: random.Random, enough: Callable[[], bool], what: str) -> None:
    """Every page plays whenever it may, until ``enough()``."""
    deadline = time.monotonic() + 120
    while not enough():
        assert time.monotonic() < deadline, f"{what} did not happen"
        acted = False
        for page in pages:
            if page.evaluate(WHAT_NOW) == "act":
                try:
                    play_one(page, rng)
                    acted = True
                except (PlaywrightError, AssertionError):  # redrawn under the pointer
                    pass
        if not acted:
            time.sleep(0.05)


@pytest.mark.e2e
def test_a_server_killed_mid_game_loses_no_move_its_pages_play_on_and_it_serves_again(
        site, browser):
    """People in browsers play each other and a bot through nginx, and chat; one server is
    killed (SIGKILL) mid-game: every page whose socket it held reconnects through nginx to
    the other, every game goes on, the database holds exactly the moves the pages were told
    were played; the server started again serves."""
    rng = random.Random(5)
    api = httpx.Client(base_url=site.base, verify=site.cert, timeout=30)
    pages = {}
    for who in ("Dora", "Eli", "Fay"):
        ctx = browser.new_context(base_url=site.base, ignore_https_errors=True)
        ctx.set_default_timeout(LONG)
        ctx.add_init_script(WATCH)
        pages[who] = ctx.new_page()
        sign_in_as_guest(pages[who], who)
    ann, bob, cid = pages["Dora"], pages["Eli"], pages["Fay"]
    duel = ann.evaluate(NEW_TABLE, {"game": "koplus", "players": 2,
                                    "seats": [{"kind": "me"}, {"kind": "open"}]})
    alone = cid.evaluate(NEW_TABLE, {"game": "koplus", "players": 2,
                                     "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]})
    ann.goto(f"/table/{duel}")
    bob.goto(f"/table/{duel}")
    cid.goto(f"/table/{alone}")
    bob.locator('#seat-list li[data-seat="1"] button', has_text="Sit here").click()

    def moves(tid: str) -> int:
        return int(api.get(f"/api/tables/{tid}").json()["table"]["move_number"])

    play([ann, bob, cid], rng, lambda: moves(duel) >= 4 and moves(alone) >= 4, "moves before")
    ann.locator("#table-chat input[name=text]").fill("Good luck!")
    ann.locator("#table-chat button[type=submit]").click()
    expect(bob.locator("#table-chat .chat-lines")).to_contain_text("Good luck!", timeout=LONG)

    on = {who: holder(page, site.servers) for who, page in pages.items()}
    victim = max((0, 1), key=lambda k: list(on.values()).count(k))
    opens = {who: len(seen(page)["opens"]) for who, page in pages.items()}
    closes = {who: len(seen(page)["closes"]) for who, page in pages.items()}
    at = {duel: moves(duel), alone: moves(alone)}

    def reconnected() -> bool:  # a socket closed, and every page whose socket closed is back
        lost = {who: len(seen(p)["closes"]) - closes[who] for who, p in pages.items()}
        back = {who: len(seen(p)["opens"]) - opens[who] for who, p in pages.items()}
        return any(lost.values()) and all(back[who] >= lost[who] for who in pages)

    killed_at = time.time()
    site.servers[victim].kill()  # mid-game: the pages go on playing through it
    play([ann, bob, cid], rng, reconnected, "every page that lost its socket reconnecting")
    for who, page in pages.items():
        s = seen(page)
        if len(s["opens"]) > opens[who]:
            print(f"{who} reconnected {s['opens'][opens[who]] / 1000 - killed_at:.2f} s "
                  "after the kill")
        expect(page.locator("#conn")).to_have_text("", timeout=LONG)

    play([ann, bob, cid], rng, lambda: moves(duel) >= at[duel] + 4 and
         moves(alone) >= at[alone] + 4, "the games going on")
    bob.locator("#table-chat input[name=text]").fill("Still here")
    bob.locator("#table-chat button[type=submit]").click()
    for page in (ann, bob):
        for line in ("Good luck!", "Still here"):
            expect(page.locator("#table-chat .chat-lines")).to_contain_text(line, timeout=LONG)

    for tid, at_table in ((duel, {0: ann, 1: bob}), (alone, {0: cid})):
        def caught_up(tid: str = tid, at_table: dict[int, Any] = at_table) -> int | None:
            """The table's move number once every page at it has its frame."""
            n = moves(tid)
            return n if all(seen(p)["last"] == n for p in at_table.values()) else None

        last = wait_for(caught_up, "the pages catching up")
        stored = stored_moves(site.db, tid)
        assert [m[0] for m in stored] == list(range(last)), "a move is missing or doubled"
        print(f"table {tid}: {last} moves stored, each as told to its players")
        for seat, page in at_table.items():
            s = seen(page)
            mine = {n: [p, text] for n, p, _, text in stored if p == seat}
            assert s["told"] == {str(n): x for n, x in mine.items()} and not s["conflicts"], (
                f"stored {mine}, told {s['told']}, told two ways {s['conflicts']}")
            sent = {(n, a) for n, p, a in s["sent"]}
            assert all((n, a) in sent for n, p, a, _ in stored if p == seat), (
                f"a move stored that seat {seat} did not send: {stored}, sent {sent}")

    restarted = site.restart(victim)
    size = len(restarted.log.read_text())
    wait_for(lambda: moves(duel) >= 0 and '"route": "/api/tables/{table_id}"'
             in restarted.log.read_text()[size:], "the restarted server serving through nginx")
