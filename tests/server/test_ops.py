"""Running meeple as a public site: the settings (a file, the environment, the command line;
``--check-config``), ``/readyz``, the request log (JSON, a request id, no secret), Prometheus
metrics summed over processes, and the deployment in ``deploy/`` (nginx's configuration and
the systemd unit checked by their own tools; nginx with HTTPS in front of two servers on
PostgreSQL and Redis, a move and a socket through it). Every process is started by the
``processes`` fixture and ends with the test."""

from __future__ import annotations

import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from meeple.server import auth, create_app, settings

from .conftest import free_port
from .test_process import Server

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
@pytest.fixture
def own_redis(processes) -> Callable[[int], subprocess.Popen[Any]]:
    """Start a redis-server on a given port (the test stops and starts it again)."""
    exe = shutil.which("redis-server")
    assert exe, "redis-server not found: install it (scripts/setup.sh --test)"

    def start(port: int) -> subprocess.Popen[Any]:
        proc = processes([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                          "--appendonly", "no"], stdout=subprocess.DEVNULL)
        wait_for(lambda: _answers(port), "Redis starting")
        return proc

    return start


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


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


def certificate(d: Path) -> tuple[Path, Path]:
    """A self-signed certificate of localhost, made now."""
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def nginx_config(d: Path, https: int, http: int, upstreams: list[int]) -> Path:
    """deploy/nginx/meeple.conf on these ports with a certificate made now, inside a main
    configuration whose files are all in ``d``."""
    cert, key = certificate(d)
    site = (DEPLOY / "nginx" / "meeple.conf").read_text()
    for old, new in [
        ("    listen [::]:80;\n", ""), ("    listen [::]:443 ssl http2;\n", ""),
        ("listen 80;", f"listen 127.0.0.1:{http};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;"),
        ("server 127.0.0.1:8001", f"server 127.0.0.1:{upstreams[0]}"),
        ("server 127.0.0.1:8002", f"server 127.0.0.1:{upstreams[1]}"),
        ("/etc/letsencrypt/live/play.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/play.example.org/privkey.pem", str(key)),
        ("play.example.org", "localhost"),
    ]:
        assert old in site, old
        site = site.replace(old, new)
    (d / "meeple.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""
    main = d / "nginx.conf"
    main.write_text(f"""{user}daemon off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log {d}/access.log;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    include {d}/meeple.conf;
}}
""")
    return main


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def test_the_nginx_config_passes_nginx_t(tmp_path):
    assert Path(NGINX).exists(), "nginx is not installed (scripts/setup.sh --test)"
    main = nginx_config(tmp_path, free_port(), free_port(), [free_port(), free_port()])
    done = subprocess.run([NGINX, "-t", "-c", str(main), "-p", str(tmp_path), "-e", "stderr"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    site = (tmp_path / "meeple.conf").read_text()
    assert "Strict-Transport-Security" in site and "proxy_set_header Upgrade" in site


def test_a_move_and_a_socket_through_nginx_over_https_to_two_servers(
        processes, tmp_path, pg_url, redis_url, monkeypatch):
    for name, value in (("MEEPLE_REDIS", redis_url), ("MEEPLE_DB", pg_url),
                        ("MEEPLE_TRUSTED_PROXIES", "127.0.0.1"),
                        ("MEEPLE_SECURE_COOKIES", "true"), ("MEEPLE_LOG_FORMAT", "json")):
        monkeypatch.setenv(name, value)  # the servers' settings, from the environment
    servers = two_servers(processes, tmp_path, [MEEPLE, "serve", "--port"])
    https = free_port()
    main = nginx_config(tmp_path, https, free_port(), [s.port for s in servers])
    processes([NGINX, "-c", str(main), "-p", str(tmp_path), "-e", str(tmp_path / "error.log")])
    base = f"https://localhost:{https}"
    cert = ssl.create_default_context(cafile=tmp_path / "cert.pem")
    wait_for(lambda: _healthy(base, cert), "nginx answering")

    tid, c, tokens = play_a_move(base, verify=cert)
    assert "max-age=" in c.get("/healthz").headers["strict-transport-security"]
    assert all(cookie.secure for cookie in c.cookies.jar)  # sent over HTTPS only
    with connect(f"wss://localhost:{https}/ws/tables/{tid}", ssl=cert,
                 origin=f"https://localhost:{https}",  # type: ignore[arg-type]
                 additional_headers={"Cookie": "; ".join(
                     f"{k}={v}" for k, v in c.cookies.items())}, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": list(tokens.values())}))
        wait_for(lambda: json.loads(ws.recv(timeout=30))["type"] == "frame", "a frame")
        for _ in range(4):  # the requests spread over both servers; every move reaches ws
            frame_reaching(ws, act(c, tid, tokens))
    served = [s for s in servers if '"route": "/api/tables/{table_id}/act"' in s.log.read_text()]
    assert len(served) == 2, "nginx sent every move to the same server"


def _healthy(base: str, cert: ssl.SSLContext) -> bool:
    try:
        return httpx.get(base + "/healthz", verify=cert, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False
