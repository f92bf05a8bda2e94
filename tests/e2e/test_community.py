"""The community in the browser: table chat (live, muting, a spectator's note at rated
tables), the lobby chat, turn alerts (the tab's title, the sound setting, the browser
notification asked for once), profiles with the rating chart, follows and invitations, and the
leaderboard with bots marked as bots. Script injection through chat lines, names and addresses
never runs: ``window.__pwned`` stays unset everywhere they are shown."""

from __future__ import annotations

import functools
import time
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from .conftest import served
from .people import sign_in_as_guest, sign_up

pytestmark = pytest.mark.e2e

EVIL = ('<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">'
        '<a href="javascript:window.__pwned=1">click</a>')
HOSTILE = '<img src=x onerror="window.__pwned=1">'
SEEDED = """
import sys, uvicorn
from meeple.server.app import create_app
from meeple.server.community.ratings import BotRating
from meeple.server.deps import roomy_rates
app = create_app(sys.argv[1], bot_delay=0.0, rates=roomy_rates())
app.state.community.ratings.bots = {"kontor": {
    "random": BotRating("random", 25.0, 2.0, 80), "greedy": BotRating("greedy", 33.0, 1.5, 120)}}
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def not_pwned(*pages: Page) -> None:
    for p in pages:
        assert p.evaluate("window.__pwned") is None, p.url
        assert p.locator("#main img[src=x]").count() == 0
        assert p.locator("#main a[href^='javascript:']").count() == 0


def arm(page: Page) -> None:
    """Make any injected script that runs say so (an `alert` too)."""
    page.on("dialog", lambda d: (setattr(page, "_alerted", True), d.dismiss()))


def two_at_a_table(new_context, width=1280, height=800, rated=False):
    ann_ctx, bob_ctx = new_context(width, height), new_context(390, 844, phone=True)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    for p in (ann, bob):
        arm(p)
    if rated:  # registered players (names no other test plays under as a guest)
        a, b = sign_up(ann, "Rated Ann"), sign_up(bob, "Rated Bob")
    else:
        a, b = sign_in_as_guest(ann, "Ann"), sign_in_as_guest(bob, "Bob")
    r = ann.request.post("/api/tables", data={"game": "kontor", "players": 2, "rated": rated,
                                              "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert r.status == 201, r.text()
    tid = r.json()["table"]["id"]
    assert bob.request.post(f"/api/tables/{tid}/join", data={"seat": 1}).status == 200
    ann.goto(f"/table/{tid}")
    bob.goto(f"/table/{tid}")
    for p in (ann, bob):  # (a busy machine may take a while to open the page and its chat)
        expect(p.locator("#table-chat")).to_be_visible(timeout=20_000)
        expect(p.locator("#board")).to_be_visible(timeout=20_000)  # the game, not the waiting room
        open_chat(p)
        expect(p.locator("#table-chat .chat-system").first).to_be_visible(timeout=20_000)
    return ann, bob, a, b, tid


def open_chat(page: Page, box: str = "table-chat") -> None:
    """Unfold the table's chat where it is folded (during a game on a phone)."""
    folded = page.locator(f"details#{box}:not([open]) > summary")
    if folded.count():
        folded.click()


def say(page: Page, box: str, text: str) -> None:
    open_chat(page, box)
    page.locator(f"#{box} input[name=text]").fill(text)
    page.locator(f"#{box} button[type=submit]").click()


