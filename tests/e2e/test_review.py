"""Hints and reviews in the browser: the Hint button at a casual table shows the bot's move on
the board with its reason and plays it; a finished game's review page shows its progress, then
the chart (a line per player in the player's colour, the turning points marked) and the
viewer's better moves on the replay's board. Screenshots at 390x844 and 1280x800."""

from __future__ import annotations

import json
import random
import urllib.request

import pytest
from playwright.sync_api import expect

from .people import play_to_end, sign_in_as_guest, sign_up
from .test_touch import open_table

pytestmark = [pytest.mark.e2e]


def _get(server: str, path: str) -> dict:
    with urllib.request.urlopen(server + path, timeout=60) as r:
        return json.load(r)


@pytest.mark.parametrize("size", [(1280, 800, False), (390, 844, True)], ids=["desktop", "phone"])
def test_hint_at_a_casual_table(size, new_context, server, artifacts):
    w, hgt, phone = size
    page = new_context(w, hgt, phone=phone).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Hana" if phone else "Hugo")
    table = open_table(page, "koplus", ["me", "bot:random"])
    button = page.locator("#hint-button")
    expect(button).to_be_visible()
    button.click()
    try:
        # the first hint of a server starts its worker processes: allow for that
        expect(page.locator("#hint-move")).to_be_visible(timeout=60_000)
    except AssertionError:
        raise AssertionError(page.locator("#hint-card").inner_text()) from None
    move = page.locator("#hint-move").inner_text()
    reason = page.locator("#hint-reason").inner_text()
    assert move and reason.startswith("Why: ") and "_" not in reason
    assert page.locator("#board .hint-mark").count() > 0, "the move is marked on the board"
    # the move named is one of the legal moves the page offers now
    legal = page.locator("#legal-moves option").evaluate_all("os => os.map(o => o.textContent)")
    assert move in legal, (move, legal[:5])
    which = "phone" if phone else "desktop"
    page.locator("#board").screenshot(path=str(artifacts / f"e2e-hint-board-{which}.png"))
    page.locator("#hint-card").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"e2e-hint-{which}.png"))
    if phone:
        assert page.evaluate("() => document.documentElement.scrollWidth") <= w + 1
    before = _get(server, f"/api/tables/{table}")["table"]["move_number"]
    page.locator("#hint-play").click()
    expect(page.locator("#hint-move")).to_have_count(0, timeout=15_000)  # the game moved on
    after = _get(server, f"/api/tables/{table}")["table"]["move_number"]
    assert after > before
    assert not errors, errors


def test_no_hint_card_for_a_spectator(new_context, server):
    page = new_context().new_page()
    sign_in_as_guest(page, "Iris")
    table = open_table(page, "koplus", ["me", "bot:random"])
    expect(page.locator("#hint-button")).to_be_visible()
    other = new_context().new_page()
    sign_in_as_guest(other, "Jon")
    other.goto(f"/table/{table}")
    expect(other.locator("#board .board-picture")).to_have_count(1)
    other.wait_for_timeout(300)
    assert other.locator("#hint-button").is_hidden()


def test_no_hint_card_at_a_rated_table(new_context, server):
    """At a rated table the player to move sees the board and no Hint button."""
    from .test_touch import OPEN_TABLE

    ann = new_context().new_page()
    sign_up(ann, "Rhea")
    body = {"game": "koplus", "players": 2, "options": {}, "rated": True, "visibility": "public",
            "seats": [{"kind": "me"}, {"kind": "open"}], "clock": None, "start": False}
    table = ann.evaluate(OPEN_TABLE, [body])
    bob = new_context().new_page()
    sign_up(bob, "Ravi")
    joined = bob.evaluate(f"fetch('/api/tables/{table}/join', {{method: 'POST', "
                          "headers: {'Content-Type': 'application/json'}, body: '{}'})"
                          ".then((r) => r.status)")
    assert joined == 200
    started = ann.evaluate(f"fetch('/api/tables/{table}/start', {{method: 'POST'}})"
                           ".then((r) => r.status)")
    assert started == 200
    info = _get(server, f"/api/tables/{table}")["table"]
    assert info["rated"] is True and info["status"] == "running"
    mover = ann if info["to_move"] == [0] else bob
    mover.goto(f"/table/{table}")
    expect(mover.locator("#board.can-act")).to_have_count(1)  # it is their move
    mover.wait_for_timeout(300)
    assert mover.locator("#hint-button").count() == 0
    assert mover.locator("#hint-card").count() == 0


