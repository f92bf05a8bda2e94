"""The table fits the screen: on a desktop the picture's regions are laid out as a table (the
board large, the panels beside it), on a phone the picture is one column at the screen's width
with text of 12 px or more (where the board's places would be smaller than a finger, the board
zooms inside its own box at that width and the panels follow below it); no horizontal
scrolling on any page, every id once, and every legal target seen and played by pointing at it
(a click on a desktop; on a phone a tap shows the move and a second tap plays it)."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

import meeple
from meeple.engine import game_class

from .people import SHORT_GAMES, create_table, sign_in_as_guest
from .test_touch import open_table

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DESKTOP = (1280, 800)
PHONE = (390, 844)
MIN_BOARD_PX = 500
"""The board region's smallest width on a 1280 x 800 desktop."""
MIN_TEXT_PX = 12
"""The smallest text on a 390 px wide phone."""
MOVES = 3
"""Moves played by pointing, per game and screen."""
TAP_PX = 40
"""The smallest side of a place to tap on a phone."""

CAN_ACT = "() => !!document.querySelector('#board.can-act') || !!document.querySelector('#final')"

LAYOUT = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return {x: r.left, y: r.top + scrollY, w: r.width, h: r.height, bottom: r.bottom}; };
    const regions = [...document.querySelectorAll('#board g.region')].map((g) => {
        const frame = g.ownerSVGElement;
        const b = g.getBBox();
        const [x, y, w, h] = g.dataset.box.split(' ').map(Number);
        const out = (e) => { const c = e.getBBox(); return c.width && (c.x < x - 1
            || c.y < y - 1 || c.x + c.width > x + w + 1 || c.y + c.height > y + h + 1); };
        return {name: g.dataset.region, frame: frame.classList.contains('board-region')
                    ? 'region' : frame.classList.contains('board-svg') ? 'picture' : 'other',
                screen: box(frame), content: [b.x, b.y, b.width, b.height], box: [x, y, w, h],
                inside: !b.width || (b.x >= x - 1 && b.y >= y - 1 && b.x + b.width <= x + w + 1
                                     && b.y + b.height <= y + h + 1),
                outside: [...g.querySelectorAll('*')].filter((e) => e.getBBox && out(e))
                    .map((e) => `${e.tagName}.${e.getAttribute('class')}: ${e.textContent}`)};
    });
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    const pictures = [...document.querySelectorAll('#board svg')].map((s) => ({
        cls: s.getAttribute('class') || '', box: box(s)}));
    const picture = document.querySelector('#board svg.board-svg');
    return {regions, pictures, ids, width: picture.viewBox.baseVal.width,
            split: !!document.querySelector('.board-picture.split'),
            scrollWidth: document.documentElement.scrollWidth,
            // a phone's page (and its innerWidth) grows where something overflows the screen
            innerWidth: Math.min(innerWidth, screen.width),
            stage: box(document.querySelector('#board .board-stage'))};
}"""

SMALLEST_TEXT = """() => {
    let least = Infinity, which = '';
    for (const t of document.querySelectorAll('#board svg text')) {
        if (!t.textContent.trim() || !t.getClientRects().length) continue;
        const m = t.getScreenCTM();
        const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.c, m.d);
        if (px < least) { least = px; which = t.textContent; }
    }
    return [least, which];
}"""

TARGETS = """() => [...document.querySelectorAll('#board .target')].map((el) => {
    const r = el.getBoundingClientRect();
    const frame = el.ownerSVGElement.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    return {id: el.id, w: r.width, h: r.height,
            inFrame: r.left >= frame.left - 1 && r.right <= frame.right + 1
                     && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1,
            inPage: r.left >= 0 && r.right <= document.documentElement.clientWidth + 1,
            cx, cy};
})"""

HIT = """(id) => {
    const el = document.getElementById(id);
    const r = el.getBoundingClientRect();
    const hits = document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hits.some((h) => h.closest('[data-target]') === el);
}"""


def _seats(game: str) -> list[str]:
    players = min(game_class(game).player_counts)
    return ["me"] + ["bot:random"] * (players - 1)


def _new_table(new_context, game: str, screen: tuple[int, int], *, phone: bool = False
               ) -> tuple[Page, list[str]]:
    """A page on a new table of ``game`` where the person may act, on this screen, and the
    script errors it meets."""
    page = new_context(*screen, phone=phone).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Ann")
    create_table(page, game, _seats(game), options=SHORT_GAMES.get(game))
    page.wait_for_function(CAN_ACT)
    return page, errors


INSIDE_PAGE = """(id) => { const r = document.getElementById(id).getBoundingClientRect();
    return r.left >= 0 && r.right <= document.documentElement.clientWidth + 1; }"""


def _check_targets(page: Page) -> list[dict]:
    """Every legal target is drawn inside its frame, inside the page's width (on a zoomed
    board, once scrolled to within the board's box) and is the topmost target where a person
    points at it."""
    targets = page.evaluate(TARGETS)
    zoomed = page.locator("#board .board-main.zoomed").count() > 0
    for t in targets:
        assert t["w"] > 0 and t["h"] > 0, f"target {t['id']} is not shown"
        assert t["inFrame"], f"target {t['id']} lies outside the picture's frame"
        assert t["inPage"] or zoomed, f"target {t['id']} lies outside the page's width"
    for t in targets:
        page.locator(f"#{t['id']}").evaluate(
            "e => e.scrollIntoView({block: 'nearest', inline: 'nearest'})")
        assert page.evaluate(INSIDE_PAGE, t["id"]), f"target {t['id']} is out of reach"
        assert page.evaluate(HIT, t["id"]), f"target {t['id']} is covered where one points"
    return targets


def _point_and_play(page: Page, rng: random.Random, *, tap: bool) -> int:
    """Play up to MOVES moves by pointing at a legal target (a tap on a phone); the moves
    played."""
    played = 0
    for _ in range(MOVES):
        page.wait_for_function(CAN_ACT)
        if page.locator("#final").count():
            break
        _check_targets(page)
        targets = page.locator("#board .target")
        if not targets.count():
            page.locator("#board .action-button").first.click()
            continue
        sent = int(page.locator("#board").get_attribute("data-sent") or 0)
        el = targets.nth(rng.randrange(targets.count()))
        el.evaluate("e => e.scrollIntoView({block: 'center'})")
        box = el.bounding_box()
        assert box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if tap:
            page.touchscreen.tap(x, y)  # shows the move, plays nothing yet
            expect(page.locator("#board .target.active")).to_have_count(1)
            expect(page.locator("#move-confirm")).to_be_visible()
            assert page.locator(".board-overlay rect").count() > 0
            assert int(page.locator("#board").get_attribute("data-sent") or 0) == sent
            page.touchscreen.tap(x, y)
        else:
            page.mouse.move(x, y)
            expect(page.locator("#board .target.active")).to_have_count(1)
            assert page.locator(".board-overlay rect").count() > 0  # the preview is outlined
            page.mouse.click(x, y)
        page.wait_for_function(
            "n => +(document.querySelector('#board').dataset.sent || 0) > n", arg=sent)
        played += 1
    return played


def _keyboard(page: Page) -> None:
    """The keyboard reaches the targets across the frames: focus previews a target, the arrow
    keys move to another where there are several, Enter plays the one in focus."""
    page.wait_for_function(CAN_ACT)
    targets = page.locator("#board .target")
    if not targets.count():
        return
    first = targets.first.get_attribute("id")
    targets.first.focus()
    focused = "() => document.activeElement && document.activeElement.id"
    assert page.evaluate(focused) == first
    expect(page.locator(f"#{first}")).to_have_class(re.compile(r"\bactive\b"))
    if targets.count() > 1:
        moved = set()
        for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
            page.keyboard.press(key)
            moved.add(page.evaluate(focused))
        assert moved - {first}, "the arrow keys do not move between the targets"
        assert moved <= {t["id"] for t in page.evaluate(TARGETS)}
    sent = int(page.locator("#board").get_attribute("data-sent") or 0)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "n => +(document.querySelector('#board').dataset.sent || 0) > n", arg=sent)


def _zoomed_column(page: Page, layout: dict) -> None:
    """A phone's zoomed board: its box as wide as the screen, the board larger inside it (it
    scrolls there; a board at its width where only a panel is zoomed), the panels below it one
    under another at the screen's width or wider, scrolling sideways in their own box."""
    box = page.locator("#board .board-main").evaluate(
        "e => [e.getBoundingClientRect().width, e.scrollWidth, e.clientWidth]")
    assert box[0] >= PHONE[0] - 2, f"the board's box is {box[0]} px wide"
    if page.evaluate("() => document.querySelector('#board').board.zoom") > 1:
        assert box[1] > box[2], "the zoomed board does not scroll inside its box"
    for frame in page.locator("#board .board-scroll").all():
        sides = frame.evaluate("e => [e.getBoundingClientRect().width, e.scrollWidth]")
        assert sides[0] <= PHONE[0] + 1 and sides[1] > sides[0], f"a zoomed panel is {sides}"
    regions = layout["regions"]
    assert all(r["frame"] == "region" for r in regions)
    tops = [r["screen"]["y"] for r in regions[1:]]
    assert tops == sorted(tops) and all(t >= regions[0]["screen"]["y"] for t in tops)
    for r in regions[1:]:
        assert r["screen"]["w"] >= 360 * r["box"][2] / layout["width"] - 1, r