def test_table_chat_is_live_safe_and_mutable(new_context, artifacts):
    ann, bob, a, b, tid = two_at_a_table(new_context)
    expect(ann.locator("#table-chat")).to_contain_text(f"{b} sat down.")
    say(ann, "table-chat", EVIL)
    line = bob.locator("#table-chat li", has_text="window.__pwned").last
    expect(line).to_be_visible()
    assert line.locator(".chat-text").text_content() == EVIL
    expect(ann.locator("#table-chat .chat-text").last).to_have_text(EVIL)
    say(ann, "table-chat", "javascript:window.__pwned=1")
    expect(bob.locator("#table-chat .chat-text").last).to_have_text("javascript:window.__pwned=1")
    time.sleep(0.5)
    not_pwned(ann, bob)
    assert not getattr(ann, "_alerted", False) and not getattr(bob, "_alerted", False)
    # a spectator's line shows at a casual table, marked as watching
    cy = new_context().new_page()
    arm(cy)
    sign_in_as_guest(cy, "Cy")
    cy.goto(f"/table/{tid}")
    expect(cy.locator("#table-chat .chat-text").last).to_have_text("javascript:window.__pwned=1")
    say(cy, "table-chat", "nice opening")
    expect(bob.locator("#table-chat li.chat-spectator")).to_contain_text("(watching)")
    bob.locator("#table-chat").scroll_into_view_if_needed()
    bob.screenshot(path=str(artifacts / "community-table-chat-390.png"), full_page=True)
    ann.screenshot(path=str(artifacts / "community-table-chat-1280.png"))
    # too long is refused with a reason (the box holds 500 characters: ask the socket)
    ann.evaluate("""() => { const ws = new WebSocket(`ws://${location.host}/ws/tables/""" + tid +
                 """`); ws.onopen = () => ws.send(JSON.stringify({type: 'chat',
                 text: 'x'.repeat(501)})); }""")
    assert ann.locator("#table-chat input[name=text]").get_attribute("maxlength") == "500"
    # Bob mutes Ann: her lines go, and stay gone after a reload
    bob.locator("#table-chat li", has_text="javascript:").last.locator(".chat-mute").click()
    expect(bob.locator(f"#table-chat li[data-name='{a}']")).to_have_count(0)
    say(ann, "table-chat", "can you read me")
    expect(cy.locator("#table-chat .chat-text").last).to_have_text("can you read me")
    bob.reload()
    expect(bob.locator("#table-chat")).to_be_visible()
    expect(bob.locator("#board")).to_be_visible()
    # on a phone the chat is folded during a game; its heading counts the lines said since
    assert bob.locator("#table-chat").evaluate("(e) => e.open") is False
    say(cy, "table-chat", "still watching")
    expect(bob.locator("#table-chat .chat-unread")).to_have_text("1 new")
    open_chat(bob)
    expect(bob.locator("#table-chat .chat-unread")).to_have_text("")
    expect(bob.locator("#table-chat .chat-system").first).to_be_visible()
    expect(bob.locator("#table-chat")).to_contain_text("nice opening")
    expect(bob.locator(f"#table-chat li[data-name='{a}']")).to_have_count(0)
    not_pwned(ann, bob, cy)


def test_at_a_rated_table_players_do_not_see_spectators(new_context, artifacts):
    ann, bob, a, b, tid = two_at_a_table(new_context, rated=True)
    cy = new_context(390, 844, phone=True).new_page()
    arm(cy)
    sign_in_as_guest(cy, "Cy")
    cy.goto(f"/table/{tid}")
    expect(cy.locator("#table-chat .chat-note")).to_contain_text("once the game is over")
    say(cy, "table-chat", "Bob, play the 66")
    expect(cy.locator("#table-chat .chat-text").last).to_have_text("Bob, play the 66")
    say(bob, "table-chat", "good luck")
    for p in (ann, bob, cy):
        expect(p.locator("#table-chat .chat-text").last).to_have_text("good luck")
    for p in (ann, bob):
        expect(p.locator("#table-chat")).not_to_contain_text("play the 66")
    ann.reload()
    expect(ann.locator("#table-chat .chat-text").last).to_have_text("good luck")
    expect(ann.locator("#table-chat")).not_to_contain_text("play the 66")
    cy.locator("#table-chat").scroll_into_view_if_needed()
    cy.screenshot(path=str(artifacts / "community-rated-spectator-390.png"))
    # the game ends (Ann resigns at once): the players now read the spectator too, and the
    # game changes no rating (given up in its first moves)
    assert ann.request.post(f"/api/tables/{tid}/resign", data={}).status == 200
    for p in (ann, bob):
        expect(p.locator("#table-chat")).to_contain_text(f"{a} resigned.")
        expect(p.locator("#table-chat")).to_contain_text("Bob, play the 66")
        expect(p.locator("#table-chat .chat-note")).to_have_text(
            "The game is over: everyone now reads what the spectators said.")
    expect(bob.locator("#table-chat")).to_contain_text("This game changes no rating",
                                                       timeout=15_000)
    for p in (ann, bob):  # nobody's turn any more
        expect(p.locator("#turn-alerts")).to_be_hidden()
        assert not p.title().startswith("Your turn")
    bob.locator("#table-chat").scroll_into_view_if_needed()
    bob.screenshot(path=str(artifacts / "community-rated-over-390.png"))
    not_pwned(ann, bob, cy)


