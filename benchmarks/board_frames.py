"""How long the browser takes to show each new picture of a table (Debian's Chromium,
headless, through Playwright): games against a random bot, at desktop and phone size, until
``--moves`` moves are made per game and size.

Starts a real server (SQLite in a temp dir), opens each table as a guest and plays its moves
from the page itself (the board's own ``choose``, as a click would), and times the board's
``show`` of every picture that follows: the picture parsed, laid out, its moves bound and
marked. Prints the median and the 90th percentile per game and size, and the main thread's
long tasks (over 50 ms) meanwhile. Never fails on timing.

    .venv/bin/python benchmarks/board_frames.py [GAME ...] [--moves 40]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from server_load import free_port

import meeple

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("MEEPLE_CHROMIUM", "/usr/bin/chromium")
SERVER = """
import sys, uvicorn
from meeple.server import create_app
from meeple.server.deps import roomy_rates
uvicorn.run(create_app(sys.argv[1], bot_delay=0.0, rates=roomy_rates()), host="127.0.0.1",
            port=int(sys.argv[2]), log_level="warning")
"""
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SHORT = {"kozo": {"rounds": 1}, "kontor": {"max_rounds": 4}}
TIMED = """() => {
  window.__shows = []; window.__long = [];
  const b = document.querySelector('#board').board;
  const show = b.show.bind(b);
  b.show = (...args) => {
    const t = performance.now();
    const out = show(...args);
    window.__shows.push(performance.now() - t);
    return out;
  };
  new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration)))
    .observe({ type: 'longtask' });
}"""
PLAY = """(i) => {
  const b = document.querySelector('#board').board;
  if (!document.querySelector('#board.can-act') || !b._actions.length) return false;
  b.choose(b._actions[i % b._actions.length]);
  return true;
}"""


def start_server(d: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, f"sqlite:///{d / 'meeple.db'}",
                             str(port)], env=dict(os.environ, PYTHONPATH=str(ROOT)))
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(base + "/api/games", timeout=30):
                return proc, base
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)


def one_game(browser, base: str, game: str, size: str, moves: int, seed: int) -> dict:
    phone = size == "phone"
    ctx = browser.new_context(base_url=base, viewport=SIZES[size], is_mobile=phone,
                              has_touch=phone)
    try:
        assert ctx.request.post("/api/guest", data={"name": "Bench"}).ok
        body = {"game": game, "players": 2, "options": SHORT.get(game, {}), "start": True,
                "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
        r = ctx.request.post("/api/tables", data=body)
        assert r.ok, r.text()
        page = ctx.new_page()
        page.goto(f"/table/{r.json()['table']['id']}")
        page.wait_for_function("() => !!document.querySelector('#board.can-act')",
                               timeout=60_000)
        page.evaluate(TIMED)
        rng = random.Random(seed)
        for _ in range(moves):
            try:
                page.wait_for_function(
                    "() => !!document.querySelector('#board.can-act, #final')", timeout=30_000)
            except Exception:
                break
            if not page.evaluate(PLAY, rng.randrange(1 << 30)):
                break  # the game is over
        page.wait_for_timeout(300)
        return {"shows": page.evaluate("window.__shows"), "long": page.evaluate("window.__long")}
    finally:
        ctx.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("games", nargs="*", default=list(meeple.games()))
    ap.add_argument("--moves", type=int, default=40, help="moves made per game and size")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                for game in args.games:
                    for size in SIZES:
                        shows: list[float] = []
                        long: list[float] = []
                        seed = args.seed
                        while len(shows) < args.moves:
                            got = one_game(browser, base, game, size, args.moves - len(shows),
                                           seed)
                            shows += got["shows"]
                            long += got["long"]
                            seed += 1
                        q = statistics.quantiles(shows, n=10)[8]
                        print(f"{game:<11} {size:<8} {len(shows):>3} pictures: show median "
                              f"{statistics.median(shows):6.1f} ms, 90th percentile {q:6.1f} "
                              f"ms; long tasks {len(long)}, {sum(long):.0f} ms in all",
                              flush=True)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
