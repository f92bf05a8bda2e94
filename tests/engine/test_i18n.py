"""The four languages: the language in use, the catalogs in step with the code, and the rules
pages of every language naming the same rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.engine import catalogs, i18n

GAMES = Path(i18n.ROOT) / "games"


def test_choosing_a_language() -> None:
    assert i18n.known("de_DE.UTF-8") == "de" and i18n.known("nl-BE") == "nl"
    assert i18n.known("fr") is None and i18n.known("") is None
    assert i18n.negotiate("fr-CH, fr;q=0.9, de;q=0.7, *;q=0.5") == "de"
    assert i18n.negotiate("es;q=0.2, nl;q=0.8") == "nl"
    assert i18n.negotiate("fr, ja") is None and i18n.negotiate("de;q=0") is None
    assert i18n.from_environment({"LANG": "es_ES.UTF-8"}) == "es"
    assert i18n.from_environment({"LANGUAGE": "nl:de", "LANG": "de_DE"}) == "nl"
    assert i18n.from_environment({"LANG": "C.UTF-8"}) == "en"
    assert i18n.from_environment({}) == "en"
    with i18n.speaking("de"):
        assert i18n.language() == "de"
        with i18n.speaking("xx"):
            assert i18n.language() == "en"
        assert i18n.number(1234.5) == "1.234,5"
    assert i18n.language() == "en" and i18n.number(1234) == "1,234"


def test_a_count_with_a_fraction_takes_the_plural_form() -> None:
    _say, plural = i18n.words(i18n.ROOT / "engine" / "core.py")
    with i18n.speaking("de"):
        assert plural("{n} point", "{n} points", 2.5) == "2,5 Punkte"
    assert plural("{n} point", "{n} points", 1.0) == "1 point"
    assert plural("{n} point", "{n} points", 3.0) == "3 points"


def test_plural_categories_follow_the_catalogs() -> None:
    assert i18n.plural_categories("de") == ["one", "other"]
    assert i18n.plural_categories("es") == ["one", "many", "other"]


@pytest.mark.parametrize("folder", catalogs.folders(),
                         ids=lambda f: f.relative_to(i18n.ROOT).as_posix())
def test_every_text_has_all_its_translations(folder: Path) -> None:
    """A text without a translation in every language, a fuzzy or stale translation, or one
    whose placeholders differ fails here (``python -m meeple.engine.catalogs update`` adds the
    new texts to translate)."""
    found = list(catalogs.problems(folder))
    assert not found, f"{len(found)} catalog problems:\n" + "\n".join(found[:40])


def test_every_package_with_words_has_a_catalog() -> None:
    names = {f.relative_to(i18n.ROOT).as_posix() for f in catalogs.folders()}
    want = {"locale", "engine/locale", "bots/locale", "server/locale", "web/locale"}
    want |= {f"games/{g.name}/locale" for g in GAMES.iterdir() if (g / "rulebook.md").is_file()}
    assert want <= names


def _structure(markdown: str) -> list[tuple[str, list[str]]]:
    """The headings' levels in order, each with the reconstructed markers ([R1], …) of its
    section, and the tables' shapes (rows, columns), which translations keep."""
    out: list[tuple[str, list[str]]] = [("#0", [])]
    fence = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        m = re.match(r"(#{1,6})\s", line)
        if m:
            out.append((m.group(1), []))
        out[-1][1].extend(re.findall(r"\[R\d+(?:[–-]R?\d+)?(?:, ?R?\d+)*\]", line))
        if line.startswith("|"):
            out[-1][1].append(f"|{line.count('|')}")
    return out


PAGES = [(g.name, page) for g in sorted(GAMES.iterdir()) if (g / "rulebook.md").is_file()
         for page in ("rulebook", "howto")]


@pytest.mark.parametrize(("game", "page"), PAGES)
@pytest.mark.parametrize("lang", i18n.TRANSLATED)
def test_the_rules_pages_name_the_same_rules(game: str, page: str, lang: str) -> None:
    """Every language's page of a game has the English page's sections in the same order,
    the same reconstructed markers in each and the same tables."""
    english = (GAMES / game / f"{page}.md").read_text(encoding="utf-8")
    local = GAMES / game / f"{page}.{lang}.md"
    assert local.is_file(), f"{local.name} is missing"
    text = local.read_text(encoding="utf-8")
    assert _structure(text) == _structure(english)
    assert re.findall(r"\(picture:[\w-]+\)", text) == re.findall(r"\(picture:[\w-]+\)", english)
    assert i18n.page(f"meeple.games.{game}", f"{page}.md", lang) == text
