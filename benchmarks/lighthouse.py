"""Lighthouse's phone profile over the pages a player meets: the lobby, a game's rules, its
guided first game, a table of each game (as its player sees it, signed in), and a review.

Starts a real uvicorn server (SQLite in a temp dir), makes the tables and the review through
the HTTP API as a guest, then runs Lighthouse (meeple/web's dev dependency, pinned in its
package-lock.json; installed here with `npm ci` when missing) with Debian's Chromium in its
mobile profile (a slowed phone: simulated 4G and a 4x slower CPU) for performance,
accessibility and best practices. Prints a table of the scores and the cumulative layout shift
per page, and the opportunities Lighthouse lists where a page scores under 90.

    .venv/bin/python benchmarks/lighthouse.py
    .venv/bin/python benchmarks/lighthouse.py --pages lobby table-botanik --json /tmp/lh
    .venv/bin/python benchmarks/lighthouse.py --pages table-koplus --runs 3

With ``--runs N`` each page is scored N times (one line per run) and the table gives the
median run (by performance score) of each page.

The performance score depends on the machine: Lighthouse simulates the phone's slow CPU on
top of this one, so a busy machine scores lower (layout shift does not depend on it). A
benchmark: never run by the test suite.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "meeple" / "web"
LIGHTHOUSE = WEB / "node_modules" / ".bin" / "lighthouse"
sys.path.insert(0, str(ROOT))
from tests.conftest import CHROMIUM  # noqa: E402
from tests.e2e.conftest import served  # noqa: E402

SERVER = """
import sys, uvicorn
from meeple.server.app import create_app
from meeple.server.deps import roomy_rates
app = create_app(sys.argv[1], bot_delay=0.0, rates=roomy_rates())
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""

GAMES = ["koplus", "kozo", "mops_royal", "botanik", "kontor"]
CATEGORIES = ["performance", "accessibility", "best-practices"]
CHROME_FLAGS = "--headless=new --no-sandbox"


@contextmanager
def server(d: Path) -> Iterator[str]:
    """A fresh server on a free port, as its base URL; ended with the block."""
    with served(d, SERVER, f"sqlite:///{d / 'meeple.db'}") as base:
        with urllib.request.urlopen(base + "/api/games", timeout=60):
            pass  # the first listing imports every game
        yield base


class Guest:
    """A guest signed in through the API (its session cookie kept)."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.call("POST", "/api/guest", {"name": name})

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json",
                                              "Origin": self.base})
        with self.opener.open(req, timeout=120) as r:
            text = r.read()
        return json.loads(text) if text else {}

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def table(self, game: str) -> str:
        """A started table of ``game``: this guest against the Beginner bot."""
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
        r = self.call("POST", "/api/tables", {
            "game": game, "players": 2, "options": {}, "seats": seats,
            "visibility": "public", "clock": None, "start": True})
        return r["table"]["id"]

    def review(self) -> str:
        """A finished KoPlus table (given up at once) with its review made."""
        table = self.table("koplus")
        self.call("POST", f"/api/tables/{table}/resign", {})
        self.call("POST", f"/api/tables/{table}/review?seat=0")
        deadline = time.monotonic() + 300
        while self.call("GET", f"/api/tables/{table}/review?seat=0")["status"] != "done":
            if time.monotonic() > deadline:
                raise RuntimeError("the review was not made within 300 s")
            time.sleep(0.5)
        return table


def ensure_lighthouse() -> None:
    if not LIGHTHOUSE.exists():
        print("installing meeple/web's dev dependencies (Lighthouse) with npm ci", flush=True)
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=WEB, check=True)


def lighthouse(url: str, cookie: str | None, out: Path) -> dict:
    """Lighthouse's report (JSON) of ``url`` in its mobile profile."""
    argv = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
            f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}",
            "--form-factor=mobile"]
    if cookie:
        argv.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(f"lighthouse failed on {url}:\n{done.stderr[-2000:]}")
    return json.loads(out.read_text())


