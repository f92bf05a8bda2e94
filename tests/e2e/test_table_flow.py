"""The live table as a player meets it, on a 1280 x 800 screen and a 390 x 844 touch phone: a
move made by a button is in sight beside what to do; the move shown stays shown when another
player chooses in a round everyone plays at once; the side column puts what a player needs
first and folds the chat on a phone; a game's end shows the winner and the scores at the top,
the board whole and nothing marked as playable, the breakdown of the scores one tap away.
Positions are reached through the API, not by playing them in the page."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import APIRequestContext, Page, expect

from .people import sign_in_as_guest
from .test_touch import DESKTOP, PHONE, SENT, open_table

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SIZES = [pytest.param(PHONE, True, id="phone"), pytest.param(DESKTOP, False, id="desktop")]

PICTURES = "() => +(document.querySelector('#board').dataset.pictures || 0)"

IN_SIGHT = """(el) => { const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"""


def _frame(request: APIRequestContext, table: str, seat: int) -> dict:
    r = request.get(f"/api/tables/{table}/frame?seat={seat}")
    assert r.ok, r.text()
    return r.json()


def _act(request: APIRequestContext, table: str, seat: int, frame: dict, action: dict) -> None:
    r = request.post(f"/api/tables/{table}/act", data={
        "seat": seat, "action": action["action"], "move_number": frame["move_number"]})
    assert r.ok, r.text()


def _play_until(page: Page, table: str, stop, rng: random.Random, limit: int = 400,
                other: APIRequestContext | None = None) -> dict:
    """Play seat 0's moves at random through the API (the page shows them) until ``stop(frame)``
    or the game's end (at most ``limit`` moves); the last frame. Where seat 0 has nothing to
    do, ``other`` (the person at seat 1) plays at random, or the bots' moves are waited for,
    polled under a generous ceiling for a busy machine."""
    for _ in range(limit):
        deadline = time.monotonic() + 120
        while True:
            f = _frame(page.request, table, 0)
            if f["status"] != "running" or stop(f):
                return f
            if f.get("actions"):
                break
            theirs = _frame(other, table, 1) if other is not None else {}
            if theirs.get("actions"):
                _act(other, table, 1, theirs, rng.choice(theirs["actions"]))
                continue
            assert time.monotonic() < deadline, "the bots never moved"
            page.wait_for_timeout(50)  # the bot's move
        _act(page.request, table, 0, f, rng.choice(f["actions"]))
    raise AssertionError(f"not reached in {limit} moves")


def _table_page(new_context, screen, phone: bool, seats: list[str],
                game: str = "mops_royal", options: dict | None = None, lang: str | None = None,
                name: str = "Ann") -> tuple[Page, str, list]:
    """A guest's page at a new table (in ``lang`` where given), and the page's errors."""
    ctx = new_context(*screen, phone=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, name)
    if lang:
        ctx.add_cookies([{"name": "lang", "value": lang, "url": page.url}])
    table = open_table(page, game, seats, options)
    return page, table, errors


def _show_a_move_with_half_the_screen_for_the_board(page: Page, shot: Path) -> None:
    """Tap a playable place: the Play bar shows, and with the board scrolled to the top at
    least half of its height stays on the screen (a screenshot to ``shot``)."""
    place = page.locator("#board .target").first
    place.scroll_into_view_if_needed()
    place.tap()
    expect(page.locator("#move-confirm")).to_be_visible()
    page.locator("#board .board-stage").evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(200)
    page.screenshot(path=str(shot))
    seen = page.evaluate(BOARD_SEEN)
    assert seen["seen"] >= seen["height"] / 2, seen


def _only_buttons(f: dict) -> bool:
    """Whether every move offered is made by a button (none is on the board)."""
    return bool(f.get("actions")) and all(a["target"] is None for a in f["actions"])


@pytest.mark.parametrize(("screen", "phone"), SIZES)
def test_a_lone_button_move_is_in_sight_and_the_side_puts_playing_first(new_context, screen,
                                                                         phone, artifacts):
    """Mops Royal's "score nothing this round" as the only move: its button is on the screen
    beside the sentence saying what to do (it was two screens below on a phone, with no
    sentence at all). The side column: the hint, the game's buttons (resign) and the player
    aid come before the moves' log, the turn alerts and the chat; on a desktop resign is on
    the first screen; on a phone the chat is folded."""
    page, table, errors = _table_page(new_context, screen, phone, ["me", "bot:random"])
    f = _play_until(page, table, _only_buttons, random.Random(4))
    assert f["status"] == "running"
    button = page.locator("#board .action-button")
    expect(button).to_have_count(len(f["actions"]))
    page.evaluate("() => scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"flow-lone-button-{'phone' if phone else 'desktop'}.png"))
    assert button.first.evaluate(IN_SIGHT), button.first.bounding_box()
    prompt = page.locator("#board .board-preview")
    expect(prompt).not_to_be_empty()
    b, p = button.first.bounding_box(), prompt.bounding_box()
    assert b and p and abs(p["y"] - (b["y"] + b["height"])) < 60, (b, p)
    # The side column, in the order a player needs it.
    order = page.evaluate("""() => [...document.querySelectorAll('aside.side > *')]
        .filter((el) => !el.hidden).map((el) => el.id || el.className)""")
    at = {name: i for i, name in enumerate(order)}
    moves = next(i for name, i in at.items() if "moves-card" in name)
    for first in ("hint-card", "table-life", "card aid-card"):
        assert at[first] < moves < at["table-chat"], order
    assert at["turn-alerts"] > moves, order
    chat_open = page.locator("#table-chat").evaluate("e => e.open")
    if phone:
        assert chat_open is False
    else:
        assert page.locator("#life-resign").evaluate(IN_SIGHT)
        assert page.locator("#hint-button").evaluate(IN_SIGHT)
    # The button plays the move.
    sent = page.evaluate(SENT)
    if phone:
        button.first.tap()
    else:
        button.first.click()
    page.wait_for_function(f"() => ({SENT})() > {sent}")
    expect(page.locator("#board .action-button")).to_have_count(0)
    assert not errors, errors


@pytest.mark.parametrize("game", ["mops_royal", "kontor"])
@pytest.mark.parametrize(("screen", "phone"), SIZES)
def test_a_move_shown_stays_shown_when_another_player_chooses(new_context, screen, phone, game):
    """In a round everyone plays at once (Mops Royal's placing, Kontor's choosing of a card),
    Bob's choice redraws Ann's picture: the move Ann shows (a tap on a phone, the mouse on a
    desktop) stays shown, and her confirming tap or Play plays it (it only showed the move
    again, and the first tap was lost)."""
    page, table, errors = _table_page(new_context, screen, phone, ["me", "open"], game)
    bob = new_context()
    assert bob.request.post("/api/guest", data={"name": "Bob"}).ok
    assert bob.request.post(f"/api/tables/{table}/join", data={"seat": 1}).ok
    # Ann or Bob sits out a round of Mops Royal whose tile is their start tile: play on to a
    # round where both choose.
    first = _play_until(page, table, lambda f: bool(f.get("actions"))
                        and bool(_frame(bob.request, table, 1).get("actions")),
                        random.Random(1), other=bob.request)
    assert first["status"] == "running"
    bobs = _frame(bob.request, table, 1)
    assert bobs["actions"], "Bob has nothing to choose"
    page.wait_for_selector("#board.can-act .target")
    place = page.locator("#board .target").first
    target = place.get_attribute("data-target")
    place.scroll_into_view_if_needed()
    if phone:
        place.tap()
    else:
        place.hover()
    expect(page.locator("#move-confirm")).to_be_visible()
    shown = page.locator("#board .board-preview").inner_text()
    pictures = page.evaluate(PICTURES)
    _act(bob.request, table, 1, bobs, bobs["actions"][0])
    page.wait_for_function(f"() => ({PICTURES})() > {pictures}")
    expect(page.locator(f'#board .target.active[data-target="{target}"]')).to_have_count(1)
    expect(page.locator("#board .board-preview")).to_have_text(shown)
    sent = page.evaluate(SENT)
    if phone:
        page.locator(f'#board .target[data-target="{target}"]').tap()  # the confirming tap
    else:
        page.locator("#move-confirm").click()
    page.wait_for_function(f"() => ({SENT})() > {sent}")
    assert not errors, errors


@pytest.mark.parametrize(("screen", "phone"), SIZES)
def test_the_end_shows_the_result_at_the_top_and_the_board_whole(new_context, screen, phone,
                                                                artifacts):
    """The last move of Mops Royal is made with the page scrolled down to the board, zoomed:
    the result (who won, each score) then shows at the top of the screen, above the board;
    the board is no longer zoomed and no place on it is marked; the breakdown opens with one
    tap and says where each player's points came from (each combination with its round and
    shape); the panel closes and comes back."""
    page, table, errors = _table_page(new_context, screen, phone, ["me", "bot:random"])
    page.wait_for_selector("#board.can-act")
    page.evaluate("() => document.querySelector('#board').board.setZoom(2)")
    page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    end = _play_until(page, table, lambda f: False, random.Random(3))
    assert end["status"] == "finished"
    final = page.locator("#final")
    expect(final).to_be_visible()
    page.wait_for_timeout(300)  # the page settles (a frame or two)
    size = "phone" if phone else "desktop"
    page.screenshot(path=str(artifacts / f"flow-end-{size}.png"))
    heading = final.locator("h2")
    expect(heading).to_contain_text("win")
    for el in (heading, page.locator("#final-scores")):
        assert el.evaluate(IN_SIGHT), el.bounding_box()
    board = page.locator("#board")
    assert final.bounding_box()["y"] + final.bounding_box()["height"] <= board.bounding_box()["y"]
    assert board.evaluate("b => b.board.zoom") == 1
    marked = "#board .hl-last, #board .hl-legal, #board .target, #board .board-overlay > *"
    expect(page.locator(marked)).to_have_count(0)
    expect(page.locator("#board.can-act")).to_have_count(0)
    # The breakdown: one tap away.
    parts = page.locator("#final-breakdown")
    expect(parts.locator(".final-items").first).to_be_hidden()
    summary = parts.locator("summary")
    summary.tap() if phone else summary.click()
    items = parts.locator(".final-items li")
    expect(items.first).to_be_visible()
    said = items.all_inner_texts()
    assert all(text.startswith("Round ") for text in said), said
    final.screenshot(path=str(artifacts / f"flow-end-breakdown-{size}.png"))
    # Closed, and back.
    close = page.locator("#final-close")
    close.tap() if phone else close.click()
    expect(final).to_be_hidden()
    again = page.locator("#final-show")
    again.tap() if phone else again.click()
    expect(final).to_be_visible()
    assert not errors, errors


LANDSCAPE = (844, 390)

ENGLISH_COLOURS = ("blue", "orange", "green", "purple", "pink", "yellow", "red", "black", "white",
                   "grey", "gray", "brown")
SAME_WORD = {"de": {"orange", "pink"}, "nl": set()}
"""Colour words the language shares with English."""

TITLES = """() => [...document.querySelectorAll('main [title]')]
    .filter((e) => !e.closest('.log'))  // a log line's title is its move in the notation
    .map((e) => e.getAttribute('title'))
    .concat([...document.querySelectorAll('main svg title')].map((e) => e.textContent))"""

PILES_APART = """() => {
    const boxes = [...document.querySelectorAll('#board .pile-height')]
        .map((e) => (e.tagName === 'text' ? e : e.querySelector('text')))
        .map((e) => e.getBoundingClientRect());
    const bad = [];
    for (let i = 1; i < boxes.length; i++) {
        const [a, b] = [boxes[i - 1], boxes[i]];
        if (b.left < a.right + 2) bad.push([i, a.right, b.left]);
    }
    return {n: boxes.length, bad};
}"""

BOARD_SEEN = """() => {
    // the longest run of the screen's height where the board's stage is what shows
    const stage = document.querySelector('#board .board-stage');
    const x = innerWidth / 2;
    let run = 0, best = 0;
    for (let y = 0; y < innerHeight; y += 4) {
        const el = document.elementFromPoint(x, y);
        if (el && stage.contains(el)) { run += 4; best = Math.max(best, run); } else run = 0;
    }
    return {seen: best, height: innerHeight};
}"""

CELLS_SEEN = """(id) => [...document.querySelectorAll(`#${id} tbody td`)].map((td) => {
    const v = td.querySelector('.value, strong') || td;
    const r = v.getBoundingClientRect();
    if (!r.width || !v.textContent.trim()) return null;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit && td.contains(hit) ? null
        : `${td.dataset.label}: ${v.textContent} under ${hit && hit.className}`;
}).filter(Boolean)"""


@pytest.mark.parametrize("lang", ["de", "nl"])
@pytest.mark.parametrize("screen", [pytest.param(PHONE, id="portrait"),
                                    pytest.param(LANDSCAPE, id="landscape")])
def test_botanik_in_german_and_dutch_fits_a_phone(new_context, server, lang, screen, artifacts):
    """Botanik on a phone held upright or sideways, in German and Dutch: the pile heights stand
    apart ("10 Plättchen" ran into the next pile), no tooltip names a colour in English, held
    sideways the header and the Play bar leave at least half the screen's height to the board
    (four rows of it showed), and at the end every part of the result shows its points (the
    pinned total covered "Blumen" on a 1-1 draw)."""
    page, table, errors = _table_page(new_context, screen, True, ["me", "bot:random"],
                                      "botanik", lang=lang, name="Ida")
    shot = f"flow-botanik-{lang}-{screen[0]}x{screen[1]}"
    _play_until(page, table, lambda f: bool(f.get("actions")), random.Random(2))
    page.wait_for_selector("#board.can-act .target")
    piles = page.evaluate(PILES_APART)
    assert piles["n"] == 5 and not piles["bad"], piles
    colours = re.compile(r"\b(" + "|".join(set(ENGLISH_COLOURS) - SAME_WORD[lang]) + r")\b", re.I)
    english = [t for t in page.evaluate(TITLES) if t and colours.search(t)]
    assert not english, english[:5]
    # a move shown: the Play bar sticks to the screen's foot, the board keeps half the height
    _show_a_move_with_half_the_screen_for_the_board(page, artifacts / f"{shot}-play.png")
    end = _play_until(page, table, lambda f: False, random.Random(5))
    assert end["status"] == "finished"
    final = page.locator("#final")
    expect(final).to_be_visible()
    # nothing stays marked as playable (every pile kept its outline until a reload)
    marked = "#board .hl-legal, #board .target, #board .board-overlay > *, #board.can-act"
    expect(page.locator(marked)).to_have_count(0)
    summary = page.locator("#final-breakdown summary")
    summary.tap()
    expect(page.locator("#final-parts")).to_be_visible()
    page.wait_for_timeout(200)
    final.screenshot(path=str(artifacts / f"{shot}-final.png"))
    for table_id in ("final-scores", "final-parts"):
        page.locator(f"#{table_id}").scroll_into_view_if_needed()
        assert not page.evaluate(CELLS_SEEN, table_id), table_id
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")
    assert not errors, errors


@pytest.mark.parametrize(("screen", "phone"), SIZES)
def test_kontor_s_result_lists_each_area_won(new_context, screen, phone, artifacts):
    """Kontor's result, one tap from the scores: each area a player won with its size and its
    rank by size (it said "Scored areas 5" alone)."""
    page = new_context(*screen, phone=phone).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Ann")
    rng = random.Random(7)
    # (a game of random moves may close no area: 12 rounds close one in 98 games of 100, and
    # another game is played where none was)
    for _ in range(4):
        table = open_table(page, "kontor", ["me", "bot:random"], {"max_rounds": 12})
        end = _play_until(page, table, lambda f: False, rng)
        assert end["status"] == "finished"
        lines = end["observation"]["final_breakdown"]
        said = [it["label"] for line in lines for it in line.get("items", [])]
        if said:
            break
    assert said and all(label.startswith("Area of ") for label in said), said
    summary = page.locator("#final-breakdown summary")
    expect(summary).to_be_visible()
    summary.tap() if phone else summary.click()
    items = page.locator("#final-breakdown .final-items li")
    expect(items).to_have_count(len(said))
    shown = items.all_inner_texts()
    assert all(any(text.startswith(label) for text in shown) for label in said), (said, shown)
    page.locator("#final").screenshot(
        path=str(artifacts / f"flow-kontor-result-{'phone' if phone else 'desktop'}.png"))
    assert not errors, errors


HEADS_WHOLE = """(id) => [...document.querySelectorAll(`#${id} thead th`)]
    .filter((th) => th.getBoundingClientRect().width && th.scrollWidth > th.clientWidth + 1)
    .map((th) => th.textContent)"""


@pytest.mark.parametrize(("game", "lang", "screen"), [
    pytest.param("koplus", "en", LANDSCAPE, id="koplus-en-landscape"),
    pytest.param("mops_royal", "de", PHONE, id="mops_royal-de-portrait"),
    pytest.param("kontor", "nl", LANDSCAPE, id="kontor-nl-landscape"),
])
def test_a_finished_table_shows_every_part_of_the_result(new_context, server, game, lang,
                                                         screen, artifacts):
    """A table bots played to the end, watched on a phone: every heading and every number of
    the result and of its breakdown shows whole ("Tiles in smaller groups" was cut off held
    sideways), nothing scrolls sideways, and no tooltip names a colour in English."""
    seats = ["bot:random"] * (3 if game == "koplus" else 2)
    page, _table, errors = _table_page(new_context, screen, True, seats, game,
                                       {"kontor": {"max_rounds": 4}}.get(game), lang, "Eva")
    expect(page.locator("#final-scores")).to_be_visible(timeout=90_000)
    page.locator("#final-breakdown summary").tap()
    page.wait_for_timeout(300)
    page.locator("#final").screenshot(
        path=str(artifacts / f"flow-final-{game}-{lang}-{screen[0]}x{screen[1]}.png"))
    for table_id in ("final-scores", "final-parts"):
        if not page.locator(f"#{table_id}").count():
            continue
        page.locator(f"#{table_id}").scroll_into_view_if_needed()
        assert not page.evaluate(CELLS_SEEN, table_id), table_id
        assert not page.evaluate(HEADS_WHOLE, table_id), table_id
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")
    if lang != "en":
        colours = re.compile(r"\b(" + "|".join(set(ENGLISH_COLOURS) - SAME_WORD[lang]) + r")\b",
                             re.I)
        english = [t for t in page.evaluate(TITLES) if t and colours.search(t)]
        assert not english, english[:5]
    assert not errors, errors


@pytest.mark.parametrize("game", ["mops_royal", "kontor", "koplus", "kozo"])
def test_held_sideways_the_board_keeps_half_the_screen(new_context, game, artifacts):
    """On a phone held sideways (844 x 390), with a move shown and its Play bar stuck to the
    screen's foot, the board still has at least half the screen's height (four rows of it
    showed)."""
    page = new_context(*LANDSCAPE, phone=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Lea")
    seats = ["me", "bot:random"] + (["bot:random"] if game == "koplus" else [])
    table = open_table(page, game, seats, {"kozo": {"rounds": 1}}.get(game))
    _play_until(page, table, lambda f: any(a["target"] for a in f.get("actions") or ()),
                random.Random(3))
    page.wait_for_selector("#board.can-act .target")
    _show_a_move_with_half_the_screen_for_the_board(page, artifacts / f"flow-sideways-{game}.png")
    assert not errors, errors
