"""Every page of the site in German, Spanish and Dutch (and English): no visible text is left in
English, and in German on a phone nothing spills out of its box or makes the page scroll
sideways. One server, one browser: the tables are made once through the API, then each language
visits every page."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import BrowserContext, Page, expect

GAMES = ("koplus", "kozo", "mops_royal", "botanik", "kontor")
SHORT = {"kozo": {"rounds": 1}, "kontor": {"max_rounds": 4}}
NAME = "Zoltar"
OTHER = "Quibbix"
"""The person visiting, and the other player on the same device: names that are no word of any
of the languages."""

ENGLISH = {
    "the", "your", "you", "with", "and", "play", "plays", "played", "turn", "move", "moves",
    "game", "games", "player", "players", "new", "sign", "rules", "how", "wins", "score",
    "points", "round", "tile", "tiles", "waiting", "open", "join", "watch", "review", "this",
    "that", "from", "for", "not", "will", "have", "has", "are", "when", "what", "which",
    "there", "their", "cannot", "than", "after", "each", "every", "who", "nobody", "yet",
    "back", "next", "show", "choose", "left", "none", "seat", "table", "tables", "finished",
}
"""Common English words; a word also at home in the language is left out for it below."""
PROPER_NAMES = ("Board Game Arena", "Game NOWA", "Suki Games", "Game Market", "Winning Moves Games",
                "Logy Games", "Ancient Construct Tower of the Philosopher")
"""Names the rules pages give in English in every language (publishers, a game's own name)."""
NATIVE = {"de": {"will", "show"}, "es": {"has"}, "nl": {"open", "score"}}
"""Words of the list that are words of the language too (Dutch "open", German "will")."""

VISIBLE_TEXTS = """() => {
  const out = [];
  const seen = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || e.hidden) return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const parents = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || /^(SCRIPT|STYLE|NOSCRIPT|CODE|OPTION)$/.test(el.tagName)) continue;
    if (el.closest('code, pre, .chat-text, #notation, datalist')) continue;
    if (n.textContent.trim() && seen(el)) parents.add(el);
  }
  for (const el of parents) {
    const own = [...el.childNodes].filter((c) => c.nodeType === 3)
      .map((c) => c.textContent).join(' ');
    // the server's own words: rules pages, pictures, move sentences, lessons
    const server = !!el.closest(
      '#rules, #howto, svg, .log, .aid-body, #tutorial-text, #tutorial-title');
    out.push([own.replace(/\\s+/g, ' ').trim(), server]);
  }
  for (const el of document.querySelectorAll('[placeholder], [aria-label], [title], select')) {
    if (el.closest('svg title')) continue;
    if (!seen(el)) continue;
    for (const a of ['placeholder', 'aria-label'])
      if (el.getAttribute(a)) out.push([el.getAttribute(a).trim(), false]);
    if (el.tagName === 'SELECT' && el.selectedOptions[0])
      out.push([el.selectedOptions[0].textContent.trim(), false]);
  }
  out.push([document.title, false]);
  return out.filter((x) => x[0]);
}"""

OVERFLOW = """(width) => {
  const bad = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > width + 1) bad.push(`the page is ${doc.scrollWidth}px wide`);
  const sel = 'button, .button, label, h1, h2, h3, th, td, summary, legend, .badge, select, p';
  const scrolls = (el) => {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement)
      if (/auto|scroll/.test(getComputedStyle(e).overflowX)) return true;
    return false;
  };
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('svg') || scrolls(el)) continue;  // inside a box that scrolls on purpose
    const r = el.getBoundingClientRect();
    if (!r.width || getComputedStyle(el).display === 'none') continue;
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'auto')
      bad.push(`${el.tagName}#${el.id}.${el.className}: "${el.textContent.trim().slice(0, 40)}" ` +
               `(${el.scrollWidth} > ${el.clientWidth})`);
    if (r.right > width + 1)
      bad.push(`${el.tagName}#${el.id}.${el.className} ends at ${r.right}px`);
  }
  return bad;
}"""


def _table(ctx: BrowserContext, game: str, seats: list[dict], *, start: bool = True) -> str:
    body = {"game": game, "players": len(seats), "options": SHORT.get(game, {}),
            "seats": seats, "start": start}
    r = ctx.request.post("/api/tables", data=body)
    assert r.ok, r.text()
    return r.json()["table"]["id"]


def _wait_finished(ctx: BrowserContext, table: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while ctx.request.get(f"/api/tables/{table}").json()["table"]["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table} did not finish"
        time.sleep(0.2)


class Checker:
    """What one language may not show: the web catalog's English texts (where the language says
    them otherwise) and common English words."""

    def __init__(self, lang: str, words: dict, titles: list[str]) -> None:
        self.lang = lang
        self.exact: set[str] = set()
        self.patterns: list[re.Pattern[str]] = []
        for english, said in words["texts"].items():
            said = said[-1] if isinstance(said, list) else said
            if said == english or lang == "en":
                continue
            if "{" in english:
                parts = re.split(r"\{\w+\}", english)
                if sum(len(p.strip(" :·()—–.,")) for p in parts) >= 8:
                    self.patterns.append(re.compile(".*".join(map(re.escape, parts))))
            elif len(english) >= 3:
                self.exact.add(english)
        self.long = [e for e in self.exact if len(e.split()) >= 3]
        self.english = set() if lang == "en" else ENGLISH - NATIVE[lang]
        self.names = sorted([NAME, OTHER, "meeple", *titles, *PROPER_NAMES], key=len, reverse=True)

    def problems(self, texts: list[tuple[str, bool]]) -> list[str]:
        """What is English in ``texts`` (each with whether the server wrote it: the client's
        own texts are looked for only in the client's parts of the page)."""
        out = []
        for text, server in texts:
            if not server and (text in self.exact
                               or any(p.fullmatch(text) for p in self.patterns)):
                out.append(f"a text of the web client left in English: {text!r}")
                continue
            if not server and any(e in text for e in self.long):
                out.append(f"English inside: {text!r}")
                continue
            bare = text
            for n in self.names:
                bare = bare.replace(n, " ")
            words = {w.lower() for w in re.findall(r"[A-Za-z]+(?:'[a-z]+)?", bare)
                     if not re.search(r"\d", w)}
            found = words & self.english
            if found:
                out.append(f"English words {sorted(found)} in {text!r}")
        return out


def _visit(page: Page, path: str, ready: str) -> None:
    page.goto(path)
    expect(page.locator("main > .loading")).to_have_count(0)
    expect(page.locator("main > *").first).to_be_visible()
    expect(page.locator(ready).first).to_be_visible(timeout=30_000)


@pytest.mark.timeout(240)
def test_every_page_speaks_the_language_chosen(browser, server, artifacts):
    made: list[BrowserContext] = []

    def context(lang: str, phone: bool = False) -> BrowserContext:
        size = {"width": 390, "height": 844} if phone else {"width": 1200, "height": 900}
        ctx = browser.new_context(base_url=server, viewport=size, is_mobile=phone,
                                  has_touch=phone, device_scale_factor=2 if phone else 1,
                                  reduced_motion="reduce",
                                  locale={"en": "en-GB", "de": "de-DE", "es": "es-ES",
                                          "nl": "nl-NL"}[lang])
        ctx.set_default_timeout(20_000)
        made.append(ctx)
        return ctx

    try:
        owner = context("en")
        r = owner.request.post("/api/signup", data={"name": NAME, "password": "a good secret"})
        assert r.ok, r.text()
        me, bot = {"kind": "me"}, {"kind": "bot", "bot": "random"}
        waiting = _table(owner, "koplus", [me, {"kind": "open"}, {"kind": "open"}], start=False)
        playing = {g: _table(owner, g, [me, bot]) for g in GAMES}
        done = _table(owner, "kontor", [bot, bot])
        # hot-seat at a game with hidden hands: the screen that asks to pass the device
        hot = _table(owner, "kontor", [me, {"kind": "me", "name": OTHER}])
        _wait_finished(owner, done)
        titles = [g["title"] for g in owner.request.get("/api/games").json()["games"]]
        pages: list[tuple[str, str, str]] = [  # (address, what shows it is ready, its name)
            ("/", "#games .card", "lobby"), ("/login", "#signup-form", "login"),
            ("/new?game=koplus", "#seat-0", "new-table"),
            (f"/table/{waiting}", "#seat-list", "waiting"),
            *[(f"/table/{playing[g]}", "#board svg", f"table-{g}") for g in GAMES],
            (f"/table/{done}", "#final-scores", "result"),
            (f"/replay/{done}?move=3", "#board svg", "replay"),
            (f"/review/{done}", "#review-about", "review"), ("/rules", "#rules-list", "rules"),
            *[(f"/rules/{g}", "#rules", f"rules-{g}") for g in GAMES],
            (f"/table/{hot}", "#reveal", "pass-the-device"),
            *[(f"/tutorial/{g}", "#tutorial-text", f"tutorial-{g}") for g in GAMES],
            (f"/profile/{NAME}", "#profile-name", "profile"),
            ("/leaderboard", "#board-games", "leaderboard"),
            ("/no/such/page", "main h1", "not-found"),
        ]
        found: dict[str, list[str]] = {}
        spilled: list[str] = []
        for lang in ("de", "es", "nl", "en"):
            phone = lang == "de"
            ctx = context(lang, phone=phone)
            assert ctx.request.post("/api/login", data={"name": NAME,
                                                        "password": "a good secret"}).ok
            ctx.add_cookies([{"name": "lang", "value": lang, "url": server}])
            words = ctx.request.get(f"/api/words/{lang}").json()
            check = Checker(lang, words, titles)
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            # English: the pages still work (the words are the code's own)
            for path, ready, shot in pages if lang != "en" else pages[:5] + pages[-1:]:
                _visit(page, path, ready)
                assert page.evaluate("document.documentElement.lang") == lang, path
                if path.startswith("/review/"):
                    # the chances are estimated while the page is open: read it when shown
                    page.wait_for_function(
                        "() => !document.querySelector('#review-progress:not([hidden])')",
                        timeout=30_000)
                for problem in check.problems(page.evaluate(VISIBLE_TEXTS)):
                    found.setdefault(lang, []).append(f"{path}: {problem}")
                if phone:
                    spilled += [f"{path}: {b}" for b in page.evaluate(OVERFLOW, 390)[:4]]
                    page.screenshot(path=str(artifacts / f"lang-de-phone-{shot}.png"))
            assert not errors, (lang, errors)
        assert not spilled, "\n".join(spilled)
        # first the client's own words, then English from anywhere (the server's sentences,
        # pictures, rules pages, option labels and lessons included)
        own = {lang: [p for p in found[lang] if "left in English" in p] for lang in found}
        assert not any(own.values()), own
        assert not found, "\n".join(p for lang in found for p in [f"[{lang}]", *found[lang]])
    finally:
        for ctx in made:
            ctx.close()
