"""A real server process (uvicorn on SQLite): seat tokens never reach its access log, and
kill -9 loses no acknowledged move (a few rounds, bounded time)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2 as httpx

from .conftest import free_port
from .util import stored_moves

ROOT = Path(__file__).resolve().parents[2]
SERVER = """
import sys, uvicorn
from tests.engine.tinygame import register_tiny
register_tiny()
from meeple.server import create_app
uvicorn.run(create_app(sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]),
            log_level="info", access_log=True, proxy_headers=False)
"""


class Server:
    """``python -c SERVER`` on a free port, its output in a file."""

    def __init__(self, db_url: str, log: Path):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        out = log.open("ab")
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, db_url, str(self.port)],
                                     cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                     env=dict(os.environ, PYTHONPATH=str(ROOT)))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("the server did not start: " + log.read_text()[-2000:])

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)


def test_seat_tokens_never_reach_the_access_log(tmp_path):
    from websockets.sync.client import connect

    log = tmp_path / "server.log"
    server = Server(f"sqlite:///{tmp_path / 'm.db'}", log)
    try:
        c = httpx.Client(base_url=server.base)
        c.post("/api/guest", json={"name": "Ann"})
        r = c.post("/api/tables", json={"game": "sealed_bids",
                                        "seats": [{"kind": "me"}, {"kind": "me"}]})
        tid = r.json()["table"]["id"]
        tokens = [t["token"] for t in r.json()["tokens"]]
        c.cookies.clear()
        r = c.get(f"/api/tables/{tid}/frame", params={"seat": 0},
                  headers={"X-Seat-Token": tokens[0]})
        assert r.status_code == 200 and r.json()["seats"] == [0]
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{tid}") as ws:
            ws.send(json.dumps({"type": "hello", "tokens": tokens}))
            for _ in range(20):
                f = json.loads(ws.recv(timeout=10))
                if f.get("type") == "frame" and f["seats"] == [0, 1]:
                    break
            else:
                raise AssertionError("the hello was not followed")
    finally:
        server.stop()
    text = log.read_text()
    assert f"/api/tables/{tid}/frame" in text and f"/ws/tables/{tid}" in text  # it is logged
    for token in tokens:
        assert token not in text


def _player(base: str, tid: str, tokens: list[str], acked: list, stop: threading.Event) -> None:
    """Play both seats through /act until stopped; every acknowledged move is noted."""
    rng = random.Random(7)
    with httpx.Client(base_url=base, timeout=5) as c:
        while not stop.is_set():
            try:
                for seat in (0, 1):
                    f = c.get(f"/api/tables/{tid}/frame", params={"seat": seat},
                              headers={"X-Seat-Token": tokens[seat]}).json()
                    if f["status"] == "finished":
                        return
                    if not f["actions"]:
                        continue
                    a = rng.choice(f["actions"])["action"]
                    r = c.post(f"/api/tables/{tid}/act", json={
                        "seat": seat, "action": a, "move_number": f["move_number"],
                        "token": tokens[seat]})
                    if r.status_code == 200:
                        acked.append((f["move_number"], seat, a, r.json()["move_number"]))
            except (httpx.HTTPError, ValueError, KeyError):
                return


def test_kill_9_loses_no_acknowledged_move(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    log = tmp_path / "server.log"
    server = Server(url, log)
    acked: dict[str, list] = {}
    try:
        for _round in range(3):
            c = httpx.Client(base_url=server.base)
            c.post("/api/guest", json={"name": f"Ann {_round}"})
            tables = []
            for _ in range(4):
                r = c.post("/api/tables", json={"game": "sealed_bids",
                                                "seats": [{"kind": "me"}, {"kind": "me"}]})
                assert r.status_code == 201, r.text
                tid = r.json()["table"]["id"]
                tables.append((tid, [t["token"] for t in r.json()["tokens"]]))
                acked[tid] = []
            stop = threading.Event()
            threads = [threading.Thread(target=_player, args=(server.base, tid, tokens,
                                                              acked[tid], stop))
                       for tid, tokens in tables]
            for t in threads:
                t.start()
            time.sleep(0.3 + random.random() * 0.5)
            server.kill()  # in the middle of moves
            stop.set()
            for t in threads:
                t.join(10)
            server = Server(url, log)
    finally:
        server.stop()
    total = 0
    for tid, moves_acked in acked.items():
        moves = stored_moves(url, tid)
        for asked_at, seat, action, after in moves_acked:
            total += 1
            assert after <= len(moves), "an acknowledged move was lost"
            assert any(p == seat and a == action for n, p, a, _ in moves[asked_at:after]), (
                "an acknowledged move is not where it was stored")
        assert [m[0] for m in moves] == list(range(len(moves)))
    assert total > 10


def _descendants(pid: int) -> set[int]:
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


def test_a_stopped_server_leaves_no_bot_process_behind(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'm.db'}", tmp_path / "server.log")
    try:
        c = httpx.Client(base_url=server.base)
        c.post("/api/guest", json={"name": "Ann"})
        r = c.post("/api/tables", json={"game": "koplus", "players": 2, "seats": [
            {"kind": "bot", "bot": "mcts:1"}, {"kind": "bot", "bot": "greedy"}]})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        deadline = time.monotonic() + 60
        while c.get(f"/api/tables/{tid}").json()["table"]["move_number"] < 12:
            assert time.monotonic() < deadline, "the bots did not play"
            time.sleep(0.2)
        workers = _descendants(server.proc.pid)
        assert workers  # the bots think in processes of their own
    finally:
        server.stop()
    deadline = time.monotonic() + 10
    while alive := {p for p in workers if _running(p)}:
        assert time.monotonic() < deadline, f"left behind: {sorted(alive)}"
        time.sleep(0.1)


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_the_bots_processes_start_without_stopping_the_event_loop():
    """The first jobs of a pool start its processes (the first also the fork server, which
    imports every game first): meanwhile the event loop goes on serving."""
    import asyncio
    import operator

    from meeple.server.pool import BotPool

    async def main() -> float:
        pool = BotPool(workers=2)
        gaps: list[float] = []
        running = True

        async def ticker() -> None:
            last = time.perf_counter()
            while running:
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now

        tick = asyncio.create_task(ticker())
        try:
            done = await asyncio.gather(*(pool.run(operator.add, i, 1) for i in range(4)))
            assert done == [1, 2, 3, 4]
        finally:
            running = False
            await tick
            pool.stop()
        return max(gaps)

    assert asyncio.run(main()) < 0.1
