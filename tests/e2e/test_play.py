"""Whole games through the web page, as people play them."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request

import pytest
from playwright.sync_api import expect

import meeple
from meeple.engine import game_class

from .conftest import running_server
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
    name = sign_in_as_guest(page, "Gus")
    table = create_table(page, "koplus", ["me", "bot:random"])
    play_to_end([page], random.Random(11))
    # each line of the log: the player's name, a colon and a space, then the sentence
    said = page.locator("#log li").all_inner_texts()
    mine = [line for line in said if name in line]
    assert mine and all(f"{name}: " in line for line in mine), mine[:3]
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
    name and one-line description, weakest first; the seat then says the level's name once
    (not "Expert bot [Expert]")."""
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
    # the seat says the level once: in the bot's name ("Expert bot"), else in a badge beside it
    name = page.locator('#seat-list li[data-seat="1"] .name')
    expect(name).to_contain_text(strongest["name"])
    assert name.inner_text().count(strongest["name"]) == 1, name.inner_text()
    assert not errors, errors


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    screen = page.viewport_size
    assert screen and width <= screen["width"] + 1, width


@pytest.mark.parametrize("width,height,phone", [(1280, 800, False), (390, 844, True)])
def test_the_waiting_room_has_the_chat_and_the_owner_calls_the_table_off(
        new_context, server, artifacts, width, height, phone):
    """The waiting room carries the table's chat (a line said there reaches the other person
    waiting) and the player aid; its owner alone may call the table off, asked to confirm
    first; the banner and the picture of the table then say it was called off, in words, and
    nobody is marked as the one to move."""
    ann = new_context(width, height, phone=phone).new_page()
    bob = new_context(width, height, phone=phone).new_page()
    errors: list[str] = []
    for p in (ann, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(ann, "Ann")
    table = open_table(ann, "koplus", ["me", "open", "open"], start=False)
    sign_in_as_guest(bob, "Bob")
    bob.goto(f"/table/{table}")
    expect(bob.locator("h1")).to_contain_text("waiting for players")
    for p in (ann, bob):
        expect(p.locator("#table-chat")).to_be_visible()
        expect(p.locator("#aid")).to_have_count(1)
    ann.locator("#table-chat input[name=text]").fill("Shall we wait for Carl?")
    ann.locator("#table-chat button[type=submit]").click()
    expect(bob.locator("#table-chat .chat-lines")).to_contain_text("Shall we wait for Carl?")
    # The chat stays through the waiting room's redrawing (Bob sits down).
    bob.locator('#seat-list li[data-seat="1"] button', has_text="Sit here").click()
    expect(ann.locator('#seat-list li[data-seat="1"]')).to_contain_text("Bob")
    expect(ann.locator("#table-chat .chat-lines")).to_contain_text("Shall we wait for Carl?")
    # Only the owner has the button.
    expect(bob.locator("#call-off")).to_have_count(0)
    ann.locator("#call-off").click()
    confirm = ann.locator("#call-off-confirm")
    expect(confirm).to_contain_text("Call off this table?")
    ann.locator("#call-off-no").click()
    expect(confirm).to_have_count(0)
    assert table_status(server, table) == "waiting"
    ann.locator("#call-off").click()
    _no_sideways_scroll(ann)
    ann.screenshot(path=str(artifacts / f"e2e-call-off-confirm-{width}.png"), full_page=True)
    ann.locator("#call-off-yes").click()
    for p in (ann, bob):
        expect(p.locator("#turn")).to_have_text("Called off before anyone moved: no result")
        status = p.locator("#board svg text.status")
        expect(status.first).to_have_text("Called off: no result")
        expect(status).to_have_count(1)
        said = p.locator("#board").inner_text().lower()
        assert not re.search(r"to move|'s turn|your turn|to play|chooses|must ", said), said
        assert p.locator("#board .current, #board .to-act").count() == 0
        assert p.locator("#board .target, #board .action-button").count() == 0
        expect(p.locator("#notation")).to_be_hidden()
        expect(p.locator("#table-settings")).to_be_hidden()
        _no_sideways_scroll(p)
    assert table_status(server, table) == "aborted"
    ann.screenshot(path=str(artifacts / f"e2e-called-off-{width}.png"), full_page=True)
    assert not errors, errors


def table_status(server: str, table: str) -> str:
    with urllib.request.urlopen(f"{server}/api/tables/{table}") as r:
        return json.load(r)["table"]["status"]


def _apart(a: dict, b: dict, gap: float = 4) -> bool:
    """Are two boxes at least ``gap`` px apart, side by side or one above the other?"""
    return (a["x"] + a["width"] + gap <= b["x"] or b["x"] + b["width"] + gap <= a["x"]
            or a["y"] + a["height"] + gap <= b["y"] or b["y"] + b["height"] + gap <= a["y"])


def test_the_header_links_to_the_leaderboards(new_context, server, artifacts):
    """The header links to the leaderboards; its turn badge, the person's name and Sign out
    sit apart, on a phone as on a desktop."""
    for width, height, phone in ((1280, 800, False), (390, 844, True)):
        page = new_context(width, height, phone=phone).new_page()
        name = sign_in_as_guest(page, "Kim")
        open_table(page, "koplus", ["me", "bot:random"])
        expect(page.locator("#board.can-act")).to_have_count(1)
        page.goto("/")
        badge = page.locator("#turns-badge")
        turns = page.evaluate("fetch('/api/my/turns').then((r) => r.json())")
        expect(badge).to_have_text("Your turn: 1", timeout=20_000), turns
        who = page.locator("#who").get_by_role("link", name=re.compile(re.escape(name)))
        out = page.locator("#who").get_by_role("button", name="Sign out")
        boxes = [badge.bounding_box(), who.bounding_box(), out.bounding_box()]
        assert all(boxes), boxes
        assert _apart(boxes[0], boxes[1]) and _apart(boxes[1], boxes[2]), boxes
        page.locator("header").screenshot(path=str(artifacts / f"e2e-header-{width}.png"))
        link = page.locator("header nav").get_by_role("link", name="Leaderboards")
        expect(link).to_be_visible()
        link.click()
        expect(page).to_have_url(f"{server}/leaderboard")
        expect(page.locator("h1")).not_to_have_text("Page not found")
        _no_sideways_scroll(page)


def test_kontors_picture_says_the_last_move_in_words_not_coordinates():
    """Kontor's picture says where the last card went from the anchor, as the log does, in
    lines that fit the picture; never the field's coordinates."""
    from meeple.games.kontor import render as kontor_render

    rng = random.Random(3)
    state = game_class("kontor")().new_initial_state()
    said: list[str] = []
    while not state.is_terminal() and len(said) < 60:
        if state.is_chance_node():
            state.apply(rng.choice(state.chance_outcomes())[0], None)
            continue
        player = state.pending_players()[0]
        state.apply(rng.choice(state.legal_actions(player)), player)
        picture = kontor_render.svg(state.observation(None), ["Ann", "Bob"])
        lines = re.findall(r'class="last-words"[^>]*>([^<]*)<', picture)
        if lines:
            said.append(" ".join(lines))
    assert len(said) >= 20, said
    for words in said:
        assert not re.search(r"\(-?\d+, ?-?\d+\)", words), words
        assert "the anchor" in words or "the ship" in words, words


@pytest.fixture
def short_limit_server(tmp_path):
    """A server whose untimed tables allow two seconds per move: left alone, a table is
    given up a few seconds later."""
    with running_server(tmp_path, move_limit=2) as base:
        yield base


def test_a_table_left_alone_is_given_up_and_says_so(browser, short_limit_server, artifacts):
    """Nobody moves and nobody is there: the table is given up; its page then says so in the
    banner and the picture, with no one marked as the one to move and no move controls."""
    left = []
    for width, height, phone in ((1280, 800, False), (390, 844, True)):
        ctx = browser.new_context(base_url=short_limit_server,
                                  viewport={"width": width, "height": height},
                                  is_mobile=phone, has_touch=phone)
        ctx.set_default_timeout(20_000)
        page = ctx.new_page()
        sign_in_as_guest(page, "Lee")
        table = open_table(page, "koplus", ["me", "bot:random"])
        expect(page.locator("#board.can-act")).to_have_count(1)
        page.goto("/rules")  # away: nobody is at the table any more
        left.append((width, page, table))
    deadline = time.monotonic() + 40
    for _, page, table in left:
        while table_status(short_limit_server, table) != "abandoned":
            assert time.monotonic() < deadline, table_status(short_limit_server, table)
            page.wait_for_timeout(500)
    for width, page, table in left:
        page.goto(f"/table/{table}")
        expect(page.locator("#turn")).to_have_text(
            "Given up: nobody moved for a long time, no result")
        status = page.locator("#board svg text.status")
        expect(status.first).to_have_text("Given up: no result")
        expect(status).to_have_count(1)
        said = page.locator("#board").inner_text().lower()
        assert not re.search(r"to move|'s turn|your turn|to play|chooses|must ", said), said
        assert page.locator("#board .current, #board .to-act, #board .target").count() == 0
        expect(page.locator("#notation")).to_be_hidden()
        _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"e2e-given-up-{width}.png"), full_page=True)
        page.context.close()
