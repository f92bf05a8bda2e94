"""The new-table form: presets in plain words first, the finer options folded, reconstructed
options marked and explained, seats for a person, a hot-seat player with their own name, or a
bot by its level; on a phone and on a desktop, within the screen."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from .people import sign_in_as_guest, sign_up

pytestmark = pytest.mark.e2e
SCREENS = [(390, 844), (1280, 800)]
SCREEN_IDS = ["phone", "desktop"]


def api(server: str, path: str) -> dict:
    with urllib.request.urlopen(f"{server}{path}", timeout=60) as r:
        return json.load(r)


def table_of(server: str, page: Page) -> dict:
    table = page.url.rsplit("/", 1)[1]
    return api(server, f"/api/tables/{table}")["table"]


def fits_the_screen(page: Page, width: int) -> None:
    """Nothing of the form reaches past the right edge of the screen."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
    overflowing = page.evaluate("""w => [...document.querySelectorAll('#new-table *')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().right > w + 1)
        .map(e => e.id || e.className || e.tagName)""", width)
    assert overflowing == []


def create(page: Page) -> None:
    page.locator("#create").click()
    try:
        page.wait_for_url(re.compile(r"/table/[^/]+$"), timeout=15_000)
    except Exception:
        raise AssertionError(
            "no table was made: " + page.locator("#new-table .error").inner_text()) from None


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=SCREEN_IDS)
def test_a_table_from_a_preset(new_context, server, artifacts, width, height):
    page = new_context(width=width, height=height, phone=width < 500).new_page()
    sign_in_as_guest(page, f"Preset {width}")
    page.goto("/new?game=kozo")
    presets = page.locator("#presets label.preset")
    described = api(server, "/api/games/kozo")
    expect(presets).to_have_count(len(described["presets"]))
    for i, p in enumerate(described["presets"]):
        expect(presets.nth(i)).to_contain_text(p["name"])
        expect(presets.nth(i)).to_contain_text(p["description"])
    expect(page.locator("#preset-0")).to_be_checked()
    # The finer options are folded away; the everyday ones are in view, in plain words.
    folded = page.locator("#advanced-options")
    expect(folded).not_to_have_attribute("open", "")
    expect(page.locator("#opt-tremor")).to_be_hidden()
    expect(page.locator("#opt-rounds")).to_be_visible()
    expect(page.locator('label[data-option="rounds"] .option-name')).to_have_text("Rounds")
    # Reconstructed options are marked, and the form says once what that means.
    expect(page.locator(".recon-note")).to_contain_text(
        "reconstructed means: no source says how the printed game does this; this is our "
        "reading.")
    expect(page.locator('label[data-option="opponent_choice"] .badge.recon')).to_have_attribute(
        "title", re.compile("^reconstructed: no source says"))
    text = page.locator("#new-table").inner_text()
    for code in ("_v1", "derived", "last_successful", "mujoco", "random_size", "[R"):
        assert code not in text, code
    page.locator("#advanced-options > summary").click()
    expect(page.locator("#opt-tremor")).to_be_visible()
    expect(page.locator("#opt-piece_set option")).to_have_text(
        ["meeple's own (the printed blocks are not known)"])
    page.screenshot(path=str(artifacts / f"new-table-options-{width}x{height}.png"),
                    full_page=True)
    fits_the_screen(page, width)

    short = next(i for i, p in enumerate(described["presets"]) if p["name"] == "Short game")
    page.locator(f"#preset-{short}").check()
    expect(page.locator("#opt-rounds")).to_have_value("1")
    page.locator("#opt-rounds").fill("2")
    page.locator("#opt-rounds").dispatch_event("change")
    expect(page.locator(f"#preset-{short}")).not_to_be_checked()  # changed by hand
    page.locator(f"#preset-{short}").check()
    expect(page.locator("#opt-rounds")).to_have_value("1")
    page.locator("#players").select_option("2")
    page.locator("#seat-1").select_option("bot:random")
    create(page)
    t = table_of(server, page)
    assert t["game"] == "kozo" and t["options"]["rounds"] == 1
    assert t["options"]["random_size"] is False and t["options"]["opponent_choice"] is False


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=SCREEN_IDS)
def test_a_hot_seat_table_gives_each_player_a_name(new_context, server, artifacts, width, height):
    page = new_context(width=width, height=height, phone=width < 500).new_page()
    me = sign_in_as_guest(page, "Hana")
    page.goto("/new?game=koplus")
    page.locator("#players").select_option("3")
    expect(page.locator("#seat-name-0")).to_be_hidden()  # one seat of mine: my own name
    page.locator("#seat-1").select_option("me")
    expect(page.locator("#seat-name-0")).to_be_visible()
    expect(page.locator("#seat-name-0")).to_have_value(me)
    expect(page.locator("#seat-name-1")).to_be_visible()
    expect(page.locator("#seat-name-2")).to_be_hidden()
    page.locator("#seat-name-1").fill("Ben")
    # A bot seat says which level it is, in words, from the ladder (weakest first).
    levels = api(server, "/api/bots")["bots"]
    offered = page.locator("#seat-2 optgroup option")
    names = [b["name"] if isinstance(b, dict) else b for b in levels]
    expect(offered).to_have_text([f"Bot: {n}" for n in names])
    first = levels[0]
    spec = first["spec"] if isinstance(first, dict) else first
    page.locator("#seat-2").select_option(f"bot:{spec}")
    if isinstance(first, dict) and first["description"]:
        expect(page.locator("#seat-note-2")).to_have_text(first["description"])
    page.screenshot(path=str(artifacts / f"new-table-hot-seat-{width}x{height}.png"),
                    full_page=True)
    fits_the_screen(page, width)
    create(page)
    t = table_of(server, page)
    assert [s["name"] for s in t["seats"][:2]] == [me, "Ben"]
    assert t["seats"][2]["kind"] == "bot" and t["seats"][2]["bot"] == spec
    expect(page.locator("body")).to_contain_text("Ben")
    expect(page.locator("body")).not_to_contain_text(f"{me} / {me}")


