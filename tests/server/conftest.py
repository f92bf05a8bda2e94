"""Fixtures of the server tests: the test suite's small game registered, a throwaway
PostgreSQL and Redis started for the session, apps on SQLite or PostgreSQL."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from meeple.engine import registry
from meeple.server import deps, pool
from meeple.server.db import checkpoint, open_database
from tests.conftest import end_process
from tests.engine.tinygame import register_tiny

PG_BIN = Path(os.environ.get("MEEPLE_PG_BIN", "/usr/lib/postgresql/15/bin"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def sealed_bids_registered():
    """The test suite's small game (chance + simultaneous + hidden bids) is always playable."""
    register_tiny()
    yield
    registry._GAMES.pop("sealed_bids", None)


@pytest.fixture(scope="session", autouse=True)
def bots_processes_kept():
    """The bots' processes start once per test process, as in a server whose tables come and
    go, not once per test's app; they end with the session."""
    with pool.processes_kept():
        yield


@pytest.fixture(autouse=True)
def roomy_rate_limits(monkeypatch):
    """The tests play many people and tables from one address: the rate limits of their apps
    are out of reach, unless a test sets its own (``create_app(rates=...)``)."""
    monkeypatch.setattr(deps, "RATES", deps.roomy_rates())


def _as_postgres(cmd: str) -> list[str]:
    if os.geteuid() == 0:
        return ["su", "postgres", "-s", "/bin/sh", "-c", cmd]
    return ["sh", "-c", cmd]


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL 15 cluster in a temp dir on a free port, for the whole session."""
    initdb, pg_ctl = PG_BIN / "initdb", PG_BIN / "pg_ctl"
    if not initdb.exists():
        pytest.fail(
            f"PostgreSQL binaries not found in {PG_BIN}: install postgresql-15 "
            "(scripts/setup.sh --test) or set MEEPLE_PG_BIN"
        )
    d = Path(tempfile.mkdtemp(prefix="meeple-pg-"))
    os.chmod(d, 0o777)
    if os.geteuid() == 0:
        shutil.chown(d, "postgres")
    port = free_port()
    data = d / "data"
    subprocess.run(
        _as_postgres(f"{initdb} -D {data} -A trust -U postgres"),
        check=True, capture_output=True,
    )
    subprocess.run(
        _as_postgres(
            f"{pg_ctl} -D {data} -o \"-k {d} -p {port} -c listen_addresses=127.0.0.1 "
            f"-c fsync=off -c max_connections=200\" -l {d}/log -w start"
        ),
        check=True, capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(_as_postgres(f"{pg_ctl} -D {data} -m immediate stop"),
                       capture_output=True)
        shutil.rmtree(d, ignore_errors=True)


def _create_database(server: str, name: str, template: str | None = None) -> str:
    import psycopg

    dsn = server.replace("postgresql+psycopg", "postgresql") + "/postgres"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    return f"{server}/{name}"


@pytest.fixture(scope="session")
def pg_template(postgres_server) -> str:
    """A database of the session's PostgreSQL with every migration applied, which each
    test's database is copied from (``tests/server/test_storage.py`` migrates empty ones)."""
    engine = open_database(_create_database(postgres_server, "t_migrated"))
    engine.dispose()
    return "t_migrated"


@pytest.fixture
def pg_url(postgres_server, pg_template):
    """A fresh database on the session's PostgreSQL, migrated."""
    return _create_database(postgres_server, "t_" + uuid.uuid4().hex[:12], pg_template)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """A SQLite file with every migration applied, which each test's database is copied
    from."""
    path = tmp_path_factory.mktemp("migrated") / "meeple.db"
    engine = open_database(f"sqlite:///{path}")
    checkpoint(engine, "TRUNCATE")
    engine.dispose()
    return path


@pytest.fixture
def sqlite_url(tmp_path, sqlite_template):
    """A fresh SQLite database in the test's directory, migrated."""
    shutil.copyfile(sqlite_template, tmp_path / "meeple.db")
    return f"sqlite:///{tmp_path / 'meeple.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_db_url(request, tmp_path):
    """An empty database, on SQLite and on PostgreSQL: for the tests of the migrations."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    server = request.getfixturevalue("postgres_server")
    return _create_database(server, "t_" + uuid.uuid4().hex[:12])


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request):
    """Each test using this runs on SQLite and on PostgreSQL."""
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")


def answers(port: int) -> bool:
    """Whether something listens on ``port`` of 127.0.0.1."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def redis_server(port: int, start: Callable[..., subprocess.Popen[Any]] = subprocess.Popen,
                 ) -> subprocess.Popen[Any]:
    """A throwaway redis-server on ``port`` of 127.0.0.1 (it writes no file), once it answers;
    ``start`` starts it (the ``processes`` fixture: it ends with the test)."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("redis-server not found: install it (scripts/setup.sh --test)")
    proc = start([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                  "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not answers(port):
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"redis-server did not start on port {port}")
        time.sleep(0.05)
    return proc


@pytest.fixture(scope="session")
def redis_url():
    """A throwaway redis-server on a free port."""
    port = free_port()
    proc = redis_server(port)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        end_process(proc, 5)


@pytest.fixture
def own_redis(processes) -> Callable[[int], subprocess.Popen[Any]]:
    """Start a redis-server on a given port (a test that stops it and starts it again)."""
    return lambda port: redis_server(port, processes)