def test_turn_alerts_title_sound_and_notification_asked_once(new_context, artifacts):
    # the whole browser: the headless shell refuses notifications without asking
    ann, bob, a, b, tid = two_at_a_table(functools.partial(new_context, whole=True))
    # Kontor: both choose a card at once, so both are to move
    expect(ann).to_have_title("Your turn · " + ann.title().removeprefix("Your turn · "))
    assert ann.title().startswith("Your turn · ")
    sound = ann.locator("#turn-sound")
    assert not sound.is_checked()
    sound.check()
    assert ann.evaluate("localStorage.getItem('meeple.turn-sound')") == "1"
    ann.reload()
    expect(ann.locator("#turn-sound")).to_be_checked()
    ask = bob.locator("#turn-notify")
    expect(ask).to_be_visible()
    ask.click()
    expect(ask).to_be_hidden()
    bob.reload()
    expect(bob.locator("#turn-alerts")).to_be_visible()
    expect(bob.locator("#turn-notify")).to_be_hidden()  # asked once only
    cy = new_context().new_page()
    sign_in_as_guest(cy, "Cy")
    cy.goto(f"/table/{tid}")
    expect(cy.locator("#table-chat")).to_be_visible(timeout=20_000)
    expect(cy.locator("#turn-alerts")).to_be_hidden()  # a spectator has no turn
    assert not cy.title().startswith("Your turn")
    ann.context.grant_permissions(["notifications"])
    ann.reload()
    expect(ann.locator("#turn-notify-state")).to_contain_text("will tell you")
    expect(ann.locator("#turn-notify")).to_be_hidden()
    ann.locator("#turn-alerts").scroll_into_view_if_needed()
    ann.screenshot(path=str(artifacts / "community-turn-alerts-1280.png"))


