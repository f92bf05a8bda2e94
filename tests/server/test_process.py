"""A real server process (uvicorn on SQLite): seat tokens never reach its access log, kill -9
loses no acknowledged move (a few rounds, bounded time), and no process of the bots outlives
the server, however it ends. Every server is started by the ``processes`` fixture, which ends
it with the test."""

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
from .util import descendants, stored_moves

ROOT = Path(__file__).resolve().parents[2]
MEEPLE = str(Path(sys.executable).with_name("meeple"))
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

    def __init__(self, processes, db_url: str, log: Path, argv: list[str] | None = None,
                 port: int | None = None, **options):
        """``argv``: the command (the port is added), by default ``python -c SERVER``;
        ``port``: a given one (a server started again where it was) instead of a free one."""
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        out = log.open("ab")
        argv = argv or [sys.executable, "-c", SERVER, db_url]
        self.proc = processes([*argv, str(self.port)], cwd=ROOT, stdout=out,
                              stderr=subprocess.STDOUT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)), **options)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and self.proc.poll() is None:
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


def test_seat_tokens_never_reach_the_access_log(tmp_path, processes):
    from websockets.sync.client import connect

    log = tmp_path / "server.log"
    server = Server(processes, f"sqlite:///{tmp_path / 'm.db'}", log)
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


def test_kill_9_loses_no_acknowledged_move(tmp_path, processes):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    log = tmp_path / "server.log"
    server = Server(processes, url, log)
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
            deadline = time.monotonic() + 120  # some moves are played, however slow the machine
            while sum(len(acked[tid]) for tid, _ in tables) < 4:
                assert time.monotonic() < deadline, "no move was acknowledged"
                time.sleep(0.05)
            time.sleep(random.random() * 0.3)
            server.kill()  # in the middle of moves
            stop.set()
            for t in threads:
                t.join(10)
            server = Server(processes, url, log)
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


def _busy_meeple_serve(processes, tmp_path: Path) -> tuple[Server, set[int]]:
    """A real ``meeple serve`` (in its own process group, as a terminal runs it) whose bots
    are thinking at two tables of search bots, and every process below it (the bots'
    workers, their fork server and the resource tracker)."""
    server = Server(processes, "", tmp_path / "server.log",
                    argv=[MEEPLE, "serve", "--db", f"sqlite:///{tmp_path / 'm.db'}", "--port"],
                    start_new_session=True)
    c = httpx.Client(base_url=server.base, timeout=30)
    c.post("/api/guest", json={"name": "Ann"})
    tables = []
    for _ in range(2):
        r = c.post("/api/tables", json={"game": "koplus", "players": 2, "seats": [
            {"kind": "bot", "bot": "mcts:5"}, {"kind": "bot", "bot": "mcts:5"}]})
        assert r.status_code == 201, r.text
        tables.append(r.json()["table"]["id"])
    deadline = time.monotonic() + 120
    while True:  # both tables played, and the bots' workers (the fork server's children) run
        below = descendants(server.proc.pid)
        workers = {p for p in below if _parent(p) != server.proc.pid}
        if len(workers) >= 2 and all(
                c.get(f"/api/tables/{tid}").json()["table"]["move_number"] >= 4
                for tid in tables):
            break
        assert time.monotonic() < deadline, "the bots did not play"
        time.sleep(0.2)
    return server, below


def _left(processes: set[int], ceiling: float = 60) -> set[int]:
    """The ``processes`` still running after waiting up to ``ceiling`` seconds for them."""
    deadline = time.monotonic() + ceiling
    while (alive := {p for p in processes if _running(p)}) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def test_a_killed_server_leaves_no_process_behind(tmp_path, processes):
    """kill -9 of a server whose bots are thinking: its workers, their fork server and the
    resource tracker all end too (the workers watch a pipe only the server holds)."""
    server, below = _busy_meeple_serve(processes, tmp_path)
    server.kill()
    left = _left(below)
    for pid in left:  # this test's processes end with it, whatever it finds
        os.kill(pid, signal.SIGKILL)
    assert not left, f"left behind: {sorted(left)}"


def test_a_stopped_server_ends_its_bots_without_a_word(tmp_path, processes):
    """Ctrl-C of ``meeple serve`` (SIGINT to its whole process group, bots included) or a
    service manager's SIGTERM while the bots think: everything ends, and nothing is said on
    the way out: no worker's traceback, no "leaked semaphore objects" of the resource
    tracker (the pool's queues are let go of before the server exits)."""
    for how in ("ctrl-c", "sigterm"):
        d = tmp_path / how
        d.mkdir()
        server, below = _busy_meeple_serve(processes, d)
        if how == "ctrl-c":
            os.killpg(server.proc.pid, signal.SIGINT)
        else:
            server.proc.terminate()
        server.proc.wait(60)
        assert not _left(below), how
        said = server.log.read_text()
        assert "Finished server process" in said
        assert "leaked" not in said and "Traceback" not in said, (how, said[-3000:])


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


_FIRST_START = """
import asyncio, json, operator
from meeple.server.pool import BotPool, _processes

async def main():
    pool = BotPool(workers=2)
    seen = []  # processes started, at each turn of the loop while the jobs wait
    running = True

    async def ticker():
        while running:
            await asyncio.sleep(0.001)
            if pool._executor is not None:
                seen.append(len(_processes(pool._executor)))

    tick = asyncio.create_task(ticker())
    try:
        done = await asyncio.gather(*(pool.run(operator.add, i, 1) for i in range(4)))
    finally:
        running = False
        await tick
        pool.stop()
    print(json.dumps({"done": done, "seen": seen}))

asyncio.run(main())
"""


def test_the_bots_processes_start_without_stopping_the_event_loop():
    """The first jobs of a pool start its processes (the first also the fork server, which
    imports every game first): meanwhile the event loop goes on serving, so it is seen running
    while the pool waits for its first process. In a process of its own, where no pool of
    another test has started them already."""
    out = subprocess.run([sys.executable, "-c", _FIRST_START], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    assert got["done"] == [1, 2, 3, 4]
    assert 0 in got["seen"], f"the loop only ran once the first process had started: {got}"
