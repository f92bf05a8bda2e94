"""``meeple backup`` and ``meeple restore`` on SQLite and on PostgreSQL, while games are being
played: the backup is one consistent moment of the database, and every finished and running
table, account, rating and chat line of before it comes back in a fresh database, where a
server opens them again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import uuid
from collections import Counter
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import MetaData, create_engine, select

from meeple.server import create_app

from .test_community import _table
from .util import People, play

MEEPLE = str(Path(sys.executable).with_name("meeple"))
Rows = dict[str, set[str]]
"""Rows of each table of a database, by the table's name."""


def rows(url: str) -> Rows:
    """Every row of every table of the database, each as a JSON object's text."""
    engine = create_engine(url)
    try:
        meta = MetaData()
        meta.reflect(engine)
        with engine.connect() as conn:
            return {name: {json.dumps(dict(r._mapping), sort_keys=True, default=str)
                           for r in conn.execute(select(t))}
                    for name, t in meta.tables.items()}
    finally:
        engine.dispose()


def meeple(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MEEPLE, "--lang", "en", *args], capture_output=True, text=True,
                          timeout=300)


def fresh_database(db_url: str, tmp_path: Path) -> str:
    """Another empty database of the same kind as ``db_url``."""
    if db_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'restored.db'}"
    import psycopg

    server, _, _ = db_url.rpartition("/")
    name = "r_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server.replace("postgresql+psycopg", "postgresql") + "/postgres",
                         autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{server}/{name}"


def test_a_backup_taken_during_play_restores_every_table_account_rating_and_chat_line(
        db_url, tmp_path):
    with TestClient(create_app(db_url)) as client:
        people = People(client)
        for name in ("Ann", "Bob", "Cy"):
            people.add(name, "correct horse")
        rated = _table(people, rated=True)
        people.be("Bob").post(f"/api/tables/{rated}/chat", json={"text": "good luck"})
        play(people, rated, {0: "Ann", 1: "Bob"})
        people.be("Cy").post("/api/lobby/chat", json={"text": "anyone for Kontor?"})
        running = _table(people, owner="Ann", joiner="Cy")
        people.be("Ann").post(f"/api/tables/{running}/chat", json={"text": "your turn"})
        before = rows(db_url)

        stop = threading.Event()
        played: list[str] = []
        failed: list[BaseException] = []

        def keep_playing() -> None:  # one table after another, every move stored as it goes
            try:
                tid = running
                while not stop.is_set():
                    play(people, tid, {0: "Ann", 1: "Cy"})
                    played.append(tid)
                    tid = _table(people, owner="Ann", joiner="Cy")
            except BaseException as e:  # noqa: BLE001 - reported below
                failed.append(e)

        player = threading.Thread(target=keep_playing)
        player.start()
        try:
            done = meeple("backup", "--db", db_url, str(tmp_path / "site.backup"))
        finally:
            stop.set()
            player.join(120)
        assert not failed, failed
        assert done.returncode == 0, done.stderr
        after = rows(db_url)
    assert played, "no game was played during the backup"

    restored_url = fresh_database(db_url, tmp_path)
    for _ in range(2):  # a restore replaces what the database holds, even its own copy
        done = meeple("restore", "--db", restored_url, str(tmp_path / "site.backup"))
        assert done.returncode == 0, done.stderr
    back = rows(restored_url)

    assert before["chat_messages"] and before["ratings"] and before["rating_history"]
    for name, kept in before.items():
        unchanged = kept & after[name]  # rows that play did not change
        assert unchanged <= back[name], name
        # rows that play changes as it goes (a review's estimates follow the moves) may be
        # backed up as they were at any moment between
        assert back[name] <= after[name] | kept or name in ("tables", "seats", "sessions",
                                                             "reviews"), name
    moves = Counter(json.loads(line)["table_id"] for line in back["moves"])
    for line in back["tables"]:  # each table as it was at one moment: its moves all there
        table = json.loads(line)
        assert table["move_count"] == moves[table["id"]], table["id"]
    was = next(json.loads(x) for x in before["tables"] if json.loads(x)["id"] == running)

    with TestClient(create_app(restored_url)) as client:  # a server opens them again
        people = People(client)
        client.cookies.clear()
        r = client.post("/api/login", json={"name": "Ann", "password": "correct horse"})
        assert r.status_code == 200, r.text
        finished = client.get(f"/api/tables/{rated}").json()["table"]
        assert finished["status"] == "finished"
        board = client.get("/api/leaderboard/sealed_bids").json()["rows"]
        assert {r["name"] for r in board if not r["bot"]} == {"Ann", "Bob"}
        lobby = [x["text"] for x in client.get("/api/lobby/chat").json()["lines"]]
        assert "anyone for Kontor?" in lobby
        again = client.get(f"/api/tables/{running}").json()["table"]
        assert again["status"] in ("running", "finished")
        assert again["move_number"] >= was["move_count"] > 0


def test_backup_and_restore_say_what_is_wrong(tmp_path):
    missing = meeple("backup", "--db", f"sqlite:///{tmp_path / 'none.db'}",
                     str(tmp_path / "out"))
    assert missing.returncode == 2 and "there is no database" in missing.stderr
    (tmp_path / "junk").write_text("not a database")
    junk = meeple("restore", "--db", f"sqlite:///{tmp_path / 'x.db'}", str(tmp_path / "junk"))
    assert junk.returncode == 2 and "is not a backup" in junk.stderr, junk.stderr
    gone = meeple("restore", "--db", f"sqlite:///{tmp_path / 'x.db'}", str(tmp_path / "gone"))
    assert gone.returncode == 2 and "there is no backup" in gone.stderr
    assert "Traceback" not in missing.stderr + junk.stderr + gone.stderr


def test_backup_finds_the_database_in_the_servers_settings(tmp_path):
    from meeple.server.db import open_database

    open_database(f"sqlite:///{tmp_path / 'site.db'}").dispose()
    (tmp_path / "meeple.toml").write_text(f'db = "sqlite:///{tmp_path / "site.db"}"\n')
    done = subprocess.run([MEEPLE, "--lang", "en", "backup", str(tmp_path / "out.db")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "MEEPLE_CONFIG": str(tmp_path / "meeple.toml")})
    assert done.returncode == 0, done.stderr
    assert "users" in rows(f"sqlite:///{tmp_path / 'out.db'}")
    assert not (tmp_path / "meeple-data").exists()  # not the default database
