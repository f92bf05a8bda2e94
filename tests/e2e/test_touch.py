"""Playing on a touch screen: a tap on a legal place shows the move, tapping it again or Play
plays it, Cancel clears it; Turn and Flip go through the orientations; places are at least
40 px (the board zooms, by buttons or a pinch, and scrolls in its own box); a whole game of
every title is played by taps to its results on a 390 x 844 phone. Spectators get no move
controls; unknown paths show the app's own page; the favicon is served."""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Page, expect

import meeple
from meeple.engine import CHANCE, game_class
from meeple.engine.core import sample_chance

from .people import SHORT_GAMES, sign_in_as_guest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PHONE = (390, 844)
DESKTOP = (1280, 800)
TAP_PX = 40
"""The smallest side of a place to tap."""

OPEN_TABLE = """async ([body]) => {
    const res = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const r = await res.json();
    if (!res.ok) throw new Error(JSON.stringify(r.detail));
    const have = {};
    for (const t of r.tokens || []) have[t.seat] = t.token;
    localStorage.setItem('meeple.tokens.' + r.table.id, JSON.stringify(have));
    return r.table.id;
}"""

WHAT_NOW = """() => document.querySelector('#reveal') ? 'reveal'
    : document.querySelector('#board.can-act') ? 'act'
    : document.querySelector('#final') ? 'final' : ''"""

PLACES = """() => [...document.querySelectorAll('#board .target')].map((el) => {
    const r = el.getBoundingClientRect();
    return {id: el.id, w: r.width, h: r.height, label: el.getAttribute('aria-label') || ''};
})"""

SENT = "() => +(document.querySelector('#board').dataset.sent || 0)"


def open_table(page: Page, game: str, seats: list[str], options: dict | None = None,
               start: bool = True) -> str:
    """A new table through the API (seats "me", "open" or "bot:<spec>"); the page is then on
    it. Returns the table's id."""
    specs = [{"kind": "me"} if s == "me" else {"kind": "open"} if s == "open"
             else {"kind": "bot", "bot": s.split(":", 1)[1]} for s in seats]
    body = {"game": game, "players": len(seats), "options": options or {}, "seats": specs,
            "visibility": "public", "clock": None, "start": start}
    table = page.evaluate(OPEN_TABLE, [body])
    page.goto(f"/table/{table}")
    return table


def _against_bots(game: str) -> list[str]:
    return ["me"] + ["bot:random"] * (min(game_class(game).player_counts) - 1)