def _common(layout: dict) -> None:
    assert layout["scrollWidth"] <= layout["innerWidth"] + 1, "the page scrolls sideways"
    ids = layout["ids"]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    regions = layout["regions"]
    assert regions and regions[0]["name"] == "board", [r["name"] for r in regions]
    for r in regions:
        assert r["inside"], f"the {r['name']} region draws outside its box: {r}"


@pytest.mark.parametrize("game", meeple.games())
def test_on_a_desktop_the_board_is_large_and_the_panels_beside_it(game, new_context, artifacts):
    page, errors = _new_table(new_context, game, DESKTOP)
    if page.locator("#show-2d").count():  # the whole plan, one column, beside the 3D view
        page.wait_for_function("() => +(document.querySelector('#view3d').dataset.drawn) > 0")
        layout = page.evaluate(LAYOUT)
        _common(layout)
        assert all(r["frame"] == "picture" for r in layout["regions"])
        view = page.locator("#view3d").bounding_box()
        assert view and layout["stage"]["x"] >= view["x"] + view["width"], "the plan is not beside"
        assert layout["stage"]["y"] < view["y"] + view["height"]
        _check_targets(page)
        page.screenshot(path=str(artifacts / f"layout-{game}-desktop-3d.png"), full_page=True)
        page.locator("#show-2d").click()
        page.wait_for_timeout(100)
    layout = page.evaluate(LAYOUT)
    assert layout["split"], "the picture is not laid out as a table on a desktop"
    _common(layout)
    regions = layout["regions"]
    assert all(r["frame"] == "region" for r in regions), regions
    board = regions[0]["screen"]
    assert board["w"] >= MIN_BOARD_PX, f"the board region is {board['w']:.0f} px wide"
    assert board["bottom"] <= DESKTOP[1], "the board does not fit the screen's height"
    beside = [r for r in regions[1:] if r["screen"]["x"] >= board["x"] + board["w"]]
    assert beside, "no panel beside the board"
    for r in regions[1:]:  # the panels at least about their size on a phone
        phone = 360 * r["box"][2] / layout["width"]
        assert r["screen"]["w"] >= 0.85 * phone - 1, r
    page.screenshot(path=str(artifacts / f"layout-{game}-desktop.png"), full_page=True)
    _keyboard(page)
    assert _point_and_play(page, random.Random(game), tap=False) > 0
    _common(page.evaluate(LAYOUT))
    assert not errors, errors


