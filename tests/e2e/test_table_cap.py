"""Games against bots never lock a person out: after more of them than the cap on tables, each
left midway, the first is still under "Your tables" in the lobby, and opening it there resumes
play where it was left."""

from __future__ import annotations

import json
import random
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from .people import create_table, play_one, sign_in_as_guest

pytestmark = pytest.mark.e2e

CAP = 10
"""The most tables with other players one person may have."""


def move_number(server: str, table: str) -> int:
    with urllib.request.urlopen(f"{server}/api/tables/{table}", timeout=60) as r:
        return int(json.load(r)["table"]["move_number"])


def test_a_paused_game_against_a_bot_is_resumed_from_your_tables(new_context, server,
                                                                 artifacts):
    page = new_context(width=1280, height=800).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    rng = random.Random(7)
    sign_in_as_guest(page, "Ann")
    first = create_table(page, "koplus", ["me", "bot:random"])
    expect(page.locator("#board.can-act")).to_be_visible()
    play_one(page, rng)
    expect(page.locator("#board.can-act")).to_be_visible()  # the bot replied; Ann walks off
    left_at = move_number(server, first)
    for _ in range(CAP + 1):  # more games against bots than the cap, each left at once
        r = page.request.post("/api/tables", data={
            "game": "koplus", "players": 2,
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]})
        assert r.status == 201, r.text()

    page.goto("/")
    yours = page.locator("#your-turn ul").last  # "Your tables"
    expect(yours.locator("li")).to_have_count(CAP + 2)
    entry = yours.locator(f'li[data-table="{first}"]')
    expect(entry).to_contain_text("Beginner bot")
    page.screenshot(path=str(artifacts / "table-cap-your-tables.png"), full_page=True)
    entry.get_by_role("link").click()
    page.wait_for_url(f"**/table/{first}")
    expect(page.locator("#board.can-act")).to_be_visible()
    play_one(page, rng)
    deadline = time.monotonic() + 60
    while move_number(server, first) < left_at + 2:  # Ann's move and the bot's reply
        assert time.monotonic() < deadline, "the game did not go on"
        time.sleep(0.05)
    expect(page.locator("#board.can-act")).to_be_visible()
    assert not errors, errors
