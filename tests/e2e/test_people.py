"""Two people through an invite link, hot-seat with hidden information, replays, keyboard-only
play and a phone-sized screen."""

from __future__ import annotations

import json
import random
import re
import urllib.request

import pytest
from playwright.sync_api import expect

import meeple
import meeple.engine
from meeple.engine.lessons import picture_names

from .people import SHORT_GAMES, create_table, play_to_end, sign_in_as_guest

pytestmark = pytest.mark.e2e


def table_json(server: str, table: str, code: str | None = None) -> dict:
    """A table's summary (a private one read with its invite code)."""
    req = urllib.request.Request(f"{server}/api/tables/{table}",
                                 headers={"X-Invite-Code": code} if code else {})
    with urllib.request.urlopen(req) as r:
        return json.load(r)["table"]


@pytest.mark.slow
def test_two_people_play_through_an_invite_link(new_context, server, artifacts):
    ann = new_context().new_page()
    bob = new_context(width=390, height=844).new_page()  # a phone-sized screen
    ann_name = sign_in_as_guest(ann, "Ann")
    # Kontor: each round both choose a card at the same time, then play it.
    table = create_table(ann, "kontor", ["me", "open"], visibility="private",
                         options=SHORT_GAMES["kontor"])
    invite = ann.locator("#invite-link").input_value()
    assert f"/invite/{table}/" in invite
    # A private table is not listed in the lobby.
    assert table not in json.dumps(
        json.load(urllib.request.urlopen(f"{server}/api/tables?status=waiting"))
    )
    bob_name = sign_in_as_guest(bob, "Bob")
    bob.goto(invite)
    bob.locator("#join").click()
    bob.wait_for_url(re.compile(f"/table/{table}$"))
    # The table was made to start once every seat is taken: both pages go live by themselves.
    expect(ann.locator("#players")).to_contain_text("Bob")
    expect(bob.locator("#players")).to_contain_text("Ann")
    # A private table is private: without its invite link nobody else may even watch it.
    eve = new_context().new_page()
    eve.goto(f"/table/{table}")
    expect(eve.locator("h1")).not_to_contain_text("watching")
    assert urllib.request.urlopen(f"{server}/healthz").status == 200
    # Someone without a seat but with the invite link watches the public view: the board, no
    # choices.
    carl = new_context().new_page()
    carl.goto(invite)
    carl.wait_for_url(re.compile(f"/table/{table}$"))
    expect(carl.locator("h1")).to_contain_text("watching")
    expect(carl.locator("#board .board-picture")).to_have_count(1)
    assert carl.locator("#board .target, #board .action-button").count() == 0
    counts = play_to_end([ann, bob], random.Random(2))
    assert counts.get("together", 0) > 0, counts  # both could choose at once
    expect(carl.locator("#final")).to_be_visible()
    assert sum(counts.values()) > 0
    t = table_json(server, table, code=invite.rsplit("/", 1)[1])
    assert t["status"] == "finished"
    assert [s["name"] for s in t["seats"]] == [ann_name, bob_name]
    for page in (ann, bob):
        expect(page.locator("#final-scores tbody tr")).to_have_count(2)
    bob.screenshot(path=str(artifacts / "e2e-invite-phone-final.png"), full_page=True)
    ann.screenshot(path=str(artifacts / "e2e-invite-desktop-final.png"), full_page=True)
    # A rematch seats the same people again and starts at once.
    ann.locator("#rematch").click()
    ann.wait_for_url(re.compile(rf"/table/(?!{table})[^/]+$"))
    again = ann.url.rsplit("/", 1)[1]
    # the rematch is private too: read it as Ann, who sits there
    seats = ann.evaluate(f"fetch('/api/tables/{again}').then((r) => r.json())")["table"]["seats"]
    assert [s["name"] for s in seats] == [ann_name, bob_name]
    expect(ann.locator("#players")).to_contain_text("Bob")


