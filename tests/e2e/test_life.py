"""A table's life in the browser: resigning after a confirmation, taking back one's own move,
the turn badge that follows the game live, and one table from a double click on Create."""

from __future__ import annotations

import json
import random
import time
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from .conftest import running_server
from .people import play_one, sign_in_as_guest

pytestmark = [pytest.mark.e2e]

CREATE = """async (body) => {
  const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type':
    'application/json'}, body: JSON.stringify(body)});
  return (await r.json()).table.id;
}"""
JOIN = """async (id) => (await fetch(`/api/tables/${id}/join`, {method: 'POST'})).status"""


QUICK_LIMIT = 14.0
"""The seconds a move may take: long enough for both pages to load on a busy machine."""
@pytest.fixture
def quick_server(tmp_path):
    """A server whose tables without a clock allow a few seconds per move."""
    with running_server(tmp_path, move_limit=QUICK_LIMIT) as base:
        yield base


def _table(server: str, tid: str) -> dict:
    with urllib.request.urlopen(f"{server}/api/tables/{tid}") as r:
        return json.load(r)["table"]


def _two(new_context, ann_size=(1280, 800), bob_size=(390, 844)) -> tuple[Page, Page, str]:
    """Ann and Bob at a KoPlus table of theirs, each on its page (Ann to move)."""
    ann = new_context(*ann_size).new_page()
    bob = new_context(*bob_size, phone=bob_size[0] < 600).new_page()
    sign_in_as_guest(ann, "Ann")
    sign_in_as_guest(bob, "Bob")
    tid = ann.evaluate(CREATE, {"game": "koplus", "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert bob.evaluate(JOIN, tid) == 200
    ann.goto(f"/table/{tid}")
    bob.goto(f"/table/{tid}")
    expect(ann.locator("#board.can-act")).to_be_visible()
    return ann, bob, tid


def test_resign_asks_first_then_the_game_ends(new_context, server, artifacts):
    ann, bob, tid = _two(new_context)
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda e: errors.append(str(e)))
    watcher = new_context(1280, 800).new_page()
    sign_in_as_guest(watcher, "Cat")
    watcher.goto(f"/table/{tid}")
    expect(watcher.locator("#board")).to_be_visible()

    life = bob.locator("#table-life")
    expect(life).to_be_visible()
    expect(life.get_by_role("button", name="Call off the game")).to_be_visible()
    play_one(ann, random.Random(1))  # after a person's move the game can no longer be called off
    expect(life.get_by_role("button", name="Call off the game")).to_have_count(0)
    expect(watcher.locator("#table-life")).to_be_hidden()  # nothing of it for spectators
    life.get_by_role("button", name="Resign").click()
    confirm = life.locator(".life-confirm")
    expect(confirm).to_contain_text("Resign this game? You will be counted last and the game ends.")
    bob.screenshot(path=str(artifacts / "e2e-life-resign-390.png"), full_page=True)
    life.get_by_role("button", name="Keep playing").click()
    expect(confirm).to_have_count(0)
    assert _table(server, tid)["status"] == "running"
    life.get_by_role("button", name="Resign").click()
    life.get_by_role("button", name="Yes, resign").click()
    expect(ann.locator("#final")).to_be_visible()
    expect(bob.locator("#final")).to_be_visible()
    expect(life).to_be_hidden()
    t = _table(server, tid)
    assert t["status"] == "finished" and t["result"]["resigned"] == [1]
    assert t["result"]["ranks"] == [1, 2]
    ann.screenshot(path=str(artifacts / "e2e-life-resigned-1280.png"), full_page=True)
    assert not errors, errors


def test_take_back_my_move(new_context, server, artifacts):
    ann, bob, tid = _two(new_context, ann_size=(390, 844), bob_size=(1280, 800))
    errors: list[str] = []
    ann.on("pageerror", lambda e: errors.append(str(e)))
    before = _table(server, tid)["move_number"]
    undo = ann.locator("#life-undo")
    expect(undo).to_have_count(0)
    play_one(ann, random.Random(2))
    expect(undo).to_have_text("Take back my move")
    expect(bob.locator("#life-undo")).to_have_count(0)  # only one's own move
    ann.screenshot(path=str(artifacts / "e2e-life-undo-390.png"), full_page=True)
    undo.click()
    expect(ann.locator("#board.can-act")).to_be_visible()
    expect(undo).to_have_count(0)
    assert _table(server, tid)["move_number"] == before
    # played again and answered: no taking back once the other has played
    play_one(ann, random.Random(3))
    expect(bob.locator("#board.can-act")).to_be_visible()
    play_one(bob, random.Random(4))
    expect(ann.locator("#board.can-act")).to_be_visible()
    expect(undo).to_have_count(0)
    assert _table(server, tid)["move_number"] == before + 2
    bob.screenshot(path=str(artifacts / "e2e-life-undo-1280.png"), full_page=True)
    assert not errors, errors


def test_call_off_before_anyone_moved(new_context, server, artifacts):
    ann, bob, tid = _two(new_context)
    watcher = new_context(390, 844, phone=True).new_page()
    sign_in_as_guest(watcher, "Cat")
    watcher.goto(f"/table/{tid}")
    expect(watcher.locator("#board")).to_be_visible()
    expect(watcher.locator("#table-life")).to_be_hidden()
    ann.locator("#life-abort").click()
    for page in (ann, bob, watcher):
        expect(page.locator("#life-gone")).to_have_text(
            "This game was called off before anyone moved. It has no result.")
        expect(page.locator("#life-resign")).to_have_count(0)
    assert _table(server, tid)["status"] == "aborted"
    watcher.screenshot(path=str(artifacts / "e2e-life-aborted-390.png"), full_page=True)
    running = ann.evaluate("fetch('/api/tables?status=running').then((r) => r.json())")
    assert tid not in [t["id"] for t in running["tables"]]


def test_the_turn_badge_follows_the_game_live(new_context, server, artifacts):
    ann_ctx = new_context(1280, 800)
    ann = ann_ctx.new_page()
    sign_in_as_guest(ann, "Ann")
    bob_ctx = new_context(390, 844, phone=True)
    bob = bob_ctx.new_page()
    sign_in_as_guest(bob, "Bob")
    ann.goto("/")
    bob.goto("/")
    badge = ann.locator("#turns-badge")
    expect(badge).to_have_count(0)
    r = ann_ctx.request.post("/api/tables", data={"game": "koplus", "seats": [
        {"kind": "me"}, {"kind": "open"}]})
    tid = r.json()["table"]["id"]
    assert bob_ctx.request.post(f"/api/tables/{tid}/join").ok
    # far sooner than any poll: the server pushes the count
    expect(badge).to_have_text("Your turn: 1", timeout=3000)
    ann.screenshot(path=str(artifacts / "e2e-life-badge-1280.png"))
    frame = ann_ctx.request.get(f"/api/tables/{tid}/frame?seat=0").json()
    ann_ctx.request.post(f"/api/tables/{tid}/act", data={
        "seat": 0, "action": frame["actions"][0]["action"], "move_number": frame["move_number"]})
    expect(badge).to_have_count(0, timeout=3000)
    expect(bob.locator("#turns-badge")).to_have_text("Your turn: 1", timeout=3000)
    bob.screenshot(path=str(artifacts / "e2e-life-badge-390.png"))
    # a table called off or given up never counts: Bob resigns, his count drops at once
    bob_ctx.request.post(f"/api/tables/{tid}/resign")
    expect(bob.locator("#turns-badge")).to_have_count(0, timeout=3000)


def test_a_double_click_on_create_makes_one_table(new_context, server):
    page = new_context().new_page()
    sign_in_as_guest(page, "Dee")
    page.goto("/")
    ids = page.evaluate("""async () => {
      const { post } = await import('/static/api.js');
      const body = {game: 'koplus', seats: [{kind: 'me'}, {kind: 'open'}]};
      const [a, b] = await Promise.all([post('/api/tables', body), post('/api/tables', body)]);
      const c = await post('/api/tables', {...body, visibility: 'private'});
      return [a.table.id, b.table.id, c.table.id];
    }""")
    assert ids[0] == ids[1] and ids[2] != ids[0]
    mine = page.evaluate("fetch('/api/my/tables').then((r) => r.json())")["tables"]
    assert sorted(t["id"] for t in mine) == sorted({*ids})


def test_the_form_sent_twice_by_a_double_click_a_reload_or_two_tabs_makes_one_table(
        new_context, server):
    ctx = new_context(390, 844, phone=True)
    first, second = ctx.new_page(), ctx.new_page()
    sign_in_as_guest(first, "Tabby")
    for page in (first, second):
        page.goto("/new?game=koplus")
        page.select_option("#seat-1", "open")
    first.locator("#create").dblclick()
    first.wait_for_url("**/table/*")
    second.locator("#create").click()  # the same form in another tab
    second.wait_for_url("**/table/*")
    first.goto("/new?game=koplus")  # back to the form after a reload, sent again
    first.select_option("#seat-1", "open")
    first.locator("#create").click()
    first.wait_for_url("**/table/*")
    assert first.url == second.url
    mine = first.evaluate("fetch('/api/my/tables').then((r) => r.json())")["tables"]
    assert [t["id"] for t in mine] == [first.url.rsplit("/", 1)[1]]
    first.goto("/new?game=koplus")  # other settings make a table of their own
    first.select_option("#seat-1", "open")
    first.select_option("#visibility", "private")
    first.locator("#create").click()
    expect(first).not_to_have_url(second.url)
    first.wait_for_url("**/table/*")
    mine = first.evaluate("fetch('/api/my/tables').then((r) => r.json())")["tables"]
    assert len(mine) == 2


def test_claim_the_game_when_the_time_is_up(browser, quick_server, artifacts):
    pages = []
    for width, height in ((1280, 800), (390, 844)):
        ctx = browser.new_context(base_url=quick_server, viewport={"width": width,
                                                                   "height": height})
        ctx.set_default_timeout(20_000)
        pages.append(ctx.new_page())
    ann, bob = pages
    try:
        sign_in_as_guest(ann, "Ann")
        sign_in_as_guest(bob, "Bob")
        created = time.monotonic()  # Ann's time runs from the table's start, after this
        tid = ann.evaluate(CREATE, {"game": "koplus", "seats": [{"kind": "me"},
                                                                {"kind": "open"}]})
        assert bob.evaluate(JOIN, tid) == 200
        ann.goto(f"/table/{tid}")
        bob.goto(f"/table/{tid}")
        life = bob.locator("#table-life")
        expect(life).to_contain_text("Each move may take up to 14 seconds.")
        if time.monotonic() - created < QUICK_LIMIT - 2:  # else too late to see it not there
            expect(bob.locator("#life-claim-0")).to_have_count(0)
        claim = bob.locator("#life-claim-0")
        expect(claim).to_have_text("Claim the game", timeout=QUICK_LIMIT * 1000 + 5000)
        expect(life).to_contain_text("Ann's time for a move is up.")
        expect(bob.locator("#life-bot-0")).to_have_text("Let a bot play for Ann")
        expect(bob.locator("#life-late-choice-0")).to_have_text(
            "Claim the game: Ann is counted last and the game ends. Or let a bot play for Ann "
            "to the end: what it scores is Ann's result.")
        expect(ann.locator("#life-claim-0")).to_have_count(0)  # not the late one herself
        bob.screenshot(path=str(artifacts / "e2e-life-claim-390.png"), full_page=True)
        claim.click()
        expect(bob.locator("#final")).to_be_visible()
        expect(ann.locator("#final")).to_be_visible()
        t = _table(quick_server, tid)
        assert t["status"] == "finished" and t["result"]["timed_out"] == [0]
        assert t["result"]["ranks"] == [2, 1]
    finally:
        for page in pages:
            page.context.close()