def test_a_review_page_to_its_chart(new_context, server, artifacts):
    page = new_context(1280, 800).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Kim")
    table = open_table(page, "koplus", ["me", "bot:random"])
    play_to_end([page], random.Random(5))
    page.locator("#review-link").click()  # from the results card
    page.wait_for_url(f"**/review/{table}*")
    chart = page.locator("#review-chart")
    expect(chart).to_be_visible(timeout=120_000)  # progress first, then the chart
    lines = chart.locator(".chance-line")
    expect(lines).to_have_count(2)
    described = _get(server, "/api/games/koplus")
    seats = _get(server, f"/api/tables/{table}")["table"]["seats"]
    for i in range(2):
        p = int(lines.nth(i).get_attribute("data-player"))
        assert lines.nth(i).get_attribute("stroke") == (seats[p]["colour"] or
                                                         described["colours"][p])["fill"]
    review = _get(server, f"/api/tables/{table}/review?seat=0")
    assert review["status"] == "done"
    moves = _get(server, f"/api/tables/{table}/replay")["moves"]  # the log's count of moves
    points = [p["move"] for p in review["review"]["points"]]
    assert points == list(range(moves + 1))  # numbered as the log numbers moves
    assert chart.locator(".turning-point").count() == len(review["review"]["turning"])
    expect(page.locator("#review-turning li")).to_have_count(len(review["review"]["turning"]))
    # how the game ended, under the chart's end
    expect(page.locator("#review-chart-card #review-ending")).to_have_text(
        review["review"]["ending"])
    names = [s["name"] for s in seats]
    readable(page, names, marks={"turning-point": chart.locator(".turning-point").count()})
    better = review["review"]["better"]
    if better:
        page.locator("#show-better-0").click()
        expect(page.locator("#review-shown")).to_be_visible()
        expect(page.locator("#review-shown-words")).to_contain_text(better[0]["words"][:30])
        assert page.locator("#review-shown .better-mark").count() > 0
        # the board shows the position the move was played on, numbered as in the log
        expect(page.locator("#review-shown-pos")).to_have_text(
            f"Move {better[0]['move']} of {moves}")
        assert better[0]["words"].startswith(f"Move {better[0]['number']}: ")
        # a legend entry for each kind of mark on the board
        for mark in ("played-mark", "better-mark"):
            if page.locator(f"#review-shown #board .{mark}").count():
                expect(page.locator(f"#review-board-key [data-legend={mark}]")).to_be_visible()
    else:
        expect(page.locator("#review-better")).to_contain_text("no clearly better move")
    page.screenshot(path=str(artifacts / "e2e-review-desktop.png"), full_page=True)
    phone = new_context(390, 844, phone=True).new_page()
    phone.goto(f"/review/{table}?seat=0")
    expect(phone.locator("#review-chart .chance-line")).to_have_count(2)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390 + 1
    readable(phone, names, marks={"turning-point": chart.locator(".turning-point").count()})
    # the chart is drawn at the width it is shown: its words keep a readable size on a phone
    ticks = phone.locator("#review-chart .tick, #review-chart .axis-label")
    sizes = ticks.evaluate_all("ts => ts.map((t) => t.getBoundingClientRect().height)")
    assert sizes and min(sizes) >= 10, sizes
    # each position is a tap target as tall as the chart; a tap shows that position
    at = moves // 2
    target = phone.locator(f"#review-chart .chart-point[data-move='{at}']")
    box = target.bounding_box()
    assert box and box["height"] >= 24 and box["width"] >= 10, box
    target.tap()
    expect(phone.locator("#review-shown-pos")).to_have_text(f"Move {at} of {moves}")
    phone.locator("#review-shown-forward").tap()
    expect(phone.locator("#review-shown-pos")).to_have_text(f"Move {at + 1} of {moves}")
    phone.locator("#review-chart-card").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "e2e-review-phone.png"), full_page=True)
    # the links to the replay and the result stay on one line, never a line opening with "·"
    links = phone.locator(".review-links")
    assert links.evaluate("e => e.getClientRects().length") == 1
    assert not errors, errors


