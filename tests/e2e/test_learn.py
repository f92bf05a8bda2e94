"""Learning a game in the browser: the rules page opens with How to play (the game's own
pictures); the guided first game played to its end with taps on a phone and with the mouse and
keys on a desktop (a wrong move explained first), ending in a table against the easiest bot;
the player aid beside a table's board, folded on a phone."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from .people import sign_in_as_guest

pytestmark = pytest.mark.e2e
GAMES = ["botanik", "kontor", "koplus", "kozo", "mops_royal"]
SIZES = [(390, 844, True), (1280, 800, False)]


def api(server: str, path: str) -> dict:
    with urllib.request.urlopen(f"{server}{path}", timeout=60) as r:
        return json.load(r)


def intended(server: str, game: str, index: int) -> dict:
    """The step's view from the API and its intended move's description."""
    from meeple.engine.registry import game_lessons

    view = api(server, f"/api/learn/{game}/steps/{index}")
    text = game_lessons(game).LESSON.steps[index].expect[0]
    return next(a for a in view["actions"] if a["text"] == text)


def preview_label(page: Page) -> str:
    return page.locator("#board .board-preview").inner_text()


def play_on_board(page: Page, move: dict, touch: bool) -> None:
    """Choose ``move`` as a person would: tap (or point at) its place, turn to it, play it."""
    if not move["target"] or not page.locator(f'#board [id="{move["target"]}"]').count():
        button = page.locator(f'#board .action-button[data-text="{move["text"]}"]')
        button.tap() if touch else button.click()
        return
    if move.get("cubes"):
        # Kozo: pick the piece and turn it, as a player holding it does (kozo_pick.js)
        expect(page.locator("#kozo-pick")).to_be_visible()
        for control in (f'.kozo-piece[data-piece="{move["piece"]}"]',
                        f'.kozo-orient[data-orient="{move["rotation"]}"]'):
            button = page.locator(f"#kozo-pick {control}")
            if button.get_attribute("aria-pressed") != "true":
                button.tap() if touch else button.click()
            expect(button).to_have_attribute("aria-pressed", "true")
    el = page.locator(f'#board [id="{move["target"]}"]').first
    el.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = el.bounding_box()
    assert box, move
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.move(x, y)
    for _ in range(30):
        if preview_label(page).startswith(move["label"]):
            break
        if touch:
            page.locator("#move-turn").tap()
        else:
            page.keyboard.press("r")
    assert preview_label(page).startswith(move["label"]), (preview_label(page), move)
    if touch:
        page.locator("#move-confirm").tap()
    else:
        page.mouse.click(x, y)


def wrong_move(page: Page, move: dict, touch: bool) -> None:
    """Choose some other move than the intended one."""
    others = page.locator("#board .target")
    for i in range(others.count()):
        el = others.nth(i)
        if el.get_attribute("id") != move["target"]:
            el.evaluate("e => e.scrollIntoView({block: 'center'})")
            box = el.bounding_box()
            if not box:
                continue
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            if touch:
                page.touchscreen.tap(x, y)
                page.locator("#move-confirm").tap()
            else:
                page.mouse.click(x, y)
            return
    buttons = page.locator("#board .action-button")
    for i in range(buttons.count()):
        b = buttons.nth(i)
        if b.get_attribute("data-text") != move["text"]:
            b.tap() if touch else b.click()
            return
    raise AssertionError("the step offers no other move")


@pytest.mark.parametrize(("width", "height", "touch"), SIZES, ids=["phone", "desktop"])
def test_the_rules_page_opens_with_how_to_play(new_context, server, artifacts, width, height,
                                               touch):
    page = new_context(width=width, height=height, phone=touch).new_page()
    page.goto("/rules/koplus")
    howto = page.locator("#howto")
    expect(howto.locator("h2").first).to_have_text("How to play KoPlus")
    pictures = howto.locator("figure.howto-picture img")
    expect(pictures).to_have_count(len(api(server, "/api/learn/koplus")["pictures"]))
    for i in range(pictures.count()):
        img = pictures.nth(i)
        img.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                               arg=img.element_handle(), timeout=60_000)
        box = img.bounding_box()
        assert box and box["width"] > 200 and box["x"] + box["width"] <= width + 1
    # the full reference stays below it
    assert page.evaluate("""() => document.querySelector('#howto').compareDocumentPosition(
        document.querySelector('#rules')) & Node.DOCUMENT_POSITION_FOLLOWING""")
    expect(page.locator("#howto a.learn")).to_have_attribute("href", "/tutorial/koplus")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"learn-howto-koplus-{width}x{height}.png"),
                    full_page=False)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1


def walk_tutorial(page: Page, server: str, game: str, touch: bool, artifacts, size: str) -> None:
    page.goto(f"/rules/{game}")
    page.locator("#howto a.learn").click()
    expect(page).to_have_url(f"{server}/tutorial/{game}")
    count = api(server, f"/api/learn/{game}")["steps"]
    for i in range(count):
        expect(page.locator("#tutorial-progress")).to_have_text(f"Step {i + 1} of {count}")
        view = api(server, f"/api/learn/{game}/steps/{i}")
        expect(page.locator("#tutorial-text")).to_have_text(view["text"])
        expect(page.locator("#aid-now")).to_have_text(view["ask"])
        here = page.locator("#board .tutorial-here")
        expect(here.first).to_be_attached()
        assert sorted(here.evaluate_all("els => els.map(e => e.id)")) == sorted(
            h for h in view["highlight"])
        move = intended(server, game, i)
        if i == 0:
            wrong_move(page, move, touch)
            expect(page.locator(".tutorial-wrong")).to_contain_text("Not this one.")
            expect(page.locator("#board .board-move")).to_be_hidden()  # the wrong move is gone
            if touch:
                page.screenshot(path=str(artifacts / f"learn-tutorial-{game}-wrong-{size}.png"))
        play_on_board(page, move, touch)
        expect(page.locator(".tutorial-right")).to_contain_text("Yes!")
        if i == 1:
            page.screenshot(path=str(artifacts / f"learn-tutorial-{game}-{size}.png"))
        if i + 1 < count:
            button = page.locator("#tutorial-next")
            button.tap() if touch else button.click()
    expect(page.locator("#tutorial-end")).to_be_visible()
    page.screenshot(path=str(artifacts / f"learn-tutorial-{game}-end-{size}.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size[
        "width"] + 1


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_played_to_the_end_with_taps_on_a_phone(new_context, server, artifacts, game):
    page = new_context(width=390, height=844, phone=True).new_page()
    sign_in_as_guest(page, "Tia")
    walk_tutorial(page, server, game, True, artifacts, "390x844")
    page.locator("#tutorial-play").tap()
    page.wait_for_url("**/table/**")
    expect(page.locator("#players")).to_contain_text("Beginner", timeout=30_000)


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_played_to_the_end_on_a_desktop(new_context, server, artifacts, game):
    page = new_context(width=1280, height=800).new_page()
    walk_tutorial(page, server, game, False, artifacts, "1280x800")
    # not signed in: a name first, then the table against the easiest bot
    form = page.locator("#tutorial-end #guest-form")
    form.get_by_label("Your name").fill("Leo")
    form.get_by_role("button").click()
    page.wait_for_url("**/table/**")
    expect(page.locator("#players")).to_contain_text("Beginner", timeout=30_000)


@pytest.mark.parametrize(("width", "height", "touch"), SIZES, ids=["phone", "desktop"])
def test_the_player_aid_beside_a_tables_board(new_context, server, artifacts, width, height,
                                              touch):
    page = new_context(width=width, height=height, phone=touch).new_page()
    sign_in_as_guest(page, "Ada")
    table = page.evaluate("""() => fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'kontor', players: 2,
                              seats: [{kind: 'me'}, {kind: 'bot', bot: 'random'}]})})
        .then((r) => r.json())""")
    page.evaluate("""t => localStorage.setItem('meeple.tokens.' + t.table.id, JSON.stringify(
        Object.fromEntries(t.tokens.map((x) => [x.seat, x.token]))))""", table)
    page.goto(f"/table/{table['table']['id']}")
    aid = page.locator("#aid")
    expect(aid.locator("summary")).to_have_text("Player aid")
    expect(page.locator("#aid-now")).to_have_text(
        "Choose one card of your hand in secret; the higher number plays first.", timeout=30_000)
    rows = api(server, "/api/learn/kontor/aid")["scoring"]
    if touch:
        assert aid.get_attribute("open") is None  # folded on a phone
        aid.locator("summary").tap()
    expect(aid.locator(".aid-scoring tr")).to_have_count(len(rows))
    expect(aid.locator(".aid-scoring tr").first).to_contain_text(rows[0]["what"])
    aid.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"learn-aid-kontor-{width}x{height}.png"))
    box = aid.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    assert page.evaluate("""() => [...document.querySelectorAll('#aid *')].every(
        (e) => e.getBoundingClientRect().right <= document.documentElement.clientWidth + 1)""")


def test_the_lobby_card_offers_learn_to_play(new_context, server):
    page = new_context(width=390, height=844, phone=True).new_page()
    page.goto("/")
    card = page.locator('#games .card.game[data-game="kozo"]')
    card.get_by_role("link", name="Learn to play").tap()
    page.wait_for_url("**/tutorial/kozo")
    count = api(server, "/api/learn/kozo")["steps"]
    expect(page.locator("#tutorial-progress")).to_have_text(f"Step 1 of {count}")
