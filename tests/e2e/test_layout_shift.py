"""Pages do not jump while they fill: the layout shifts a page makes (PerformanceObserver's
'layout-shift' entries, those within half a second of the person's own input left out, as
Lighthouse counts them) add up to less than 0.1 while a table of each game loads and the person
plays a move, and while the lobby, the rules, a review and a guided game load; on a 390x844
touch phone and a 1280x800 desktop. Each page is loaded over a connection slowed as Lighthouse's
phone profile slows it (150 ms a request), so the page's parts arrive one after another, as
they do away from this machine."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, Page

import meeple
from meeple.engine import game_class

from .people import SHORT_GAMES, play_one, sign_in_as_guest
from .test_touch import OPEN_TABLE

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

LIMIT = 0.1
"""The most layout shift a page may add up to (Lighthouse's "good")."""

SETTLE_MS = 1000
"""How long a page is watched once it shows, for shifts that come a moment later."""

SCREENS = {"phone": (390, 844, True), "desktop": (1280, 800, False)}

OBSERVE = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    const what = (e.sources || []).map((s) => {
      const n = s.node;
      const cls = typeof n?.className === 'string' ? n.className.trim() : '';
      const name = !n ? '?' : n.nodeName + (n.id ? '#' + n.id : '')
        + (cls ? '.' + cls.split(/\\s+/).join('.') : '');
      const box = (r) => [r.x, r.y, r.width, r.height].map(Math.round).join(' ');
      return `${name} (${box(s.previousRect)} -> ${box(s.currentRect)})`;
    });
    window.__shifts.push({value: e.value, at: Math.round(e.startTime), what});
  }
}).observe({type: 'layout-shift', buffered: true});
"""

SETTLED = """() => document.readyState === 'complete' && !document.querySelector('main.filling')
    && !document.querySelector('main > p.loading')"""

CAN_ACT = "() => !!document.querySelector('#board.can-act')"

DONE_OR_ACTING = """(n) => !!document.querySelector('#board.can-act, #final')
    && +(document.querySelector('#board').dataset.sent || 0) >= n"""


@pytest.fixture(scope="module")
def people(browser, server) -> Iterator[dict[str, BrowserContext]]:
    """A signed-in guest's browser context per screen, each page in it watching its layout
    shifts from its first moment; made once for the module."""
    made = {}
    for screen, (w, h, phone) in SCREENS.items():
        ctx = browser.new_context(base_url=server, viewport={"width": w, "height": h},
                                  is_mobile=phone, has_touch=phone,
                                  device_scale_factor=2 if phone else 1)
        ctx.set_default_timeout(20_000)
        page = ctx.new_page()
        sign_in_as_guest(page, f"Shay {screen}")
        page.close()
        ctx.add_init_script(OBSERVE)
        made[screen] = ctx
    yield made
    for ctx in made.values():
        ctx.close()


def _slow_page(ctx: BrowserContext) -> Page:
    """A new page whose requests each take 150 ms more, as on a phone's network."""
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1})
    return page


def _shifts(page: Page, where: str) -> float:
    """The layout shifts of the page so far: their sum, checked against the limit."""
    page.wait_for_function(SETTLED)
    page.wait_for_timeout(SETTLE_MS)  # what comes a moment later (a panel's answer) too
    shifts = page.evaluate("window.__shifts")
    total = sum(s["value"] for s in shifts)
    said = "\n".join(f"  {s['value']:.4f} at {s['at']} ms: " + "; ".join(s["what"][:4])
                     for s in shifts)
    assert total < LIMIT, f"{where} shifted by {total:.3f} in all:\n{said}"
    return total


def _open_table(page: Page, game: str) -> str:
    """A table of ``game`` against random bots (made through the API from a page of the
    site), as its id."""
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * (
        min(game_class(game).player_counts) - 1)
    body = {"game": game, "players": len(seats), "options": SHORT_GAMES.get(game, {}),
            "seats": seats, "visibility": "public", "clock": None, "start": True}
    return page.evaluate(OPEN_TABLE, [body])


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("game", meeple.games())
def test_a_table_fills_and_plays_a_move_without_jumping(game, screen, people):
    ctx = people[screen]
    page = _slow_page(ctx)
    page.goto("/rules/")  # a page of the site, to make the table from
    table = _open_table(page, game)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"/table/{table}")
    page.wait_for_function(CAN_ACT)
    _shifts(page, f"the {game} table while it loaded")
    play_one(page, random.Random(game))
    # the bots answer: the person may act again (or the game is over)
    page.wait_for_function(DONE_OR_ACTING, arg=1)
    _shifts(page, f"the {game} table while a move was played and answered")
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("screen", SCREENS)
def test_the_lobby_rules_guided_games_and_a_review_load_without_jumping(screen, people):
    ctx = people[screen]
    page = _slow_page(ctx)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for path in ["/", "/rules/", *(f"/rules/{g}" for g in meeple.games()),
                 *(f"/tutorial/{g}" for g in meeple.games())]:
        page.goto(path)
        if path.startswith("/tutorial/"):
            page.wait_for_function("() => !!document.querySelector('#board .target')")
        _shifts(page, path)
    # a review of a game given up after the first move (the review is made as it loads)
    table = _open_table(page, "koplus")
    page.goto(f"/table/{table}")
    page.wait_for_function(CAN_ACT)
    play_one(page, random.Random(1))
    page.wait_for_function(DONE_OR_ACTING, arg=1)
    given_up = page.request.post(f"/api/tables/{table}/resign", data={})
    assert given_up.ok, given_up.text()
    page.goto(f"/review/{table}?seat=0")
    page.wait_for_function("() => !!document.querySelector('#review-chart')", timeout=60_000)
    _shifts(page, "the review")
    assert not errors, errors
    page.close()