def _phone_table(new_context, game: str, options: dict | None = None) -> tuple[Page, str, list]:
    page = new_context(*PHONE, phone=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Tia")
    table = open_table(page, game, _against_bots(game),
                       options if options is not None else SHORT_GAMES.get(game))
    return page, table, errors


def _wait_sent(page: Page, before: int, timeout: float = 10_000) -> None:
    page.wait_for_function(f"n => ({SENT})() > n", arg=before, timeout=timeout)


def _tap_centre(page: Page, selector: str) -> None:
    el = page.locator(selector)
    el.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
    box = el.bounding_box()
    assert box, f"{selector} is not shown"
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _no_sideways_scroll(page: Page, where: str) -> None:
    # A phone's page (and its innerWidth) grows where something overflows: the limit is the
    # screen's own width.
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    screen = page.viewport_size
    limit = min(width[1], screen["width"]) if screen else width[1]
    assert width[0] <= limit + 1, f"{where}: the page is {width[0]} px wide on a {limit} px screen"


PICTURES = "() => +(document.querySelector('#board').dataset.pictures || 0)"


class PictureChanged(Exception):
    """A new picture came while a move was being tapped: look again."""


def tap_one(page: Page, rng: random.Random) -> str:
    """Make one move by taps only: a tap previews (nothing is sent), Turn/Flip at times, then
    a second tap on the place or the Play button plays it. Returns how."""
    before = page.evaluate(SENT)
    picture = page.evaluate(PICTURES)
    try:
        return _tap_one(page, rng, before)
    except AssertionError:
        if page.evaluate(PICTURES) != picture or page.evaluate(WHAT_NOW) != "act":
            raise PictureChanged from None
        raise


def _tap_one(page: Page, rng: random.Random, before: int) -> str:
    places = page.evaluate(PLACES)
    if not places:
        buttons = page.locator("#board .action-button")
        assert buttons.count(), "the board offers nothing to tap"
        b = buttons.nth(rng.randrange(buttons.count()))
        b.scroll_into_view_if_needed()
        box = b.bounding_box()
        assert box and box["height"] >= TAP_PX - 1, f"a button is {box} high"
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        _wait_sent(page, before)
        return "button"
    for p in places:
        assert min(p["w"], p["h"]) >= TAP_PX - 0.5, f"{p['id']} is {p['w']:.0f} x {p['h']:.0f} px"
    place = rng.choice(places)
    sel = f"#board [id='{place['id']}']"
    _tap_centre(page, sel)
    try:
        expect(page.locator(sel)).to_have_class(re.compile(r"\bactive\b"))
    except AssertionError:  # the page was still scrolling the place into view: tap again
        _tap_centre(page, sel)
        expect(page.locator(sel)).to_have_class(re.compile(r"\bactive\b"))
    expect(page.locator("#move-confirm")).to_be_visible()
    assert page.locator("#board .board-overlay rect").count() > 0, "the move is not outlined"
    page.wait_for_timeout(150)
    assert page.evaluate(SENT) == before, "a single tap played the move"
    if page.locator("#move-turn").is_visible() and rng.random() < 0.6:
        shown = page.locator(".board-preview").inner_text()
        page.locator("#move-turn").tap()
        expect(page.locator(".board-preview")).not_to_have_text(shown)
        if rng.random() < 0.5:
            page.locator("#move-flip").tap()
    if rng.random() < 0.5:
        _tap_centre(page, sel)
        how = "tap again"
    else:
        page.locator("#move-confirm").tap()
        how = "Play"
    _wait_sent(page, before)
    return how


def play_by_taps(page: Page, rng: random.Random, limit: int = 400) -> dict:
    """Tap until the results show; how each move was made, counted."""
    counts: dict[str, int] = {}
    for _ in range(limit):
        what = page.wait_for_function(WHAT_NOW, timeout=60_000).json_value()
        if what == "final":
            return counts
        if what == "reveal":
            page.locator("#reveal").tap()
            continue
        try:
            how = tap_one(page, rng)
        except PictureChanged:
            counts["looked again"] = counts.get("looked again", 0) + 1
            continue
        counts[how] = counts.get(how, 0) + 1
    raise AssertionError(f"no result after {limit} moves: {counts}")


@pytest.mark.parametrize("game", meeple.games())
def test_a_whole_game_is_played_by_taps_on_a_phone(game, new_context, server, artifacts):
    page, table, errors = _phone_table(new_context, game)
    counts = play_by_taps(page, random.Random(game))
    assert counts.get("looked again", 0) <= 10, counts
    assert counts.get("tap again", 0) + counts.get("Play", 0) + counts.get("button", 0) > 0
    expect(page.locator("#final-scores")).to_be_visible()
    _no_sideways_scroll(page, f"{game} results")
    page.locator("#final").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"touch-{game}-final-phone.png"), full_page=True)
    with urllib.request.urlopen(f"{server}/api/tables/{table}") as r:
        assert json.load(r)["table"]["status"] == "finished"
    # The result card offers the replay and the review of the game.
    expect(page.locator("#replay-link")).to_have_attribute("href", f"/replay/{table}")
    expect(page.locator("#review-link")).to_have_attribute("href", f"/review/{table}")
    assert not errors, errors