def readable(page, names: list[str], marks: dict[str, int]) -> None:
    """The review's chart spans its card, with both axes labelled and a legend entry for each
    player (their name) and each kind of mark drawn (``marks``: how many of each)."""
    widths = page.evaluate("""() => {
      const card = document.getElementById("review-chart-card");
      const cs = getComputedStyle(card);
      const inner = card.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      return [document.getElementById("review-chart").getBoundingClientRect().width, inner];
    }""")
    assert widths[0] >= 0.95 * widths[1], widths
    expect(page.locator("#review-axis-x")).to_have_text("Move number")
    expect(page.locator("#review-axis-y")).to_have_text("Chance to win (%)")
    for p, name in enumerate(names):
        expect(page.locator(f"#review-key [data-legend=player-{p}]")).to_contain_text(name)
    for mark, count in marks.items():
        if count:
            expect(page.locator(f"#review-key [data-legend={mark}]")).to_be_visible()


GAMES = ["botanik", "kontor", "koplus", "kozo", "mops_royal"]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_hint_and_a_review_page(game, new_context, server, artifacts):
    """A hint at each game's table, and each game's review page through to its chart (a game
    between two bots, so it is over at once), for a player's own view where hands are
    hidden."""
    from .people import SHORT_GAMES

    page = new_context(1280, 800).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, f"Rev{game[:4]}")
    open_table(page, game, ["me", "bot:random"], options=SHORT_GAMES.get(game))
    expect(page.locator("#hint-button")).to_be_visible(timeout=30_000)
    page.locator("#hint-button").click()
    expect(page.locator("#hint-reason")).to_be_visible(timeout=60_000)
    assert page.locator("#hint-reason").inner_text().startswith("Why: ")
    finished = open_table(page, game, ["bot:random", "bot:random"],
                          options=SHORT_GAMES.get(game))
    for _ in range(600):
        if _get(server, f"/api/tables/{finished}")["table"]["status"] == "finished":
            break
        page.wait_for_timeout(100)
    described = _get(server, f"/api/games/{game}")
    page.goto(f"/review/{finished}")
    about = page.locator("#review-about")
    if not described["perfect_information"]:
        assert page.locator("#review-view").input_value() == "0"  # a player's own view
        # the page says whose information the estimates rest on, by name
        seat0 = page.locator("#review-view option:checked").inner_text().removesuffix("'s moves")
        expect(about).to_have_text("A search bot estimated each player's chance to win after "
                                   f"every move, using only what {seat0} could see at the time.")
    else:
        expect(about).to_have_text("A search bot estimated each player's chance to win after "
                                   "every move.")
    chart = page.locator("#review-chart .chance-line")
    expect(chart).to_have_count(2, timeout=240_000)
    body = _get(server, f"/api/tables/{finished}/review?seat=0")
    assert body["status"] == "done" and body["review"]["viewer"] == 0
    expect(page.locator("#review-turning li")).to_have_count(len(body["review"]["turning"]))
    page.screenshot(path=str(artifacts / f"e2e-review-{game}.png"))
    assert not errors, errors
