"""Words at the table and around it say what they mean: a bot is named once ("Thoughtful bot",
not "Thoughtful bot Thoughtful"), the symbols of a board's picture have a legend beside it, a
hint's mark stands out from the player's own pieces (and stays still where motion is turned
down), a guest is told before signing in that their name is taken and what it becomes, the
lobby's tab says when a move waits, its "reconstructed" badge is explained once, and an empty
leaderboard asks for a rated table with other people (rated tables take no bots)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .people import sign_in_as_guest
from .test_touch import open_table

pytestmark = pytest.mark.e2e

HINT_LOOK = """() => {
    const el = document.querySelector('#board .hint-mark');
    const s = getComputedStyle(el);
    return {stroke: s.stroke, width: parseFloat(s.strokeWidth), animation: s.animationName};
}"""


def test_a_bot_is_named_once_and_the_boards_symbols_have_a_legend(new_context, artifacts):
    page = new_context(1280, 800).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_as_guest(page, "Wren")
    open_table(page, "botanik", ["me", "bot:mcts:thoughtful"])
    expect(page.locator("#board.can-act")).to_be_visible()
    bot = page.locator('#players li[data-seat="1"]')
    expect(bot).to_contain_text("Thoughtful bot")
    assert bot.inner_text().count("Thoughtful") == 1, bot.inner_text()

    legend = page.locator("#legend")
    legend.locator("summary").click()
    items = legend.locator(".legend-list li")
    expect(items.first).to_be_visible()
    said = items.all_inner_texts()
    for meaning in ("red", "yellow", "green", "blue", "black", "Meca-Botanist", "Source"):
        assert meaning in said, said
    assert legend.locator(".legend-icon svg").count() == len(said)
    legend.screenshot(path=str(artifacts / "legend-botanik.png"))

    # the hint's mark: not the player's colour, thicker than the board's own lines, moving
    page.emulate_media(reduced_motion="no-preference")  # the tests' pages ask for none
    page.locator("#board .target").first.evaluate("e => e.classList.add('hint-mark')")
    look = page.evaluate(HINT_LOOK)
    mine = page.locator('#players li[data-seat="0"] .mark').get_attribute("data-colour")
    assert look["stroke"] not in ("none", "rgb(47, 109, 181)"), look  # the old blue outline
    assert look["width"] >= 5 and look["animation"] == "hint-march", look
    assert mine and mine.lower() not in look["stroke"].lower()
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(HINT_LOOK)["animation"] == "none"

    for game, meaning in (("kontor", "Zollhaus"), ("kozo", "Dreibein")):
        r = page.request.get(f"/api/games/{game}/legend", headers={"Accept-Language": "de"})
        assert r.ok and meaning in [i["meaning"] for i in r.json()["items"]], r.text()
    assert not errors, errors


def test_a_taken_guest_name_is_said_before_signing_in(new_context):
    first = new_context().new_page()
    taken = sign_in_as_guest(first, "Quill")
    page = new_context(390, 844, phone=True).new_page()
    page.goto("/login")
    page.locator("#guest-form").get_by_label("Your name").fill("quill")
    note = page.locator("#guest-name-note")
    expect(note).to_have_text(re.compile(
        r"^Another guest is called quill: you will play as quill \(\d+\), or choose another "
        r"name\.$"))
    given = note.inner_text().split("play as ")[1].split(",")[0]
    page.locator("#guest-form").get_by_role("button", name="Continue as guest").click()
    expect(page.locator("#who")).to_contain_text(given)
    assert given != taken


def test_the_lobby_says_when_a_move_waits_and_what_reconstructed_means(new_context):
    page = new_context().new_page()
    page.goto("/")
    expect(page.locator("#recon-note")).to_contain_text(
        "reconstructed means: no source says how the printed game does this; this is our "
        "reading.")
    expect(page.locator("#recon-note")).to_have_count(1)
    sign_in_as_guest(page, "Tove")
    open_table(page, "koplus", ["me", "bot:random"])
    expect(page.locator("#board.can-act")).to_be_visible()
    page.goto("/")
    expect(page.locator("#your-turn li")).not_to_have_count(0)
    expect(page).to_have_title(re.compile(r"^Your turn at \d+ tables? · Lobby · meeple$"))

    page.goto("/leaderboard")
    empty = page.locator("#leaderboard-empty")
    expect(empty).to_be_visible()
    assert "with other people" in empty.inner_text(), empty.inner_text()