def _a_wide_machine() -> tuple[str, list[dict]]:
    """A Botanik position (seed 4, seat 0 playing at the edge of its machine where it can) where
    seat 0 places a tile in a machine ten cells across: its picture and moves."""
    g = meeple.load("botanik", 2)
    rng = random.Random(4)
    s = g.new_initial_state()
    while not s.is_terminal():
        p = s.current_player
        if p == CHANCE:
            s.apply(sample_chance(s, rng), CHANCE)
            continue
        moves = s.legal_actions(p)
        if p == 0:
            cols = {t["cell"][1] for t in s.observation(0)["machines"][0]}
            edge = [(abs(int(m.group(2))), a) for a in moves
                    if (m := re.fullmatch(r"m0-cell-(-?\d+)-(-?\d+)",
                                          s.describe_action(a, 0).get("target") or ""))]
            if edge and max(cols) - min(cols) + 3 >= 10:
                obs = s.observation(0)
                return g.renderer.svg(obs, ["Tia", "Random bot"]), [
                    s.describe_action(a, 0) for a in moves]
            if edge and rng.random() < 0.8:
                s.apply(max(edge)[1], p)
                continue
        s.apply(rng.choice(moves), p)
    raise AssertionError("no machine ten cells wide")


def test_a_machine_too_wide_for_a_phone_zooms_in_its_own_box(new_context, artifacts):
    """Botanik: where a machine is so wide that its places would be smaller than a finger across
    a phone, the player's panel is zoomed in a box of its own that scrolls sideways (the page
    does not): every place is a finger wide and a tap on one shows the move."""
    page, _, errors = _phone_table(new_context, "botanik")
    page.wait_for_selector("#board.can-act")
    picture, moves = _a_wide_machine()
    page.evaluate("([svg, moves]) => document.querySelector('#board').board.show(svg, moves)",
                  [picture, moves])
    places = page.evaluate(PLACES)
    assert any(p["id"].startswith("m0-cell") for p in places)
    for p in places:
        assert min(p["w"], p["h"]) >= TAP_PX - 0.5, f"{p['id']} is {p['w']:.0f} x {p['h']:.0f} px"
    frame = page.locator("#board .board-scroll")
    expect(frame).to_have_count(1)
    width, inside = frame.evaluate("e => [e.getBoundingClientRect().width, e.scrollWidth]")
    assert width <= PHONE[0] + 1 < inside, (width, inside)
    _no_sideways_scroll(page, "a wide machine")
    cell = next(p for p in places if p["id"].startswith("m0-cell"))
    sel = f"#board [id='{cell['id']}']"
    _tap_centre(page, sel)
    expect(page.locator(sel)).to_have_class(re.compile(r"\bactive\b"))
    expect(page.locator("#move-confirm")).to_be_visible()
    page.screenshot(path=str(artifacts / "touch-botanik-wide-machine-phone.png"), full_page=True)
    assert not errors, errors


def _orientations_at(page: Page, target: str) -> set[int]:
    """The orientations of KoPlus's U offered at a place."""
    texts = page.evaluate(
        "(id) => document.querySelector('#board').board.groups.get(id).actions.map((a) => a.text)",
        target)
    return {int(m.group(1)) for t in texts if (m := re.match(r"U(\d)@", t))}


