"""Browser tests: a real uvicorn server on a free port with a fresh SQLite database, driven by
Playwright through Debian's Chromium (never a downloaded browser)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, HEADLESS_SHELL

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

SERVER = """
import sys, uvicorn
from meeple.server.app import create_app
from meeple.server.deps import roomy_rates
app = create_app(sys.argv[1], bot_delay=0.0, rates=roomy_rates())
app.state.services.tables.bots.guest_tables_per_address = 10**6  # every guest is local
# reviews search 60 iterations a position (the game's own budget is 800-2,000): these tests
# check the pages, tests/bots/test_review.py the estimates
from meeple.server.reviews import Reviews, ReviewStore
s = app.state.services
app.state.reviews = Reviews(s.tables, ReviewStore(s.store.engine), iterations=60)
if len(sys.argv) > 3:  # a short time limit per move at tables without a clock
    app.state.services.tables.move_limit = float(sys.argv[3])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _have_browser() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return all(shutil.which(b) is not None or Path(b).exists() for b in (CHROMIUM, HEADLESS_SHELL))


@pytest.fixture(autouse=True, scope="session")
def _browser_installed() -> None:
    """The browser tests need Chromium: `scripts/setup.sh --test` installs it."""
    if not _have_browser():
        pytest.fail(f"needs playwright and Chromium at {CHROMIUM} and {HEADLESS_SHELL}: run "
                    "scripts/setup.sh --test")
    from playwright.sync_api import expect

    # a page's assertions poll for what they expect under a ceiling a busy machine keeps to
    # (as the contexts' actions do), not Playwright's 5 s
    expect.set_options(timeout=20_000)


@contextmanager
def served(d: Path, script: str, *args: str) -> Iterator[str]:
    """A server started as ``python -c script *args PORT`` in ``d`` (its log in
    ``d/server.log``) on a free port, as its base URL once ``/healthz`` answers; ended
    however the test went (its bots' workers end with it)."""
    port = _free_port()
    with open(d / "server.log", "w") as log, subprocess.Popen(
        [sys.executable, "-c", script, *args[:1], str(port), *args[1:]],
        cwd=d,
        stdout=log,
        stderr=subprocess.STDOUT,
    ) as proc:
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 120
            while True:
                try:
                    with urllib.request.urlopen(base + "/healthz", timeout=2):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        text = (d / "server.log").read_text()
                        raise RuntimeError("the server did not start:\n" + text) from None
                    time.sleep(0.2)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextmanager
def running_server(d: Path, move_limit: float | None = None) -> Iterator[str]:
    """A fresh meeple server (its own SQLite file in ``d``) on a free port, as its base URL;
    ``move_limit``: the seconds a move may take at tables without a clock."""
    extra = [] if move_limit is None else [str(move_limit)]
    with served(d, SERVER, f"sqlite:///{d / 'meeple.db'}", *extra) as base:
        # The first listing imports every game; do it before the browser waits on it.
        with urllib.request.urlopen(base + "/api/games", timeout=60):
            pass
        yield base


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[str]:
    """The base URL of a fresh meeple server (its own SQLite file) for this test process."""
    with running_server(tmp_path_factory.mktemp("server")) as base:
        yield base


@pytest.fixture
def new_context(request, browser, server):
    """Make browser contexts (separate people: own cookies and storage) on the test server."""
    made = []

    def make(width: int = 1200, height: int = 900, phone: bool = False, whole: bool = False):
        """A context of this screen size; a phone's has touch and a sharper screen; ``whole``:
        in the whole browser rather than the headless shell. Its pages ask for reduced motion:
        a browser drawing the board's animations and pulses for every test costs the suite
        more than they tell it (the tests of the animations ask for them)."""
        b = request.getfixturevalue("whole_browser") if whole else browser
        ctx = b.new_context(
            base_url=server, viewport={"width": width, "height": height},
            is_mobile=phone, has_touch=phone, device_scale_factor=2 if phone else 1,
            reduced_motion="reduce")
        ctx.set_default_timeout(20_000)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