@pytest.mark.slow
def test_hot_seat_hides_each_view_behind_a_pass_the_device_screen(new_context, server, artifacts):
    page = new_context().new_page()
    sign_in_as_guest(page, "Cleo")
    table = create_table(page, "kontor", ["me", "me"], options=SHORT_GAMES["kontor"])
    cover = page.locator(".cover")
    expect(cover).to_be_visible()
    expect(cover).to_contain_text("Pass the device to")
    # While the cover is up, nothing private is on the page and nothing can be played.
    assert page.locator("#board .target, #board .action-button").count() == 0
    page.screenshot(path=str(artifacts / "e2e-hotseat-cover.png"))
    counts = play_to_end([page], random.Random(3), limit=150)
    assert counts.get("reveal", 0) >= 2, counts
    t = table_json(server, table)
    assert t["status"] == "finished"
    # Each hot-seat seat has a name of its own: one left without a name is called after its
    # number, never after the account holding it.
    assert [s["name"] for s in t["seats"]] == ["Cleo", "Player 2"]
    expect(page.locator("#players")).to_contain_text("Player 2")
    assert "Cleo (player" not in page.locator("#players").inner_text()


@pytest.mark.slow
def test_replay_steps_through_a_finished_game_as_each_viewer(new_context, server, artifacts):
    page = new_context().new_page()
    sign_in_as_guest(page, "Dora")
    table = create_table(page, "koplus", ["me", "bot:random"])
    play_to_end([page], random.Random(4))
    page.locator("#final").get_by_role("link", name="Replay").click()
    page.wait_for_url(re.compile(f"/replay/{table}"))
    with urllib.request.urlopen(f"{server}/api/tables/{table}/replay") as r:
        total = json.load(r)["moves"]  # the players' moves: set-up and chance are no moves
    pos = page.locator("#replay-pos")
    expect(pos).to_have_text(f"Move 0 of {total}")
    page.locator("#replay-forward").click()
    expect(pos).to_have_text(f"Move 1 of {total}")
    page.keyboard.press("End")
    expect(pos).to_have_text(f"Move {total} of {total}")
    # The set-up's chance events are one line standing for all of them, with no number; each
    # later move has a line of its own, numbered as the replay counts moves.
    lines = page.locator("#log li")
    expect(lines.last).to_have_class(re.compile(r"\bcurrent\b"))
    stands = [int(x) for x in lines.evaluate_all("ls => ls.map((l) => l.dataset.moves)")]
    shown = [int(x) for x in lines.evaluate_all("ls => ls.map((l) => l.dataset.number)")]
    assert stands[0] > 1 and stands[1:] == [1] * (len(stands) - 1), stands
    assert shown == list(range(total + 1)), shown
    # Move n shows the line numbered n; at the start (after the set-up), none.
    for at, line in ((1, 1), (2, 2), (total // 2, total // 2)):
        page.locator("#replay-slider").fill(str(at))
        expect(pos).to_have_text(f"Move {at} of {total}")
        expect(page.locator("#log li.current")).to_have_count(1)
        expect(lines.nth(line)).to_have_class(re.compile(r"\bcurrent\b"))
    page.keyboard.press("Home")
    expect(pos).to_have_text(f"Move 0 of {total}")
    expect(page.locator("#log li.current")).to_have_count(0)
    # Dora held seat 0: the review opens as her seat.
    review = page.locator("#review-link")
    expect(review).to_have_attribute("href", f"/review/{table}?seat=0")
    page.keyboard.press("End")
    expect(pos).to_have_text(f"Move {total} of {total}")
    # The last move shows the same results table as the table page: one Total column.
    expect(page.locator("#replay-scores tbody tr")).to_have_count(2)
    heads = page.locator("#replay-scores thead th").all_inner_texts()
    assert heads[:2] == ["Rank", "Player"] and heads[-1] == "Total" and heads.count("Total") == 1
    page.screenshot(path=str(artifacts / "e2e-replay-end.png"), full_page=True)
    page.locator("#replay-back").click()
    expect(pos).to_have_text(f"Move {total - 1} of {total}")
    expect(page.locator("#replay-scores")).to_have_count(0)
    for view in ("0", "1", ""):
        page.locator("#replay-view").select_option(view)
        expect(page).to_have_url(re.compile("seat=" + view if view else r"move=\d+$"))
        expect(page.locator("#board .board-picture")).to_have_count(1)
    page.keyboard.press("Home")
    expect(pos).to_have_text(f"Move 0 of {total}")
    page.screenshot(path=str(artifacts / "e2e-replay.png"), full_page=True)
    review.click()
    expect(page).to_have_url(re.compile(rf"/review/{table}\?seat=0$"))
    # Someone who held no seat reads the public review.
    other = new_context().new_page()
    other.goto(f"/replay/{table}")
    expect(other.locator("#review-link")).to_have_attribute("href", f"/review/{table}")


def test_keyboard_only_play(new_context, server):
    """Tab to the board's targets, arrows among them, R/F to turn, Enter to play."""
    page = new_context().new_page()
    sign_in_as_guest(page, "Eve")
    table = create_table(page, "botanik", ["me", "bot:random"], clock="blitz")
    expect(page.locator("#board.can-act")).to_have_count(1)
    # The lobby lists the table under "Your turn", and the header says so too.
    page.goto("/")
    expect(page.locator("#turns-badge")).to_have_text("Your turn: 1")
    page.locator(f'#your-turn li[data-table="{table}"] a').first.click()
    expect(page.locator("#board.can-act")).to_have_count(1)
    # Blitz: five minutes each, shown beside each player and running for the one to move.
    expect(page.locator('#players [data-clock="0"]')).to_have_text(re.compile(r"^[45]:\d\d$"))
    sent = page.locator("#board")
    assert page.locator("#board .target").count() > 0
    for _ in range(60):  # Tab through the page until a board target has the focus
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement?.dataset?.target"):
            break
    else:
        raise AssertionError("Tab never reached a target on the board")
    first = page.evaluate("() => document.activeElement.dataset.target")
    preview = page.locator(".board-preview")
    expect(preview).not_to_be_empty()
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
    page.keyboard.press("r")
    page.keyboard.press("f")
    assert page.evaluate("() => !!document.activeElement?.dataset?.target"), first
    page.keyboard.press("Enter")
    expect(sent).to_have_attribute("data-sent", "1")
    expect(page.locator("#log li").last).not_to_be_empty()


@pytest.mark.parametrize("game", meeple.games())
def test_rules_page_shows_the_rulebook_with_its_pictures(game, new_context, server):
    page = new_context(width=390, height=844).new_page()
    page.goto(f"/rules/{game}")
    text = page.locator("#rules")
    expect(text.locator("h2").first).to_be_visible()
    source = meeple.engine.game_class(game).rules_markdown()
    expect(text.locator("figure img")).to_have_count(len(picture_names(source)))
    assert text.locator("h3").count() == source.count("\n## ")  # each section, below the title
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390 + 1
    page.get_by_role("link", name=re.compile("^Play ")).click()
    expect(page).to_have_url(re.compile(rf"/new\?game={game}$"))


def test_sign_up_log_in_and_profile(new_context, server):
    page = new_context().new_page()
    page.goto("/login")
    form = page.locator("#signup-form")
    form.locator("input[name=name]").fill("Frieda")
    form.locator("input[name=password]").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    expect(page.locator("#who")).to_contain_text("Frieda")
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("#who")).to_contain_text("Sign in")
    page.goto("/login")
    form = page.locator("#login-form")
    form.locator("input[name=name]").fill("Frieda")
    form.locator("input[name=password]").fill("wrong password")
    form.get_by_role("button", name="Log in").click()
    expect(form.locator(".error")).not_to_be_empty()
    form.locator("input[name=password]").fill("correct horse")
    form.get_by_role("button", name="Log in").click()
    expect(page.locator("#who")).to_contain_text("Frieda")
    page.locator("#who").get_by_role("link", name="Frieda").click()
    expect(page.locator("h1")).to_contain_text("Frieda")
    expect(page.locator("main")).to_contain_text("No finished games yet.")