def test_tap_preview_turn_flip_cancel_and_confirm(new_context, artifacts):
    """KoPlus: a tap shows the U in the mover's colour; Turn shows another orientation at the
    same place and Flip its mirror image; Cancel clears the preview and sends nothing; a tap
    and Play plays the move shown."""
    page, _, errors = _phone_table(new_context, "koplus")
    page.wait_for_function("() => !!document.querySelector('#board.can-act')")
    expect(page.locator(".board-preview")).to_contain_text("Tap a highlighted place")
    several = None
    for _ in range(20):  # play on until a place takes the U in all four directions
        places = page.evaluate(PLACES)
        several = next((p for p in places if re.search(r"\(1 of 4", p["label"])), None)
        if several:  # every orientation fits here
            break
        before = page.evaluate(SENT)
        tap_one(page, random.Random(len(places)))
        page.wait_for_function(f"n => ({SENT})() > n && !!document.querySelector('#board.can-act')",
                               arg=before)
    assert several, "no place with several orientations"
    sel = f"#board [id='{several['id']}']"
    before = page.evaluate(SENT)
    _tap_centre(page, sel)
    expect(page.locator("#move-turn")).to_have_text("Turn")
    expect(page.locator("#move-flip")).to_have_text("Flip")
    first = page.locator(".board-preview").inner_text()
    mover = page.locator("#board").evaluate("e => e.style.getPropertyValue('--mover')")
    you = page.locator("#players li .badge", has_text="you")
    mine = you.locator("xpath=../..").locator(".mark")
    assert mover and mover.lower() == mine.get_attribute("data-colour").lower()
    cells = page.locator("#board .board-overlay .hl-cell")
    assert cells.count() > 1
    outline = cells.first.evaluate("e => getComputedStyle(e).stroke")
    # KoPlus's U: U0 opens up, U1 right, U2 down, U3 left. Turn is a quarter turn clockwise
    # (where that orientation fits here), Flip its mirror image.
    def shown() -> int:
        title = page.locator(".board-preview").get_attribute("title") or ""
        m = re.match(r"U(\d)@", title)
        assert m, title
        return int(m.group(1))

    k = shown()
    page.locator("#move-turn").tap()
    turned = page.locator(".board-preview").inner_text()
    assert turned != first
    assert shown() != k
    assert _orientations_at(page, several["id"]) == {0, 1, 2, 3}
    assert shown() == (k + 1) % 4, "Turn is not a quarter turn clockwise"
    expect(page.locator(sel)).to_have_class(re.compile(r"\bactive\b"))  # the same place
    page.screenshot(path=str(artifacts / "touch-koplus-preview-phone.png"))
    k = shown()
    page.locator("#move-flip").tap()
    assert shown() == {0: 2, 2: 0, 1: 3, 3: 1}[k], "Flip is not the mirror image"
    page.locator("#move-cancel").tap()
    expect(page.locator("#move-confirm")).to_be_hidden()
    expect(page.locator("#board .target.active")).to_have_count(0)
    assert page.locator("#board .board-overlay rect").count() == 0
    assert page.evaluate(SENT) == before
    _tap_centre(page, sel)
    notation = page.locator(".board-preview").get_attribute("title")
    assert notation and re.fullmatch(r"U\d@\d+,\d+", notation), notation
    page.locator("#move-confirm").tap()
    _wait_sent(page, before)
    # The log says the move in words, its notation as the line's title.
    expect(page.locator(f'#log li[title="{notation}"]')).to_have_count(1)
    assert outline and outline != "none"
    assert not errors, errors


