"""Whole games through the web page, as people play them."""

from __future__ import annotations

import json
import random
import urllib.request

import pytest
from playwright.sync_api import expect

import meeple
from meeple.engine import game_class

from .people import SHORT_GAMES, create_table, final_scores, play_to_end, sign_in_as_guest
from .test_touch import open_table

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("game", meeple.games())
def test_a_person_plays_a_whole_game_against_bots(game, new_context, server, artifacts):
    players = min(game_class(game).player_counts)
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Ann")
    seats = ["me"] + ["bot:random"] * (players - 1)
    table = create_table(page, game, seats, options=SHORT_GAMES.get(game))
    counts = play_to_end([page], random.Random(game))
    assert sum(counts.values()) > 0
    page.screenshot(path=str(artifacts / f"e2e-{game}-final.png"), full_page=True)
    with urllib.request.urlopen(f"{server}/api/tables/{table}") as r:
        t = json.load(r)["table"]
    assert t["status"] == "finished"
    shown = final_scores(page)
    ranks = t["result"]["ranks"]
    order = sorted(range(players), key=lambda s: ranks[s])
    assert [float(x) for x in shown] == [float(t["result"]["scores"][s]) for s in order]
    assert not errors, errors


def _description(server: str, game: str) -> dict:
    with urllib.request.urlopen(f"{server}/api/games/{game}") as r:
        return json.load(r)


def test_the_results_table_has_one_total_and_each_players_colour(new_context, server, artifacts):
    """A finished game's results: rank, player (mark and name), the parts, one Total column;
    each player's mark has the seat's colour and symbol, the same as beside their name in the
    panel and on the board."""
    page = new_context(1280, 800).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Gus")
    table = create_table(page, "koplus", ["me", "bot:random"])
    play_to_end([page], random.Random(11))
    heads = page.locator("#final-scores thead th").all_inner_texts()
    assert heads[:2] == ["Rank", "Player"] and heads[-1] == "Total"
    assert sum(h.strip().lower() in ("total", "score", "final", "final score") for h in heads) == 1
    colours = _description(server, "koplus")["colours"]
    board = page.locator("#board .board-picture").evaluate("e => e.outerHTML").lower()
    rows = page.locator("#final-scores tbody tr")
    assert rows.count() == 2
    for i in range(2):
        row = rows.nth(i)
        seat = int(row.get_attribute("data-seat"))
        mark = row.locator(".mark")
        colour = colours[seat]
        assert mark.get_attribute("data-colour") == colour["fill"]
        assert mark.inner_text() == colour["symbol"]
        panel = page.locator(f'#players li[data-seat="{seat}"] .mark')
        assert panel.get_attribute("data-colour") == colour["fill"]
        assert colour["fill"].lower() in board, f"seat {seat}'s colour is not on the board"
    assert "Gus" in rows.all_inner_texts()[0] + rows.all_inner_texts()[1]
    t = json.load(urllib.request.urlopen(f"{server}/api/tables/{table}"))["table"]
    for row, seat in zip(rows.all(), sorted(range(2), key=lambda s: t["result"]["ranks"][s]),
                         strict=True):
        total = row.locator("td").last.inner_text()
        assert float(total) == float(t["result"]["scores"][seat])
    # the results card is drawn again with each frame: its locator finds the one shown now
    page.locator("#final").screenshot(path=str(artifacts / "e2e-results-desktop.png"))
    phone = new_context(390, 844).new_page()
    phone.goto(f"/table/{table}")
    expect(phone.locator("#final-scores tbody tr")).to_have_count(2)
    phone.locator("#final").screenshot(path=str(artifacts / "e2e-results-phone.png"))
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390 + 1
    assert not errors, errors


def test_the_table_page_shows_the_views_the_games_description_names(new_context, server):
    """The 3D tower is shown because the game's description lists the "tower-3d" view, not
    because of the game's name: without it in the description, Kozo's table has no 3D view."""
    page = new_context().new_page()
    described = _description(server, "kozo")
    assert "tower-3d" in described["views"]
    plain = {**described, "views": ["board"]}
    page.route("**/api/games/kozo", lambda route: route.fulfill(json=plain))
    sign_in_as_guest(page, "Hal")
    create_table(page, "kozo", ["me", "bot:random"], options={"rounds": 1})
    expect(page.locator("#board .board-picture")).to_have_count(1)
    page.wait_for_timeout(500)
    assert page.locator("#view3d").is_hidden()
    assert page.locator("#show-3d").count() == 0


def test_the_waiting_room_offers_the_bot_levels_by_name_weakest_first(new_context, server):
    """The table's creator changes a seat to a bot from the levels of /api/bots, each by its
    name and one-line description, weakest first; the seat then shows the level's name."""
    with urllib.request.urlopen(f"{server}/api/bots") as r:
        answer = json.load(r)["bots"]
    levels = [b if isinstance(b, dict) else {"spec": b, "name": b, "description": ""}
              for b in answer]
    if all(isinstance(b, dict) for b in answer):
        levels.sort(key=lambda b: b["step"])
    page = new_context(1280, 800).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Joy")
    open_table(page, "botanik", ["me", "open"], start=False)
    select = page.locator('#seat-list li[data-seat="1"] select')
    expect(select).to_be_visible()
    offered = [o for o in select.locator("option").all_inner_texts() if o.startswith("Bot: ")]
    want = [f"Bot: {b['name']}" + (f" — {b['description']}" if b["description"] else "")
            for b in levels]
    assert offered == want
    assert not any("[object" in o or "{" in o for o in offered), offered
    strongest = levels[-1]
    select.select_option(value="bot:" + strongest["spec"])
    seat = page.locator('#seat-list li[data-seat="1"]')
    expect(seat.locator(".badge")).to_have_text(strongest["name"])
    assert not errors, errors
