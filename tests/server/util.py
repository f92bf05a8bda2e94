"""Helpers of the server tests: reading frames and rebuilding states independently."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

import meeple
from meeple.server import auth

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end in a fresh event loop on a thread of its own (a browser test in
    the same worker may hold a running loop on this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def frames_until(ws, pred, limit: int = 500) -> dict[str, Any]:
    """Read messages from ``ws`` until a frame satisfies ``pred``; return it."""
    for _ in range(limit):
        msg = ws.receive_json()
        if msg.get("type") == "frame" and pred(msg):
            return msg
    raise AssertionError("no matching frame arrived")


def stored_moves(db_url: str, table_id: str) -> list[tuple[int, int, int, str]]:
    """The moves of a table straight from the database: (n, player, action, notation)."""
    eng = create_engine(db_url)
    try:
        with eng.connect() as c:
            rows = c.execute(
                text(
                    "SELECT n, player, action, notation FROM moves"
                    " WHERE table_id = :t ORDER BY n"
                ),
                {"t": table_id},
            ).all()
    finally:
        eng.dispose()
    return [tuple(r) for r in rows]


def rebuild(game_name: str, players: int, options: dict, moves, upto: int | None = None):
    """The state after the first ``upto`` stored moves, replayed by the engine alone."""
    state = meeple.load(game_name, players, **options).new_initial_state()
    for n, player, action, _ in moves[:upto]:
        assert n == state.move_number()
        state.apply(action, player)
    return state


def new_guest(client, name: str = "Ann") -> dict[str, Any]:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()


def hello(ws, *tokens: str):
    """Say which seat tokens a socket presents (its first message); returns ``ws``."""
    ws.send_json({"type": "hello", "tokens": list(tokens)})
    return ws


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (Linux)."""
    parents: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(d.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


class People:
    """Several people on one test client, each with their own session cookie: a guest, or
    signed up where a password is given."""

    def __init__(self, client: TestClient):
        self.client = client
        self.cookies: dict[str, str] = {}

    def add(self, name: str, password: str | None = None) -> None:
        self.client.cookies.clear()
        if password is None:
            r = self.client.post("/api/guest", json={"name": name})
        else:
            r = self.client.post("/api/signup", json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        self.cookies[name] = self.client.cookies[auth.COOKIE]

    def be(self, name: str | None) -> TestClient:
        """The client, carrying ``name``'s cookie (none: nobody's)."""
        self.client.cookies.clear()
        if name is not None:
            self.client.cookies.set(auth.COOKIE, self.cookies[name])
        return self.client

    def user(self, name: str) -> Any:
        """``name``'s account record."""
        return self.client.app.state.services.store.user_by_key(auth.name_key(name))


def play(p: People, tid: str, by_seat: dict[int, str], moves: int | None = None) -> dict:
    """Each seat to move plays its first legal action: ``moves`` of them, or to the end."""
    played = 0
    for _ in range(2000):
        table = p.be(by_seat[0]).get(f"/api/tables/{tid}").json()["table"]
        if table["status"] != "running" or (moves is not None and played >= moves):
            return table
        for seat in table["to_move"]:
            c = p.be(by_seat[seat])
            frame = c.get(f"/api/tables/{tid}/frame", params={"seat": seat}).json()
            if not frame["actions"]:
                continue
            r = c.post(f"/api/tables/{tid}/act", json={
                "seat": seat, "action": frame["actions"][0]["action"],
                "move_number": frame["move_number"]})
            assert r.status_code == 200, r.text
            played += 1
    raise AssertionError("the game did not end")