def test_a_hot_seat_name_that_is_refused_says_why(new_context, server):
    page = new_context().new_page()
    sign_in_as_guest(page, "Hana")
    page.goto("/new?game=koplus")
    page.locator("#players").select_option("2")
    page.locator("#seat-1").select_option("me")
    page.locator("#seat-name-1").fill("P\u0430ul")  # a Cyrillic "а" among Latin letters
    page.locator("#create").click()
    expect(page.locator("#new-table .error")).to_contain_text("cannot mix Cyrillic and Latin")
    assert "/new" in page.url


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=SCREEN_IDS)
def test_kontor_for_three_with_the_default_options(new_context, server, artifacts, width,
                                                  height):
    page = new_context(width=width, height=height, phone=width < 500).new_page()
    sign_in_as_guest(page, f"Kontor {width}")
    page.goto("/new?game=kontor")
    page.locator("#players").select_option("3")
    mode = page.locator("#opt-mode")
    expect(mode).to_have_value("")
    expect(mode.locator("option:checked")).to_have_text(
        "by the player count: basic for 2, the expansion for 3 or 4")
    # The presets for 2 players only cannot be picked for 3.
    described = api(server, "/api/games/kontor")["presets"]
    for i, p in enumerate(described):
        if p["players"] and 3 not in p["players"]:
            expect(page.locator(f"#preset-{i}")).to_be_disabled()
    expect(page.locator("#preset-0")).to_be_checked()
    page.locator("#seat-1").select_option("bot:random")
    page.locator("#seat-2").select_option("bot:random")
    page.screenshot(path=str(artifacts / f"new-table-kontor-{width}x{height}.png"),
                    full_page=True)
    fits_the_screen(page, width)
    create(page)
    t = table_of(server, page)
    assert t["players"] == 3 and t["options"]["mode"] == "expansion"
    expect(page.locator("#board")).to_be_visible()


