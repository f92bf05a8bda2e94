"""Memory of idle sockets: many spectators that open a table's WebSocket and never read.

Starts a real uvicorn server (SQLite in a temp dir; the socket caps raised so that one
machine can open them all), makes a Kontor table where a person plays a bot, opens
``--sockets`` silent spectator sockets (the upgrade request sent, nothing ever read) from
loopback addresses 127.0.0.2, 127.0.0.3, ... (``--per-address`` each), plays ``--moves``
moves, closes them all, and prints the server's resident memory at each step, and the
median time of ``/healthz`` meanwhile.

    .venv/bin/python benchmarks/idle_sockets.py --sockets 2000 --moves 20
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import statistics
import time
import urllib.request
from pathlib import Path

from server_load import Http, served

ROOT = Path(__file__).resolve().parent.parent
SERVER = """
import sys, uvicorn
from meeple.server import create_app
app = create_app(sys.argv[1])
sockets = getattr(app.state, "sockets", None)
if sockets is not None:
    sockets.per_address = sockets.per_table = 10 ** 6
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            backlog=4096)
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def silent(port: int, path: str, address: str) -> asyncio.StreamWriter:
    """A WebSocket that sends its upgrade request and never reads anything."""
    _reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    await writer.drain()
    return writer


def ask(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.read()


async def healthz(base: str, times: list[float], stop: asyncio.Event) -> None:
    """Ask ``/healthz`` again and again until ``stop``, noting how long each answer took."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.to_thread(ask, base + "/healthz")
        times.append(time.perf_counter() - t)
        await asyncio.sleep(0.05)


async def run(args: argparse.Namespace) -> None:
    with served(SERVER, args.root) as (base, proc):
        port = int(base.rsplit(":", 1)[1])
        http = Http(base)
        http.call("POST", "/api/guest", {"name": "Ann"})
        made = http.call("POST", "/api/tables", {"game": "kontor", "players": 2, "seats": [
            {"kind": "me"}, {"kind": "bot", "bot": "random"}]})
        tid = made["table"]["id"]
        print(f"server at start: {rss_mb(proc.pid):.0f} MB")
        times: list[float] = []
        stop = asyncio.Event()
        probe = asyncio.create_task(healthz(base, times, stop))
        writers = []
        for i in range(args.sockets):
            address = f"127.0.0.{2 + i // args.per_address}"
            writers.append(await silent(port, f"/ws/tables/{tid}", address))
        await asyncio.sleep(3)
        print(f"{args.sockets} silent sockets: {rss_mb(proc.pid):.0f} MB")
        for _ in range(args.moves):
            frame = http.call("GET", f"/api/tables/{tid}/frame?seat=0")
            if not frame["actions"]:
                break
            http.call("POST", f"/api/tables/{tid}/act", {
                "seat": 0, "action": frame["actions"][0]["action"],
                "move_number": frame["move_number"]})
            await asyncio.sleep(0.2)
        await asyncio.sleep(3)
        print(f"after {args.moves} moves: {rss_mb(proc.pid):.0f} MB")
        for w in writers:
            w.close()
        await asyncio.sleep(5)
        stop.set()
        await probe
        print(f"all closed: {rss_mb(proc.pid):.0f} MB")
        if times:
            print(f"/healthz meanwhile: p50 {statistics.median(times) * 1000:.0f} ms, "
                  f"max {max(times) * 1000:.0f} ms ({len(times)} asked)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sockets", type=int, default=2000)
    p.add_argument("--per-address", type=int, default=100)
    p.add_argument("--moves", type=int, default=20)
    p.add_argument("--root", default=str(ROOT), help="the source tree to serve")
    asyncio.run(run(p.parse_args()))


if __name__ == "__main__":
    main()
