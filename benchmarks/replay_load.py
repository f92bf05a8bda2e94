"""Replays at once: many replay requests of one finished Kontor table, in mixed languages
and seats, while ``/healthz`` is asked again and again.

Starts a real uvicorn server (SQLite in a temp dir), lets two random bots play a Kontor table
to its end, then sends ``--replays`` replay requests at once (each a thread of its own) and
prints how they were answered (by status), how long they took, and the median and longest
time of ``/healthz`` before and meanwhile.

    .venv/bin/python benchmarks/replay_load.py --replays 64
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from server_load import served

ROOT = Path(__file__).resolve().parent.parent
SERVER = """
import sys, uvicorn
from meeple.server import create_app
from meeple.server.deps import roomy_rates
uvicorn.run(create_app(sys.argv[1], rates=roomy_rates()), host="127.0.0.1",
            port=int(sys.argv[2]), log_level="warning")
"""
LANGS = ("en", "de", "es", "nl")


def call(url: str, method: str = "GET", body: dict | None = None, cookie: str = "",
         ) -> tuple[int, bytes, str]:
    """(status, body, the session cookie set if any)."""
    req = urllib.request.Request(url, method=method, headers={
        "Content-Type": "application/json", "Cookie": cookie},
        data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            set_cookie = r.headers.get("set-cookie") or ""
            return r.status, r.read(), set_cookie.split(";")[0]
    except urllib.error.HTTPError as e:
        return e.code, e.read(), ""
    except OSError:
        return 0, b"", ""


def probe(base: str, times: list[float], stop: threading.Event) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        call(base + "/healthz")
        times.append(time.perf_counter() - t)
        time.sleep(0.02)


def summary(times: list[float]) -> str:
    if not times:
        return "none"
    return (f"p50 {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
            f"({len(times)})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--replays", type=int, default=64)
    p.add_argument("--root", default=str(ROOT), help="the source tree to serve")
    args = p.parse_args()
    with served(SERVER, args.root) as (base, _proc):
        _, _, cookie = call(base + "/api/guest", "POST", {"name": "Ann"})
        _, made, _ = call(base + "/api/tables", "POST", {
            "game": "kontor", "players": 2,
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]},
            cookie)
        tid = json.loads(made)["table"]["id"]
        total = 0
        for _ in range(600):
            table = json.loads(call(f"{base}/api/tables/{tid}")[1])["table"]
            if table["status"] == "finished":
                total = table["move_number"]
                break
            time.sleep(0.1)
        quiet: list[float] = []
        stop = threading.Event()
        t = threading.Thread(target=probe, args=(base, quiet, stop))
        t.start()
        time.sleep(2)
        stop.set()
        t.join()
        busy: list[float] = []
        stop = threading.Event()
        t = threading.Thread(target=probe, args=(base, busy, stop))
        t.start()

        def replay(i: int) -> tuple[int, float]:
            move, seat, lang = i * 37 % (total + 1), i % 3 - 1, LANGS[i % 4]
            seat_part = f"&seat={seat}" if seat >= 0 else ""
            start = time.perf_counter()
            status = call(f"{base}/api/tables/{tid}/replay?move={move}{seat_part}",
                          cookie=f"lang={lang}")[0]
            return status, time.perf_counter() - start

        start = time.perf_counter()
        with ThreadPoolExecutor(args.replays) as pool:
            answers = list(pool.map(replay, range(args.replays)))
        wall = time.perf_counter() - start
        stop.set()
        t.join()
        print(f"{args.replays} replays of a {total}-move Kontor table in {wall:.1f} s: "
              f"{dict(collections.Counter(s for s, _ in answers))} by status "
              f"(0: connection dropped); each {summary([d for _, d in answers])}")
        print(f"/healthz before: {summary(quiet)}; meanwhile: {summary(busy)}")


if __name__ == "__main__":
    main()
