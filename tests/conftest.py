"""Fixtures of every test: processes a test starts end with it; one browser per test process."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("MEEPLE_CHROMIUM", "/usr/bin/chromium")
"""Debian's Chromium, the whole browser: what a player runs (a site's notifications ask first)."""
HEADLESS_SHELL = os.environ.get("MEEPLE_CHROMIUM_SHELL", "/usr/bin/chromium-headless-shell")
"""Debian's Chromium headless shell: the same engine without the whole browser's layer (as
Playwright runs Chromium by default). What most browser tests drive: the tutorial walks cost
the browser about 40 % less CPU in it."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-quic",
    "--disable-sync",
]


def end_process(proc: subprocess.Popen[Any], wait: float = 20) -> None:
    """Terminate ``proc``, and kill it if it has not ended within ``wait`` seconds (a server's
    bot workers end with it either way)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait()


@pytest.fixture
def processes() -> Iterator[Callable[..., subprocess.Popen[Any]]]:
    """Start processes (``processes(argv, **popen_options)``) that end with the test."""
    started: list[subprocess.Popen[Any]] = []

    def start(argv: list[str], **options: Any) -> subprocess.Popen[Any]:
        proc = subprocess.Popen(argv, **options)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        end_process(proc)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, once for the whole test process (its synchronous API runs once per process:
    a second one inside it fails)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright) -> Iterator[Any]:
    """Debian's Chromium headless shell driven by Playwright, one for the whole test process."""
    b = playwright.chromium.launch(executable_path=HEADLESS_SHELL, headless=True,
                                   args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture(scope="session")
def whole_browser(playwright) -> Iterator[Any]:
    """Debian's whole Chromium, for what only the whole browser does (asking to notify)."""
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield b
    b.close()