def test_a_two_player_preset_sets_two_players(new_context, server):
    page = new_context().new_page()
    sign_in_as_guest(page, "Advanced")
    page.goto("/new?game=kontor")
    page.locator("#players").select_option("4")
    described = api(server, "/api/games/kontor")["presets"]
    i = next(i for i, p in enumerate(described) if p["name"] == "Advanced game")
    expect(page.locator(f"#preset-{i}")).to_be_disabled()
    page.locator("#players").select_option("2")
    page.locator(f"#preset-{i}").check()
    expect(page.locator("#opt-mode")).to_have_value('"advanced"')
    page.locator("#seat-1").select_option("bot:random")
    create(page)
    t = table_of(server, page)
    assert t["players"] == 2 and t["options"]["mode"] == "advanced"


def test_every_games_form_speaks_the_players_words(new_context, server):
    """Every word of the form, the folded options and every choice of every list included,
    is in the players' words: no option ids, stored values or codes of the rules."""
    page = new_context(390, 844, phone=True).new_page()
    sign_in_as_guest(page, "Wordy")
    for g in api(server, "/api/games")["games"]:
        page.goto(f"/new?game={g['name']}")
        expect(page.locator("#presets label.preset").first).to_be_visible()
        if page.locator("#advanced-options").count():
            page.locator("#advanced-options > summary").click()
        text = page.locator("#new-table").inner_text()
        text += "\n".join(page.locator("#new-table option").all_inner_texts())
        text += "\n".join(filter(None, page.locator("#new-table [placeholder]").evaluate_all(
            "els => els.map((e) => e.placeholder)")))
        for o in g["options"]:  # every option was read, the folded ones too
            assert o["label"] in text, (g["name"], o["label"])
        words = [o["name"] for o in g["options"] if "_" in o["name"]]
        words += [str(c) for o in g["options"] if o["type"] == "str"
                  for c in (o.get("choices") or []) if "_" in str(c)]
        for code in [*words, "_", "placeholder", "'all'", "<n>", "None", "True", "False",
                     "mcts", "greedy"]:
            assert code not in text, (g["name"], code)
        assert not re.search(r"\(as [A-Z]\d+\)|\b[A-Z]\d{1,2}\b", text), g["name"]
        fits_the_screen(page, 390)


def test_a_rated_table_from_the_form_and_what_it_asks_for(new_context, server):
    page = new_context(390, 844, phone=True).new_page()
    sign_up(page, "Rita")
    page.goto("/new?game=koplus")
    expect(page.locator("#rated-option")).to_contain_text(
        "Rated game" "Counts for the leaderboard: registered players only (no guests), the "
        "standard game, at least two different people, and no moves taken back. A game given "
        "up within its first 10 moves counts for nobody. Between the same two people only the "
        "first 3 rated games a day count.")
    expect(page.locator("#rated")).not_to_be_checked()
    page.locator("#rated").check()
    page.locator("#seat-1").select_option("bot:greedy")  # a bot is not a second person
    page.locator("#create").click()
    expect(page.locator("#new-table .error")).to_have_text(
        "A rated table needs at least two different people at it (bots do not count).")
    page.locator("#seat-1").select_option("open")
    page.locator("#preset-1").check()  # not the standard game
    page.locator("#create").click()
    expect(page.locator("#new-table .error")).to_contain_text(
        "A rated table is played with the game's standard options")
    page.locator("#preset-0").check()
    create(page)
    t = table_of(server, page)
    assert t["rated"] is True
    standard = {o["name"]: o["default"] for o in api(server, "/api/games/koplus")["options"]}
    assert t["options"] == standard
    waiting = api(server, "/api/tables?status=waiting")["tables"]
    assert [x["rated"] for x in waiting if x["id"] == t["id"]] == [True]