DOCK_AND_PANELS = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height};
  };
  const all = (sel) => [...document.querySelectorAll(sel)].map(box).filter((b) => b.w && b.h);
  return {dock: all('#board .board-preview, #board .board-zoom'),
          panels: all('#players, #board .board-more .board-region')};
}"""


def _dock_clear_of_players(page: Page) -> None:
    """What to do on the board and its zoom buttons cover no players' panel (the page's, or
    the picture's below the board), seen from the top of the page and with the panels in
    the middle of the screen."""
    for where in ("top", "#players", "#board .board-more"):
        if where == "top":
            page.evaluate("() => scrollTo(0, 0)")
        elif page.locator(where).count():
            page.locator(where).first.evaluate("e => e.scrollIntoView({block: 'center'})")
        boxes = page.evaluate(DOCK_AND_PANELS)
        assert boxes["dock"] and boxes["panels"], boxes
        for d in boxes["dock"]:
            for p in boxes["panels"]:
                apart = (d["x"] + d["w"] <= p["x"] + 1 or p["x"] + p["w"] <= d["x"] + 1
                         or d["y"] + d["h"] <= p["y"] + 1 or p["y"] + p["h"] <= d["y"] + 1)
                assert apart, f"({where}) the dock {d} covers a players' panel {p}"


def test_the_board_zooms_by_buttons_and_a_pinch_and_scrolls_in_its_own_box(new_context,
                                                                           artifacts):
    """KoPlus's cells are smaller than a finger on a phone: the board starts zoomed so that
    each place is 40 px or more, scrolls inside its own box, + and - change the zoom, two
    fingers spread apart zoom in; the page never scrolls sideways."""
    page, _, errors = _phone_table(new_context, "koplus")
    page.wait_for_function("() => !!document.querySelector('#board.can-act')")
    for _ in range(3):  # past the first lay, the places are single cells
        before = page.evaluate(SENT)
        tap_one(page, random.Random(before))
        page.wait_for_function(f"n => ({SENT})() > n && !!document.querySelector('#board.can-act')",
                               arg=before)
    expect(page.locator(".board-zoom")).to_be_visible()
    _dock_clear_of_players(page)
    level = lambda: int(page.locator(".zoom-level").inner_text().rstrip(" %"))  # noqa: E731
    assert level() > 100
    box = page.locator("#board .board-main")
    sizes = box.evaluate("e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]")
    assert sizes[0] > sizes[1] and sizes[2] > sizes[3], f"the board does not scroll: {sizes}"
    _no_sideways_scroll(page, "zoomed board")
    for p in page.evaluate(PLACES):
        assert min(p["w"], p["h"]) >= TAP_PX - 0.5, p
    page.screenshot(path=str(artifacts / "touch-koplus-zoomed-phone.png"))
    start = level()
    page.locator("#zoom-out").tap()
    assert level() < start
    page.locator("#zoom-in").tap()
    page.locator("#zoom-in").tap()
    assert level() > start
    while page.locator("#zoom-out").is_enabled():
        page.locator("#zoom-out").tap()
    assert level() == 100
    expect(page.locator("#board .board-picture.stacked")).to_have_count(0)  # one column again
    # Two fingers spread apart over the board zoom it in again.
    picture = page.locator("#board svg.board-svg")
    picture.evaluate("e => e.scrollIntoView({block: 'start'})")
    frame = picture.bounding_box()
    assert frame and -1 <= frame["y"] < PHONE[1] / 2
    cx, cy = frame["x"] + frame["width"] / 2, max(frame["y"], 0) + min(frame["height"], 300) / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, spread: float) -> None:
        points = [] if kind == "touchEnd" else [
            {"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 30)
    for s in range(35, 100, 8):
        touch("touchMove", s)
    touch("touchEnd", 0)
    page.wait_for_timeout(100)
    assert level() > 150, f"a pinch zoomed to {level()} %"
    _no_sideways_scroll(page, "pinched board")
    assert not errors, errors


def test_the_setting_marks_every_legal_place_and_is_remembered(new_context):
    page, table, errors = _phone_table(new_context, "mops_royal")
    page.wait_for_function("() => !!document.querySelector('#board.can-act')")
    assert page.locator("#board .board-marks .hl-legal").count() == 0
    page.locator("#table-settings summary").tap()
    page.locator("#show-legal").check()
    targets = page.locator("#board .target").count()
    assert targets > 0
    expect(page.locator("#board .board-marks .hl-legal")).to_have_count(targets)
    page.reload()
    page.wait_for_function("() => !!document.querySelector('#board.can-act')")
    expect(page.locator("#board .board-marks .hl-legal")).to_have_count(
        page.locator("#board .target").count())
    expect(page.locator("#show-legal")).to_be_checked()
    assert not errors, errors


def test_a_spectator_has_no_move_controls(new_context, artifacts):
    """Someone watching a table (no seat) sees the board, the players and the moves, and no
    move box, no Play button, no places to tap and no move buttons."""
    page = new_context(*DESKTOP).new_page()
    sign_in_as_guest(page, "Uma")
    table = open_table(page, "kozo", ["me", "bot:random"], {"rounds": 1})
    page.wait_for_function("() => !!document.querySelector('#board.can-act')")
    for size, phone in ((DESKTOP, False), (PHONE, True)):
        watcher = new_context(*size, phone=phone).new_page()
        errors: list[str] = []
        watcher.on("pageerror", lambda e, seen=errors: seen.append(str(e)))
        watcher.goto(f"/table/{table}")
        expect(watcher.locator("h1")).to_contain_text("watching")
        expect(watcher.locator("#board .board-picture")).to_have_count(1)
        watcher.wait_for_timeout(300)
        for sel in ("#notation", "#notation-play", ".notation-form", "#board .board-move",
                    "#table-settings", "#board .action-button"):
            assert not watcher.locator(sel).is_visible(), f"a spectator sees {sel}"
        assert watcher.locator("#board .target").count() == 0
        assert watcher.locator("#board.can-act").count() == 0
        shot = f"touch-spectator-{'phone' if phone else 'desktop'}.png"
        watcher.screenshot(path=str(artifacts / shot))
        assert not errors, errors


def test_unknown_paths_show_the_apps_page_not_found_and_the_favicon_is_served(new_context,
                                                                              server):
    page = new_context(*PHONE, phone=True).new_page()
    for path in ("/no/such/page", "/tables", "/table"):
        response = page.goto(path)
        assert response and response.status == 404, path
        expect(page.locator("h1")).to_have_text("Page not found")
        expect(page.get_by_role("link", name="Back to the lobby")).to_be_visible()
        assert "Not Found" not in page.locator("body").inner_text()
        _no_sideways_scroll(page, path)
    # The API keeps its JSON answers.
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(f"{server}/api/no-such-route")
    assert err.value.code == 404
    assert json.load(err.value) == {"detail": "Not Found"}
    # The favicon: an SVG meeple, linked from every page.
    page.goto("/")
    href = page.locator("link[rel=icon]").get_attribute("href")
    assert href
    for path in (href, "/favicon.ico"):
        with urllib.request.urlopen(f"{server}{path}") as r:
            assert r.headers["Content-Type"].startswith("image/svg+xml"), path
            body = r.read().decode()
        assert body.lstrip().startswith("<svg") and "meeple" in body


def _click_a_move(page: Page) -> None:
    page.wait_for_function("() => !!document.querySelector('#board.can-act')")
    before = page.evaluate(SENT)
    target = page.locator("#board .target").first
    box = target.bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    _wait_sent(page, before)
    page.wait_for_function(f"n => ({SENT})() > n && !!document.querySelector('#board.can-act')",
                           arg=before)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_last_move_is_marked_and_new_pieces_arrive_with_a_short_animation(
        motion, browser, server):
    """Botanik's picture does not mark the last move: the board marks what it changed. KoPlus's
    picture marks it itself (``.last-move``) and the board adds nothing. What changed arrives
    with a short animation, none where the person asks for reduced motion."""
    ctx = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800},
                              reduced_motion=motion)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        sign_in_as_guest(page, "Val")
        open_table(page, "botanik", _against_bots("botanik"))
        _click_a_move(page)
        marked = page.locator("#board .board-marks .hl-last")
        assert marked.count() >= 1
        assert page.locator("#board .last-move").count() == 0
        arrived = page.locator("#board .changed")
        assert arrived.count() >= 1
        animation = arrived.first.evaluate("e => getComputedStyle(e).animationName")
        assert animation == ("none" if motion == "reduce" else "arrive"), animation
        assert page.locator("#board .target.changed").count() < page.locator(
            "#board .target").count(), "every place glows, not only what the move changed"
        open_table(page, "koplus", _against_bots("koplus"))
        _click_a_move(page)
        expect(page.locator("#board .last-move").first).to_be_attached()
        assert page.locator("#board .board-marks .hl-last").count() == 0
        assert not errors, errors
    finally:
        ctx.close()