@pytest.mark.parametrize("game", meeple.games())
def test_on_a_phone_the_picture_is_one_column_as_wide_as_the_screen(game, new_context, artifacts):
    page, errors = _new_table(new_context, game, PHONE, phone=True)
    if page.locator("#show-2d").count():
        page.locator("#show-2d").click()
    layout = page.evaluate(LAYOUT)
    _common(layout)
    if page.locator("#board .board-picture.stacked").count():
        _zoomed_column(page, layout)
    else:
        assert not layout["split"], "the picture is split on a phone"
        assert all(r["frame"] == "picture" for r in layout["regions"])
        (picture,) = [p for p in layout["pictures"] if "board-svg" in p["cls"]]
        assert picture["box"]["w"] >= PHONE[0] - 2, f"the picture is {picture['box']['w']} px wide"
        tops = [r["screen"]["y"] for r in layout["regions"]]
        assert len(set(tops)) == 1  # one picture: the regions are in its single column
    for t in page.evaluate(TARGETS):
        assert min(t["w"], t["h"]) >= TAP_PX - 0.5, f"target {t['id']} is {t['w']:.0f} px"
    least, which = page.evaluate(SMALLEST_TEXT)
    assert least >= MIN_TEXT_PX, f"“{which}” is {least:.1f} px high on a phone"
    page.screenshot(path=str(artifacts / f"layout-{game}-phone.png"), full_page=True)
    assert _point_and_play(page, random.Random(game), tap=True) > 0
    _common(page.evaluate(LAYOUT))
    assert not errors, errors


