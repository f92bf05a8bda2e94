"""The lobby shows the games: on every card a picture drawn by the game, the player counts, the
typical duration and the one-line pitch, on a phone and on a desktop, within the screen."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def games(server: str) -> list[dict]:
    with urllib.request.urlopen(f"{server}/api/games", timeout=60) as r:
        return json.load(r)["games"]


def players_text(counts: list[int]) -> str:
    if len(counts) == 1:
        return f"{counts[0]} players"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]} players"


def minutes_text(minutes: list[int]) -> str:
    low, high = minutes
    return f"about {low} minutes" if low == high else f"{low}–{high} minutes"


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)],
                         ids=["phone", "desktop"])
def test_every_game_card_shows_picture_players_duration_and_pitch(
        new_context, server, artifacts, width, height):
    page = new_context(width=width, height=height).new_page()
    page.goto("/")
    cards = page.locator("#games .card.game")
    listed = games(server)
    expect(cards).to_have_count(len(listed))
    for g in listed:
        card = page.locator(f'#games .card.game[data-game="{g["name"]}"]')
        card.scroll_into_view_if_needed()
        expect(card.locator("h3")).to_have_text(g["title"])
        expect(card.locator(".game-pitch")).to_have_text(g["pitch"])
        expect(card.locator(".game-players")).to_have_text(players_text(g["players"]))
        expect(card.locator(".game-minutes")).to_have_text(minutes_text(g["minutes"]))
        picture = card.locator(".game-picture img")
        expect(picture).to_have_attribute("src", f"/api/games/{g['name']}/picture")
        # The picture arrived and was drawn: an SVG with a size of its own, shown in the card.
        page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                               arg=picture.element_handle(), timeout=60_000)
        box = picture.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 100, (g["name"], box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (g["name"], box)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"lobby-{width}x{height}.png"), full_page=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
    overflowing = page.evaluate("""w => [...document.querySelectorAll('#games *')]
        .filter(e => e.getBoundingClientRect().right > w + 1).map(e => e.className || e.tagName)""",
                                width)
    assert overflowing == []


def test_the_picture_is_an_svg_for_anyone(server):
    for g in games(server):
        with urllib.request.urlopen(f"{server}/api/games/{g['name']}/picture", timeout=60) as r:
            assert r.headers["Content-Type"].startswith("image/svg+xml")
            assert b"<svg" in r.read(400)


def test_a_reconstructed_mark_says_what_it_means(new_context, server):
    page = new_context().new_page()
    page.goto("/")
    marked = [g for g in games(server) if any(o["reconstructed"] for o in g["options"])]
    assert marked
    for g in marked:
        badge = page.locator(f'#games .card.game[data-game="{g["name"]}"] .badge.recon')
        expect(badge).to_have_text("reconstructed")
        expect(badge).to_have_attribute(
            "title", "reconstructed: no source says how the printed game does this; this is our "
                     "reading")


def test_the_lobby_names_bot_seats_by_their_level(new_context, server):
    from .people import sign_in_as_guest

    page = new_context(390, 844, phone=True).new_page()
    sign_in_as_guest(page, "Lev")
    tid = page.evaluate("""async () => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify({game: 'kozo', players: 3, seats: [
        {kind: 'me'}, {kind: 'bot', bot: 'mcts:expert'}, {kind: 'open'}]})});
      return (await r.json()).table.id;
    }""")
    page.goto("/")
    row = page.locator(f"#open-tables li[data-table='{tid}']")
    expect(row).to_contain_text("Lev, Expert bot, open seat")
    assert "mcts" not in row.inner_text()


def test_a_running_table_in_the_lobby_says_whose_move_it_is(new_context, server):
    from .people import sign_in_as_guest

    page = new_context(1280, 800).new_page()
    sign_in_as_guest(page, "Runa")
    tid = page.evaluate("""async () => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify({game: 'koplus', seats: [
        {kind: 'me'}, {kind: 'bot', bot: 'greedy'}]})});
      return (await r.json()).table.id;
    }""")
    page.goto("/")
    row = page.locator(f"#running-tables li[data-table='{tid}']")
    expect(row).to_contain_text("Runa, Casual bot — Runa to move")
    # the board's set-up is drawn by chance: no "move 9" before anyone has moved
    assert "move 9" not in row.inner_text()


@pytest.mark.parametrize("path", ["/table/nosuchtable", "/replay/nosuchtable", "/rules/nogame",
                                  "/tutorial/nogame", "/profile/nobody-at-all",
                                  "/invite/nosuchtable/abc", "/leaderboard/nogame"])
def test_a_table_game_or_player_that_does_not_exist_shows_page_not_found(new_context, server,
                                                                         path):
    page = new_context(390, 844, phone=True).new_page()
    page.goto(path)
    expect(page.locator("main h1")).to_have_text("Page not found")
    text = page.locator("main").inner_text()
    assert "There is no table, game or player at this address." in text
    assert "Something went wrong" not in text and "known:" not in text and "'" not in text
    expect(page.locator("main a[href='/']")).to_have_text("Back to the lobby")


def test_a_name_in_any_script_signs_up_and_a_look_alike_is_refused_in_a_sentence(new_context):
    page = new_context(390, 844, phone=True).new_page()
    page.goto("/login")
    form = page.locator("#signup-form")
    expect(form).to_contain_text("letters of any one script")
    form.locator("input[name=name]").fill("  Émilie   Müller ")
    form.locator("input[name=password]").fill("a long password")
    form.locator("button[type=submit]").click()
    expect(page.locator("#who")).to_contain_text("Émilie Müller")
    me = page.evaluate("fetch('/api/me').then((r) => r.json())")
    assert me["name"] == "Émilie Müller" and me["guest"] is False  # kept normalised
    other = new_context(1280, 800).new_page()
    other.goto("/login")
    form = other.locator("#signup-form")
    form.locator("input[name=name]").fill("P\u0430ul")  # a Cyrillic "а" among Latin letters
    form.locator("input[name=password]").fill("a long password")
    form.locator("button[type=submit]").click()
    expect(form.locator(".error")).to_have_text(
        "A name cannot mix Cyrillic and Latin letters (one could pass for another player's "
        "name); write it in one script.")
    expect(other.locator("#who")).to_contain_text("Sign in")