def test_lobby_chat_and_a_hostile_profile_address(new_context, artifacts):
    ann = new_context().new_page()
    bob = new_context(390, 844, phone=True).new_page()
    for p in (ann, bob):
        arm(p)
    sign_in_as_guest(ann, "Ann")
    b = sign_in_as_guest(bob, "Bob")
    ann.goto("/")
    bob.goto("/")
    expect(bob.locator("#lobby-chat")).to_be_visible()
    say(ann, "lobby-chat", EVIL)
    expect(bob.locator("#lobby-chat .chat-text").last).to_have_text(EVIL, timeout=30_000)
    bob.locator("#lobby-chat").scroll_into_view_if_needed()
    bob.screenshot(path=str(artifacts / "community-lobby-chat-390.png"), full_page=True)
    not_pwned(ann, bob)
    # a guest's own profile says how to get turn e-mails instead of a form they cannot use
    bob.goto("/profile/" + urllib.request.quote(b, safe=""))
    expect(bob.locator("#notify-guest")).to_contain_text("Guests get no e-mail. Sign up")
    expect(bob.locator("#notify-form")).to_have_count(0)
    expect(bob.locator("#profile-name")).to_have_text(b + " guest")
    bad = '<img src=x onerror="window.__pwned=1">'
    bob.goto("/profile/" + urllib.request.quote(bad, safe=""))
    expect(bob.locator("#main h1")).to_have_text("Page not found")
    expect(bob.locator("#main")).to_contain_text("There is no table, game or player at this "
                                                 "address.")
    expect(bob).to_have_title("Not found · meeple")
    not_pwned(bob)
    # a game nobody is rated in yet says so, and still shows the bots' levels to aim at
    bob.goto("/leaderboard/mops_royal")
    # (rated tables are between people: it does not invite a rated game against the bots)
    expect(bob.locator("#leaderboard-empty")).to_have_text(
        "Nobody is rated in Mops Royal yet: play a rated table with other people, and your "
        "rating shows where you stand among the bots' levels.")
    from meeple.server.community.ratings import load_ladder

    levels = load_ladder().get("mops_royal", {})
    assert levels, "the arena's ladder has no Mops Royal levels"
    expect(bob.locator("#leaderboard tr.bot-row")).to_have_count(len(levels))
    bob.goto("/leaderboard/" + urllib.request.quote(bad, safe=""))
    expect(bob.locator("#main h1")).to_have_text("Page not found")
    expect(bob).to_have_title("Not found · meeple")
    not_pwned(bob)
    assert not getattr(bob, "_alerted", False)


@pytest.fixture
def seeded(tmp_path):
    """A server whose database already holds rated Kontor games of Ann, Bob and Cy."""
    from meeple.server import auth
    from meeple.server.community.store import CommunityStore, RatedResult
    from meeple.server.store import SqlStore

    url = f"sqlite:///{tmp_path / 'seeded.db'}"
    store = SqlStore(url)
    ids = {}
    for name in ("Ann", "Bob", "Cy"):
        ids[name] = store.add_user(name, name.lower(), auth.hash_password("correct horse"),
                                   guest=False).id
    # a name the site would refuse, stored by hand: the pages must still show it as text
    ids[HOSTILE] = store.add_user(HOSTILE, HOSTILE.lower(), None, guest=True).id
    community = CommunityStore(store.engine)
    community.add_chat("lobby", ids[HOSTILE], HOSTILE, "hello from a hostile name", "say")
    community.record_rated("t-hostile", "kontor", [
        RatedResult(ids[HOSTILE], 1, 26.0, 8.0), RatedResult(ids["Cy"], 2, 24.0, 8.0)])
    mu = {"Ann": 25.0, "Bob": 25.0, "Cy": 25.0}
    sigma = dict.fromkeys(mu, 8.3)
    for k, order in enumerate([("Ann", "Bob"), ("Ann", "Cy"), ("Bob", "Ann"), ("Ann", "Bob")]):
        first, second = order
        mu[first] += 2.0
        mu[second] -= 1.5
        for n in order:
            sigma[n] *= 0.85
        community.record_rated(f"t{k}", "kontor", [
            RatedResult(ids[first], 1, mu[first], sigma[first]),
            RatedResult(ids[second], 2, mu[second], sigma[second])])
    store.close()
    with served(tmp_path, SEEDED, url) as base:
        yield base