def test_the_layout_follows_the_screen_and_a_tall_table_wraps_below_the_board(new_context,
                                                                               artifacts):
    """Mops Royal for four: the panels that do not fit beside the board follow in rows below
    it; narrowed to a phone's width the same page shows one column, and widened again the
    table, its targets still played by a click."""
    page = new_context(*DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Ann")
    create_table(page, "mops_royal", ["me", "bot:random", "bot:random", "bot:random"])
    page.wait_for_function(CAN_ACT)
    layout = page.evaluate(LAYOUT)
    assert layout["split"]
    _common(layout)
    board = layout["regions"][0]["screen"]
    below = [r["name"] for r in layout["regions"][1:] if r["screen"]["y"] >= board["bottom"]]
    beside = [r["name"] for r in layout["regions"][1:] if r["screen"]["y"] < board["bottom"]]
    assert beside and below, (beside, below)
    names = [r["name"] for r in layout["regions"]]
    assert names == ["board", *beside, *below]  # in reading order
    page.screenshot(path=str(artifacts / "layout-mops_royal-4-desktop.png"), full_page=True)
    targets = len(_check_targets(page))
    focused = page.locator("#board .target").first
    focused.focus()
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.wait_for_function("() => !document.querySelector('.board-picture.split')")
    narrow = page.evaluate(LAYOUT)
    _common(narrow)
    assert all(r["frame"] == "picture" for r in narrow["regions"])
    assert len(_check_targets(page)) == targets
    expect(focused).to_be_focused()  # the same element, moved back into the one column
    least, which = page.evaluate(SMALLEST_TEXT)
    assert least >= MIN_TEXT_PX, f"“{which}” is {least:.1f} px high"
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.wait_for_function("() => !!document.querySelector('.board-picture.split')")
    assert len(_check_targets(page)) == targets
    assert _point_and_play(page, random.Random(4), tap=False) > 0
    assert not errors, errors


PAGE_WIDTH = """(screenWidth) => ({scroll: document.documentElement.scrollWidth,
    inner: Math.min(innerWidth, screenWidth),
    wide: [...document.querySelectorAll('main *')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width && (r.right > Math.min(innerWidth, screenWidth) + 1 || r.left < -1)
            && !e.closest('.board-main.zoomed, .results-scroll, .log, pre, .rules-text table');
    }).slice(0, 5).map((e) => `${e.tagName}.${e.className}#${e.id}`)})"""

RESULTS_FIT = """() => [...document.querySelectorAll('.results-scroll')].map((e) => ({
    scroll: e.scrollWidth, client: e.clientWidth,
    heads: [...e.querySelectorAll('thead th')].map((th) => th.textContent)}))"""


def _finished_by_bots(page: Page, game: str, options: dict | None = None) -> str:
    """A table of ``game`` that bots play to its end at once; its id (the page is on it)."""
    seats = ["bot:random"] * min(game_class(game).player_counts)
    table = open_table(page, game, seats, options)
    expect(page.locator("#final-scores")).to_be_visible(timeout=60_000)
    return table


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_scrolls_sideways_and_results_show_every_column(screen, new_context, artifacts):
    """The lobby, the new-table form, sign-in, the rules, a profile, a table being played,
    finished tables with their results (KoPlus and Kontor have the most columns) and a replay:
    none is wider than the screen; on a desktop every column of a result shows without a
    scroll bar, on a phone it fits."""
    phone = screen == PHONE
    page = new_context(*screen, phone=phone).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = sign_in_as_guest(page, "Ivy")
    size = "phone" if phone else "desktop"

    def check(what: str, shot: str | None = None) -> None:
        page.wait_for_timeout(200)
        # A phone's page grows wider than the screen where something overflows, and its
        # innerWidth with it: the screen's own width is the limit.
        w = page.evaluate(PAGE_WIDTH, screen[0])
        assert w["scroll"] <= w["inner"] + 1 and not w["wide"], f"{what} on a {size}: {w}"
        if shot:
            page.screenshot(path=str(artifacts / f"layout-page-{shot}-{size}.png"), timeout=60_000)

    for path, shot in (("/", "lobby"), ("/new?game=kontor", "new"), ("/rules", None),
                       ("/rules/kontor", "rules"), (f"/profile/{name}", "profile"),
                       ("/no/such/page", None), ("/leaderboard", "leaderboard")):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        expect(page.locator("main > .loading")).to_have_count(0)
        expect(page.locator("main > *").first).to_be_visible()
        check(path, shot)
    # The owner's waiting room: each open seat offers every bot level with its description.
    open_table(page, "koplus", ["me", "open", "open"], start=False)
    expect(page.locator('#seat-list li[data-seat="1"] select')).to_be_visible()
    expect(page.locator("#table-chat")).to_be_visible()
    check("the waiting room", "waiting")
    open_table(page, "kontor", ["me", "bot:random"], SHORT_GAMES.get("kontor"))
    page.wait_for_function(CAN_ACT)
    check("a table being played", "table")
    for game in ("koplus", "kontor"):
        table = _finished_by_bots(page, game, SHORT_GAMES.get(game))
        check(f"the results of {game}", f"results-{game}")
        for r in page.evaluate(RESULTS_FIT):
            assert r["scroll"] <= r["client"] + 1, f"{game}: the results scroll on a {size}: {r}"
            assert r["heads"][-1] == "Total"
        page.locator("#final").screenshot(path=str(artifacts / f"layout-final-{game}-{size}.png"),
                                          timeout=60_000)
        page.goto(f"/replay/{table}?move=3")
        expect(page.locator("#replay-pos")).to_contain_text("Move 3")
        check(f"the replay of {game}", f"replay-{game}")
    page.goto("/login")
    check("/login", "login")
    assert not errors, errors