def summary(report: dict) -> dict:
    cats = report["categories"]
    audits = report["audits"]
    score = {c: round(100 * (cats[c]["score"] or 0)) for c in CATEGORIES}
    metric = {k: audits[k].get("numericValue") for k in (
        "cumulative-layout-shift", "first-contentful-paint", "largest-contentful-paint",
        "total-blocking-time", "speed-index")}
    chances = [f"{a['title']} ({a.get('displayValue', '')})".replace(" ()", "")
               for a in audits.values()
               if a.get("details", {}).get("type") == "opportunity"
               and a.get("score") is not None and a["score"] < 0.9]
    refs = cats["accessibility"]["auditRefs"] + cats["best-practices"]["auditRefs"]
    failed = [a["title"] for ref in refs
              if (a := audits[ref["id"]]).get("score") is not None and a["score"] < 1
              and ref.get("weight", 0) > 0]
    return {"score": score, "metric": metric, "chances": chances, "failed": failed}


def median_run(runs: list[dict]) -> dict:
    """The run whose performance score is the median of ``runs`` (the lower middle one of an
    even number)."""
    ranked = sorted(runs, key=lambda s: s["score"]["performance"])
    return ranked[(len(ranked) - 1) // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = ["lobby", "rules", "tutorial", "review", *(f"table-{g}" for g in GAMES)]
    ap.add_argument("--pages", nargs="*", default=names, choices=names)
    ap.add_argument("--game", default="botanik", help="the game of the rules and tutorial pages")
    ap.add_argument("--json", type=Path, help="keep each page's whole report in this folder")
    ap.add_argument("--runs", type=int, default=1,
                    help="score each page this many times; the table gives the median run")
    args = ap.parse_args()
    ensure_lighthouse()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp)) as base:
        guest = Guest(base, "Lia")
        for page in args.pages:
            if page == "lobby":
                path = "/"
            elif page == "rules":
                path = f"/rules/{args.game}"
            elif page == "tutorial":
                path = f"/tutorial/{args.game}"
            elif page == "review":
                path = f"/review/{guest.review()}?seat=0"
            else:
                path = f"/table/{guest.table(page.split('-', 1)[1])}"
            runs = []
            for run in range(args.runs):
                name = page if args.runs == 1 else f"{page}-{run + 1}"
                out = (args.json or Path(tmp)) / f"{name}.json"
                out.parent.mkdir(parents=True, exist_ok=True)
                began = time.monotonic()
                s = summary(lighthouse(base + path, guest.cookie(), out))
                s["page"], s["seconds"] = page, time.monotonic() - began
                runs.append(s)
                m = s["metric"]
                print(f"{page:18} perf {s['score']['performance']:3}  a11y "
                      f"{s['score']['accessibility']:3}  best {s['score']['best-practices']:3}  "
                      f"CLS {m['cumulative-layout-shift']:.3f}  "
                      f"FCP {m['first-contentful-paint'] / 1000:.1f} s  "
                      f"LCP {m['largest-contentful-paint'] / 1000:.1f} s  "
                      f"TBT {m['total-blocking-time']:.0f} ms  ({s['seconds']:.0f} s)", flush=True)
            rows.append(median_run(runs))
    print()
    print(f"{'page':18} {'perf':>5} {'a11y':>5} {'best':>5} {'CLS':>7} {'TBT':>8}")
    for s in rows:
        print(f"{s['page']:18} {s['score']['performance']:5} {s['score']['accessibility']:5} "
              f"{s['score']['best-practices']:5} {s['metric']['cumulative-layout-shift']:7.3f} "
              f"{s['metric']['total-blocking-time']:5.0f} ms")
    for s in rows:
        if s["score"]["performance"] < 90 and s["chances"]:
            print(f"\n{s['page']}: opportunities: " + "; ".join(s["chances"]))
        if s["failed"]:
            print(f"\n{s['page']}: failed audits: " + "; ".join(s["failed"]))


if __name__ == "__main__":
    main()
