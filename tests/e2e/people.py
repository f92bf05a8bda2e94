"""What a person does in the browser: sign in as a guest, set up a table, play moves by pointing
at the board or pressing the action buttons, read the result."""

from __future__ import annotations

import random
import re
import time

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

# Settings that keep a whole game short in a browser test (the web client knows no game).
SHORT_GAMES: dict[str, dict] = {
    "kozo": {"rounds": 1},
    "kontor": {"max_rounds": 4},
}


def sign_in_as_guest(page: Page, name: str) -> str:
    """Continue as a guest called ``name``; return the name the site gave (a name another
    guest holds gets a number)."""
    page.goto("/login")
    form = page.locator("#guest-form")
    form.get_by_label("Your name").fill(name)
    form.get_by_role("button", name="Continue as guest").click()
    expect(page.locator("#who")).to_contain_text(name)
    given = page.evaluate("fetch('/api/me').then((r) => r.json())")["name"]
    assert given == name or re.fullmatch(re.escape(name) + r" \(\d+\)", given), given
    return given


def sign_up(page: Page, name: str, password: str = "correct horse") -> str:
    """Register ``name`` (rated tables are for registered players) and sign in as them."""
    r = page.request.post("/api/signup", data={"name": name, "password": password})
    assert r.status == 200, r.text()
    page.goto("/")
    expect(page.locator("#who")).to_contain_text(name)
    return name


def set_option(page: Page, name: str, value) -> None:
    field = page.locator(f"#opt-{name}")
    tag = field.evaluate("e => e.tagName")
    if tag == "SELECT":
        field.select_option(value=__import__("json").dumps(value))
    elif field.get_attribute("type") == "checkbox":
        field.set_checked(bool(value))
    else:
        field.fill(str(value))


def create_table(page: Page, game: str, seats: list[str], *, players: int | None = None,
                 options: dict | None = None, visibility: str = "public",
                 clock: str = "") -> str:
    """Fill in the new-table form; ``seats`` entries are "me", "open" or "bot:<spec>".
    Returns the table id (the page is then on the table)."""
    page.goto(f"/new?game={game}")
    page.locator("#players").select_option(str(players or len(seats)))
    for name, value in (options or {}).items():
        set_option(page, name, value)
    for i, who in enumerate(seats):
        page.locator(f"#seat-{i}").select_option(who)
    page.locator("#visibility").select_option(visibility)
    page.locator("#clock").select_option(clock)
    page.locator("#create").click()
    try:
        page.wait_for_url(re.compile(r"/table/[^/]+$"), timeout=10_000)
    except Exception:
        raise AssertionError(
            "no table was made: " + page.locator("#new-table .error").inner_text()
        ) from None
    return page.url.rsplit("/", 1)[1]


def _sent(page: Page) -> int:
    """How many moves the board has sent so far."""
    return int(page.locator("#board").get_attribute("data-sent") or 0)


def _chosen(page: Page, before: int, timeout: float = 1.5) -> bool:
    """Did the last click or key send a move?"""
    try:
        page.wait_for_function(
            "n => +(document.querySelector('#board').dataset.sent || 0) > n",
            arg=before,
            timeout=timeout * 1000,
        )
        return True
    except Exception:
        return False


def play_one(page: Page, rng: random.Random) -> str:
    """Make one move as a person would; returns how it was chosen."""
    targets = page.locator("#board .target")
    buttons = page.locator("#board .action-button")
    nt, nb = targets.count(), buttons.count()
    before = _sent(page)
    if nt and (not nb or rng.random() < 0.8):
        el = targets.nth(rng.randrange(nt))
        el.evaluate("e => e.scrollIntoView({block: 'nearest'})")
        box = el.bounding_box()
        if box:
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(x, y)
            for _ in range(rng.randrange(3)):
                page.keyboard.press("r")
            if rng.random() < 0.3:
                page.mouse.wheel(0, 100)
            page.mouse.click(x, y)
            if _chosen(page, before):
                return "pointer"
        el.focus()
        page.keyboard.press("r")
        page.keyboard.press("Enter")
        if _chosen(page, before, 5):
            return "keyboard"
        raise AssertionError("neither a click nor Enter on a target sent a move")
    if nb:
        button = buttons.nth(rng.randrange(nb))
        button.click()
        if _chosen(page, before, 5):
            return "button"
        button.click()  # once more, where the preview under the pointer has put it
        if _chosen(page, before, 5):
            return "button"
        raise AssertionError("an action button sent no move")
    raise AssertionError("the board offers no action")


WHAT_NOW = """() => document.querySelector('#reveal') ? 'reveal'
    : document.querySelector('#board.can-act') ? 'act'
    : document.querySelector('#final') ? 'final' : ''"""


def play_to_end(pages: list[Page], rng: random.Random, limit: float = 120.0) -> dict:
    """Play on every page whenever it may act, until each shows the final result."""
    counts: dict[str, int] = {}
    deadline = time.monotonic() + limit
    while True:
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end within {limit} s; moves made: {counts}")
        if len(pages) == 1:
            what = [pages[0].wait_for_function(WHAT_NOW, timeout=30_000).json_value()]
        else:
            what = [p.evaluate(WHAT_NOW) for p in pages]
        if all(w == "final" for w in what):
            return counts
        if len(pages) > 1 and all(w == "act" for w in what):
            counts["together"] = counts.get("together", 0) + 1  # a simultaneous choice
        acted = False
        for page, w in zip(pages, what, strict=True):
            try:
                if w == "reveal":
                    page.locator("#reveal").click()
                    how = "reveal"
                elif w == "act":
                    how = play_one(page, rng)
                else:
                    continue
            except PlaywrightError:  # the picture changed under the pointer: look again
                continue
            counts[how] = counts.get(how, 0) + 1
            acted = True
        if not acted:
            pages[0].wait_for_timeout(50)


def final_scores(page: Page) -> list[str]:
    rows = page.locator("#final-scores tbody tr")
    return [rows.nth(i).locator("td").last.inner_text() for i in range(rows.count())]