def test_profile_chart_follow_invite_and_leaderboard(browser, seeded, artifacts):
    def page(width, height, phone=False):
        ctx = browser.new_context(base_url=seeded, viewport={"width": width, "height": height},
                                  is_mobile=phone, has_touch=phone,
                                  device_scale_factor=2 if phone else 1)
        ctx.set_default_timeout(20_000)
        return ctx, ctx.new_page()

    dan_ctx, dan = page(1280, 800)
    ann_ctx, ann = page(390, 844, True)
    try:
        arm(dan)
        sign_in_as_guest(dan, "Dan")
        dan.goto("/leaderboard/kontor")
        rows = dan.locator("#leaderboard tbody tr")
        expect(rows).to_have_count(6)
        expect(dan.locator("#leaderboard-empty")).to_have_count(0)  # people are rated here
        hostile = dan.locator("#leaderboard a", has_text="onerror")
        expect(hostile).to_have_text(HOSTILE)
        not_pwned(dan)
        hostile.click()
        expect(dan.locator("#profile-name")).to_have_text(HOSTILE + " guest")
        assert dan.title() == f"{HOSTILE} · meeple"
        dan.locator("#follow").click()
        expect(dan.locator("#follow")).to_have_text("Stop following")
        dan.goto("/profile/Dan")
        expect(dan.locator("#following a")).to_have_text(HOSTILE)
        dan.goto("/")
        expect(dan.locator("#lobby-chat li", has_text="hostile name").locator("a")).to_have_text(
            HOSTILE)
        not_pwned(dan)
        dan.goto("/leaderboard/kontor")
        expect(rows).to_have_count(6)
        names = [r.strip() for r in dan.locator("#leaderboard tbody tr td:nth-child(2)")
                 .all_inner_texts()]
        names = [" ".join(n.split()) for n in names]
        people = [n for n in names if not n.endswith(" bot") and n != HOSTILE + " (guest)"]
        assert people == ["Ann", "Bob", "Cy"] and {"Casual bot", "Beginner bot"} <= set(
            names)
        ratings = [float(x) for x in
                   dan.locator("#leaderboard tbody tr td:nth-child(3)").all_inner_texts()]
        assert ratings == sorted(ratings, reverse=True)
        expect(dan.locator("#leaderboard tr.bot-row .badge.bot")).to_have_count(2)
        dan.screenshot(path=str(artifacts / "community-leaderboard-1280.png"), full_page=True)
        dan.locator("#leaderboard a", has_text="Ann").click()
        dan.wait_for_url("**/profile/Ann")
        expect(dan.locator("#profile-name")).to_contain_text("Ann")
        expect(dan.locator("#rating-chart circle")).to_have_count(4)
        expect(dan.locator("#profile-games")).to_contain_text("4 rated")
        expect(dan.locator("#profile-levels")).to_have_text(
            "Ann's rating in Kontor (16.5) is nearest to the Beginner bot's (19.0).")
        assert dan.locator(".profile-head img.avatar").evaluate(
            "i => i.complete && i.naturalWidth > 0")
        dan.screenshot(path=str(artifacts / "community-profile-1280.png"), full_page=True)
        dan.locator("#follow").click()
        expect(dan.locator("#follow")).to_have_text("Stop following")
        # invite Ann to a table of Dan's
        r = dan.request.post("/api/tables", data={"game": "kontor", "players": 2,
                                                   "start": False, "seats": [
                                                       {"kind": "me"}, {"kind": "open"}]})
        tid = r.json()["table"]["id"]
        dan.reload()
        dan.locator("#invite-box button", has_text="Invite").click()
        expect(dan.locator("#toast")).to_contain_text("Ann is invited")
        dan.goto("/profile/Dan")
        expect(dan.locator("#following")).to_contain_text("Ann")
        # Ann, signed in on her phone, finds the invitation on her profile and takes the seat
        arm(ann)
        ann.goto("/login")
        form = ann.locator("#login-form")
        form.get_by_label("Name").fill("Ann")
        form.get_by_label("Password").fill("correct horse")
        form.get_by_role("button", name="Log in").click()
        expect(ann.locator("#who")).to_contain_text("Ann")
        ann.goto("/profile/Ann")
        expect(ann.locator("#invitations")).to_contain_text("Dan invites you to Kontor")
        expect(ann.locator("#rating-chart")).to_be_visible()
        expect(ann.locator("#notify-form")).to_be_visible()
        ann.screenshot(path=str(artifacts / "community-profile-390.png"), full_page=True)
        ann.locator("#invitations a", has_text="Take a seat").click()
        ann.wait_for_url(f"**/table/{tid}")
        ann.locator("#notify-email").count()  # (the table page has no mail form)
        not_pwned(dan, ann)
    finally:
        dan_ctx.close()
        ann_ctx.close()
